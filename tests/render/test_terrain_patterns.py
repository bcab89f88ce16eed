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
            lambda terrain: kd.terrain_square(terrain, 0, 40, 15))


def _bunny_kingdom() -> tuple[dict[str, RGB], dict[str, str], Callable[[str], Image.Image]]:
    from render.bunny_kingdom import board, style

    def swatch(terrain: str) -> Image.Image:
        x0, y0, x1, y1 = board.cell_box(0)
        return board.map_layer((terrain,) * 100).crop((x0 + 1, y0 + 1, x1, y1))

    return (style.TERRAIN_COLOURS, {**style.TERRAIN_GLYPHS, **style.TERRAIN_TEXTURES}, swatch)


def _gheos() -> tuple[dict[str, RGB], dict[str, str], Callable[[str], Image.Image]]:
    from render.gheos import tiles

    def swatch(kind: str) -> Image.Image:  # a tile wholly of one kind: its middle
        sprite = tiles.tile_sprite(((kind, (0, 1, 2), ()),), True, 112)
        return sprite.crop((36, 50, 76, 88))

    return ({"landmass": tiles.LAND, "shore": tiles.SHORE}, tiles.PART_PATTERNS, swatch)


def _dwoch(faces: bool) -> Callable[[], tuple[dict[str, RGB], dict[str, str],
                                             Callable[[str], Image.Image]]]:
    """Dwóch następców tells its three terrains (face up and open backs) by colour alone:
    they are far enough apart, so they carry no pattern."""
    def get() -> tuple[dict[str, RGB], dict[str, str], Callable[[str], Image.Image]]:
        from render.dwoch_nastepcow import tiles
        colours = tiles.TILE_COLOURS if faces else tiles.BACK_COLOURS
        return (colours, dict.fromkeys(colours, "plain"),
                lambda terrain: Image.new("RGB", (40, 40), colours[terrain]))
    return get


GAMES = {"kingdomino": _kingdomino, "bunny_kingdom": _bunny_kingdom, "gheos": _gheos,
         "dwoch_nastepcow": _dwoch(True), "dwoch_nastepcow_backs": _dwoch(False)}


def _pattern_mask(img: Image.Image, base: RGB) -> bytes:
    """1 where the swatch is not its terrain's flat colour (its border left out)."""
    rgb = img.convert("RGB")
    inner = rgb.crop((2, 2, rgb.width - 2, rgb.height - 2))
    raw = inner.tobytes()
    flat = bytes(base)
    return bytes(0 if raw[i:i + 3] == flat else 1 for i in range(0, len(raw), 3))


@pytest.mark.parametrize("game", GAMES)
def test_every_terrain_pair_differs_in_colour_or_pattern(game):
    colours, patterns, swatch = GAMES[game]()
    assert set(patterns) == set(colours), "a terrain without a pattern"
    masks = {t: _pattern_mask(swatch(t), colours[t]) for t in colours}
    for t, mask in masks.items():
        if patterns[t] != "plain":
            assert sum(mask) > len(mask) * 0.05, f"{t}: its pattern is hardly drawn"
    for a, b in itertools.combinations(colours, 2):
        closest = min(distance(colours[a], colours[b], v) for v in MACHADO)
        if closest >= MIN_DELTA_E:
            continue
        assert patterns[a] != patterns[b], f"{a} and {b}: {closest:.1f} apart, same pattern"
        assert (patterns[a], patterns[b]) != ("plain", "plain")
        differing = sum(p != q for p, q in zip(masks[a], masks[b], strict=True))
        assert differing > len(masks[a]) * 0.05, f"{a} and {b}: the patterns look alike"


def test_the_colours_alone_would_fail():
    """The issue's measures: Kingdomino wheat and grassland ~3.9 apart under protanopia,
    Bunny Kingdom field and plains ~4.3, Gheos land and shore ~4.8: without their patterns
    the rule breaks."""
    from render.bunny_kingdom.style import TERRAIN_COLOURS as b
    from render.gheos.tiles import LAND, SHORE
    from render.kingdomino import TERRAIN_COLOURS as k
    assert distance(k["wheat"], k["grassland"], "protanopia") < MIN_DELTA_E
    assert distance(LAND, SHORE, "protanopia") < MIN_DELTA_E
    assert distance(b["field"], b["plains"], "protanopia") < MIN_DELTA_E
