"""Persistence: one interface over an embedded SQLite file or a PostgreSQL server, the schema
migrations and the session store."""

# each backend registers itself with Database (db/database.py) when imported
from db import postgres, sqlite  # noqa: F401
from db.database import (
    DamagedRow,
    Database,
    IntegrityViolation,
    StaleVersion,
    StoreBusy,
    StoreError,
)
from db.migrate import migrate

__all__ = ["Database", "DamagedRow", "IntegrityViolation", "StaleVersion", "StoreBusy",
           "StoreError", "migrate"]
