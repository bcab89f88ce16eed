"""The Dwóch następców channel image: the landscape (coordinates, tiles face up and down,
where the mover may place, siege targets, troops) with the players, the reserve and the notes
under it."""

from __future__ import annotations

from typing import Any

from render.canvas import Canvas, label_mask, text_size, text_width
from render.common import PAPER, column_label, min_icon_px, text_on
from render.dwoch_nastepcow.below import Below
from render.dwoch_nastepcow.tiles import (
    GRID,
    MARGIN,
    PALETTE,
    SIEGE,
    TABLE,
    TILE,
    TROOP_COLOURS,
    WIDTH,
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


def cell_size(columns: int, label: int) -> int:
    """The landscape cell: ``TILE``, or smaller (a multiple of 8, so that few sizes are
    drawn) when the landscape would not fit ``WIDTH``."""
    fit = (WIDTH - 2 * MARGIN - label) // columns
    return min(TILE, fit - fit % 8)


def board_canvas(view: dict[str, Any], *, names: list[str], lang: str = "en") -> Canvas:
    x0, y0, x1, y1 = _bounds(view)
    width = WIDTH
    fs = text_size(width)
    label = max(fs + 10, text_width("25", fs, True) + 8)
    size = cell_size(x1 - x0 + 1, label)
    land_w = (x1 - x0 + 1) * size
    land_h = label + (y1 - y0 + 1) * size
    below = Below(view, names, lang, width, fs)
    height = MARGIN + land_h + MARGIN + below.height()
    canvas = Canvas(width, height, PALETTE, TABLE)
    origin = (MARGIN + (width - 2 * MARGIN - label - land_w) // 2, MARGIN)
    _draw_landscape(canvas, view, origin, (label, size), fs, lang)
    below.draw(canvas, MARGIN + land_h + MARGIN)
    return canvas


def _id_plate(canvas: Canvas, xy: tuple[int, int], text: str, fs: int, owner: int) -> None:
    """A built tile's id on a plate in its owner's colour and shape (white: round ends, the
    white seat's circle; blue: square, the blue seat's square), so the owner is never told by
    the frame's colour alone."""
    fill = TROOP_COLOURS[owner]
    w, h = label_mask(text, fs, True)[0].size
    x, y = xy
    box = (x, y, x + w + 6, y + h + 2)
    if owner == 0:
        canvas.draw.rounded_rectangle(box, radius=(h + 2) // 2, fill=canvas.c(fill),
                                      outline=canvas.c(TABLE))
    else:
        canvas.draw.rectangle(box, fill=canvas.c(fill), outline=canvas.c(TABLE))
    canvas.text((x + 3, y + 1), text, fs, text_on(fill), fill, bold=True)


def _draw_landscape(canvas: Canvas, view: dict[str, Any], origin: tuple[int, int],
                    sizes: tuple[int, int], fs: int, lang: str) -> None:
    draw = canvas.draw
    label, side = sizes
    x0, y0, x1, y1 = _bounds(view)
    ox, oy = origin
    for cx in range(x0, x1 + 1):
        px = ox + label + (cx - x0) * side + side / 2
        canvas.text((px, oy + label / 2), column_label(cx), fs, PAPER, TABLE, bold=True,
                    anchor="mm")
    for cy in range(y0, y1 + 1):
        py = oy + label + (cy - y0) * side + side / 2
        canvas.text((ox + label / 2, py), str(cy + 1), fs, PAPER, TABLE, bold=True, anchor="mm")

    def corner(name: str) -> tuple[int, int]:
        cx, cy = cell_xy(name)
        return ox + label + (cx - x0) * side, oy + label + (cy - y0) * side

    for cy in range(y0, y1 + 1):  # faint grid
        for cx in range(x0, x1 + 1):
            px, py = ox + label + (cx - x0) * side, oy + label + (cy - y0) * side
            draw.rectangle((px, py, px + side - 1, py + side - 1), outline=canvas.c(GRID))
    for entry in view["landscape"]:
        px, py = corner(entry["cell"])
        if entry["face"] == "up":
            canvas.paste(tile_face(entry, lang, side, 0, detail="landscape"), (px, py))
            owner = entry["owner"]
            draw.rectangle((px + 1, py + 1, px + side - 2, py + side - 2),
                           outline=canvas.c(TROOP_COLOURS[owner]), width=3)
            _id_plate(canvas, (px + 4, py + 4), entry["id"], fs, owner)
            if entry.get("used"):  # a turned Camp
                draw.line([(px + 4, py + side - 4), (px + side - 4, py + 4)],
                          fill=canvas.c(SIEGE), width=3)
        else:
            mark = "start" if entry.get("start") else "destroyed" if entry.get(
                "destroyed") else ""
            canvas.paste(back_sprite(entry["colour"], side, mark), (px, py))
    mover = view.get("mover")
    if mover:
        for free in mover["placements"]:
            px, py = corner(free)
            for k in range(0, side, 12):  # dashed outline: where a tile may go
                for a, b in (((px + k, py + 2), (px + min(k + 6, side), py + 2)),
                             ((px + k, py + side - 3), (px + min(k + 6, side), py + side - 3)),
                             ((px + 2, py + k), (px + 2, py + min(k + 6, side))),
                             ((px + side - 3, py + k), (px + side - 3, py + min(k + 6, side)))):
                    draw.line([a, b], fill=canvas.c(PAPER), width=2)
            canvas.text((px + side / 2, py + side / 2), free, fs, PAPER, TABLE, anchor="mm")
    for target in (view.get("pending") or {}).get("targets", []):
        px, py = corner(target)
        draw.rectangle((px, py, px + side - 1, py + side - 1), outline=canvas.c(SIEGE), width=5)
    r = max(min_icon_px(canvas.width) / 2, side * 0.11)
    for seat, troops in enumerate(view["troops"]):
        for troop in troops:
            if troop["at"] is None:
                continue
            px, py = corner(troop["at"])
            # in the bottom band, one corner a seat: clear of the id and of each other
            tx = px + 5 + r if seat == 0 else px + side - 5 - r
            draw_troop(canvas, (tx, py + side - 5 - r), seat, troop["kind"], troop["moved"], r)


