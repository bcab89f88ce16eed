"""Every setting of the bot, declared once: its environment variable, type, default, check and
help. :func:`load` reads them all from an environment into one frozen :class:`Settings`; only
``bot.py`` imports this module and hands each part the values it needs through its constructor.

A bad value is never silently replaced by the default: :func:`load` collects every problem
(``python bot.py --check-config`` prints them all and exits non-zero), and an unknown
``STOLIK_*`` variable (a typo) is a warning naming the closest known one.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any
from urllib.parse import urlsplit, urlunsplit

PREFIX = "STOLIK_"
LOG_FORMATS = ("text", "json")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class BadSetting(ValueError):
    """A setting that cannot be used; the message says which and why."""


def _int(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise BadSetting(f"must be a whole number, not {text!r}") from None
        if low is not None and value < low:
            raise BadSetting(f"must be at least {low}, not {value}")
        if high is not None and value > high:
            raise BadSetting(f"must be at most {high}, not {value}")
        return value
    return parse


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise BadSetting(f"must be a number, not {text!r}") from None
    if not value > 0:
        raise BadSetting(f"must be more than 0, not {text}")
    return value


def _choice(options: tuple[str, ...], *, upper: bool = False) -> Callable[[str], str]:
    def parse(text: str) -> str:
        value = text.upper() if upper else text.lower()
        if value not in options:
            raise BadSetting(f"must be one of {', '.join(options)}, not {text!r}")
        return value
    return parse


def _flag(text: str) -> bool:
    value = text.lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise BadSetting(f"must be 1 or 0, not {text!r}")


def _text(text: str) -> str:
    return text


def _url(text: str) -> str:
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadSetting(f"must be an http:// or https:// URL, not {text!r}")
    return text


def _database(text: str) -> str:
    if text.startswith(("postgresql://", "postgres://")):
        try:
            parts = urlsplit(text)
            parts.port  # noqa: B018 - raises on a port that is not a number
        except ValueError as exc:
            raise BadSetting(f"is not a usable PostgreSQL URL ({exc})") from None
        if not parts.hostname and not parts.query:
            raise BadSetting("a postgresql:// URL needs a host")
    elif "://" in text:
        raise BadSetting(f"must be a SQLite file or a postgresql:// URL, not {mask_url(text)!r}")
    return text


def _host_port(text: str) -> tuple[str, int]:
    host, colon, port = text.rpartition(":")
    host = host.strip("[]")  # [::1]:9000
    if not colon or not host:
        raise BadSetting(f"must be HOST:PORT (e.g. 127.0.0.1:9100), not {text!r}")
    try:
        number = int(port)
    except ValueError:
        raise BadSetting(f"the port must be a number, not {port!r}") from None
    if not 0 <= number <= 65535:
        raise BadSetting(f"the port must be within 0-65535, not {number}")
    return host, number


def shard_ids(text: str) -> list[int]:
    """``0,1`` or ``0-3`` or both mixed -> sorted shard ids (checked against the count by
    :func:`load`)."""
    ids: set[int] = set()
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            span = range(int(first), int(last) + 1) if dash else range(int(first), int(first) + 1)
        except ValueError:
            raise BadSetting(f"{part.strip()!r} is not a shard id or a range a-b") from None
        if not span:
            raise BadSetting(f"the range {part.strip()!r} is empty")
        ids.update(span)
    return sorted(ids)


def mask_url(url: str) -> str:
    """A URL with its password replaced by ``***`` (for printing and logs)."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return url
    if not password:
        return url
    netloc = parts.netloc.replace(f":{password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def default_render_workers() -> int:
    return min(2, os.cpu_count() or 1)


@dataclass(frozen=True)
class Setting:
    """One environment variable: parsed by ``parse`` into the :class:`Settings` field
    ``name``; unset or empty gives ``default`` (called, when it is a function)."""

    env: str
    name: str
    parse: Callable[[str], Any]
    default: Any
    help: str
    shown_default: str = ""  # the default as the table shows it, when not simply ``default``
    secret: bool = False
    tests_only: bool = False


SETTINGS: tuple[Setting, ...] = (
    Setting("DISCORD_TOKEN", "token", _text, "", "the bot's token (required)", "", secret=True),
    Setting("STOLIK_DB", "db", _database, "stolik.sqlite3",
            "a SQLite file or a `postgresql://user:password@host/db` URL; `--db` overrides it. An "
            "empty database is enough: the tables are created at start-up"),
    Setting("STOLIK_DB_POOL", "db_pool", _int(1), 20,
            "PostgreSQL connections in this process's pool (at least 1)"),
    Setting("STOLIK_SHARD_COUNT", "shard_count", _int(1), None,
            "the total number of shards over all processes (at least what Discord recommends)",
            "Discord's"),
    Setting("STOLIK_SHARD_IDS", "shard_ids", shard_ids, None,
            "this process's shards: `0,1`, `0-3` or both mixed (needs `STOLIK_SHARD_COUNT`). "
            "Neither set: one process runs every shard Discord asks for; `STOLIK_SHARD_COUNT` "
            "alone: all of them in this process", "all"),
    Setting("STOLIK_GLOBAL_LIMIT", "global_limit", _int(1), 50,
            "requests a second this process may make outside interactions (Discord's global "
            "limit per bot token is 50: give each of several processes its share)"),
    Setting("STOLIK_RENDER_WORKERS", "render_workers", _int(0), default_render_workers,
            "processes that draw the images and decide computer moves (`0` draws in a thread)",
            "one per core, at most 2"),
    Setting("STOLIK_STATE_CACHE", "state_cache", _int(0), 256, "game states kept in memory"),
    Setting("STOLIK_IDLE_DAYS", "idle_days", _positive_float, 30.0,
            "days without a move before a game is warned and, a week later, archived", "30"),
    Setting("STOLIK_GUILD", "guild", _int(1), None,
            "a server id: sync the slash commands there at once (for development)"),
    Setting("STOLIK_HTTP", "http", _host_port, None,
            "`HOST:PORT` of the health and metrics endpoints (`/healthz`, `/readyz`, `/metrics`)",
            "off"),
    Setting("STOLIK_LOG_FORMAT", "log_format", _choice(LOG_FORMATS), "text",
            "`text`, or `json`: one JSON object a line; a game's lines carry `session_id`, "
            "`game_id` and `guild_id` (a `[s12 kingdomino g34]` prefix in text)"),
    Setting("STOLIK_LOG_LEVEL", "log_level", _choice(LOG_LEVELS, upper=True), "INFO",
            "`DEBUG` (every accepted move too; libraries stay at `INFO`), `INFO`, `WARNING` or `ERROR`"),
    Setting("STOLIK_LOOP_LAG_LOG", "loop_lag_log", _text, None,
            "a file that gets every 50 ms sample of the event loop's lag (for benchmarks); "
            "without it a minute whose worst lag passed 100 ms is logged as a warning"),
    Setting("STOLIK_DISCORD_API", "discord_api", _url, None,
            "the URL of a Discord-compatible server such as the stand-in in `tests/standin/`",
            tests_only=True),
    Setting("STOLIK_CLOCK_FILE", "clock_file", _text, None,
            "a file holding seconds added to the bot's clock, so an end-to-end test lets days "
            "pass", tests_only=True),
    Setting("STOLIK_STRICT_BOTS", "strict_bots", _flag, False,
            "`1` (set by the test suite): a computer player that fails raises, where in "
            "production a seeded random legal move is played instead", "0", tests_only=True),
)
KNOWN = tuple(s.env for s in SETTINGS)


@dataclass(frozen=True)
class Settings:
    """The effective settings (see :data:`SETTINGS` for what each means; :func:`load` fills
    every field, ``load({}).settings`` are the defaults)."""

    token: str
    db: str
    db_pool: int
    shard_count: int | None
    shard_ids: list[int] | None
    global_limit: int
    render_workers: int
    state_cache: int
    idle_days: float
    guild: int | None
    http: tuple[str, int] | None
    log_format: str
    log_level: str
    loop_lag_log: str | None
    discord_api: str | None
    clock_file: str | None
    strict_bots: bool


@dataclass(frozen=True)
class Loaded:
    """What :func:`load` found: the settings, every bad value, every unknown variable."""

    settings: Settings
    problems: list[str]
    warnings: list[str]


def load(env: Mapping[str, str]) -> Loaded:
    """Parse and check every setting in ``env``; never raises for a bad value (it is in
    ``problems``, and its field keeps the default)."""
    values: dict[str, Any] = {s.name: s.default() if callable(s.default) else s.default
                              for s in SETTINGS}
    problems: list[str] = []
    for setting in SETTINGS:
        text = env.get(setting.env, "").strip()
        if not text:
            continue
        try:
            values[setting.name] = setting.parse(text)
        except BadSetting as bad:
            problems.append(f"{setting.env}: {bad}")
    count, ids = values.get("shard_count"), values.get("shard_ids")
    if ids is not None:
        if count is None:
            if "STOLIK_SHARD_COUNT" not in " ".join(problems):
                problems.append("STOLIK_SHARD_IDS needs STOLIK_SHARD_COUNT (the total over all "
                                "processes)")
            values["shard_ids"] = None
        elif outside := [i for i in ids if not 0 <= i < count]:
            problems.append(f"STOLIK_SHARD_IDS: shard {outside[0]} is outside 0-{count - 1} "
                            f"(STOLIK_SHARD_COUNT={count})")
            values["shard_ids"] = None
    warnings = [unknown_warning(name) for name in sorted(env)
                if name.startswith(PREFIX) and name not in KNOWN]
    return Loaded(Settings(**values), problems, warnings)


def unknown_warning(name: str) -> str:
    closest = difflib.get_close_matches(name, KNOWN, n=1, cutoff=0.0)
    return f"{name} is not a Stolik setting (did you mean {closest[0]}?); it is ignored"


def shown(setting: Setting, value: Any) -> str:
    """A setting's value as --check-config prints it: secrets masked."""
    if value is None:
        return f"(unset: {setting.shown_default})" if setting.shown_default else "(unset)"
    if isinstance(value, bool):
        return "1" if value else "0"
    if setting.secret:
        return "***" if value else "(unset)"
    if setting.name == "db":
        return mask_url(value)
    if setting.name == "http":
        host, port = value
        return f"{host}:{port}"
    if setting.name == "shard_ids":
        return ",".join(map(str, value))
    return str(value)


def describe(settings: Settings) -> str:
    """Every effective setting, one a line, secrets masked (``--check-config``)."""
    width = max(len(s.env) for s in SETTINGS)
    return "\n".join(f"{s.env:<{width}}  {shown(s, getattr(settings, s.name))}"
                     + ("  (tests only)" if s.tests_only else "") for s in SETTINGS)


def markdown_table() -> str:
    """The README's table of settings (a test keeps the README equal to it)."""
    lines = ["| variable | default | what it does |", "|---|---|---|"]
    for s in SETTINGS:
        default = s.shown_default or ("unset" if s.default in (None, "") else str(s.default))
        what = ("tests only: " if s.tests_only else "") + s.help
        lines.append(f"| `{s.env}` | {default} | {what} |")
    return "\n".join(lines)


def check_fields() -> None:
    """Every declared setting has its field and every field its declaration (a test)."""
    declared = {s.name for s in SETTINGS}
    names = {f.name for f in fields(Settings)}
    if declared != names:
        raise AssertionError(f"declared {sorted(declared ^ names)} do not match Settings fields")
