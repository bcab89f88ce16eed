"""The Dwóch następców channel image: the landscape (coordinates, tiles face up and down,
where the mover may place, siege targets, troops) with the players, the reserve and the notes
under it."""

from __future__ import annotations

from typing import Any

from render.canvas import Canvas, seat_mark, text_size, text_width
from render.common import INK, PAPER, column_label
from render.dwoch_nastepcow.below import Below
from render.dwoch_nastepcow.tiles import (
    GRID,
    MARGIN,
    MIN_WIDTH,
    PALETTE,
    SIEGE,
    TABLE,
    TILE,
    TROOP_COLOURS,
    back_sprite,
    cell_xy,
    draw_troop,
    tile_face,
)


def _bounds(view: dict[str, Any]) -> tuple[int, int, int, int]:
    cells = [e["cell"] for e in view["landscape"]]
    cells += (view.get("mover") or {}).get("placements", [])
    xs = [cell_xy(c)[0] for c in cells]
    ys = [cell_xy(c)[1] for c in cells]
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
    below = Below(view, names, lang, width, fs)
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
        cx, cy = cell_xy(cell)
        return ox + label + (cx - x0) * TILE, oy + label + (cy - y0) * TILE

    for cy in range(y0, y1 + 1):  # faint grid
        for cx in range(x0, x1 + 1):
            px, py = ox + label + (cx - x0) * TILE, oy + label + (cy - y0) * TILE
            draw.rectangle((px, py, px + TILE - 1, py + TILE - 1), outline=canvas.c(GRID))
    for entry in view["landscape"]:
        px, py = corner(entry["cell"])
        if entry["face"] == "up":
            canvas.paste(tile_face(entry, lang, TILE, 0), (px, py))
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
            canvas.paste(back_sprite(entry["colour"], TILE, mark), (px, py))
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
            draw_troop(canvas, centre, seat, troop["kind"], troop["moved"], r)


