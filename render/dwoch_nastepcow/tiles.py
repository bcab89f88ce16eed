"""Dwóch następców tile pictures and pieces: colours and palette, tile faces (drawn once per
face, language and size, cached) and backs, troops, shields and craft layouts, the text of a
tile's effect."""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.canvas import Canvas, Palette, Sprite, TextMark, label_mask, seat_mark, to_sprite
from render.common import INK, PAPER, font
from text.catalog import t

P = "dwoch_nastepcow."
TILE = 112  # the largest landscape cell (pixels); a wider landscape gets smaller cells
ID_BAND = 0.3  # the top of a landscape tile kept for its id (written by the canvas)
MINI = 56  # reserve tile size (a picture: the list beside it names the tile)
HAND = 150  # hand tile size
MARGIN = 12
#: every board is this wide (a steady width: the chat does not rescale it as tiles are laid)
WIDTH = 700

TILE_COLOURS = {"green": (118, 160, 84), "yellow": (232, 196, 96), "grey": (158, 160, 164)}
BACK_COLOURS = {"green": (86, 124, 62), "yellow": (196, 160, 70), "grey": (120, 122, 126)}
#: what each producer gives (a Trading Post's image shows the producers it counts)
PRODUCER_RESOURCE = {"farm": "wheat", "sawmill": "wood", "quarry": "stone"}
RESOURCE_COLOURS = {"wood": TILE_COLOURS["green"], "wheat": TILE_COLOURS["yellow"],
                    "stone": TILE_COLOURS["grey"]}
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



def cell_xy(cell: str) -> tuple[int, int]:
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


def effect_text(face: dict[str, Any], lang: str) -> str:
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
def _tile_sprite(face_json: str, lang: str, size: int, id_size: int, id_key: bool,
                 detail: str = "full") -> Sprite:
    """A face-up tile, upright: id (``id_size`` px) and set symbol on top, the name, the
    effect glyph, cost pips in the bottom-left (the bottom-right stays free for troops).
    ``id_key``: the id is the readable label of this tile (not repeated beside it).
    ``detail``: "full" (the hand); "picture" (the reserve: no words, the list beside it
    names the tile); "landscape" (a built tile: roads and the effect glyph only; the canvas
    writes the id, the notes under the board name every building, and the id's letters
    name its set; cost no longer matters)."""
    if detail != "full":
        return _bare_sprite(face_json, size, detail == "picture")
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


def _bare_sprite(face_json: str, size: int, costs: bool) -> Sprite:
    """A tile without words: roads, the effect glyph, and (``costs``) the set symbol and the
    cost pips."""
    face = json.loads(face_json)
    img = Image.new("RGB", (size, size), TILE_COLOURS[face["colour"]])
    draw = ImageDraw.Draw(img)
    _draw_roads(draw, face, size)
    pad = max(3, size // 24)
    if costs:
        s = max(12, size // 4)
        _shape(draw, SET_SHAPES.get(face["set"], "circle"),
               (size - pad - s, pad, size - pad, pad + s), PAPER)
        pips = [r for r in ("wood", "wheat", "stone") for _ in range(face["cost"].get(r, 0))]
        pr = max(4, size // 14)
        x, y = pad + pr, size - pad - pr
        for r in pips:
            draw.ellipse((x - pr, y - pr, x + pr, y + pr), fill=RESOURCE_COLOURS[r], outline=INK)
            x += 2 * pr + 1
        _glyph(draw, face, (pad + 2, int(size * 0.3), size - pad - 2, int(size * 0.72)))
    else:  # the glyph between the id band and the troops' band
        _glyph(draw, face, (pad + 2, int(size * ID_BAND) + 2, size - pad - 2, int(size * 0.66)))
    draw.rectangle((0, 0, size - 1, size - 1), outline=INK)
    return to_sprite(img, PALETTE)


@lru_cache(maxsize=64)
def back_sprite(colour: str, size: int, mark: str) -> Sprite:
    return to_sprite(_back_image(colour, size, mark), PALETTE)


def clear_caches() -> None:
    """Forget the drawn tiles and labels (benchmarks of a cold start)."""
    _tile_sprite.cache_clear()
    back_sprite.cache_clear()
    label_mask.cache_clear()


def tile_face(entry: dict[str, Any], lang: str, size: int, id_size: int, id_key: bool = True,
              detail: str = "full") -> Sprite:
    face = {k: entry[k] for k in ("id", "set", "building", "colour", "cost", "roads", "axis",
                                  "arrows", "layout", "boosts", "counts") if k in entry}
    return _tile_sprite(json.dumps(face, sort_keys=True), lang, size, id_size, id_key, detail)


def draw_troop(canvas: Canvas, centre: tuple[float, float], seat: int, kind: str, moved: bool,
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


def draw_craft_layout(canvas: Canvas, layout: dict[str, str], xy: tuple[float, float], unit: int
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


def draw_shield(canvas: Canvas, centre: tuple[float, float], size: float, crown: int | None) -> None:
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


def seat_name(view: dict[str, Any], names: list[str], seat: int, lang: str) -> str:
    return names[seat] if seat < len(names) else t(lang, f"{P}seat.{view['colours'][seat]}")
