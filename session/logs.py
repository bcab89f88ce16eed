"""Which game a log line is about, and the log format (``STOLIK_LOG_FORMAT``).

A game's work (a click, a command, a timer firing, a publish) binds the game it is about in a
context variable: :func:`scope` around a piece of work in a loop, :func:`bind` in a task of its
own (discord.py runs each interaction in its own task, so a binding ends with it; a task
started inside inherits it). :class:`GameFields` puts ``session_id``, ``game_id`` and
``guild_id`` on every record logged meanwhile: fields in JSON lines, a short prefix
(``[s12 kingdomino g34]``) in text. Imports nothing from the rest of ``session/``.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from typing import IO, Any

FIELDS = ("session_id", "game_id", "guild_id")
_game: ContextVar[dict[str, Any] | None] = ContextVar("stolik_game", default=None)


def current() -> dict[str, Any]:
    """The game fields bound in this context (empty outside a game's work)."""
    return dict(_game.get() or {})


def bind(**fields: Any) -> None:
    """Add game fields to this task's context (None values are left out)."""
    _game.set({**(_game.get() or {}), **{k: v for k, v in fields.items() if v is not None}})


def bind_row(row: Any) -> None:
    """Bind the game a session row is (its id, game and guild)."""
    bind(session_id=row.id, game_id=row.game_id, guild_id=row.guild_id)


def start(**fields: Any) -> None:
    """The start of a task's game work (an interaction): only these fields, until more are
    bound (a task that handled another game before keeps none of its fields)."""
    _game.set({k: v for k, v in fields.items() if v is not None})


@contextlib.contextmanager
def scope(**fields: Any) -> Iterator[None]:
    """One piece of a game's work: only these fields (and what is bound inside) hold until the
    block ends, then what was bound before is back."""
    token = _game.set({k: v for k, v in fields.items() if v is not None})
    try:
        yield
    finally:
        _game.reset(token)


class GameFields(logging.Filter):
    """Copies the bound game fields onto each record (attach it to the handlers)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in (_game.get() or {}).items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


def prefix(record: logging.LogRecord) -> str:
    """``[s12 kingdomino g34] `` for a game's line, empty for any other."""
    parts = []
    if (sid := getattr(record, "session_id", None)) is not None:
        parts.append(f"s{sid}")
    if (game := getattr(record, "game_id", None)) is not None:
        parts.append(str(game))
    if (guild := getattr(record, "guild_id", None)) is not None:
        parts.append(f"g{guild}")
    return f"[{' '.join(parts)}] " if parts else ""


class TextFormatter(logging.Formatter):
    """The plain format, with the game's prefix before the message."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(game_prefix)s%(message)s")

    def format(self, record: logging.LogRecord) -> str:
        record.game_prefix = prefix(record)
        return super().format(record)


def formatter(log_format: str) -> logging.Formatter:
    """The formatter of ``text`` or ``json`` (one JSON object a line: time, level, logger,
    message, the game fields and any ``extra``)."""
    if log_format == "json":
        from pythonjsonlogger.json import JsonFormatter

        return JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s",
                             rename_fields={"asctime": "time", "levelname": "level",
                                            "name": "logger"})
    return TextFormatter()


def configure(log_format: str = "text", level: str = "INFO",
              stream: IO[str] | None = None) -> logging.Handler:
    """Send the root logger's records to ``stream`` (stderr) in ``log_format``; returns the
    handler (a test removes it again)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter(log_format))
    handler.addFilter(GameFields())
    handler.set_name("stolik")
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == "stolik"]:
        root.removeHandler(old)  # configured again (tests run main() more than once)
    root.addHandler(handler)
    root.setLevel(level)
    for library in ("aiosqlite", "asyncio", "discord"):
        # their DEBUG is every statement and gateway frame: the bot's own DEBUG is the moves
        logging.getLogger(library).setLevel(max(logging.INFO, root.level))
    return handler
