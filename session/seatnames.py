"""Seat names as each reader sees them: a computer player's name comes from the catalog in
the reader's language, whatever language the lobby that added it had ('Komputer 3 (łatwy)'
stored, 'Комп'ютер 3 (легкий)' shown in a Ukrainian DM)."""

from __future__ import annotations

import dataclasses
import functools
import re

from db.store import SeatRow, SessionRow
from text.catalog import LANGUAGES, t


@functools.cache
def _computer_names() -> re.Pattern[str]:
    """A computer seat's stored name in any language ('Komputer 3 (łatwy)'): the name was
    written in the lobby's language, and is shown again in each reader's."""
    numbered = "|".join(
        re.escape(t(lang, "ui.computer_name", n=0)).replace("0", rf"(?P<n{i}>\d+)")
        for i, lang in enumerate(LANGUAGES))
    return re.compile(rf"^(?:{numbered})(?: \(.+\))?$")


def seat_name(seat: SeatRow, lang: str) -> str:
    """The name of a seat as ``lang``'s reader sees it: a computer player's from the catalog."""
    found = _computer_names().match(seat.name) if seat.is_bot else None
    if found is None:
        return seat.name
    number = int(next(n for n in found.groups() if n is not None))
    shown = t(lang, "ui.computer_name", n=number)
    if seat.level is not None and seat.name.endswith(")"):
        shown += f" ({t(lang, f'bots.level.{seat.level}')})"
    return shown


def reader_row(row: SessionRow, lang: str) -> SessionRow:
    """``row`` with every seat named for ``lang``'s reader (see :func:`seat_name`)."""
    if not any(seat.is_bot for seat in row.seats):
        return row
    return dataclasses.replace(row, seats=[dataclasses.replace(seat, name=seat_name(seat, lang))
                                           for seat in row.seats])
