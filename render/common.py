"""Shared drawing helpers: bundled fonts, the seat palette and shapes, legible text, PNG encoding.

Renderers are pure functions of a *view* (never engine internals) returning PNG bytes.
The DejaVu fonts are bundled (render/fonts/, free licence in LICENSE-DejaVu.txt) because
Pillow's default font has no Polish or Cyrillic letters for player names.

Seats: every game shows an owner with ``SEAT_COLOURS[seat]`` *and* ``SEAT_SHAPES[seat]``
(``seat_marker``), so nobody has to tell seats apart by colour alone. The palette keeps every
pair at CIEDE2000 >= 20 under simulated deuteranopia, protanopia and tritanopia
(tests/render/test_palette.py measures it; worst pair ~28.8).

Text: renderers write through ``draw_text`` with a colour from ``text_on`` / ``legible``
(WCAG AA, contrast >= 4.5:1). Under ``record_text()`` every call is recorded with the colours
actually under it and the width of the PNG it ends in, so tests check contrast and phone
readability (``PHONE_WIDTH``) of every text in every image: >= ``PHONE_MIN_PX`` (11 px) once
the image is shown 390 px wide. Icons (crowns, seat markers, resources, buildings) are noted
with ``note_icon`` where they are pasted (cached layers included) and checked the same way
under ``record_icons()``: >= ``PHONE_MIN_ICON_PX`` (14 px).

Terrains: a colour and a texture (``draw_pattern``) or a glyph, so that no two terrains are
told apart by colour alone (tests/render/test_terrain_patterns.py).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache, wraps
from pathlib import Path
from typing import Any, TypeVar

from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT_DIR = Path(__file__).parent / "fonts"

RGB = tuple[int, int, int]

#: seat colours, used by every game so a player keeps their colour across games:
#: red, turquoise, yellow, violet, plum (searched for the largest worst-pair distance under
#: the three dichromacies, with lightness 30-88 and some chroma so each still reads as a colour)
SEAT_COLOURS: list[RGB] = [(215, 25, 50), (100, 235, 225), (250, 215, 40), (140, 110, 250),
                           (100, 45, 95)]
#: one shape per seat, in the same order: the second, colour-free cue
SEAT_SHAPES = ("circle", "square", "triangle", "diamond", "star")
INK: RGB = (30, 30, 30)
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
PAPER: RGB = (250, 247, 240)
#: WCAG AA for normal text
MIN_CONTRAST = 4.5
#: images are judged as shown on a phone this many pixels wide; a label a player needs to
#: choose a move must then be >= PHONE_MIN_PX tall: font px * PHONE_WIDTH / image width
PHONE_WIDTH = 390
PHONE_MIN_PX = 11
#: an icon (crown, seat marker, resource, building) must be >= this wide at phone width
PHONE_MIN_ICON_PX = 14


def min_label_px(image_width: int) -> int:
    """The smallest font size (px) that stays >= PHONE_MIN_PX at phone width."""
    return -(-PHONE_MIN_PX * image_width // PHONE_WIDTH)


def min_icon_px(image_width: int) -> int:
    """The smallest icon size (px) that stays >= PHONE_MIN_ICON_PX at phone width."""
    return -(-PHONE_MIN_ICON_PX * image_width // PHONE_WIDTH)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


def seat_colour(seat: int) -> RGB:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


# --- contrast ------------------------------------------------------------------------------
def relative_luminance(rgb: tuple[float, ...]) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0-255 channels)."""
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return (0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1])
            + 0.0722 * channel(rgb[2]))


