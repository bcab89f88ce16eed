"""The operator's metrics and checks, part by part, on real parts: a real SQLite file (and the
test PostgreSQL server), the real Sessions, the bot as bot.py makes it (not connected)."""

from __future__ import annotations

import asyncio
import os

import pytest
from prometheus_client import generate_latest

import bot
import settings
from cogs.looplag import LoopLag
from cogs.metrics import REMEMBER, Metrics, api_path, bucket_of, status_class
from cogs.ops import gateway_problem
from cogs.pace import GlobalPace
from db import Database
from session.health import Health
from session.service import SessionError, Sessions
from tests.host import toy

#: the database parts run on SQLite and on PostgreSQL
BACKENDS = "both"


def value(metrics: Metrics, name: str, **labels: str) -> float | None:
    return metrics.registry.get_sample_value(name, labels)


async def test_each_database_call_is_timed_once_by_its_kind(db_path, backend):
    metrics = Metrics()
    db = await Database(db_path, observer=metrics.db_statement).open()
    try:
        before = {kind: value(metrics, "stolik_db_statement_seconds_count", kind=kind) or 0
                  for kind in ("fetchone", "fetchall", "lookup", "batch", "transaction")}
        await db.fetchone("SELECT COUNT(*) FROM sessions")  # SQLite's is its fetchall
        await db.lookup("SELECT id FROM sessions WHERE id = ?", (1,))  # may fall back to fetchone
        await db.batch([("UPDATE sessions SET version = version WHERE id = ?", (1,))])
        async with db.transaction() as tx:  # PostgreSQL's batch is one of these
            await tx.execute("UPDATE sessions SET version = version WHERE id = ?", (1,))
            await db.fetchall("SELECT id FROM sessions")  # a read of its own, counted
        after = {kind: value(metrics, "stolik_db_statement_seconds_count", kind=kind)
                 for kind in before}
        assert {kind: after[kind] - before[kind] for kind in before} == {
            "fetchone": 1, "fetchall": 1, "lookup": 1, "batch": 1, "transaction": 1}
        assert value(metrics, "stolik_db_statement_seconds_sum", kind="transaction") > 0
    finally:
        await db.close()


async def test_without_an_observer_the_calls_are_the_backends_own(db_path, backend):
    db = await Database(db_path).open()
    try:
        assert "fetchone" not in vars(db) and "transaction" not in vars(db)
    finally:
        await db.close()


async def test_readiness_names_an_unreachable_file_and_a_schema_behind(tmp_path, clock,
                                                                      monkeypatch):
    path = tmp_path / "stolik.sqlite3"
    db = await Database(path).open()
    try:
        health = Health(Sessions(db, clock=clock))
        assert await health.database() is None and await health.migrations() is None
        os.rename(path, tmp_path / "elsewhere")  # the open connections would still read it
        assert "unable to open" in (await health.database() or "")
        os.rename(tmp_path / "elsewhere", path)
        assert await health.database() is None
        monkeypatch.setattr("session.health.latest_version", lambda: 10_000)
        assert "expects 10000" in (await health.migrations() or "")
    finally:
        await db.close()


async def test_gauges_count_open_games_and_how_late_the_oldest_timer_is(sessions, clock,
                                                                        monkeypatch):
    health = Health(sessions)
    assert await health.open_games() == 0 and await health.timers_overdue() == 0
    opened = await sessions.new(guild_id=1, channel_id=10, game_id="toy", user_id=1,
                                name="Ala", players=2)
    assert await health.open_games() == 1
    await sessions.store.run([("INSERT INTO timers (session_id, kind, due_at) VALUES "
                               "(?, 'idle_warn', ?)", (opened.session.id, clock().isoformat()))])
    assert await health.timers_overdue() == 0
    clock.advance(seconds=90)
    assert await health.timers_overdue() == 90


async def test_moves_are_counted_by_game_and_outcome(db_path, backend, clock, monkeypatch):
    toy.install(monkeypatch)
    metrics = Metrics()
    db = await Database(db_path).open()
    sessions = Sessions(db, clock=clock, seed_source=lambda: 42, on_move=metrics.move)
    try:
        await sessions.new(guild_id=1, channel_id=10, game_id="toy", user_id=1, name="A",
                           players=2)
        sid = (await sessions.join(10, 2, "B")).session.id
        await sessions.act(sid, 1, "pick 2", version=0)
        for user, code, version in ((1, "pick 1", 0), (2, "pick 9", 1), (1, "pick 3", 0)):
            with pytest.raises(Exception):  # noqa: B017 - each is counted, then raised
                await sessions.act(sid, user, code, version=version)
        with pytest.raises(Exception):  # noqa: B017
            await sessions.act(999, 1, "pick 1")
        counts = {(s.labels["game"], s.labels["outcome"]): s.value
                  for s in metrics.moves.collect()[0].samples if s.name.endswith("_total")}
        assert counts == {("toy", "accepted"): 1, ("toy", "stale"): 2, ("toy", "refused"): 1,
                          ("unknown", "refused"): 1}
        # the store fails the move's write: the player is told, and the move counted failed
        await db.batch([("DROP TABLE actions" + (" CASCADE" if backend == "postgres" else ""),
                         ())])
        with pytest.raises(SessionError) as failed:
            await sessions.act(sid, 2, "pick 1", version=1)
        assert failed.value.key == "error.store_failed"
        assert value(metrics, "stolik_moves_total", game="toy", outcome="failed") == 1
    finally:
        await db.close()


