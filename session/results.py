"""A finished game's results in words: the places, how each tie was broken, and each seat's
score breakdown, within one message or split into whole-line messages of their own."""

from __future__ import annotations

from db.store import SessionRow
from session.seatnames import reader_row
from session.specs import MAX_CONTENT
from session.ties import tie_lines
from session.wording import text
from text.catalog import t


def final_lines(row: SessionRow, lang: str) -> list[str]:
    """Final results: the places first, then how each tie was broken, then each seat's score
    breakdown (when it all fits one message; else :func:`breakdown_messages` carries them)."""
    row = reader_row(row, lang)
    if not row.result:
        return [t(lang, "ui.ended_no_result")]
    result = row.result
    if row.status == "abandoned":  # no places: an abandoned game names no winner
        lines = [t(lang, "ui.abandoned_results")]
        lines += [t(lang, "ui.abandoned_score", player=seat.name, total=result["totals"][seat.seat])
                  for seat in row.seats]
        if result.get("forfeit") is not None:
            lines.append(t(lang, "ui.forfeit", player=row.seats[result["forfeit"]].name))
        return lines
    lines = [t(lang, "ui.final_results")]
    for place, group in enumerate(result["ranking"], start=1):
        for seat in group:
            lines.append(t(lang, "ui.place", place=place, player=row.seats[seat].name,
                           total=result["totals"][seat],
                           shared=t(lang, "ui.shared") if len(group) > 1 else "").rstrip())
    lines += tie_lines(row, lang)
    details = _with_breakdown(row, lang)
    if not _too_long(lines + details):
        lines += details
    # else too long for one message (clipping would cut lines off): the breakdowns go in
    # messages of their own (breakdown_messages), the places and ties stay here
    return lines


def _too_long(lines: list[str]) -> bool:
    return len("\n".join(lines)) > MAX_CONTENT * 3 // 4


def breakdown_messages(row: SessionRow, lang: str) -> list[str]:
    """Each seat's score breakdown, when the final results had no room for it (else none):
    messages of whole lines, in ranking order, each opening with the player's name."""
    row = reader_row(row, lang)
    if not row.result or row.status == "abandoned" or "ranking" not in row.result:
        return []
    if any(line.startswith("  · ") for line in final_lines(row, lang)):
        return []
    out: list[str] = []
    for group in row.result["ranking"]:
        for seat in (s for s in group if row.result["breakdown"][s]):
            chunk = [t(lang, "ui.breakdown_of", player=row.seats[seat].name,
                       total=row.result["totals"][seat])]
            for key, points, params in row.result["breakdown"][seat]:
                line = "· " + text(row.game_id, lang, row, key, params) + f" = {points}"
                if len("\n".join([*chunk, line])) > MAX_CONTENT:
                    out.append("\n".join(chunk))
                    chunk = [t(lang, "ending.breakdown_more", player=row.seats[seat].name)]
                chunk.append(line)
            out.append("\n".join(chunk))
    return out


def _with_breakdown(row: SessionRow, lang: str) -> list[str]:
    """Each seat's breakdown under its name, in ranking order."""
    result = row.result or {}
    lines = []
    for seat in [s for group in result.get("ranking", []) for s in group]:
        if not result["breakdown"][seat]:
            continue
        lines.append(t(lang, "ui.breakdown_of", player=row.seats[seat].name,
                       total=result["totals"][seat]))
        lines += ["  · " + text(row.game_id, lang, row, key, params) + f" = {points}"
                  for key, points, params in result["breakdown"][seat]]
    return lines
