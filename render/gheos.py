"""Gheos images: the map of triangular tiles (channel) and a player's hand (private).

A pure function of a view (``engines.gheos`` ``view(state, None)`` for the board): the
renderer never sees the state, so it cannot show the bag or anyone's hand. The map is cropped
to the tiles plus the free cells around them; rows are lettered down the left side, columns
numbered along the top, and every tile and free cell carries its name (``M30``), so a player
can name any cell. A continent's *label* tile (the name used in codes) shows its name in
gold. Civilization markers are discs on their continent, whose land is outlined in the
civilization's colour. Below the map: the epoch, whose step it is, every player (seat mark,
name, points, tokens, followers), the supply and every continent with its symbols.

Phone width: the image is portrait (panel under the map, not beside it) and every text is at
least ``text_size(width)`` pixels, so it is 9 px or more when Discord shows the image 390 px
wide. Players own no colour in Gheos, so a seat is shown by the outline of its seat shape
(``render.common.SEAT_SHAPES``) in ink, never in a seat colour: the six colours in the image
are always civilizations.

Drawn on a ``render.canvas.Canvas`` (palette mode): tile pictures are drawn three times larger
and shrunk once per tile, orientation and size, then mapped to the palette and cached.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.canvas import (
    Canvas,
    Palette,
    Sprite,
    line_height,
    seat_mark,
    text_size,
    text_width,
    to_sprite,
)
from render.common import INK, PAPER, min_label_px
from text.catalog import t

SEA = (64, 124, 176)
SEA_DARK = (44, 96, 148)
LAND = (138, 184, 92)
LAND_EDGE = (92, 134, 60)
SHORE = (196, 190, 120)
FREE = (226, 232, 236)
FREE_LINE = (176, 188, 198)
FREE_TEXT = (62, 70, 78)
HIGHLIGHT = (255, 64, 160)
LAST = (255, 214, 10)
GOLD = (214, 160, 20)
LABEL_GOLD = (255, 226, 90)
LABEL_PLATE = (40, 20, 0)
WHITE = (255, 255, 255)
GREY = (120, 120, 120)
EMPTY_TOKEN = (220, 214, 200)
BOX = (240, 236, 226)
ACTIVE_BOX = (255, 246, 214)
EPOCH = (140, 80, 0)
ALERT = (160, 30, 60)
WINNER = (0, 110, 40)
STAR = (220, 20, 20)
STAR_EDGE = (90, 0, 0)
MARGIN = 12
SS = 2  # supersampling factor for tile sprites
MIN_WIDTH = 600  # narrower maps are centred on this width (room for the panel)
SIDE = 80  # tile side in pixels, one size for every map: each tile picture is drawn once

#: the game's six civilization colours, in shades that stay >= 20 apart (CIEDE2000) under
#: simulated deuteranopia, protanopia and tritanopia (red and green were 7 apart)
CIV_RGB = {
    "red": (180, 20, 20),
    "green": (0, 170, 110),
    "yellow": (245, 210, 20),
    "blue": (40, 90, 210),
    "black": (28, 28, 28),
    "white": (248, 248, 248),
}
CIV_ORDER = ("red", "green", "yellow", "blue", "black", "white")
TEMPLE_ROOF = {"temple_wheat": (226, 180, 40), "temple_chalice": (190, 120, 30),
               "temple_swords": (120, 120, 140)}
PALETTE = Palette([
    PAPER, INK, WHITE, SEA, SEA_DARK, LAND, LAND_EDGE, SHORE, FREE, FREE_LINE, FREE_TEXT,
    HIGHLIGHT, LAST, GOLD, LABEL_GOLD, LABEL_PLATE, GREY, EMPTY_TOKEN, BOX, ACTIVE_BOX, EPOCH,
    ALERT, WINNER, STAR, STAR_EDGE, *CIV_RGB.values(), *TEMPLE_ROOF.values(),
])  # no seat colours: players own no colour in Gheos



# --- geometry ------------------------------------------------------------------------------
def _vertices(up: bool, s: float, h: float) -> list[tuple[float, float]]:
    """Corner points in slot order: edge slot ``i`` runs from corner i to corner i+1."""
    if up:
        return [(0, h), (s / 2, 0), (s, h)]  # slot 0 left, 1 right, 2 bottom
    return [(s, 0), (s / 2, h), (0, 0)]  # slot 0 right (SE), 1 left (SW), 2 top


def _lerp(a, b, f):
    return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)


def _bezier(a, c, b, n=10):
    return [((1 - u) ** 2 * a[0] + 2 * (1 - u) * u * c[0] + u * u * b[0],
             (1 - u) ** 2 * a[1] + 2 * (1 - u) * u * c[1] + u * u * b[1])
            for u in (i / n for i in range(n + 1))]


def _inward(a, b, centre, d):
    """Offset of length ``d`` perpendicular to a-b, toward ``centre``."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    length = math.hypot(ex, ey) or 1
    nx, ny = -ey / length, ex / length
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    if (centre[0] - mx) * nx + (centre[1] - my) * ny < 0:
        nx, ny = -nx, -ny
    return nx * d, ny * d