def test_discord_calls_by_bucket_and_status_class():
    metrics = Metrics()
    base = "/api/v10"
    for path, status in ((f"{base}/channels/1/messages", 200), (f"{base}/channels/1/messages", 429),
                         (f"{base}/users/@me/channels", 403), (f"{base}/webhooks/9/tok", 401),
                         (f"{base}/webhooks/9/tok/messages/@original", 503),
                         (f"{base}/channels/1", 404), (f"{base}/channels/1", None),
                         ("/gateway", 101)):
        metrics.discord_call(path, status)
    got = {(s.labels["bucket"], s.labels["status"]): s.value
           for s in metrics.discord.collect()[0].samples if s.name.endswith("_total")}
    assert got == {("global", "2xx"): 1, ("global", "429"): 1, ("global", "401/403"): 1,
                   ("interaction", "401/403"): 1, ("interaction", "5xx"): 1,
                   ("global", "4xx"): 1, ("global", "error"): 1}  # the gateway is not REST
    assert api_path("/api/v10/interactions/5/t/callback") == "/interactions/5/t/callback"
    assert bucket_of("/interactions/5/t/callback") == "interaction"
    assert status_class(204) == "2xx" and status_class(403) == "401/403"


def test_first_answer_and_board_latency_from_the_interactions_arrival():
    now = [100.0]
    metrics = Metrics(clock=lambda: now[0])
    metrics.received(7)
    now[0] += 0.2
    metrics.discord_call("/api/v10/interactions/7/tok/callback", 429)  # not an answer yet
    metrics.discord_call("/api/v10/interactions/7/tok/callback", 204)
    now[0] += 0.5
    metrics.board_posted(7)
    metrics.board_posted(7)  # once only
    metrics.discord_call("/api/v10/interactions/8/tok/callback", 204)  # never seen: not timed
    assert value(metrics, "stolik_first_response_seconds_count") == 1
    assert value(metrics, "stolik_first_response_seconds_sum") == pytest.approx(0.2)
    assert value(metrics, "stolik_board_seconds_count") == 1
    assert value(metrics, "stolik_board_seconds_sum") == pytest.approx(0.7)


def test_arrivals_never_answered_are_forgotten():
    now = [0.0]
    metrics = Metrics(clock=lambda: now[0])
    for n in range(1000):
        metrics.received(n)
        now[0] += REMEMBER / 100  # a hundred arrivals per remembered span
    assert len(metrics._received) <= 102


def test_each_bot_has_its_own_registry():
    one, other = Metrics(), Metrics()
    one.move("kingdomino", "accepted")
    assert value(one, "stolik_moves_total", game="kingdomino", outcome="accepted") == 1
    assert b"kingdomino" not in generate_latest(other.registry)


async def test_pace_and_loop_lag_report_every_wait_and_sample():
    waits: list[float] = []
    now = [0.0]
    pace = GlobalPace(5, clock=lambda: now[0], on_wait=waits.append)
    async with pace:  # a burst of one at limit 5: the first is free
        pass
    assert waits == [0.0]
    assert pace.delay() > 0  # the next one would wait
    lags: list[float] = []
    watch = LoopLag(interval=0.01, on_sample=lags.append)
    watch.start()
    await asyncio.sleep(0.1)
    await watch.stop()
    assert len(lags) >= 3 and all(lag >= 0 for lag in lags)


async def test_readiness_wants_the_gateway_connected(tmp_path):
    config = settings.load({"STOLIK_DB": str(tmp_path / "b.sqlite3")}).settings
    client = bot.make_bot(config)  # made, never logged in
    assert gateway_problem(client) == "not connected yet"


@pytest.mark.parametrize(("text", "address"), [("", None), ("127.0.0.1:9100", ("127.0.0.1", 9100)),
                                               ("[::1]:80", ("::1", 80)),
                                               ("0.0.0.0:8080 ", ("0.0.0.0", 8080))])
def test_the_http_address(text, address):
    assert settings.load({"STOLIK_HTTP": text}).settings.http == address


@pytest.mark.parametrize("text", ["9100", "localhost", "host:http", ":9100", "h:70000"])
def test_a_bad_http_address_stops_the_start(text, monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("STOLIK_HTTP", text)
    monkeypatch.setattr(bot, "load_dotenv", lambda: None)
    monkeypatch.setattr(bot, "make_bot", lambda *a, **k: pytest.fail("the bot was started"))
    assert bot.main([]) == 2
    assert "STOLIK_HTTP" in capsys.readouterr().err
