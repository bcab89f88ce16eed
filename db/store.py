"""The session store: every SQL statement Stolik runs, returning dataclasses, not rows."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from db.database import Database

OPEN_STATUSES = ("lobby", "active")


class ChannelBusy(Exception):
    """The channel already has an open session (the unique index said so)."""


@dataclass
class SeatRow:
    seat: int
    user_id: int | None  # None: computer player
    name: str

    @property
    def is_bot(self) -> bool:
        return self.user_id is None


@dataclass
class SessionRow:
    id: int
    guild_id: int | None
    channel_id: int
    game_id: str
    status: str
    creator_id: int
    players: int
    options: dict[str, Any]
    seed: int
    state_json: str | None
    version: int
    lang: str
    turn_message_id: int | None
    result: dict[str, Any] | None
    created_at: str
    updated_at: str
    finished_at: str | None
    seats: list[SeatRow]

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None


@dataclass
class ActionRow:
    n: int
    seat: int
    user_id: int | None
    code: str
    created_at: str


class Store:
    def __init__(self, db: Database) -> None:
        self.db = db

    # --- reading -----------------------------------------------------------------------
    async def _with_seats(self, row: Any) -> SessionRow | None:
        if row is None:
            return None
        seats = await self.db.fetchall(
            "SELECT seat, user_id, name FROM seats WHERE session_id = ? ORDER BY seat", (row["id"],)
        )
        return SessionRow(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
            game_id=row["game_id"], status=row["status"], creator_id=row["creator_id"],
            players=row["players"], options=json.loads(row["options"]), seed=row["seed"],
            state_json=row["state"], version=row["version"], lang=row["lang"],
            turn_message_id=row["turn_message_id"],
            result=json.loads(row["result"]) if row["result"] else None,
            created_at=row["created_at"], updated_at=row["updated_at"],
            finished_at=row["finished_at"],
            seats=[SeatRow(s["seat"], s["user_id"], s["name"]) for s in seats],
        )

    async def get(self, session_id: int) -> SessionRow | None:
        row = await self.db.fetchone("SELECT * FROM sessions WHERE id = ?", (session_id,))
        return await self._with_seats(row)

    async def open_in_channel(self, channel_id: int) -> SessionRow | None:
        row = await self.db.fetchone(
            "SELECT * FROM sessions WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        return await self._with_seats(row)

    async def open_sessions(self) -> list[SessionRow]:
        rows = await self.db.fetchall(
            "SELECT * FROM sessions WHERE status IN ('lobby', 'active') ORDER BY id"
        )
        return [await self._with_seats(r) for r in rows]  # type: ignore[misc]

    async def ended_in_channel(self, channel_id: int, limit: int) -> list[SessionRow]:
        rows = await self.db.fetchall(
            "SELECT * FROM sessions WHERE channel_id = ? AND status IN ('finished', 'abandoned')"
            " ORDER BY finished_at DESC, id DESC LIMIT ?",
            (channel_id, limit),
        )
        return [await self._with_seats(r) for r in rows]  # type: ignore[misc]

    async def actions(self, session_id: int) -> list[ActionRow]:
        rows = await self.db.fetchall(
            "SELECT n, seat, user_id, code, created_at FROM actions WHERE session_id = ?"
            " ORDER BY n",
            (session_id,),
        )
        return [ActionRow(r["n"], r["seat"], r["user_id"], r["code"], r["created_at"]) for r in rows]

    # --- writing -----------------------------------------------------------------------
    async def create(
        self, *, guild_id: int | None, channel_id: int, game_id: str, creator_id: int,
        creator_name: str, players: int, options: dict[str, Any], seed: int, lang: str, now: str,
    ) -> int:
        try:
            async with self.db.transaction() as conn:
                cur = await conn.execute(
                    "INSERT INTO sessions (guild_id, channel_id, game_id, status, creator_id,"
                    " players, options, seed, lang, created_at, updated_at)"
                    " VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, game_id, creator_id, players, json.dumps(options),
                     seed, lang, now, now),
                )
                session_id = cur.lastrowid
                await conn.execute(
                    "INSERT INTO seats (session_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                    (session_id, creator_id, creator_name),
                )
        except sqlite3.IntegrityError as exc:
            raise ChannelBusy(channel_id) from exc
        assert session_id is not None
        return session_id

    async def add_seat(self, session_id: int, user_id: int | None, name: str, now: str) -> int:
        async with self.db.transaction() as conn:
            (count,) = await (
                await conn.execute("SELECT COUNT(*) FROM seats WHERE session_id = ?", (session_id,))
            ).fetchone()
            await conn.execute(
                "INSERT INTO seats (session_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                (session_id, count, user_id, name),
            )
            await conn.execute(
                "UPDATE sessions SET updated_at = ? WHERE id = ?", (now, session_id)
            )
        return count

    async def remove_seat(self, session_id: int, seat: int, now: str) -> None:
        """Free a lobby seat; later seats move up so seats stay 0..n-1."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "DELETE FROM seats WHERE session_id = ? AND seat = ?", (session_id, seat)
            )
            await conn.execute(
                "UPDATE seats SET seat = seat - 1 WHERE session_id = ? AND seat > ?",
                (session_id, seat),
            )
            await conn.execute(
                "UPDATE sessions SET updated_at = ? WHERE id = ?", (now, session_id)
            )

    async def start(self, session_id: int, players: int, state_json: str, now: str) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE sessions SET status = 'active', players = ?, state = ?, version = 0,"
                " updated_at = ? WHERE id = ? AND status = 'lobby'",
                (players, state_json, now, session_id),
            )

    async def record_action(
        self, *, session_id: int, n: int, seat: int, user_id: int | None, code: str,
        state_json: str, finished: bool, result: dict[str, Any] | None, now: str,
    ) -> None:
        """Append the action and store the new state in ONE transaction (version = n + 1).

        The ``version = n`` guard makes a concurrent writer fail loudly instead of forking
        the log.
        """
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE sessions SET state = ?, version = ?, updated_at = ?,"
                " status = CASE WHEN ? THEN 'finished' ELSE status END,"
                " finished_at = CASE WHEN ? THEN ? ELSE finished_at END,"
                " result = COALESCE(?, result)"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (state_json, n + 1, now, finished, finished, now,
                 json.dumps(result) if result is not None else None, session_id, n),
            )
            if cur.rowcount != 1:
                raise RuntimeError(f"session {session_id} moved past version {n} meanwhile")
            await conn.execute(
                "INSERT INTO actions (session_id, n, seat, user_id, code, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (session_id, n, seat, user_id, code, now),
            )

    async def end(self, session_id: int, status: str, result: dict[str, Any] | None, now: str) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE sessions SET status = ?, result = ?, finished_at = ?, updated_at = ?"
                " WHERE id = ?",
                (status, json.dumps(result) if result is not None else None, now, now, session_id),
            )

    async def set_turn_message(self, session_id: int, message_id: int | None) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE sessions SET turn_message_id = ? WHERE id = ?", (message_id, session_id)
            )

    # --- direct messages ----------------------------------------------------------------
    async def dm_refused_until(self, user_id: int) -> str | None:
        row = await self.db.fetchone("SELECT until FROM dm_refusals WHERE user_id = ?", (user_id,))
        return row["until"] if row else None

    async def set_dm_refused(self, user_id: int, until: str | None) -> None:
        async with self.db.transaction() as conn:
            if until is None:
                await conn.execute("DELETE FROM dm_refusals WHERE user_id = ?", (user_id,))
            else:
                await conn.execute(
                    "INSERT INTO dm_refusals (user_id, until) VALUES (?, ?)"
                    " ON CONFLICT (user_id) DO UPDATE SET until = excluded.until",
                    (user_id, until),
                )
