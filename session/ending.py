"""Ending a game before its end, and playing it again: the one ``abandon`` (a player or a
channel manager, confirmed on the board), the end all present players voted for, and a
rematch lobby with the same game, options, pace and seats."""

from __future__ import annotations

import engines
from db import timers as timer_sql
from db.store import SessionRow
from session.clocks import DAY, Pace
from session.errors import SessionError, tells_store_failures
from session.service import Sessions, started
from session.values import Notice, Outcome


class Ending:
    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions
        self.store = sessions.store

    @tells_store_failures
    async def abandon(self, session_id: int, user_id: int, *, can_manage: bool,
                      version: int | None = None) -> Outcome:
        """End a game now (the creator, or someone who manages the channel), once confirmed on
        the board it was asked at (``version``). Recorded as abandoned, with no winner; a
        player who abandons a running game takes a loss (``result["forfeit"]``)."""
        s = self.sessions
        async with s.locked(session_id):
            row = await s.session(session_id)
            if row.status not in ("lobby", "active"):
                raise SessionError("error.not_active", "this game is not running")
            if user_id != row.creator_id and not can_manage:
                raise SessionError("error.abandon_rights",
                                   "only the creator or a channel manager can end the game")
            if version is not None and version != row.version:
                raise SessionError("error.stale", "the game moved on: ask again")
            result = None
            seat = row.seat_of(user_id)
            if row.status == "active":
                result = s.result(engines.get(row.game_id), await s.state(row))
                if seat is not None:
                    result["forfeit"] = seat
            await self.store.end(row.id, "abandoned", result, s.now(), ended_by=user_id)
            await self.store.run([timer_sql.drop_pending(row.id)])
            s.forget_state(row.id)
            await s.standings.record(row.id, s.now())  # a player's abandon is their loss
            by = row.seats[seat].name if seat is not None else str(user_id)
            return await s.settle(Outcome(
                await s.session(row.id),
                [Notice("notice.abandoned", {"game": row.game_id, "player": by})]))

    async def end_by_vote(self, row: SessionRow) -> Outcome:
        """Every present player agreed (see :meth:`Absence.vote`): recorded as abandoned,
        with nobody's loss. Called under the session's lock."""
        s = self.sessions
        result = s.result(engines.get(row.game_id), await s.state(row))
        await self.store.end(row.id, "abandoned", result, s.now())
        await self.store.run([timer_sql.drop_pending(row.id)])
        return await s.settle(Outcome(await s.session(row.id),
                                      [Notice("notice.ended_by_vote", {})]))

    @tells_store_failures
    async def rematch(self, session_id: int, user_id: int, name: str) -> Outcome:
        """A new lobby in the same channel with the same game, options, pace and seat count,
        opened by a player of the ended game; its computer players sit down again, the
        others are named so they can join."""
        s = self.sessions
        old = await s.session(session_id)
        if old.status not in ("finished", "abandoned") or not started(old):
            raise SessionError("error.rematch_not_over", "that game is not over")
        if old.seat_of(user_id) is None:
            raise SessionError("error.not_a_player", "you did not play in that game")
        outcome = await s.new(
            guild_id=old.guild_id, channel_id=old.channel_id, game_id=old.game_id,
            user_id=user_id, name=name, players=len(old.seats),
            variants=", ".join(old.options.get("variants", [])), lang=old.lang,
            pace=pace_text(Pace.from_json(old.pace_json)))
        for seat in old.seats:
            if seat.user_id is None and outcome.session.status == "lobby":
                joined = await s.join(old.channel_id, None, seat.name.removesuffix(" (🤖)"))
                outcome = Outcome(joined.session, outcome.notices + joined.notices,
                                  joined.board_changed, joined.private_seats,
                                  to_act=joined.to_act, public=joined.public)
        invited = [x.user_id for x in old.seats if x.user_id not in (None, user_id)]
        if invited:
            # mentioned once, in the new lobby's first message (``ping``: who it notifies)
            outcome.notices.append(Notice("notice.rematch", {
                "players": ", ".join(f"<@{u}>" for u in invited), "ping": invited}))
        return outcome


def pace_text(pace: Pace) -> str:
    """A pace as /game new takes it ('none', 'realtime:5', 'daily:1:3')."""
    if pace.kind == "realtime":
        return f"realtime:{pace.per_move / 60:g}"
    if pace.kind == "daily":
        return f"daily:{pace.increment / DAY:g}:{pace.cap / DAY:g}"
    return "none"
