"""Kingdomino board image: every kingdom, the two lines of dominoes, whose turn it is.

A pure function of the spectator view (``engines.kingdomino`` ``view(state, None)``): the
renderer never sees the state, so it cannot show the face-down stack. Layout, made for a
phone (``render.common.PHONE_WIDTH``: every text >= 11 px and every crown and marker >= 14 px
once the image is shown 390 px wide, so the image is about that wide): a header (round,
Dynasty game, who acts and what), the kingdoms one under another, each on its full working
grid with column letters and row numbers (cells the kingdom can no longer reach are shaded),
then the line being placed and the next line as rows of dominoes, and a terrain legend.
The width depends only on the kingdom size, so it never changes during a game.
Owners are shown by the seat's colour *and* shape (castle, kings); terrains by colour *and*
a pattern (``TERRAIN_PATTERNS``: colour never alone). Variant bonuses (Middle Kingdom,
Harmony) are counted in the score but marked provisional until the game is over. Static
pieces (terrain squares, crowns, grids with their labels) are drawn once and cached.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    INK,
    PAPER,
    SEAT_COLOURS,
    column_label,
    dotted_lines,
    draw_pattern,
    draw_seat_marker,
    draw_text,
    fit_text,
    fixed_palette,
    font,
    layer_cache,
    legible,
    min_icon_px,
    min_label_px,
    note_icon,
    text_on,
    text_width,
    to_png,
)
from text.catalog import t

TERRAIN_COLOURS = {
    "wheat": (232, 194, 62),
    "forest": (40, 110, 50),
    "lake": (58, 138, 212),
    "grassland": (146, 204, 92),
    "swamp": (128, 112, 80),
    "mine": (78, 70, 70),
}
#: the second, colour-free cue of each terrain (wheat and grassland, forest and swamp are
#: close under protanopia): stalks, trees, waves, tufts, reeds, hatching
TERRAIN_PATTERNS = {
    "wheat": "stalks",
    "forest": "trees",
    "lake": "waves",
    "grassland": "tufts",
    "swamp": "reeds",
    "mine": "hatch",
}
EMPTY_COLOUR = (238, 232, 218)
OUT_COLOUR = (214, 208, 197)
GRID_LINE = (190, 182, 168)
HIGHLIGHT = (255, 64, 160)
ACTING = (255, 214, 90)
GOLD = (255, 214, 10)
FADED = (200, 195, 185)
STONE = (226, 222, 214)
HEADER_BG = (60, 46, 36)
SOFT = (92, 86, 78)  # secondary text: 5.9:1 on PAPER

HEADER_TEXT = (255, 248, 230)


def _faded(colour: tuple[int, int, int], towards: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = ((c + 2 * f) // 3 for c, f in zip(colour, towards, strict=True))
    return (r, g, b)


def _shade(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """A terrain's pattern colour: its own colour, darker (lighter on dark terrains)."""
    target = 255 if sum(colour) < 300 else 0
    k = 0.45 if target else 0.35
    r, g, b = (round(c + (target - c) * k) for c in colour)
    return (r, g, b)


PATTERN_COLOURS = {terrain: _shade(colour) for terrain, colour in TERRAIN_COLOURS.items()}


#: every flat colour of the board, kept exact by the PNG palette (edges map to the nearest)
PALETTE = fixed_palette((
    *TERRAIN_COLOURS.values(), *(_faded(c, FADED) for c in TERRAIN_COLOURS.values()),
    *PATTERN_COLOURS.values(), *SEAT_COLOURS,
    EMPTY_COLOUR, OUT_COLOUR, GRID_LINE, HIGHLIGHT, ACTING, GOLD, FADED, STONE, HEADER_BG,
    SOFT, HEADER_TEXT, INK, PAPER, (255, 255, 255), (60, 40, 0), (0, 0, 0),
))

