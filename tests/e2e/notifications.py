"""What buzzes a phone, read from the requests the bot made to the stand-in, as Discord decides
it: a new message in a DM is a notification for its recipient; a new public message (a channel
post, an interaction's public reply or follow-up) notifies each user it mentions whom its
``allowed_mentions`` lets through. Edits never notify, nor do ephemeral messages."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import engines
from session import ids
from tests.e2e.helpers import Stored
from tests.standin.server import DEFERRED_MESSAGE, Call, Discord

MENTION = re.compile(r"<@!?(\d+)>")
EPHEMERAL = 1 << 6
#: interaction callback type "a message" (the other types make no new visible message)
CALLBACK_MESSAGE = 4


@dataclass
class Notification:
    t: float  # the stand-in's monotonic time of the request
    user_id: int
    via: str  # "dm" | "mention"
    channel_id: int
    content: str


def notified(body: dict[str, Any]) -> set[int]:
    """The users a new public message with this body notifies."""
    mentioned = {int(u) for u in MENTION.findall(body.get("content") or "")}
    allowed = body.get("allowed_mentions")
    if allowed is None:  # Discord's default: every mention in the text
        return mentioned
    if "users" in (allowed.get("parse") or []):
        return mentioned
    return mentioned & {int(u) for u in allowed.get("users") or []}


def notifications(discord: Discord, calls: list[Call] | None = None) -> list[Notification]:
    """Every notification the bot's successful requests made, in order."""
    out: list[Notification] = []
    followed: set[int] = set()  # interactions whose first follow-up was seen
    for call in discord.calls if calls is None else calls:
        if not 200 <= call.status < 300 or not isinstance(call.body, dict):
            continue
        if call.method == "PATCH" and call.path.endswith("/messages/@original"):
            # an edit of a "thinking" message fills it: later follow-ups are new messages
            edited = discord.interaction_by_token(call.path.split("/")[3])
            if edited is not None:
                followed.add(edited.id)
            continue
        if call.method != "POST":
            continue
        body = call.body
        if call.key == "POST /channels/{channel_id}/messages":
            channel = discord.channels.get(int(call.major))
            if channel is None:
                continue
            if channel.type == 1:  # a DM
                out.append(Notification(call.t, channel.recipient or 0, "dm", channel.id,
                                        body.get("content") or ""))
                continue
            users, channel_id = notified(body), channel.id
        elif call.route.startswith("/interactions/"):
            if body.get("type") != CALLBACK_MESSAGE:
                continue
            body = body.get("data") or {}
            inter = discord.interaction_by_token(call.path.split("/")[3])
            if (body.get("flags") or 0) & EPHEMERAL or inter is None:
                continue
            users, channel_id = notified(body), inter.channel_id
        elif call.key == "POST /webhooks/{webhook_id}/{token}":
            inter = discord.interaction_by_token(call.path.split("/")[3])
            if inter is None:
                continue
            first = inter.id not in followed
            followed.add(inter.id)
            if (body.get("flags") or 0) & EPHEMERAL:
                continue
            if first and inter.response_type == DEFERRED_MESSAGE:
                # the first follow-up of a "thinking" defer replaces that message, keeping
                # its visibility (and an edit's silence)
                continue
            users, channel_id = notified(body), inter.channel_id
        else:
            continue
        out.extend(Notification(call.t, u, "mention", channel_id, body.get("content") or "")
                   for u in sorted(users))
    return out


def live_buttons(discord: Discord, channel_id: int, user_ids: list[int]) -> list[int]:
    """Messages of a game (its channel's public messages and its players' DMs) that still
    offer a button other than Rematch: after the end, every such button no longer works."""
    messages = discord.channel_messages(channel_id)
    for user_id in user_ids:
        messages += discord.dms(user_id)
    out = []
    for message in messages:
        kinds = {getattr(ids.parse(c), "kind", None) for c in message.custom_ids()}
        if kinds - {"rematch"}:
            out.append(message.id)
    return out


def turns_started(stored: Stored) -> dict[int, int]:
    """User id -> the turns they had to act: how often their seat became one that must act
    (by the engine, over the replayed game; staying to act across moves is one turn)."""
    game = engines.get(stored.game_id)
    out = dict.fromkeys((u for u in stored.user_ids if u is not None), 0)
    before: set[int] = set()
    for state in stored.replay():
        now = set() if game.is_over(state) else set(game.to_act(state))
        for seat in now - before:
            user = stored.user_ids[seat]
            if user is not None:
                out[user] += 1
        before = now
    return out
