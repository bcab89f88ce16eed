"""The Bunny Kingdom channel image: the header, the map (a cached layer of terrain, names and
labels; each occupied cell drawn once and cached: fief border, building, owner's marker; lava on
top), and a block per player under it, two by two, then everyone's revealed parchments."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.bunny_kingdom.icons import building_icon, resource_icon
from render.bunny_kingdom.lines import final_lines, header_parts, joined, seat_lines
from render.bunny_kingdom.style import (
    BLOCK_W,
    BOARD_PX,
    CELL,
    GRID,
    ICON_PX,
    LABEL,
    LAVA,
    LAVA_CORE,
    LINE_H,
    MARGIN,
    ROWS,
    SOFT,
    TERRAIN_COLOURS,
    TERRAIN_GLYPHS,
    TERRAIN_TEXTURES,
    TEXT_PX,
    TEXTURE_INK,
    WHITE,
    WIDTH,
    lbl,
    to_png,
    who,
)
from render.common import (
    INK,
    PAPER,
    draw_pattern,
    draw_seat_marker,
    draw_text,
    fit_text,
    font,
    layer_cache,
    legible,
    note_icon,
    seat_colour,
    text_width,
)

MAP_H = LABEL + BOARD_PX + LABEL
BUILDING_PX = 28
MARKER_PX = max(24, ICON_PX)  # the owner's marker, bottom right of a cell


def cell_box(index: int, top: int = 0) -> tuple[int, int, int, int]:
    """A cell's box; ``top`` is where the map starts in the image."""
    r, c = divmod(index, 10)
    x = MARGIN + LABEL + c * CELL
    y = top + LABEL + r * CELL
    return x, y, x + CELL, y + CELL


def cell_name(index: int) -> str:
    return f"{ROWS[index // 10]}{index % 10 + 1}"


@layer_cache(maxsize=4)
def map_layer(terrain: tuple[str, ...]) -> Image.Image:
    """Terrain with its glyph or texture, grid and A-J / 1-10 labels on every side (RGB,
    cached). Cells carry no names: at phone size a name, a resource, a building and a marker
    do not fit one cell, and the labels on all four sides name every cell."""
    img = Image.new("RGB", (WIDTH, MAP_H), PAPER)
    d = ImageDraw.Draw(img)
    label = font(TEXT_PX + 2, True)
    for i, ter in enumerate(terrain):
        x0, y0, x1, y1 = cell_box(i)
        colour = TERRAIN_COLOURS.get(ter, (200, 200, 200))
        d.rectangle((x0, y0, x1, y1), fill=colour)
        if ter in TERRAIN_TEXTURES:
            cell = Image.new("RGB", (CELL, CELL), colour)
            draw_pattern(ImageDraw.Draw(cell), TERRAIN_TEXTURES[ter], CELL, TEXTURE_INK[ter])
            img.paste(cell, (x0, y0))
        res = TERRAIN_GLYPHS.get(ter)
        if res:
            icon = resource_icon(res, ICON_PX)
            img.paste(icon, (x0 + 4, y0 + 4), icon)
    for k in range(11):
        x = MARGIN + LABEL + k * CELL
        y = LABEL + k * CELL
        d.line((x, LABEL, x, LABEL + BOARD_PX), fill=GRID, width=1)
        d.line((MARGIN + LABEL, y, MARGIN + LABEL + BOARD_PX, y), fill=GRID, width=1)
    for k in range(10):
        cx = MARGIN + LABEL + k * CELL + CELL // 2
        cy = LABEL + k * CELL + CELL // 2
        for yy in (LABEL // 2, LABEL + BOARD_PX + LABEL // 2):
            draw_text(img, (cx, yy), str(k + 1), font=label, fill=INK, anchor="mm", key=True,
                      draw=d)
        for xx in (MARGIN + LABEL // 2, MARGIN + LABEL + BOARD_PX + LABEL // 2):
            draw_text(img, (xx, cy), ROWS[k], font=label, fill=INK, anchor="mm", key=True,
                      draw=d)
    return img


@lru_cache(maxsize=4)
def _lava_bar(vertical: bool) -> Image.Image:
    """Lava on a cell edge: a dark-rimmed bar with yellow dashes, drawn over fief borders so
    it always shows, and told from a red border by its dashes, not its colour alone."""
    w, h = 10, CELL - 4
    img = Image.new("RGB", (w, h), LAVA)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w - 1, h - 1), outline=INK)
    for y in range(5, h - 6, 10):
        d.rectangle((3, y, w - 4, y + 4), fill=LAVA_CORE)
    return img.transpose(Image.Transpose.ROTATE_90) if not vertical else img


