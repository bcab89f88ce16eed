"""What the Discord side keeps in the store beside the games themselves: the intent and record
of each board post, each player's living hand message, each user's language and whether they
take pings. The cogs reach these through :class:`Posts`, never through the store."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from db.store import SessionRow, Store
from session import logs
from session.clocks import Quiet
from session.errors import SessionError, tells_store_failures


class HandMessage(NamedTuple):
    """A player's one private hand message of a game (see cogs/hands.py)."""

    channel_id: int
    message_id: int
    #: sent while the player had to act (a new turn to act gets a new DM, a notification)
    acting: bool


@dataclass(frozen=True)
class Reach:
    """How a user may be told of their turn, from one read of their settings: whether a
    board may ping them (they did not turn pings off) and their quiet hours."""

    pings: bool
    quiet: Quiet


class Posts:
    """Board posts, hand messages and user locales, over the store."""

    def __init__(self, store: Store, clock: Callable[[], datetime]) -> None:
        self.store = store
        self.clock = clock

    # --- board posts: "record the intent, post, record the message" --------------------
    async def board_pending(self, session_id: int, version: int) -> None:
        """The intent: a board of ``version`` is about to be posted."""
        await self.store.board_pending(session_id, version, self.clock().isoformat())

    async def board_posted(self, session_id: int, message_id: int | None) -> None:
        """The posted board becomes the turn message and its intent ends, together."""
        await self.store.board_posted(session_id, message_id)

    @tells_store_failures
    async def session_and_intent(self, session_id: int) -> tuple[SessionRow, bool]:
        """A session, and whether a board's post of it was started and never recorded."""
        found = await self.store.get_with_board_intent(session_id)
        if found is None:
            raise SessionError("error.no_such_session", f"no session {session_id}", id=session_id)
        logs.bind_row(found[0])
        return found

    async def board_is_pending(self, session_id: int) -> bool:
        """Whether a board's post was started and never recorded."""
        return await self.store.board_is_pending(session_id)

    async def pending_boards(self) -> list[int]:
        """Sessions with a board whose post was started and never recorded."""
        return await self.store.pending_boards()

    async def mark_bare(self, session_id: int, message_id: int, version: int) -> None:
        """A click's first answer is about to take this board's buttons off (written first:
        a stop before the board is shown again leaves the mark for start-up to repair)."""
        await self.store.mark_bare(session_id, message_id, version)

    async def unmark_bare(self, session_id: int, message_id: int) -> None:
        """The board has its buttons again (a new board's record drops the mark as well)."""
        await self.store.unmark_bare(session_id, message_id)

    async def bare_boards(self) -> list[tuple[int, int]]:
        """(session id, message id) of every board marked bare and not shown again since."""
        return await self.store.bare_boards()

    async def reach(self, user_id: int) -> Reach:
        """Whether a board may ping the user, and their quiet hours (none set: pings on,
        never quiet): one read, where a new board or hand needs both."""
        settings = await self.store.settings(user_id)
        return Reach(settings is None or bool(settings["pings"]), Quiet.from_row(settings))

    # --- hand messages --------------------------------------------------------------------
    async def hand_message(self, session_id: int, user_id: int) -> HandMessage | None:
        stored = await self.store.hand_message(session_id, user_id)
        if stored is None:
            return None
        return HandMessage(stored["channel_id"], stored["message_id"], bool(stored["acting"]))

    async def save_hand_message(self, session_id: int, user_id: int,
                                message: HandMessage) -> None:
        await self.store.save_hand_message(session_id, user_id, message.channel_id,
                                           message.message_id, message.acting)

    async def drop_hand_message(self, session_id: int, user_id: int) -> None:
        """The player has no living card in this game any more (gone, or the game ended)."""
        await self.store.drop_hand_message(session_id, user_id)

    # --- user locales ---------------------------------------------------------------------
    async def user_lang(self, user_id: int) -> str | None:
        """The language last seen in the user's interactions (their DMs use it)."""
        return await self.store.user_lang(user_id)

    async def save_user_lang(self, user_id: int, lang: str) -> None:
        await self.store.save_user_lang(user_id, lang)
