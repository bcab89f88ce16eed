"""Shared drawing helpers: bundled fonts, colours, PNG encoding.

Renderers are pure functions of a *view* (never engine internals) returning PNG bytes.
The DejaVu fonts are bundled (render/fonts/, free licence in LICENSE-DejaVu.txt) because
Pillow's default font has no Polish or Cyrillic letters for player names.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageFont

FONT_DIR = Path(__file__).parent / "fonts"

#: seat colours, used by every game so a player keeps their colour across games
SEAT_COLOURS = [(214, 39, 40), (31, 119, 180), (44, 160, 44), (255, 187, 0), (148, 103, 189)]
INK = (30, 30, 30)
PAPER = (250, 247, 240)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


def to_png(image: Image.Image) -> bytes:
    """Encode as PNG; palette conversion keeps board images small."""
    buf = io.BytesIO()
    image.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(
        buf, format="PNG", optimize=False
    )
    return buf.getvalue()


def column_label(index: int) -> str:
    """0 -> 'A', 25 -> 'Z' (grids in Stolik are never wider than 26)."""
    return chr(ord("A") + index)
