"""Kingdomino board image: every kingdom, the two lines of dominoes, whose turn it is.

A pure function of the spectator view (``engines.kingdomino`` ``view(state, None)``): the
renderer never sees the state, so it cannot show the face-down stack. Layout: a header (round,
Dynasty game, who acts and what), the kingdoms (1x2 for 2 players, 2x2 for 3-4) each on its
full working grid with column letters and row numbers (cells the kingdom can no longer reach
are shaded), and on the right the line being placed, the next line and a terrain legend.
Static pieces (terrain squares, crowns, castles) are drawn once and cached.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, PAPER, SEAT_COLOURS, column_label, font, to_png
from session.i18n import t

TERRAIN_COLOURS = {
    "wheat": (232, 194, 62),
    "forest": (40, 110, 50),
    "lake": (58, 138, 212),
    "grassland": (146, 204, 92),
    "swamp": (128, 112, 80),
    "mine": (78, 70, 70),
}
EMPTY_COLOUR = (238, 232, 218)
OUT_COLOUR = (205, 199, 188)
GRID_LINE = (190, 182, 168)
HIGHLIGHT = (255, 64, 160)
ACTING = (255, 200, 0)
GOLD = (255, 214, 10)
FADED = (200, 195, 185)

MARGIN = 16
LABEL = 18  # room for coordinate labels
NAME_BAR = 30
LINE_SQUARE = 40  # a square of a domino in the lines column
HEADER = 46


def _cell_px(size: int) -> int:
    return 36 if size <= 9 else 30


# --- cached pieces ---------------------------------------------------------------------------
@lru_cache(maxsize=16)
def _crown(px: int, fill: tuple[int, int, int] = GOLD) -> Image.Image:
    """A small crown icon, ``px`` wide."""
    scale = 4  # draw large, shrink: smooth edges without antialiasing support in ImageDraw
    w, h = px * scale, int(px * 0.8) * scale
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    pts = [(0.05, 0.95), (0.05, 0.25), (0.3, 0.55), (0.5, 0.1), (0.7, 0.55),
           (0.95, 0.25), (0.95, 0.95)]
    d.polygon([(x * w, y * h) for x, y in pts], fill=fill, outline=(60, 40, 0), width=scale * 2)
    return img.resize((px, int(px * 0.8)), Image.Resampling.LANCZOS)


@lru_cache(maxsize=128)
def _square(terrain: str, crowns: int, px: int, faded: bool = False) -> Image.Image:
    """One terrain square with its crowns."""
    colour: tuple[int, ...] = TERRAIN_COLOURS[terrain]
    if faded:
        colour = tuple((c + 2 * f) // 3 for c, f in zip(colour, FADED, strict=True))
    img = Image.new("RGBA", (px, px), colour + (255,))
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, px - 1, px - 1], outline=(0, 0, 0, 90))
    if crowns:
        icon = _crown(int(px * 0.42))
        rows = [crowns] if crowns < 3 else [2, crowns - 2]
        y = (px - len(rows) * icon.height - (len(rows) - 1) * 2) // 2
        for count in rows:
            x = (px - count * icon.width - (count - 1) * 2) // 2
            for _ in range(count):
                img.alpha_composite(icon, (x, y))
                x += icon.width + 2
            y += icon.height + 2
    return img.convert("RGB")  # opaque: pasted without alpha blending, which is much faster


@lru_cache(maxsize=16)
def _castle(px: int, colour: tuple[int, int, int]) -> Image.Image:
    img = Image.new("RGBA", (px, px), colour + (255,))
    d = ImageDraw.Draw(img)
    u = px / 10
    body = [(2, 9), (2, 3.5), (3, 3.5), (3, 2.2), (4, 2.2), (4, 3.5), (6, 3.5), (6, 2.2),
            (7, 2.2), (7, 3.5), (8, 3.5), (8, 9)]
    d.polygon([(x * u, y * u) for x, y in body], fill=(255, 255, 255))
    d.rectangle([4.3 * u, 6 * u, 5.7 * u, 9 * u], fill=colour)
    d.rectangle([0, 0, px - 1, px - 1], outline=(0, 0, 0))
    return img.convert("RGB")


@lru_cache(maxsize=32)
def _king(radius: int, colour: tuple[int, int, int], faded: bool) -> Image.Image:
    """A king (znacznik króla): a disc in the seat's colour with a crown; pale once moved on."""
    scale = 4
    r = radius * scale
    img = Image.new("RGBA", (2 * r, 2 * r), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    fill = tuple((c + f) // 2 for c, f in zip(colour, FADED, strict=True)) if faded else colour
    d.ellipse([0, 0, 2 * r - 1, 2 * r - 1], fill=fill, outline=(255, 255, 255), width=2 * scale)
    img = img.resize((2 * radius, 2 * radius), Image.Resampling.LANCZOS)
    if not faded:
        icon = _crown(int(radius * 1.2), (255, 255, 255))
        img.alpha_composite(icon, (radius - icon.width // 2, radius - icon.height // 2))
    return img


# --- helpers ----------------------------------------------------------------------------------
def _parse(cell: str) -> tuple[int, int]:
    """``"C3"`` -> (row 2, col 2)."""
    return int(cell[1:]) - 1, ord(cell[0]) - ord("A")


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"#{seat + 1}"


def _colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _header_text(view: dict[str, Any], names: list[str], lang: str) -> str:
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
        return "  ·  ".join(parts)
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
    return "  ·  ".join(parts)


# --- kingdoms ---------------------------------------------------------------------------------
def _kingdom_panel_size(size: int) -> tuple[int, int]:
    px = _cell_px(size)
    return LABEL + size * px + 4, NAME_BAR + LABEL + size * px + 4


@lru_cache(maxsize=256)
def _grid_base(size: int, usable: tuple[int, int, int, int]) -> Image.Image:
    """Coordinate labels and the grid, cells out of the kingdom's reach shaded (cached)."""
    px = _cell_px(size)
    r0, c0, r1, c1 = usable
    side = LABEL + size * px + 1
    img = Image.new("RGB", (side, side), PAPER)
    d = ImageDraw.Draw(img)
    gx = gy = LABEL
    small = font(12)
    for i in range(size):
        d.text((gx + i * px + px // 2, gy - 4), column_label(i), font=small, anchor="ms",
               fill=INK if c0 <= i <= c1 else GRID_LINE)
        d.text((gx - 4, gy + i * px + px // 2), str(i + 1), font=small, anchor="rm",
               fill=INK if r0 <= i <= r1 else GRID_LINE)
    d.rectangle([gx, gy, gx + size * px, gy + size * px], fill=OUT_COLOUR)
    d.rectangle([gx + c0 * px, gy + r0 * px, gx + (c1 + 1) * px, gy + (r1 + 1) * px],
                fill=EMPTY_COLOUR)
    for i in range(size + 1):
        d.line([gx + i * px, gy, gx + i * px, gy + size * px], fill=GRID_LINE)
        d.line([gx, gy + i * px, gx + size * px, gy + i * px], fill=GRID_LINE)
    return img


def _draw_kingdom(
    img: Image.Image, x0: int, y0: int, kingdom: dict[str, Any], view: dict[str, Any],
    names: list[str], lang: str, marks: list[str],
) -> None:
    size = view["size"]
    px = _cell_px(size)
    seat = kingdom["seat"]
    colour = _colour(seat)
    d = ImageDraw.Draw(img)
    acting = view.get("acting") or {}
    is_acting = acting.get("seat") == seat and view["phase"] != "over"

    # name bar: colour chip, name, points (and discards)
    bar_w = LABEL + size * px
    if is_acting:
        d.rounded_rectangle([x0 - 4, y0 - 2, x0 + bar_w + 4, y0 + NAME_BAR - 4], 6, fill=ACTING)
    d.rounded_rectangle([x0, y0 + 3, x0 + 20, y0 + 23], 4, fill=colour)
    d.text((x0 + 28, y0 + 2), _name(names, seat), font=font(18, True), fill=INK)
    points = t(lang, "kingdomino.render.points", points=kingdom["score"])
    if view["games"] > 1:
        points += "  " + t(lang, "kingdomino.render.total", points=view["scores"][seat])
    if kingdom["discarded"]:
        points = t(lang, "kingdomino.render.discarded", count=len(kingdom["discarded"])) \
            + "   " + points
    f = font(16, True)
    d.text((x0 + bar_w - d.textlength(points, font=f), y0 + 4), points, font=f, fill=INK)

    gx, gy = x0 + LABEL, y0 + NAME_BAR + LABEL
    (r0, c0), (r1, c1) = _parse(kingdom["window"][0]), _parse(kingdom["window"][1])
    img.paste(_grid_base(size, (r0, c0, r1, c1)), (x0, gy - LABEL))
    r, c = _parse(kingdom["castle"])
    img.paste(_castle(px, colour), (gx + c * px, gy + r * px))
    for cell, (terrain, crowns) in kingdom["cells"].items():
        r, c = _parse(cell)
        img.paste(_square(terrain, crowns, px), (gx + c * px, gy + r * px))
    last = view.get("last_placed")
    if last and last["seat"] == seat:
        _outline(d, gx, gy, px, last["cells"], (255, 255, 255), 3)
    if marks:
        _outline(d, gx, gy, px, marks, HIGHLIGHT, 3)


def _outline(d: ImageDraw.ImageDraw, gx: int, gy: int, px: int, cells: list[str],
             colour, width: int) -> None:
    rows_cols = [_parse(cell) for cell in cells]
    top = min(r for r, _ in rows_cols)
    bottom = max(r for r, _ in rows_cols)
    left = min(c for _, c in rows_cols)
    right = max(c for _, c in rows_cols)
    d.rectangle([gx + left * px + 1, gy + top * px + 1, gx + (right + 1) * px - 1,
                 gy + (bottom + 1) * px - 1], outline=colour, width=width)


# --- the lines of dominoes ------------------------------------------------------------------
LINES_WIDTH = 3 * LINE_SQUARE + 112


def _draw_line(img: Image.Image, x0: int, y0: int, title: str, slots: list[dict],
               acting: dict | None, *, current: bool) -> int:
    """Draw one line (column) of dominoes; returns the y below it."""
    d = ImageDraw.Draw(img)
    d.text((x0, y0), title, font=font(16, True), fill=INK)
    y = y0 + 26
    for index, slot in enumerate(slots):
        done = bool(slot.get("done"))
        is_acting = (current and acting is not None and acting.get("index") == index)
        if is_acting:
            d.rounded_rectangle([x0 - 5, y - 5, x0 + LINES_WIDTH - 20, y + LINE_SQUARE + 5], 8,
                                fill=ACTING)
        d.text((x0 + 26, y + LINE_SQUARE // 2), str(slot["n"]), font=font(16, True),
               anchor="rm", fill=INK)
        faded = done and not is_acting
        sx = x0 + 34
        img.paste(_square(slot["a"][0], slot["a"][1], LINE_SQUARE, faded), (sx, y))
        img.paste(_square(slot["b"][0], slot["b"][1], LINE_SQUARE, faded),
                            (sx + LINE_SQUARE, y))
        d.rectangle([sx, y, sx + 2 * LINE_SQUARE - 1, y + LINE_SQUARE - 1], outline=INK,
                    width=2)
        if slot["king"] is not None:
            king = _king(16, _colour(slot["king"]), faded)
            img.paste(king, (sx + 2 * LINE_SQUARE + 10, y + LINE_SQUARE // 2 - 16), king)
        y += LINE_SQUARE + 12
    return y


def _draw_legend(img: Image.Image, x0: int, y0: int, lang: str) -> int:
    d = ImageDraw.Draw(img)
    f = font(13)
    y = y0
    for terrain in TERRAIN_COLOURS:
        img.paste(_square(terrain, 0, 18), (x0, y))
        d.text((x0 + 26, y + 9), t(lang, f"kingdomino.term.{terrain}"), font=f, anchor="lm",
               fill=INK)
        y += 22
    crown = _crown(18)
    img.paste(crown, (x0, y + 2), crown)
    d.text((x0 + 26, y + 9), "= 1", font=f, anchor="lm", fill=INK)
    return y + 22


# --- the board ----------------------------------------------------------------------------------
def render_board(
    view: dict[str, Any], *, names: list[str], lang: str = "en",
    highlight: dict[int, list[str]] | None = None,
) -> bytes:
    """PNG of the whole table from the spectator ``view``.

    ``highlight`` maps a seat to cells to outline in its kingdom (e.g. a placement preview).
    """
    players = view["players"]
    size = view["size"]
    pw, ph = _kingdom_panel_size(size)
    cols = 2
    rows = 1 if players == 2 else 2
    per_line = players * view["kings_per_player"]
    line_h = 26 + per_line * (LINE_SQUARE + 12)
    legend_h = 7 * 22 + 8
    # 2 players: the two lines stand side by side, so the image stays one kingdom tall
    side_by_side = rows == 1
    side_w = LINES_WIDTH * (2 if side_by_side else 1)
    side_h = HEADER + line_h * (1 if side_by_side else 2) + 16 + 28 + legend_h
    width = MARGIN + cols * (pw + MARGIN) + side_w + MARGIN
    height = max(HEADER + rows * (ph + MARGIN), side_h + MARGIN)
    img = Image.new("RGB", (width, height), PAPER)
    d = ImageDraw.Draw(img)

    d.rectangle([0, 0, width, HEADER - 8], fill=(60, 46, 36))
    header = _header_text(view, names, lang)
    size_pt = 20
    while size_pt > 12 and d.textlength(header, font=font(size_pt, True)) > width - 2 * MARGIN:
        size_pt -= 2  # long names or languages: shrink rather than cut the header
    d.text((MARGIN, (HEADER - 8) // 2), header, font=font(size_pt, True), anchor="lm",
           fill=(255, 248, 230))

    marks = highlight or {}
    for kingdom in view["kingdoms"]:
        seat = kingdom["seat"]
        x = MARGIN + (seat % cols) * (pw + MARGIN)
        y = HEADER + (seat // cols) * (ph + MARGIN)
        _draw_kingdom(img, x, y, kingdom, view, names, lang, marks.get(seat, []))

    lx = MARGIN + cols * (pw + MARGIN)
    acting = view.get("acting")
    lines = []
    if view["current_line"]:
        lines.append((t(lang, "kingdomino.render.current_line"), view["current_line"], True))
    if view["next_line"]:
        title = "kingdomino.render.first_line" if view["round"] == 0 \
            else "kingdomino.render.next_line"
        lines.append((t(lang, title), view["next_line"], False))
    for i, (title, slots, current) in enumerate(lines):
        if side_by_side:
            _draw_line(img, lx + i * LINES_WIDTH, HEADER, title, slots, acting, current=current)
        else:
            _draw_line(img, lx, HEADER + i * (line_h + 8), title, slots, acting,
                       current=current)
    y = HEADER + line_h * (1 if side_by_side else 2) + 16
    d.text((lx, y), t(lang, "kingdomino.render.deck", k=view["deck_left"]), font=font(14),
           fill=INK)
    _draw_legend(img, lx, y + 28, lang)
    return to_png(img)
