"""Simulated people in the stand-in's guild: they run slash commands (built from the commands
the bot synced), type into autocomplete, and click the components the bot actually sent."""

from __future__ import annotations

import functools
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from session import ids
from tests.standin.model import (
    APP_COMMAND,
    AUTOCOMPLETE_REQUEST,
    COMPONENT,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    MESSAGE,
    UPDATE,
    Interaction,
    Message,
    now_iso,
)
from tests.standin.server import Discord

MENTION = re.compile(r"<@!?(\d+)>")
#: application command option types
SUB_COMMAND, SUB_GROUP, STRING, INTEGER, BOOLEAN, USER = 1, 2, 3, 4, 5, 6


class Refused(Exception):
    """The bot answered the click or command with an (ephemeral) error."""


class Player:
    def __init__(self, discord: Discord, name: str, locale: str = "en-US") -> None:
        self.discord = discord
        self.name = name
        self.id = discord.add_user(name, locale)

    # --- slash commands --------------------------------------------------------------------
    def command_data(self, qualified: str, options: dict[str, Any],
                     focused: str | None = None) -> dict[str, Any]:
        """The ``data`` of an application command as Discord sends it, checked like the
        Discord client checks it (known names, required options, choices, ranges)."""
        top, nest, defs = self.synced_command(qualified)
        values = []
        resolved: dict[str, Any] = {}
        for opt in defs:
            if opt["name"] not in options:
                assert not opt.get("required") or focused, f"/{qualified}: {opt['name']} is required"
                continue
            values.append(self.option_entry(qualified, opt, options[opt["name"]], focused, resolved))
        unknown = set(options) - {o["name"] for o in defs}
        assert not unknown, f"/{qualified}: no option {unknown}"
        data: dict[str, Any] = {"id": top["id"], "name": top["name"], "type": 1}
        if top.get("guild_id"):
            data["guild_id"] = top["guild_id"]
        if nest:
            for outer, inner in zip(nest, nest[1:], strict=False):
                outer["options"] = [inner]
            nest[-1]["options"] = values
            data["options"] = [nest[0]]
        else:
            data["options"] = values
        if resolved:
            data["resolved"] = resolved
        return data

    def synced_command(self, qualified: str
                       ) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
        """The synced command ``/qualified`` names: its top-level definition, the subcommand
        (group) entries leading to it, and the definitions of its options."""
        names = qualified.split()
        synced = self.discord.commands.get(self.discord.guild_id) or self.discord.commands.get(None)
        assert synced, "the bot has not synced its commands"
        top = next((c for c in synced if c["name"] == names[0]), None)
        assert top is not None, f"/{names[0]} was not synced"
        defs = top.get("options") or []
        nest: list[dict[str, Any]] = []
        for name in names[1:]:
            sub = next((o for o in defs if o["name"] == name and o["type"] in (SUB_COMMAND, SUB_GROUP)),
                       None)
            assert sub is not None, f"/{qualified}: no subcommand {name}"
            nest.append({"name": name, "type": sub["type"], "options": []})
            defs = sub.get("options") or []
        return top, nest, defs

    def option_entry(self, qualified: str, opt: dict[str, Any], value: Any, focused: str | None,
                     resolved: dict[str, Any]) -> dict[str, Any]:
        """One option as Discord sends it; a user option's user and member go to ``resolved``."""
        entry: dict[str, Any] = {"name": opt["name"], "type": opt["type"], "value": value}
        if opt["name"] == focused:
            entry["focused"] = True
            entry["value"] = str(value)
        else:
            check_option(qualified, opt, value)
        if opt["type"] == USER and opt["name"] != focused:
            # Discord sends the user (and, in a guild, the member) of a user option
            entry["value"] = str(value)
            resolved.setdefault("users", {})[str(value)] = self.discord.user_payload(int(value))
            resolved.setdefault("members", {})[str(value)] = {
                "roles": [], "joined_at": now_iso(), "deaf": False, "mute": False,
                "flags": 0, "pending": False, "nick": None, "avatar": None,
                "premium_since": None, "communication_disabled_until": None,
                "permissions": self.discord.permissions_of(int(value))}
        return entry

    async def command(self, channel_id: int, qualified: str, **options: Any) -> Interaction:
        return await self.discord.send_interaction(self.id, channel_id, APP_COMMAND,
                                                   self.command_data(qualified, options))

    async def autocomplete(self, channel_id: int, qualified: str, focused: str, typed: str = "",
                           **options: Any) -> list[dict[str, Any]]:
        data = self.command_data(qualified, {**options, focused: typed}, focused=focused)
        inter = await self.discord.send_interaction(self.id, channel_id, AUTOCOMPLETE_REQUEST, data)
        await self.discord.wait_for(lambda: inter.acked_at, 10, f"autocomplete of /{qualified}",
                                    channels=(channel_id,))
        return inter.choices or []

    # --- components ----------------------------------------------------------------------
    async def click(self, message: Message, custom_id: str, value: str | None = None) -> Interaction:
        """Click a button (or choose ``value`` in a menu) of a message the bot sent."""
        component = _component(message, custom_id)
        assert component is not None, f"{custom_id!r} is not on message {message.id}"
        assert not component.get("disabled"), f"{custom_id!r} is disabled"
        if message.visible_to is not None:
            assert message.visible_to == self.id, "an ephemeral message of someone else"
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] == 3:
            assert value in [o["value"] for o in component["options"]], value
            data["values"] = [value]
        return await self.discord.send_interaction(self.id, message.channel_id, COMPONENT, data,
                                                   message)

    def __repr__(self) -> str:
        return f"<Player {self.name} {self.id}>"


