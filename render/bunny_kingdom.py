"""Bunny Kingdom images: the New World board for the channel and a seat's hand for its DM.

Both are pure functions of a view (``engines.bunny_kingdom`` ``view``); the board uses the
spectator view only, so it can never show a hand, a parchment before the final reveal or a
2-player reserve. Layout of the board: a header (round, phase, pick step, deck), the 10x10
map with A-J / 1-10 labels and each cell's name, then a side panel per player (score bar on a
shared scale, territories and fiefs, buildings waiting, the number of parchments, the last
cards played, harvests) and, at the end, everyone's revealed parchments with their points.
The terrain layer (colours, resource icons, lava, labels) is drawn once and cached.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, PAPER, SEAT_COLOURS, font
from session.i18n import t

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

CELL = 66
LABEL = 24
MARGIN = 14
HEADER = 44
BOARD_PX = CELL * 10
PANEL_W = 470
WIDTH = MARGIN + LABEL + BOARD_PX + LABEL + MARGIN + PANEL_W + MARGIN
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
    """Like ``render.common.to_png`` (256-colour palette) but with fast zlib settings: the
    board is large and flat-coloured, and level 1 saves ~20 ms for ~25% more bytes (~100 KB)."""
    buf = io.BytesIO()
    image.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(
        buf, format="PNG", compress_level=1)
    return buf.getvalue()


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
        fill, symbol = {"copper": ((205, 120, 60), "Cu"), "gold": ((245, 200, 40), "Au"),
                        "iron": ((150, 155, 165), "Fe")}.get(resource, ((200, 200, 200), "?"))
        d.polygon([(s * 0.05, s * 0.85), (s * 0.2, s * 0.25), (s * 0.8, s * 0.25),
                   (s * 0.95, s * 0.85)], fill=fill, outline=(60, 40, 20), width=w * 2)
        d.text((s * 0.5, s * 0.57), symbol, font=font(int(s * 0.38), True), fill=(40, 25, 10),
               anchor="mm")
    return img.resize((px, px), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def rabbit_icon(seat: int, px: int) -> Image.Image:
    """A rabbit head in the seat's colour."""
    s = px * SCALE
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    line = (255, 255, 255)
    w = SCALE * 2
    for x0 in (0.22, 0.52):
        d.ellipse((s * x0, s * 0.0, s * (x0 + 0.26), s * 0.55), fill=colour, outline=line, width=w)
    d.ellipse((s * 0.12, s * 0.35, s * 0.88, s * 0.98), fill=colour, outline=line, width=w)
    d.ellipse((s * 0.33, s * 0.55, s * 0.43, s * 0.65), fill=line)
    d.ellipse((s * 0.57, s * 0.55, s * 0.67, s * 0.65), fill=line)
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
        d.text((s * 0.5, s * 0.5), kind[5:], font=font(int(s * 0.36), True), fill=(255, 255, 255),
               anchor="mm", stroke_width=SCALE, stroke_fill=(70, 45, 20))
    elif kind == "sky_tower":
        d.rectangle((s * 0.32, s * 0.2, s * 0.68, s * 0.95), fill=(120, 110, 200),
                    outline=(30, 20, 80), width=w)
        d.ellipse((s * 0.18, s * 0.02, s * 0.82, s * 0.35), fill=(180, 200, 255),
                  outline=(30, 20, 80), width=w)
        if extra:
            d.text((s * 0.5, s * 0.62), extra, font=font(int(s * 0.34), True), fill=(255, 255, 255),
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
            d.rectangle((s * 0.1, s * 0.3, s * 0.9, s * 0.9), fill=(180, 130, 70),
                        outline=(70, 40, 10), width=SCALE * 2)
            d.text((s * 0.5, s * 0.6), "+2", font=font(int(s * 0.4), True), fill=(255, 255, 255),
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
def _cell_box(index: int) -> tuple[int, int, int, int]:
    r, c = divmod(index, 10)
    x = MARGIN + LABEL + c * CELL
    y = HEADER + LABEL + r * CELL
    return x, y, x + CELL, y + CELL


@lru_cache(maxsize=4)
def map_layer(terrain: tuple[str, ...], lava: tuple[tuple[str, str], ...], height: int
              ) -> Image.Image:
    """Background, terrain, resource icons, cell names, grid, lava and A-J / 1-10 labels."""
    img = Image.new("RGBA", (WIDTH, height), PAPER + (255,))
    d = ImageDraw.Draw(img)
    small = font(11)
    label = font(16, True)
    for i, ter in enumerate(terrain):
        x0, y0, x1, y1 = _cell_box(i)
        d.rectangle((x0, y0, x1, y1), fill=TERRAIN_COLOURS.get(ter, (200, 200, 200)))
        res = {"forest": "wood", "sea": "fish", "field": "carrots"}.get(ter)
        if res:
            img.alpha_composite(resource_icon(res, 18), (x1 - 21, y0 + 3))
        name = f"{ROWS[i // 10]}{i % 10 + 1}"
        d.text((x0 + 3, y0 + 2), name, font=small, fill=(35, 35, 35))
    for k in range(11):
        x = MARGIN + LABEL + k * CELL
        y = HEADER + LABEL + k * CELL
        d.line((x, HEADER + LABEL, x, HEADER + LABEL + BOARD_PX), fill=GRID, width=1)
        d.line((MARGIN + LABEL, y, MARGIN + LABEL + BOARD_PX, y), fill=GRID, width=1)
    for k in range(10):
        cx = MARGIN + LABEL + k * CELL + CELL // 2
        cy = HEADER + LABEL + k * CELL + CELL // 2
        for yy in (HEADER + LABEL // 2, HEADER + LABEL + BOARD_PX + LABEL // 2):
            d.text((cx, yy), str(k + 1), font=label, fill=INK, anchor="mm")
        for xx in (MARGIN + LABEL // 2, MARGIN + LABEL + BOARD_PX + LABEL // 2):
            d.text((xx, cy), ROWS[k], font=label, fill=INK, anchor="mm")
    index = {f"{ROWS[i // 10]}{i % 10 + 1}": i for i in range(100)}
    for a, b in lava:
        ia, ib = index[a], index[b]
        ax0, ay0, ax1, ay1 = _cell_box(min(ia, ib))
        if abs(ia - ib) == 1:  # side by side: a vertical flow on the shared edge
            d.line((ax1, ay0 + 2, ax1, ay1 - 2), fill=LAVA, width=7)
        else:
            d.line((ax0 + 2, ay1, ax1 - 2, ay1), fill=LAVA, width=7)
    return img


# --- the board ------------------------------------------------------------------------------
def _seat_block_height(view: dict[str, Any]) -> int:
    """Room for one player's block; once the parchments are revealed the game is decided:
    the block drops the waiting buildings and last cards to leave room for the parchments."""
    return 112 if view["phase"] in ("copy", "over") else 172


def render_board(view: dict[str, Any], *, names: list[str], lang: str = "en") -> bytes:
    """The channel image of a Bunny Kingdom game, from the spectator view."""
    n = view["players"]
    board = view["board"]
    revealed = view["phase"] in ("copy", "over")
    panel_h = HEADER + 44 + n * _seat_block_height(view) + (
        _final_height(view) if revealed else 0)
    height = max(HEADER + LABEL * 2 + BOARD_PX + MARGIN, panel_h + MARGIN)
    img = map_layer(tuple(board["terrain"]), tuple(tuple(p) for p in board["lava"]),
                    height).copy()
    d = ImageDraw.Draw(img)
    _header(d, view, names, lang)
    _pieces(img, d, view)
    _panel(img, d, view, names, lang)
    return to_png(img)


def _header(d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], lang: str) -> None:
    parts = [_tr(lang, "name"), _lbl(lang, "round", round=view["round"], rounds=view["rounds"]),
             _tr(lang, f"phase.{view['phase']}")]
    if view["phase"] == "explore":
        parts.append(_lbl(lang, "step", step=view["step"], steps=view["steps"]))
        parts.append(_tr(lang, f"direction.{view['direction']}"))
    parts.append(_lbl(lang, "deck", n=view["deck"]))
    d.text((MARGIN, HEADER // 2), "  ·  ".join(parts), font=font(19, True), fill=INK, anchor="lm")
    offer = view.get("camp_offer")
    if offer:
        text = _lbl(lang, "camp_offer", priority=offer["card"][5:], player=names[offer["seat"]])
        d.text((WIDTH - MARGIN, HEADER // 2), text, font=font(16, True),
               fill=SEAT_COLOURS[offer["seat"]], anchor="rm")


def _pieces(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    board = view["board"]
    coords = board["coords"]
    index = {c: i for i, c in enumerate(coords)}
    pair_of: dict[int, str] = {}
    for k, (a, b) in enumerate(board["towers"], start=1):
        pair_of[index[a]] = pair_of[index[b]] = str(k)
        owner = board["owner"][index[a]]
        (ax, ay, ax1, ay1), (bx, by, bx1, by1) = _cell_box(index[a]), _cell_box(index[b])
        d.line(((ax + ax1) // 2, (ay + ay1) // 2, (bx + bx1) // 2, (by + by1) // 2),
               fill=SEAT_COLOURS[owner % len(SEAT_COLOURS)] if owner >= 0 else SOFT, width=2)
    for i, building in enumerate(board["building"]):
        x0, y0, x1, y1 = _cell_box(i)
        owner = board["owner"][i]
        if owner >= 0:
            # a frame in the owner's colour makes fiefs readable at a glance
            d.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1),
                        outline=SEAT_COLOURS[owner % len(SEAT_COLOURS)], width=3)
        if building:
            icon = building_icon(building, 34, resource=view["posts"].get(coords[i], ""),
                                 pair=pair_of.get(i, ""))
            img.alpha_composite(icon, (x0 + 4, y1 - 38))
        if owner >= 0:
            img.alpha_composite(rabbit_icon(owner, 28), (x1 - 31, y1 - 31))


def _wrap(d: ImageDraw.ImageDraw, text: str, fnt: Any, width: int) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        trial = f"{line} {word}".strip()
        if d.textlength(trial, font=fnt) <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def _grouped(kinds: list[str], lang: str) -> str:
    counts: dict[str, int] = {}
    for k in kinds:
        counts[k] = counts.get(k, 0) + 1
    return ", ".join(_card_name(lang, k) + (f" ×{c}" if c > 1 else "") for k, c in counts.items())


def _panel(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str],
           lang: str) -> None:
    x = MARGIN + LABEL * 2 + BOARD_PX + MARGIN
    y = HEADER + 6
    totals = view["totals"]
    top = max([100, *totals])
    small, normal, bold = font(13), font(15), font(17, True)
    block = _seat_block_height(view)
    winners = view["ranking"][0] if view.get("ranking") else []
    for s in range(view["players"]):
        seat = view["seats"][s]
        colour = SEAT_COLOURS[s % len(SEAT_COLOURS)]
        d.rounded_rectangle((x, y, x + PANEL_W, y + block - 8), 8, fill=(255, 255, 255),
                            outline=colour, width=3)
        img.alpha_composite(rabbit_icon(s, 26), (x + 8, y + 6))
        name = names[s] if s < len(names) else f"#{s + 1}"
        flag = ""
        if s in view["to_act"]:
            flag = "  ◀ " + _lbl(lang, "to_act")
        elif seat["picked"]:
            flag = "  ✓ " + _lbl(lang, "picked")
        if s in winners:
            flag = "  ★ " + _lbl(lang, "winner")
        d.text((x + 40, y + 19), name + flag, font=bold, fill=INK, anchor="lm")
        d.text((x + PANEL_W - 10, y + 19), str(totals[s]), font=font(22, True), fill=colour,
               anchor="rm")
        # the score track: everyone on the same scale
        bar_y = y + 38
        d.rectangle((x + 10, bar_y, x + PANEL_W - 10, bar_y + 8), fill=(235, 230, 220))
        filled = int((PANEL_W - 20) * totals[s] / top)
        d.rectangle((x + 10, bar_y, x + 10 + filled, bar_y + 8), fill=colour)
        line_y = bar_y + 16
        info = _lbl(lang, "territories", n=seat["territories"], fiefs=seat["fiefs"]) + "   " + \
            _lbl(lang, "scrolls", n=seat["scrolls"])
        if view["players"] == 2 and view["phase"] == "explore":
            info += "   " + _lbl(lang, "reserve", n=seat["reserve"])
        d.text((x + 10, line_y), info, font=normal, fill=INK)
        line_y += 22
        if view["phase"] in ("copy", "over"):
            _harvest_lines(d, view, s, x, line_y, small, lang)
            y += block
            continue
        waiting = _grouped(seat["waiting"], lang) or _lbl(lang, "nothing")
        for k, line in enumerate(_wrap(d, _lbl(lang, "waiting") + " " + waiting, small,
                                       PANEL_W - 20)[:2]):
            d.text((x + 10, line_y + k * 16), line, font=small, fill=INK)
        line_y += 36
        played = [_lbl(lang, "scroll_back") if k == "scroll" else _card_name(lang, k)
                  for k in view["last_play"][s]]
        if played:
            text = _lbl(lang, "last_play") + " " + ", ".join(played)
            for k, line in enumerate(_wrap(d, text, small, PANEL_W - 20)[:2]):
                d.text((x + 10, line_y + k * 16), line, font=small, fill=SOFT)
        line_y += 36
        _harvest_lines(d, view, s, x, line_y, small, lang)
        y += block
    if view["phase"] in ("copy", "over"):
        _final(d, view, names, lang, x, y)


def _harvest_lines(d: ImageDraw.ImageDraw, view: dict[str, Any], s: int, x: int, y: int,
                   fnt: Any, lang: str) -> None:
    """Carrots of each harvest so far, and the parchments' points once scored."""
    harvests = [sum(f["points"] for f in record[s]) for record in view["harvests"]]
    text = ""
    if harvests:
        text = _lbl(lang, "harvest") + ": " + " + ".join(str(h) for h in harvests)
    if view.get("final"):
        points = sum(line["points"] for line in view["final"][s])
        text += "    " + _lbl(lang, "parchment_points", points=points)
    if text:
        d.text((x + 10, y), text.strip(), font=fnt, fill=INK)


def _final_height(view: dict[str, Any]) -> int:
    if not view.get("final"):
        return 0
    rows = sum((len(lines) + 1) // 2 for lines in view["final"])
    return 34 + rows * 17 + 16 * view["players"]


def _final(d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], lang: str,
           x: int, y: int) -> None:
    """Each player's parchments with their points (two columns per player)."""
    if not view.get("final"):
        return
    d.text((x, y + 4), _lbl(lang, "final"), font=font(18, True), fill=INK)
    y += 30
    small = font(12)
    for s, lines in enumerate(view["final"]):
        parchments = sum(line["points"] for line in lines)
        who = names[s] if s < len(names) else f"#{s + 1}"
        d.text((x, y), who, font=font(13, True), fill=SEAT_COLOURS[s % len(SEAT_COLOURS)])
        d.text((x + 12 + d.textlength(who, font=font(13, True)), y),
               _lbl(lang, "breakdown", harvest=view["totals"][s] - parchments,
                    parchments=parchments, total=view["totals"][s]), font=font(12), fill=SOFT)
        y += 16
        for k, line in enumerate(lines):
            name = _card_name(lang, line["card"])
            if line["kind"] and line["kind"] != line["card"]:
                name += " → " + _card_name(lang, line["kind"])
            col, row = k % 2, k // 2
            d.text((x + 8 + col * (PANEL_W // 2), y + row * 17), f"{name}: {line['points']}",
                   font=small, fill=INK)
        y += ((len(lines) + 1) // 2) * 17


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



HAND_W = 860
ROW_H = 46


def render_hand(view: dict[str, Any], *, names: list[str], lang: str = "en") -> bytes:
    """A seat's private view: hand (name and effect of each card), its pick, buildings
    waiting, parchments, and (2 players) the cards it discarded face down."""
    private = view["private"]
    seat = private["seat"]
    terrain = dict(zip(view["board"]["coords"], view["board"]["terrain"], strict=True))
    sections: list[tuple[str, list[str], bool]] = [
        (_lbl(lang, "hand"), private["hand"], True),
        (_lbl(lang, "your_pick"), private["pick"] or [], True),
        (_lbl(lang, "your_waiting"), private["waiting"], False),
        (_lbl(lang, "your_scrolls"), private["scrolls"], False),
        (_lbl(lang, "discarded"), private["hidden_discards"], False),
    ]
    sections = [x for n, x in enumerate(sections) if x[1] or n == 0]
    height = 60 + sum(34 + max(1, len(cards)) * ROW_H for _, cards, _ in sections) + MARGIN
    img = Image.new("RGBA", (HAND_W, height), PAPER + (255,))
    d = ImageDraw.Draw(img)
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    img.alpha_composite(rabbit_icon(seat, 34), (MARGIN, 12))
    title = f"{names[seat] if seat < len(names) else ''} · " + _lbl(
        lang, "round", round=view["round"], rounds=view["rounds"]) + " · " + _tr(
        lang, f"phase.{view['phase']}")
    d.text((MARGIN + 44, 30), title, font=font(20, True), fill=colour, anchor="lm")
    y = 60
    name_font, text_font = font(16, True), font(14)
    for heading, cards, hints in sections:
        d.text((MARGIN, y + 6), heading, font=font(17, True), fill=INK)
        y += 34
        if not cards:
            d.text((MARGIN + 10, y + 10), _lbl(lang, "nothing"), font=text_font, fill=SOFT)
            y += ROW_H
        for kind in cards:
            ter = terrain.get(kind, "")
            d.rounded_rectangle((MARGIN, y, HAND_W - MARGIN, y + ROW_H - 6), 6,
                                fill=(255, 255, 255), outline=(200, 190, 175))
            img.alpha_composite(card_icon(kind, ter, 34), (MARGIN + 4, y + 3))
            if ter:
                name = f"{kind} · {_tr(lang, f'terrain.{ter}')}"
                effect = _territory_hint(view, seat, kind, names, lang) if hints else \
                    _tr(lang, "card.territory.text")
            else:
                name = _card_name(lang, kind)
                effect = _tr(lang, f"card.{kind}.text")
            d.text((MARGIN + 46, y + 3), name, font=name_font, fill=INK)
            d.text((MARGIN + 46, y + 22), _wrap(d, effect, text_font, HAND_W - 80)[0],
                   font=text_font, fill=SOFT)
            y += ROW_H
    return to_png(img)
