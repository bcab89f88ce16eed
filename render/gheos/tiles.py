"""Gheos tile pictures: colours and palette, the triangle geometry of cells and tile parts,
symbol icons, and tile sprites drawn twice as large, shrunk once per tile, orientation and size,
then mapped to the palette and cached."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from render.canvas import Palette, Sprite, to_sprite
from render.common import INK, PAPER

SEA = (64, 124, 176)
SEA_DARK = (44, 96, 148)
LAND = (138, 184, 92)
LAND_EDGE = (92, 134, 60)
SHORE = (196, 190, 120)
#: shore and land are ~5 apart (CIEDE2000) under protanopia: shore parts are also hatched
SHORE_HATCH = (150, 144, 84)
#: the colour-free cue of each kind of tile part (``hatch`` lines; land is plain)
PART_PATTERNS = {"landmass": "plain", "shore": "hatch"}
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
#: every board is this wide (a steady width: the chat does not rescale it as tiles are laid);
#: maps are centred on it, and a map too wide for it gets smaller tiles
WIDTH = 640
SIDE = 112  # the largest tile side (pixels), while the map fits: each tile is drawn once a size

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
    PAPER, INK, WHITE, SEA, SEA_DARK, LAND, LAND_EDGE, SHORE, SHORE_HATCH, FREE, FREE_LINE, FREE_TEXT,
    HIGHLIGHT, LAST, GOLD, LABEL_GOLD, LABEL_PLATE, GREY, EMPTY_TOKEN, BOX, ACTIVE_BOX, EPOCH,
    ALERT, WINNER, STAR, STAR_EDGE, *CIV_RGB.values(), *TEMPLE_ROOF.values(),
])  # no seat colours: players own no colour in Gheos



# --- geometry ------------------------------------------------------------------------------
def vertices(up: bool, s: float, h: float) -> list[tuple[float, float]]:
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
    v = vertices(up, s, h)
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
def tile_key(parts: list[dict[str, Any]], field: str) -> tuple:
    return tuple((p["kind"], tuple(p[field]), tuple(p["symbols"])) for p in parts)


@lru_cache(maxsize=512)
def tile_sprite(parts_key: tuple, up: bool, s: int, start: bool = False, sym_px: int = 14
                ) -> Image.Image:
    """A tile as an RGBA image the size of its cell (``s`` wide): sea, land, symbols at
    least ``sym_px`` wide (phone-readable on the image the tile ends in)."""
    h = s * math.sqrt(3) / 2
    w_big, h_big = s * SS, int(math.ceil(h)) * SS
    big = Image.new("RGBA", (w_big, h_big), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    corners = [(x * SS, y * SS) for x, y in vertices(up, s, h)]
    d.polygon(corners, fill=SEA)
    shapes = part_shapes(up, s * SS, tuple(k[1] for k in parts_key))
    for (kind, _slots, _sym), (poly, _spots) in zip(parts_key, shapes, strict=True):
        d.polygon(poly, fill=LAND if kind == "landmass" else SHORE, outline=LAND_EDGE,
                  width=SS)
        if PART_PATTERNS.get(kind) == "hatch":
            _hatch(big, poly)
    d.line([*corners, corners[0]], fill=SEA_DARK, width=SS)
    img = big.reduce(SS)  # a box filter: smooth enough, several times cheaper
    px = max(sym_px, s // 5)
    for (_kind, _slots, symbols), (_poly, spots) in zip(
            parts_key, part_shapes(up, s, tuple(k[1] for k in parts_key)), strict=True):
        for sym, spot in zip(symbols, symbol_spots(spots, len(symbols)), strict=False):
            _paste_icon(img, sym, spot, px)
    if start:
        _star(img, up, s, h)
    return img


def _hatch(big: Image.Image, poly: list[tuple[float, float]]) -> None:
    """Diagonal lines inside ``poly`` (a shore part), spaced to show at phone size."""
    inside = Image.new("L", big.size, 0)
    ImageDraw.Draw(inside).polygon(poly, fill=255)
    lines = Image.new("L", big.size, 0)
    dl = ImageDraw.Draw(lines)
    w, h = big.size
    for k in range(-h, w, 7 * SS):
        dl.line([(k, h), (k + h, 0)], fill=255, width=SS + 1)
    big.paste(SHORE_HATCH + (255,), (0, 0), ImageChops.multiply(inside, lines))


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
def tile_pixels(parts_key: tuple, up: bool, s: int, start: bool = False, sym_px: int = 14
                ) -> Sprite:
    """``tile_sprite`` mapped to the palette, once per tile, orientation and size."""
    return to_sprite(tile_sprite(parts_key, up, s, start, sym_px), PALETTE)


@lru_cache(maxsize=64)
def icon_pixels(symbol: str, px: int) -> Sprite:
    picture = temple_icon(symbol, px) if symbol.startswith("temple_") else icon(symbol, px)
    return to_sprite(picture, PALETTE)


# --- cells ------------------------------------------------------------------------------------
def cell_origin(col: int, row: int, s: int, ox: float, oy: float) -> tuple[float, float]:
    h = s * math.sqrt(3) / 2
    return ox + col * s / 2, oy + row * h


def parse_cell(cell: str) -> tuple[int, int]:
    """(column, row) of a cell name such as ``M30``."""
    return int(cell[1:]) - 1, ord(cell[0]) - ord("A")