def check_option(qualified: str, opt: dict[str, Any], value: Any) -> None:
    """A value the Discord client lets a user give: one of the choices, within the declared
    length or range."""
    if opt.get("choices"):
        assert value in [c["value"] for c in opt["choices"]], \
            f"/{qualified}: {value!r} is not a choice of {opt['name']}"
    if opt["type"] == STRING and isinstance(value, str):
        # the Discord client lets nobody type past the limits the bot declared
        assert len(value) <= opt.get("max_length", 6000), \
            f"/{qualified}: {opt['name']} longer than its max_length"
        assert len(value) >= opt.get("min_length", 0)
    if opt["type"] == INTEGER:
        assert isinstance(value, int)
        assert opt.get("min_value") is None or value >= opt["min_value"]
        assert opt.get("max_value") is None or value <= opt["max_value"]


def _component(message: Message, custom_id: str) -> dict[str, Any] | None:
    for row in message.components:
        for c in row.get("components", []):
            if c.get("custom_id") == custom_id:
                return c
    return None


def choices(message: Message) -> list[tuple[str, str | None]]:
    """(custom_id, value) of every move-making choice on a message (tools such as the lobby,
    "My hand", undo or votes left out)."""
    out: list[tuple[str, str | None]] = []
    for row in message.components:
        for c in row.get("components", []):
            parsed = ids.parse(c.get("custom_id", ""))
            if parsed is None or parsed.kind not in ("act", "pick", "select"):
                continue
            if c["type"] == 3:
                out.extend((c["custom_id"], o["value"]) for o in c["options"])
            else:
                out.append((c["custom_id"], None))
    return out


def versions(message: Message, *, first: bool = True) -> list[int]:
    """The state versions the message's components carry (as first sent, by default)."""
    out = []
    for custom_id in message.custom_ids(first=first):
        parsed = ids.parse(custom_id)
        if parsed is not None and parsed.version is not None:
            out.append(parsed.version)
    return out


async def answer(discord: Discord, inter: Interaction, timeout: float = 30.0) -> Interaction:
    """Wait for the first answer; an ephemeral error raises :class:`Refused`."""
    await discord.wait_for(lambda: inter.acked_at, timeout, f"an answer to interaction {inter.id}",
                           channels=(inter.channel_id,))
    return inter


def error_text(discord: Discord, inter: Interaction) -> str | None:
    """The text of an ephemeral error answer, if the bot sent one: a reply or follow-up with
    text only (an edit of the clicked message, such as "Done.", is not one)."""
    candidates: list[int | None] = list(inter.followups)
    if inter.response_type == MESSAGE:
        candidates.insert(0, inter.original_id)
    if inter.response_type == UPDATE and any(kind == "edit" for _, kind, _ in inter.answers):
        # a move's click closes its private picker in the answer; only a refusal edits the
        # picker again, to say why
        candidates.insert(0, inter.original_id)
    for message_id in candidates:
        message = discord.messages.get(message_id or 0)
        if message is None or message.components or message.attachments:
            continue
        if message.ephemeral and message.content:
            return message.content
    return None


def step_shown(inter: Interaction) -> bool:
    """Whether a deferred picker step has been shown (or refused) since its defer."""
    return any(kind in ("edit", "followup") for _, kind, _ in inter.answers)


def plays(parsed: ids.Parsed, value: str | None) -> bool:
    """Whether a click on this component (choosing ``value`` in a menu) plays a move."""
    if parsed.kind == "select":
        return (value or "").startswith("a:")
    return parsed.kind == "act"


@dataclass
class Move:
    """One move made by clicking, and what the bot answered."""

    player: Player
    clicks: list[Interaction] = field(default_factory=list)
    code: str = ""
    acknowledged: bool = False
    turn_message: Message | None = None


