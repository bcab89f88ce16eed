"""The Gheos channel image: the map (coordinates, free cells, tiles, civilization outlines and
markers, the last tile and a preview's cell highlighted, cell names) with the panel under it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PIL import Image

from render.canvas import Canvas, line_height, text_size
from render.common import INK, PAPER, min_icon_px
from render.gheos.panel import Panel
from render.gheos.tiles import (
    CIV_RGB,
    FREE,
    FREE_LINE,
    FREE_TEXT,
    HIGHLIGHT,
    LABEL_GOLD,
    LABEL_PLATE,
    LAST,
    MARGIN,
    PALETTE,
    SIDE,
    WHITE,
    WIDTH,
    cell_origin,
    parse_cell,
    part_shapes,
    tile_key,
    tile_pixels,
    vertices,
)


@dataclass(frozen=True)
class MapFrame:
    """Where the map lies in the image: ``(ox, oy)`` is the origin of cell column 0, row 0;
    ``s`` the tile side and ``h`` its height."""

    ox: float
    oy: float
    s: int
    h: float

    def origin(self, col: int, row: int) -> tuple[float, float]:
        return cell_origin(col, row, self.s, self.ox, self.oy)

    def outline(self, col: int, row: int) -> list[tuple[float, float]]:
        """The corners of the cell at ``(col, row)`` in the image."""
        x, y = self.origin(col, row)
        up = (col + row) % 2 == 0
        return [(x + px, y + py) for px, py in vertices(up, self.s, self.h)]


def render_board(view: dict[str, Any], *, names: list[str], lang: str = "en",
                 highlight: str | None = None) -> bytes:
    """The channel image: map, markers, labels, and the panel under it. PNG bytes."""
    return board_canvas(view, names=names, lang=lang, highlight=highlight).png()


def board_image(view: dict[str, Any], *, names: list[str], lang: str = "en",
                highlight: str | None = None) -> Image.Image:
    return board_canvas(view, names=names, lang=lang, highlight=highlight).image


def map_bounds(view: dict[str, Any]) -> tuple[int, int, int, int]:
    """(first column, last column, first row, last row) of the tiles and free cells."""
    every = [(b["col"], b["row"]) for b in view["board"]]
    every += [parse_cell(c) for c in view["frontier"]]
    return (min(c for c, _ in every), max(c for c, _ in every),
            min(r for _, r in every), max(r for _, r in every))


def tile_side(half_columns: int) -> int:
    """The tile side: ``SIDE``, or smaller (a multiple of 8, so that few sizes are drawn)
    when the map would not fit ``WIDTH``."""
    room = WIDTH - 2 * MARGIN - text_size(WIDTH) - 6
    fit = int(2 * room / half_columns) - 2
    return min(SIDE, fit - fit % 8)


def board_canvas(view: dict[str, Any], *, names: list[str], lang: str = "en",
                 highlight: str | None = None) -> Canvas:
    min_c, max_c, min_r, max_r = map_bounds(view)
    s = tile_side(max_c - min_c + 2)
    h = s * math.sqrt(3) / 2
    map_w = int((max_c - min_c + 2) * s / 2) + 2
    map_h = int((max_r - min_r + 1) * h) + 2
    width = WIDTH
    fs = text_size(width)
    label_w = fs + 6
    top = MARGIN + line_height(fs, True)
    left = MARGIN + label_w + (width - 2 * MARGIN - label_w - map_w) // 2
    panel = Panel(view, names, lang, width, fs)
    height = top + map_h + MARGIN + panel.height()
    canvas = Canvas(width, height, PALETTE, PAPER)
    frame = MapFrame(left - min_c * s / 2, top - min_r * h, s, h)
    draw_coordinates(canvas, frame, (min_c, max_c, min_r, max_r), fs)
    draw_free_cells(canvas, frame, view, fs)
    draw_tiles(canvas, frame, view, min_icon_px(width))
    draw_civ_outlines(canvas, frame, view)
    # highlights under the names and markers, so they stay readable
    draw_highlights(canvas, frame, view, highlight)
    draw_cell_names(canvas, frame, view, fs)
    draw_markers(canvas, civ_markers(frame, view), min_icon_px(width))
    panel.draw(canvas, top + map_h + MARGIN)
    return canvas


def draw_coordinates(canvas: Canvas, frame: MapFrame, bounds: tuple[int, int, int, int],
                     fs: int) -> None:
    """Row letters on the left, column numbers on top."""
    min_c, max_c, min_r, max_r = bounds
    s, h, ox, oy = frame.s, frame.h, frame.ox, frame.oy
    for r in range(min_r, max_r + 1):
        canvas.text((MARGIN, oy + r * h + h / 2), chr(ord("A") + r), fs, INK, PAPER,
                    bold=True, anchor="lm")
    for c in range(min_c, max_c + 1):
        canvas.text((ox + c * s / 2 + s / 2, MARGIN - 2), str(c + 1), fs, INK, PAPER,
                    anchor="ma")


def draw_free_cells(canvas: Canvas, frame: MapFrame, view: dict[str, Any], fs: int) -> None:
    """The free cells next to the board, each with its name."""
    for name in view["frontier"]:
        c, r = parse_cell(name)
        x, y = frame.origin(c, r)
        up = (c + r) % 2 == 0
        canvas.draw.polygon(frame.outline(c, r), fill=canvas.c(FREE), outline=canvas.c(FREE_LINE))
        canvas.text((x + frame.s / 2, y + frame.h * (0.64 if up else 0.36)), name, fs,
                    FREE_TEXT, FREE, anchor="mm")


def draw_tiles(canvas: Canvas, frame: MapFrame, view: dict[str, Any], sym_px: int) -> None:
    for b in view["board"]:
        canvas.paste(tile_pixels(tile_key(b["parts"], "slots"), b["up"], frame.s,
                                 b.get("start", False), sym_px),
                     frame.origin(b["col"], b["row"]))
        for p in b["parts"]:  # the sprites are cached: their symbols are noted here
            for _ in p["symbols"]:
                canvas.icon("symbol", max(sym_px, frame.s // 5))


def draw_civ_outlines(canvas: Canvas, frame: MapFrame, view: dict[str, Any]) -> None:
    """The land of every continent a civilization holds, outlined in its colour."""
    region_civ = {r["id"]: r["civ"] for r in view["regions"] if r.get("civ")}
    for b in view["board"]:
        if not any(p["region"] in region_civ for p in b["parts"]):
            continue
        x, y = frame.origin(b["col"], b["row"])
        shapes = part_shapes(b["up"], frame.s, tuple(tuple(p["slots"]) for p in b["parts"]))
        for p, (poly, _spots) in zip(b["parts"], shapes, strict=True):
            civ = region_civ.get(p["region"])
            if civ:
                pts = [(x + px, y + py) for px, py in poly]
                canvas.draw.line([*pts, pts[0]], fill=canvas.c(CIV_RGB[civ]), width=3)


def civ_markers(frame: MapFrame, view: dict[str, Any]) -> list[tuple[str, tuple[float, float]]]:
    """(civilization, centre) of each marker on the board: on its tile part, between the
    part's centre and its middle symbol spot."""
    by_cell = {b["cell"]: b for b in view["board"]}
    markers = []
    for civ in view["civs"]:
        if civ["part"] is None:
            continue
        cell, idx = civ["part"].split("/")
        b = by_cell[cell]
        x, y = frame.origin(b["col"], b["row"])
        shapes = part_shapes(b["up"], frame.s, tuple(tuple(p["slots"]) for p in b["parts"]))
        poly, spots = shapes[int(idx)]
        gx = sum(px for px, _ in poly) / len(poly)
        gy = sum(py for _, py in poly) / len(poly)
        markers.append((civ["civ"], (x + (gx + spots[1][0]) / 2, y + (gy + spots[1][1]) / 2)))
    return markers


