"""A game's words for a reader: translation keys with their params made readable (seats
become names, game terms are translated with the grammatical forms templates ask for)."""

from __future__ import annotations

from typing import Any

import engines
from db.store import SessionRow
from session.seatnames import seat_name
from text.catalog import lookup, name, t


def names(row: SessionRow) -> list[str]:
    return [seat.name for seat in row.seats]


def param_text(game_id: str, lang: str, row: SessionRow, key: str, value: Any) -> Any:
    if key == "scores" and isinstance(value, list) and len(value) == len(row.seats):
        # an engine's scores per seat ("20 / 16") read with the players' names
        return " · ".join(f"{seat_name(seat, lang)} {points}"
                          for seat, points in zip(row.seats, value, strict=True))
    if isinstance(value, tuple | list) and len(value) == 2 and isinstance(value[0], str) \
            and isinstance(value[1], dict):
        return text(game_id, lang, row, value[0], value[1])
    if isinstance(value, list | tuple):
        return ", ".join(str(param_text(game_id, lang, row, key, v)) for v in value)
    if isinstance(value, str):
        if key == "choice":
            return t(lang, value)
        term = f"game.{value}" if key == "game" else f"{game_id}.term.{value}"
        return name(lang, term) if lookup(lang, term) is not None else value
    return value


def text(game_id: str, lang: str, row: SessionRow, key: str, params: dict[str, Any]) -> str:
    """Translate ``key`` with params made readable: seats become names, terms are translated."""
    shown = {k: param_text(game_id, lang, row, k, v) for k, v in params.items()}
    seat = params.get("seat")
    if isinstance(seat, int) and 0 <= seat < len(row.seats):
        shown["player"] = row.seats[seat].name  # named for the reader (reader_row) by callers
    return name(lang, key, **shown)  # a nested name keeps its forms for the outer template


def describe(row: SessionRow, state: dict[str, Any], code: str, lang: str) -> str:
    key, params = engines.get(row.game_id).describe(state, code)
    return text(row.game_id, lang, row, key, params)
