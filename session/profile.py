"""A player's side of Stolik across games: their settings (time zone, quiet hours, pings),
their open games, their statistics and the leaderboard, a game's public history, and a
server's defaults."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import engines
from db.database import DamagedRow
from db.store import SessionRow
from session import nudges
from session.clocks import check_zone, deadline
from session.errors import SessionError, tells_store_failures
from session.history import public_history
from session.nudges import ServerDefaults
from session.service import Sessions
from session.values import Notice


class Profile:
    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions
        self.store = sessions.store

    # --- settings ------------------------------------------------------------------------
    @tells_store_failures
    async def settings(self, user_id: int, *, tz: str | None = None, quiet: str | None = None,
                       pings: bool | None = None) -> dict[str, Any]:
        """Read or change a user's time zone, quiet hours ('22-7', or 'off') and pings."""
        row = await self.store.settings(user_id)
        cur: dict[str, Any] = {
            "tz": row["tz"], "quiet_start": row["quiet_start"], "quiet_end": row["quiet_end"],
            "pings": bool(row["pings"])} if row else {
            "tz": "UTC", "quiet_start": None, "quiet_end": None, "pings": True}
        if tz is not None:
            cur["tz"] = check_zone(tz.strip())
        if quiet is not None:
            cur["quiet_start"], cur["quiet_end"] = parse_quiet(quiet)
        if pings is not None:
            cur["pings"] = pings
        if tz is not None or quiet is not None or pings is not None:
            await self.store.save_settings(user_id, cur["tz"], cur["quiet_start"],
                                           cur["quiet_end"], cur["pings"])
        return cur

    @tells_store_failures
    async def server_defaults(self, guild_id: int | None) -> ServerDefaults:
        """A server's pace, reminder and absence hours and language (Stolik's where unset)."""
        return await nudges.server_defaults(self.store, guild_id)

    @tells_store_failures
    async def save_server_defaults(self, guild_id: int, *, pace: str | None = None,
                                   remind_hours: float | None = None,
                                   absent_hours: float | None = None,
                                   lang: str | None = None) -> ServerDefaults:
        """Change some of a server's defaults (None keeps a value); checked before saving."""
        return await nudges.save_server_defaults(
            self.store, guild_id, pace=pace, remind_hours=remind_hours,
            absent_hours=absent_hours, lang=lang)

    # --- across games ----------------------------------------------------------------------
    @tells_store_failures
    async def mine(self, user_id: int) -> list[dict[str, Any]]:
        """Every open game the user sits in, with whose move it is and the turn message. A
        damaged game that cannot be rebuilt is listed by number and game (``damaged``),
        never silently left out."""
        out = []
        unreadable: list[DamagedRow] = []
        for row in await self.store.sessions_of_user(user_id, unreadable):
            to_act: list[int] = []
            damaged = False
            if row.status == "active":
                try:
                    to_act = engines.get(row.game_id).to_act(await self.sessions.state(row))
                except SessionError as exc:
                    if exc.key != "error.damaged_game":
                        raise
                    damaged = True
            out.append({"session": row, "id": row.id, "game_id": row.game_id,
                        "damaged": damaged, "to_act": to_act,
                        "my_turn": row.seat_of(user_id) in to_act,
                        "deadline": seat_deadline(row, row.seat_of(user_id))})
        out += [{"session": None, "id": exc.session_id, "game_id": exc.game_id,
                 "damaged": True, "to_act": [], "my_turn": False, "deadline": None}
                for exc in unreadable]
        return sorted(out, key=lambda entry: entry["id"] or 0)

    @tells_store_failures
    async def stats(self, user_id: int, guild_id: int | None) -> dict[str, dict[str, Any]]:
        """Per game type: games, wins and average score, in this server and everywhere (kept
        rows: see session/standings.py)."""
        return await self.sessions.standings.stats(user_id, guild_id)

    @tells_store_failures
    async def leaderboard(self, game_id: str, guild_id: int | None = None,
                          limit: int = 10) -> list[tuple[int, float, int]]:
        """(user, rating, rated games) best first, in one server or (None) everywhere."""
        return await self.sessions.standings.leaderboard(game_id, guild_id, limit)

    @tells_store_failures
    async def public_log(self, row: SessionRow, limit: int = 30) -> list[Notice]:
        """The move history as public notices only, rebuilt by replaying the log."""
        history = await public_history(self.sessions, row)
        return [notice for _, notices in history for notice in notices][-limit:]


def seat_deadline(row: SessionRow, seat: int | None) -> datetime | None:
    """When the seat's running clock runs out (None: no clock runs for it)."""
    if seat is None:
        return None
    target = row.seats[seat]
    if target.running_since is None or target.bank is None:
        return None
    return deadline(target.bank, datetime.fromisoformat(target.running_since))


def parse_quiet(text: str) -> tuple[int | None, int | None]:
    """'22-7' -> (22, 7); 'off' -> (None, None)."""
    text = text.strip().lower()
    if text in ("off", "none", "-", ""):
        return None, None
    try:
        start, end = (int(part) for part in text.split("-"))
    except ValueError:
        raise SessionError("error.bad_quiet", f"bad quiet hours {text!r}", quiet=text) from None
    if not (0 <= start <= 23 and 0 <= end <= 23) or start == end:
        raise SessionError("error.bad_quiet", f"bad quiet hours {text!r}", quiet=text)
    return start, end
