"""The text of the Bunny Kingdom board: the header, each player's lines and the final
parchments, wrapped and joined to fit their width."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import ImageDraw

from render.bunny_kingdom.style import BLOCK_W, PANEL_W, SOFT, TEXT_PX, card_name, lbl, tr, who
from render.common import INK, dotted_lines, font, text_width


def header_parts(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    parts = [tr(lang, "name"), lbl(lang, "round", round=view["round"], rounds=view["rounds"]),
             tr(lang, f"phase.{view['phase']}")]
    if view["phase"] == "explore":
        parts.append(lbl(lang, "step", step=view["step"], steps=view["steps"]))
        parts.append(lbl(lang, "pass_to", direction=tr(lang, f"direction.{view['direction']}"),
                          order=_pass_order(view, names)))
    parts.append(lbl(lang, "deck", n=view["deck"]))
    offer = view.get("camp_offer")
    if offer:
        parts.append(lbl(lang, "camp_offer", priority=offer["card"][5:],
                          player=who(names, offer["seat"])))
    return parts


def _pass_order(view: dict[str, Any], names: list[str]) -> str:
    """Who passes to whom: "Ada → Bolek → Cyryl → Ada" (2 players: "Ada ⇄ Bolek")."""
    n = view["players"]
    if n == 2:
        return f"{who(names, 0)} ⇄ {who(names, 1)}"
    step = 1 if view["direction"] == "left" else -1
    order = [(k * step) % n for k in range(n + 1)]
    return " → ".join(who(names, s) for s in order)


def wrap(d: ImageDraw.ImageDraw, text: str, fnt: Any, width: int) -> list[str]:
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


def joined(d: ImageDraw.ImageDraw, parts: list[str], fnt: Any, width: int) -> list[str]:
    """``parts`` joined with dots into as few lines as fit ``width``, a part too long for a
    line wrapped."""
    return dotted_lines(parts, fnt, width, lambda part: wrap(d, part, fnt, width))


def grouped(kinds: list[str], lang: str) -> str:
    counts: dict[str, int] = {}
    for k in kinds:
        counts[k] = counts.get(k, 0) + 1
    return ", ".join(card_name(lang, k) + (f" ×{c}" if c > 1 else "") for k, c in counts.items())


def seat_lines(d: ImageDraw.ImageDraw, view: dict[str, Any], s: int, lang: str
                ) -> list[tuple[str, tuple[int, int, int]]]:
    """The text lines of a player's block below its name and score bar."""
    seat = view["seats"][s]
    small = font(TEXT_PX)
    width = BLOCK_W - 20
    info = [lbl(lang, "territories", n=seat["territories"], fiefs=seat["fiefs"]),
            lbl(lang, "scrolls", n=seat["scrolls"])]
    if view["players"] == 2 and view["phase"] == "explore":
        info.append(lbl(lang, "reserve", n=seat["reserve"]))
    lines = [(line, INK) for line in joined(d, info, small, width)]
    if view["phase"] not in ("copy", "over"):
        waiting = grouped(seat["waiting"], lang) or lbl(lang, "nothing")
        lines += [(line, INK) for line in
                  wrap(d, lbl(lang, "waiting") + " " + waiting, small, width)[:2]]
        played = [lbl(lang, "scroll_back") if k == "scroll" else card_name(lang, k)
                  for k in view["last_play"][s]]
        if played:
            text = lbl(lang, "last_play") + " " + ", ".join(played)
            lines += [(line, SOFT) for line in wrap(d, text, small, width)[:2]]
    harvests = [sum(f["points"] for f in record[s]) for record in view["harvests"]]
    scored = []
    if harvests:
        scored.append(lbl(lang, "harvest") + ": " + " + ".join(str(h) for h in harvests))
    if view.get("final"):
        points = sum(line["points"] for line in view["final"][s])
        scored.append(lbl(lang, "parchment_points", points=points))
    lines += [(line, INK) for line in joined(d, scored, small, width)]
    return lines


def final_lines(d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], lang: str
                 ) -> list[tuple[str, Any, tuple[int, int, int], int]]:
    """Everyone's revealed parchments: (text, font, colour, indent) lines."""
    if not view.get("final"):
        return []
    out: list[tuple[str, Any, tuple[int, int, int], int]] = [
        (lbl(lang, "final"), font(TEXT_PX + 3, True), INK, 0)]
    small = font(TEXT_PX)
    for s, lines in enumerate(view["final"]):
        parchments = sum(line["points"] for line in lines)
        out.append((who(names, s) + "  " + lbl(
            lang, "breakdown", harvest=view["totals"][s] - parchments, parchments=parchments,
            total=view["totals"][s]), font(TEXT_PX, True), INK, 0))
        items = []
        for line in lines:
            name = card_name(lang, line["card"])
            if line["kind"] and line["kind"] != line["card"]:
                name += " → " + card_name(lang, line["kind"])
            items.append(f"{name}: {line['points']}")
        for text in joined(d, items, small, PANEL_W - 16):
            out.append((text, small, INK, 12))
    return out


