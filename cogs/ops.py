"""The operator's HTTP port (``STOLIK_HTTP=HOST:PORT``, off when unset), served by aiohttp in
the bot's own event loop:

- ``/healthz``: 200 while the process and its event loop answer at all;
- ``/readyz``: 200 when the gateway is connected for every shard this process runs, the
  database answers and is at the newest schema; else 503 and a JSON body naming each check
  that failed (``gateway``, ``database``, ``migrations``) and why;
- ``/metrics``: Prometheus text format (:mod:`cogs.metrics`); the database gauges (open
  games, timers overdue) are read at each scrape.

Nothing here is public to Discord users: bind it to a private address.
"""

from __future__ import annotations

import asyncio
import json
import logging

import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from cogs.metrics import Metrics
from session.errors import StoreError
from session.health import Health

log = logging.getLogger(__name__)

#: a check that takes longer fails (a probe must not hang on a stuck database)
CHECK_WAIT = 2.0


def gateway_problem(client: discord.AutoShardedClient) -> str | None:
    """None when every shard this process runs has an open gateway, else why not."""
    if client.is_closed():
        return "closed"
    if not client.is_ready():
        return "not connected yet"
    shards = client.shards
    expected = set(client.shard_ids) if client.shard_ids is not None else set(shards)
    down = sorted(expected - set(shards)) + sorted(
        shard_id for shard_id, shard in shards.items() if shard.is_closed())
    return f"shards {down} disconnected" if down else None


class OpsUnavailable(RuntimeError):
    """The port cannot be served (in use, a bad host): the bot does not start without it."""


class OpsServer:
    """The HTTP endpoints of one bot; :meth:`start` in its event loop, :meth:`stop` at close."""

    def __init__(self, client: discord.AutoShardedClient, health: Health, metrics: Metrics,
                 address: tuple[str, int]) -> None:
        self.client = client
        self.health = health
        self.metrics = metrics
        self.host, self.port = address
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/readyz", self.readyz)
        app.router.add_get("/metrics", self.scrape)
        self._runner = web.AppRunner(app, access_log=None)  # probes every few seconds: no log

    async def start(self) -> None:
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, self.host, self.port).start()
        except OSError as refused:  # asked for and not served: an operator would not notice
            await self._runner.cleanup()
            raise OpsUnavailable(f"cannot serve health and metrics on {self.host}:{self.port}"
                                 f" (STOLIK_HTTP): {refused.strerror or refused}") from None
        log.info("health and metrics on http://%s:%d/ (healthz, readyz, metrics)",
                 self.host, self.port)

    async def stop(self) -> None:
        await self._runner.cleanup()

    async def healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def readiness(self) -> dict[str, str]:
        """The checks that failed, each with why (empty: ready)."""
        failed: dict[str, str] = {}
        gateway = gateway_problem(self.client)
        if gateway:
            failed["gateway"] = gateway
        for name, check in (("database", self.health.database),
                            ("migrations", self.health.migrations)):
            try:
                async with asyncio.timeout(CHECK_WAIT):
                    problem = await check()
            except TimeoutError:
                problem = f"no answer within {CHECK_WAIT:g} s"
            if problem:
                failed[name] = problem
        return failed

    async def readyz(self, request: web.Request) -> web.Response:
        failed = await self.readiness()
        body = {"ready": not failed, "failed": failed}
        return web.Response(text=json.dumps(body) + "\n", content_type="application/json",
                            status=503 if failed else 200)

    async def scrape(self, request: web.Request) -> web.Response:
        await self.refresh()
        return web.Response(body=generate_latest(self.metrics.registry),
                            headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def refresh(self) -> None:
        """The gauges read at scrape time; a database that fails leaves its gauges as they
        were (the readiness check names the failure)."""
        metrics = self.metrics
        metrics.cached_states.set(self.health.cached_states())
        try:
            async with asyncio.timeout(CHECK_WAIT):
                metrics.open_games.set(await self.health.open_games())
                metrics.timers_overdue.set(await self.health.timers_overdue())
        except (StoreError, TimeoutError) as failed:
            log.warning("metrics: database gauges not read: %s", failed)
