"""What an operator watches, read from the session layer (no Discord here): whether the store
answers and runs the newest schema (readiness), how many games are open, how late the oldest
due timer is, and how many states the cache holds. ``cogs/ops.py`` serves them over HTTP."""

from __future__ import annotations

from datetime import datetime

from db.database import StoreError
from db.migrate import latest_version
from session.service import Sessions


class Health:
    """Read-only checks over one :class:`Sessions`; each answers in a single statement."""

    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions

    async def database(self) -> str | None:
        """None when the database answers a trivial read, else why not."""
        try:
            await self.sessions.db.ping()
        except StoreError as failed:
            return str(failed) or type(failed).__name__
        return None

    async def migrations(self) -> str | None:
        """None when the database is at the newest schema this code knows, else why not."""
        try:
            version = await self.sessions.db.schema_version()
        except StoreError as failed:
            return f"schema version unreadable: {failed}"
        latest = latest_version()
        return None if version == latest else f"schema {version}, this code expects {latest}"

    async def open_games(self) -> int:
        """Lobbies and running games (raises :class:`StoreError`)."""
        return await self.sessions.store.count_open()

    async def timers_overdue(self) -> float:
        """Seconds since the oldest due, unfired timer was due; 0 when none is due (raises
        :class:`StoreError`). A growing value: the dispatcher is stuck or cannot keep up."""
        due = await self.sessions.store.next_timer_due()
        if due is None:
            return 0.0
        late = (self.sessions.clock() - datetime.fromisoformat(due)).total_seconds()
        return max(0.0, late)

    def cached_states(self) -> int:
        return self.sessions.cached_states()
