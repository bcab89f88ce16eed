"""Dwóch następców: the channel image (reserve circle + landscape) and a seat's hand.

Pure functions of a view. The board comes from the spectator view only; the hand image
from a seat's view (its ``private`` part). Tiles are drawn once per (face, owner, language,
size) and cached; a building faces its owner, so blue's tiles are drawn upside down.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, PAPER, column_label, font, to_png
from session.i18n import t

P = "dwoch_nastepcow."
TILE = 84  # landscape cell size in pixels
MINI = 72  # reserve tile size
HAND = 150  # hand tile size
LABEL = 26  # coordinate margin
PANEL = 470  # width of the reserve/info panel

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
SET_SHAPES = {"travel": "circle", "lands": "square", "trade": "diamond", "war": "triangle",
              "patrol": "hexagon", "craft": "cross"}
VECTORS = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
           "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}


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


@lru_cache(maxsize=512)
def _tile_image(face_json: str, owner: int | None, lang: str, size: int) -> Image.Image:
    """A face-up tile as printed, turned 180° for blue (seat 1): it faces its owner."""
    face = json.loads(face_json)
    img = Image.new("RGB", (size, size), TILE_COLOURS[face["colour"]])
    draw = ImageDraw.Draw(img)
    _draw_roads(draw, face, size)
    pad = max(3, size // 20)
    small = max(8, size // 9)
    # id (top left) and set symbol (top right, as printed)
    draw.text((pad, pad), face["id"], font=font(small, True), fill=INK)
    s = max(8, size // 8)
    _shape(draw, SET_SHAPES.get(face["set"], "circle"),
           (size - pad - s, pad, size - pad, pad + s), PAPER)
    # name on a light plate
    name = t(lang, f"{P}building.{face['building']}")
    lines, fs = _fit_name(draw, name, size - 2 * pad - 4, max(9, size // 7))
    top = int(size * 0.2)
    plate_h = int(len(lines) * fs * 1.15) + 4
    draw.rounded_rectangle((pad, top, size - pad, top + plate_h), radius=4,
                           fill=(250, 247, 240), outline=INK)
    for i, line in enumerate(lines):
        draw.text((size / 2, top + 3 + (i + 0.5) * fs * 1.15), line, font=font(fs, True),
                  fill=INK, anchor="mm")
    # effect (directional glyph or short text)
    gtop = top + plate_h + 2
    gbot = size - pad - max(10, size // 7) - 3
    if gbot - gtop >= 10:
        _glyph(draw, face, (pad + 2, gtop, size - pad - 2, gbot))
    # cost pips along the bottom
    pips = [r for r in ("wood", "wheat", "stone") for _ in range(face["cost"].get(r, 0))]
    pr = max(4, size // 16)
    x = pad + pr
    y = size - pad - pr
    for r in pips:
        draw.ellipse((x - pr, y - pr, x + pr, y + pr), fill=RESOURCE_COLOURS[r], outline=INK)
        x += 2 * pr + 2
    draw.rectangle((0, 0, size - 1, size - 1), outline=INK)
    if owner == 1:
        img = img.rotate(180)
    return img


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


def _tile(entry: dict[str, Any], owner: int | None, lang: str, size: int) -> Image.Image:
    face = {k: entry[k] for k in ("id", "set", "building", "colour", "cost", "roads", "axis",
                                  "arrows", "layout", "boosts", "counts") if k in entry}
    return _tile_image(json.dumps(face, sort_keys=True), owner, lang, size)


def _troop(draw: ImageDraw.ImageDraw, centre: tuple[float, float], seat: int, kind: str,
           moved: bool, r: float) -> None:
    x, y = centre
    rim = RETINUE_RIM if kind == "retinue" else INK
    draw.ellipse((x - r, y - r, x + r, y + r), fill=TROOP_COLOURS[seat], outline=rim,
                 width=max(2, int(r / 3)) if kind == "retinue" else 2)
    if moved:  # the token turned to its cross side
        k = r * 0.5
        draw.line([(x - k, y - k), (x + k, y + k)], fill=SIEGE, width=2)
        draw.line([(x - k, y + k), (x + k, y - k)], fill=SIEGE, width=2)


def _shield(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float,
            crown: int | None) -> None:
    x, y = centre
    w, h = size * 0.42, size * 0.5
    body = [(x - w, y - h), (x + w, y - h), (x + w, y + h * 0.2), (x, y + h),
            (x - w, y + h * 0.2)]
    draw.polygon(body, fill=(150, 30, 40), outline=INK)
    fill = TROOP_COLOURS[crown] if crown is not None else (120, 120, 120)
    cw, ch = w * 0.7, h * 0.45
    top = y - ch * 0.9
    crown_pts = [(x - cw, top + ch), (x - cw, top), (x - cw / 2, top + ch * 0.5), (x, top - ch * 0.1),
                 (x + cw / 2, top + ch * 0.5), (x + cw, top), (x + cw, top + ch)]
    draw.polygon(crown_pts, fill=fill, outline=INK)


def _bounds(view: dict[str, Any]) -> tuple[int, int, int, int]:
    cells = [e["cell"] for e in view["landscape"]]
    cells += (view.get("mover") or {}).get("placements", [])
    xs = [_cell_xy(c)[0] for c in cells]
    ys = [_cell_xy(c)[1] for c in cells]
    cols, rows = view["grid"]["cols"], view["grid"]["rows"]
    x0, x1 = max(0, min(xs) - 1), min(cols - 1, max(xs) + 1)
    y0, y1 = max(0, min(ys) - 1), min(rows - 1, max(ys) + 1)
    while x1 - x0 < 4:  # at least 5 x 5 cells, so the picture keeps its shape early on
        x0, x1 = max(0, x0 - (x1 - x0 < 4)), min(cols - 1, x1 + (x1 - x0 < 4))
    while y1 - y0 < 4:
        y0, y1 = max(0, y0 - (y1 - y0 < 4)), min(rows - 1, y1 + (y1 - y0 < 4))
    return x0, y0, x1, y1


def _draw_landscape(img: Image.Image, view: dict[str, Any], origin: tuple[int, int],
                    lang: str) -> None:
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = _bounds(view)
    ox, oy = origin
    lf = font(13, True)
    for cx in range(x0, x1 + 1):
        px = ox + LABEL + (cx - x0) * TILE + TILE / 2
        draw.text((px, oy + LABEL / 2), column_label(cx), font=lf, fill=PAPER, anchor="mm")
    for cy in range(y0, y1 + 1):
        py = oy + LABEL + (cy - y0) * TILE + TILE / 2
        draw.text((ox + LABEL / 2, py), str(cy + 1), font=lf, fill=PAPER, anchor="mm")

    def corner(cell: str) -> tuple[int, int]:
        cx, cy = _cell_xy(cell)
        return ox + LABEL + (cx - x0) * TILE, oy + LABEL + (cy - y0) * TILE

    for cy in range(y0, y1 + 1):  # faint grid
        for cx in range(x0, x1 + 1):
            px, py = ox + LABEL + (cx - x0) * TILE, oy + LABEL + (cy - y0) * TILE
            draw.rectangle((px, py, px + TILE - 1, py + TILE - 1), outline=(84, 118, 96))
    for entry in view["landscape"]:
        px, py = corner(entry["cell"])
        if entry["face"] == "up":
            img.paste(_tile(entry, entry["owner"], lang, TILE), (px, py))
            frame = TROOP_COLOURS[entry["owner"]]
            draw.rectangle((px + 1, py + 1, px + TILE - 2, py + TILE - 2), outline=frame, width=3)
            if entry.get("used"):  # a turned Camp
                draw.line([(px + 4, py + TILE - 4), (px + TILE - 4, py + 4)], fill=SIEGE,
                          width=3)
        else:
            mark = "start" if entry.get("start") else "destroyed" if entry.get(
                "destroyed") else ""
            img.paste(_back_image(entry["colour"], TILE, mark), (px, py))
    mover = view.get("mover")
    if mover:
        for cell in mover["placements"]:
            px, py = corner(cell)
            for k in range(0, TILE, 12):  # dashed outline: where a tile may go
                draw.line([(px + k, py + 2), (px + min(k + 6, TILE), py + 2)], fill=PAPER, width=2)
                draw.line([(px + k, py + TILE - 3), (px + min(k + 6, TILE), py + TILE - 3)],
                          fill=PAPER, width=2)
                draw.line([(px + 2, py + k), (px + 2, py + min(k + 6, TILE))], fill=PAPER, width=2)
                draw.line([(px + TILE - 3, py + k), (px + TILE - 3, py + min(k + 6, TILE))],
                          fill=PAPER, width=2)
            draw.text((px + TILE / 2, py + TILE / 2), cell, font=font(12), fill=PAPER,
                      anchor="mm")
    for cell in (view.get("pending") or {}).get("targets", []):
        px, py = corner(cell)
        draw.rectangle((px, py, px + TILE - 1, py + TILE - 1), outline=SIEGE, width=5)
    r = TILE * 0.14
    for seat, troops in enumerate(view["troops"]):
        for troop in troops:
            if troop["at"] is None:
                continue
            px, py = corner(troop["at"])
            # white stands towards the bottom-right, blue towards the top-left: clear of the
            # cost printed on the owner's tiles, and apart on the shared starting tile
            centre = (px + TILE * 0.80, py + TILE * 0.80) if seat == 0 else (
                px + TILE * 0.20, py + TILE * 0.20)
            _troop(draw, centre, seat, troop["kind"], troop["moved"], r)


def _draw_reserve(img: Image.Image, view: dict[str, Any], origin: tuple[int, int],
                  lang: str) -> None:
    draw = ImageDraw.Draw(img)
    ox, oy = origin
    reserve = view["reserve"]
    cx, cy, radius = ox + PANEL / 2, oy + 232, 150
    draw.text((cx, oy + 16), t(lang, f"{P}render.reserve"), font=font(18, True), fill=PAPER,
              anchor="mm")
    draw.ellipse((cx - radius - 48, cy - radius - 48, cx + radius + 48, cy + radius + 48),
                 outline=(96, 132, 108), width=2)
    mover = view["current"]
    in_reach = reserve["in_reach"][mover] if view["to_act"] else []
    for slot in range(7):
        ang = -math.pi / 2 + slot * 2 * math.pi / 7  # slot 0 at the top, clockwise
        sx, sy = cx + radius * math.cos(ang), cy + radius * math.sin(ang)
        box = (int(sx - MINI / 2), int(sy - MINI / 2))
        face = reserve["slots"][slot]
        if slot == reserve["shield"]:
            _shield(draw, (sx, sy), MINI, reserve["crown"])
        elif face is None:
            draw.rectangle((box[0], box[1], box[0] + MINI, box[1] + MINI), outline=(96, 132, 108),
                           width=2)
        else:
            img.paste(_tile(face, None, lang, MINI), box)
        if slot in in_reach:
            order = in_reach.index(slot) + 1
            draw.rectangle((box[0] - 4, box[1] - 4, box[0] + MINI + 3, box[1] + MINI + 3),
                           outline=REACH, width=4)
            bx, by = sx + (radius * 0.0) + math.cos(ang) * (MINI * 0.72), sy + math.sin(ang) * (
                MINI * 0.72)
            draw.ellipse((bx - 11, by - 11, bx + 11, by + 11), fill=REACH, outline=INK)
            draw.text((bx, by), str(order), font=font(13, True), fill=INK, anchor="mm")
    # troops in the reserve, in the middle of the circle
    r = 15
    for seat, troops in enumerate(view["troops"]):
        home = [tr for tr in troops if tr["at"] is None]
        for i, troop in enumerate(home):
            centre = (cx - 22 + i * 44, cy - 24 + seat * 48)
            _troop(draw, centre, seat, troop["kind"], troop["moved"], r)
    draw.text((cx, cy + 56), t(lang, f"{P}render.stack", n=view["stack"]), font=font(14, True),
              fill=PAPER, anchor="mm")


def _draw_info(img: Image.Image, view: dict[str, Any], names: list[str],
               origin: tuple[int, int], lang: str) -> None:
    draw = ImageDraw.Draw(img)
    ox, oy = origin
    y = oy
    over = view["phase"] == "over"
    for seat in (0, 1):
        name = names[seat] if seat < len(names) else t(lang, f"{P}seat.{view['colours'][seat]}")
        active = not over and view["current"] == seat
        draw.rounded_rectangle((ox + 14, y, ox + PANEL - 14, y + 50), radius=8,
                               fill=(80, 116, 92) if active else (70, 100, 82),
                               outline=REACH if active else (96, 132, 108), width=3 if active else 1)
        _troop(draw, (ox + 38, y + 25), seat, "normal", False, 13)
        draw.text((ox + 60, y + 14), name[:22], font=font(17, True), fill=PAPER, anchor="lm")
        sub = "  ·  ".join([
            t(lang, f"{P}render.hand", n=view["hand_sizes"][seat]),
            t(lang, f"{P}render.reach", n=view["reserve"]["reach"][seat]),
        ])
        draw.text((ox + 60, y + 36), sub, font=font(13), fill=PAPER, anchor="lm")
        draw.text((ox + PANEL - 26, y + 25), t(lang, f"{P}render.points", n=view["scores"][seat]),
                  font=font(20, True), fill=PAPER, anchor="rm")
        y += 58
    y += 4
    if over:
        ranking = view.get("ranking") or [[0, 1]]
        if len(ranking[0]) > 1:
            text = t(lang, f"{P}render.draw")
        else:
            w = ranking[0][0]
            text = t(lang, f"{P}render.winner",
                     name=names[w] if w < len(names) else t(lang, f"{P}seat.{view['colours'][w]}"))
        draw.text((ox + PANEL / 2, y + 14), f"{t(lang, f'{P}render.game_over')} · {text}",
                  font=font(18, True), fill=PAPER, anchor="mm")
        return
    mover = view["mover"]
    who = names[mover["seat"]] if mover["seat"] < len(names) else t(
        lang, f"{P}seat.{view['colours'][mover['seat']]}")
    head = t(lang, f"{P}render.to_move", name=who)
    if view["final_round"]:
        head += " · " + t(lang, f"{P}render.final_round")
    if view["phase"] == "siege":
        head += " · " + t(lang, f"{P}render.siege")
    elif view["phase"] == "discard":
        head += " · " + t(lang, f"{P}render.discard")
    draw.text((ox + 18, y + 12), head, font=font(15, True), fill=PAPER, anchor="lm")
    y += 32
    draw.text((ox + 18, y + 10), t(lang, f"{P}render.resources") + ":", font=font(14),
              fill=PAPER, anchor="lm")
    x = ox + 150
    for res in ("wood", "wheat", "stone"):
        draw.ellipse((x, y + 1, x + 18, y + 19), fill=RESOURCE_COLOURS[res], outline=INK)
        label = f"{t(lang, f'{P}resource.{res}')} {mover['resources'][res]}"
        draw.text((x + 24, y + 10), label, font=font(14, True), fill=PAPER, anchor="lm")
        x += 34 + int(draw.textlength(label, font=font(14, True)))
    if mover["discounts"]:
        draw.text((ox + 150, y + 32), t(lang, f"{P}render.discounts", n=mover["discounts"]),
                  font=font(13), fill=PAPER, anchor="lm")
    if view.get("removed"):
        draw.text((ox + PANEL - 18, y + 32), t(lang, f"{P}render.removed", n=view["removed"]),
                  font=font(12), fill=PAPER, anchor="rm")


def render_board(view: dict[str, Any], *, names: list[str], lang: str = "en") -> bytes:
    """The channel image: reserve circle with reach, players, resources, the landscape."""
    x0, y0, x1, y1 = _bounds(view)
    land_w = LABEL + (x1 - x0 + 1) * TILE + 12
    land_h = LABEL + (y1 - y0 + 1) * TILE + 12
    width = PANEL + land_w
    height = max(land_h, 662)
    img = Image.new("RGB", (width, height), TABLE)
    _draw_reserve(img, view, (0, 0), lang)
    _draw_info(img, view, names, (0, 462), lang)
    _draw_landscape(img, view, (PANEL, 0), lang)
    return to_png(img)


def render_hand(view: dict[str, Any], *, names: list[str], lang: str = "en") -> bytes:
    """A seat's private picture: the tiles in hand, large, with their effects and costs."""
    private = view.get("private") or {}
    hand = private.get("hand", [])
    seat = private.get("seat", 0)
    count = max(1, len(hand))
    width = max(440, 24 + count * (HAND + 16) + 8)
    caption = 4 * 17
    height = HAND + 110 + caption
    img = Image.new("RGB", (width, height), TABLE)
    draw = ImageDraw.Draw(img)
    name = names[seat] if seat < len(names) else ""
    draw.text((16, 20), f"{t(lang, f'{P}render.your_hand')} · {name}", font=font(17, True),
              fill=PAPER, anchor="lm")
    if not hand:
        draw.text((16, 80), t(lang, f"{P}render.empty_hand"), font=font(15), fill=PAPER,
                  anchor="lm")
    for i, face in enumerate(hand):
        x = 24 + i * (HAND + 16)
        img.paste(_tile_detail(face, lang), (x, 42))
        lines = _wrap(draw, _effect_text(face, lang), HAND, 13)[:4]
        for k, line in enumerate(lines):
            draw.text((x, HAND + 50 + k * 17), line, font=font(13), fill=PAPER)
    mover = view.get("mover")
    if mover and mover["seat"] == seat:
        y = HAND + 62 + caption
        draw.text((16, y + 10), t(lang, f"{P}render.resources") + ":", font=font(14),
                  fill=PAPER, anchor="lm")
        x = 150
        for res in ("wood", "wheat", "stone"):
            draw.ellipse((x, y + 1, x + 18, y + 19), fill=RESOURCE_COLOURS[res], outline=INK)
            label = f"{mover['resources'][res]}"
            draw.text((x + 24, y + 10), label, font=font(15, True), fill=PAPER, anchor="lm")
            x += 56
        if mover["discounts"]:
            draw.text((x + 8, y + 10), t(lang, f"{P}render.discounts", n=mover["discounts"]),
                      font=font(13), fill=PAPER, anchor="lm")
    return to_png(img)


def _tile_detail(face: dict[str, Any], lang: str) -> Image.Image:
    clean = {k: face[k] for k in ("id", "set", "building", "colour", "cost", "roads", "axis",
                                  "arrows", "layout", "boosts", "counts") if k in face}
    return _tile_image(json.dumps(clean, sort_keys=True), None, lang, HAND)
