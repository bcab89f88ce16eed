"""A Dwóch następców seat's hand image (private): the tiles in hand, large, with their effects
and, for the mover, the resources."""

from __future__ import annotations

from typing import Any

from render.canvas import Canvas, line_height, wrap
from render.common import INK, PAPER, min_label_px
from render.dwoch_nastepcow.tiles import HAND, PALETTE, RESOURCE_COLOURS, TABLE, P, effect_text, tile_face
from text.catalog import t


def render_hand(view: dict[str, Any], *, names: list[str], lang: str = "en") -> bytes:
    """A seat's private picture: the tiles in hand, large, with their effects and costs."""
    return hand_canvas(view, names=names, lang=lang).png()


def hand_canvas(view: dict[str, Any], *, names: list[str], lang: str = "en") -> Canvas:
    private = view.get("private") or {}
    hand = private.get("hand", [])
    seat = private.get("seat", 0)
    count = max(1, len(hand))
    width = max(440, 24 + count * (HAND + 16) + 8)
    fs = max(13, min_label_px(width))
    line = line_height(fs) + 2
    texts = [wrap(effect_text(face, lang), HAND, fs)[:4] for face in hand]
    caption = max([len(x) for x in texts] + [1]) * line
    mover = view.get("mover")
    mine = bool(mover and mover["seat"] == seat)
    height = 42 + HAND + 12 + caption + (line + 24 if mine else 12)
    canvas = Canvas(width, height, PALETTE, TABLE)
    name = names[seat] if seat < len(names) else ""
    canvas.text((16, 20), f"{t(lang, f'{P}render.your_hand')} · {name}", fs + 3, PAPER, TABLE,
                bold=True, anchor="lm")
    if not hand:
        canvas.text((16, 80), t(lang, f"{P}render.empty_hand"), fs + 1, PAPER, TABLE,
                    anchor="lm")
    for i, face in enumerate(hand):
        x = 24 + i * (HAND + 16)
        canvas.paste(tile_face(face, lang, HAND, 18), (x, 42))
        canvas.icon("tile", HAND)
        for k, row in enumerate(texts[i]):
            canvas.text((x, HAND + 50 + k * line), row, fs, PAPER, TABLE)
    if mine:
        assert mover is not None
        y = 42 + HAND + 12 + caption + 4
        m = y + line / 2
        box = canvas.text((16, m), t(lang, f"{P}render.resources") + ":", fs, PAPER, TABLE,
                          anchor="lm")
        x = box[2] + 12
        for res in ("wood", "wheat", "stone"):
            canvas.icon("resource", 18)
            canvas.draw.ellipse((x, m - 9, x + 18, m + 9), fill=canvas.c(RESOURCE_COLOURS[res]),
                                outline=canvas.c(INK))
            box = canvas.text((x + 24, m), str(mover["resources"][res]), fs + 2, PAPER, TABLE,
                              bold=True, anchor="lm")
            x = box[2] + 16
        if mover["discounts"]:
            canvas.text((x + 8, m), t(lang, f"{P}render.discounts", n=mover["discounts"]), fs,
                        PAPER, TABLE, anchor="lm")
    return canvas
