"""Dwóch następców: the channel image (landscape, players, reserve) and a seat's hand.

Pure functions of a view. The board comes from the spectator view only; the hand image
from a seat's view (its ``private`` part).

Phone width: the image is portrait (landscape on top, then the players, the reserve as a
list and the notes) and every label a move names (coordinates, tile ids, free cells, reach
order, names and effects in the reserve) is at least ``text_size(width)`` px, 9 px or more
when Discord shows the image 390 px wide. Building names printed on the landscape tiles are
as large as the tile allows; the tile id beside them is always readable. Tiles on the table
are drawn upright (a phone reader cannot turn the picture); the owner is shown by the frame
and the owner's seat mark. Troops stand in the bottom band of a tile, clear of its id and
name. Guild targets and Trading Post counts are listed under the board, and every
landscape building by name with its tile ids (readable where the tile pictures are not).

Drawn on a ``render.canvas.Canvas`` (palette mode); tile faces are drawn once per (face,
language, size) and cached.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.canvas import (
    Canvas,
    Palette,
    Sprite,
    TextMark,
    label_mask,
    line_height,
    seat_mark,
    text_size,
    text_width,
    to_sprite,
    wrap,
)
from render.common import INK, PAPER, column_label, font, min_label_px
from text.catalog import t

P = "dwoch_nastepcow."
TILE = 88  # landscape cell size in pixels
ID_BAND = 0.3  # the top of a landscape tile kept for its id (written by the canvas)
MINI = 52  # reserve tile size (the list beside it names the tile)
HAND = 150  # hand tile size
MARGIN = 12
MIN_WIDTH = 600

TILE_COLOURS = {"green": (118, 160, 84), "yellow": (232, 196, 96), "grey": (158, 160, 164)}
BACK_COLOURS = {"green": (86, 124, 62), "yellow": (196, 160, 70), "grey": (120, 122, 126)}
#: what each producer gives (a Trading Post's image shows the producers it counts)
PRODUCER_RESOURCE = {"farm": "wheat", "sawmill": "wood", "quarry": "stone"}
RESOURCE_COLOURS = {"wood": TILE_COLOURS["green"], "wheat": TILE_COLOURS["yellow"],
                    "stone": TILE_COLOURS["grey"]}
RESOURCE_OF = {"green": "wood", "yellow": "wheat", "grey": "stone"}
TROOP_COLOURS = ((250, 250, 250), (52, 110, 200))  # white, blue (the game's colours)
RETINUE_RIM = (236, 190, 30)
ROAD = (214, 196, 156)
ROAD_EDGE = (120, 98, 66)
REACH = (230, 150, 20)
TARGET = (40, 40, 40)
SIEGE = (200, 30, 30)
TABLE = (64, 96, 76)
GRID = (84, 118, 96)
ROW = (72, 106, 86)
ACTIVE_ROW = (44, 70, 56)  # darker than ROW, framed in the reach colour
SHIELD = (150, 30, 40)
NO_CROWN = (120, 120, 120)
SET_SHAPES = {"travel": "circle", "lands": "square", "trade": "diamond", "war": "triangle",
              "patrol": "hexagon", "craft": "cross"}
VECTORS = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
           "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}
PALETTE = Palette([
    TABLE, PAPER, INK, GRID, ROW, ACTIVE_ROW, *TILE_COLOURS.values(), *BACK_COLOURS.values(),
    *TROOP_COLOURS, RETINUE_RIM, ROAD, ROAD_EDGE, REACH, TARGET, SIEGE, SHIELD, NO_CROWN,
])



def _cell_xy(cell: str) -> tuple[int, int]:
    return ord(cell[0]) - ord("A"), int(cell[1:]) - 1


def _wrap(draw: ImageDraw.ImageDraw, text: str, width: int, size: int) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        test = f"{line} {word}".strip()
        if draw.textlength(test, font=font(size, True)) <= width or not line:
            line = test
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def _fit_name(draw: ImageDraw.ImageDraw, text: str, width: int, size: int) -> tuple[list[str], int]:
    """Largest font (down to 8 px) that fits the name in two lines."""
    while size > 8:
        lines = _wrap(draw, text, width, size)
        if len(lines) <= 2 and all(draw.textlength(x, font=font(size, True)) <= width
                                   for x in lines):
            return lines, size
        size -= 1
    return _wrap(draw, text, width, size)[:2], size


def _shape(draw: ImageDraw.ImageDraw, kind: str, box: tuple[int, int, int, int],
           fill: tuple[int, int, int]) -> None:
    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2
    if kind == "circle":
        draw.ellipse(box, fill=fill, outline=INK)
    elif kind == "square":
        draw.rectangle(box, fill=fill, outline=INK)
    elif kind == "diamond":
        draw.polygon([(cx, y0), (x1, cy), (cx, y1), (x0, cy)], fill=fill, outline=INK)
    elif kind == "triangle":
        draw.polygon([(cx, y0), (x1, y1), (x0, y1)], fill=fill, outline=INK)
    elif kind == "hexagon":
        draw.polygon([(cx + r * math.cos(a * math.pi / 3), cy + r * math.sin(a * math.pi / 3))
                      for a in range(6)], fill=fill, outline=INK)
    else:
        w = max(2, int(r / 2))
        draw.rectangle((cx - w / 2, y0, cx + w / 2, y1), fill=fill, outline=INK)
        draw.rectangle((x0, cy - w / 2, x1, cy + w / 2), fill=fill, outline=INK)


def _arrow(draw: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float],
           width: int) -> None:
    draw.line([start, end], fill=INK, width=width)
    ang = math.atan2(end[1] - start[1], end[0] - start[0])
    head = width * 2.6
    left = (end[0] - head * math.cos(ang - 0.5), end[1] - head * math.sin(ang - 0.5))
    right = (end[0] - head * math.cos(ang + 0.5), end[1] - head * math.sin(ang + 0.5))
    draw.polygon([end, left, right], fill=INK)


def _glyph(draw: ImageDraw.ImageDraw, face: dict[str, Any], box: tuple[int, int, int, int]
           ) -> None:
    """The directional part of an effect: Inn axis, Watchtower arrows, Craft layout; and the
    producers a Trading Post counts."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    half = (y1 - y0) / 2
    w = max(2, int(half / 4))
    building = face["building"]
    if building == "inn":
        if face.get("axis") == "row":
            _arrow(draw, (cx, cy), (cx + 2.2 * half, cy), w)
            _arrow(draw, (cx, cy), (cx - 2.2 * half, cy), w)
        else:
            _arrow(draw, (cx, cy), (cx, cy + half), w)
            _arrow(draw, (cx, cy), (cx, cy - half), w)
    elif building == "watchtower":
        for a in face.get("arrows", []):
            dx, dy = VECTORS[a]
            _arrow(draw, (cx, cy), (cx + dx * 2.2 * half, cy + dy * half), w)
    elif building == "trading_post":
        # the producers this post counts, as tokens in the colours of what they produce
        unit = (y1 - y0) / 2
        kinds = face.get("counts", [])
        gx = cx - len(kinds) * unit * 0.6
        for i, kind in enumerate(kinds):
            bx = gx + i * unit * 1.2
            draw.ellipse((bx, cy - unit / 2, bx + unit, cy + unit / 2),
                         fill=RESOURCE_COLOURS[PRODUCER_RESOURCE[kind]], outline=INK, width=2)
    elif building in ("basket_shop", "pottery", "cooper"):
        unit = (y1 - y0) / 3
        gx = cx - 1.5 * unit
        for direction, colour in face.get("layout", {}).items():
            dx, dy = VECTORS[direction]
            bx, by = gx + (dx + 1) * unit, y0 + (dy + 1) * unit
            draw.rectangle((bx, by, bx + unit - 1, by + unit - 1),
                           fill=TILE_COLOURS[colour], outline=INK)
        draw.rectangle((gx + unit, y0 + unit, gx + 2 * unit - 1, y0 + 2 * unit - 1),
                       fill=PAPER, outline=INK)


