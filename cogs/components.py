"""Persistent buttons and menus. Their custom ids carry session and version, so a click on a
message from before a restart still works (or is told it is stale) with no in-memory state."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.ext import commands

from cogs.adapters import (
    answer_error,
    answer_failure,
    confirm,
    edit_kwargs,
    lang_of,
    message_kwargs,
)
from cogs.host import Host
from cogs.repairs import BoardRepairs
from session import ids, logs, present
from session.errors import GameError, StoreError, outcome_of
from session.service import SessionError
from session.specs import MessageSpec
from text.catalog import t

log = logging.getLogger(__name__)

#: how long a picker step may take before its click is answered with a defer instead (then
#: one call more): within the first-answer goal (p99 <= 250 ms), so a click never waits
#: longer than this for the store or a preview. A longer budget saves the defer's call on a
#: saturated bot but makes the first answer wait that long by design
PICK_BUDGET = 0.2

BUTTON_TEMPLATE = r"sk:(?P<sid>[0-9]+):(?P<rest>(?![0-9]+:s:).*)"
SELECT_TEMPLATE = r"sk:(?P<sid>[0-9]+):(?P<version>[0-9]+):s:[1-4]?"


def _host(interaction: discord.Interaction) -> Host:
    return interaction.client.host  # type: ignore[attr-defined]


async def route(interaction: discord.Interaction, custom_id: str, value: str | None) -> None:
    """Handle one click; every path answers or defers at once (Discord allows 3 seconds)."""
    parsed = ids.parse(custom_id)
    if parsed is not None and parsed.kind == "select" and value is not None:
        kind, _, payload = value.partition(":")
        parsed = ids.Parsed(parsed.session_id, {"a": "act", "p": "pick"}.get(kind, "?"),
                            parsed.version, payload)
    logs.start(session_id=parsed and parsed.session_id, guild_id=interaction.guild_id)
    handler = HANDLERS.get(parsed.kind) if parsed is not None else None
    if parsed is None or handler is None:
        _host(interaction).metrics.interaction("unknown", "refused")
        await answer_error(interaction, SessionError("error.bad_component", "unknown button"))
        return
    host = _host(interaction)
    repairs = host.repairs
    # Discord refused this game's newest board before this click: the click posts it again
    board_missing = repairs.refused(parsed.session_id)
    try:
        await handler(interaction, parsed)
        host.metrics.interaction(parsed.kind, "accepted")
    except GameError as error:
        host.metrics.interaction(parsed.kind, outcome_of(error))
        await answer_error(interaction, error)
        await _give_back_board(interaction, parsed)
        if error.key in ("error.stale", "error.already_started") and interaction.message is not None \
                and not interaction.message.flags.ephemeral:
            # the newest board may be stale because the bot stopped before posting the next
            # one, or because its post failed
            await _repair_board(repairs, parsed.session_id, interaction.message.id)
    except Exception as exc:  # a bug: logged with its traceback, and the user still answered
        host.metrics.interaction(parsed.kind, "failed")
        await answer_failure(interaction, exc)
        await _give_back_board(interaction, parsed)
    if board_missing and repairs.refused(parsed.session_id):
        await _repair_board(repairs, parsed.session_id)


async def _repair_board(repairs: BoardRepairs, session_id: int,
                        clicked_message_id: int | None = None) -> None:
    try:
        await repairs.repair_board(session_id, clicked_message_id)
    except GameError as still:  # Discord still refuses the board: the user was answered
        log.warning("session %s: board not repaired: %s", session_id, still)


def _is_ephemeral(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return bool(message is not None and message.flags.ephemeral)


async def _act(interaction: discord.Interaction, parsed: ids.Parsed) -> None:
    """A move. The first answer does at once, from memory only, what the move's outcome would
    otherwise need a call for: a private picker closes ("done"; a refusal shows in its
    place), and the public board loses its buttons when this process last showed it with
    the clicker alone to act at the click's version (a refusal gives them back). Anything
    else is a plain deferred update."""
    host = _host(interaction)
    message = interaction.message
    retired: int | None = None
    if _is_ephemeral(interaction):
        await interaction.response.edit_message(content=t(lang_of(interaction), "ui.done"),
                                                view=None, attachments=[])
    elif message is not None and parsed.version is not None \
            and host.first_answer.acts_alone(parsed.session_id, parsed.version,
                                             interaction.user.id) \
            and await host.first_answer.mark_bare(parsed.session_id, message.id, parsed.version):
        # (marked in the store first, within a budget: a stop now is repaired at start-up)
        await interaction.response.edit_message(view=None)
        retired = message.id
        host.first_answer.took_buttons(message.id)
    else:
        await interaction.response.defer()
        await host.first_answer.settle_mark(parsed.session_id)
    outcome = await host.sessions.act(parsed.session_id, interaction.user.id, parsed.payload,
                                      parsed.version)
    # the board goes out on this click's interaction (exempt from Discord's global limit)
    await host.publish(outcome, interaction, retired=retired,
                       posted=lambda: host.metrics.board_posted(interaction.id))


def _took_board_buttons(interaction: discord.Interaction, parsed: ids.Parsed) -> bool:
    """Whether this act click's first answer took the public board's buttons off."""
    message = interaction.message
    return (parsed.kind == "act" and message is not None and not message.flags.ephemeral
            and interaction.response.type == discord.InteractionResponseType.message_update)


async def _give_back_board(interaction: discord.Interaction, parsed: ids.Parsed) -> None:
    """After a refused move (or a failure) whose click had taken the board's buttons off."""
    if not _took_board_buttons(interaction, parsed) or parsed.version is None:
        return
    try:
        await _host(interaction).first_answer.give_back_board(parsed.session_id, interaction,
                                                              parsed.version)
    except (GameError, StoreError, discord.HTTPException) as exc:
        # the user was answered; the board's buttons come back at the next repair
        log.warning("session %s: board not given back: %s", parsed.session_id, exc)


