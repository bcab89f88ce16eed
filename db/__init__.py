"""Persistence: one interface over an embedded SQLite file or a PostgreSQL server, the schema
migrations and the session store."""

from db.database import (
    DamagedRow,
    Database,
    IntegrityViolation,
    SchemaMismatch,
    StaleVersion,
    StoreBusy,
    StoreError,
)
from db.migrate import migrate

# imported here so that each backend registers itself with Database (see db/database.py)
from db.postgres import PostgresDatabase
from db.sqlite import SqliteDatabase

__all__ = ["Database", "DamagedRow", "IntegrityViolation", "PostgresDatabase", "SchemaMismatch",
           "SqliteDatabase", "StaleVersion", "StoreBusy", "StoreError", "migrate"]
