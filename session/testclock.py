"""A clock for end-to-end tests (``STOLIK_CLOCK_FILE``, unset in production; bot.py passes the
path): the real time plus the number of seconds written in that file, so a test through the
Discord stand-in can let days pass (quiet hours ending, a player gone for 72 hours) without
waiting. The file is read at each reading of the clock; a missing or empty file means no
offset."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from session.service import utcnow


def clock_from_file(path: str | None) -> Callable[[], datetime]:
    """The real clock without a path, else the real clock plus the file's offset."""
    if not path:
        return utcnow
    offset_file = Path(path)

    def clock() -> datetime:
        try:
            offset = float(offset_file.read_text().strip() or 0)
        except FileNotFoundError:
            offset = 0.0
        return utcnow() + timedelta(seconds=offset)

    return clock