async def _pick(interaction: discord.Interaction, parsed: ids.Parsed) -> None:
    """One step of the move picker, shown only to the clicking player: as the click's answer
    when it is ready within :data:`PICK_BUDGET` (one call), else after a defer (the first
    answer never waits for a busy store or a preview being drawn; one call more)."""
    step = asyncio.ensure_future(_picker_step(interaction, parsed))
    # (a budget of 0 defers every step, even one that needs no wait at all)
    done = (await asyncio.wait({step}, timeout=PICK_BUDGET))[0] if PICK_BUDGET > 0 else set()
    ephemeral = _is_ephemeral(interaction)
    if not done:
        try:
            if ephemeral:  # the picker itself is updated when the step is ready
                await interaction.response.defer()
            else:  # a private "thinking" message, which the step then replaces
                await interaction.response.defer(ephemeral=True, thinking=True)
        except BaseException:
            step.cancel()
            raise
    spec = await step
    if not interaction.response.is_done():
        if ephemeral:
            await interaction.response.edit_message(**edit_kwargs(spec))
        else:
            await interaction.response.send_message(**message_kwargs(spec), ephemeral=True)
    elif ephemeral:
        await interaction.edit_original_response(**edit_kwargs(spec))
    else:
        await interaction.followup.send(**message_kwargs(spec), ephemeral=True)


async def _picker_step(interaction: discord.Interaction, parsed: ids.Parsed) -> MessageSpec:
    host = _host(interaction)
    lang = lang_of(interaction)
    row, seat, codes = await host.sessions.legal(parsed.session_id, interaction.user.id)
    if parsed.payload:  # opening the picker is always fresh; a step must match its board
        await host.sessions.check_fresh(row, seat, parsed.version)
    if not codes:
        raise SessionError("error.not_your_move", "it is not your move")
    state = await host.sessions.state(row)
    if parsed.payload in codes and present.previewed(row.game_id, parsed.payload):
        return await present.preview_message(row, state, seat, parsed.payload, lang)
    spec = present.picker_message(row, state, codes, parsed.payload, lang)
    if not spec.rows:  # a prefix that opens no legal move: no button of ours carries one
        raise SessionError("error.bad_component", f"no move after {parsed.payload!r}")
    return spec


