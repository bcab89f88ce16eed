"""Absent players: whose clock ran out or who stayed silent too long, the vote the others
hold on them (skip the turn, a computer takes the seat, or wait), the vote to end the game
early, and a newcomer taking over a free seat.

A skipped turn and a computer's turn go through the same ``Sessions.apply_move`` path as a
human move: same checks, same log, same replay.
"""

from __future__ import annotations

from datetime import datetime

import engines
from db import seats as seat_sql
from db import votes as vote_sql
from db.store import SessionRow
from session import computer
from session.clocks import Pace, spent, turn_starts
from session.ending import Ending
from session.errors import SessionError, tells_store_failures
from session.service import Sessions
from session.values import Notice, Outcome, timeout_topic

#: choices on a timed-out player's vote
TIMEOUT_CHOICES: tuple[str, ...] = ("skip", "computer", "wait")
END_CHOICES: tuple[str, ...] = ("yes", "no")


class Absence:
    def __init__(self, sessions: Sessions, ending: Ending) -> None:
        self.sessions = sessions
        self.store = sessions.store
        self.ending = ending

    # --- who is away ---------------------------------------------------------------------
    async def absent(self, row: SessionRow, seat: int) -> bool:
        """The seat's player is away: their clock ran out (timed games), or their absence
        timer fired in this turn and they are still to act (untimed games)."""
        if self.timed_out(row, seat):
            return True
        if row.status != "active" or row.seats[seat].user_id is None:
            return False
        if await self.store.absent_since(row.id, seat) is None:
            return False
        return seat in engines.get(row.game_id).to_act(await self.sessions.state(row))

    def timed_out(self, row: SessionRow, seat: int) -> bool:
        target = row.seats[seat]
        if target.running_since is None or target.bank is None:
            return False
        return spent(target.bank, datetime.fromisoformat(target.running_since),
                     self.sessions.clock()) <= 0

    # --- substitutes -----------------------------------------------------------------------
    @tells_store_failures
    async def substitute(self, channel_id: int, user_id: int, name: str, seat: int) -> Outcome:
        """A newcomer takes over a seat whose time ran out, or one a computer took over."""
        s = self.sessions
        row = await s.in_channel(channel_id)
        async with s.locked(row.id):
            row = await s.session(row.id)
            if row.status != "active":
                raise SessionError("error.not_active", "this game is not running")
            if row.seat_of(user_id) is not None:
                raise SessionError("error.already_joined", "you are already in this game")
            if not 0 <= seat < len(row.seats):
                raise SessionError("error.no_such_seat", "no such seat", seat=seat + 1)
            target = row.seats[seat]
            replaced = target.user_id is None and any(
                h["seat"] == seat for h in await self.store.seat_history(row.id))
            if not (replaced or await self.absent(row, seat)):
                raise SessionError("error.seat_not_free", "that player is still in the game",
                                   player=target.name)
            statements = [
                seat_sql.seat_player(row.id, seat, user_id, name),
                seat_sql.history(row.id, seat, user_id, name, row.version),
                vote_sql.clear(row.id, timeout_topic(seat)),
            ]
            game = engines.get(row.game_id)
            if seat in game.to_act(await s.state(row)):
                # the newcomer's turn starts now, with a fresh allowance
                statements += s.turns.stop_clock(row.id, seat, target.bank)
                target.running_since, target.user_id = None, user_id
                fresh = turn_starts(Pace.from_json(row.pace_json), 0.0)
                if fresh is not None:
                    statements += await s.turns.start_clock(row.id, target, fresh, s.clock())
            await self.store.run(statements)
            outcome = Outcome(await s.session(row.id),
                              [Notice("notice.substituted", {"player": name, "was": target.name})],
                              private_seats=[seat] if game.meta.hidden_information else [])
            return await s.settle(outcome)

    # --- votes -----------------------------------------------------------------------------
    @tells_store_failures
    async def vote(self, session_id: int, user_id: int, topic: str, choice: str) -> Outcome:
        """Cast a ballot. ``timeout:<seat>``: the other human players decide by majority to
        skip the turn (computer move), replace the player by a computer, or wait.
        ``end``: every human player who is present must agree to end the game now (recorded
        as abandoned); an absent player does not block it (one who votes is present)."""
        s = self.sessions
        async with s.locked(session_id):
            row = await s.session(session_id)
            if row.status != "active":
                raise SessionError("error.not_active", "this game is not running")
            if topic == "end":
                voters, allowed = await self._present_players(row, user_id), END_CHOICES
            elif topic.startswith("timeout:"):
                voters, allowed = await self._others_of_absent(row, topic), TIMEOUT_CHOICES
            else:
                raise SessionError("error.bad_component", "unknown vote")
            if user_id not in voters:
                raise SessionError("error.not_a_voter", "you do not vote on this")
            if choice not in allowed:
                raise SessionError("error.bad_component", "unknown vote")
            await self.store.run([vote_sql.cast(row.id, topic, user_id, choice)])
            ballots = await self.store.ballots(row.id, topic)
            outcome = Outcome(row, [Notice("notice.voted", {
                "player": next(x.name for x in row.seats if x.user_id == user_id),
                "choice": f"vote.{choice}", "count": len(ballots), "voters": len(voters)})])
            if topic == "end":
                return await self._count_end(row, ballots, voters, outcome)
            return await self._count_timeout(row, topic, ballots, voters, outcome)

    @staticmethod
    def _timeout_seat(row: SessionRow, topic: str) -> int:
        seat = int(topic.split(":")[1])
        if not 0 <= seat < len(row.seats):  # a forged ballot
            raise SessionError("error.bad_component", "unknown vote")
        return seat

    async def _others_of_absent(self, row: SessionRow, topic: str) -> list[int]:
        """The voters on an absent seat: every other human player (none while it is not
        absent: the vote is over)."""
        seat = self._timeout_seat(row, topic)
        if not await self.absent(row, seat):
            raise SessionError("error.vote_over", "this vote is over: the player moved")
        return [x.user_id for x in row.seats
                if x.user_id is not None and x.user_id != row.seats[seat].user_id]

    async def _present_players(self, row: SessionRow, user_id: int) -> list[int]:
        """The voters on ending early: every human player who is present (one who votes
        is)."""
        return [x.user_id for x in row.seats if x.user_id is not None and (
            x.user_id == user_id or not await self.absent(row, x.seat))]

    async def _count_end(self, row: SessionRow, ballots: dict[int, str], voters: list[int],
                         outcome: Outcome) -> Outcome:
        if sum(1 for v in ballots.values() if v == "yes") == len(voters):
            return await self.ending.end_by_vote(row)
        if len(ballots) >= len(voters):  # everyone voted, not all for the end: said, and over
            await self.store.run([vote_sql.clear(row.id, "end")])
            outcome.notices.append(Notice("notice.end_vote_failed", {}))
        return outcome

    async def _count_timeout(self, row: SessionRow, topic: str, ballots: dict[int, str],
                             voters: list[int], outcome: Outcome) -> Outcome:
        """A majority decides; its vote is then cleared and carried out."""
        counts = {c: sum(1 for v in ballots.values() if v == c) for c in TIMEOUT_CHOICES}
        winner = next((c for c in TIMEOUT_CHOICES if counts[c] * 2 > len(voters)), None)
        seat = self._timeout_seat(row, topic)
        if winner is None:
            if len(ballots) < len(voters):
                return outcome
            # everyone voted and no choice has a majority: the stated rule is that a tie
            # means waiting (the gentlest choice: the player may still come back)
            await self.store.run([vote_sql.clear(row.id, topic)])
            outcome.notices.append(Notice("notice.vote_tie", {"seat": seat}))
            return outcome
        await self.store.run([vote_sql.clear(row.id, topic)])
        if winner == "skip":
            return await self.skip_turn(row, seat, outcome)
        if winner == "computer":
            return await self._replace_by_computer(row, seat, outcome)
        outcome.notices.append(Notice("notice.vote_wait", {"seat": seat}))
        return outcome

    # --- what the vote decided -------------------------------------------------------------
    async def skip_turn(self, row: SessionRow, seat: int, outcome: Outcome) -> Outcome:
        """The absent seat's turn is played by the computer player, as a logged 'skip'.
        Called under the session's lock."""
        s = self.sessions
        game = engines.get(row.game_id)
        outcome.session = row
        outcome.notices.append(Notice("notice.turn_skipped", {"seat": seat}))
        state = await s.state(row)
        while outcome.session.status == "active" and seat in game.to_act(state):
            # a skipped turn is played at "normal" level, seeded per move
            code = await computer.move(row.game_id, state, seat,
                                       f"{row.seed}/skip/{outcome.session.version}", "normal",
                                       strict=s.strict_bots)
            await s.apply_move(outcome, seat, None, code, kind="skip")
            state = await s.state(outcome.session)
        return await s.settle(await s.run_computer_players(outcome))

    async def _replace_by_computer(self, row: SessionRow, seat: int, outcome: Outcome) -> Outcome:
        s = self.sessions
        name = f"{row.seats[seat].name} (🤖)"
        await self.store.run([
            seat_sql.seat_computer(row.id, seat, name),  # plays at "normal" level
            seat_sql.history(row.id, seat, None, name, row.version),
            *s.turns.stop_clock(row.id, seat, None),
        ])
        outcome.session = await s.session(row.id)
        outcome.notices.append(Notice("notice.replaced_by_computer", {"seat": seat}))
        return await s.settle(await s.run_computer_players(outcome))