def _effect_text(face: dict[str, Any], lang: str) -> str:
    building = face["building"]
    params: dict[str, Any] = {}
    if building == "trading_post":
        params["counts"] = ", ".join(t(lang, f"{P}building.{b}") for b in face.get("counts", []))
    if building == "guild":
        params["boosts"] = t(lang, f"{P}building.{face.get('boosts')}")
    return t(lang, f"{P}effect.{building}", **params)


def _draw_roads(draw: ImageDraw.ImageDraw, face: dict[str, Any], size: int) -> None:
    roads = face.get("roads", [])
    if not roads:
        return
    c = size / 2
    w = max(4, size // 9)
    for e in roads:
        dx, dy = VECTORS[e]
        draw.line([(c, c), (c + dx * c, c + dy * c)], fill=ROAD_EDGE, width=w + 4)
    for e in roads:
        dx, dy = VECTORS[e]
        draw.line([(c, c), (c + dx * c, c + dy * c)], fill=ROAD, width=w)
    if face["building"] == "pilgrimage_site" or len(roads) != 2:
        r = w * 0.9
        draw.rectangle((c - r, c - r, c + r, c + r), fill=ROAD_EDGE)


@lru_cache(maxsize=1024)
def _tile_sprite(face_json: str, lang: str, size: int, id_size: int, id_key: bool) -> Sprite:
    """A face-up tile, upright: id (``id_size`` px) and set symbol on top, the name, the
    effect glyph, cost pips in the bottom-left (the bottom-right stays free for troops).
    ``id_key``: the id is the readable label of this tile (not repeated beside it). The name
    is a detail here: as large as the tile allows, and written out in full where it counts
    (the reserve list, the hand, the notes)."""
    face = json.loads(face_json)
    img = Image.new("RGB", (size, size), TILE_COLOURS[face["colour"]])
    draw = ImageDraw.Draw(img)
    _draw_roads(draw, face, size)
    pad = max(3, size // 24)
    marks = []
    # id on a light plate (top left) and set symbol (top right, as printed)
    if id_size:
        id_font = font(id_size, True)
        box = draw.textbbox((pad + 2, pad), face["id"], font=id_font, anchor="la")
        draw.rounded_rectangle((pad, pad, box[2] + 2, box[3] + 2), radius=3, fill=PAPER)
        draw.text((pad + 2, pad), face["id"], font=id_font, fill=INK, anchor="la")
        marks.append(TextMark(face["id"], id_size, INK, PAPER, id_key,
                              (pad, pad, int(box[2]) + 2, int(box[3]) + 2)))
        top = int(box[3]) + 5
    else:  # the canvas writes the id at the size the image's width needs (ID_BAND)
        top = int(size * ID_BAND)
    s = max(8, size // 7)
    _shape(draw, SET_SHAPES.get(face["set"], "circle"),
           (size - pad - s, pad + 2, size - pad, pad + 2 + s), PAPER)
    # name on a light plate
    name = t(lang, f"{P}building.{face['building']}")
    lines, fs = _fit_name(draw, name, size - 2 * pad - 4, max(9, size // 7))
    plate_h = int(len(lines) * fs * 1.15) + 4
    draw.rounded_rectangle((pad, top, size - pad, top + plate_h), radius=4, fill=PAPER,
                           outline=INK)
    for i, line in enumerate(lines):
        draw.text((size / 2, top + 3 + (i + 0.5) * fs * 1.15), line, font=font(fs, True),
                  fill=INK, anchor="mm")
        marks.append(TextMark(line, fs, INK, PAPER, False, (pad, top, size - pad, top + plate_h)))
    # effect (directional glyph), between the name and the bottom band
    gtop = top + plate_h + 2
    gbot = int(size * 0.78)
    if gbot - gtop >= 10:
        _glyph(draw, face, (pad + 2, gtop, size - pad - 2, gbot))
    # cost pips along the bottom, from the left
    pips = [r for r in ("wood", "wheat", "stone") for _ in range(face["cost"].get(r, 0))]
    pr = max(4, size // 18)
    x = pad + pr
    y = size - pad - pr
    for r in pips:
        draw.ellipse((x - pr, y - pr, x + pr, y + pr), fill=RESOURCE_COLOURS[r], outline=INK)
        x += 2 * pr + 2
    draw.rectangle((0, 0, size - 1, size - 1), outline=INK)
    return to_sprite(img, PALETTE, tuple(marks))


@lru_cache(maxsize=64)
def _back_sprite(colour: str, size: int, mark: str) -> Sprite:
    return to_sprite(_back_image(colour, size, mark), PALETTE)


def clear_caches() -> None:
    """Forget the drawn tiles and labels (benchmarks of a cold start)."""
    _tile_sprite.cache_clear()
    _back_sprite.cache_clear()
    label_mask.cache_clear()


def _tile(entry: dict[str, Any], lang: str, size: int, id_size: int, id_key: bool = True
          ) -> Sprite:
    face = {k: entry[k] for k in ("id", "set", "building", "colour", "cost", "roads", "axis",
                                  "arrows", "layout", "boosts", "counts") if k in entry}
    return _tile_sprite(json.dumps(face, sort_keys=True), lang, size, id_size, id_key)


def _troop(canvas: Canvas, centre: tuple[float, float], seat: int, kind: str, moved: bool,
           r: float) -> None:
    """A troop: the seat's shape (white circle, blue square); a retinue has a gold rim."""
    x, y = centre
    if kind == "retinue":
        canvas.draw.ellipse((x - r - 3, y - r - 3, x + r + 3, y + r + 3),
                            fill=canvas.c(RETINUE_RIM))
    seat_mark(canvas, seat, centre, r, TROOP_COLOURS[seat])
    if moved:  # the token turned to its cross side
        k = r * 0.5
        canvas.draw.line([(x - k, y - k), (x + k, y + k)], fill=canvas.c(SIEGE), width=2)
        canvas.draw.line([(x - k, y + k), (x + k, y - k)], fill=canvas.c(SIEGE), width=2)


def _layout(canvas: Canvas, layout: dict[str, str], xy: tuple[float, float], unit: int
            ) -> None:
    """A craft building's layout: the colours its neighbours must have, the building in the
    middle (white)."""
    x, y = xy
    for direction, colour in layout.items():
        dx, dy = VECTORS[direction]
        bx, by = x + (dx + 1) * unit, y + (dy + 1) * unit
        canvas.draw.rectangle((bx, by, bx + unit - 1, by + unit - 1),
                              fill=canvas.c(TILE_COLOURS[colour]), outline=canvas.c(INK))
    canvas.draw.rectangle((x + unit, y + unit, x + 2 * unit - 1, y + 2 * unit - 1),
                          fill=canvas.c(PAPER), outline=canvas.c(INK))


def _shield(canvas: Canvas, centre: tuple[float, float], size: float, crown: int | None) -> None:
    x, y = centre
    w, h = size * 0.42, size * 0.5
    body = [(x - w, y - h), (x + w, y - h), (x + w, y + h * 0.2), (x, y + h),
            (x - w, y + h * 0.2)]
    canvas.draw.polygon(body, fill=canvas.c(SHIELD), outline=canvas.c(INK))
    fill = TROOP_COLOURS[crown] if crown is not None else NO_CROWN
    cw, ch = w * 0.7, h * 0.45
    top = y - ch * 0.9
    crown_pts = [(x - cw, top + ch), (x - cw, top), (x - cw / 2, top + ch * 0.5),
                 (x, top - ch * 0.1), (x + cw / 2, top + ch * 0.5), (x + cw, top),
                 (x + cw, top + ch)]
    canvas.draw.polygon(crown_pts, fill=canvas.c(fill), outline=canvas.c(INK))


@lru_cache(maxsize=16)
def _back_image(colour: str, size: int, mark: str) -> Image.Image:
    """Open terrain (the back of a tile): its colour, hatched; the start tile has a star."""
    img = Image.new("RGB", (size, size), BACK_COLOURS[colour])
    draw = ImageDraw.Draw(img)
    light = TILE_COLOURS[colour]
    for k in range(-size, size, max(6, size // 8)):
        draw.line([(k, size), (k + size, 0)], fill=light, width=2)
    c = size / 2
    if mark == "start":
        r = size / 7
        pts = [(c + (r if i % 2 == 0 else r / 2.3) * math.cos(math.pi / 2 + i * math.pi / 5),
                c - (r if i % 2 == 0 else r / 2.3) * math.sin(math.pi / 2 + i * math.pi / 5))
               for i in range(10)]
        draw.polygon(pts, fill=RETINUE_RIM, outline=INK)
    elif mark == "destroyed":
        r = size / 6
        draw.line([(c - r, c - r), (c + r, c + r)], fill=SIEGE, width=4)
        draw.line([(c - r, c + r), (c + r, c - r)], fill=SIEGE, width=4)
    draw.rectangle((0, 0, size - 1, size - 1), outline=INK)
    return img


def _bounds(view: dict[str, Any]) -> tuple[int, int, int, int]:
    cells = [e["cell"] for e in view["landscape"]]
    cells += (view.get("mover") or {}).get("placements", [])
    xs = [_cell_xy(c)[0] for c in cells]
    ys = [_cell_xy(c)[1] for c in cells]
    cols, rows = view["grid"]["cols"], view["grid"]["rows"]
    # the tiles and the free cells the mover may use, no empty border: a narrower picture
    # keeps the text smaller for the same phone size, and a smaller PNG is cheaper
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    while x1 - x0 < 4:  # at least 5 x 5 cells, so the picture keeps its shape early on
        x0, x1 = max(0, x0 - (x1 - x0 < 4)), min(cols - 1, x1 + (x1 - x0 < 4))
    while y1 - y0 < 4:
        y0, y1 = max(0, y0 - (y1 - y0 < 4)), min(rows - 1, y1 + (y1 - y0 < 4))
    return x0, y0, x1, y1


def _name(view: dict[str, Any], names: list[str], seat: int, lang: str) -> str:
    return names[seat] if seat < len(names) else t(lang, f"{P}seat.{view['colours'][seat]}")


def render_board(view: dict[str, Any], *, names: list[str], lang: str = "en") -> bytes:
    """The channel image: landscape, players and resources, the reserve, notes. PNG bytes."""
    return board_canvas(view, names=names, lang=lang).png()


def board_canvas(view: dict[str, Any], *, names: list[str], lang: str = "en") -> Canvas:
    x0, y0, x1, y1 = _bounds(view)
    label = text_size(MIN_WIDTH) + 10
    land_w = (x1 - x0 + 1) * TILE
    width = max(MIN_WIDTH, 2 * MARGIN + label + land_w)
    fs = text_size(width)
    label = max(label, text_width(str(y1 + 1), fs, True) + 8)
    width = max(width, 2 * MARGIN + label + land_w)
    fs = text_size(width)
    land_h = label + (y1 - y0 + 1) * TILE
    below = _Below(view, names, lang, width, fs)
    height = MARGIN + land_h + MARGIN + below.height()
    canvas = Canvas(width, height, PALETTE, TABLE)
    origin = (MARGIN + (width - 2 * MARGIN - label - land_w) // 2, MARGIN)
    _draw_landscape(canvas, view, origin, label, fs, lang)
    below.draw(canvas, MARGIN + land_h + MARGIN)
    return canvas


def _draw_landscape(canvas: Canvas, view: dict[str, Any], origin: tuple[int, int], label: int,
                    fs: int, lang: str) -> None:
    draw = canvas.draw
    x0, y0, x1, y1 = _bounds(view)
    ox, oy = origin
    for cx in range(x0, x1 + 1):
        px = ox + label + (cx - x0) * TILE + TILE / 2
        canvas.text((px, oy + label / 2), column_label(cx), fs, PAPER, TABLE, bold=True,
                    anchor="mm")
    for cy in range(y0, y1 + 1):
        py = oy + label + (cy - y0) * TILE + TILE / 2
        canvas.text((ox + label / 2, py), str(cy + 1), fs, PAPER, TABLE, bold=True, anchor="mm")

    def corner(cell: str) -> tuple[int, int]:
        cx, cy = _cell_xy(cell)
        return ox + label + (cx - x0) * TILE, oy + label + (cy - y0) * TILE

    for cy in range(y0, y1 + 1):  # faint grid
        for cx in range(x0, x1 + 1):
            px, py = ox + label + (cx - x0) * TILE, oy + label + (cy - y0) * TILE
            draw.rectangle((px, py, px + TILE - 1, py + TILE - 1), outline=canvas.c(GRID))
    for entry in view["landscape"]:
        px, py = corner(entry["cell"])
        if entry["face"] == "up":
            canvas.paste(_tile(entry, lang, TILE, 0), (px, py))
            canvas.text((px + 5, py + 3), entry["id"], fs, INK, PAPER, bold=True, plate=True,
                        pad=2)
            owner = entry["owner"]
            draw.rectangle((px + 1, py + 1, px + TILE - 2, py + TILE - 2),
                           outline=canvas.c(TROOP_COLOURS[owner]), width=3)
            # the owner's mark in the top band, between the id and the set symbol
            seat_mark(canvas, owner, (px + TILE * 0.70, py + 11), 6, TROOP_COLOURS[owner])
            if entry.get("used"):  # a turned Camp
                draw.line([(px + 4, py + TILE - 4), (px + TILE - 4, py + 4)],
                          fill=canvas.c(SIEGE), width=3)
        else:
            mark = "start" if entry.get("start") else "destroyed" if entry.get(
                "destroyed") else ""
            canvas.paste(_back_sprite(entry["colour"], TILE, mark), (px, py))
    mover = view.get("mover")
    if mover:
        for cell in mover["placements"]:
            px, py = corner(cell)
            for k in range(0, TILE, 12):  # dashed outline: where a tile may go
                for a, b in (((px + k, py + 2), (px + min(k + 6, TILE), py + 2)),
                             ((px + k, py + TILE - 3), (px + min(k + 6, TILE), py + TILE - 3)),
                             ((px + 2, py + k), (px + 2, py + min(k + 6, TILE))),
                             ((px + TILE - 3, py + k), (px + TILE - 3, py + min(k + 6, TILE)))):
                    draw.line([a, b], fill=canvas.c(PAPER), width=2)
            canvas.text((px + TILE / 2, py + TILE / 2), cell, fs, PAPER, TABLE, anchor="mm")
    for cell in (view.get("pending") or {}).get("targets", []):
        px, py = corner(cell)
        draw.rectangle((px, py, px + TILE - 1, py + TILE - 1), outline=canvas.c(SIEGE), width=5)
    r = TILE * 0.11
    for seat, troops in enumerate(view["troops"]):
        for troop in troops:
            if troop["at"] is None:
                continue
            px, py = corner(troop["at"])
            # in the bottom band, right of the cost pips: clear of the id and the name
            centre = (px + TILE * (0.84 if seat == 0 else 0.62), py + TILE * 0.86)
            _troop(canvas, centre, seat, troop["kind"], troop["moved"], r)


class _Below:
    """Players, the mover's resources, the reserve as a list, guilds and Trading Posts."""

    def __init__(self, view: dict[str, Any], names: list[str], lang: str, width: int,
                 fs: int) -> None:
        self.view, self.names, self.lang, self.width, self.fs = view, names, lang, width, fs
        self.line = line_height(fs, True) + 4

    def height(self) -> int:
        return self._lay(None, 0)

    def draw(self, canvas: Canvas, y: int) -> None:
        self._lay(canvas, y)

    def _lay(self, canvas: Canvas | None, y0: int) -> int:
        view, lang, fs, line = self.view, self.lang, self.fs, self.line
        x0, x1 = MARGIN, self.width - MARGIN
        y = y0
        over = view["phase"] == "over"
        for seat in (0, 1):
            active = not over and view["current"] == seat
            h = 2 * line + 8
            if canvas is not None:
                back = ACTIVE_ROW if active else ROW
                canvas.draw.rounded_rectangle(
                    (x0, y, x1, y + h), radius=8, fill=canvas.c(back),
                    outline=canvas.c(REACH if active else GRID), width=3 if active else 1)
                _troop(canvas, (x0 + 8 + fs / 2, y + 4 + line / 2), seat, "normal", False,
                       fs / 2)
                canvas.text((x0 + 16 + fs, y + 4 + line / 2),
                            _name(view, self.names, seat, lang)[:22], fs, PAPER, back,
                            bold=True, anchor="lm")
                canvas.text((x1 - 10, y + 4 + line / 2),
                            t(lang, f"{P}render.points", n=view["scores"][seat]), fs + 2,
                            PAPER, back, bold=True, anchor="rm")
                sub = "  ·  ".join([
                    t(lang, f"{P}render.hand", n=view["hand_sizes"][seat]),
                    t(lang, f"{P}render.reach", n=view["reserve"]["reach"][seat]),
                ])
                box = canvas.text((x0 + 16 + fs, y + 4 + line * 1.5), sub, fs, PAPER, back,
                                  anchor="lm")
                home = [tr for tr in view["troops"][seat] if tr["at"] is None]
                for i, troop in enumerate(home):  # troops still in the reserve
                    _troop(canvas, (box[2] + 14 + fs / 2 + i * (fs + 8), y + 4 + line * 1.5),
                           seat, troop["kind"], troop["moved"], fs / 2 - 1)
            y += h + 6
        if over:
            ranking = view.get("ranking") or [[0, 1]]
            if len(ranking[0]) > 1:
                text = t(lang, f"{P}render.draw")
            else:
                text = t(lang, f"{P}render.winner",
                         name=_name(view, self.names, ranking[0][0], lang))
            y = self._words(canvas, f"{t(lang, f'{P}render.game_over')} · {text}", y, bold=True)
        else:
            mover = view["mover"]
            head = t(lang, f"{P}render.to_move", name=_name(view, self.names, mover["seat"], lang))
            if view["final_round"]:
                head += " · " + t(lang, f"{P}render.final_round")
            if view["phase"] == "siege":
                head += " · " + t(lang, f"{P}render.siege")
            elif view["phase"] == "discard":
                head += " · " + t(lang, f"{P}render.discard")
            y = self._words(canvas, head, y, bold=True)
            y = self._resources(canvas, mover, y)
        if view.get("removed"):
            y = self._words(canvas, t(lang, f"{P}render.removed", n=view["removed"]), y)
        y = self._reserve(canvas, y + 6)
        y = self._notes(canvas, y + 4)
        return y + MARGIN - y0

    def _words(self, canvas: Canvas | None, text: str, y: int, bold: bool = False,
               x: int = MARGIN, fill: tuple[int, int, int] = PAPER,
               back: tuple[int, int, int] = TABLE) -> int:
        for row in wrap(text, self.width - MARGIN - x, self.fs, bold):
            if canvas is not None:
                canvas.text((x, y + self.line / 2), row, self.fs, fill, back, bold=bold,
                            anchor="lm")
            y += self.line
        return y

    def _resources(self, canvas: Canvas | None, mover: dict[str, Any], y: int) -> int:
        fs, lang = self.fs, self.lang
        if canvas is not None:
            m = y + self.line / 2
            box = canvas.text((MARGIN, m), t(lang, f"{P}render.resources") + ":", fs, PAPER,
                              TABLE, anchor="lm")
            x = box[2] + 12
            for res in ("wood", "wheat", "stone"):
                canvas.draw.ellipse((x, m - fs / 2, x + fs, m + fs / 2),
                                    fill=canvas.c(RESOURCE_COLOURS[res]), outline=canvas.c(INK))
                label = f"{t(lang, f'{P}resource.{res}')} {mover['resources'][res]}"
                box = canvas.text((x + fs + 5, m), label, fs, PAPER, TABLE, bold=True,
                                  anchor="lm")
                x = box[2] + 14
        y += self.line
        if mover["discounts"]:
            y = self._words(canvas, t(lang, f"{P}render.discounts", n=mover["discounts"]), y)
        return y

    def _reserve(self, canvas: Canvas | None, y: int) -> int:
        """The seven reserve places in order from the shield; reachable ones numbered."""
        view, lang, fs, line = self.view, self.lang, self.fs, self.line
        reserve = view["reserve"]
        head = f"{t(lang, f'{P}render.reserve')} · {t(lang, f'{P}render.stack', n=view['stack'])}"
        y = self._words(canvas, head, y, bold=True)
        in_reach = reserve["in_reach"][view["current"]] if view["to_act"] else []
        badge = fs + 8
        text_x = MARGIN + badge + 8 + MINI + 10
        for k in range(7):
            slot = (reserve["shield"] + k) % 7
            face = reserve["slots"][slot]
            lines = []
            if face is not None:
                building = t(lang, P + "building." + face["building"])
                lines = [f"{face['id']} · {building}"]
                lines += wrap(_effect_text(face, lang), self.width - MARGIN - text_x
                              - (3 * fs + 8 if face.get("layout") else 0), fs)
            row_h = max(MINI if slot != reserve["shield"] and face is not None else badge + 4,
                        len(lines) * line, 3 * fs if face and face.get("layout") else 0) + 6
            if canvas is not None:
                mid = y + row_h / 2
                if slot == reserve["shield"]:
                    _shield(canvas, (MARGIN + badge / 2, mid), badge, reserve["crown"])
                elif slot in in_reach:
                    order = in_reach.index(slot) + 1
                    canvas.draw.ellipse((MARGIN, mid - badge / 2, MARGIN + badge, mid + badge / 2),
                                        fill=canvas.c(REACH), outline=canvas.c(INK))
                    canvas.text((MARGIN + badge / 2, mid), str(order), fs, INK, REACH,
                                bold=True, anchor="mm")
                if face is not None:
                    tx = MARGIN + badge + 8
                    canvas.paste(_tile(face, lang, MINI, max(9, MINI // 6), id_key=False),
                                 (tx, y + 3))
                    if slot in in_reach:
                        canvas.draw.rectangle((tx - 3, y, tx + MINI + 2, y + MINI + 5),
                                              outline=canvas.c(REACH), width=3)
                    ty = y + 3
                    if face.get("layout"):  # the craft layout, large enough to read
                        _layout(canvas, face["layout"], (self.width - MARGIN - 3 * fs, ty), fs)
                    for i, row in enumerate(lines):
                        canvas.text((text_x, ty + i * line), row, fs, PAPER, TABLE,
                                    bold=i == 0)
                elif slot != reserve["shield"]:
                    canvas.text((MARGIN + badge + 8, mid), "—", fs, PAPER, TABLE, anchor="lm")
            y += row_h
        return y

    def _notes(self, canvas: Canvas | None, y: int) -> int:
        """Guild targets and Trading Post counts of the buildings in the landscape, then
        which building each landscape id is."""
        view, lang = self.view, self.lang
        notes = [e for e in view["landscape"] if e["face"] == "up"
                 and e["building"] in ("guild", "trading_post")]
        for e in sorted(notes, key=lambda e: (e["owner"], e["cell"])):
            building = t(lang, P + "building." + e["building"])
            text = f"{e['cell']} {e['id']} {building}: {_effect_text(e, lang)}"
            if canvas is not None:
                _troop(canvas, (MARGIN + self.fs / 2, y + self.line / 2), e["owner"], "normal",
                       False, self.fs / 2 - 2)
            y = self._words(canvas, text, y, x=MARGIN + self.fs + 8)
        # every building in the landscape by name, with the ids that show it: the names on
        # the tile pictures are too small to read on a phone, the ids are not
        by_name: dict[str, list[str]] = {}
        for e in view["landscape"]:
            if e["face"] == "up":
                by_name.setdefault(t(lang, P + "building." + e["building"]), []).append(e["id"])
        for name in sorted(by_name):
            y = self._words(canvas, f"{name}: {', '.join(sorted(by_name[name]))}", y)
        return y


def render_hand(view: dict[str, Any], *, names: list[str], lang: str = "en") -> bytes:
    """A seat's private picture: the tiles in hand, large, with their effects and costs."""
    return hand_canvas(view, names=names, lang=lang).png()


def hand_canvas(view: dict[str, Any], *, names: list[str], lang: str = "en") -> Canvas:
    private = view.get("private") or {}
    hand = private.get("hand", [])
    seat = private.get("seat", 0)
    count = max(1, len(hand))
    width = max(440, 24 + count * (HAND + 16) + 8)
    fs = max(13, min_label_px(width))
    line = line_height(fs) + 2
    texts = [wrap(_effect_text(face, lang), HAND, fs)[:4] for face in hand]
    caption = max([len(x) for x in texts] + [1]) * line
    mover = view.get("mover")
    mine = bool(mover and mover["seat"] == seat)
    height = 42 + HAND + 12 + caption + (line + 24 if mine else 12)
    canvas = Canvas(width, height, PALETTE, TABLE)
    name = names[seat] if seat < len(names) else ""
    canvas.text((16, 20), f"{t(lang, f'{P}render.your_hand')} · {name}", fs + 3, PAPER, TABLE,
                bold=True, anchor="lm")
    if not hand:
        canvas.text((16, 80), t(lang, f"{P}render.empty_hand"), fs + 1, PAPER, TABLE,
                    anchor="lm")
    for i, face in enumerate(hand):
        x = 24 + i * (HAND + 16)
        canvas.paste(_tile(face, lang, HAND, 18), (x, 42))
        for k, row in enumerate(texts[i]):
            canvas.text((x, HAND + 50 + k * line), row, fs, PAPER, TABLE)
    if mine:
        assert mover is not None
        y = 42 + HAND + 12 + caption + 4
        m = y + line / 2
        box = canvas.text((16, m), t(lang, f"{P}render.resources") + ":", fs, PAPER, TABLE,
                          anchor="lm")
        x = box[2] + 12
        for res in ("wood", "wheat", "stone"):
            canvas.draw.ellipse((x, m - 9, x + 18, m + 9), fill=canvas.c(RESOURCE_COLOURS[res]),
                                outline=canvas.c(INK))
            box = canvas.text((x + 24, m), str(mover["resources"][res]), fs + 2, PAPER, TABLE,
                              bold=True, anchor="lm")
            x = box[2] + 16
        if mover["discounts"]:
            canvas.text((x + 8, m), t(lang, f"{P}render.discounts", n=mover["discounts"]), fs,
                        PAPER, TABLE, anchor="lm")
    return canvas
