"""A cheap, checkable drawing surface: palette mode, cached labels and sprites, recorded text.

Why it exists: most of a board's CPU went into Pillow's text drawing (~0.15 ms a label) and
into quantising the finished RGB image for PNG (7–15 ms). A ``Canvas`` draws straight into a
fixed palette (``Palette``: the colours a renderer declares plus a colour cube for smooth
edges), so nothing is quantised at the end; each label is rasterised once per process and
pasted through a mask; RGBA sprites (tile pictures) are mapped to the palette once, cached.

Every text goes through ``Canvas.text``, which records what was drawn (``TextMark``: text
colour, the colour behind it, size, whether a move needs it) in ``Canvas.marks`` and, under
``render.common.record_text``, as ``TextRecord``s like ``draw_text`` does; text inside a
cached sprite is kept with the sprite and recorded each time it is pasted. Tests check
contrast (WCAG) and phone readability of every text in every image from these records.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw

from render.common import (
    INK,
    SEAT_SHAPES,
    TextRecord,
    font,
    min_label_px,
    note_icon,
    seat_colour,
    seat_marker,
    text_records,
)

RGB = tuple[int, int, int]
Anchor = Literal["la", "lm", "mm", "rm", "ma", "ra"]

#: colour cube levels for anti-aliased edges of sprites (5 x 5 x 5 = 125 entries)
_CUBE_LEVELS = (0, 64, 128, 192, 255)
#: PNG zlib level: 1 is several times cheaper than 6 and the files stay well under 100 KB
PNG_LEVEL = 1
#: labels with at least this much ink in a pixel are drawn (the canvas has no blending)
_INK_THRESHOLD = 100
_INK_LUT = [255 if v >= _INK_THRESHOLD else 0 for v in range(256)]
_OPAQUE_LUT = [255 if v >= 128 else 0 for v in range(256)]


class Palette:
    """The 256 colours one renderer draws with: its declared colours, then a colour cube."""

    def __init__(self, colours: list[RGB]) -> None:
        named = list(dict.fromkeys(colours))
        cube = [(r, g, b) for r in _CUBE_LEVELS for g in _CUBE_LEVELS for b in _CUBE_LEVELS]
        entries = named + [c for c in cube if c not in named]
        if len(entries) > 256:
            raise ValueError(f"{len(named)} declared colours: at most {256 - len(cube)} fit")
        self.colours = entries
        self._index = {c: i for i, c in enumerate(entries)}
        flat = [v for c in entries for v in c] + [0] * (768 - 3 * len(entries))
        self.image = Image.new("P", (1, 1))
        self.image.putpalette(flat)

    def __getitem__(self, colour: RGB) -> int:
        """The palette index of a declared colour (KeyError for one never declared)."""
        return self._index[colour]


@dataclass(frozen=True)
class TextMark:
    """One text as drawn: the renderer's promise of what is readable."""

    text: str
    size: int
    fill: RGB
    back: RGB
    #: a label a player needs to choose a move (must be phone-readable)
    key: bool = True
    #: where it is (left, top, right, bottom), in the image (in a sprite: in the sprite)
    box: tuple[int, int, int, int] | None = None


@dataclass
class Sprite:
    """An RGBA picture mapped to a palette once: pixels, opaque mask, and the texts in it."""

    pixels: Image.Image
    mask: Image.Image
    marks: tuple[TextMark, ...] = ()


@lru_cache(maxsize=4096)
def label_mask(text: str, size: int, bold: bool) -> tuple[Image.Image, int]:
    """A label's pixels as a 1-bit mask (line height tall) and its left bearing."""
    f = font(size, bold)
    box = f.getbbox(text, anchor="la")
    left, right = int(box[0]), int(math.ceil(box[2]))
    ascent, descent = f.getmetrics()
    img = Image.new("L", (max(1, right - left), ascent + descent), 0)
    ImageDraw.Draw(img).text((-left, 0), text, font=f, fill=255, anchor="la")
    return img.point(_INK_LUT).convert("1"), left


