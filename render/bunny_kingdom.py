"""Bunny Kingdom images: the New World board for the channel and a seat's hand for its DM.

Both are pure functions of a view (``engines.bunny_kingdom`` ``view``); the board uses the
spectator view only, so it can never show a hand, a parchment before the final reveal or a
2-player reserve. Both are phone-sized (every text >= 9 px when shown 390 px wide). Layout of
the board: a header (round, phase, pick step, passing order, deck), the 10x10 map with A-J /
1-10 labels and each cell's name, every fief outlined in its owner's colour and each owned
cell marked with the owner's seat shape, lava drawn over the borders; below, a block per
player, two by two (score bar on a shared scale, territories and fiefs, parchments, buildings
waiting, last cards played, harvests) and, at the end, everyone's revealed parchments with
their points. The map layer (terrain, resource icons, names, labels), each occupied cell and
each card row of a hand are drawn once and cached.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    INK,
    PAPER,
    SEAT_COLOURS,
    draw_seat_marker,
    draw_text,
    fixed_palette,
    font,
    layer_cache,
    legible,
    min_label_px,
    seat_colour,
    text_on,
    text_width,
)
from render.common import (
    to_png as encode_png,
)
from text.catalog import t

P = "bunny_kingdom."

TERRAIN_COLOURS = {
    "forest": (52, 120, 58),
    "sea": (70, 140, 205),
    "field": (226, 196, 92),
    "plains": (168, 206, 120),
    "mountain": (150, 138, 128),
    "city": (214, 196, 166),
}
LAVA = (232, 70, 20)
GRID = (90, 80, 70)
GOLD = (240, 196, 40)
SOFT = (110, 104, 96)
LUXURY = {"pearl", "mushroom", "spices", "diamond", "copper", "gold", "iron"}

LAVA_CORE = (255, 214, 0)  # the lava bar's dashes: lava is told from a red fief by texture
WHITE = (255, 255, 255)
CARD_EDGE = (200, 190, 175)
# text inside icons (drawn large and shrunk, so not through draw_text): its colour pairs are
# declared here and checked by tests/render/test_bunny_kingdom_images.py
INGOT_TEXT = (40, 25, 10)
INGOTS = {"copper": ((205, 120, 60), "Cu"), "gold": ((245, 200, 40), "Au"),
          "iron": ((150, 155, 165), "Fe")}
TOWER = (100, 90, 190)  # the sky tower's body, under its white pair number
PROVISIONS = (140, 95, 45)  # the provisions card, dark enough for its white "+2" (>= 4.5:1)
CAMP_DARK = (70, 45, 20)  # the camp's outline and the stroke round its white number
ICON_TEXT = (
    *((INGOT_TEXT, fill) for fill, _ in INGOTS.values()),
    (WHITE, TOWER), (WHITE, PROVISIONS), (WHITE, CAMP_DARK),
    ((60, 60, 60), (250, 248, 240)),  # "?" on an unset trading post
)

# phone-sized: the map is the image's width and every player's block goes below it
CELL = 56
LABEL = 24
MARGIN = 10
BOARD_PX = CELL * 10
WIDTH = MARGIN + LABEL + BOARD_PX + LABEL + MARGIN
TEXT_PX = min_label_px(WIDTH)  # >= 9 px when the image is shown 390 px wide
LINE_H = TEXT_PX + 6
PANEL_W = WIDTH - 2 * MARGIN
BLOCK_W = (PANEL_W - 8) // 2  # players' blocks two by two: a shorter image
ROWS = "ABCDEFGHIJ"
SCALE = 4  # icons are drawn large and shrunk: smooth edges


def _tr(lang: str, key: str, **params: Any) -> str:
    return t(lang, P + key, **params)


def _lbl(lang: str, key: str, **params: Any) -> str:
    """A word of the image itself (``bunny_kingdom.render.*``)."""
    return t(lang, P + "render." + key, **params)


def _card_name(lang: str, kind: str) -> str:
    if kind and kind[0] in ROWS and kind[1:].isdigit():
        return kind  # a territory card is named by its cell
    return _tr(lang, f"card.{kind}")


def to_png(image: Image.Image) -> bytes:
    """PNG with the board's fixed palette (terrain, seats, lava exact; icon shades nearest)
    and zlib level 1: on the 628x1146 board level 3 costs ~1.5 ms more for ~12% fewer bytes
    (~50 KB either way)."""
    return encode_png(image, compress_level=1, palette=PALETTE)


# --- icons (cached) ---------------------------------------------------------------------
@lru_cache(maxsize=64)
def resource_icon(resource: str, px: int) -> Image.Image:
    """A small picture of a resource, ``px`` square, transparent background."""
    s = px * SCALE
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    w = max(1, SCALE)
    if resource == "wood":
        d.rectangle((s * 0.43, s * 0.65, s * 0.57, s * 0.95), fill=(110, 70, 30))
        d.polygon([(s * 0.5, s * 0.05), (s * 0.88, s * 0.72), (s * 0.12, s * 0.72)],
                  fill=(20, 90, 30), outline=(10, 40, 10), width=w)
    elif resource == "fish":
        d.ellipse((s * 0.08, s * 0.3, s * 0.72, s * 0.7), fill=(200, 225, 245),
                  outline=(20, 60, 110), width=w)
        d.polygon([(s * 0.68, s * 0.5), (s * 0.95, s * 0.28), (s * 0.95, s * 0.72)],
                  fill=(200, 225, 245), outline=(20, 60, 110), width=w)
        d.ellipse((s * 0.2, s * 0.42, s * 0.28, s * 0.5), fill=(20, 40, 70))
    elif resource == "carrots":
        d.polygon([(s * 0.3, s * 0.3), (s * 0.7, s * 0.3), (s * 0.5, s * 0.97)],
                  fill=(240, 120, 20), outline=(120, 50, 0), width=w)
        for dx in (-0.12, 0, 0.12):
            d.line((s * 0.5, s * 0.32, s * (0.5 + dx), s * 0.05), fill=(40, 140, 40), width=w * 3)
    elif resource == "pearl":
        d.ellipse((s * 0.18, s * 0.18, s * 0.82, s * 0.82), fill=(248, 244, 236),
                  outline=(120, 110, 140), width=w * 2)
        d.ellipse((s * 0.32, s * 0.3, s * 0.45, s * 0.43), fill=(255, 255, 255))
    elif resource == "mushroom":
        d.rectangle((s * 0.4, s * 0.45, s * 0.6, s * 0.92), fill=(245, 235, 215),
                    outline=(90, 70, 50), width=w)
        d.pieslice((s * 0.08, s * 0.1, s * 0.92, s * 0.85), 180, 360, fill=(210, 40, 40),
                   outline=(90, 20, 20), width=w)
        d.ellipse((s * 0.3, s * 0.25, s * 0.4, s * 0.35), fill=(255, 255, 255))
        d.ellipse((s * 0.58, s * 0.2, s * 0.68, s * 0.3), fill=(255, 255, 255))
    elif resource == "spices":
        d.polygon([(s * 0.1, s * 0.9), (s * 0.5, s * 0.25), (s * 0.9, s * 0.9)],
                  fill=(190, 80, 30), outline=(90, 30, 10), width=w)
        for x, y in ((0.4, 0.65), (0.55, 0.55), (0.6, 0.78), (0.35, 0.82)):
            d.ellipse((s * (x - 0.04), s * (y - 0.04), s * (x + 0.04), s * (y + 0.04)),
                      fill=(250, 200, 60))
    elif resource == "diamond":
        d.polygon([(s * 0.5, s * 0.05), (s * 0.9, s * 0.4), (s * 0.5, s * 0.95),
                   (s * 0.1, s * 0.4)], fill=(150, 230, 245), outline=(20, 90, 120), width=w * 2)
        d.line((s * 0.1, s * 0.4, s * 0.9, s * 0.4), fill=(20, 90, 120), width=w)
    else:  # copper, gold, iron: an ingot with the chemical symbol (the same in every language)
        fill, symbol = INGOTS.get(resource, ((200, 200, 200), "?"))
        d.polygon([(s * 0.05, s * 0.85), (s * 0.2, s * 0.25), (s * 0.8, s * 0.25),
                   (s * 0.95, s * 0.85)], fill=fill, outline=(60, 40, 20), width=w * 2)
        d.text((s * 0.5, s * 0.57), symbol, font=font(int(s * 0.38), True), fill=INGOT_TEXT,
               anchor="mm")
    return img.resize((px, px), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def city_icon(strength: int, px: int) -> Image.Image:
    """A city: as many towers as its strength, on a wall."""
    s = px * SCALE
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    stone, dark = (245, 240, 228), (60, 50, 40)
    w = SCALE * 2
    d.rectangle((s * 0.08, s * 0.6, s * 0.92, s * 0.95), fill=stone, outline=dark, width=w)
    xs = {1: [0.5], 2: [0.32, 0.68], 3: [0.22, 0.5, 0.78]}[max(1, min(3, strength))]
    for x in xs:
        d.rectangle((s * (x - 0.11), s * 0.25, s * (x + 0.11), s * 0.62), fill=stone, outline=dark,
                    width=w)
        d.polygon([(s * (x - 0.15), s * 0.27), (s * x, s * 0.02), (s * (x + 0.15), s * 0.27)],
                  fill=(200, 60, 50), outline=dark, width=w)
    return img.resize((px, px), Image.Resampling.LANCZOS)


@lru_cache(maxsize=32)
def token_icon(kind: str, px: int, extra: str = "") -> Image.Image:
    """Farm, trading post, sky tower and camp tokens."""
    s = px * SCALE
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    w = SCALE * 2
    if kind.startswith("camp_"):
        d.polygon([(s * 0.5, s * 0.05), (s * 0.95, s * 0.92), (s * 0.05, s * 0.92)],
                  fill=(205, 170, 110), outline=(70, 45, 20), width=w)
        d.polygon([(s * 0.5, s * 0.45), (s * 0.65, s * 0.92), (s * 0.35, s * 0.92)],
                  fill=(70, 45, 20))
        d.text((s * 0.5, s * 0.5), kind[5:], font=font(int(s * 0.36), True), fill=WHITE,
               anchor="mm", stroke_width=SCALE, stroke_fill=CAMP_DARK)
    elif kind == "sky_tower":
        d.rectangle((s * 0.32, s * 0.2, s * 0.68, s * 0.95), fill=TOWER,
                    outline=(30, 20, 80), width=w)
        d.ellipse((s * 0.18, s * 0.02, s * 0.82, s * 0.35), fill=(180, 200, 255),
                  outline=(30, 20, 80), width=w)
        if extra:
            d.text((s * 0.5, s * 0.62), extra, font=font(int(s * 0.34), True), fill=WHITE,
                   anchor="mm")
    else:  # a farm token: round, white for basic resources, black with gold rim for luxury
        resource = extra
        lux = resource in LUXURY
        d.ellipse((s * 0.03, s * 0.03, s * 0.97, s * 0.97),
                  fill=(30, 30, 30) if lux else (250, 248, 240),
                  outline=GOLD if lux else (60, 60, 60), width=w * 2)
        if kind == "trading_post" and not resource:
            d.text((s * 0.5, s * 0.5), "?", font=font(int(s * 0.6), True), fill=(60, 60, 60),
                   anchor="mm")
        if kind == "trading_post":
            d.arc((s * 0.1, s * 0.1, s * 0.9, s * 0.9), 200, 340, fill=(200, 120, 0), width=w * 2)
        if resource:
            icon = resource_icon(resource, int(px * 0.62)).resize(
                (int(s * 0.62), int(s * 0.62)), Image.Resampling.LANCZOS)
            img.alpha_composite(icon, (int(s * 0.19), int(s * 0.19)))
    return img.resize((px, px), Image.Resampling.LANCZOS)


def building_icon(building: str, px: int, *, resource: str = "", pair: str = "") -> Image.Image:
    if building.startswith("city_"):
        return city_icon(int(building[-1]), px)
    if building.startswith("farm_"):
        return token_icon("farm", px, building[5:])
    if building == "trading_post":
        return token_icon("trading_post", px, resource)
    if building == "sky_tower":
        return token_icon("sky_tower", px, pair)
    return token_icon(building, px)


def card_icon(kind: str, terrain: str, px: int) -> Image.Image:
    """The picture for a card in a hand or a list."""
    if terrain:  # a territory: a terrain swatch
        img = Image.new("RGBA", (px, px), TERRAIN_COLOURS.get(terrain, (200, 200, 200)) + (255,))
        res = {"forest": "wood", "sea": "fish", "field": "carrots"}.get(terrain)
        if res:
            icon = resource_icon(res, int(px * 0.7))
            img.alpha_composite(icon, (int(px * 0.15), int(px * 0.15)))
        ImageDraw.Draw(img).rectangle((0, 0, px - 1, px - 1), outline=(40, 40, 40))
        return img
    if kind in ("provisions", "scroll") or not (
        kind.startswith(("city_", "farm_", "camp_")) or kind in ("trading_post", "sky_tower")
    ):
        s = px * SCALE
        img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
        d = ImageDraw.Draw(img)
        if kind == "provisions":
            d.rectangle((s * 0.1, s * 0.3, s * 0.9, s * 0.9), fill=PROVISIONS,
                        outline=(70, 40, 10), width=SCALE * 2)
            d.text((s * 0.5, s * 0.6), "+2", font=font(int(s * 0.4), True), fill=WHITE,
                   anchor="mm")
        else:  # a parchment: a rolled scroll
            d.rectangle((s * 0.18, s * 0.1, s * 0.82, s * 0.9), fill=(245, 228, 180),
                        outline=(120, 90, 40), width=SCALE * 2)
            for y in (0.1, 0.9):
                d.ellipse((s * 0.08, s * (y - 0.07), s * 0.92, s * (y + 0.07)),
                          fill=(230, 205, 150), outline=(120, 90, 40), width=SCALE * 2)
            for y in (0.35, 0.5, 0.65):
                d.line((s * 0.3, s * y, s * 0.7, s * y), fill=(150, 120, 70), width=SCALE * 2)
        return img.resize((px, px), Image.Resampling.LANCZOS)
    return building_icon(kind, px)


# --- the static map layer -----------------------------------------------------------------
MAP_H = LABEL + BOARD_PX + LABEL


def _cell_box(index: int, top: int = 0) -> tuple[int, int, int, int]:
    """A cell's box; ``top`` is where the map starts in the image."""
    r, c = divmod(index, 10)
    x = MARGIN + LABEL + c * CELL
    y = top + LABEL + r * CELL
    return x, y, x + CELL, y + CELL


