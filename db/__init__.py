"""Persistence: one interface over an embedded SQLite file or a PostgreSQL server, the schema
migrations and the session store."""

from db.database import (
    DamagedRow,
    Database,
    IntegrityViolation,
    StaleVersion,
    StoreBusy,
    StoreError,
    migrate,
)

__all__ = ["Database", "DamagedRow", "IntegrityViolation", "StaleVersion", "StoreBusy",
           "StoreError", "migrate"]
