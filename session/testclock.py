"""``STOLIK_CLOCK_FILE`` (end-to-end tests only, unset in production): the bot's clock is the
real time plus the number of seconds written in that file, so a test through the Discord
stand-in can let days pass (quiet hours ending, a player gone for 72 hours) without waiting.
The file is read at each reading of the clock; a missing or empty file means no offset."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from session.service import utcnow


def clock_from_env() -> Callable[[], datetime]:
    path = os.environ.get("STOLIK_CLOCK_FILE")
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
