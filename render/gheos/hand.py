"""A Gheos player's hand image (private): each tile in its three rotations."""

from __future__ import annotations

import math
from typing import Any

from render.canvas import Canvas, line_height, seat_mark
from render.common import INK, PAPER, min_icon_px, min_label_px
from render.gheos.tiles import MARGIN, PALETTE, tile_key, tile_pixels
from text.catalog import t


def render_hand(view: dict[str, Any], *, names: list[str], lang: str = "en") -> bytes:
    """A seat's hand tiles, each shown in its three rotations (r0, r1, r2) as it would lie
    on an up-pointing cell (a down-pointing cell shows it turned half a turn)."""
    return hand_canvas(view, names=names, lang=lang).png()


def hand_canvas(view: dict[str, Any], *, names: list[str], lang: str = "en") -> Canvas:
    private = view.get("private") or {}
    hand = private.get("hand", [])
    seat = private.get("seat", 0)
    s = 120
    h = s * math.sqrt(3) / 2
    width = MARGIN * 2 + 3 * (s + 24)
    fs = max(min_label_px(width), 14)
    row_h = int(h + 2 * line_height(fs, True) + 12)
    height = 56 + max(1, len(hand)) * row_h
    canvas = Canvas(width, height, PALETTE, PAPER)
    name = names[seat] if seat < len(names) else f"#{seat + 1}"
    seat_mark(canvas, seat, (MARGIN + fs / 2 + 2, MARGIN + 14), fs / 2 + 2,
              outline_only=True)
    canvas.text((MARGIN + fs + 12, MARGIN + 14), t(lang, "gheos.ui.hand", player=name), fs + 4,
                INK, PAPER, bold=True, anchor="lm")
    if not hand:
        canvas.text((MARGIN, 48), t(lang, "gheos.ui.hand_empty"), fs, INK, PAPER)
    y = 44
    for entry in hand:
        canvas.text((MARGIN, y), entry["id"], fs + 2, INK, PAPER, bold=True)
        top = y + line_height(fs + 2, True) + 2
        for rot in range(3):
            parts = [{"kind": p["kind"], "slots": sorted((e + rot) % 3 for e in p["edges"]),
                      "symbols": p["symbols"]} for p in entry["parts"]]
            x = MARGIN + rot * (s + 24)
            sym_px = max(min_icon_px(width), s // 5)
            canvas.paste(tile_pixels(tile_key(parts, "slots"), True, s, False, sym_px), (x, top))
            for p in parts:  # the sprite is cached: its symbols are noted here
                for _ in p["symbols"]:
                    canvas.icon("symbol", sym_px)
            canvas.text((x + s / 2, top + h + 4), f"r{rot}", fs, INK, PAPER, bold=True,
                        anchor="ma")
        y += row_h
    return canvas
