"""A second (third...) bot process for the multi-process tests.

    python -m tests.host.worker TARGET FOLDER NAME NOW COMMAND ARGS...

Opens its own Database/Sessions on TARGET (a SQLite file or a postgresql:// URL), writes
FOLDER/NAME.ready, waits for FOLDER/go (so all workers act at the same moment), runs COMMAND and
prints one JSON line: ``act SID USER CODE VERSION`` -> {"version": n} or {"error": key};
``fire`` -> {"fired": [kinds]}; ``recover`` -> {"events": [kinds]}.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from datetime import datetime
from pathlib import Path

from db import Database
from engines.base import GameError
from session.rooms import compose
from session.service import Sessions


async def main(target: str, folder: Path, name: str, now: str, command: str, *args: str) -> dict:
    fixed = datetime.fromisoformat(now)
    async with Database(target) as db:
        sessions = Sessions(db, clock=lambda: fixed, strict_bots=True)
        timers = compose(sessions, owns=lambda guild_id: True).timers
        (folder / f"{name}.ready").touch()
        give_up = time.monotonic() + 60
        while not (folder / "go").exists():
            if time.monotonic() > give_up:
                return {"error": "no go signal"}
            await asyncio.sleep(0.002)
        if command == "act":
            sid, user, code, version = args
            try:
                out = await sessions.act(int(sid), int(user), code, int(version))
            except GameError as exc:
                return {"error": exc.key}
            return {"version": out.session.version}
        if command == "fire":
            return {"fired": [e.kind for e in await timers.fire_due()]}
        if command == "recover":
            return {"events": [e.kind for e in await timers.recover()]}
    raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    target, folder, name, now, command, *rest = sys.argv[1:]
    print(json.dumps(asyncio.run(main(target, Path(folder), name, now, command, *rest))))
