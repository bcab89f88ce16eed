"""The real bot as its own process (``python bot.py``), pointed at the stand-in."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.standin.server import Discord

REPO = Path(__file__).resolve().parents[2]
#: settings of the developer's environment or .env that must not leak into the bot under test
_DROP = ("DISCORD_TOKEN", "STOLIK_DB", "STOLIK_GUILD", "STOLIK_DISCORD_API", "STOLIK_SHARD_COUNT",
         "STOLIK_SHARD_IDS", "STOLIK_HTTP")
_TICKS = os.sysconf("SC_CLK_TCK")


class BotProcess:
    """Start, kill -9 and restart ``bot.py``; read its CPU time and memory from /proc."""

    def __init__(self, discord: Discord, db_path: Path | str, workdir: Path, *,
                 log_name: str = "bot.log",
                 extra_env: dict[str, str] | None = None, shard_ids: list[int] | None = None,
                 shard_count: int | None = None, checkout: Path = REPO) -> None:
        """``shard_ids`` of ``shard_count``: this process runs those shards only (sharding);
        ``checkout``: whose ``bot.py`` runs (a benchmark may run an older checkout)."""
        self.discord = discord
        self.checkout = checkout
        self.shard_ids, self.shard_count = shard_ids, shard_count
        self.db_path = db_path
        self.workdir = workdir
        self.log_path = workdir / log_name
        self.extra_env = extra_env or {}
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    async def start(self, timeout: float = 60.0) -> None:
        """Start ``python bot.py`` and wait until its gateway session is up."""
        env = {k: v for k, v in os.environ.items() if k not in _DROP}
        env.update(self.discord.bot_env(str(self.db_path)))
        env.update({"PYTHONUNBUFFERED": "1", "PYTHONPATH": str(self.checkout)}, **self.extra_env)
        if self.shard_ids is not None and self.shard_count is not None:
            env.update({"STOLIK_SHARD_COUNT": str(self.shard_count),
                        "STOLIK_SHARD_IDS": ",".join(map(str, self.shard_ids))})
        self.workdir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")  # noqa: SIM115 - handed to the child
        log.write(f"--- start {self.starts + 1}\n".encode())
        log.flush()
        before = self.discord.current
        shards_before = dict(self.discord.shard_sessions)
        # cwd is a scratch folder, so a developer's .env is not read
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, str(self.checkout / "bot.py"), cwd=self.workdir, env=env,
            stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log)
        log.close()
        self.starts += 1
        def connected() -> bool:
            if self.shard_ids is not None and self.shard_count is not None:
                # every shard of this process has a new session, up and beating
                keys = [(shard_id, self.shard_count) for shard_id in self.shard_ids]
                sessions = [self.discord.shard_sessions.get(key) for key in keys]
                return all(s is not None and s is not shards_before.get(key) and s.conn is not None
                           and s.conn.heartbeats for key, s in zip(keys, sessions, strict=True))
            current = self.discord.current
            return bool(current is not before and current is not None
                        and current.conn is not None and current.conn.heartbeats)

        waiter = asyncio.ensure_future(self.discord.wait_for(connected, timeout,
                                                             "the bot to connect"))
        exited = asyncio.ensure_future(self.proc.wait())
        done, _ = await asyncio.wait({waiter, exited}, return_when=asyncio.FIRST_COMPLETED)
        if exited in done:
            waiter.cancel()
            raise RuntimeError(f"bot.py exited with {self.proc.returncode}:\n{self.log_tail()}")
        exited.cancel()
        waiter.result()

    def kill(self) -> None:
        """kill -9: no clean-up of any kind runs in the bot."""
        if self.proc is not None and self.proc.returncode is None:
            os.kill(self.proc.pid, signal.SIGKILL)

    async def wait_dead(self) -> None:
        if self.proc is not None:
            await self.proc.wait()

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                self.kill()
                await self.proc.wait()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def log_tail(self, lines: int = 40) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    # --- resources (Linux /proc) ---------------------------------------------------------
    def processes(self) -> list[int]:
        """The bot and every process under it (its render workers)."""
        children: dict[int, list[int]] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
        out, todo = [], [self.pid]
        while todo:
            pid = todo.pop()
            out.append(pid)
            todo.extend(children.get(pid, []))
        return out

    def cpu_seconds(self, *, tree: bool = False) -> float:
        """User + system CPU seconds of the bot process (``tree``: with its workers)."""
        total = 0.0
        for pid in self.processes() if tree else [self.pid]:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / _TICKS
        return total

    def memory(self, *, tree: bool = False) -> dict[str, int]:
        """Resident memory now and at its peak, in bytes (``tree``: summed with its workers)."""
        out = {"VmRSS": 0, "VmHWM": 0}
        for pid in self.processes() if tree else [self.pid]:
            try:
                lines = Path(f"/proc/{pid}/status").read_text().splitlines()
            except OSError:
                continue
            for line in lines:
                key, _, value = line.partition(":")
                if key in out:
                    out[key] += int(value.split()[0]) * 1024
        return out