def _cell_name(index: int) -> str:
    return f"{ROWS[index // 10]}{index % 10 + 1}"


@layer_cache(maxsize=4)
def map_layer(terrain: tuple[str, ...]) -> Image.Image:
    """Terrain, resource icons, cell names, grid and A-J / 1-10 labels (RGB, cached)."""
    img = Image.new("RGB", (WIDTH, MAP_H), PAPER)
    d = ImageDraw.Draw(img)
    name_font = font(TEXT_PX, True)
    label = font(TEXT_PX + 2, True)
    for i, ter in enumerate(terrain):
        x0, y0, x1, y1 = _cell_box(i)
        colour = TERRAIN_COLOURS.get(ter, (200, 200, 200))
        d.rectangle((x0, y0, x1, y1), fill=colour)
        res = {"forest": "wood", "sea": "fish", "field": "carrots"}.get(ter)
        if res:
            icon = resource_icon(res, 16)
            img.paste(icon, (x1 - 19, y0 + 7), icon)
        draw_text(img, (x0 + 7, y0 + 6), _cell_name(i), font=name_font, fill=text_on(colour),
                  key=True, draw=d)
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


# --- the board ------------------------------------------------------------------------------
def _header_parts(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    parts = [_tr(lang, "name"), _lbl(lang, "round", round=view["round"], rounds=view["rounds"]),
             _tr(lang, f"phase.{view['phase']}")]
    if view["phase"] == "explore":
        parts.append(_lbl(lang, "step", step=view["step"], steps=view["steps"]))
        parts.append(_lbl(lang, "pass_to", direction=_tr(lang, f"direction.{view['direction']}"),
                          order=_pass_order(view, names)))
    parts.append(_lbl(lang, "deck", n=view["deck"]))
    offer = view.get("camp_offer")
    if offer:
        parts.append(_lbl(lang, "camp_offer", priority=offer["card"][5:],
                          player=_who(names, offer["seat"])))
    return parts


def _who(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"#{seat + 1}"


def _pass_order(view: dict[str, Any], names: list[str]) -> str:
    """Who passes to whom: "Ada → Bolek → Cyryl → Ada" (2 players: "Ada ⇄ Bolek")."""
    n = view["players"]
    if n == 2:
        return f"{_who(names, 0)} ⇄ {_who(names, 1)}"
    step = 1 if view["direction"] == "left" else -1
    order = [(k * step) % n for k in range(n + 1)]
    return " → ".join(_who(names, s) for s in order)


def _wrap(d: ImageDraw.ImageDraw, text: str, fnt: Any, width: int) -> list[str]:
    return list(_wrapped(text, fnt, width))


@lru_cache(maxsize=2048)
def _wrapped(text: str, fnt: Any, width: int) -> tuple[str, ...]:
    """``text`` broken into lines of at most ``width`` px (cached: the same card names and
    effects come back on every image, and measuring words was a fifth of a board's CPU)."""
    words, lines, line = text.split(), [], ""
    for word in words:
        trial = f"{line} {word}".strip()
        if text_width(trial, fnt) <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return tuple(lines)


def _joined(d: ImageDraw.ImageDraw, parts: list[str], fnt: Any, width: int) -> list[str]:
    """``parts`` joined with dots into as few lines as fit ``width``."""
    lines: list[str] = []
    for part in parts:
        trial = f"{lines[-1]}  ·  {part}" if lines else part
        if lines and text_width(trial, fnt) <= width:
            lines[-1] = trial
        else:
            lines.extend(_wrap(d, part, fnt, width))
    return lines


def _fit(text: str, fnt: Any, width: int) -> str:
    """``text`` cut with an ellipsis to fit ``width`` (long player names)."""
    if text_width(text, fnt) <= width:
        return text
    while text and text_width(text + "…", fnt) > width:
        text = text[:-1]
    return text + "…"


def _grouped(kinds: list[str], lang: str) -> str:
    counts: dict[str, int] = {}
    for k in kinds:
        counts[k] = counts.get(k, 0) + 1
    return ", ".join(_card_name(lang, k) + (f" ×{c}" if c > 1 else "") for k, c in counts.items())


def _seat_lines(d: ImageDraw.ImageDraw, view: dict[str, Any], s: int, lang: str
                ) -> list[tuple[str, tuple[int, int, int]]]:
    """The text lines of a player's block below its name and score bar."""
    seat = view["seats"][s]
    small = font(TEXT_PX)
    width = BLOCK_W - 20
    info = [_lbl(lang, "territories", n=seat["territories"], fiefs=seat["fiefs"]),
            _lbl(lang, "scrolls", n=seat["scrolls"])]
    if view["players"] == 2 and view["phase"] == "explore":
        info.append(_lbl(lang, "reserve", n=seat["reserve"]))
    lines = [(line, INK) for line in _joined(d, info, small, width)]
    if view["phase"] not in ("copy", "over"):
        waiting = _grouped(seat["waiting"], lang) or _lbl(lang, "nothing")
        lines += [(line, INK) for line in
                  _wrap(d, _lbl(lang, "waiting") + " " + waiting, small, width)[:2]]
        played = [_lbl(lang, "scroll_back") if k == "scroll" else _card_name(lang, k)
                  for k in view["last_play"][s]]
        if played:
            text = _lbl(lang, "last_play") + " " + ", ".join(played)
            lines += [(line, SOFT) for line in _wrap(d, text, small, width)[:2]]
    harvests = [sum(f["points"] for f in record[s]) for record in view["harvests"]]
    scored = []
    if harvests:
        scored.append(_lbl(lang, "harvest") + ": " + " + ".join(str(h) for h in harvests))
    if view.get("final"):
        points = sum(line["points"] for line in view["final"][s])
        scored.append(_lbl(lang, "parchment_points", points=points))
    lines += [(line, INK) for line in _joined(d, scored, small, width)]
    return lines


def _final_lines(d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], lang: str
                 ) -> list[tuple[str, Any, tuple[int, int, int], int]]:
    """Everyone's revealed parchments: (text, font, colour, indent) lines."""
    if not view.get("final"):
        return []
    out: list[tuple[str, Any, tuple[int, int, int], int]] = [
        (_lbl(lang, "final"), font(TEXT_PX + 3, True), INK, 0)]
    small = font(TEXT_PX)
    for s, lines in enumerate(view["final"]):
        parchments = sum(line["points"] for line in lines)
        out.append((_who(names, s) + "  " + _lbl(
            lang, "breakdown", harvest=view["totals"][s] - parchments, parchments=parchments,
            total=view["totals"][s]), font(TEXT_PX, True), INK, 0))
        items = []
        for line in lines:
            name = _card_name(lang, line["card"])
            if line["kind"] and line["kind"] != line["card"]:
                name += " → " + _card_name(lang, line["kind"])
            items.append(f"{name}: {line['points']}")
        for text in _joined(d, items, small, PANEL_W - 16):
            out.append((text, small, INK, 12))
    return out


def render_board(view: dict[str, Any], *, names: list[str], lang: str = "en") -> bytes:
    """The channel image of a Bunny Kingdom game, from the spectator view."""
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    header_font = font(TEXT_PX + 2, True)
    header = _joined(probe, _header_parts(view, names, lang), header_font, WIDTH - 2 * MARGIN)
    # room reserved so that the image keeps its size while the game is played (the chat does
    # not jump between boards): 3 header lines (4 with a passing order of 3-4 names), 7 lines
    # a player (2 of territories and parchments, 2 of waiting buildings, 2 of last cards, 1 of
    # harvests)
    header_h = 10 + max(3 + (view["players"] > 2), len(header)) * (TEXT_PX + 8)
    blocks = [_seat_lines(probe, view, s, lang) for s in range(view["players"])]
    least = 0 if view["phase"] in ("copy", "over") else 7
    row_heights = [max(_block_height([None] * least),
                       *(_block_height(lines) for lines in blocks[k:k + 2]))
                   for k in range(0, len(blocks), 2)]
    blocks_h = sum(h + 8 for h in row_heights)
    final = _final_lines(probe, view, names, lang)
    height = header_h + MAP_H + 8 + blocks_h + len(final) * LINE_H + MARGIN
    img = Image.new("RGB", (WIDTH, height), PAPER)
    img.paste(map_layer(tuple(view["board"]["terrain"])), (0, header_h))
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
        flag = "  ◀ " + _lbl(lang, "to_act")
    elif view["seats"][s]["picked"]:
        flag = "  ✓ " + _lbl(lang, "picked")
    if winner:
        flag = "  ★ " + _lbl(lang, "winner")
    bold = font(TEXT_PX + 2, True)
    totals = view["totals"]
    score_font = font(TEXT_PX + 6, True)
    room = BLOCK_W - 48 - int(text_width(str(totals[s]), score_font)) - 8
    draw_text(img, (x + 38, y + 18), _fit(_who(names, s) + flag, bold, room), font=bold,
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


def _fief_edges(owner: list[int], lava: set[frozenset[int]]) -> list[tuple[int, str]]:
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
    for i, side in _fief_edges(owner, lava):
        sides[i] = sides.get(i, frozenset()) | {side}
    pair_of: dict[int, str] = {}
    for k, (a, b) in enumerate(board["towers"], start=1):
        pair_of[index[a]] = pair_of[index[b]] = str(k)
    terrain = tuple(board["terrain"])
    for i, building in enumerate(board["building"]):
        if building or owner[i] >= 0:
            x0, y0, _, _ = _cell_box(i, top)
            img.paste(_cell_tile(terrain, i, building or "", view["posts"].get(coords[i], ""),
                                 pair_of.get(i, ""), owner[i], sides.get(i, frozenset())),
                      (x0, y0))
    # lava last: on top of every border, so it never disappears between two owned cells
    for pair in lava:
        a, b = sorted(pair)
        ax0, ay0, ax1, ay1 = _cell_box(a, top)
        if b - a == 1:  # side by side: a vertical flow on the shared edge
            img.paste(_lava_bar(True), (ax1 - 5, ay0 + 2))
        else:
            img.paste(_lava_bar(False), (ax0 + 2, ay1 - 5))
    for a, b in board["towers"]:
        tower_owner = owner[index[a]]
        (ax, ay, ax1, ay1), (bx, by, bx1, by1) = _cell_box(index[a], top), \
            _cell_box(index[b], top)
        d.line(((ax + ax1) // 2, (ay + ay1) // 2, (bx + bx1) // 2, (by + by1) // 2),
               fill=seat_colour(tower_owner) if tower_owner >= 0 else SOFT, width=2)


@lru_cache(maxsize=2048)
def _cell_tile(terrain: tuple[str, ...], i: int, building: str, resource: str, pair: str,
               owner: int, sides: frozenset[str]) -> Image.Image:
    """One cell as drawn on the board (terrain and name from the map layer, fief border,
    building, owner's marker): opaque, so the board pastes it without blending."""
    x0, y0, x1, y1 = _cell_box(i)
    tile = map_layer(terrain).crop((x0, y0, x1 + 1, y1 + 1))
    if owner >= 0 and sides:
        sprite = _border(owner, sides)
        tile.paste(sprite, (0, 0), sprite)
    if building:
        icon = building_icon(building, 28, resource=resource, pair=pair)
        tile.paste(icon, (5, CELL - 32), icon)
    if owner >= 0:
        draw_seat_marker(tile, owner, (CELL - 16, CELL - 16), 22)
    return tile


# --- the hand -------------------------------------------------------------------------------
def _territory_hint(view: dict[str, Any], seat: int, coord: str, names: list[str],
                    lang: str) -> str:
    """What a territory card would give this seat: resource, city, camp, touching fiefs."""
    board = view["board"]
    coords = board["coords"]
    i = coords.index(coord)
    res = {"forest": "wood", "sea": "fish", "field": "carrots"}.get(board["terrain"][i])
    parts = [_lbl(lang, "produces", resource=_tr(lang, f"resource.{res}")) if res
             else _lbl(lang, "no_resource")]
    building = board["building"][i] or ""
    owner = board["owner"][i]
    if building.startswith("city_") and owner < 0:
        parts.append(_lbl(lang, "neutral_city"))
    if building.startswith("camp_") and owner >= 0 and owner != seat:
        parts.append(_lbl(lang, "camp_here", player=names[owner] if owner < len(names) else ""))
    lava = {frozenset(pair) for pair in board["lava"]}
    r, c = divmod(i, 10)
    mine = [
        coords[j] for j in (i - 10 if r else -1, i + 10 if r < 9 else -1,
                            i - 1 if c else -1, i + 1 if c < 9 else -1)
        if j >= 0 and board["owner"][j] == seat and frozenset((coord, coords[j])) not in lava
    ]
    if mine:
        parts.append(_lbl(lang, "next_to_you") + " (" + ", ".join(mine) + ")")
    return "; ".join(parts)


HAND_W = 520
HAND_TEXT = min_label_px(HAND_W)
RESERVE_TAG = (0, 90, 160)  # the reserve card's frame and tag: 7:1 on white


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

    reserve_index = -1
    if private.get("from_reserve") and private["hand"] and \
            private["hand"][-1] == private["from_reserve"]:
        reserve_index = len(private["hand"]) - 1

    def rows_of(cards: list[str], hints: bool, marked: int = -1
                ) -> list[tuple[str, str, list[str], bool]]:
        """(kind, name, effect lines, from the reserve) for each card; ``marked``: the index
        of the card drawn from the reserve."""
        rows = []
        for k, kind in enumerate(cards):
            ter = terrain.get(kind, "")
            if ter:
                name = f"{kind} · {_tr(lang, f'terrain.{ter}')}"
                effect = _territory_hint(view, seat, kind, names, lang) if hints else \
                    _tr(lang, "card.territory.text")
            else:
                name = _card_name(lang, kind)
                effect = _tr(lang, f"card.{kind}.text")
            rows.append((kind, name, _wrap(probe, effect, text_font, inner - 56)[:2],
                         k == marked))
        return rows

    sections: list[tuple[str, list[tuple[str, str, list[str], bool]], bool]] = [
        (_lbl(lang, "hand"), rows_of(private["hand"], True, reserve_index), True),
        (_lbl(lang, "your_pick"), rows_of(private["pick"] or [], True), bool(private["pick"])),
        (_lbl(lang, "your_waiting"), rows_of(private["waiting"], False),
         bool(private["waiting"])),
        (_lbl(lang, "your_scrolls"), rows_of(private["scrolls"], False),
         bool(private["scrolls"])),
    ]
    sections = [x for x in sections if x[2]]
    discards = _wrap(probe, _grouped(private["hidden_discards"], lang), text_font, inner)
    subtitle = []
    if view["phase"] == "explore":
        n = view["players"]
        step = 1 if view["direction"] == "left" else -1
        subtitle = _wrap(probe, _lbl(lang, "you_pass", to=_who(names, (seat + step) % n),
                                     source=_who(names, (seat - step) % n)), text_font, inner)

    def row_h(row: tuple[str, str, list[str], bool]) -> int:
        return 10 + (HAND_TEXT + 7) + len(row[2]) * (HAND_TEXT + 5) + \
            ((HAND_TEXT + 6) if row[3] else 0) + 6

    title_font = font(HAND_TEXT + 5, True)
    title = _joined(probe, [_who(names, seat), _lbl(lang, "round", round=view["round"],
                                                    rounds=view["rounds"]),
                            _tr(lang, f"phase.{view['phase']}")], title_font, inner - 36)
    height = 52 + (len(title) - 1) * (HAND_TEXT + 10) + len(subtitle) * (HAND_TEXT + 6) + sum(
        34 + (sum(row_h(r) for r in rows) or (HAND_TEXT + 10)) for _, rows, _ in sections
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
        draw_text(img, (MARGIN, y + 6), heading, font=heading_font, fill=INK, draw=d)
        y += 34
        if not rows:
            draw_text(img, (MARGIN + 10, y), _lbl(lang, "nothing"), font=text_font, fill=SOFT,
                      draw=d)
            y += HAND_TEXT + 10
        for kind, name, effect, from_reserve in rows:
            tag = "⬇ " + _lbl(lang, "from_reserve") if from_reserve else ""
            tile = _card_row(kind, terrain.get(kind, ""), name, tuple(effect), tag)
            img.paste(tile, (MARGIN, y))
            y += tile.height + 6
    if discards:
        draw_text(img, (MARGIN, y + 6), _lbl(lang, "discarded_count",
                                             n=len(private["hidden_discards"])),
                  font=heading_font, fill=INK, draw=d)
        y += 34
        for line in discards:
            draw_text(img, (MARGIN, y), line, font=text_font, fill=INK, draw=d)
            y += HAND_TEXT + 6
    return to_png(img)


@layer_cache(maxsize=512)
def _card_row(kind: str, terrain: str, name: str, effect: tuple[str, ...], tag: str
              ) -> Image.Image:
    """One card of a hand image: icon, optional tag (the reserve card), name, effect lines.
    Cached: a hand changes by a card or two between pictures."""
    h = 10 + (HAND_TEXT + 7) + len(effect) * (HAND_TEXT + 5) + ((HAND_TEXT + 6) if tag else 0)
    w = HAND_W - 2 * MARGIN
    img = Image.new("RGB", (w + 1, h), PAPER)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w, h - 1), 6, fill=WHITE,
                        outline=RESERVE_TAG if tag else CARD_EDGE, width=3 if tag else 1)
    icon = card_icon(kind, terrain, 34)
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


#: every flat colour of the images, kept exact by the PNG palette
PALETTE = fixed_palette((
    *TERRAIN_COLOURS.values(), *SEAT_COLOURS, LAVA, LAVA_CORE, GRID, GOLD, SOFT, INK, PAPER,
    WHITE, CARD_EDGE, RESERVE_TAG, (235, 230, 220), (0, 0, 0),
    *(legible(c, WHITE) for c in SEAT_COLOURS), *(legible(c, PAPER) for c in SEAT_COLOURS),
    (245, 240, 228), (200, 60, 50), (60, 50, 40), (250, 248, 240), TOWER, PROVISIONS,
))
