"""The stand-in's REST API: the routes the bot calls, each answered as Discord answers it.

:meth:`Routes.serve` takes every request through Discord's order: record the call, the rate
limits (:mod:`tests.standin.limits`), injected faults, the spec check
(:mod:`tests.standin.validation`), then the route's handler; a handler returns (status,
payload) or raises :class:`~tests.standin.validation.HTTPError`."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

from tests.standin.gateway import Gateway
from tests.standin.limits import Faults, RateLimits, discord_response, major_of
from tests.standin.model import (
    AUTOCOMPLETE,
    AUTOCOMPLETE_REQUEST,
    COMPONENT,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    EPHEMERAL,
    LOADING,
    MESSAGE,
    NONCE_WINDOW,
    UPDATE,
    Attachment,
    Call,
    Channel,
    Interaction,
    Message,
    World,
)
from tests.standin.validation import (
    HTTPError,
    check_choices,
    check_message,
    check_nonce,
    check_spec,
    check_thread_name,
    invalid_form,
    list_query,
)

ROUTES: list[tuple[str, str, str]] = [
    ("GET", r"/users/@me", "get_me"),
    ("GET", r"/oauth2/applications/@me", "get_app"),
    ("GET", r"/gateway", "get_gateway"),
    ("GET", r"/gateway/bot", "get_gateway"),
    ("PUT", r"/applications/(?P<application_id>\d+)/commands", "put_commands"),
    ("PUT", r"/applications/(?P<application_id>\d+)/guilds/(?P<guild_id>\d+)/commands", "put_commands"),
    ("GET", r"/applications/(?P<application_id>\d+)/guilds/(?P<guild_id>\d+)/commands", "get_commands"),
    ("GET", r"/channels/(?P<channel_id>\d+)", "get_channel"),
    ("DELETE", r"/channels/(?P<channel_id>\d+)", "delete_channel"),
    ("POST", r"/channels/(?P<channel_id>\d+)/threads", "create_thread"),
    ("POST", r"/channels/(?P<channel_id>\d+)/messages", "post_message"),
    ("GET", r"/channels/(?P<channel_id>\d+)/messages", "list_messages"),
    ("GET", r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)", "get_message"),
    ("PATCH", r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)", "patch_message"),
    ("DELETE", r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)", "delete_message"),
    ("GET", r"/users/(?P<user_id>\d+)", "get_user"),
    ("POST", r"/users/@me/channels", "create_dm"),
    ("POST", r"/interactions/(?P<interaction_id>\d+)/(?P<token>[^/]+)/callback", "callback"),
    ("POST", r"/webhooks/(?P<webhook_id>\d+)/(?P<token>[^/]+)", "followup"),
    ("GET", r"/webhooks/(?P<webhook_id>\d+)/(?P<token>[^/]+)/messages/(?P<message_id>@original|\d+)",
     "get_webhook_message"),
    ("PATCH", r"/webhooks/(?P<webhook_id>\d+)/(?P<token>[^/]+)/messages/(?P<message_id>@original|\d+)",
     "edit_webhook_message"),
    ("DELETE", r"/webhooks/(?P<webhook_id>\d+)/(?P<token>[^/]+)/messages/(?P<message_id>@original|\d+)",
     "delete_webhook_message"),
]
_COMPILED = [(m, re.compile(p + "$"), name, re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", p))
             for m, p, name in ROUTES]


def route(method: str, path: str) -> tuple[str, str, dict[str, str]] | None:
    """(handler name, route template, parameters) of a REST path, or None."""
    for route_method, regex, name, template in _COMPILED:
        match = regex.match(path)
        if route_method == method and match:
            return name, template, match.groupdict()
    return None


async def read_body(request: web.Request, world: World) -> tuple[Any, list[Attachment]]:
    """A request's JSON body and uploaded files (multipart: ``payload_json`` + ``files[n]``)."""
    files: list[Attachment] = []
    # the raw header: aiohttp's content_type parses it with the email package (a tenth of
    # this process's CPU at 200 games, bench/bench_load.py)
    if request.headers.get("Content-Type", "").lower().startswith("multipart/"):
        body: Any = None
        reader = await request.multipart()
        async for part in reader:
            if part.name == "payload_json":  # type: ignore[union-attr]
                body = json.loads(await part.text())  # type: ignore[union-attr]
            elif part.name and part.name.startswith("files["):  # type: ignore[union-attr]
                data = await part.read()  # type: ignore[union-attr]
                files.append(Attachment(world.snowflake(), part.filename or "file",  # type: ignore
                                        bytes(data),
                                        part.headers.get("Content-Type",  # type: ignore[union-attr]
                                                         "application/octet-stream")))
        for attachment in files:
            if attachment.filename.endswith(".png") and attachment.data.startswith(b"\x89PNG"):
                attachment.content_type = "image/png"
        # a new upload is named in payload_json's attachments by its index among the files
        # (an interaction callback has them under ``data``, as Discord reads them there)
        payload = body if isinstance(body, dict) else {}
        inner = payload.get("data")
        named = payload.get("attachments") or (
            inner.get("attachments") if isinstance(inner, dict) else None) or []
        for entry in named:
            index = str(entry.get("id"))
            if index.isdigit() and int(index) < len(files):
                files[int(index)].description = entry.get("description")
        return body, files
    raw = await request.read()
    if not raw:
        return None, files
    return json.loads(raw), files


