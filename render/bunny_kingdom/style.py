"""Bunny Kingdom images' shared look: colours, sizes, the PNG palette and encoding, and the
words of the images (from the text catalog)."""

from __future__ import annotations

from typing import Any

from PIL import Image

from render.common import (
    INK,
    PAPER,
    SEAT_COLOURS,
    fixed_palette,
    legible,
    min_icon_px,
    min_label_px,
)
from render.common import to_png as encode_png
from text.catalog import t

P = "bunny_kingdom."

TERRAIN_COLOURS = {
    "forest": (52, 120, 58),
    "sea": (70, 140, 205),
    "field": (226, 196, 92),
    "plains": (168, 206, 120),
    "mountain": (150, 138, 128),
    "city": (214, 196, 166),
}
#: the second, colour-free cue of each terrain (field and plains are ~4 apart under
#: protanopia): a glyph of its resource on every forest, sea and field cell, a texture on the
#: others (``render.common.draw_pattern``)
TERRAIN_GLYPHS = {"forest": "wood", "sea": "fish", "field": "carrots"}
TERRAIN_TEXTURES = {"plains": "tufts", "mountain": "peaks", "city": "bricks"}
#: a texture's ink: the terrain's own colour, darker
TEXTURE_INK = {terrain: tuple(round(c * 0.72) for c in TERRAIN_COLOURS[terrain])
               for terrain in TERRAIN_TEXTURES}
LAVA = (232, 70, 20)
GRID = (90, 80, 70)
GOLD = (240, 196, 40)
SOFT = (110, 104, 96)
LUXURY = {"pearl", "mushroom", "spices", "diamond", "copper", "gold", "iron"}

LAVA_CORE = (255, 214, 0)  # the lava bar's dashes: lava is told from a red fief by texture
WHITE = (255, 255, 255)
CARD_EDGE = (200, 190, 175)
# text inside icons (drawn large and shrunk, so not through draw_text): its colour pairs are
# declared here and checked by tests/render/test_bunny_kingdom_images.py
INGOT_TEXT = (40, 25, 10)
INGOTS = {"copper": ((205, 120, 60), "Cu"), "gold": ((245, 200, 40), "Au"),
          "iron": ((150, 155, 165), "Fe")}
TOWER = (100, 90, 190)  # the sky tower's body, under its white pair number
PROVISIONS = (140, 95, 45)  # the provisions card, dark enough for its white "+2" (>= 4.5:1)
CAMP_DARK = (70, 45, 20)  # the camp's outline and the stroke round its white number
ICON_TEXT = (
    *((INGOT_TEXT, fill) for fill, _ in INGOTS.values()),
    (WHITE, TOWER), (WHITE, PROVISIONS), (WHITE, CAMP_DARK),
    ((60, 60, 60), (250, 248, 240)),  # "?" on an unset trading post
)

# phone-sized: the map is the image's width and every player's block goes below it
CELL = 56
LABEL = 28
MARGIN = 10
BOARD_PX = CELL * 10
WIDTH = MARGIN + LABEL + BOARD_PX + LABEL + MARGIN
TEXT_PX = min_label_px(WIDTH)  # >= 11 px when the image is shown 390 px wide
ICON_PX = min_icon_px(WIDTH)  # >= 14 px when the image is shown 390 px wide
LINE_H = TEXT_PX + 6
PANEL_W = WIDTH - 2 * MARGIN
BLOCK_W = (PANEL_W - 8) // 2  # players' blocks two by two: a shorter image
ROWS = "ABCDEFGHIJ"
SCALE = 4  # icons are drawn large and shrunk: smooth edges


def tr(lang: str, key: str, **params: Any) -> str:
    return t(lang, P + key, **params)


def lbl(lang: str, key: str, **params: Any) -> str:
    """A word of the image itself (``bunny_kingdom.render.*``)."""
    return t(lang, P + "render." + key, **params)


def card_name(lang: str, kind: str) -> str:
    if kind and kind[0] in ROWS and kind[1:].isdigit():
        return kind  # a territory card is named by its cell
    return tr(lang, f"card.{kind}")


def to_png(image: Image.Image) -> bytes:
    """PNG with the board's fixed palette (terrain, seats, lava exact; icon shades nearest)
    and zlib level 1: on the 628x1146 board level 3 costs ~1.5 ms more for ~12% fewer bytes
    (~50 KB either way)."""
    return encode_png(image, compress_level=1, palette=PALETTE)


def who(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"#{seat + 1}"


HAND_W = 520
HAND_TEXT = min_label_px(HAND_W)
RESERVE_TAG = (0, 90, 160)  # the reserve card's frame and tag: 7:1 on white


#: every flat colour of the images, kept exact by the PNG palette
PALETTE = fixed_palette((
    *TERRAIN_COLOURS.values(), *TEXTURE_INK.values(), *SEAT_COLOURS, LAVA, LAVA_CORE, GRID,
    GOLD, SOFT, INK, PAPER,
    WHITE, CARD_EDGE, RESERVE_TAG, (235, 230, 220), (0, 0, 0),
    *(legible(c, WHITE) for c in SEAT_COLOURS), *(legible(c, PAPER) for c in SEAT_COLOURS),
    (245, 240, 228), (200, 60, 50), (60, 50, 40), (250, 248, 240), TOWER, PROVISIONS,
))
