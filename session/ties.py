"""How a tie on points was broken, in words: the rulebook's tie-breaks an engine names
(``Game.tiebreaks``, stored with the result) with each tied player's number, or that every
tie-break was equal and the place is shared."""

from __future__ import annotations

from db.store import SessionRow
from text.catalog import t


def tie_lines(row: SessionRow, lang: str) -> list[str]:
    """One line per tie on points (and per tie a tie-break left): the tie-break that decided
    it with each tied player's number, or that the place is shared. ``row``'s seats are named
    for the reader already (``seatnames.reader_row``)."""
    result = row.result or {}
    if "tiebreaks" not in result:
        return []  # a result stored before the tie-breaks were kept cannot say
    totals = result.get("totals", [])
    order = [seat for group in result.get("ranking", []) for seat in group]
    lines: list[str] = []
    done: set[int] = set()
    for seat in order:
        tied = [s for s in order if totals[s] == totals[seat]]
        if len(tied) > 1 and seat not in done:
            done.update(tied)
            lines += _tie(row, lang, tied, totals[seat], 0, "")
    return lines


def _tie(row: SessionRow, lang: str, tied: list[int], total: int, start: int,
         equal: str) -> list[str]:
    """``tied`` (equal on points and on the tie-breaks before ``start``) explained from the
    tie-break ``start`` on; those a tie-break leaves equal are explained by the next ones."""
    breaks = (row.result or {}).get("tiebreaks", [])
    players = ", ".join(row.seats[s].name for s in tied)
    for index in range(start, len(breaks)):
        key, values = breaks[index]
        rule = t(lang, key)
        if len({values[s] for s in tied}) == 1:
            equal += t(lang, "ending.tie_equal", rule=rule, value=values[tied[0]])
            continue
        lines = [t(lang, "ending.tie_broken", players=players, total=total, equal=equal,
                   rule=rule, values=" · ".join(f"{row.seats[s].name} {values[s]}"
                                                for s in tied))]
        for value in sorted({values[s] for s in tied}, reverse=True):
            still = [s for s in tied if values[s] == value]
            if len(still) > 1:
                lines += _tie(row, lang, still, total, index + 1,
                              t(lang, "ending.tie_equal", rule=rule, value=value))
        return lines
    return [t(lang, "ending.tie_shared", players=players, total=total, equal=equal)]
