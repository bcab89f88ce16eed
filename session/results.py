"""A finished game's results in words: the places, how each tie was broken, and each seat's
score breakdown, within one message or, when it does not fit, in a text file attached to a
message of its own."""

from __future__ import annotations

from db.store import SessionRow
from session.seatnames import reader_row
from session.specs import MAX_CONTENT, MessageSpec, alt_text
from session.ties import tie_lines
from session.wording import text
from text.catalog import t


def final_lines(row: SessionRow, lang: str) -> list[str]:
    """Final results: the places first, then how each tie was broken, then each seat's score
    breakdown (when it all fits one message; else :func:`breakdown_message` carries them)."""
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
    # else too long for one message (clipping would cut lines off): the breakdowns go in a
    # file of their own (breakdown_message), the places and ties stay here
    return lines


def _too_long(lines: list[str]) -> bool:
    return len("\n".join(lines)) > MAX_CONTENT * 3 // 4


def breakdown_message(row: SessionRow, lang: str) -> MessageSpec | None:
    """Each seat's score breakdown, when the final results had no room for it (else None):
    one message whose attached text file holds every breakdown whole, in ranking order, each
    section opening with the player's name and total; a file, not messages split at Discord's
    2,000 characters, so no line is ever cut and the channel gets one post, not several."""
    row = reader_row(row, lang)
    if not row.result or row.status == "abandoned" or "ranking" not in row.result:
        return None
    if any(line.startswith("  · ") for line in final_lines(row, lang)):
        return None
    sections: list[str] = []
    for group in row.result["ranking"]:
        for seat in (s for s in group if row.result["breakdown"][s]):
            # plain text: the file is not markdown, so the heading loses its stars
            head = t(lang, "ui.breakdown_of", player=row.seats[seat].name,
                     total=row.result["totals"][seat]).replace("**", "")
            sections.append("\n".join([head, *(
                "· " + text(row.game_id, lang, row, key, params) + f" = {points}"
                for key, points, params in row.result["breakdown"][seat])]))
    if not sections:
        return None
    return MessageSpec(
        content=t(lang, "ending.breakdown_file"),
        image=("\n\n".join(sections) + "\n").encode("utf-8"), filename="scores.txt",
        description=alt_text([t(lang, "ending.alt_final", places=places_inline(row, lang)),
                              t(lang, "ending.alt_breakdown_file")]))


def places_inline(row: SessionRow, lang: str) -> str:
    """The places on one line ('1. Bo 9 · 2. Ala 3'), for alt texts."""
    result = row.result or {}
    return " · ".join(f"{place}. {row.seats[seat].name} {result['totals'][seat]}"
                      for place, group in enumerate(result.get("ranking", []), start=1)
                      for seat in group)


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
