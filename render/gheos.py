"""Gheos images: the map of triangular tiles (channel) and a player's hand (private).

A pure function of a view (``engines.gheos`` ``view(state, None)`` for the board): the
renderer never sees the state, so it cannot show the bag or anyone's hand. The map is cropped
to the tiles plus the free cells around them; rows are lettered down the left side, columns
numbered along the top, and every tile and free cell carries its name (``M30``), so a player
can name any cell. A continent's *label* tile (the name used in codes) shows its name in
gold. Civilization markers are discs on their continent, whose land is outlined in the
civilization's colour. The side panel has the epoch count, scores, followers, tokens, the
supply and the continents with their symbols.

Tile pictures are drawn three times larger and shrunk (smooth edges), once per tile and
orientation (``functools.lru_cache``).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, PAPER, SEAT_COLOURS, font, to_png
from session.i18n import t

SEA = (64, 124, 176)
SEA_DARK = (44, 96, 148)
LAND = (138, 184, 92)
LAND_EDGE = (92, 134, 60)
SHORE = (196, 190, 120)
FREE = (226, 232, 236)
FREE_LINE = (176, 188, 198)
HIGHLIGHT = (255, 64, 160)
LAST = (255, 214, 10)
GOLD = (214, 160, 20)
PANEL_W = 330
MARGIN = 14
LABEL_W = 22
SS = 3  # supersampling factor for tile sprites

CIV_RGB = {
    "red": (206, 40, 40),
    "green": (30, 150, 70),
    "yellow": (240, 200, 30),
    "blue": (40, 90, 210),
    "black": (28, 28, 28),
    "white": (248, 248, 248),
}
TEMPLE_ROOF = {"temple_wheat": (226, 180, 40), "temple_chalice": (190, 120, 30),
               "temple_swords": (120, 120, 140)}


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


def part_shapes(up: bool, s: float, slots_per_part: tuple[tuple[int, ...], ...]
                ) -> list[tuple[list[tuple[float, float]], list[tuple[float, float]]]]:
    """For each part: (polygon, symbol spots) in tile-local pixels."""
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
            # the side's two corners (a and b above are slot numbers)
            ca, cb = v[slot], v[(slot + 1) % 3]
            nx, ny = _inward(ca, cb, g, d)
            a1, b1 = _lerp(ca, cb, 0.1), _lerp(cb, ca, 0.1)
            a2, b2 = _lerp(ca, cb, 0.2), _lerp(cb, ca, 0.2)
            poly = [a1, b1, (b2[0] + nx, b2[1] + ny), (a2[0] + nx, a2[1] + ny)]
            spots = [(_lerp(ca, cb, f)[0] + nx * 0.5, _lerp(ca, cb, f)[1] + ny * 0.5)
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
    img = big.resize((s, int(math.ceil(h))), Image.Resampling.LANCZOS)
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


# --- the board ------------------------------------------------------------------------------
def _size(span_cols: int) -> int:
    """Tile side in pixels: large for a small map, smaller so a wide map stays readable."""
    return int(max(72, min(120, 1500 / (span_cols / 2 + 1))))


def _cell_origin(col: int, row: int, s: int, ox: float, oy: float) -> tuple[float, float]:
    h = s * math.sqrt(3) / 2
    return ox + col * s / 2, oy + row * h


def _label(d: ImageDraw.ImageDraw, text: str, centre: tuple[float, float], size: int,
           fill=(255, 255, 255), back=(0, 0, 0, 150), bold=False) -> None:
    f = font(size, bold)
    box = d.textbbox((0, 0), text, font=f)
    tw, th = box[2] - box[0], box[3] - box[1]
    x, y = centre[0] - tw / 2, centre[1] - th / 2
    if back is not None:
        d.rounded_rectangle((x - 3, y - 2, x + tw + 3, y + th + 3), radius=3, fill=back)
    d.text((x - box[0], y - box[1]), text, font=f, fill=fill)


def render_board(view: dict[str, Any], *, names: list[str], lang: str = "en",
                 highlight: str | None = None) -> bytes:
    """The channel image: map, markers, labels, and the side panel. PNG bytes."""
    return to_png(board_image(view, names=names, lang=lang, highlight=highlight))


def board_image(view: dict[str, Any], *, names: list[str], lang: str = "en",
                highlight: str | None = None) -> Image.Image:
    cells = [(b["col"], b["row"]) for b in view["board"]]
    free = [(c, _parse(c)) for c in view["frontier"]]
    every = cells + [cr for _, cr in free]
    min_c = min(c for c, _ in every)
    max_c = max(c for c, _ in every)
    min_r = min(r for _, r in every)
    max_r = max(r for _, r in every)
    s = _size(max_c - min_c + 1)
    h = s * math.sqrt(3) / 2
    map_w = int((max_c - min_c + 2) * s / 2) + 2
    map_h = int((max_r - min_r + 1) * h) + 2
    top = MARGIN + 18
    left = MARGIN + LABEL_W
    width = left + map_w + MARGIN + PANEL_W
    height = max(top + map_h + MARGIN, 560)
    img = Image.new("RGBA", (width, height), PAPER + (255,))
    d = ImageDraw.Draw(img)
    ox = left - min_c * s / 2
    oy = top - min_r * h
    # coordinates: row letters on the left, column numbers on top
    for r in range(min_r, max_r + 1):
        _label(d, chr(ord("A") + r), (MARGIN + 8, oy + r * h + h / 2), 13, fill=INK,
               back=None, bold=True)
    for c in range(min_c, max_c + 1):
        _label(d, str(c + 1), (ox + c * s / 2 + s / 2, MARGIN + 6), 11 if s < 80 else 12,
               fill=INK, back=None)
    # free cells next to the board
    for name, (c, r) in free:
        x, y = _cell_origin(c, r, s, ox, oy)
        up = (c + r) % 2 == 0
        pts = [(x + px, y + py) for px, py in _vertices(up, s, h)]
        d.polygon(pts, fill=FREE, outline=FREE_LINE)
        _label(d, name, (x + s / 2, y + h * (0.62 if up else 0.38)), 11, fill=(110, 120, 130),
               back=None)
    # tiles
    for b in view["board"]:
        x, y = _cell_origin(b["col"], b["row"], s, ox, oy)
        sprite = tile_sprite(_parts_key(b["parts"], "slots"), b["up"], s, b.get("start", False))
        img.alpha_composite(sprite, (int(round(x)), int(round(y))))
    # civilization outlines and markers
    region_civ = {r["id"]: r["civ"] for r in view["regions"] if r.get("civ")}
    labels = {r["label"] for r in view["regions"] if r["kind"] == "continent"}
    markers = []
    for b in view["board"]:
        x, y = _cell_origin(b["col"], b["row"], s, ox, oy)
        shapes = part_shapes(b["up"], s, tuple(tuple(p["slots"]) for p in b["parts"]))
        for p, (poly, _spots) in zip(b["parts"], shapes, strict=True):
            civ = region_civ.get(p["region"])
            if civ:
                pts = [(x + px, y + py) for px, py in poly]
                d.line([*pts, pts[0]], fill=CIV_RGB[civ], width=3)
    for civ in view["civs"]:
        if civ["part"] is None:
            continue
        cell, idx = civ["part"].split("/")
        b = next(b for b in view["board"] if b["cell"] == cell)
        x, y = _cell_origin(b["col"], b["row"], s, ox, oy)
        shapes = part_shapes(b["up"], s, tuple(tuple(p["slots"]) for p in b["parts"]))
        poly, spots = shapes[int(idx)]
        gx = sum(px for px, _ in poly) / len(poly)
        gy = sum(py for _, py in poly) / len(poly)
        markers.append((civ["civ"], (x + (gx + spots[1][0]) / 2, y + (gy + spots[1][1]) / 2)))
    # cell names (the continent label tiles in gold)
    for b in view["board"]:
        x, y = _cell_origin(b["col"], b["row"], s, ox, oy)
        up = b["up"]
        spot = (x + s / 2, y + h * (0.30 if up else 0.70))
        if b["cell"] in labels:
            _label(d, b["cell"], spot, 12, fill=(255, 226, 90), back=(40, 20, 0, 200), bold=True)
        else:
            _label(d, b["cell"], spot, 11, fill=(255, 255, 255), back=(0, 0, 0, 110))
    for colour, (mx, my) in markers:
        r = max(9, s // 8)
        d.ellipse((mx - r - 2, my - r - 2, mx + r + 2, my + r + 2), fill=(255, 255, 255))
        d.ellipse((mx - r, my - r, mx + r, my + r), fill=CIV_RGB[colour], outline=INK, width=2)
    # highlights: the last tile put down, and the cell a preview asks about
    last = (view.get("last") or {}).get("cell")
    for cell, colour, wid in ((last, LAST, 3), (highlight, HIGHLIGHT, 5)):
        if not cell:
            continue
        c, r = _parse(cell)
        x, y = _cell_origin(c, r, s, ox, oy)
        up = (c + r) % 2 == 0
        pts = [(x + px, y + py) for px, py in _vertices(up, s, h)]
        d.line([*pts, pts[0]], fill=colour, width=wid, joint="curve")
    _panel(img, view, names, lang, left + map_w + MARGIN)
    return img


def _parse(cell: str) -> tuple[int, int]:
    return int(cell[1:]) - 1, ord(cell[0]) - ord("A")


# --- the side panel -------------------------------------------------------------------------
def _cube(d: ImageDraw.ImageDraw, x: float, y: float, colour: str, n: int, size: int = 12
          ) -> float:
    """A follower cube with its count; returns the x after it."""
    d.rectangle((x, y, x + size, y + size), fill=CIV_RGB[colour], outline=INK)
    d.text((x + size + 3, y - 2), str(n), font=font(12), fill=INK)
    return x + size + 22


def _panel(img: Image.Image, view: dict[str, Any], names: list[str], lang: str, x0: int) -> None:
    d = ImageDraw.Draw(img)
    y = MARGIN
    d.text((x0, y), "Gheos", font=font(22, True), fill=INK)
    d.text((x0 + 100, y + 6), t(lang, "gheos.ui.turn", n=view["turn_no"]), font=font(13),
           fill=INK)
    y += 32
    d.text((x0, y), t(lang, "gheos.ui.epochs", n=view["epochs"], last=view["last_epoch"]),
           font=font(15, True), fill=(150, 90, 0))
    d.text((x0 + 150, y + 2), t(lang, "gheos.ui.bag", n=view["bag"]), font=font(12), fill=INK)
    y += 24
    turn = view["turn"]
    who = names[turn] if turn < len(names) else f"#{turn + 1}"
    step = t(lang, f"gheos.ui.step_{view['phase']}", player=who)
    d.text((x0, y), step, font=font(13, True), fill=INK)
    y += 20
    pend = view.get("pending")
    if pend:
        line = _pending_line(pend, who, lang)
        d.text((x0, y), line, font=font(12), fill=(160, 30, 60))
        y += 18
    lifted = [c["civ"] for c in view["civs"] if c.get("migrating")]
    if lifted:  # markers lifted off a split continent, waiting for their new land
        mx = x0
        for civ in lifted:
            d.ellipse((mx, y + 1, mx + 12, y + 13), fill=CIV_RGB[civ], outline=INK)
            mx += 16
        d.text((mx + 2, y), t(lang, "gheos.ui.migrating"), font=font(12), fill=(160, 30, 60))
        y += 18
    if view.get("over"):
        ranking = view.get("ranking") or []
        if ranking:
            first = ", ".join(names[s] if s < len(names) else str(s) for s in ranking[0])
            key = "gheos.ui.winner" if len(ranking[0]) == 1 else "gheos.ui.draw"
            d.text((x0, y), t(lang, key, players=first), font=font(14, True), fill=(0, 110, 40))
            y += 20
    y += 6
    # players
    for seat in view["seats"]:
        s = seat["seat"]
        colour = SEAT_COLOURS[s % len(SEAT_COLOURS)]
        box_h = 62
        active = s == turn and not view.get("over")
        d.rounded_rectangle((x0 - 4, y - 2, x0 + PANEL_W - 16, y + box_h),
                            radius=6, fill=(255, 250, 228) if active else (244, 240, 232),
                            outline=colour, width=3 if active else 1)
        name = names[s] if s < len(names) else f"#{s + 1}"
        d.text((x0 + 4, y + 2), name[:22], font=font(14, True), fill=colour)
        d.text((x0 + PANEL_W - 90, y + 2), t(lang, "gheos.ui.points", n=seat["score"]),
               font=font(14, True), fill=INK)
        # tokens: filled discs for tokens left
        tx = x0 + 4
        ty = y + 24
        for i in range(3):
            fill = (232, 180, 20) if i < seat["tokens"] else (220, 214, 200)
            d.ellipse((tx + i * 16, ty, tx + i * 16 + 12, ty + 12), fill=fill, outline=INK)
        d.text((tx + 52, ty - 1), t(lang, "gheos.ui.tokens"), font=font(11), fill=INK)
        hx = x0 + 150  # tiles in hand: a small face-down triangle per tile
        for i in range(seat["hand"]):
            bx = hx + i * 16
            d.polygon([(bx, ty + 12), (bx + 7, ty), (bx + 14, ty + 12)], fill=(255, 255, 255),
                      outline=INK)
        fx: float = x0 + 4
        fy = y + 42
        if not seat["followers"]:
            d.text((fx, fy - 1), "—", font=font(12), fill=(120, 120, 120))
        for civ in ("red", "green", "yellow", "blue", "black", "white"):
            n = seat["followers"].get(civ, 0)
            if n:
                fx = _cube(d, fx, fy, civ, n)
        y += box_h + 8
    # supply and markers
    y += 2
    d.text((x0, y), t(lang, "gheos.ui.supply"), font=font(13, True), fill=INK)
    y += 18
    fx = x0
    on_board = {c["civ"] for c in view["civs"]}
    for civ in ("red", "green", "yellow", "blue", "black", "white"):
        n = view["supply"].get(civ, 0)
        r = 6
        if civ in on_board:
            d.ellipse((fx, y, fx + 2 * r, y + 2 * r), fill=CIV_RGB[civ], outline=INK)
        else:
            d.ellipse((fx, y, fx + 2 * r, y + 2 * r), fill=PAPER, outline=CIV_RGB[civ], width=2)
        fx = _cube(d, fx + 16, y, civ, n) + 2
        if civ == "yellow":
            fx = x0
            y += 18
    y += 24
    # continents
    conts = [r for r in view["regions"] if r["kind"] == "continent"]
    conts.sort(key=lambda r: (r["civ"] is None, _parse(r["label"])[1], _parse(r["label"])[0]))
    for r in conts[:8]:
        if y > img.height - 60:
            break
        if r["civ"]:
            d.ellipse((x0, y + 1, x0 + 12, y + 13), fill=CIV_RGB[r["civ"]], outline=INK)
        else:
            d.ellipse((x0, y + 1, x0 + 12, y + 13), outline=(150, 150, 150))
        d.text((x0 + 18, y), r["label"], font=font(13, True), fill=INK)
        cx = x0 + 62
        for sym in ("wheat", "chalice", "swords", "pyramid"):
            img.alpha_composite(icon(sym, 15), (cx, y))
            d.text((cx + 17, y), str(r[sym]), font=font(12), fill=INK)
            cx += 42
        y += 20
    # legend
    ly = img.height - 46
    lx: float = x0
    for sym in ("wheat", "chalice", "swords", "pyramid", "temple_swords"):
        if sym.startswith("temple"):
            img.alpha_composite(temple_icon(sym, 16), (int(lx), ly))
            word = t(lang, "gheos.ui.temple")
        else:
            img.alpha_composite(icon(sym, 16), (int(lx), ly))
            word = t(lang, f"gheos.term.{sym}")
        d.text((lx + 19, ly + 1), word, font=font(11), fill=INK)
        lx += 21 + d.textlength(word, font=font(11)) + 8
        if lx > x0 + PANEL_W - 90:
            lx, ly = x0, ly + 20


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
    private = view.get("private") or {}
    hand = private.get("hand", [])
    seat = private.get("seat", 0)
    s = 120
    h = s * math.sqrt(3) / 2
    width = MARGIN * 2 + 3 * (s + 24)
    height = 56 + max(1, len(hand)) * int(h + 64)
    img = Image.new("RGBA", (width, height), PAPER + (255,))
    d = ImageDraw.Draw(img)
    name = names[seat] if seat < len(names) else f"#{seat + 1}"
    d.text((MARGIN, MARGIN), t(lang, "gheos.ui.hand", player=name), font=font(18, True),
           fill=SEAT_COLOURS[seat % len(SEAT_COLOURS)])
    if not hand:
        d.text((MARGIN, 48), t(lang, "gheos.ui.hand_empty"), font=font(14), fill=INK)
    y = 48
    for entry in hand:
        d.text((MARGIN, y), entry["id"], font=font(16, True), fill=INK)
        for rot in range(3):
            parts = [{"kind": p["kind"], "slots": sorted((e + rot) % 3 for e in p["edges"]),
                      "symbols": p["symbols"]} for p in entry["parts"]]
            sprite = tile_sprite(_parts_key(parts, "slots"), True, s)
            x = MARGIN + rot * (s + 24)
            img.alpha_composite(sprite, (x, y + 24))
            _label(d, f"r{rot}", (x + s / 2, y + 24 + h + 14), 13, fill=INK, back=None,
                   bold=True)
        y += int(h + 64)
    return to_png(img)
