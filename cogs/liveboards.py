"""What this process knows of each game's live board, in memory only: the board it last posted
or showed, the boards a click's first answer took the buttons off, the ones it marked bare in
the store, the ones Discord refused, and the one-publish-at-a-time lock of each session.

Shared by the publish protocol (:mod:`cogs.board`), the click's first answer
(:mod:`cogs.firstanswer`) and the repairs (:mod:`cogs.repairs`). A guess and a courtesy to
Discord's limits, never trusted for correctness: the store decides.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import NamedTuple, TypeVar

from session.facts import SessionRow

#: live boards remembered per process (who acts at which version)
LIVE_BOARDS = 4096


class LiveBoard(NamedTuple):
    """A game's newest board as this process last showed it (noted just before it goes out:
    a quick click on it must find it)."""

    version: int
    #: the users who must act on it (computer seats left out)
    movers: frozenset[int]


Entry = TypeVar("Entry")


def _bound(entries: dict[int, Entry]) -> None:
    """Forget the oldest entries beyond :data:`LIVE_BOARDS`."""
    while len(entries) > LIVE_BOARDS:
        del entries[next(iter(entries))]


class LiveBoards:
    """The in-process live-board cache; one per bot."""

    def __init__(self) -> None:
        # one publish at a time per session: concurrent clicks (simultaneous phases) must not
        # post boards out of order, retire the wrong message or DM a closed user twice
        self._publishing: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._posted: dict[int, int] = {}  # session id -> version of the newest board posted
        #: sessions whose newest board Discord refused in this process
        self._refused: set[int] = set()
        #: session id -> its live board as this process last published it (a guess for the
        #: first answer to a click, never trusted for correctness)
        self._live: dict[int, LiveBoard] = {}
        #: boards whose buttons a click's first answer took off, until its publish (which
        #: then retires them with no call) or a refusal gives them back
        self._bare: dict[int, None] = {}
        #: session id -> the board this process marked bare in the store (bare_boards)
        self._marked: dict[int, int] = {}

    def lock(self, session_id: int) -> asyncio.Lock:
        """The session's publish lock: whoever shows its board holds it."""
        return self._publishing[session_id]

    def posted(self, session_id: int) -> int | None:
        """The version of the newest board this process posted or edited in, if any."""
        return self._posted.get(session_id)

    def posted_newer(self, session_id: int, version: int) -> bool:
        """Whether this process already posted a board of the game newer than ``version``."""
        return version < self._posted.get(session_id, -1)

    def note_posted(self, session_id: int, version: int) -> None:
        self._posted[session_id] = version

    def refused(self, session_id: int) -> bool:
        """Whether Discord refused the game's newest board in this process (a click on the
        game then posts it again)."""
        return session_id in self._refused

    def note_refused(self, session_id: int) -> None:
        self._refused.add(session_id)

    def note_accepted(self, session_id: int) -> None:
        """Discord took a new board of the game."""
        self._refused.discard(session_id)

    def live(self, session_id: int) -> LiveBoard | None:
        """The game's live board as this process last showed it."""
        return self._live.get(session_id)

    def note_live(self, row: SessionRow, to_act: list[int]) -> None:
        """``row``'s board, about to go out, with the seats ``to_act`` on it (forgotten when
        the game is not running)."""
        self._live.pop(row.id, None)  # re-inserted last: the oldest entry goes first
        if row.status != "active":
            return
        users = (row.seats[seat].user_id for seat in to_act)
        movers = frozenset(user for user in users if user is not None)
        self._live[row.id] = LiveBoard(row.version, movers)
        _bound(self._live)

    def forget_live(self, session_id: int) -> None:
        self._live.pop(session_id, None)

    def took_buttons(self, message_id: int) -> None:
        """A click's first answer took the buttons off this board."""
        self._bare[message_id] = None
        _bound(self._bare)  # (left by a click that failed before publishing)

    def still_bare(self, message_id: int | None) -> int | None:
        """``message_id`` if a first answer took its buttons off and nothing gave them back
        since; forgotten now (its click's publish is the one that asks)."""
        if message_id is None or message_id not in self._bare:
            return None
        del self._bare[message_id]
        return message_id

    def buttons_back(self, message_id: int) -> None:
        """The board has its buttons again (a move accepted meanwhile retires it with a call)."""
        self._bare.pop(message_id, None)

    def marked(self, session_id: int) -> int | None:
        """The board this process marked bare in the store for the session, if any."""
        return self._marked.get(session_id)

    def note_mark(self, session_id: int, message_id: int) -> None:
        self._marked.pop(session_id, None)  # re-inserted last: the oldest entry goes first
        self._marked[session_id] = message_id
        _bound(self._marked)

    def forget_mark(self, session_id: int, message_id: int | None = None) -> None:
        """The session's mark is gone from the store (only when it is on ``message_id``, if
        given)."""
        if message_id is None or self._marked.get(session_id) == message_id:
            self._marked.pop(session_id, None)