class Table:
    """A game in one channel, played by simulated players clicking what the bot sends."""

    def __init__(self, discord: Discord, channel_id: int, players: list[Player],
                 rng: random.Random, *, dms_closed: set[int] | None = None) -> None:
        self.discord = discord
        self.channel_id = channel_id
        self.players = players
        self.by_id = {p.id: p for p in players}
        self.rng = rng
        self.dms_closed = dms_closed or set()
        self.moves: list[Move] = []
        #: boards the bot re-posted when a click found the newest one stale (after a restart)
        self.repaired = 0

    # --- what the channel shows ------------------------------------------------------------
    def public(self) -> list[Message]:
        return self.discord.channel_messages(self.channel_id)

    def turn_message(self) -> Message | None:
        """The newest board message (it carries an image)."""
        return self.discord.newest_message(self.channel_id, Message.has_image)

    def lobby_message(self) -> Message | None:
        return self.discord.newest_message(
            self.channel_id,
            lambda m: any(getattr(ids.parse(c), "kind", None) == "lobby" for c in m.custom_ids()))

    def movers(self) -> list[Player]:
        """Who must move, as the newest turn message says (it mentions them)."""
        message = self.turn_message()
        if message is None or not message.components:
            return []
        return [self.by_id[int(u)] for u in MENTION.findall(message.content) if int(u) in self.by_id]

    def live_message(self, player: Player, hidden: bool) -> Message:
        """Where this player clicks: the newest DM with a move button, else the channel."""
        if hidden and player.id not in self.dms_closed:
            for message in reversed(self.discord.dms(player.id)):
                if choices(message):
                    return message
        board = self.turn_message()
        assert board is not None and board.components, "no live turn message"
        return board

    # --- making moves --------------------------------------------------------------------
    async def make_move(self, player: Player, hidden: bool, *, timeout: float = 30.0,
                        start: Message | None = None,
                        choose: Callable[[list[tuple[str, str | None]]],
                                         tuple[str, str | None]] | None = None) -> Move:
        """Click through the picker until a move is played and acknowledged: at random, or
        as ``choose`` picks among a message's (custom id, menu value) choices."""
        message = start or self.live_message(player, hidden)
        move = Move(player)
        self.moves.append(move)
        before = self.turn_message()
        for _ in range(10):
            options = choices(message)
            assert options, f"nothing to click on {message.content!r}"
            forward = [(c, v) for c, v in options if not c.endswith(":p:") or v is not None]
            if message.ephemeral and forward:
                options = forward  # a player in the picker goes on (not "Back" to its start)
            custom_id, value = choose(options) if choose is not None else self.rng.choice(options)
            inter = await player.click(message, custom_id, value)
            move.clicks.append(inter)
            await answer(self.discord, inter, timeout)
            parsed = ids.parse(custom_id)
            assert parsed is not None, custom_id
            if not plays(parsed, value) and inter.response_type in (DEFERRED_MESSAGE,
                                                                    DEFERRED_UPDATE):
                # a slow picker step: answered at once, shown when ready (the "thinking"
                # message replaced, or the picker edited), or refused
                await self.discord.wait_for(functools.partial(step_shown, inter), timeout,
                                            "the picker step", channels=(inter.channel_id,))
                if error_text(self.discord, inter):
                    raise Refused(error_text(self.discord, inter))
            if not plays(parsed, value):
                reply = self.discord.messages[inter.original_id or 0]
                if not reply.components:
                    raise Refused(reply.content)
                message = reply  # the next step of the picker
                continue
            # a move: answered with a deferred update, or with an update that closed the
            # picker or took the board's buttons off
            assert plays(parsed, value) and inter.response_type in (DEFERRED_UPDATE, UPDATE), \
                (inter.response_type, custom_id)
            move.code = value.partition(":")[2] if value is not None else parsed.payload
            await self.wait_acknowledged(move, inter, before, timeout)
            return move
        raise AssertionError("the picker does not end")

    async def wait_acknowledged(self, move: Move, inter: Interaction, before: Message | None,
                                timeout: float) -> None:
        """The bot acknowledged a move when the next board appears in the channel; an error
        comes back as an ephemeral follow-up."""
        def done():
            if error_text(self.discord, inter):
                return "error"
            newest = self.turn_message()
            if newest is not None and (before is None or newest.id > before.id):
                return "ok"
            if newest is before and newest is not None and newest.history[-1].t > inter.sent_at:
                return "ok"  # the board was edited in place (the same player moves again)
            return None
        # woken only by changes in the table's channel or the click's (a DM in a game with
        # hidden hands), the only ones ``done`` reads
        outcome = await self.discord.wait_for(done, timeout, f"the move of {move.player.name}",
                                              channels={self.channel_id, inter.channel_id})
        if outcome == "error":
            raise Refused(error_text(self.discord, inter))
        move.acknowledged = True
        move.turn_message = self.turn_message()

    def finished(self) -> bool:
        """The newest board offers a Rematch and nothing else: the game is over. A board
        without any button is not: a bot stopped after taking a board's buttons off shows it
        again when it starts."""
        message = self.turn_message()
        custom_ids = message.custom_ids() if message is not None else []
        return bool(custom_ids) and not self.movers() and all(
            getattr(ids.parse(c), "kind", None) == "rematch" for c in custom_ids)


def wait_seconds(start: float) -> float:
    return time.monotonic() - start
