"""The click model of issue 25: how a player clicks their way to one chosen move.

One rule, shared by ``bench/bench_clicks.py`` (real bot, stand-in Discord) and the tests
(the same components built by ``session.present``): among the components a message offers,
click the one that plays the move, else the one that opens the move's preview, else the
picker step that leads on to it (``session.picker.covers``), else "My move" (the picker's
start). A click is one interaction (a button, or a choice in a menu); a tap counts what a
thumb does (a menu is opened, then an option chosen: two).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engines
from db.store import SeatRow, SessionRow
from session import ids, present, specs
from session.picker import covers


@dataclass(frozen=True)
class Target:
    custom_id: str
    value: str | None
    #: the click plays the move (``act``), or opens a step or a preview (``pick``)
    kind: str
    payload: str


def targets(options: list[tuple[str, str | None]]) -> list[Target]:
    out = []
    for custom_id, value in options:
        parsed = ids.parse(custom_id)
        if parsed is None:
            continue
        if parsed.kind == "select" and value is not None:
            kind, _, payload = value.partition(":")
            out.append(Target(custom_id, value, {"a": "act", "p": "pick"}.get(kind, "?"), payload))
        elif parsed.kind in ("act", "pick"):
            out.append(Target(custom_id, value, parsed.kind, parsed.payload))
    return out


def toward(options: list[tuple[str, str | None]], code: str, codes: list[str]) -> Target:
    """The click that brings a player nearest to playing ``code`` (one of ``codes``)."""
    found = targets(options)
    for wanted in (
        lambda o: o.kind == "act" and o.payload == code,
        lambda o: o.kind == "pick" and o.payload == code,  # its preview, then Confirm
        lambda o: o.kind == "pick" and o.payload != "" and covers(o.payload, code, codes),
        lambda o: o.kind == "pick" and o.payload == "",  # "My move": the picker's start
    ):
        hit = next((o for o in found if wanted(o)), None)
        if hit is not None:
            return hit
    raise AssertionError(f"no component leads to {code!r}: {options}")


def session_row(game_id: str, players: int, version: int) -> SessionRow:
    return SessionRow(
        id=123456789, guild_id=1, channel_id=2, game_id=game_id, status="active", creator_id=1,
        players=players, options={"variants": []}, seed=0, state_json=None, version=version,
        lang="en", turn_message_id=None, result=None, created_at="", updated_at="",
        finished_at=None, seats=[SeatRow(s, 100 + s, f"P{s}") for s in range(players)])


def options_of(rows: list[list[Any]]) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for row in rows:
        for item in row:
            if isinstance(item, specs.SelectSpec):
                out += [(item.custom_id, value) for _, value in item.options]
            else:
                out.append((item.custom_id, None))
    return out


def model_move(row: SessionRow, state: dict[str, Any], seat: int, code: str,
               lang: str = "en") -> tuple[int, int]:
    """(clicks, taps) to play ``code`` from the channel's turn message, with the components
    ``session.present`` builds (what the bot sends; a preview's Confirm is one click)."""
    game = engines.get(row.game_id)
    codes = game.legal_actions(state, seat)
    rows = present.turn_rows(row, state, game.to_act(state), lang)
    taps = 0
    for clicks in range(1, 13):
        target = toward(options_of(rows), code, codes)
        taps += 1 if target.value is None else 2
        if target.kind == "act":
            assert target.payload == code
            return clicks, taps
        if target.payload == code and present.previewed(row.game_id, code):
            return clicks + 1, taps + 1  # the preview's Confirm button
        rows = present.picker_rows(row, state, codes, target.payload, lang)
    raise AssertionError(f"{code!r} not reached in 12 clicks")