@lru_cache(maxsize=4096)
def part_shapes(up: bool, s: float, slots_per_part: tuple[tuple[int, ...], ...]
                ) -> list[tuple[list[tuple[float, float]], list[tuple[float, float]]]]:
    """For each part: (polygon, symbol spots) in tile-local pixels (cached: do not modify)."""
    h = s * math.sqrt(3) / 2
    v = _vertices(up, s, h)
    g = ((v[0][0] + v[1][0] + v[2][0]) / 3, (v[0][1] + v[1][1] + v[2][1]) / 3)
    d = 0.2 * h
    out = []
    for slots in slots_per_part:
        if len(slots) == 3:
            poly = list(v)
            spots = [(g[0] + dx * s * 0.17, g[1]) for dx in (-1, 0, 1)]
        elif len(slots) == 2:
            a, b = slots
            first = a if (a + 1) % 3 == b else b  # edges first, first+1 meet at corner first+1
            corner = v[(first + 1) % 3]
            p, q = v[first], v[(first + 2) % 3]
            m = _lerp(p, q, 0.5)
            a1, b1 = _lerp(corner, p, 0.86), _lerp(corner, q, 0.86)
            poly = [corner, a1, *_bezier(a1, _lerp(m, corner, 0.55), b1), b1]
            centre = _lerp(corner, m, 0.5)
            along = ((q[0] - p[0]) * 0.17, (q[1] - p[1]) * 0.17)
            spots = [(centre[0] - along[0], centre[1] - along[1]), centre,
                     (centre[0] + along[0], centre[1] + along[1])]
        else:
            slot = slots[0]
            start, end = v[slot], v[(slot + 1) % 3]
            nx, ny = _inward(start, end, g, d)
            a1, b1 = _lerp(start, end, 0.1), _lerp(end, start, 0.1)
            a2, b2 = _lerp(start, end, 0.2), _lerp(end, start, 0.2)
            poly = [a1, b1, (b2[0] + nx, b2[1] + ny), (a2[0] + nx, a2[1] + ny)]
            spots = [(_lerp(start, end, f)[0] + nx * 0.5, _lerp(start, end, f)[1] + ny * 0.5)
                     for f in (0.3, 0.5, 0.7)]
        out.append((poly, spots))
    return out


def symbol_spots(spots: list[tuple[float, float]], n: int) -> list[tuple[float, float]]:
    """Where ``n`` symbols of one part go: centre for one, the outer two for two."""
    if n == 1:
        return [spots[1]]
    if n == 2:
        return [spots[0], spots[2]]
    return spots[:n]


