"""Colour never alone (issue 25 item 3): every pair of terrains is told apart under simulated
protanopia, deuteranopia and tritanopia, by colour (CIEDE2000 >= 10) or else by a pattern,
and each pattern is really drawn and differs from the others."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from PIL import Image

from tests.render.colour_vision import MACHADO, distance

RGB = tuple[int, int, int]
MIN_DELTA_E = 10


def _kingdomino() -> tuple[dict[str, RGB], dict[str, str], Callable[[str], Image.Image]]:
    from render import kingdomino as kd
    return (kd.TERRAIN_COLOURS, kd.TERRAIN_PATTERNS,
            lambda terrain: kd._square(terrain, 0, 40, 15))


GAMES = {"kingdomino": _kingdomino}


def _pattern_mask(img: Image.Image, base: RGB) -> bytes:
    """1 where the swatch is not its terrain's flat colour (its border left out)."""
    rgb = img.convert("RGB")
    inner = rgb.crop((2, 2, rgb.width - 2, rgb.height - 2))
    return bytes(0 if px == base else 1 for px in list(inner.getdata()))


@pytest.mark.parametrize("game", GAMES)
def test_every_terrain_pair_differs_in_colour_or_pattern(game):
    colours, patterns, swatch = GAMES[game]()
    assert set(patterns) == set(colours), "a terrain without a pattern"
    masks = {t: _pattern_mask(swatch(t), colours[t]) for t in colours}
    for t, mask in masks.items():
        assert sum(mask) > len(mask) * 0.08, f"{t}: its pattern is hardly drawn"
    for a, b in itertools.combinations(colours, 2):
        closest = min(distance(colours[a], colours[b], v) for v in MACHADO)
        if closest >= MIN_DELTA_E:
            continue
        assert patterns[a] != patterns[b], f"{a} and {b}: {closest:.1f} apart, same pattern"
        differing = sum(p != q for p, q in zip(masks[a], masks[b], strict=True))
        assert differing > len(masks[a]) * 0.08, f"{a} and {b}: the patterns look alike"


def test_kingdomino_needs_its_patterns():
    """The issue's measure: wheat and grassland are ~3.9 apart under protanopia."""
    from render.kingdomino import TERRAIN_COLOURS as k
    assert distance(k["wheat"], k["grassland"], "protanopia") < MIN_DELTA_E
