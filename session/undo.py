"""Taking back a move: a player's own last action, until someone else acts, never across a
reveal. The log keeps the undone action (marked); the state before it is replayed, and every
seat's clock goes back as it was, in the one transaction that records the undo."""

from __future__ import annotations

import json

import engines
from db.database import StaleVersion
from session.errors import SessionError, tells_store_failures
from session.service import Sessions
from session.values import Notice, Outcome


class Undo:
    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions
        self.store = sessions.store

    @tells_store_failures
    async def undo(self, session_id: int, user_id: int) -> Outcome:
        """Take back the user's own last action, until someone else acts; never across a
        reveal (a drawn tile or card, a shuffle, revealed simultaneous picks)."""
        s = self.sessions
        async with s.locked(session_id):
            row = await s.session(session_id)
            seat = s.playing_seat(row, user_id)
            log_ = await self.store.actions(row.id)
            if not log_ or log_[-1].seat != seat or log_[-1].kind != "move":
                raise SessionError("error.undo_nothing", "you have no move to take back")
            last = log_[-1]
            if last.reveals:
                raise SessionError("error.undo_reveal",
                                   "that move revealed something and cannot be taken back")
            game = engines.get(row.game_id)
            before = await s.state(row)
            previous = await s.replay(row, at_version=last.version - 1)
            if last.clocks_before is not None:
                # the clocks go back exactly: the next player's top-up goes with the move
                extra = await s.turns.restore(row, last.clocks_before)
            else:  # an action logged before clock snapshots existed
                extra = await s.turns.statements(row, set(game.to_act(before)),
                                                 game.to_act(previous), over=False,
                                                 fresh_turn=False)
            try:
                await self.store.undo(session_id=row.id, n=last.n, version=row.version,
                                      state_json=json.dumps(previous), now=s.now(), extra=extra)
            except StaleVersion:  # another process moved the game on meanwhile
                raise SessionError("error.stale", "this move is no longer available") from None
            # the player who takes a move back is at the screen: no notification for them
            outcome = Outcome(await s.session(row.id), [Notice("notice.undone", {"seat": seat})],
                              board_changed=True,
                              acting_before=set(game.to_act(before)) | {seat})
            s.remember_state(row.id, outcome.session.version, previous)
            s.note_private_changes(outcome, game, before, previous)
            return await s.settle(outcome)
