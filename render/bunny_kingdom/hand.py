"""A Bunny Kingdom seat's hand image (its DM): the cards in hand with their effects (a
territory's says what it would give this seat), its pick, buildings waiting, parchments, whom it
passes to, and (2 players) the cards it discarded face down. Each card row is drawn once and
cached."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.bunny_kingdom.icons import card_icon
from render.bunny_kingdom.lines import grouped, joined, wrap
from render.bunny_kingdom.style import (
    CARD_EDGE,
    HAND_TEXT,
    HAND_W,
    MARGIN,
    RESERVE_TAG,
    SOFT,
    WHITE,
    card_name,
    lbl,
    to_png,
    tr,
    who,
)
from render.common import (
    INK,
    PAPER,
    draw_seat_marker,
    draw_text,
    font,
    layer_cache,
    legible,
    note_icon,
    seat_colour,
)

#: a card in a hand image: (kind, name, effect lines, drawn from the reserve)
CardRow = tuple[str, str, list[str], bool]
#: a section of a hand image: (heading, its card rows, shown)
Section = tuple[str, list[CardRow], bool]


def territory_hint(view: dict[str, Any], seat: int, coord: str, names: list[str],
                   lang: str) -> str:
    """What a territory card would give this seat: resource, city, camp, touching fiefs."""
    board = view["board"]
    coords = board["coords"]
    i = coords.index(coord)
    res = {"forest": "wood", "sea": "fish", "field": "carrots"}.get(board["terrain"][i])
    parts = [lbl(lang, "produces", resource=tr(lang, f"resource.{res}")) if res
             else lbl(lang, "no_resource")]
    building = board["building"][i] or ""
    owner = board["owner"][i]
    if building.startswith("city_") and owner < 0:
        parts.append(lbl(lang, "neutral_city"))
    if building.startswith("camp_") and owner >= 0 and owner != seat:
        parts.append(lbl(lang, "camp_here", player=names[owner] if owner < len(names) else ""))
    lava = {frozenset(pair) for pair in board["lava"]}
    r, c = divmod(i, 10)
    mine = [
        coords[j] for j in (i - 10 if r else -1, i + 10 if r < 9 else -1,
                            i - 1 if c else -1, i + 1 if c < 9 else -1)
        if j >= 0 and board["owner"][j] == seat and frozenset((coord, coords[j])) not in lava
    ]
    if mine:
        parts.append(lbl(lang, "next_to_you") + " (" + ", ".join(mine) + ")")
    return "; ".join(parts)


def card_rows(cards: list[str], hints: bool, view: dict[str, Any], names: list[str], lang: str,
              marked: int = -1) -> list[CardRow]:
    """(kind, name, effect lines, from the reserve) for each card; ``hints``: a territory
    says what it would give the seat; ``marked``: the index of the card drawn from the
    reserve."""
    seat = view["private"]["seat"]
    terrain = dict(zip(view["board"]["coords"], view["board"]["terrain"], strict=True))
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    rows = []
    for k, kind in enumerate(cards):
        ter = terrain.get(kind, "")
        if ter:
            name = f"{kind} · {tr(lang, f'terrain.{ter}')}"
            effect = territory_hint(view, seat, kind, names, lang) if hints else \
                tr(lang, "card.territory.text")
        else:
            name = card_name(lang, kind)
            effect = tr(lang, f"card.{kind}.text")
        rows.append((kind, name, wrap(probe, effect, font(HAND_TEXT + 1), HAND_W - 2 * MARGIN - 56)[:2],
                     k == marked))
    return rows


def hand_sections(view: dict[str, Any], names: list[str], lang: str) -> list[Section]:
    """The hand (the card just drawn from a 2-player reserve marked), the pick, buildings
    waiting and parchments: those that hold something (the hand always)."""
    private = view["private"]
    reserve_index = -1
    if private.get("from_reserve") and private["hand"] and \
            private["hand"][-1] == private["from_reserve"]:
        reserve_index = len(private["hand"]) - 1
    sections: list[Section] = [
        (lbl(lang, "hand"), card_rows(private["hand"], True, view, names, lang, reserve_index),
         True),
        (lbl(lang, "your_pick"), card_rows(private["pick"] or [], True, view, names, lang),
         bool(private["pick"])),
        (lbl(lang, "your_waiting"), card_rows(private["waiting"], False, view, names, lang),
         bool(private["waiting"])),
        (lbl(lang, "your_scrolls"), card_rows(private["scrolls"], False, view, names, lang),
         bool(private["scrolls"])),
    ]
    return [x for x in sections if x[2]]


def passing_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """Whom the seat passes to and gets cards from, while exploring."""
    if view["phase"] != "explore":
        return []
    seat = view["private"]["seat"]
    n = view["players"]
    step = 1 if view["direction"] == "left" else -1
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    return wrap(probe, lbl(lang, "you_pass", to=who(names, (seat + step) % n),
                           source=who(names, (seat - step) % n)),
                font(HAND_TEXT + 1), HAND_W - 2 * MARGIN)


def row_height(row: CardRow) -> int:
    return 10 + (HAND_TEXT + 7) + len(row[2]) * (HAND_TEXT + 5) + \
        ((HAND_TEXT + 6) if row[3] else 0) + 6


def render_hand(view: dict[str, Any], *, names: list[str], lang: str = "en") -> bytes:
    """A seat's private view: hand (name and effect of each card, the card just drawn from
    a 2-player reserve marked), its pick, buildings waiting, parchments, whom it passes to,
    and (2 players) the cards it discarded face down, listed compactly."""
    private = view["private"]
    seat = private["seat"]
    terrain = dict(zip(view["board"]["coords"], view["board"]["terrain"], strict=True))
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    text_font = font(HAND_TEXT + 1)
    heading_font = font(HAND_TEXT + 4, True)
    inner = HAND_W - 2 * MARGIN
    sections = hand_sections(view, names, lang)
    discards = wrap(probe, grouped(private["hidden_discards"], lang), text_font, inner)
    subtitle = passing_lines(view, names, lang)
    title_font = font(HAND_TEXT + 5, True)
    title = joined(probe, [who(names, seat), lbl(lang, "round", round=view["round"],
                                                 rounds=view["rounds"]),
                           tr(lang, f"phase.{view['phase']}")], title_font, inner - 36)
    height = 52 + (len(title) - 1) * (HAND_TEXT + 10) + len(subtitle) * (HAND_TEXT + 6) + sum(
        34 + (sum(row_height(r) for r in rows) or (HAND_TEXT + 10)) for _, rows, _ in sections
    ) + (34 + len(discards) * (HAND_TEXT + 6) if discards else 0) + MARGIN
    img = Image.new("RGB", (HAND_W, height), PAPER)
    d = ImageDraw.Draw(img)
    colour = seat_colour(seat)
    draw_seat_marker(img, seat, (MARGIN + 14, 26), 28)
    for k, line in enumerate(title):
        draw_text(img, (MARGIN + 36, 26 + k * (HAND_TEXT + 10)), line, font=title_font,
                  fill=legible(colour, PAPER), anchor="lm", draw=d)
    y = 52 + (len(title) - 1) * (HAND_TEXT + 10)
    for line in subtitle:
        draw_text(img, (MARGIN, y), line, font=text_font, fill=INK, draw=d)
        y += HAND_TEXT + 6
    for heading, rows, _ in sections:
        y = draw_section(img, d, heading, rows, terrain, y, lang)
    if discards:
        draw_text(img, (MARGIN, y + 6), lbl(lang, "discarded_count",
                                            n=len(private["hidden_discards"])),
                  font=heading_font, fill=INK, draw=d)
        y += 34
        for line in discards:
            draw_text(img, (MARGIN, y), line, font=text_font, fill=INK, draw=d)
            y += HAND_TEXT + 6
    return to_png(img)


def draw_section(img: Image.Image, d: ImageDraw.ImageDraw, heading: str, rows: list[CardRow],
                 terrain: dict[str, str], y: int, lang: str) -> int:
    """A heading and its card rows (or "nothing") from ``y``; returns the y under them."""
    draw_text(img, (MARGIN, y + 6), heading, font=font(HAND_TEXT + 4, True), fill=INK, draw=d)
    y += 34
    if not rows:
        draw_text(img, (MARGIN + 10, y), lbl(lang, "nothing"), font=font(HAND_TEXT + 1),
                  fill=SOFT, draw=d)
        y += HAND_TEXT + 10
    for kind, name, effect, from_reserve in rows:
        tag = "⬇ " + lbl(lang, "from_reserve") if from_reserve else ""
        tile = card_row(kind, terrain.get(kind, ""), name, tuple(effect), tag)
        img.paste(tile, (MARGIN, y))
        note_icon("card", CARD_ICON_PX)  # card_row is cached: its icon is noted here
        y += tile.height + 6
    return y


CARD_ICON_PX = 34


@layer_cache(maxsize=512)
def card_row(kind: str, terrain: str, name: str, effect: tuple[str, ...], tag: str
              ) -> Image.Image:
    """One card of a hand image: icon, optional tag (the reserve card), name, effect lines.
    Cached: a hand changes by a card or two between pictures."""
    h = 10 + (HAND_TEXT + 7) + len(effect) * (HAND_TEXT + 5) + ((HAND_TEXT + 6) if tag else 0)
    w = HAND_W - 2 * MARGIN
    img = Image.new("RGB", (w + 1, h), PAPER)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w, h - 1), 6, fill=WHITE,
                        outline=RESERVE_TAG if tag else CARD_EDGE, width=3 if tag else 1)
    icon = card_icon(kind, terrain, CARD_ICON_PX)
    img.paste(icon, (6, 6), icon if icon.mode == "RGBA" else None)
    ty = 5
    if tag:
        draw_text(img, (50, ty), tag, font=font(HAND_TEXT, True), fill=RESERVE_TAG, draw=d)
        ty += HAND_TEXT + 6
    draw_text(img, (50, ty), name, font=font(HAND_TEXT + 3, True), fill=INK, draw=d)
    ty += HAND_TEXT + 7
    for line in effect:
        draw_text(img, (50, ty), line, font=font(HAND_TEXT + 1), fill=SOFT, draw=d)
        ty += HAND_TEXT + 5
    return img
