"""SQLite persistence (aiosqlite, WAL): schema migrations and the session store."""

from db.database import Database, migrate

__all__ = ["Database", "migrate"]