def text_size(image_width: int) -> int:
    """The text size for an image ``image_width`` wide: phone-readable
    (``render.common.min_label_px``), rounded up to a multiple of 4 so that boards of
    nearby widths share one size, and the labels rasterised for it (a width change
    otherwise re-rasterises every label: tens of ms)."""
    return -(-min_label_px(image_width) // 4) * 4


@lru_cache(maxsize=8192)
def text_width(text: str, size: int, bold: bool = False) -> int:
    """Advance width in px: measured, not rasterised (layout measures many trial lines)."""
    return math.ceil(font(size, bold).getlength(text))


def line_height(size: int, bold: bool = False) -> int:
    ascent, descent = font(size, bold).getmetrics()
    return ascent + descent


def to_sprite(image: Image.Image, palette: Palette, marks: tuple[TextMark, ...] = ()) -> Sprite:
    """Map an RGB/RGBA picture to ``palette`` (nearest colours, no dithering)."""
    rgba = image.convert("RGBA")
    pixels = rgba.convert("RGB").quantize(palette=palette.image, dither=Image.Dither.NONE)
    mask = rgba.getchannel("A").point(_OPAQUE_LUT).convert("1")
    return Sprite(pixels, mask, marks)


@dataclass
class Canvas:
    """A palette image with a recording ``text``; ``draw`` is a plain ImageDraw for shapes."""

    width: int
    height: int
    palette: Palette
    background: RGB
    marks: list[TextMark] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.image = Image.new("P", (self.width, self.height), self.palette[self.background])
        self.image.putpalette(self.palette.image.getpalette() or [])
        self.draw = ImageDraw.Draw(self.image)
        self._records = text_records()

    def _record(self, mark: TextMark, under: list[RGB] | None = None) -> None:
        self.marks.append(mark)
        if self._records is not None:
            self._records.append(TextRecord(mark.text, mark.fill, under or [mark.back],
                                            mark.size, mark.key, self.width))

    def _colours_under(self, box: tuple[int, int, int, int]) -> list[RGB]:
        """The colours covering >= 10% of ``box`` as drawn so far (for the records: the
        contrast test then checks what is really behind the text, not what was declared)."""
        area = self.image.crop(box)
        total = max(1, area.width * area.height)
        counts = area.getcolors(total) or []
        # a palette image counts colours by index
        return [self.palette.colours[i] for n, i in counts if isinstance(i, int) and n * 10 >= total]

    def icon(self, kind: str, px: float) -> None:
        """Note an icon ``px`` wide drawn on this canvas (``render.common.record_icons``)."""
        note_icon(kind, int(px), self.width)

    def c(self, colour: RGB) -> int:
        """Palette index for ImageDraw calls: ``canvas.draw.line(..., fill=canvas.c(INK))``."""
        return self.palette[colour]

    def text(self, xy: tuple[float, float], text: str, size: int, fill: RGB, back: RGB, *,
             bold: bool = False, anchor: Anchor = "la", plate: bool = False,
             pad: int = 3, key: bool = True) -> tuple[int, int, int, int]:
        """Draw ``text`` at ``xy`` over the colour ``back`` (drawn as a plate when ``plate``).

        ``anchor``: first letter l/m/r for the x of the left, middle, right; second a/m for the
        y of the top or middle of the line. Returns the text's box.
        """
        mask, _left = label_mask(text, size, bold)
        w, h = mask.size
        x = xy[0] - (0 if anchor[0] == "l" else w / 2 if anchor[0] == "m" else w)
        y = xy[1] - (0 if anchor[1] == "a" else h / 2)
        box = (int(round(x)), int(round(y)), int(round(x)) + w, int(round(y)) + h)
        if plate:
            self.draw.rounded_rectangle((box[0] - pad, box[1] - 1, box[2] + pad, box[3] + 1),
                                        radius=3, fill=self.c(back))
        under = self._colours_under(box) if self._records is not None else None
        self.image.paste(self.c(fill), box, mask)
        self._record(TextMark(text, size, fill, back, key, box), under)
        return box

    def paste(self, sprite: Sprite, xy: tuple[float, float]) -> None:
        x, y = int(round(xy[0])), int(round(xy[1]))
        self.image.paste(sprite.pixels, (x, y), sprite.mask)
        for mark in sprite.marks:
            if mark.box is not None:
                left, top, right, bottom = mark.box
                mark = replace(mark, box=(left + x, top + y, right + x, bottom + y))
            self._record(mark)

    def png(self) -> bytes:
        buf = io.BytesIO()
        self.image.save(buf, format="PNG", compress_level=PNG_LEVEL)
        return buf.getvalue()


# --- seat marks -----------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _marker_sprite(seat: int, px: int, palette: Palette) -> Sprite:
    return to_sprite(seat_marker(seat, px), palette)


def seat_mark(canvas: Canvas, seat: int, centre: tuple[float, float], r: float,
              colour: RGB | None = None, outline_only: bool = False) -> None:
    """A seat's shape (``render.common.SEAT_SHAPES``): the shared seat marker in the seat's
    colour, or the shape filled with a game's own ``colour`` (Dwóch's white and blue), or
    only its outline (Gheos, where players own no colour)."""
    canvas.icon("seat", 2 * r)
    if colour is None and not outline_only:
        px = int(2 * r + 2)
        canvas.paste(_marker_sprite(seat, px, canvas.palette), (centre[0] - px / 2,
                                                                centre[1] - px / 2))
        return
    x, y = centre
    fill = None if outline_only else canvas.c(colour or seat_colour(seat))
    ink = canvas.c(INK)
    shape = SEAT_SHAPES[seat % len(SEAT_SHAPES)]
    d = canvas.draw
    if shape == "circle":
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=ink, width=2)
    elif shape == "square":
        d.rectangle((x - r * 0.9, y - r * 0.9, x + r * 0.9, y + r * 0.9), fill=fill,
                    outline=ink, width=2)
    elif shape == "triangle":
        d.polygon([(x, y - r * 1.1), (x + r * 1.1, y + r * 0.85), (x - r * 1.1, y + r * 0.85)],
                  fill=fill, outline=ink, width=2)
    elif shape == "diamond":
        d.polygon([(x, y - r * 1.15), (x + r * 1.15, y), (x, y + r * 1.15), (x - r * 1.15, y)],
                  fill=fill, outline=ink, width=2)
    else:  # star
        points = []
        for k in range(10):
            rk = r * 1.2 if k % 2 == 0 else r * 0.55
            a = -math.pi / 2 + k * math.pi / 5
            points.append((x + rk * math.cos(a), y + rk * math.sin(a)))
        d.polygon(points, fill=fill, outline=ink, width=2)


def wrap(text: str, width: float, size: int, bold: bool = False) -> list[str]:
    """Words in lines no wider than ``width`` (a single longer word keeps its own line)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        test = f"{line} {word}".strip()
        if not line or text_width(test, size, bold) <= width:
            line = test
        else:
            lines.append(line)
            line = word
    return [*lines, line] if line else lines