def render_board(view: dict[str, Any], *, names: list[str], lang: str = "en") -> bytes:
    """The channel image of a Bunny Kingdom game, from the spectator view."""
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    header_font = font(TEXT_PX + 2, True)
    header = joined(probe, header_parts(view, names, lang), header_font, WIDTH - 2 * MARGIN)
    # room reserved so that the image keeps its size while the game is played (the chat does
    # not jump between boards): 3 header lines (4 with a passing order of 3-4 names), 7 lines
    # a player (2 of territories and parchments, 2 of waiting buildings, 2 of last cards, 1 of
    # harvests)
    header_h = 10 + max(3 + (view["players"] > 2), len(header)) * (TEXT_PX + 8)
    blocks = [seat_lines(probe, view, s, lang) for s in range(view["players"])]
    least = 0 if view["phase"] in ("copy", "over") else 7
    row_heights = [max(_block_height([None] * least),
                       *(_block_height(lines) for lines in blocks[k:k + 2]))
                   for k in range(0, len(blocks), 2)]
    blocks_h = sum(h + 8 for h in row_heights)
    final = final_lines(probe, view, names, lang)
    height = header_h + MAP_H + 8 + blocks_h + len(final) * LINE_H + MARGIN
    img = Image.new("RGB", (WIDTH, height), PAPER)
    img.paste(map_layer(tuple(view["board"]["terrain"])), (0, header_h))
    for ter in view["board"]["terrain"]:  # the map layer is cached: its icons noted here
        if ter in TERRAIN_GLYPHS:
            note_icon("terrain", ICON_PX)
    d = ImageDraw.Draw(img)
    for k, line in enumerate(header):
        draw_text(img, (MARGIN, 6 + k * (TEXT_PX + 8)), line, font=header_font, fill=INK,
                  draw=d)
    _pieces(img, d, view, header_h)
    y = header_h + MAP_H + 8
    winners = view["ranking"][0] if view.get("ranking") else []
    for s, lines in enumerate(blocks):
        _seat_block(img, d, view, s, lines, names, lang, MARGIN + (s % 2) * (BLOCK_W + 8), y,
                    row_heights[s // 2], s in winners)
        if s % 2 == 1 or s == len(blocks) - 1:
            y += row_heights[s // 2] + 8
    for text, fnt, colour, indent in final:
        draw_text(img, (MARGIN + indent, y), text, font=fnt, fill=colour, draw=d)
        y += LINE_H
    return to_png(img)


def _block_height(lines: list[Any]) -> int:
    return 34 + 14 + len(lines) * LINE_H + 6


def _seat_block(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], s: int,
                lines: list[tuple[str, tuple[int, int, int]]], names: list[str], lang: str,
                x: int, y: int, h: int, winner: bool) -> None:
    """A player's block: marker, name, state, score; score bar on a shared scale; lines."""
    colour = seat_colour(s)
    d.rounded_rectangle((x, y, x + BLOCK_W, y + h), 8, fill=WHITE, outline=colour, width=3)
    draw_seat_marker(img, s, (x + 20, y + 18), 24)
    flag = ""
    if s in view["to_act"]:
        flag = "  ◀ " + lbl(lang, "to_act")
    elif view["seats"][s]["picked"]:
        flag = "  ✓ " + lbl(lang, "picked")
    if winner:
        flag = "  ★ " + lbl(lang, "winner")
    bold = font(TEXT_PX + 2, True)
    totals = view["totals"]
    score_font = font(TEXT_PX + 6, True)
    room = BLOCK_W - 48 - int(text_width(str(totals[s]), score_font)) - 8
    draw_text(img, (x + 38, y + 18), fit_text(who(names, s) + flag, bold, room), font=bold,
              fill=INK, anchor="lm", draw=d)
    draw_text(img, (x + BLOCK_W - 10, y + 18), str(totals[s]), font=score_font,
              fill=legible(colour, WHITE), anchor="rm", draw=d)
    bar_y = y + 34
    top = max([100, *totals])
    d.rectangle((x + 10, bar_y, x + BLOCK_W - 10, bar_y + 8), fill=(235, 230, 220))
    filled = int((BLOCK_W - 20) * totals[s] / top)
    d.rectangle((x + 10, bar_y, x + 10 + filled, bar_y + 8), fill=colour, outline=INK)
    line_y = bar_y + 14
    small = font(TEXT_PX)
    for text, fill in lines:
        draw_text(img, (x + 10, line_y), text, font=small, fill=fill, draw=d)
        line_y += LINE_H


def fief_edges(owner: list[int], lava: set[frozenset[int]]) -> list[tuple[int, str]]:
    """(cell, side) pairs where a fief ends: the neighbour is off the map, owned by someone
    else (or no one), or behind lava. Lava splits fiefs, so it gets a border too."""
    edges = []
    for i, o in enumerate(owner):
        if o < 0:
            continue
        r, c = divmod(i, 10)
        for side, j, inside in (("top", i - 10, r > 0), ("bottom", i + 10, r < 9),
                                ("left", i - 1, c > 0), ("right", i + 1, c < 9)):
            if not inside or owner[j] != o or frozenset((i, j)) in lava:
                edges.append((i, side))
    return edges


@lru_cache(maxsize=128)
def _border(seat: int, sides: frozenset[str]) -> Image.Image:
    """A cell's fief border on the given sides (RGBA, transparent inside), cached."""
    img = Image.new("RGBA", (CELL + 1, CELL + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    colour = seat_colour(seat) + (255,)
    ink = INK + (255,)
    e = CELL
    boxes = {"top": ((0, 0, e, 1), (0, 2, e, 5)), "bottom": ((0, e - 1, e, e), (0, e - 5, e, e - 2)),
             "left": ((0, 0, 1, e), (2, 0, 5, e)), "right": ((e - 1, 0, e, e), (e - 5, 0, e - 2, e))}
    for side in ("top", "bottom", "left", "right"):  # fixed order: the same pixels each time
        if side in sides:
            rim, band = boxes[side]
            d.rectangle(rim, fill=ink)
    for side in ("top", "bottom", "left", "right"):
        if side in sides:
            rim, band = boxes[side]
            d.rectangle(band, fill=colour)
    return img


def _pieces(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], top: int) -> None:
    board = view["board"]
    coords = board["coords"]
    owner = board["owner"]
    index = {c: i for i, c in enumerate(coords)}
    lava = {frozenset((index[a], index[b])) for a, b in board["lava"]}
    # fief borders: a dark rim and a band in the owner's colour along every fief's outline
    sides: dict[int, frozenset[str]] = {}
    for i, side in fief_edges(owner, lava):
        sides[i] = sides.get(i, frozenset()) | {side}
    pair_of: dict[int, str] = {}
    for k, (a, b) in enumerate(board["towers"], start=1):
        pair_of[index[a]] = pair_of[index[b]] = str(k)
    terrain = tuple(board["terrain"])
    for i, building in enumerate(board["building"]):
        if building or owner[i] >= 0:
            x0, y0, _, _ = cell_box(i, top)
            img.paste(cell_tile(terrain, i, building or "", view["posts"].get(coords[i], ""),
                                 pair_of.get(i, ""), owner[i], sides.get(i, frozenset())),
                      (x0, y0))
            if building:
                note_icon("building", BUILDING_PX)
            if owner[i] >= 0:
                note_icon("seat", MARKER_PX)
    # lava last: on top of every border, so it never disappears between two owned cells
    for pair in lava:
        a, b = sorted(pair)
        ax0, ay0, ax1, ay1 = cell_box(a, top)
        if b - a == 1:  # side by side: a vertical flow on the shared edge
            img.paste(_lava_bar(True), (ax1 - 5, ay0 + 2))
        else:
            img.paste(_lava_bar(False), (ax0 + 2, ay1 - 5))
    for a, b in board["towers"]:
        tower_owner = owner[index[a]]
        (ax, ay, ax1, ay1), (bx, by, bx1, by1) = cell_box(index[a], top), \
            cell_box(index[b], top)
        d.line(((ax + ax1) // 2, (ay + ay1) // 2, (bx + bx1) // 2, (by + by1) // 2),
               fill=seat_colour(tower_owner) if tower_owner >= 0 else SOFT, width=2)


@lru_cache(maxsize=2048)
def cell_tile(terrain: tuple[str, ...], i: int, building: str, resource: str, pair: str,
               owner: int, sides: frozenset[str]) -> Image.Image:
    """One cell as drawn on the board (terrain and name from the map layer, fief border,
    building, owner's marker): opaque, so the board pastes it without blending."""
    x0, y0, x1, y1 = cell_box(i)
    tile = map_layer(terrain).crop((x0, y0, x1 + 1, y1 + 1))
    if owner >= 0 and sides:
        sprite = _border(owner, sides)
        tile.paste(sprite, (0, 0), sprite)
    if building:
        icon = building_icon(building, BUILDING_PX, resource=resource, pair=pair)
        tile.paste(icon, (3, CELL - BUILDING_PX - 3), icon)
    if owner >= 0:
        draw_seat_marker(tile, owner, (CELL - 3 - MARKER_PX // 2, CELL - 3 - MARKER_PX // 2),
                         MARKER_PX)
    return tile


