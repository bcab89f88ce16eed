"""A local stand-in for Discord: the subset of the HTTP API and gateway that Stolik uses.

The unmodified bot (``python bot.py`` with ``STOLIK_DISCORD_API=http://127.0.0.1:PORT``) logs in,
syncs its commands, connects to the gateway and answers interactions here exactly as it would
on discord.com. Everything it sends is recorded (:attr:`Discord.calls`, :attr:`Discord.messages`,
:attr:`Discord.interactions`), Discord's own rules that a wrong call would break are enforced
and recorded as :attr:`Discord.violations` (late or double acknowledgement, follow-ups without
an acknowledgement, invalid components, content too long...), and faults are injected on demand
(:attr:`Discord.faults`). Loopback only.

:class:`Discord` is the shared model (:mod:`tests.standin.model`) with its parts attached: the
REST routes (:mod:`tests.standin.routes`), the gateway (:mod:`tests.standin.gateway`), the rate
limits and faults (:mod:`tests.standin.limits`); request bodies are checked by
:mod:`tests.standin.validation`. The names tests use are importable from here.
"""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from tests.standin.gateway import Gateway, GatewayConn, GatewaySession
from tests.standin.limits import GLOBAL_LIMIT, GLOBAL_REACTION, Faults, RateLimits
from tests.standin.model import (
    ACK_DEADLINE,
    APP_COMMAND,
    AUTOCOMPLETE_REQUEST,
    COMPONENT,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    EPHEMERAL,
    MESSAGE,
    TOKEN_LIFETIME,
    UPDATE,
    Call,
    Interaction,
    Message,
    Snapshot,
    World,
    now_iso,
    shard_of,
)
from tests.standin.routes import Routes

__all__ = [
    "APP_COMMAND", "AUTOCOMPLETE_REQUEST", "COMPONENT", "DEFERRED_MESSAGE", "DEFERRED_UPDATE",
    "EPHEMERAL", "GLOBAL_REACTION", "MESSAGE", "UPDATE", "Call", "Discord", "GatewaySession",
    "Interaction", "Message", "Snapshot", "now_iso", "shard_of",
]


class Discord(World):
    """The stand-in. ``await Discord().start()``; then run the bot with :meth:`bot_env`."""

    def __init__(self, *, channels: int = 3, heartbeat_interval: float = 41.25,
                 ack_deadline: float = ACK_DEADLINE, seed: int = 0,
                 token_lifetime: float = TOKEN_LIFETIME, check_spec: bool = True,
                 global_limit: int | None = GLOBAL_LIMIT) -> None:
        super().__init__(channels=channels, heartbeat_interval=heartbeat_interval,
                         ack_deadline=ack_deadline, token_lifetime=token_lifetime,
                         check_spec=check_spec)
        self.faults = Faults(seed)
        self.gateway = Gateway(self)
        self.limits = RateLimits(self.violations, global_limit)
        self.routes = Routes(self, self.gateway, self.limits, self.faults)
        self._runner: web.AppRunner | None = None

    def bot_env(self, db_path: str) -> dict[str, str]:
        """The settings that point an unmodified ``python bot.py`` at this stand-in."""
        return {"STOLIK_DISCORD_API": self.base_url, "DISCORD_TOKEN": self.token,
                "STOLIK_DB": db_path, "STOLIK_GUILD": str(self.guild_id)}

    async def start(self) -> Discord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.serve)
        app.router.add_get("/attachments/{channel}/{attachment}/{name}", self.routes.attachment)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.routes.serve)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()

    # --- the global limit (tests lower it or turn it off) ------------------------------
    @property
    def global_limit(self) -> int | None:
        return self.limits.global_limit

    @global_limit.setter
    def global_limit(self, value: int | None) -> None:
        self.limits.global_limit = value

    @property
    def global_window(self) -> float:
        return self.limits.global_window

    @global_window.setter
    def global_window(self, value: float) -> None:
        self.limits.global_window = value

    # --- the gateway ---------------------------------------------------------------------
    @property
    def current(self) -> GatewaySession | None:
        """The gateway session identified or resumed last (any shard)."""
        return self.gateway.current

    @property
    def shard_sessions(self) -> dict[tuple[int, int], GatewaySession]:
        return self.gateway.shard_sessions

    @property
    def all_conns(self) -> list[GatewayConn]:
        return self.gateway.all_conns

    @property
    def gateway_log(self) -> list[tuple[float, str]]:
        return self.gateway.log

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        return self.gateway.session_for(guild_id)

    async def close_gateway(self, code: int = 4000) -> None:
        await self.gateway.close(code)

    async def send_reconnect(self) -> None:
        await self.gateway.send_reconnect()

    def heartbeat_gaps(self) -> list[float]:
        return self.gateway.heartbeat_gaps()

    async def wait_ready(self, timeout: float = 60.0) -> GatewaySession:
        """The bot identified, got READY and GUILD_CREATE, and sent its first heartbeat."""
        def ready():
            session = self.current
            if session and session.conn and session.conn.heartbeats:
                return session
            return None
        return await self.wait_for(ready, timeout, "the bot to connect")

    # --- what users do -------------------------------------------------------------------
    async def send_interaction(self, user_id: int, channel_id: int, kind: int, data: dict[str, Any],
                               message: Message | None = None) -> Interaction:
        """Dispatch an INTERACTION_CREATE shaped like Discord's and return its record."""
        channel = self.channels[channel_id]
        inter = self.new_interaction(user_id, channel_id, kind, data, message)
        locale = self.locales.get(user_id, "en-US")
        payload: dict[str, Any] = {
            "id": str(inter.id), "application_id": str(self.app_id), "type": kind, "data": data,
            "token": inter.token, "version": 1, "locale": locale,
            "app_permissions": "2248473465835073", "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024, "channel_id": str(channel_id),
            "channel": {**channel.payload(self), "permissions": "2248473465835073"},
        }
        if channel.type == 1:
            payload["user"] = self.user_payload(user_id)
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"0": str(self.guild_id)}
        else:
            guild = str(channel.guild_id)
            payload.update({
                "guild_id": guild, "guild_locale": self.guild_locale, "context": 0,
                "guild": {"id": guild, "locale": self.guild_locale, "features": []},
                "authorizing_integration_owners": {"0": guild},
                "member": {"user": self.user_payload(user_id), "roles": [], "joined_at": now_iso(),
                           "deaf": False, "mute": False, "flags": 0, "pending": False, "nick": None,
                           "avatar": None, "premium_since": None, "communication_disabled_until": None,
                           "permissions": self.permissions_of(user_id)},
            })
        if message is not None:
            payload["message"] = message.payload(self)
        delivered = await self.gateway.dispatch("INTERACTION_CREATE", payload,
                                                guild_id=channel.guild_id if channel.type != 1 else None)
        if not delivered:
            inter.answers.append((time.monotonic(), "undelivered", None))
        return inter
