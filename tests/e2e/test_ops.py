"""The operator's HTTP port of the real bot process (``STOLIK_HTTP``), read through a real HTTP
client while the bot plays against the stand-in: health, readiness and its failures, and the
Prometheus metrics matching what was played."""

from __future__ import annotations

import asyncio
import os
import random
import socket
import sqlite3
from pathlib import Path

import aiohttp
import asyncpg
import pytest
from prometheus_client.parser import text_string_to_metric_families

from db.migrate import latest_version
from tests.e2e.helpers import open_game
from tests.standin.botproc import BotProcess
from tests.standin.users import Player, Table, answer

FAMILIES = ("stolik_moves", "stolik_interactions", "stolik_first_response_seconds",
            "stolik_board_seconds", "stolik_discord_requests", "stolik_pace_wait_seconds",
            "stolik_event_loop_lag_seconds", "stolik_timers_overdue_seconds",
            "stolik_open_games", "stolik_state_cache_states", "stolik_db_statement_seconds")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def start_with_http(discord, db, tmp_path: Path) -> tuple[BotProcess, str]:
    port = free_port()
    bot = BotProcess(discord, db, tmp_path, extra_env={"STOLIK_HTTP": f"127.0.0.1:{port}"})
    await bot.start()
    return bot, f"http://127.0.0.1:{port}"