class Routes:
    """The REST handlers, named as in :data:`ROUTES`, over the stand-in's :class:`World`."""

    def __init__(self, world: World, gateway: Gateway, limits: RateLimits, faults: Faults) -> None:
        self.world = world
        self.gateway = gateway
        self.limits = limits
        self.faults = faults
        #: (channel id, nonce) -> (message id, when) of posts with ``enforce_nonce``
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}
        #: interaction callback type -> what answering it makes (the message, if any)
        self._callbacks: dict[int, Callable[[Interaction, dict[str, Any], list[Attachment]],
                                            Message | None]] = {
            MESSAGE: self.reply, DEFERRED_MESSAGE: self.defer,
            DEFERRED_UPDATE: self.defer_update, UPDATE: self.update,
            AUTOCOMPLETE: self.autocomplete}

    # --- the pipeline ------------------------------------------------------------------
    async def attachment(self, request: web.Request) -> web.Response:
        """An uploaded file, served back at its URL."""
        attachment_id = int(request.match_info["attachment"])
        for message in self.world.messages.values():
            for a in message.attachments:
                if a.id == attachment_id:
                    return web.Response(body=a.data, content_type=a.content_type)
        raise web.HTTPNotFound()

    async def serve(self, request: web.Request) -> web.Response:
        world = self.world
        path = "/" + request.match_info["tail"]
        method = request.method
        found = route(method, path)
        if found is None:
            world.violations.append(f"unsupported call {method} {path}")
            return discord_response(404, {"code": 0, "message": "404: Not Found"})
        name, template, params = found
        body, files = await read_body(request, world)
        call = Call(time.monotonic(), method, path, template, major_of(params), body,
                    [(f.filename, len(f.data)) for f in files],
                    auth=request.headers.get("Authorization", ""), query=dict(request.query))
        world.calls.append(call)
        self.limits.check_retry_after(call)
        if self.limits.over_global_limit(call):
            return self.limits.globally_limited(call)
        try:
            faulty = await self.inject_faults(call, name, params, body, files)
            if faulty is not None:
                await world.notify(*self.channels_of(params))  # a 500 may follow the write
                return faulty
            if world.check_spec:
                check_spec(call.key, body)
            status, payload = await getattr(self, name)(call, params, body, files)
        except HTTPError as error:
            status, payload = error.status, error.body()
            if error.status == 400:
                world.violations.append(f"{call.key}: {error.message} {error.errors}")
        call.status = status
        call.answered_at = time.monotonic()
        if world.on_answered is not None:
            world.on_answered(call)
        await world.notify(*self.channels_of(params))
        return discord_response(status, payload, bucket=template)

    def channels_of(self, params: dict[str, str]) -> tuple[int, ...]:
        """The channel a request may change, for the waiters of that channel: the one in its
        path, or the one of the interaction it answers (its callback, follow-ups and edits
        all land there). The handlers also touch what they change; this covers the rest."""
        if "channel_id" in params:
            return (int(params["channel_id"]),)
        inter = None
        if "interaction_id" in params:
            inter = self.world.interactions.get(int(params["interaction_id"]))
        elif "token" in params:
            inter = self.world.interaction_by_token(params["token"])
        return (inter.channel_id,) if inter is not None else ()

    async def inject_faults(self, call: Call, name: str, params: dict[str, str], body: Any,
                            files: list[Attachment]) -> web.Response | None:
        """Slow the call, answer it with an injected 429 or 5xx (after doing the work, if the
        fault says so), or None to answer it normally."""
        slow = self.faults.pick("slow", call.key)
        if slow is not None:
            call.fault = f"slow {slow.delay}s"
            await asyncio.sleep(slow.delay)
        limited = self.faults.pick("429", call.key)
        if limited is not None:
            return self.limits.rate_limited(call, limited)
        broken = self.faults.pick("500", call.key)
        if broken is None:
            return None
        if broken.after_write:
            await getattr(self, name)(call, params, body, files)
        call.fault = f"{broken.status}"
        call.status = broken.status
        return discord_response(broken.status, {"message": "500: Internal Server Error", "code": 0})

    # --- shared by the handlers --------------------------------------------------------
    def apply_edit(self, message: Message, body: dict[str, Any], files: list[Attachment]) -> None:
        check_message({**body, "content": body.get("content", message.content)}, files)
        message.edits.append((time.monotonic(), body))
        if "content" in body:
            message.content = body["content"] or ""
        if "components" in body:
            message.components = body["components"] or []
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body["attachments"] or []}
            message.attachments = [a for a in message.attachments if str(a.id) in keep]
        message.attachments.extend(files)
        if "flags" in body and body["flags"] is not None:
            message.flags = (message.flags & (EPHEMERAL | LOADING)) | (body["flags"] & ~EPHEMERAL)
        message.flags &= ~LOADING
        if "content" in body or "attachments" in body or files:
            message.snapshot()
        self.world.touch(message.channel_id)

    def channel(self, channel_id: int) -> Channel:
        channel = self.world.channels.get(channel_id)
        if channel is None:
            raise HTTPError(404, 10003, "Unknown Channel")
        return channel

    def message(self, channel_id: int, message_id: int) -> Message:
        message = self.world.messages.get(message_id)
        if message is None or message.channel_id != channel_id or message.deleted or message.ephemeral:
            raise HTTPError(404, 10008, "Unknown Message")
        return message

    def interaction(self, token: str) -> Interaction:
        """The interaction of a token still valid for follow-ups and edits."""
        inter = self.world.interaction_by_token(token)
        if inter is None or time.monotonic() - inter.sent_at > self.world.token_lifetime:
            raise HTTPError(401, 50027, "Invalid Webhook Token")
        return inter

    def webhook_message(self, inter: Interaction, which: str) -> Message:
        if which == "@original":
            if inter.acked_at is None or inter.original_id is None:
                raise HTTPError(404, 10008, "Unknown Message")
            return self.world.messages[inter.original_id]
        message = self.world.messages.get(int(which))
        if message is None or message.interaction_id != inter.id:
            raise HTTPError(404, 10008, "Unknown Message")
        return message

    # --- start-up ----------------------------------------------------------------------
    async def get_me(self, call, params, body, files):
        world = self.world
        if call.auth != f"Bot {world.token}":
            raise HTTPError(401, 0, "401: Unauthorized")
        return 200, {**world.users[world.bot_id], "verified": True, "mfa_enabled": False,
                     "flags": 0, "email": None}

    async def get_app(self, call, params, body, files):
        world = self.world
        return 200, {"id": str(world.app_id), "name": "Stolik", "icon": None, "description": "",
                     "rpc_origins": [], "bot_public": True, "bot_require_code_grant": False,
                     "owner": world.user_payload(world.bot_id + 1), "summary": "",
                     "verify_key": "00" * 32, "team": None, "flags": 0, "tags": [],
                     "interactions_endpoint_url": None, "approximate_guild_count": 1,
                     "bot": world.users[world.bot_id], "redirect_uris": []}

    async def get_gateway(self, call, params, body, files):
        return 200, {"url": f"ws://127.0.0.1:{self.world.port}/gateway",
                     "shards": self.world.required_shards,
                     "session_start_limit": {"total": 1000, "remaining": 999,
                                             "reset_after": 86_400_000, "max_concurrency": 1}}

    async def put_commands(self, call, params, body, files):
        world = self.world
        guild = int(params["guild_id"]) if "guild_id" in params else None
        synced = []
        for command in body or []:
            command = {**command, "id": str(world.snowflake()), "application_id": str(world.app_id),
                       "version": str(world.snowflake()), "default_member_permissions": None,
                       "type": command.get("type", 1)}
            if guild:
                command["guild_id"] = str(guild)
            synced.append(command)
        world.commands[guild] = synced
        return 200, synced

    async def get_commands(self, call, params, body, files):
        return 200, self.world.commands.get(int(params["guild_id"]), [])

    # --- channels and threads ----------------------------------------------------------
    async def get_channel(self, call, params, body, files):
        return 200, self.channel(int(params["channel_id"])).payload(self.world)

    async def delete_channel(self, call, params, body, files):
        channel = self.channel(int(params["channel_id"]))
        if channel.type != 11:
            raise HTTPError(403, 50013, "Missing Permissions")
        del self.world.channels[channel.id]
        self.world.text_channels.remove(channel.id)
        await self.gateway.dispatch("THREAD_DELETE", {"id": str(channel.id), "type": 11,
                                                      "guild_id": str(channel.guild_id),
                                                      "parent_id": str(channel.parent_id)},
                                    guild_id=channel.guild_id)
        return 200, channel.payload(self.world)

    async def create_thread(self, call, params, body, files):
        """A thread without a starter message (Discord: POST /channels/{id}/threads)."""
        parent = self.channel(int(params["channel_id"]))
        body = body or {}
        if parent.type != 0:
            raise HTTPError(400, 50024, "Cannot execute action on this channel type")
        check_thread_name(body)
        thread_id = self.world.add_channel(body["name"], thread_of=parent.id)
        payload = self.world.channels[thread_id].payload(self.world)
        await self.gateway.dispatch("THREAD_CREATE", {**payload, "newly_created": True},
                                    guild_id=parent.guild_id)
        return 201, payload

    # --- messages ----------------------------------------------------------------------
    def refuse_dm(self, channel: Channel) -> None:
        """Discord's refusal of a DM to a user whose DMs a test closed or failed."""
        recipient = channel.recipient or 0
        if channel.type == 1 and self.faults.closed_dms.get(recipient) == "message":
            raise HTTPError(403, 50007, "Cannot send messages to this user")
        if channel.type == 1 and recipient in self.faults.failing_dms:
            status = self.faults.failing_dms[recipient]
            raise HTTPError(status, 0, f"{status}: Service Unavailable")

    async def post_message(self, call, params, body, files):
        world = self.world
        channel = self.channel(int(params["channel_id"]))
        body = body or {}
        self.refuse_dm(channel)
        nonce = body.get("nonce")
        check_nonce(nonce)
        if nonce is not None and body.get("enforce_nonce"):
            seen = self._nonces.get((channel.id, str(nonce)))
            if seen is not None and time.monotonic() - seen[1] < NONCE_WINDOW:
                return 200, world.messages[seen[0]].payload(world)  # the post already made
        check_message(body, files)
        if body.get("flags", 0) & EPHEMERAL:
            raise invalid_form(("flags", "BASE_TYPE_INVALID", "Ephemeral outside interactions."))
        message = world.new_message(channel.id, body, files,
                                    via="dm" if channel.type == 1 else "channel")
        if nonce is not None and body.get("enforce_nonce"):
            self._nonces[(channel.id, str(nonce))] = (message.id, time.monotonic())
        return 200, message.payload(world)

    async def list_messages(self, call, params, body, files):
        """Discord: newest first; ``after`` gives the oldest ones after it, ``before`` the
        newest ones before it; at most ``limit`` (1-100, default 50)."""
        channel = self.channel(int(params["channel_id"]))
        limit, after, before = list_query(call.query)
        found = [m for m in self.world.channel_messages(channel.id, public_only=False)
                 if not m.ephemeral and m.id > after and (not before or m.id < before)]
        found.sort(key=lambda m: m.id, reverse=not after)
        return 200, sorted((m.payload(self.world) for m in found[:limit]),
                           key=lambda p: -int(p["id"]))

    async def get_message(self, call, params, body, files):
        message = self.message(int(params["channel_id"]), int(params["message_id"]))
        return 200, message.payload(self.world)

    async def patch_message(self, call, params, body, files):
        message = self.message(int(params["channel_id"]), int(params["message_id"]))
        if message.author["id"] != str(self.world.bot_id):
            raise HTTPError(403, 50005, "Cannot edit a message authored by another user")
        self.apply_edit(message, body or {}, files)
        return 200, message.payload(self.world)

    async def delete_message(self, call, params, body, files):
        self.delete(self.message(int(params["channel_id"]), int(params["message_id"])))
        return 204, None

    def delete(self, message: Message) -> None:
        message.deleted = True
        self.world.touch(message.channel_id)

    # --- users and DMs -----------------------------------------------------------------
    async def get_user(self, call, params, body, files):
        user_id = int(params["user_id"])
        if user_id not in self.world.users:
            raise HTTPError(404, 10013, "Unknown User")
        return 200, self.world.users[user_id]

    async def create_dm(self, call, params, body, files):
        world = self.world
        user_id = int((body or {}).get("recipient_id", 0))
        if user_id not in world.users:
            raise invalid_form(("recipient_id", "BASE_TYPE_INVALID", "Unknown user."))
        if self.faults.closed_dms.get(user_id) == "create":
            raise HTTPError(403, 50007, "Cannot send messages to this user")
        return 200, world.channels[world.dm_channel(user_id)].payload(world)

    # --- interactions ------------------------------------------------------------------
    def unanswered(self, params: dict[str, str], now: float) -> Interaction:
        """The interaction a callback answers: known, not answered yet, within the deadline
        (a double or late answer is a violation)."""
        inter = self.world.interactions.get(int(params["interaction_id"]))
        if inter is None or inter.token != params["token"]:
            raise HTTPError(404, 10062, "Unknown interaction")
        if inter.acked_at is not None:
            self.world.violations.append(f"interaction {inter.id} answered twice")
            raise HTTPError(400, 40060, "Interaction has already been acknowledged.")
        if now - inter.sent_at > self.world.ack_deadline:
            self.world.violations.append(
                f"interaction {inter.id} answered after {now - inter.sent_at:.2f}s")
            raise HTTPError(404, 10062, "Unknown interaction")
        return inter

    async def callback(self, call: Call, params: dict[str, str], body: Any,
                       files: list[Attachment]) -> tuple[int, dict[str, Any]]:
        now = time.monotonic()
        inter = self.unanswered(params, now)
        body = body or {}
        kind = body.get("type")
        answer = next((a for code, a in self._callbacks.items() if code == kind), None)
        if answer is None:
            raise invalid_form(("type", "BASE_TYPE_CHOICES", f"Value {kind} is not a valid enum value."))
        message = answer(inter, body.get("data") or {}, files)
        inter.acked_at, inter.response_type = now, kind
        inter.original_id = message.id if message else None
        inter.answers.append((now, f"callback {kind}", inter.original_id))
        self.world.touch(inter.channel_id)
        response: dict[str, Any] = {"interaction": {
            "id": str(inter.id), "type": inter.type, "activity_instance_id": None,
            "response_message_id": str(message.id) if message else None,
            "response_message_loading": kind == DEFERRED_MESSAGE,
            "response_message_ephemeral": bool(message and message.ephemeral)}}
        resource: dict[str, Any] = {"type": kind}
        if message is not None and kind in (MESSAGE, UPDATE, DEFERRED_MESSAGE):
            resource["message"] = message.payload(self.world)
        response["resource"] = resource
        return 200, response

    def reply(self, inter: Interaction, data: dict[str, Any], files: list[Attachment]) -> Message:
        check_message(data, files)
        return self.world.new_message(inter.channel_id, data, files, via="reply", interaction=inter)

    def defer(self, inter: Interaction, data: dict[str, Any], files: list[Attachment]) -> Message:
        """"Thinking": an empty message, loading, public or ephemeral as the defer says."""
        return self.world.new_message(inter.channel_id, {"content": ""}, [], via="deferred",
                                      flags=LOADING | (data.get("flags") or 0) & EPHEMERAL,
                                      interaction=inter)

    def defer_update(self, inter: Interaction, data: dict[str, Any],
                     files: list[Attachment]) -> Message:
        if inter.type != COMPONENT or inter.message_id is None:
            raise HTTPError(400, 40043, "This interaction type cannot be updated")
        return self.world.messages[inter.message_id]

    def update(self, inter: Interaction, data: dict[str, Any], files: list[Attachment]) -> Message:
        message = self.defer_update(inter, data, files)
        self.apply_edit(message, data, files)
        return message

    def autocomplete(self, inter: Interaction, data: dict[str, Any],
                     files: list[Attachment]) -> None:
        if inter.type != AUTOCOMPLETE_REQUEST:
            raise HTTPError(400, 40043, "This interaction type cannot have autocomplete")
        choices = data.get("choices") or []
        check_choices(choices)
        inter.choices = choices

    async def followup(self, call, params, body, files):
        world = self.world
        inter = self.interaction(params["token"])
        if inter.acked_at is None:
            world.violations.append(f"follow-up before acknowledging interaction {inter.id}")
            raise HTTPError(404, 10015, "Unknown Webhook")
        body = body or {}
        now = time.monotonic()
        if inter.response_type == DEFERRED_MESSAGE and not inter.first_followup_done:
            message = self.replace_thinking(inter, body, files)
        else:
            check_message(body, files)
            message = world.new_message(inter.channel_id, body, files, via="followup",
                                        interaction=inter)
        inter.followups.append(message.id)
        inter.answers.append((now, "followup", message.id))
        world.touch(inter.channel_id)
        return 200, message.payload(world)

    def replace_thinking(self, inter: Interaction, body: dict[str, Any],
                         files: list[Attachment]) -> Message:
        """Discord: the first follow-up after a "thinking" defer replaces that message, with
        the defer's visibility (its own ephemeral flag is ignored)."""
        inter.first_followup_done = True
        message = self.world.messages[inter.original_id or 0]
        self.apply_edit(message, {k: v for k, v in body.items() if k != "flags"}, files)
        if (body.get("flags") or 0) & EPHEMERAL and not message.ephemeral:
            self.world.violations.append(
                f"interaction {inter.id}: an ephemeral follow-up after a public 'thinking' defer"
                f" is shown to everyone: {message.content[:80]!r}")
        return message

    async def get_webhook_message(self, call, params, body, files):
        inter = self.interaction(params["token"])
        return 200, self.webhook_message(inter, params["message_id"]).payload(self.world)

    async def edit_webhook_message(self, call, params, body, files):
        inter = self.interaction(params["token"])
        message = self.webhook_message(inter, params["message_id"])
        self.apply_edit(message, body or {}, files)
        if params["message_id"] == "@original" and inter.response_type == DEFERRED_MESSAGE:
            inter.first_followup_done = True
        inter.answers.append((time.monotonic(), "edit", message.id))
        self.world.touch(inter.channel_id)
        return 200, message.payload(self.world)

    async def delete_webhook_message(self, call, params, body, files):
        inter = self.interaction(params["token"])
        self.delete(self.webhook_message(inter, params["message_id"]))
        return 204, None