def draw_highlights(canvas: Canvas, frame: MapFrame, view: dict[str, Any],
                    highlight: str | None) -> None:
    """The last tile put down, and the cell a preview asks about."""
    last = (view.get("last") or {}).get("cell")
    for cell, colour, wid in ((last, LAST, 3), (highlight, HIGHLIGHT, 5)):
        if not cell:
            continue
        pts = frame.outline(*parse_cell(cell))
        canvas.draw.line([*pts, pts[0]], fill=canvas.c(colour), width=wid, joint="curve")


def draw_cell_names(canvas: Canvas, frame: MapFrame, view: dict[str, Any], fs: int) -> None:
    """A continent's label tile carries its name in gold (the name moves use); other tiles
    carry none: at phone size a name plate covered most of a tile's symbols, and the row
    letters and column numbers name every cell."""
    labels = {r["label"] for r in view["regions"] if r["kind"] == "continent"}
    for b in view["board"]:
        x, y = frame.origin(b["col"], b["row"])
        spot = (x + frame.s / 2, y + frame.h * (0.30 if b["up"] else 0.70))
        if b["cell"] in labels:
            canvas.text(spot, b["cell"], fs, LABEL_GOLD, LABEL_PLATE, bold=True, anchor="mm",
                        plate=True, pad=2)


def draw_markers(canvas: Canvas, markers: list[tuple[str, tuple[float, float]]],
                 icon_px: int) -> None:
    """Civilization markers: discs in the civilization's colour on a white ring."""
    r = max(icon_px // 2 + 1, SIDE // 8)
    d = canvas.draw
    for colour, (mx, my) in markers:
        canvas.icon("civilization", 2 * r)
        d.ellipse((mx - r - 2, my - r - 2, mx + r + 2, my + r + 2), fill=canvas.c(WHITE))
        d.ellipse((mx - r, my - r, mx + r, my + r), fill=canvas.c(CIV_RGB[colour]),
                  outline=canvas.c(INK), width=2)