# --- icons -------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def icon(symbol: str, px: int) -> Image.Image:
    """A symbol icon ``px`` square (drawn large and shrunk for smooth edges)."""
    big = px * 4
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    w = big
    d.ellipse((0, 0, w - 1, w - 1), fill=(250, 246, 232, 235), outline=(60, 50, 30, 255),
              width=max(2, w // 24))

    def P(x, y):
        return (x * w, y * w)

    if symbol == "wheat":
        d.line([P(0.5, 0.88), P(0.5, 0.18)], fill=(150, 110, 20), width=w // 16)
        for y in (0.28, 0.44, 0.60):
            d.ellipse((*P(0.30, y - 0.07), *P(0.49, y + 0.07)), fill=(222, 170, 30))
            d.ellipse((*P(0.51, y - 0.07), *P(0.70, y + 0.07)), fill=(222, 170, 30))
        d.ellipse((*P(0.42, 0.10), *P(0.58, 0.26)), fill=(222, 170, 30))
    elif symbol == "chalice":
        gold, dark = (232, 180, 20), (120, 80, 0)
        d.polygon([P(0.24, 0.18), P(0.76, 0.18), P(0.66, 0.46), P(0.34, 0.46)], fill=gold,
                  outline=dark)
        d.ellipse((*P(0.34, 0.36), *P(0.66, 0.56)), fill=gold, outline=dark)
        d.rectangle((*P(0.46, 0.54), *P(0.54, 0.72)), fill=gold)
        d.ellipse((*P(0.30, 0.70), *P(0.70, 0.84)), fill=gold, outline=dark)
    elif symbol == "swords":
        steel, hilt = (120, 128, 140), (110, 60, 20)
        for flip in (False, True):
            a, b = (0.2, 0.2), (0.8, 0.8)
            if flip:
                a, b = (0.8, 0.2), (0.2, 0.8)
            d.line([P(*a), P(*b)], fill=steel, width=w // 10)
            gx = (0.3, 0.62) if not flip else (0.7, 0.62)
            ex = 0.12
            d.line([P(gx[0] - ex, gx[1] + ex), P(gx[0] + ex, gx[1] - ex)] if not flip else
                   [P(gx[0] - ex, gx[1] - ex), P(gx[0] + ex, gx[1] + ex)],
                   fill=hilt, width=w // 12)
    elif symbol == "pyramid":
        d.polygon([P(0.5, 0.16), P(0.86, 0.78), P(0.14, 0.78)], fill=(226, 196, 120),
                  outline=(120, 90, 40))
        d.polygon([P(0.5, 0.16), P(0.86, 0.78), P(0.56, 0.78)], fill=(186, 150, 80))
    elif symbol.startswith("temple_"):
        roof = TEMPLE_ROOF.get(symbol, (200, 200, 200))
        stone = (236, 232, 220)
        d.polygon([P(0.5, 0.12), P(0.86, 0.34), P(0.14, 0.34)], fill=roof, outline=(60, 50, 30))
        for x in (0.24, 0.42, 0.58, 0.76):
            d.rectangle((*P(x - 0.05, 0.36), *P(x + 0.05, 0.72)), fill=stone,
                        outline=(90, 80, 60))
        d.rectangle((*P(0.14, 0.72), *P(0.86, 0.82)), fill=stone, outline=(90, 80, 60))
    return img.resize((px, px), Image.Resampling.LANCZOS)


def temple_icon(symbol: str, px: int) -> Image.Image:
    """A temple with the small symbol of its kind in the corner."""
    base = icon(symbol, px).copy()
    kind = symbol.removeprefix("temple_")
    small = icon(kind, max(8, px // 2))
    base.alpha_composite(small, (px - small.width, px - small.height))
    return base


def _paste_icon(img: Image.Image, symbol: str, centre: tuple[float, float], px: int) -> None:
    ic = temple_icon(symbol, px) if symbol.startswith("temple_") else icon(symbol, px)
    img.alpha_composite(ic, (int(centre[0] - px / 2), int(centre[1] - px / 2)))


# --- tile sprites ---------------------------------------------------------------------------
def _parts_key(parts: list[dict[str, Any]], field: str) -> tuple:
    return tuple((p["kind"], tuple(p[field]), tuple(p["symbols"])) for p in parts)


@lru_cache(maxsize=512)
def tile_sprite(parts_key: tuple, up: bool, s: int, start: bool = False) -> Image.Image:
    """A tile as an RGBA image the size of its cell (``s`` wide): sea, land, symbols."""
    h = s * math.sqrt(3) / 2
    w_big, h_big = s * SS, int(math.ceil(h)) * SS
    big = Image.new("RGBA", (w_big, h_big), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    corners = [(x * SS, y * SS) for x, y in _vertices(up, s, h)]
    d.polygon(corners, fill=SEA)
    shapes = part_shapes(up, s * SS, tuple(k[1] for k in parts_key))
    for (kind, _slots, _sym), (poly, _spots) in zip(parts_key, shapes, strict=True):
        d.polygon(poly, fill=LAND if kind == "landmass" else SHORE, outline=LAND_EDGE,
                  width=SS)
    d.line([*corners, corners[0]], fill=SEA_DARK, width=SS)
    img = big.reduce(SS)  # a box filter: smooth enough, several times cheaper
    px = max(14, s // 5)
    for (_kind, _slots, symbols), (_poly, spots) in zip(
            parts_key, part_shapes(up, s, tuple(k[1] for k in parts_key)), strict=True):
        for sym, spot in zip(symbols, symbol_spots(spots, len(symbols)), strict=False):
            _paste_icon(img, sym, spot, px)
    if start:
        _star(img, up, s, h)
    return img


def _star(img: Image.Image, up: bool, s: int, h: float) -> None:
    d = ImageDraw.Draw(img)
    cx = s / 2
    cy = h * (0.42 if up else 0.58)
    r1, r2 = s * 0.07, s * 0.03
    pts = []
    for i in range(10):
        r = r1 if i % 2 == 0 else r2
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    d.polygon(pts, fill=(220, 20, 20), outline=(90, 0, 0))


@lru_cache(maxsize=2048)
def tile_pixels(parts_key: tuple, up: bool, s: int, start: bool = False) -> Sprite:
    """``tile_sprite`` mapped to the palette, once per tile, orientation and size."""
    return to_sprite(tile_sprite(parts_key, up, s, start), PALETTE)


@lru_cache(maxsize=64)
def icon_pixels(symbol: str, px: int) -> Sprite:
    picture = temple_icon(symbol, px) if symbol.startswith("temple_") else icon(symbol, px)
    return to_sprite(picture, PALETTE)


# --- the board ------------------------------------------------------------------------------
def _cell_origin(col: int, row: int, s: int, ox: float, oy: float) -> tuple[float, float]:
    h = s * math.sqrt(3) / 2
    return ox + col * s / 2, oy + row * h


def render_board(view: dict[str, Any], *, names: list[str], lang: str = "en",
                 highlight: str | None = None) -> bytes:
    """The channel image: map, markers, labels, and the panel under it. PNG bytes."""
    return board_canvas(view, names=names, lang=lang, highlight=highlight).png()


def board_image(view: dict[str, Any], *, names: list[str], lang: str = "en",
                highlight: str | None = None) -> Image.Image:
    return board_canvas(view, names=names, lang=lang, highlight=highlight).image


def board_canvas(view: dict[str, Any], *, names: list[str], lang: str = "en",
                 highlight: str | None = None) -> Canvas:
    cells = [(b["col"], b["row"]) for b in view["board"]]
    free = [(c, _parse(c)) for c in view["frontier"]]
    every = cells + [cr for _, cr in free]
    min_c = min(c for c, _ in every)
    max_c = max(c for c, _ in every)
    min_r = min(r for _, r in every)
    max_r = max(r for _, r in every)
    s = SIDE
    h = s * math.sqrt(3) / 2
    map_w = int((max_c - min_c + 2) * s / 2) + 2
    map_h = int((max_r - min_r + 1) * h) + 2
    # the text size depends on the width, the row-letter column on the text size
    width = max(MIN_WIDTH, map_w + 2 * MARGIN + 2 * text_size(MIN_WIDTH))
    for _ in range(3):
        label_w = text_size(width) + 6
        width = max(MIN_WIDTH, map_w + 2 * MARGIN + label_w)
    fs = text_size(width)
    top = MARGIN + line_height(fs, True)
    left = MARGIN + label_w + (width - 2 * MARGIN - label_w - map_w) // 2
    panel = _Panel(view, names, lang, width, fs)
    height = top + map_h + MARGIN + panel.height()
    canvas = Canvas(width, height, PALETTE, PAPER)
    d = canvas.draw
    ox = left - min_c * s / 2
    oy = top - min_r * h
    # coordinates: row letters on the left, column numbers on top
    for r in range(min_r, max_r + 1):
        canvas.text((MARGIN, oy + r * h + h / 2), chr(ord("A") + r), fs, INK, PAPER,
                    bold=True, anchor="lm")
    for c in range(min_c, max_c + 1):
        canvas.text((ox + c * s / 2 + s / 2, MARGIN - 2), str(c + 1), fs, INK, PAPER,
                    anchor="ma")
    # free cells next to the board
    for name, (c, r) in free:
        x, y = _cell_origin(c, r, s, ox, oy)
        up = (c + r) % 2 == 0
        pts = [(x + px, y + py) for px, py in _vertices(up, s, h)]
        d.polygon(pts, fill=canvas.c(FREE), outline=canvas.c(FREE_LINE))
        canvas.text((x + s / 2, y + h * (0.64 if up else 0.36)), name, fs, FREE_TEXT, FREE,
                    anchor="mm")
    # tiles
    for b in view["board"]:
        x, y = _cell_origin(b["col"], b["row"], s, ox, oy)
        canvas.paste(tile_pixels(_parts_key(b["parts"], "slots"), b["up"], s,
                                 b.get("start", False)), (x, y))
    # civilization outlines and markers
    region_civ = {r["id"]: r["civ"] for r in view["regions"] if r.get("civ")}
    labels = {r["label"] for r in view["regions"] if r["kind"] == "continent"}
    by_cell = {b["cell"]: b for b in view["board"]}
    for b in view["board"]:
        if not any(p["region"] in region_civ for p in b["parts"]):
            continue
        x, y = _cell_origin(b["col"], b["row"], s, ox, oy)
        shapes = part_shapes(b["up"], s, tuple(tuple(p["slots"]) for p in b["parts"]))
        for p, (poly, _spots) in zip(b["parts"], shapes, strict=True):
            civ = region_civ.get(p["region"])
            if civ:
                pts = [(x + px, y + py) for px, py in poly]
                d.line([*pts, pts[0]], fill=canvas.c(CIV_RGB[civ]), width=3)
    markers = []
    for civ in view["civs"]:
        if civ["part"] is None:
            continue
        cell, idx = civ["part"].split("/")
        b = by_cell[cell]
        x, y = _cell_origin(b["col"], b["row"], s, ox, oy)
        shapes = part_shapes(b["up"], s, tuple(tuple(p["slots"]) for p in b["parts"]))
        poly, spots = shapes[int(idx)]
        gx = sum(px for px, _ in poly) / len(poly)
        gy = sum(py for _, py in poly) / len(poly)
        markers.append((civ["civ"], (x + (gx + spots[1][0]) / 2, y + (gy + spots[1][1]) / 2)))
    # highlights: the last tile put down, and the cell a preview asks about (under the
    # names and markers, so they stay readable)
    last = (view.get("last") or {}).get("cell")
    for cell, colour, wid in ((last, LAST, 3), (highlight, HIGHLIGHT, 5)):
        if not cell:
            continue
        c, rr = _parse(cell)
        x, y = _cell_origin(c, rr, s, ox, oy)
        up = (c + rr) % 2 == 0
        pts = [(x + px, y + py) for px, py in _vertices(up, s, h)]
        d.line([*pts, pts[0]], fill=canvas.c(colour), width=wid, joint="curve")
    # cell names (the continent label tiles in gold)
    for b in view["board"]:
        x, y = _cell_origin(b["col"], b["row"], s, ox, oy)
        spot = (x + s / 2, y + h * (0.30 if b["up"] else 0.70))
        if b["cell"] in labels:
            canvas.text(spot, b["cell"], fs, LABEL_GOLD, LABEL_PLATE, bold=True, anchor="mm",
                        plate=True, pad=2)
        else:
            canvas.text(spot, b["cell"], fs, WHITE, INK, anchor="mm", plate=True, pad=2)
    r = max(9, s // 8)
    for colour, (mx, my) in markers:
        d.ellipse((mx - r - 2, my - r - 2, mx + r + 2, my + r + 2), fill=canvas.c(WHITE))
        d.ellipse((mx - r, my - r, mx + r, my + r), fill=canvas.c(CIV_RGB[colour]),
                  outline=canvas.c(INK), width=2)
    panel.draw(canvas, top + map_h + MARGIN)
    return canvas


def _parse(cell: str) -> tuple[int, int]:
    return int(cell[1:]) - 1, ord(cell[0]) - ord("A")


# --- the panel under the map ----------------------------------------------------------------
class _Flow:
    """Items laid left to right, wrapping at the right edge; measures without a canvas."""

    def __init__(self, canvas: Canvas | None, x0: int, x1: int, y: int, line: int) -> None:
        self.canvas, self.x0, self.x1, self.line = canvas, x0, x1, line
        self.x, self.y = x0, y

    def item(self, width: int, draw: Any = None, gap: int = 10) -> None:
        if self.x > self.x0 and self.x + width > self.x1:
            self.newline()
        if self.canvas is not None and draw is not None:
            draw(self.canvas, self.x, self.y)
        self.x += width + gap

    def text(self, text: str, size: int, fill: tuple[int, int, int], back: tuple[int, int, int],
             bold: bool = False, gap: int = 10) -> None:
        self.item(text_width(text, size, bold), lambda c, x, y: c.text(
            (x, y + self.line / 2), text, size, fill, back, bold=bold, anchor="lm"), gap)

    def newline(self, extra: int = 0) -> None:
        self.x, self.y = self.x0, self.y + self.line + extra

    def end(self) -> int:
        """The y under the last line."""
        return self.y + (self.line if self.x > self.x0 else 0)


class _Panel:
    """Epoch, step, players, supply, continents and the symbol legend, ``width`` wide."""

    def __init__(self, view: dict[str, Any], names: list[str], lang: str, width: int,
                 fs: int) -> None:
        self.view, self.names, self.lang, self.width, self.fs = view, names, lang, width, fs
        self.line = line_height(fs, True) + 6

    def height(self) -> int:
        return self._lay(None, 0)

    def draw(self, canvas: Canvas, y: int) -> None:
        self._lay(canvas, y)

    def _name(self, seat: int) -> str:
        return self.names[seat] if seat < len(self.names) else f"#{seat + 1}"

    def _lay(self, canvas: Canvas | None, y0: int) -> int:
        view, lang, fs = self.view, self.lang, self.fs
        x0, x1 = MARGIN, self.width - MARGIN
        flow = _Flow(canvas, x0, x1, y0, self.line)
        flow.text("Gheos", fs + 4, INK, PAPER, bold=True, gap=16)
        flow.text(t(lang, "gheos.ui.epochs", n=view["epochs"], last=view["last_epoch"]), fs,
                  EPOCH, PAPER, bold=True, gap=16)
        flow.text(t(lang, "gheos.ui.turn", n=view["turn_no"]), fs, INK, PAPER, gap=16)
        flow.text(t(lang, "gheos.ui.bag", n=view["bag"]), fs, INK, PAPER)
        flow.newline()
        turn = view["turn"]
        for word in t(lang, f"gheos.ui.step_{view['phase']}", player=self._name(turn)).split():
            flow.text(word, fs, INK, PAPER, bold=True, gap=text_width(" ", fs, True))
        flow.newline()
        pend = view.get("pending")
        if pend:
            for word in _pending_line(pend, self._name(turn), lang).split():
                flow.text(word, fs, ALERT, PAPER, gap=text_width(" ", fs))
            flow.newline()
        lifted = [c["civ"] for c in view["civs"] if c.get("migrating")]
        if lifted:  # markers lifted off a split continent, waiting for their new land
            for civ in lifted:
                flow.item(fs, _disc(civ, fs), gap=4)
            flow.text(t(lang, "gheos.ui.migrating"), fs, ALERT, PAPER)
            flow.newline()
        if view.get("over") and view.get("ranking"):
            first = view["ranking"][0]
            key = "gheos.ui.winner" if len(first) == 1 else "gheos.ui.draw"
            flow.text(t(lang, key, players=", ".join(self._name(s) for s in first)), fs,
                      WINNER, PAPER, bold=True)
            flow.newline()
        y = flow.end() + 6
        for seat in view["seats"]:
            y = self._seat(canvas, seat, y, active=seat["seat"] == turn and not view.get("over"))
        # supply: a ring for a civilization not on the board, a disc for one that is
        flow = _Flow(canvas, x0, x1, y + 4, self.line)
        flow.text(t(lang, "gheos.ui.supply") + ":", fs, INK, PAPER, bold=True)
        on_board = {c["civ"] for c in view["civs"]}
        for civ in CIV_ORDER:
            n = str(view["supply"].get(civ, 0))
            flow.item(fs + 4 + fs + 2 + text_width(n, fs), _supply(civ, civ in on_board, n, fs),
                      gap=14)
        y = flow.end() + 8
        # every continent: its civilization (or an empty ring) and its symbols
        conts = [r for r in view["regions"] if r["kind"] == "continent"]
        conts.sort(key=lambda r: (r["civ"] is None, _parse(r["label"])[1], _parse(r["label"])[0]))
        cell_w = fs + 6 + text_width("W30", fs, True) + 8 + 4 * (fs + 4 + text_width("00", fs) + 8)
        cols = max(1, (x1 - x0) // cell_w)
        for i, r in enumerate(conts):
            cx = x0 + (i % cols) * ((x1 - x0) // cols)
            cy = y + (i // cols) * self.line
            if canvas is not None:
                _continent(canvas, r, cx, cy, self.line, fs)
        y += -(-len(conts) // cols) * self.line + 6
        # legend
        flow = _Flow(canvas, x0, x1, y, self.line)
        for sym in ("wheat", "chalice", "swords", "pyramid", "temple_swords"):
            word = t(lang, "gheos.ui.temple" if sym.startswith("temple") else f"gheos.term.{sym}")
            flow.item(fs + 4 + 4 + text_width(word, fs), _legend(sym, word, fs, self.line),
                      gap=16)
        return flow.end() + MARGIN - y0

    def _seat(self, canvas: Canvas | None, seat: dict[str, Any], y: int, active: bool) -> int:
        fs, x0, x1 = self.fs, MARGIN, self.width - MARGIN
        s = seat["seat"]
        inner = _Flow(None, x0 + 8, x1 - 8, y + 4 + self.line, self.line)
        self._seat_details(inner, seat)
        bottom = inner.end() + 4
        if canvas is None:
            return bottom + 6
        back = ACTIVE_BOX if active else BOX
        canvas.draw.rounded_rectangle((x0, y, x1, bottom), radius=6, fill=canvas.c(back),
                                      outline=canvas.c(INK), width=3 if active else 1)
        mid = y + 4 + self.line / 2
        seat_mark(canvas, s, (x0 + 8 + fs / 2, mid), fs / 2, outline_only=True)
        canvas.text((x0 + 16 + fs, mid), self._name(s)[:24], fs, INK, back, bold=True,
                    anchor="lm")
        canvas.text((x1 - 8, mid), t(self.lang, "gheos.ui.points", n=seat["score"]), fs, INK,
                    back, bold=True, anchor="rm")
        self._seat_details(_Flow(canvas, x0 + 8, x1 - 8, y + 4 + self.line, self.line), seat,
                           back)
        return bottom + 6

    def _seat_details(self, flow: _Flow, seat: dict[str, Any], back: tuple = BOX) -> None:
        """Scoring tokens left, tiles in hand (face down), followers per civilization."""
        fs = self.fs
        word = t(self.lang, "gheos.ui.tokens")
        flow.item(3 * (fs + 3) + 4 + text_width(word, fs), _tokens(seat["tokens"], word, fs,
                                                                   back), gap=18)
        flow.item(max(1, seat["hand"]) * (fs + 3), _hand(seat["hand"], fs), gap=18)
        if not seat["followers"]:
            flow.text("—", fs, INK, back)
        for civ in CIV_ORDER:
            n = seat["followers"].get(civ, 0)
            if n:
                flow.item(fs + 3 + text_width(str(n), fs), _cube(civ, str(n), fs, back), gap=12)


def _disc(civ: str, fs: int) -> Any:
    def draw(c: Canvas, x: int, y: int) -> None:
        m = y + c_line(fs) / 2
        c.draw.ellipse((x, m - fs / 2, x + fs, m + fs / 2), fill=c.c(CIV_RGB[civ]),
                       outline=c.c(INK), width=2)
    return draw


def c_line(fs: int) -> int:
    return line_height(fs, True) + 6


def _cube(civ: str, n: str, fs: int, back: tuple) -> Any:
    def draw(c: Canvas, x: int, y: int) -> None:
        m = y + c_line(fs) / 2
        k = fs * 0.42
        c.draw.rectangle((x, m - k, x + 2 * k, m + k), fill=c.c(CIV_RGB[civ]),
                         outline=c.c(INK), width=1)
        c.text((x + fs + 3, m), n, fs, INK, back, anchor="lm")
    return draw


def _supply(civ: str, on_board: bool, n: str, fs: int) -> Any:
    def draw(c: Canvas, x: int, y: int) -> None:
        m = y + c_line(fs) / 2
        r = fs * 0.42
        if on_board:
            c.draw.ellipse((x, m - r, x + 2 * r, m + r), fill=c.c(CIV_RGB[civ]),
                           outline=c.c(INK), width=1)
        else:
            c.draw.ellipse((x, m - r, x + 2 * r, m + r), fill=c.c(PAPER),
                           outline=c.c(CIV_RGB[civ] if civ != "white" else INK), width=2)
        _cube(civ, n, fs, PAPER)(c, x + fs + 4, y)
    return draw


def _tokens(n: int, word: str, fs: int, back: tuple) -> Any:
    def draw(c: Canvas, x: int, y: int) -> None:
        m = y + c_line(fs) / 2
        r = fs * 0.42
        for i in range(3):
            fill = GOLD if i < n else EMPTY_TOKEN
            cx = x + i * (fs + 3) + r
            c.draw.ellipse((cx - r, m - r, cx + r, m + r), fill=c.c(fill), outline=c.c(INK))
        c.text((x + 3 * (fs + 3) + 4, m), word, fs, INK, back, anchor="lm")
    return draw


def _hand(n: int, fs: int) -> Any:
    def draw(c: Canvas, x: int, y: int) -> None:
        m = y + c_line(fs) / 2
        for i in range(n):
            bx = x + i * (fs + 3)
            c.draw.polygon([(bx, m + fs * 0.45), (bx + fs / 2, m - fs * 0.45),
                            (bx + fs, m + fs * 0.45)], fill=c.c(WHITE), outline=c.c(INK))
    return draw


def _legend(sym: str, word: str, fs: int, line: int) -> Any:
    def draw(c: Canvas, x: int, y: int) -> None:
        c.paste(icon_pixels(sym, fs + 4), (x, y + (line - fs - 4) / 2))
        c.text((x + fs + 8, y + line / 2), word, fs, INK, PAPER, anchor="lm")
    return draw


def _continent(canvas: Canvas, r: dict[str, Any], x: int, y: int, line: int, fs: int) -> None:
    m = y + line / 2
    if r["civ"]:
        canvas.draw.ellipse((x, m - fs / 2, x + fs, m + fs / 2), fill=canvas.c(CIV_RGB[r["civ"]]),
                            outline=canvas.c(INK), width=2)
    else:
        canvas.draw.ellipse((x, m - fs / 2, x + fs, m + fs / 2), outline=canvas.c(GREY), width=2)
    canvas.text((x + fs + 6, m), r["label"], fs, INK, PAPER, bold=True, anchor="lm")
    cx = x + fs + 6 + text_width("W30", fs, True) + 8
    for sym in ("wheat", "chalice", "swords", "pyramid"):
        canvas.paste(icon_pixels(sym, fs + 4), (cx, m - (fs + 4) / 2))
        canvas.text((cx + fs + 6, m), str(r[sym]), fs, INK, PAPER, anchor="lm")
        cx += fs + 4 + text_width("00", fs) + 8


def _pending_line(pend: dict[str, Any], who: str, lang: str) -> str:
    kind = pend.get("type")
    if kind == "pay":
        return t(lang, "gheos.ui.pending_pay", player=who)
    if kind == "migrate":
        return t(lang, "gheos.ui.pending_migrate", civ=t(lang, f"gheos.term.{pend['civ']}"),
                 options=", ".join(pend["options"]))
    if kind == "war":
        return t(lang, "gheos.ui.pending_war", cell=pend.get("cell", ""),
                 options=", ".join(t(lang, f"gheos.term.{c}") for c in pend["options"]))
    return ""


# --- a player's hand -----------------------------------------------------------------------
def render_hand(view: dict[str, Any], *, names: list[str], lang: str = "en") -> bytes:
    """A seat's hand tiles, each shown in its three rotations (r0, r1, r2) as it would lie
    on an up-pointing cell (a down-pointing cell shows it turned half a turn)."""
    return hand_canvas(view, names=names, lang=lang).png()


def hand_canvas(view: dict[str, Any], *, names: list[str], lang: str = "en") -> Canvas:
    private = view.get("private") or {}
    hand = private.get("hand", [])
    seat = private.get("seat", 0)
    s = 120
    h = s * math.sqrt(3) / 2
    width = MARGIN * 2 + 3 * (s + 24)
    fs = max(min_label_px(width), 14)
    row_h = int(h + 2 * line_height(fs, True) + 12)
    height = 56 + max(1, len(hand)) * row_h
    canvas = Canvas(width, height, PALETTE, PAPER)
    name = names[seat] if seat < len(names) else f"#{seat + 1}"
    seat_mark(canvas, seat, (MARGIN + fs / 2 + 2, MARGIN + 14), fs / 2 + 2,
              outline_only=True)
    canvas.text((MARGIN + fs + 12, MARGIN + 14), t(lang, "gheos.ui.hand", player=name), fs + 4,
                INK, PAPER, bold=True, anchor="lm")
    if not hand:
        canvas.text((MARGIN, 48), t(lang, "gheos.ui.hand_empty"), fs, INK, PAPER)
    y = 44
    for entry in hand:
        canvas.text((MARGIN, y), entry["id"], fs + 2, INK, PAPER, bold=True)
        top = y + line_height(fs + 2, True) + 2
        for rot in range(3):
            parts = [{"kind": p["kind"], "slots": sorted((e + rot) % 3 for e in p["edges"]),
                      "symbols": p["symbols"]} for p in entry["parts"]]
            x = MARGIN + rot * (s + 24)
            canvas.paste(tile_pixels(_parts_key(parts, "slots"), True, s), (x, top))
            canvas.text((x + s / 2, top + h + 4), f"r{rot}", fs, INK, PAPER, bold=True,
                        anchor="ma")
        y += row_h
    return canvas
