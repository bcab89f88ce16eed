"""The session store: every SQL statement Stolik runs, returning dataclasses, not rows."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from db.database import DamagedRow, Database, IntegrityViolation, StaleVersion

log = logging.getLogger(__name__)


class ChannelBusy(Exception):
    """The channel already has an open session (the unique index said so)."""


@dataclass
class SeatRow:
    seat: int
    user_id: int | None  # None: computer player
    name: str
    bank: float | None = None  # seconds left on the turn clock
    running_since: str | None = None  # ISO time the clock started; None: not running
    level: str | None = None  # computer level chosen at /game addbot; None: "normal"

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
    pace_json: str = '{"kind": "none"}'
    last_action_at: str | None = None

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
    version: int = 0  # the session version this action produced
    undone_version: int | None = None
    reveals: bool = False
    kind: str = "move"  # move | computer | skip
    clocks_before: list[list[Any]] | None = None  # [[seat, bank, running_since], ...]


#: an extra statement to run inside a store transaction (clocks, timers, votes)
Statement = tuple[str, tuple]


class Store:
    def __init__(self, db: Database) -> None:
        self.db = db

    def locked(self, session_id: int) -> Any:
        """``async with store.locked(id)``: one caller at a time per session, across every
        process on this database (see :meth:`Database.session_lock`)."""
        return self.db.session_lock(session_id)

    # --- reading -----------------------------------------------------------------------
    def _select_sessions(self, where: str, also: str = "") -> str:
        """Sessions with their seats as one JSON column: one statement, one snapshot.
        ``also``: more columns, each with a leading comma."""
        if self.db.dialect == "postgres":
            seats = ("(SELECT json_agg(json_build_array(seat, user_id, name, bank, running_since,"
                     " bot_level)"
                     " ORDER BY seat) FROM seats WHERE session_id = s.id)")
        else:
            seats = ("(SELECT json_group_array(json_array(seat, user_id, name, bank,"
                     " running_since, bot_level)) FROM (SELECT * FROM seats WHERE session_id = s.id"
                     " ORDER BY seat))")
        return f"SELECT s.*, {seats} AS seats_json{also} FROM sessions s {where}"

    @staticmethod
    def _row(row: Any) -> SessionRow:
        try:
            seats = json.loads(row["seats_json"]) if row["seats_json"] else []
            return SessionRow(
                id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
                game_id=row["game_id"], status=row["status"], creator_id=row["creator_id"],
                players=row["players"], options=Store._options(row), seed=row["seed"],
                state_json=row["state"], version=row["version"], lang=row["lang"],
                turn_message_id=row["turn_message_id"],
                result=json.loads(row["result"]) if row["result"] else None,
                created_at=row["created_at"], updated_at=row["updated_at"],
                finished_at=row["finished_at"],
                seats=[SeatRow(*seat) for seat in seats],
                pace_json=row["pace"], last_action_at=row["last_action_at"],
            )
        except (ValueError, TypeError) as exc:
            raise DamagedRow(f"session {row['id']}: {exc}", session_id=row["id"],
                             game_id=row["game_id"]) from exc

    @staticmethod
    def _options(row: Any) -> dict[str, Any]:
        """The session's setup options; unreadable ones are rebuilt, never fatal to the game:
        the variants its stored state names (a game's state keeps them), else the defaults
        (no variants), with a log line for the keeper either way."""
        try:
            options = json.loads(row["options"])
            if isinstance(options, dict):
                return options
        except (ValueError, TypeError):
            pass
        variants: Any = None
        try:
            state = json.loads(row["state"]) if row["state"] else None
            variants = state.get("variants") if isinstance(state, dict) else None
        except (ValueError, TypeError):
            pass
        if isinstance(variants, list) and all(isinstance(v, str) for v in variants):
            log.warning("session %s (%s): options unreadable (%.40r); the variants of its state:"
                        " %s", row["id"], row["game_id"], row["options"], variants)
            return {"variants": list(variants)}
        log.warning("session %s (%s): options unreadable (%.40r); using the defaults",
                    row["id"], row["game_id"], row["options"])
        return {"variants": []}

    async def get(self, session_id: int) -> SessionRow | None:
        row = await self.db.lookup(self._select_sessions("WHERE s.id = ?"), (session_id,))
        return None if row is None else self._row(row)

    async def get_with_board_intent(self, session_id: int) -> tuple[SessionRow, bool] | None:
        """A session, and whether a board post of it was started and never recorded (see
        :meth:`board_pending`): the board protocol reads both at once."""
        row = await self.db.lookup(self._select_sessions(
            "WHERE s.id = ?", ", EXISTS (SELECT 1 FROM board_posts b WHERE b.session_id = s.id)"
            " AS board_pending"), (session_id,))
        return None if row is None else (self._row(row), bool(row["board_pending"]))

    async def open_in_channel(self, channel_id: int) -> SessionRow | None:
        row = await self.db.fetchone(
            self._select_sessions("WHERE s.channel_id = ? AND s.status IN ('lobby', 'active')"),
            (channel_id,),
        )
        return None if row is None else self._row(row)

    async def open_session_ids(self) -> list[int]:
        """Ids of every lobby and running game (recovery loads each on its own, so one
        damaged row cannot stop the others)."""
        rows = await self.db.fetchall(
            "SELECT id FROM sessions WHERE status IN ('lobby', 'active') ORDER BY id")
        return [r[0] for r in rows]

    async def count_open(self) -> int:
        """Lobbies and running games (an operator's gauge)."""
        row = await self.db.fetchone(
            "SELECT COUNT(*) FROM sessions WHERE status IN ('lobby', 'active')")
        return int(row[0])

    async def open_sessions(self) -> list[SessionRow]:
        rows = await self.db.fetchall(
            self._select_sessions("WHERE s.status IN ('lobby', 'active') ORDER BY s.id"))
        return self._rows(rows)

    def _rows(self, rows: list[Any], damaged: list[DamagedRow] | None = None
              ) -> list[SessionRow]:
        """Rows that read back; a damaged one is logged and left out (added to ``damaged``
        when given, so the caller can name it), never fatal to a list."""
        out = []
        for row in rows:
            try:
                out.append(self._row(row))
            except DamagedRow as exc:
                log.exception("skipping an unreadable session row")
                if damaged is not None:
                    damaged.append(exc)
        return out

    async def ended_in_channel(self, channel_id: int, limit: int) -> list[SessionRow]:
        rows = await self.db.fetchall(
            self._select_sessions(
                "WHERE s.channel_id = ? AND s.status IN ('finished', 'abandoned')"
                " ORDER BY s.finished_at DESC, s.id DESC LIMIT ?"),
            (channel_id, limit),
        )
        return self._rows(rows)

    async def actions(self, session_id: int, *, with_undone: bool = False) -> list[ActionRow]:
        """The log in order; undone actions only when asked (they are kept, never deleted)."""
        rows = await self.db.fetchall(
            "SELECT n, seat, user_id, code, created_at, version, undone_version, reveals, kind,"
            " clocks_before FROM actions WHERE session_id = ?"
            + ("" if with_undone else " AND undone_version IS NULL") + " ORDER BY n",
            (session_id,),
        )
        return [ActionRow(r["n"], r["seat"], r["user_id"], r["code"], r["created_at"],
                          r["version"], r["undone_version"], bool(r["reveals"]), r["kind"],
                          json.loads(r["clocks_before"]) if r["clocks_before"] else None)
                for r in rows]

    # --- writing -----------------------------------------------------------------------
    async def create(
        self, *, guild_id: int | None, channel_id: int, game_id: str, creator_id: int,
        creator_name: str, players: int, options: dict[str, Any], seed: int, lang: str, now: str,
        pace_json: str = '{"kind": "none"}',
    ) -> int:
        try:
            async with self.db.transaction() as conn:
                (session_id,) = await conn.fetchone(
                    "INSERT INTO sessions (guild_id, channel_id, game_id, status, creator_id,"
                    " players, options, seed, lang, created_at, updated_at, pace)"
                    " VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (guild_id, channel_id, game_id, creator_id, players, json.dumps(options),
                     seed, lang, now, now, pace_json),
                )
                await conn.execute(
                    "INSERT INTO seats (session_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                    (session_id, creator_id, creator_name),
                )
        except IntegrityViolation as exc:
            raise ChannelBusy(channel_id) from exc
        assert session_id is not None
        return session_id

    async def add_seat(self, session_id: int, user_id: int | None, name: str, now: str,
                       level: str | None = None) -> int:
        async with self.db.transaction() as conn:
            await conn.lock("sessions", session_id)
            (count,) = await conn.fetchone(
                "SELECT COUNT(*) FROM seats WHERE session_id = ?", (session_id,))
            await conn.execute(
                "INSERT INTO seats (session_id, seat, user_id, name, bot_level)"
                " VALUES (?, ?, ?, ?, ?)",
                (session_id, count, user_id, name, level),
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

    async def start(self, session_id: int, players: int, state_json: str, now: str,
                    extra: Sequence[Statement] = ()) -> None:
        async with self.db.transaction() as conn:
            started = await conn.execute(
                "UPDATE sessions SET status = 'active', players = ?, state = ?, version = 0,"
                " updated_at = ?, last_action_at = ? WHERE id = ? AND status = 'lobby'",
                (players, state_json, now, now, session_id),
            )
            if started != 1:
                raise StaleVersion(f"session {session_id} is no longer a lobby")
            for sql, params in extra:
                await conn.execute(sql, params)

    async def record_action(
        self, *, session_id: int, version: int, seat: int, user_id: int | None, code: str,
        state_json: str, finished: bool, result: dict[str, Any] | None, now: str,
        reveals: bool = False, kind: str = "move", extra: Sequence[Statement] = (),
        clocks_before: list[list[Any]] | None = None,
    ) -> None:
        """Append the action and store the new state (version + 1) in ONE transaction, with
        the clock and timer changes it causes.

        The ``version = ?`` guard makes a concurrent writer fail loudly instead of forking
        the log.
        """
        try:
            await self.db.batch([
                ("UPDATE sessions SET state = ?, version = ?, updated_at = ?, last_action_at = ?,"
                 " status = CASE WHEN ? THEN 'finished' ELSE status END,"
                 " finished_at = CASE WHEN ? THEN ? ELSE finished_at END,"
                 " result = COALESCE(?, result)"
                 " WHERE id = ? AND version = ? AND status = 'active'",
                 (state_json, version + 1, now, now, finished, finished, now,
                  json.dumps(result) if result is not None else None, session_id, version)),
                ("INSERT INTO actions (session_id, n, seat, user_id, code, created_at, version,"
                 " reveals, kind, clocks_before) VALUES (?, (SELECT COALESCE(MAX(n) + 1, 0)"
                 " FROM actions WHERE session_id = ?), ?, ?, ?, ?, ?, ?, ?, ?)",
                 (session_id, session_id, seat, user_id, code, now, version + 1, reveals, kind,
                  json.dumps(clocks_before) if clocks_before is not None else None)),
                *extra,
            ], guarded=True)
        except StaleVersion:
            raise StaleVersion(
                f"session {session_id} moved past version {version} meanwhile") from None

    async def undo(self, *, session_id: int, n: int, version: int, state_json: str, now: str,
                   extra: Sequence[Statement] = ()) -> None:
        """Mark action ``n`` undone (kept in the log) and store the state before it."""
        async with self.db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE sessions SET state = ?, version = ?, updated_at = ?, last_action_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (state_json, version + 1, now, now, session_id, version),
            )
            if changed != 1:
                raise StaleVersion(f"session {session_id} moved past version {version} meanwhile")
            await conn.execute(
                "UPDATE actions SET undone_version = ? WHERE session_id = ? AND n = ?",
                (version + 1, session_id, n),
            )
            for sql, params in extra:
                await conn.execute(sql, params)

    async def run(self, statements: list[Statement]) -> int:
        """Run statements in one transaction; returns the first statement's row count."""
        if not statements:
            return -1
        return await self.db.batch(statements)

    async def end(self, session_id: int, status: str, result: dict[str, Any] | None, now: str,
                  *, ended_by: int | None = None) -> None:
        """``ended_by``: who ran /game abandon (the game counts as that player's loss)."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE sessions SET status = ?, result = ?, finished_at = ?, updated_at = ?,"
                " ended_by = ? WHERE id = ?",
                (status, json.dumps(result) if result is not None else None, now, now, ended_by,
                 session_id),
            )

    async def set_turn_message(self, session_id: int, message_id: int | None) -> None:
        await self.db.batch([
            ("UPDATE sessions SET turn_message_id = ? WHERE id = ?", (message_id, session_id))])

    # --- boards being posted (see migrations/006_board_posts.sql) ------------------------
    async def board_pending(self, session_id: int, version: int, now: str) -> None:
        await self.db.batch([
            ("INSERT INTO board_posts (session_id, version, started_at) VALUES (?, ?, ?)"
             " ON CONFLICT (session_id) DO UPDATE SET version = excluded.version,"
             " started_at = excluded.started_at", (session_id, version, now))])

    async def board_posted(self, session_id: int, message_id: int | None) -> None:
        """Record the posted board as the turn message and drop its intent, together; the
        board before it is retired, so no bare mark of the session is left to repair."""
        await self.db.batch([
            ("UPDATE sessions SET turn_message_id = ? WHERE id = ?", (message_id, session_id)),
            ("DELETE FROM board_posts WHERE session_id = ?", (session_id,)),
            ("DELETE FROM bare_boards WHERE session_id = ?", (session_id,))])

    async def pending_boards(self) -> list[int]:
        """Sessions with a board whose post was started and never recorded."""
        rows = await self.db.fetchall("SELECT session_id FROM board_posts ORDER BY session_id")
        return [row["session_id"] for row in rows]

    async def board_is_pending(self, session_id: int) -> bool:
        return await self.db.lookup(
            "SELECT 1 FROM board_posts WHERE session_id = ?", (session_id,)) is not None

    # --- boards whose buttons a first answer is taking off (migrations/045_bare_boards.sql)
    async def mark_bare(self, session_id: int, message_id: int, version: int) -> None:
        await self.db.batch([
            ("INSERT INTO bare_boards (session_id, message_id, version) VALUES (?, ?, ?)"
             " ON CONFLICT (session_id) DO UPDATE SET message_id = excluded.message_id,"
             " version = excluded.version", (session_id, message_id, version))])

    async def unmark_bare(self, session_id: int, message_id: int) -> None:
        """The board is shown again (only that board's mark: a newer one stays)."""
        await self.db.batch([
            ("DELETE FROM bare_boards WHERE session_id = ? AND message_id = ?",
             (session_id, message_id))])

    async def bare_boards(self) -> list[tuple[int, int]]:
        """(session id, message id) of every board marked bare."""
        rows = await self.db.fetchall(
            "SELECT session_id, message_id FROM bare_boards ORDER BY session_id")
        return [(row["session_id"], row["message_id"]) for row in rows]

    # --- direct messages ----------------------------------------------------------------
    async def dm_refused_until(self, user_id: int) -> str | None:
        row = await self.db.lookup("SELECT until FROM dm_refusals WHERE user_id = ?", (user_id,))
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

    # --- timers, votes, settings, statistics --------------------------------------------
    async def due_timers(self, now: str) -> list[Any]:
        return await self.db.fetchall(
            "SELECT id, session_id, seat, kind, due_at FROM timers"
            " WHERE fired_at IS NULL AND due_at <= ? ORDER BY due_at, id",
            (now,),
        )

    async def next_timer_due(self) -> str | None:
        row = await self.db.fetchone("SELECT MIN(due_at) FROM timers WHERE fired_at IS NULL")
        return row[0] if row else None

    async def pending_timers(self, session_id: int) -> list[Any]:
        return await self.db.fetchall(
            "SELECT id, seat, kind, due_at FROM timers WHERE session_id = ? AND fired_at IS NULL"
            " ORDER BY due_at, id",
            (session_id,),
        )

    async def last_fired_timer(self, session_id: int, seat: int, kind: str) -> Any:
        return await self.db.fetchone(
            "SELECT id, fired_at, reannounced_at FROM timers WHERE session_id = ? AND seat = ?"
            " AND kind = ?"
            " AND fired_at IS NOT NULL ORDER BY id DESC LIMIT 1",
            (session_id, seat, kind),
        )

    async def ballots(self, session_id: int, topic: str) -> dict[int, str]:
        rows = await self.db.fetchall(
            "SELECT user_id, choice FROM votes WHERE session_id = ? AND topic = ?",
            (session_id, topic),
        )
        return {r["user_id"]: r["choice"] for r in rows}

    async def settings(self, user_id: int) -> Any:
        return await self.db.lookup(
            "SELECT tz, quiet_start, quiet_end, pings FROM user_settings WHERE user_id = ?",
            (user_id,),
        )

    async def turn_settings(self, user_id: int | None, guild_id: int | None) -> Any:
        """A user's settings and their server's defaults in one read (a turn start needs
        both: one round trip, not two). Always one row: a side with no row of its own has
        all its columns NULL (a user's ``tz`` is NULL only then)."""
        return await self.db.lookup(
            "SELECT u.tz, u.quiet_start, u.quiet_end, u.pings,"
            " g.pace, g.remind_hours, g.absent_hours, g.lang"
            " FROM (SELECT 1 AS one) k"
            " LEFT JOIN user_settings u ON u.user_id = ?"
            " LEFT JOIN guild_settings g ON g.guild_id = ?",
            (user_id, guild_id),
        )

    async def save_settings(self, user_id: int, tz: str, quiet_start: int | None,
                            quiet_end: int | None, pings: bool) -> None:
        await self.run([(
            "INSERT INTO user_settings (user_id, tz, quiet_start, quiet_end, pings)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET tz = excluded.tz,"
            " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,"
            " pings = excluded.pings",
            (user_id, tz, quiet_start, quiet_end, int(pings)),
        )])

    async def sessions_of_user(self, user_id: int, damaged: list[DamagedRow] | None = None
                               ) -> list[SessionRow]:
        """The user's open games; rows that cannot be read go to ``damaged`` (if given)."""
        rows = await self.db.fetchall(
            self._select_sessions(
                "JOIN seats t ON t.session_id = s.id"
                " WHERE t.user_id = ? AND s.status IN ('lobby', 'active') ORDER BY s.id"),
            (user_id,),
        )
        return self._rows(rows, damaged)

    async def seat_history(self, session_id: int) -> list[Any]:
        return await self.db.fetchall(
            "SELECT seat, user_id, name, from_version FROM seat_history WHERE session_id = ?"
            " ORDER BY from_version",
            (session_id,),
        )

    # --- server defaults, user languages, hand messages (issue 12) ----------------------
    async def guild_settings(self, guild_id: int | None) -> Any:
        if guild_id is None:
            return None
        return await self.db.fetchone(
            "SELECT pace, remind_hours, absent_hours, lang FROM guild_settings"
            " WHERE guild_id = ?", (guild_id,))

    async def save_guild_settings(self, guild_id: int, pace: str | None,
                                  remind_hours: float | None, absent_hours: float | None,
                                  lang: str | None) -> None:
        await self.run([(
            "INSERT INTO guild_settings (guild_id, pace, remind_hours, absent_hours, lang)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET pace = excluded.pace,"
            " remind_hours = excluded.remind_hours, absent_hours = excluded.absent_hours,"
            " lang = excluded.lang",
            (guild_id, pace, remind_hours, absent_hours, lang))])

    async def user_lang(self, user_id: int) -> str | None:
        row = await self.db.lookup("SELECT lang FROM user_locales WHERE user_id = ?",
                                     (user_id,))
        return row["lang"] if row else None

    async def save_user_lang(self, user_id: int, lang: str) -> None:
        await self.run([(
            "INSERT INTO user_locales (user_id, lang) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET lang = excluded.lang", (user_id, lang))])

    async def hand_message(self, session_id: int, user_id: int) -> Any:
        return await self.db.lookup(
            "SELECT channel_id, message_id, acting FROM hand_messages"
            " WHERE session_id = ? AND user_id = ?", (session_id, user_id))

    async def save_hand_message(self, session_id: int, user_id: int, channel_id: int,
                                message_id: int, acting: bool) -> None:
        await self.run([(
            "INSERT INTO hand_messages (session_id, user_id, channel_id, message_id, acting)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (session_id, user_id) DO UPDATE SET"
            " channel_id = excluded.channel_id, message_id = excluded.message_id,"
            " acting = excluded.acting",
            (session_id, user_id, channel_id, message_id, int(acting)))])

    async def drop_hand_message(self, session_id: int, user_id: int) -> None:
        await self.run([("DELETE FROM hand_messages WHERE session_id = ? AND user_id = ?",
                         (session_id, user_id))])

    async def absent_since(self, session_id: int, seat: int) -> str | None:
        """When the seat was declared absent in its current turn (its absence timer fired)."""
        row = await self.db.fetchone(
            "SELECT MAX(fired_at) FROM timers WHERE session_id = ? AND seat = ?"
            " AND kind = 'absent' AND fired_at IS NOT NULL", (session_id, seat))
        return row[0] if row else None