MARGIN = 10
NAME_BAR = 30  # name and points
DETAILS = 20  # a second line when needed: bonus (provisional), discards, Dynasty total
LINE_SQUARE = 40  # a square of a domino in the lines: room for three phone-sized crowns
SLOT_W = 150  # number, domino, king
LINE_ROW = LINE_SQUARE + 12


def _cell_px(size: int) -> int:
    # 9 x 9: three crowns of a phone-readable size fit a square; 13 x 13 (Mighty Duel): one
    # crown and the count beside it
    return 40 if size <= 9 else 28


def _label_w(size: int) -> int:
    return 22 if size <= 9 else 26


def _image_width(size: int) -> int:
    """One kingdom wide (kingdoms stand one under another): about a phone's width."""
    return 2 * MARGIN + _label_w(size) + size * _cell_px(size) + 1


# --- cached pieces ---------------------------------------------------------------------------
@lru_cache(maxsize=16)
def _crown(h: int, fill: tuple[int, int, int] = GOLD) -> Image.Image:
    """A crown icon ``h`` tall (and a little wider)."""
    scale = 4  # draw large, shrink: smooth edges without antialiasing support in ImageDraw
    w = round(h * 1.15)
    img = Image.new("RGBA", (w * scale, h * scale), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    pts = [(0.05, 0.95), (0.05, 0.2), (0.3, 0.52), (0.5, 0.05), (0.7, 0.52),
           (0.95, 0.2), (0.95, 0.95)]
    d.polygon([(x * w * scale, y * h * scale) for x, y in pts], fill=fill, outline=(60, 40, 0),
              width=scale * 2)
    return img.resize((w, h), Image.Resampling.LANCZOS)


def _crown_rows(crowns: int, px: int, crown: Image.Image) -> list[int] | None:
    """Crowns per row that fit a square ``px`` wide, or None (then one crown and the count)."""
    rows = [crowns] if crowns < 3 else [2, crowns - 2]
    fits_w = max(rows) * crown.width + (max(rows) - 1) * 2 <= px - 4
    fits_h = len(rows) * crown.height + (len(rows) - 1) * 2 <= px - 4
    return rows if fits_w and fits_h else None


@layer_cache(maxsize=256)
def terrain_square(terrain: str, crowns: int, px: int, crown_h: int, faded: bool = False
            ) -> Image.Image:
    """One terrain square: colour, pattern and its crowns (``crown_h`` tall)."""
    colour = TERRAIN_COLOURS[terrain]
    ink = PATTERN_COLOURS[terrain]
    if faded:  # the pattern in the terrain's full colour: a colour the palette keeps exact
        colour, ink = _faded(colour, FADED), colour
    img = Image.new("RGBA", (px, px), colour + (255,))
    d = ImageDraw.Draw(img)
    draw_pattern(d, TERRAIN_PATTERNS[terrain], px, ink)
    d.rectangle([0, 0, px - 1, px - 1], outline=(0, 0, 0, 90))
    if crowns:
        icon = _crown(crown_h)
        rows = _crown_rows(crowns, px, icon)
        if rows is None:  # one crown and the count beside it, on a clear plate
            digits = font(max(12, crown_h - 3), True)
            tw = int(text_width(str(crowns), digits))
            x = (px - icon.width - 1 - tw) // 2
            tx = x + icon.width + 1
            h = digits.size
            d.rectangle([tx - 1, (px - h) // 2, tx + tw, (px + h) // 2], fill=colour)
            img.alpha_composite(icon, (x, (px - icon.height) // 2))
            draw_text(img, (tx, px // 2), str(crowns), font=digits,
                      fill=text_on(colour), anchor="lm", draw=d)
            return img.convert("RGB")
        y = (px - len(rows) * icon.height - (len(rows) - 1) * 2) // 2
        for count in rows:
            x = (px - count * icon.width - (count - 1) * 2) // 2
            for _ in range(count):
                img.alpha_composite(icon, (x, y))
                x += icon.width + 2
            y += icon.height + 2
    return img.convert("RGB")  # opaque: pasted without alpha blending, which is much faster


def _paste_square(img: Image.Image, xy: tuple[int, int], terrain: str, crowns: int, px: int,
                  crown_h: int, faded: bool = False) -> None:
    img.paste(terrain_square(terrain, crowns, px, crown_h, faded), xy)
    if crowns:
        note_icon("crown", crown_h)


@lru_cache(maxsize=16)
def castle_square(px: int, seat: int) -> Image.Image:
    """The castle square: the seat's marker (colour and shape) on stone."""
    img = Image.new("RGB", (px, px), STONE)
    draw_seat_marker(img, seat, (px // 2, px // 2), px - 4)
    ImageDraw.Draw(img).rectangle([0, 0, px - 1, px - 1], outline=INK)
    return img


# --- helpers ----------------------------------------------------------------------------------
def _parse(cell: str) -> tuple[int, int]:
    """``"C3"`` -> (row 2, col 2)."""
    return int(cell[1:]) - 1, ord(cell[0]) - ord("A")


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"#{seat + 1}"


def _header_parts(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    parts = [t(lang, "kingdomino.name")]
    if view["games"] > 1:
        parts.append(t(lang, "kingdomino.render.game", game_no=view["game_no"],
                       games=view["games"]))
    if view["phase"] == "over":
        parts.append(t(lang, "kingdomino.render.over"))
        ranking = view.get("ranking") or []
        if ranking:
            winners = ", ".join(_name(names, s) for s in ranking[0])
            key = "kingdomino.render.winners" if len(ranking[0]) > 1 else "kingdomino.render.winner"
            parts.append(t(lang, key, names=winners))
        return parts
    if view["round"] == 0:
        parts.append(t(lang, "kingdomino.render.opening"))
    else:
        rnd = t(lang, "kingdomino.render.round", round=view["round"], rounds=view["rounds"])
        if view["last_round"]:
            rnd += f" ({t(lang, 'kingdomino.render.last_round')})"
        parts.append(rnd)
    acting = view.get("acting")
    if acting:
        player = _name(names, acting["seat"])
        if acting["step"] == "pick":
            parts.append(t(lang, "kingdomino.render.turn_pick", player=player))
        else:
            parts.append(t(lang, "kingdomino.render.turn_place", player=player, n=acting["n"]))
    return parts


# --- kingdoms ---------------------------------------------------------------------------------
def _kingdom_panel_size(size: int, bar: int) -> tuple[int, int]:
    side = _label_w(size) + size * _cell_px(size) + 1
    return side, bar + side


@layer_cache(maxsize=256)
def _grid_base(size: int, usable: tuple[int, int, int, int], label_px: int) -> Image.Image:
    """Coordinate labels and the grid, cells out of the kingdom's reach shaded (cached)."""
    px = _cell_px(size)
    lw = _label_w(size)
    r0, c0, r1, c1 = usable
    side = lw + size * px + 1
    img = Image.new("RGB", (side, side), PAPER)
    d = ImageDraw.Draw(img)
    gx = gy = lw
    labels = font(label_px, True)
    for i in range(size):
        # out-of-reach coordinates stay legible (a move never names them, but a reader may)
        draw_text(img, (gx + i * px + px // 2, gy - 2), column_label(i), font=labels,
                  anchor="ms", fill=INK if c0 <= i <= c1 else SOFT, key=True, draw=d)
        draw_text(img, (gx - 3, gy + i * px + px // 2), str(i + 1), font=labels, anchor="rm",
                  fill=INK if r0 <= i <= r1 else SOFT, key=True, draw=d)
    d.rectangle([gx, gy, gx + size * px, gy + size * px], fill=OUT_COLOUR)
    d.rectangle([gx + c0 * px, gy + r0 * px, gx + (c1 + 1) * px, gy + (r1 + 1) * px],
                fill=EMPTY_COLOUR)
    for i in range(size + 1):
        d.line([gx + i * px, gy, gx + i * px, gy + size * px], fill=GRID_LINE)
        d.line([gx, gy + i * px, gx + size * px, gy + i * px], fill=GRID_LINE)
    return img


def _score_details(kingdom: dict[str, Any], view: dict[str, Any], lang: str) -> list[str]:
    details = []
    bonus = kingdom.get("bonus", 0)
    if bonus:
        key = "kingdomino.render.bonus_final" if view["phase"] == "over" \
            else "kingdomino.render.bonus_provisional"
        details.append(t(lang, key, points=bonus))
    if kingdom["discarded"]:
        details.append(t(lang, "kingdomino.render.discarded", count=len(kingdom["discarded"])))
    if view["games"] > 1:
        details.append(t(lang, "kingdomino.render.total", points=view["scores"][kingdom["seat"]]))
    return details


def _draw_kingdom(
    img: Image.Image, d: ImageDraw.ImageDraw, x0: int, y0: int, kingdom: dict[str, Any],
    view: dict[str, Any], names: list[str], lang: str, marks: list[str], text_px: int,
    bar: int,
) -> None:
    size = view["size"]
    px = _cell_px(size)
    lw = _label_w(size)
    seat = kingdom["seat"]
    acting = view.get("acting") or {}
    is_acting = acting.get("seat") == seat and view["phase"] != "over"

    # name bar: seat marker, name, points; below: bonus (provisional), discards, Dynasty total
    bar_w = lw + size * px
    bar_bg = ACTING if is_acting else PAPER
    if is_acting:
        d.rounded_rectangle([x0 - 4, y0 - 2, x0 + bar_w + 4, y0 + bar - 4], 6, fill=ACTING)
    draw_seat_marker(img, seat, (x0 + 11, y0 + 12), 22)
    bold = font(text_px + 2, True)
    points = t(lang, "kingdomino.render.points", points=kingdom["score"])
    points_w = int(text_width(points, bold))
    draw_text(img, (x0 + bar_w, y0 + 12), points, font=bold, fill=INK, anchor="rm", draw=d)
    draw_text(img, (x0 + 26, y0 + 12),
              fit_text(_name(names, seat), bold, bar_w - 26 - points_w - 8),
              font=bold, fill=INK, anchor="lm", draw=d)
    small = font(text_px)
    for k, line in enumerate(dotted_lines(_score_details(kingdom, view, lang), small,
                                       bar_w - 26)):
        draw_text(img, (x0 + 26, y0 + NAME_BAR + 2 + k * DETAILS), fit_text(line, small, bar_w - 26),
                  font=small, fill=legible(SOFT, bar_bg), anchor="lm", draw=d)

    gx, gy = x0 + lw, y0 + bar + lw
    (r0, c0), (r1, c1) = _parse(kingdom["window"][0]), _parse(kingdom["window"][1])
    img.paste(_grid_base(size, (r0, c0, r1, c1), text_px), (x0, gy - lw))
    r, c = _parse(kingdom["castle"])
    img.paste(castle_square(px, seat), (gx + c * px, gy + r * px))
    note_icon("seat", px - 4)
    crown_h = min_icon_px(img.width)
    for cell, (terrain, crowns) in kingdom["cells"].items():
        r, c = _parse(cell)
        _paste_square(img, (gx + c * px, gy + r * px), terrain, crowns, px, crown_h)
    last = view.get("last_placed")
    if last and last["seat"] == seat:
        _outline(d, gx, gy, px, last["cells"], (255, 255, 255), 3)
    if marks:
        _outline(d, gx, gy, px, marks, HIGHLIGHT, 3)


def _outline(d: ImageDraw.ImageDraw, gx: int, gy: int, px: int, cells: list[str],
             colour: tuple[int, int, int], width: int) -> None:
    rows_cols = [_parse(cell) for cell in cells]
    top = min(r for r, _ in rows_cols)
    bottom = max(r for r, _ in rows_cols)
    left = min(c for _, c in rows_cols)
    right = max(c for _, c in rows_cols)
    d.rectangle([gx + left * px + 1, gy + top * px + 1, gx + (right + 1) * px - 1,
                 gy + (bottom + 1) * px - 1], outline=colour, width=width)


# --- the lines of dominoes ------------------------------------------------------------------
def _draw_line(img: Image.Image, d: ImageDraw.ImageDraw, x0: int, y0: int, title: str,
               slots: list[dict], acting: dict | None, *, current: bool, text_px: int,
               per_row: int) -> int:
    """Draw one line of dominoes as rows of slots; returns the y below it."""
    draw_text(img, (x0, y0), title, font=font(text_px + 1, True), fill=INK, draw=d)
    top = y0 + text_px + 10
    number_font = font(max(text_px + 2, 17), True)
    for index, slot in enumerate(slots):
        x = x0 + (index % per_row) * SLOT_W
        y = top + (index // per_row) * LINE_ROW
        done = bool(slot.get("done"))
        is_acting = current and acting is not None and acting.get("index") == index
        if is_acting:
            d.rounded_rectangle([x - 4, y - 5, x + SLOT_W - 8, y + LINE_SQUARE + 5], 8,
                                fill=ACTING)
        draw_text(img, (x + 30, y + LINE_SQUARE // 2), str(slot["n"]), font=number_font,
                  anchor="rm", fill=INK, key=True, draw=d)
        faded = done and not is_acting
        sx = x + 34
        crown_h = min_icon_px(img.width)
        _paste_square(img, (sx, y), slot["a"][0], slot["a"][1], LINE_SQUARE, crown_h, faded)
        _paste_square(img, (sx + LINE_SQUARE, y), slot["b"][0], slot["b"][1], LINE_SQUARE,
                      crown_h, faded)
        d.rectangle([sx, y, sx + 2 * LINE_SQUARE - 1, y + LINE_SQUARE - 1], outline=INK,
                    width=2)
        if slot["king"] is not None:
            draw_seat_marker(img, slot["king"], (sx + 2 * LINE_SQUARE + 18, y + LINE_SQUARE // 2),
                             28, faded)
    rows = -(-len(slots) // per_row) if slots else 0
    return top + rows * LINE_ROW


def _draw_legend(img: Image.Image | None, d: ImageDraw.ImageDraw, x0: int, y0: int, width: int,
                 lang: str, text_px: int) -> int:
    """Terrain swatches with their names, wrapped to ``width``; returns the y below.
    With ``img`` None only measures."""
    f = font(text_px)
    x, y = x0, y0
    icon_px = min_icon_px(width + 2 * MARGIN) + 6  # swatches large enough to show the pattern
    row_h = max(icon_px + 6, text_px + 8)
    entries: list[tuple[Image.Image, str]] = [
        (terrain_square(terrain, 0, icon_px, icon_px), t(lang, f"kingdomino.term.{terrain}"))
        for terrain in TERRAIN_COLOURS
    ]
    entries.append((_crown(min_icon_px(width + 2 * MARGIN)), "= 1"))
    for icon, text in entries:
        w = icon_px + 6 + int(text_width(text, f)) + 14
        if x > x0 and x + w > x0 + width:
            x, y = x0, y + row_h
        if img is not None:
            img.paste(icon, (x, y + (row_h - icon.height) // 2 - 2),
                      icon if icon.mode == "RGBA" else None)
            note_icon("legend", min(icon.size))
            draw_text(img, (x + icon_px + 6, y + row_h // 2 - 2), text, font=f, anchor="lm",
                      fill=INK, draw=d)
        x += w
    return y + row_h


# --- the board ----------------------------------------------------------------------------------
def render_board(
    view: dict[str, Any], *, names: list[str], lang: str = "en",
    highlight: dict[int, list[str]] | None = None,
) -> bytes:
    """PNG of the whole table from the spectator ``view``.

    ``highlight`` maps a seat to cells to outline in its kingdom (e.g. a placement preview).
    """
    size = view["size"]
    width = _image_width(size)
    pw0 = _label_w(size) + size * _cell_px(size)
    inner_w = width - 2 * MARGIN
    text_px = min_label_px(width)  # every text phone-readable, not only the coordinates
    # the image keeps one size for the whole game (the chat does not jump between boards):
    # room for a details line per thing that may come: discards, bonuses, Dynasty total
    reserved = 1 + (view["games"] > 1) + bool({"middle_kingdom", "harmony"} & set(view["variants"]))
    bar = NAME_BAR + DETAILS * max(reserved, *(
        len(dotted_lines(_score_details(k, view, lang), font(text_px), pw0 - 26))
        for k in view["kingdoms"]))
    _pw, ph = _kingdom_panel_size(size, bar)
    rows = len(view["kingdoms"])

    d_probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    header_font = font(text_px + 2, True)
    header_lines = dotted_lines(_header_parts(view, names, lang), header_font, inner_w)
    # three lines fit every header of a phone-wide board: the height stays steady too
    header_h = 12 + max(3, len(header_lines)) * (text_px + 8)
    per_row = max(1, inner_w // SLOT_W)
    lines = []
    if view["current_line"]:
        lines.append((t(lang, "kingdomino.render.current_line"), view["current_line"], True))
    if view["next_line"]:
        title = "kingdomino.render.first_line" if view["round"] == 0 \
            else "kingdomino.render.next_line"
        lines.append((t(lang, title), view["next_line"], False))
    # both lines always have their room: the first round has no current line, the last none
    # to come
    per_line = view["players"] * view["kings_per_player"]
    line_h = 2 * (text_px + 10 + -(-per_line // per_row) * LINE_ROW + 8)
    legend_h = _draw_legend(None, d_probe, 0, 0, inner_w, lang, text_px)
    below = line_h
    height = (header_h + 10 + rows * (ph + 10) + below + (text_px + 12) + legend_h + MARGIN)
    img = Image.new("RGB", (width, height), PAPER)
    d = ImageDraw.Draw(img)

    d.rectangle([0, 0, width, header_h], fill=HEADER_BG)
    spare = (header_h - 12 - len(header_lines) * (text_px + 8)) // 2
    for k, line in enumerate(header_lines):  # centred in the reserved room
        draw_text(img, (MARGIN, 8 + spare + k * (text_px + 8)), line, font=header_font,
                  fill=HEADER_TEXT, draw=d)

    marks = highlight or {}
    top = header_h + 10
    for row, kingdom in enumerate(view["kingdoms"]):
        seat = kingdom["seat"]
        _draw_kingdom(img, d, MARGIN, top + row * (ph + 10), kingdom, view, names, lang,
                      marks.get(seat, []), text_px, bar)

    y = top + rows * (ph + 10)
    lines_x, lines_y = MARGIN, y
    acting = view.get("acting")
    for title, slots, current in lines:
        # each line keeps its place: the line being placed on top, the next one below (before
        # round 1 the first line stands on top, where it will be placed from)
        slot_y = lines_y if current or view["round"] == 0 else lines_y + line_h // 2
        _draw_line(img, d, lines_x, slot_y, title, slots, acting, current=current,
                   text_px=text_px, per_row=per_row)
    y += below
    draw_text(img, (MARGIN, y), t(lang, "kingdomino.render.deck", k=view["deck_left"]),
              font=font(text_px), fill=INK, draw=d)
    _draw_legend(img, d, MARGIN, y + text_px + 12, inner_w, lang, text_px)
    return to_png(img, compress_level=3, palette=PALETTE)
