"""settings.py: every setting parsed and checked in one place; --check-config and the README's
table come from it; no module below bot.py reads the environment."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import settings
from db import Database

REPO = Path(__file__).resolve().parents[1]

#: for every setting: a value as written in the environment and what it becomes
GOOD = {
    "DISCORD_TOKEN": ("abc.def", "abc.def"),
    "STOLIK_DB": ("postgresql://stolik:pw@db.example:5432/stolik",
                  "postgresql://stolik:pw@db.example:5432/stolik"),
    "STOLIK_DB_POOL": (" 35 ", 35),
    "STOLIK_SHARD_COUNT": ("4", 4),
    "STOLIK_SHARD_IDS": ("3, 0-1", [0, 1, 3]),
    "STOLIK_GLOBAL_LIMIT": ("25", 25),
    "STOLIK_RENDER_WORKERS": ("0", 0),
    "STOLIK_STATE_CACHE": ("1000", 1000),
    "STOLIK_IDLE_DAYS": ("0.5", 0.5),
    "STOLIK_GUILD": ("123456789", 123456789),
    "STOLIK_HTTP": ("[::1]:9100", ("::1", 9100)),
    "STOLIK_LOG_FORMAT": ("JSON", "json"),
    "STOLIK_LOG_LEVEL": ("debug", "DEBUG"),
    "STOLIK_LOOP_LAG_LOG": ("/tmp/lag.txt", "/tmp/lag.txt"),
    "STOLIK_DISCORD_API": ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
    "STOLIK_CLOCK_FILE": ("/tmp/clock", "/tmp/clock"),
    "STOLIK_STRICT_BOTS": ("1", True),
}

#: a value each setting refuses, and what the refusal says
BAD = [
    ("STOLIK_DB", "mysql://x/y", "SQLite file or a postgresql:// URL"),
    ("STOLIK_DB", "postgresql://u:pw@h:port/db", "not a usable PostgreSQL URL"),
    ("STOLIK_DB_POOL", "0", "at least 1"),
    ("STOLIK_DB_POOL", "ten", "whole number"),
    ("STOLIK_SHARD_COUNT", "two", "whole number"),
    ("STOLIK_SHARD_COUNT", "0", "at least 1"),
    ("STOLIK_GLOBAL_LIMIT", "0", "at least 1"),
    ("STOLIK_RENDER_WORKERS", "-1", "at least 0"),
    ("STOLIK_STATE_CACHE", "many", "whole number"),
    ("STOLIK_IDLE_DAYS", "0", "more than 0"),
    ("STOLIK_IDLE_DAYS", "soon", "a number"),
    ("STOLIK_GUILD", "my server", "whole number"),
    ("STOLIK_HTTP", "9100", "HOST:PORT"),
    ("STOLIK_HTTP", "localhost:http", "port must be a number"),
    ("STOLIK_HTTP", "localhost:70000", "within 0-65535"),
    ("STOLIK_LOG_FORMAT", "xml", "one of text, json"),
    ("STOLIK_LOG_LEVEL", "loud", "one of DEBUG"),
    ("STOLIK_DISCORD_API", "127.0.0.1:8080", "http:// or https:// URL"),
    ("STOLIK_STRICT_BOTS", "maybe", "1 or 0"),
]


def test_every_setting_is_declared_once_with_its_field_and_help():
    settings.check_fields()
    names = [s.env for s in settings.SETTINGS]
    assert len(names) == len(set(names))
    assert all(s.help and len(s.help) < 300 for s in settings.SETTINGS)
    assert set(GOOD) == set(names)  # a new setting gets a test here


@pytest.mark.parametrize("env", list(GOOD))
def test_every_setting_is_parsed(env):
    text, value = GOOD[env]
    loaded = settings.load({env: text, "STOLIK_SHARD_COUNT": "4"})
    assert loaded.problems == [] and loaded.warnings == []
    name = next(s.name for s in settings.SETTINGS if s.env == env)
    assert getattr(loaded.settings, name) == value


@pytest.mark.parametrize(("env", "text", "says"), BAD)
def test_a_bad_value_is_refused_with_the_reason(env, text, says):
    loaded = settings.load({env: text})
    [problem] = loaded.problems
    assert problem.startswith(f"{env}: ") and says in problem
    assert "pw" not in problem  # a password is never printed


def test_unset_or_empty_gives_the_defaults():
    defaults = settings.load({}).settings
    assert settings.load({"STOLIK_DB_POOL": "  ", "STOLIK_HTTP": ""}).settings == defaults
    assert (defaults.db, defaults.db_pool, defaults.http, defaults.log_format) == \
        ("stolik.sqlite3", 20, None, "text")
    assert (defaults.global_limit, defaults.state_cache, defaults.idle_days) == (50, 256, 30.0)
    assert defaults.render_workers == min(2, os.cpu_count() or 1)
    assert (defaults.strict_bots, defaults.shard_count, defaults.shard_ids) == (False, None, None)


def test_every_bad_value_is_named_at_once():
    loaded = settings.load({"STOLIK_DB_POOL": "0", "STOLIK_LOG_FORMAT": "xml",
                            "STOLIK_HTTP": "nowhere"})
    assert [p.split(":")[0] for p in loaded.problems] == [
        "STOLIK_DB_POOL", "STOLIK_HTTP", "STOLIK_LOG_FORMAT"]


@pytest.mark.parametrize(("count", "ids", "says"), [
    ("", "0", "needs STOLIK_SHARD_COUNT"),
    ("2", "2", "outside 0-1"),
    ("2", "-1", "not a shard id"),
    ("4", "3-1", "empty"),
    ("4", "a", "not a shard id"),
])
def test_bad_shard_settings_are_refused_with_the_reason(count, ids, says):
    loaded = settings.load({"STOLIK_SHARD_COUNT": count, "STOLIK_SHARD_IDS": ids})
    [problem] = loaded.problems
    assert says in problem and loaded.settings.shard_ids is None


def test_shard_settings_default_to_one_process_with_every_shard():
    def shards(count, ids):
        got = settings.load({"STOLIK_SHARD_COUNT": count, "STOLIK_SHARD_IDS": ids})
        return got.settings.shard_count, got.settings.shard_ids

    assert shards("", "") == (None, None)
    assert shards("4", "") == (4, None)
    assert shards("4", "0-1") == (4, [0, 1])
    assert shards(" 8 ", "6, 0-1,7") == (8, [0, 1, 6, 7])


@pytest.mark.parametrize(("typo", "meant"), [
    ("STOLIK_GLOBL_LIMIT", "STOLIK_GLOBAL_LIMIT"),
    ("STOLIK_DB_POOLS", "STOLIK_DB_POOL"),
    ("STOLIK_LOGFORMAT", "STOLIK_LOG_FORMAT"),
    ("STOLIK_SHARDS", "STOLIK_SHARD_IDS"),
])
def test_an_unknown_stolik_variable_is_a_warning_naming_the_closest(typo, meant):
    loaded = settings.load({typo: "1", "HOME": "/root", "STOLIKX": "not ours"})
    assert loaded.problems == []
    [warning] = loaded.warnings
    assert warning.startswith(typo) and f"did you mean {meant}?" in warning


def test_a_password_in_a_database_url_is_masked():
    assert settings.mask_url("postgresql://stolik:s3cr%40t@db:5432/x?sslmode=require") == \
        "postgresql://stolik:***@db:5432/x?sslmode=require"
    assert settings.mask_url("postgresql://stolik@db/x") == "postgresql://stolik@db/x"
    assert settings.mask_url("stolik.sqlite3") == "stolik.sqlite3"


def test_the_pool_size_reaches_the_postgresql_backend_only():
    import bot

    pg = settings.load({"STOLIK_DB": "postgresql://u@h/db", "STOLIK_DB_POOL": "7"}).settings
    assert Database(pg.db, **bot.database_options(pg)).pool_size == 7
    lite = settings.load({"STOLIK_DB_POOL": "7"}).settings
    assert bot.database_options(lite) == {}


# --- the bot's command line, as a real process -------------------------------------------------

def run_bot(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(settings.PREFIX) and k != "DISCORD_TOKEN"}
    clean.update(env, PYTHONPATH=str(REPO))
    # cwd is a scratch folder, so a developer's .env is not read
    return subprocess.run([sys.executable, str(REPO / "bot.py"), *args], cwd=tmp_path, env=clean,
                          capture_output=True, text=True, timeout=60)


def test_check_config_prints_the_settings_with_secrets_masked(tmp_path):
    done = run_bot(tmp_path, "--check-config", DISCORD_TOKEN="MTIz.secret-token",
                   STOLIK_DB="postgresql://stolik:hunter2@db.example/stolik",
                   STOLIK_HTTP="127.0.0.1:9100", STOLIK_DB_POOL="30", STOLIK_LOG_FORMAT="json")
    assert done.returncode == 0, done.stderr
    assert "secret-token" not in done.stdout + done.stderr
    assert "hunter2" not in done.stdout + done.stderr
    lines = dict(line.split(None, 1) for line in done.stdout.splitlines())
    assert set(lines) == {s.env for s in settings.SETTINGS}
    assert lines["DISCORD_TOKEN"] == "***"
    assert lines["STOLIK_DB"] == "postgresql://stolik:***@db.example/stolik"
    assert (lines["STOLIK_HTTP"], lines["STOLIK_DB_POOL"], lines["STOLIK_LOG_FORMAT"]) == \
        ("127.0.0.1:9100", "30", "json")
    assert lines["STOLIK_STRICT_BOTS"] == "0  (tests only)"
    assert done.stderr == ""


def test_check_config_exits_non_zero_naming_every_bad_value(tmp_path):
    done = run_bot(tmp_path, "--check-config", DISCORD_TOKEN="t", STOLIK_DB_POOL="0",
                   STOLIK_HTTP="everywhere", STOLIK_GLOBL_LIMIT="3")
    assert done.returncode == 2
    assert "bad setting: STOLIK_DB_POOL: must be at least 1" in done.stderr
    assert "bad setting: STOLIK_HTTP: must be HOST:PORT" in done.stderr
    assert "warning: STOLIK_GLOBL_LIMIT is not a Stolik setting (did you mean " \
           "STOLIK_GLOBAL_LIMIT?)" in done.stderr


def test_check_config_without_a_token_is_refused(tmp_path):
    done = run_bot(tmp_path, "--check-config")
    assert done.returncode == 2 and "bad setting: DISCORD_TOKEN: not set" in done.stderr


def test_an_unknown_variable_is_logged_when_the_bot_starts(tmp_path):
    # no token: the bot stops before connecting, after its settings were read and logged
    done = run_bot(tmp_path, STOLIK_STATE_CAHCE="10", STOLIK_LOG_FORMAT="json")
    assert done.returncode == 2
    assert "STOLIK_STATE_CAHCE is not a Stolik setting (did you mean STOLIK_STATE_CACHE?)" \
        in done.stderr
    assert '"level": "WARNING"' in done.stderr  # logged as a JSON line


# --- the README -------------------------------------------------------------------------------

def test_the_readme_table_is_the_settings_table(tmp_path):
    table = settings.markdown_table()
    printed = run_bot(tmp_path, "--settings-table")
    assert printed.returncode == 0 and printed.stdout == table + "\n"
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert table in readme, "README.md: paste `python bot.py --settings-table` over its table"
    # no other table row names a setting: the generated table is the only one
    rows = [line for line in readme.splitlines() if line.startswith(("| `STOLIK_", "| `DISCORD_"))]
    assert len(rows) == len(settings.SETTINGS)
    assert len(readme.splitlines()) < 200


# --- where settings are read --------------------------------------------------------------------

def test_no_module_below_bot_py_reads_the_environment():
    """bot.py reads the settings (settings.py) and hands each part its values."""
    readers = []
    for folder in ("cogs", "session", "db", "render", "engines", "text"):
        for path in sorted((REPO / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                name = node.attr if isinstance(node, ast.Attribute) else \
                    node.id if isinstance(node, ast.Name) else None
                if isinstance(node, ast.ImportFrom):
                    name = next((a.name for a in node.names if a.name in ("environ", "getenv")),
                                None)
                if name in ("environ", "getenv", "environb"):
                    readers.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert readers == []