async def _hand(interaction: discord.Interaction, parsed: ids.Parsed) -> None:
    """'My hand': a fresh private view every time (ephemeral messages cannot be re-sent)."""
    host = _host(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    row = await host.sessions.session(parsed.session_id)
    seat = host.sessions.seat_of(row, interaction.user.id)
    state = await host.sessions.state(row)
    spec = await present.hand_message(row, state, seat, lang_of(interaction))
    await interaction.followup.send(**message_kwargs(spec), ephemeral=True)


async def _lobby(interaction: discord.Interaction, parsed: ids.Parsed) -> None:
    host = _host(interaction)
    row = await host.sessions.session(parsed.session_id)
    user = interaction.user
    if row.status != "lobby":
        # a lobby message of a game that started or closed: never act on another game
        raise SessionError("error.stale", "this lobby is closed")
    await interaction.response.defer()
    if parsed.payload == "join":
        outcome = await host.sessions.join(row.channel_id, user.id, user.display_name)
    elif parsed.payload == "start":
        outcome = await host.sessions.start(row.channel_id, user.id)
    elif parsed.payload == "leave":
        outcome = await host.sessions.leave(row.channel_id, user.id)
    else:
        raise SessionError("error.bad_component", "unknown button")
    # the new lobby (or the first board) goes out on this click's interaction
    await host.publish(outcome, interaction)


async def _vote(interaction: discord.Interaction, parsed: ids.Parsed) -> None:
    """A ballot: the vote message itself shows the tally (one message per vote, edited)."""
    host = _host(interaction)
    await interaction.response.defer()
    choice, _, topic = parsed.payload.partition(":")
    outcome = await host.rooms.absence.vote(parsed.session_id, interaction.user.id, topic, choice)
    row = outcome.session
    question = (interaction.message.content or "").split("\n")[0] if interaction.message else ""
    news = present.notices_text(row, outcome.notices, row.lang)
    decided = outcome.board_changed or outcome.finished or len(news) > 1
    content = "\n".join([question, *news])[:2000]
    if decided:  # the vote is over: no more buttons
        await interaction.edit_original_response(content=content, view=None)
    else:
        await interaction.edit_original_response(content=content)
    await confirm(interaction, "ui.voted")
    if outcome.board_changed or outcome.finished:
        await host.publish(outcome)


async def _undo(interaction: discord.Interaction, parsed: ids.Parsed) -> None:
    host = _host(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    outcome = await host.rooms.undo.undo(parsed.session_id, interaction.user.id)
    await confirm(interaction, "ui.undone")
    await host.publish(outcome)


async def _abandon(interaction: discord.Interaction, parsed: ids.Parsed) -> None:
    """ "Yes, abandon" under the /game abandon question (ephemeral): the question becomes
    the answer, and the game's end goes to the channel."""
    host = _host(interaction)
    await interaction.response.defer()
    perms = getattr(interaction, "permissions", None)
    outcome = await host.rooms.ending.abandon(parsed.session_id, interaction.user.id,
                                              can_manage=bool(perms and perms.manage_channels),
                                              version=parsed.version)
    try:
        await interaction.edit_original_response(content=t(lang_of(interaction), "ui.done"),
                                                 view=None)
    except discord.HTTPException:
        log.warning("could not close the abandon question of session %s", parsed.session_id)
    await host.publish(outcome)


async def _rematch(interaction: discord.Interaction, parsed: ids.Parsed) -> None:
    host = _host(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    outcome = await host.rooms.ending.rematch(parsed.session_id, interaction.user.id,
                                              interaction.user.display_name)
    await confirm(interaction, "ui.created")
    await host.publish(outcome)


#: each kind of component id and the handler of its clicks
HANDLERS: dict[str, Callable[[discord.Interaction, ids.Parsed], Awaitable[None]]] = {
    "act": _act,
    "pick": _pick,
    "hand": _hand,
    "lobby": _lobby,
    "vote": _vote,
    "undo": _undo,
    "abandon": _abandon,
    "rematch": _rematch,
}


class StolikButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label="·"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(item.custom_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        await route(interaction, self.item.custom_id or "", None)


class StolikSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id,
                                           options=[discord.SelectOption(label="·")]))

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(item.custom_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = data.get("values") or [""]
        await route(interaction, self.item.custom_id or "", str(values[0]))


async def remember_language(interaction: discord.Interaction) -> None:
    """Every interaction carries the user's Discord language: their DMs use it. (A listener:
    the interaction itself is served by the command or component; an error here is logged by
    discord.py and changes nothing else.)"""
    try:
        await _host(interaction).hands.remember_language(
            interaction.user.id, str(interaction.locale) if interaction.locale else None)
    except StoreError as exc:  # the database is away: the interaction itself tells the user
        log.warning("language of user %s not saved: %s", interaction.user.id, exc)


async def count_command(interaction: discord.Interaction, command: Any) -> None:
    """A slash command that returned: accepted, unless it answered a refusal itself (the
    answer marked the interaction); one that raised is counted by the tree's error handler."""
    _host(interaction).metrics.interaction("command",
                                           interaction.extras.get("outcome", "accepted"))


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(StolikButton, StolikSelect)
    bot.add_listener(remember_language, "on_interaction")
    bot.add_listener(count_command, "on_app_command_completion")