async def get(http: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    async with http.get(url) as response:
        return response.status, await response.text()


async def readiness(http: aiohttp.ClientSession, base: str) -> tuple[int, dict]:
    async with http.get(f"{base}/readyz") as response:
        return response.status, await response.json()


async def wait_ready(http: aiohttp.ClientSession, base: str, status: int, timeout: float = 10.0,
                     ) -> dict:
    """/readyz until it answers ``status`` (the gateway may still be saying hello)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout
    while True:
        got, body = await readiness(http, base)
        if got == status or loop.time() > give_up:
            assert got == status, body
            return body
        await asyncio.sleep(0.1)


def samples(text: str) -> dict[str, dict[tuple, float]]:
    """Metric family -> {labels as sorted pairs plus the sample's name: value}."""
    out: dict[str, dict[tuple, float]] = {}
    for family in text_string_to_metric_families(text):
        out[family.name] = {(s.name, *sorted(s.labels.items())): s.value for s in family.samples}
    return out


async def play(discord, moves: int) -> Table:
    channel = discord.text_channels[0]
    table = Table(discord, channel, [Player(discord, n) for n in ("Ala", "Bo")], random.Random(8))
    await open_game(table, "kingdomino")
    for _ in range(moves):
        await table.make_move(table.rng.choice(table.movers()), False)
    return table


async def test_health_readiness_and_metrics_of_the_running_bot(discord, tmp_path):
    db = tmp_path / "stolik.sqlite3"
    bot, base = await start_with_http(discord, db, tmp_path)
    try:
        async with aiohttp.ClientSession() as http:
            assert await get(http, f"{base}/healthz") == (200, "ok\n")
            assert await wait_ready(http, base, 200) == {"ready": True, "failed": {}}
            played = 6
            table = await play(discord, played)
            # an end vote goes to the channel as a message of its own: a paced call, refused
            # once with a 429 and a 500 (discord.py retries both: each counts as a request)
            refusals = [discord.faults.rate_limit("POST /channels/*/messages", retry_after=0.1),
                        discord.faults.server_error("POST /channels/*/messages")]
            count = len(table.public())
            vote = await table.players[0].command(table.channel_id, "game endvote")
            await answer(discord, vote)
            await discord.wait_for(lambda: len(table.public()) > count, 15, "the vote")
            status, text = await get(http, f"{base}/metrics")
            assert status == 200
            found = samples(text)
            assert set(FAMILIES) <= set(found), set(FAMILIES) - set(found)
            moves = found["stolik_moves"]
            assert moves[("stolik_moves_total", ("game", "kingdomino"), ("outcome", "accepted"))] \
                == played
            assert sum(moves.values()) == played  # nothing refused, stale or failed
            clicks = found["stolik_interactions"]
            assert clicks[("stolik_interactions_total", ("kind", "act"), ("outcome", "accepted"))] \
                == played
            # /game new and /game join: slash commands, answered and counted
            assert clicks[("stolik_interactions_total", ("kind", "command"),
                           ("outcome", "accepted"))] >= 1
            answers = found["stolik_first_response_seconds"][("stolik_first_response_seconds_count",)]
            assert answers >= played + 2  # every click and command was answered once
            board = found["stolik_board_seconds"]
            assert board[("stolik_board_seconds_count",)] == played
            assert 0 < board[("stolik_board_seconds_sum",)] < 30 * played
            calls = found["stolik_discord_requests"]
            ok = {dict(k[1:])["bucket"]: v for k, v in calls.items()
                  if dict(k[1:])["status"] == "2xx"}
            assert ok["interaction"] >= played and ok["global"] >= 1  # the lobby, boards
            # what the stand-in saw agrees: every call the bot made, by bucket
            made = sum(1 for c in discord.calls if 200 <= c.status < 300)
            assert sum(ok.values()) == made
            assert [f.hits for f in refusals] == [1, 1]
            assert calls[("stolik_discord_requests_total", ("bucket", "global"),
                          ("status", "429"))] == 1
            assert calls[("stolik_discord_requests_total", ("bucket", "global"),
                          ("status", "5xx"))] == 1
            assert found["stolik_open_games"][("stolik_open_games",)] == 1
            assert found["stolik_state_cache_states"][("stolik_state_cache_states",)] == 1
            assert found["stolik_timers_overdue_seconds"][("stolik_timers_overdue_seconds",)] \
                < 60
            assert found["stolik_event_loop_lag_seconds"][
                ("stolik_event_loop_lag_seconds_count",)] > 10
            kinds = {dict(k[1:])["kind"] for k in found["stolik_db_statement_seconds"]}
            assert {"lookup", "batch", "fetchall"} <= kinds
            paced = found["stolik_pace_wait_seconds"][("stolik_pace_wait_seconds_count",)]
            assert paced >= 1  # the vote went out under the pace

            # migrations not current: another (newer) Stolik moved the schema on
            with sqlite3.connect(db) as other:
                other.execute(f"PRAGMA user_version = {latest_version() + 1}")
            failed = (await wait_ready(http, base, 503))["failed"]
            assert set(failed) == {"migrations"} and str(latest_version()) in failed["migrations"]
            with sqlite3.connect(db) as other:
                other.execute(f"PRAGMA user_version = {latest_version()}")
            await wait_ready(http, base, 200)

            # the database file gone from its path (the open connections would not notice)
            os.rename(db, tmp_path / "moved.sqlite3")
            try:
                failed = (await wait_ready(http, base, 503))["failed"]
                assert "database" in failed and "unable to open" in failed["database"], failed
                assert (await get(http, f"{base}/healthz"))[0] == 200  # alive all the same
            finally:
                os.rename(tmp_path / "moved.sqlite3", db)
            await wait_ready(http, base, 200)
    finally:
        await bot.stop()
    assert "Traceback" not in bot.log_text(), bot.log_tail(60)


@pytest.mark.postgres
async def test_readiness_fails_when_the_postgresql_schema_is_gone(discord, tmp_path, postgres_url):
    bot, base = await start_with_http(discord, postgres_url, tmp_path)
    try:
        async with aiohttp.ClientSession() as http:
            await wait_ready(http, base, 200)
            await play(discord, 2)
            schema = postgres_url.rsplit("search_path=", 1)[-1]
            conn = await asyncpg.connect(postgres_url)
            try:
                await conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
            finally:
                await conn.close()
            failed = (await wait_ready(http, base, 503))["failed"]
            assert set(failed) == {"migrations"}, failed  # the server answers, the tables are gone
            status, text = await get(http, f"{base}/metrics")  # still served, gauges as they were
            assert status == 200 and "stolik_moves_total" in text
    finally:
        await bot.stop()


async def test_a_taken_port_stops_the_start_with_the_reason(discord, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        bot = BotProcess(discord, tmp_path / "stolik.sqlite3", tmp_path,
                         extra_env={"STOLIK_HTTP": f"127.0.0.1:{port}"})
        with pytest.raises(RuntimeError, match="exited with 1"):
            await bot.start()
    log = bot.log_text()
    assert f"Stolik cannot start: cannot serve health and metrics on 127.0.0.1:{port}" in log
    assert "Traceback" not in log
