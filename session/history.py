"""A game's public history, rebuilt from its log: what anyone may read of it (`/game log`), and
what a player who was away missed since their own last move (a held notification's news)."""

from __future__ import annotations

import engines
from db.store import SessionRow
from session.service import Sessions
from session.values import Notice, event_notices, says_the_move


async def public_history(sessions: Sessions, row: SessionRow) -> list[tuple[int, list[Notice]]]:
    """Each logged action as (its seat, its public notices), rebuilt by replaying the log
    (hidden moves only as the engine tells them)."""
    game = engines.get(row.game_id)
    state = game.setup(row.players, row.options, row.seed)
    out: list[tuple[int, list[Notice]]] = []
    for action in await sessions.store.actions(row.id):
        before = state
        state, events = game.apply(state, action.seat, action.code)
        notices = []
        if not game.meta.hidden_information and not says_the_move(events, action.seat):
            key, params = game.describe(before, action.code)
            notices.append(Notice("notice.played", {"seat": action.seat,
                                                    "action": (key, params)}))
        out.append((action.seat, notices + event_notices(events)))
    return out


async def news_since_move(sessions: Sessions, row: SessionRow, seat: int) -> list[Notice]:
    """The public events of the others' moves since this seat's last move (the game's start
    when it has none), newest last. Replays the log, so it is for the occasional held
    notification, not every board."""
    news: list[Notice] = []
    for actor, notices in await public_history(sessions, row):
        news = [] if actor == seat else news + notices
    return news