def contrast_ratio(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """WCAG contrast ratio, 1..21."""
    la, lb = relative_luminance(a), relative_luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


@lru_cache(maxsize=256)
def text_on(background: RGB) -> RGB:
    """INK or white, whichever is legible on ``background``; black where neither is (black
    or white always reaches >= 4.58:1 on any colour)."""
    for candidate in (INK, WHITE):
        if contrast_ratio(candidate, background) >= MIN_CONTRAST:
            return candidate
    return BLACK


@lru_cache(maxsize=256)
def legible(colour: RGB, background: RGB) -> RGB:
    """``colour`` darkened (or lightened, on dark backgrounds) just enough for >= 4.5:1 on
    ``background``: text keeps its hue, e.g. a seat's name in its seat's colour."""
    target = BLACK if relative_luminance(background) > 0.18 else WHITE
    for step in range(21):
        k = step / 20
        mixed = tuple(round(c + (t - c) * k) for c, t in zip(colour, target, strict=True))
        if contrast_ratio(mixed, background) >= MIN_CONTRAST:
            return mixed  # type: ignore[return-value]
    return target


# --- seat shapes ---------------------------------------------------------------------------
def _shape_points(shape: str, size: float) -> list[tuple[float, float]]:
    s = size
    if shape == "square":
        m = 0.12 * s
        return [(m, m), (s - m, m), (s - m, s - m), (m, s - m)]
    if shape == "triangle":
        return [(s / 2, 0.04 * s), (0.97 * s, 0.9 * s), (0.03 * s, 0.9 * s)]
    if shape == "diamond":
        return [(s / 2, 0), (s, s / 2), (s / 2, s), (0, s / 2)]
    if shape == "star":
        from math import cos, pi, sin
        points = []
        for k in range(10):
            r = s * 0.54 if k % 2 == 0 else s * 0.25
            a = -pi / 2 + k * pi / 5
            points.append((s / 2 + r * cos(a), s * 0.54 + r * sin(a)))
        return points
    raise ValueError(f"unknown seat shape {shape!r}")


_MARKER_CANVAS = 128  # markers are drawn once per shape this large, then shrunk


@lru_cache(maxsize=8)
def _shape_layers(shape: str) -> tuple[Image.Image, Image.Image, Image.Image]:
    """Masks of a seat shape on the canvas: halo, rim (the shape) and fill (cached: the
    rank filters cost milliseconds, once per shape rather than per marker size)."""
    s = _MARKER_CANVAS
    halo = s // 14
    line = s // 22
    inner = s - 2 * halo
    mask = Image.new("L", (s, s), 0)
    dm = ImageDraw.Draw(mask)
    if shape == "circle":
        box = (halo + inner * 0.04, halo + inner * 0.04, halo + inner * 0.96,
               halo + inner * 0.96)
        dm.ellipse(box, fill=255)
    else:
        pts = [(halo + x, halo + y) for x, y in _shape_points(shape, inner)]
        dm.polygon(pts, fill=255)
    # a light halo around a dark rim: the marker shows on any colour, its own included
    outer = mask.filter(ImageFilter.MaxFilter(2 * halo + 1))
    core = mask.filter(ImageFilter.MinFilter(2 * line + 1))
    return outer, mask, core


@lru_cache(maxsize=128)
def seat_marker(seat: int, px: int, faded: bool = False) -> Image.Image:
    """The seat's shape filled with its colour, a dark outline inside a thin light halo so it
    shows on any background (RGBA, ``px`` square). ``faded``: a paler fill (e.g. a piece
    already used this round); the shape stays the same."""
    fill = seat_colour(seat)
    if faded:
        fill = tuple((c + 2 * p) // 3 for c, p in zip(fill, PAPER, strict=True))  # type: ignore
    outer, rim, core = _shape_layers(SEAT_SHAPES[seat % len(SEAT_SHAPES)])
    s = _MARKER_CANVAS
    img = Image.new("RGBA", (s, s), (255, 255, 255, 0))
    img.paste((255, 255, 255, 235), (0, 0), outer)
    img.paste(INK + (255,), (0, 0), rim)
    img.paste(fill + (255,), (0, 0), core)
    return img.resize((px, px), Image.Resampling.LANCZOS)


def draw_seat_marker(img: Image.Image, seat: int, center: tuple[int, int], px: int,
                     faded: bool = False) -> None:
    """Paste the seat's marker centred at ``center`` (``img`` RGB or RGBA)."""
    note_icon("seat", px)
    marker = seat_marker(seat, px, faded)
    x, y = center[0] - px // 2, center[1] - px // 2
    if img.mode == "RGBA":
        img.alpha_composite(marker, (x, y))
    else:
        img.paste(marker, (x, y), marker)


# --- text, recorded for the tests -------------------------------------------------------------
@dataclass
class TextRecord:
    text: str
    fill: RGB
    #: colours covering >= 10% of the text's box before it was drawn (or the stroke colour)
    backgrounds: list[RGB]
    size: int
    #: a label the player needs to choose a move (coordinates, numbers on buttons)
    key: bool
    #: width of the PNG the text ended in (set by to_png)
    image_width: int = 0

    def contrast(self) -> float:
        return min((contrast_ratio(self.fill, bg) for bg in self.backgrounds), default=21.0)

    def phone_px(self) -> float:
        return self.size * PHONE_WIDTH / self.image_width if self.image_width else 0.0


R = TypeVar("R")


@contextmanager
def _filling(var: ContextVar[list[R] | None]) -> Iterator[list[R]]:
    """A new list in ``var`` while active (the recorders below)."""
    records: list[R] = []
    token = var.set(records)
    try:
        yield records
    finally:
        var.reset(token)


_recording: ContextVar[list[TextRecord] | None] = ContextVar("render_text_records",
                                                             default=None)


def record_text() -> AbstractContextManager[list[TextRecord]]:
    """Record every ``draw_text`` (and bypass layer caches) while active: for tests."""
    return _filling(_recording)


def text_records() -> list[TextRecord] | None:
    """The list ``record_text`` is filling, or None: for drawing surfaces other than
    ``draw_text`` (render/canvas.py) that record their text themselves."""
    return _recording.get()


@dataclass
class IconRecord:
    """An icon as drawn: what it is and its size (its smaller side) in image px."""

    kind: str
    px: int
    #: width of the PNG the icon ended in (set by to_png or the canvas)
    image_width: int = 0

    def phone_px(self) -> float:
        return self.px * PHONE_WIDTH / self.image_width if self.image_width else 0.0


_icon_recording: ContextVar[list[IconRecord] | None] = ContextVar("render_icon_records",
                                                                  default=None)


def record_icons() -> AbstractContextManager[list[IconRecord]]:
    """Record every icon a renderer notes (``note_icon``) while active: for tests. Icons in
    cached layers are noted where the layer is pasted, so caches need no bypass."""
    return _filling(_icon_recording)


def note_icon(kind: str, px: int, image_width: int = 0) -> None:
    """Tell ``record_icons`` that an icon ``px`` wide was drawn (no-op when not recording)."""
    records = _icon_recording.get()
    if records is not None:
        records.append(IconRecord(kind, int(px), image_width))


F = TypeVar("F", bound=Callable[..., Any])


def layer_cache(maxsize: int = 128) -> Callable[[F], F]:
    """``lru_cache`` for drawn layers, bypassed under ``record_text`` so that the text in
    cached layers is recorded too."""
    def wrap(func: F) -> F:
        cached = lru_cache(maxsize=maxsize)(func)

        @wraps(func)
        def inner(*args: Any, **kwargs: Any) -> Any:
            if _recording.get() is not None:
                return func(*args, **kwargs)
            return cached(*args, **kwargs)
        inner.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
        return inner  # type: ignore[return-value]
    return wrap


def _colours_under(img: Image.Image, box: tuple[int, int, int, int]) -> list[RGB]:
    x0, y0 = max(0, box[0]), max(0, box[1])
    x1, y1 = min(img.width, box[2]), min(img.height, box[3])
    if x1 <= x0 or y1 <= y0:
        return []
    area = img.crop((x0, y0, x1, y1)).convert("RGB")
    total = area.width * area.height
    colours = area.getcolors(total) or []
    return [(c[0], c[1], c[2]) for n, c in colours  # type: ignore[index]
            if n * 10 >= total]


def draw_text(img: Image.Image, xy: tuple[float, float], text: str, *, font: Any,
              fill: RGB, anchor: str = "la", key: bool = False, stroke_width: int = 0,
              stroke_fill: RGB | None = None, draw: ImageDraw.ImageDraw | None = None) -> None:
    """``ImageDraw.text`` that tests can check: see ``record_text``. ``key``: the player
    needs this label to choose a move, so it must be phone-readable."""
    records = _recording.get()
    if records is not None:
        if stroke_width and stroke_fill is not None:
            backgrounds = [stroke_fill]
        else:
            left, top, right, bottom = (draw or ImageDraw.Draw(img)).textbbox(
                xy, text, font=font, anchor=anchor)
            backgrounds = _colours_under(img, (int(left), int(top), int(right), int(bottom)))
        records.append(TextRecord(text, (fill[0], fill[1], fill[2]), backgrounds,
                                  int(font.size), key))
    if stroke_width:
        d = draw or ImageDraw.Draw(img)
        d.text(xy, text, font=font, fill=fill, anchor=anchor, stroke_width=stroke_width,
               stroke_fill=stroke_fill)
        return
    # a line's mask is cached, and a new line is set word by word from cached word masks:
    # the same names, numbers and words return on every board, and FreeType rendering
    # (~0.5 ms a line) was most of the cost of a new line. Kerning across a space is
    # ignored (DejaVu kerns no space pairs).
    mask, left, top, width = _line(text, font)
    if mask is None:
        return
    ascent, descent = font.getmetrics()
    x = xy[0] - {"l": 0.0, "m": width / 2, "r": width}[anchor[0]]
    base = xy[1] + {"a": ascent, "t": ascent, "m": (ascent - descent) / 2, "s": 0,
                    "d": -descent}[anchor[1]]
    img.paste(fill, (round(x) + left, round(base) + top), mask)


@lru_cache(maxsize=4096)
def _line(text: str, fnt: Any) -> tuple[Image.Image | None, int, int, float]:
    """A line's mask, its offset from the baseline origin, and its width."""
    space = _space_width(fnt)
    placed = []
    x = 0.0
    for word in text.split(" "):
        mask, left, top, advance = _word(word, fnt)
        if mask is not None:
            placed.append((mask, round(x) + left, top))
        x += advance + space
    width = x - space
    if not placed:
        return None, 0, 0, width
    x0 = min(px for _, px, _ in placed)
    y0 = min(py for _, _, py in placed)
    x1 = max(px + m.width for m, px, _ in placed)
    y1 = max(py + m.height for m, _, py in placed)
    line = Image.new("L", (x1 - x0, y1 - y0), 0)
    for mask, px, py in placed:
        line.paste(mask, (px - x0, py - y0))
    return line, x0, y0, width


def text_width(text: str, fnt: Any) -> float:
    """The width ``draw_text`` gives ``text`` (cached per word, unlike ImageDraw.textlength)."""
    words = text.split(" ")
    return sum(_word(w, fnt)[3] for w in words) + _space_width(fnt) * (len(words) - 1)


def fit_text(text: str, fnt: Any, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` (long player names)."""
    if text_width(text, fnt) <= width:
        return text
    while text and text_width(text + "…", fnt) > width:
        text = text[:-1]
    return text + "…"


def dotted_lines(parts: list[str], fnt: Any, width: float,
                 broken: Callable[[str], list[str]] | None = None) -> list[str]:
    """``parts`` joined with dots into as few lines as fit ``width`` (none for no parts); a
    part that does not fit on the line before starts a line, or the lines ``broken`` makes
    of it."""
    lines: list[str] = []
    for part in parts:
        trial = f"{lines[-1]}  ·  {part}" if lines else part
        if lines and text_width(trial, fnt) <= width:
            lines[-1] = trial
        else:
            lines.extend([part] if broken is None else broken(part))
    return lines


@lru_cache(maxsize=64)
def _space_width(fnt: Any) -> float:
    return float(fnt.getlength(" "))


@lru_cache(maxsize=8192)
def _word(word: str, fnt: Any) -> tuple[Image.Image | None, int, int, float]:
    """A word's mask, its offset from the baseline origin, and its advance."""
    advance = float(fnt.getlength(word)) if word else 0.0
    if not word:
        return None, 0, 0, advance
    left, top, right, bottom = fnt.getbbox(word, anchor="ls")
    if right <= left or bottom <= top:
        return None, 0, 0, advance
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), word, font=fnt, fill=255, anchor="ls")
    return mask, left, top, advance


@lru_cache(maxsize=32)
def fixed_palette(colours: tuple[RGB, ...]) -> Image.Image:
    """A 256-colour palette image: ``colours`` exactly (a renderer's declared colours), the
    rest a 6x6x6 colour cube for antialiased edges. Mapping to a known palette costs ~1 ms
    where building one per image (FASTOCTREE) cost ~8 ms."""
    entries = list(dict.fromkeys(colours))
    if len(entries) > 40:  # the cube needs the other 216 entries
        raise ValueError(f"a fixed palette holds 40 declared colours, not {len(entries)}")
    cube = [(r * 51, g * 51, b * 51) for r in range(6) for g in range(6) for b in range(6)]
    entries += [c for c in cube if c not in entries]
    entries = entries[:256]
    flat = [v for c in entries for v in c] + [0] * (3 * (256 - len(entries)))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


# --- PNG --------------------------------------------------------------------------------------
def to_png(image: Image.Image, compress_level: int = 6,
           palette: Image.Image | None = None) -> bytes:
    """Encode as PNG; palette conversion keeps board images small. ``palette`` (from
    ``fixed_palette``) maps to known colours instead of building a palette per image."""
    for records in (_recording.get(), _icon_recording.get()):
        for record in records or ():
            if not record.image_width:
                record.image_width = image.width
    buf = io.BytesIO()
    # convert() copies even an RGB image: a sixth of a render process's time at 200 games
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    if palette is not None:
        indexed = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    else:
        indexed = rgb.quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    indexed.save(buf, format="PNG", optimize=False, compress_level=compress_level)
    return buf.getvalue()


def _stalks(d: ImageDraw.ImageDraw, px: int, step: int, ink: Any) -> None:
    """Short upright strokes in staggered rows."""
    for row, y in enumerate(range(3, px - 4, step)):
        for x in range(3 + (row % 2) * step // 2, px - 2, step):
            d.line([x, y, x, y + step // 2], fill=ink, width=2)


def _trees(d: ImageDraw.ImageDraw, px: int, step: int, ink: Any) -> None:
    """Small triangles."""
    for row, y in enumerate(range(3, px - step // 2, step)):
        for x in range(2 + (row % 2) * step // 2, px - step // 2, step):
            d.polygon([(x + step / 4, y), (x + step / 2, y + step / 2), (x, y + step / 2)],
                      fill=ink)


def _waves(d: ImageDraw.ImageDraw, px: int, step: int, ink: Any) -> None:
    """Zigzag lines."""
    for y in range(step // 2, px - 2, step):
        d.line([(x, y + (2 if (x // 4) % 2 else -2)) for x in range(0, px + 4, 4)], fill=ink,
               width=1)


def _tufts(d: ImageDraw.ImageDraw, px: int, step: int, ink: Any) -> None:
    """Little "v"s of grass."""
    for row, y in enumerate(range(3, px - 5, step)):
        for x in range(2 + (row % 2) * step // 2, px - 6, step):
            d.line([(x, y), (x + 2, y + 4), (x + 4, y)], fill=ink, width=2)


def _reeds(d: ImageDraw.ImageDraw, px: int, step: int, ink: Any) -> None:
    """Short dashes."""
    for row, y in enumerate(range(step // 2, px - 2, step // 2 + 2)):
        for x in range(2 + (row % 2) * step // 2, px - 3, step):
            d.line([x, y, x + step // 2, y], fill=ink, width=2)


def _hatch(d: ImageDraw.ImageDraw, px: int, step: int, ink: Any) -> None:
    """Diagonal lines."""
    for k in range(-px, px, step // 2 + 2):
        d.line([k, px, k + px, 0], fill=ink, width=1)


def _bricks(d: ImageDraw.ImageDraw, px: int, step: int, ink: Any) -> None:
    """Staggered courses of stones."""
    for row, y in enumerate(range(0, px, step)):
        d.line([0, y, px, y], fill=ink, width=1)
        for x in range((row % 2) * step // 2, px, step):
            d.line([x, y, x, y + step], fill=ink, width=1)


def _peaks(d: ImageDraw.ImageDraw, px: int, step: int, ink: Any) -> None:
    """Small mountain outlines."""
    for row, y in enumerate(range(step // 2 + 2, px - 1, step)):
        for x in range(1 + (row % 2) * step // 2, px - step + 2, step):
            d.line([(x, y), (x + step // 2 - 1, y - step // 2 + 1), (x + step - 2, y)],
                   fill=ink, width=2)


#: the terrain textures ``draw_pattern`` draws
PATTERNS: dict[str, Callable[[ImageDraw.ImageDraw, int, int, Any], None]] = {
    "stalks": _stalks, "trees": _trees, "waves": _waves, "tufts": _tufts, "reeds": _reeds,
    "hatch": _hatch, "bricks": _bricks, "peaks": _peaks,
}


def draw_pattern(d: ImageDraw.ImageDraw, kind: str, px: int, ink: Any) -> None:
    """A terrain texture (the cue beside its colour: colour is never alone) over a square
    ``px`` wide from (0, 0): ``kind`` one of ``PATTERNS``; ``ink`` a colour or palette
    index. The spacing grows with the square, never under 7 px, so it shows on a phone."""
    PATTERNS[kind](d, px, max(7, px // 4), ink)


def column_label(index: int) -> str:
    """0 -> 'A', 25 -> 'Z' (grids in Stolik are never wider than 26)."""
    return chr(ord("A") + index)
