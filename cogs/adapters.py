"""Discord adapters shared by the cogs: message specs into discord.py's arguments, the
private answers to errors, the channel lookup. Nothing here decides game matters."""

from __future__ import annotations

import io
import logging
import re
from typing import Any

import discord

from cogs.pace import GlobalPace
from session.errors import GameError, StoreError, outcome_of, store_refusal
from session.specs import ButtonSpec, MessageSpec, SelectSpec
from text.catalog import error_text, language, t

log = logging.getLogger(__name__)

#: Discord's limit on a message's content
MAX_CONTENT = 2000
#: at most this much of a user's own text is echoed back in an error
ECHO_LIMIT = 100

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def lang_of(interaction: discord.Interaction) -> str:
    return language(str(interaction.locale) if interaction.locale else None)


def to_view(spec: MessageSpec) -> discord.ui.View | None:
    """Persistent components (timeout=None); their clicks are routed by custom_id."""
    if not spec.rows:
        return None
    view = discord.ui.View(timeout=None)
    for row_number, row in enumerate(spec.rows):
        for item in row:
            if isinstance(item, ButtonSpec):
                view.add_item(discord.ui.Button(
                    label=item.label, custom_id=item.custom_id, style=_STYLES[item.style],
                    row=row_number,
                ))
            elif isinstance(item, SelectSpec):
                view.add_item(discord.ui.Select(
                    custom_id=item.custom_id, placeholder=item.placeholder, row=row_number,
                    options=[discord.SelectOption(label=label, value=value)
                             for label, value in item.options],
                ))
    # clicks are routed by the DynamicItems (custom ids), so discord.py need not keep this view
    # in its store for the message; a finished view is sent but never stored (no memory growth)
    view.stop()
    return view


#: top-level command name -> (its id, the paths a mention may name), from the synced tree
_COMMANDS: dict[str, tuple[int, frozenset[str]]] = {}
#: "/game play" as the texts write it, in a code span or not
_NAMED = re.compile(r"(`?)/([a-z_]+)((?: [a-z_]+){0,2})(`?)")


def remember_commands(synced: list[discord.app_commands.AppCommand]) -> None:
    """The command ids Discord gave the synced commands: texts name them as clickable
    mentions (``</game play:ID>``); a process that did not sync keeps plain names."""
    leaf = discord.AppCommandOptionType.subcommand
    for command in synced:
        paths: set[str] = set()
        todo = [(command.name, option) for option in command.options]
        while todo:
            prefix, option = todo.pop()
            if isinstance(option, discord.app_commands.AppCommandGroup):
                path = f"{prefix} {option.name}"
                if option.type == leaf:
                    paths.add(path)
                todo += [(path, sub) for sub in option.options]
        _COMMANDS[command.name] = (command.id, frozenset(paths or {command.name}))


def command_mentions(text: str) -> str:
    """Each slash command a text names ("/game play", "`/game join`") as a command mention,
    which Discord shows as a clickable command; unknown names stay as they are."""
    def one(match: re.Match[str]) -> str:
        opening, top, words, closing = match.group(1), match.group(2), \
            match.group(3).split(), match.group(4)
        known = _COMMANDS.get(top)
        if known is None or (opening and not closing):
            return match.group(0)  # unknown, or inside a longer code span
        for n in range(len(words), -1, -1):
            path = " ".join([top, *words[:n]])
            if path in known[1]:
                if n < len(words) and opening:
                    return match.group(0)
                rest = " ".join(words[n:])
                return f"</{path}:{known[0]}>" + (f" {rest}" if rest else "")
        return match.group(0)

    return _NAMED.sub(one, text) if _COMMANDS else text


def message_kwargs(spec: MessageSpec) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"content": command_mentions(spec.content)}
    view = to_view(spec)
    if view is not None:
        kwargs["view"] = view
    if spec.image is not None:
        kwargs["file"] = discord.File(_bytes_io(spec.image), filename=spec.filename,
                                      description=spec.description)
    if spec.pings:
        kwargs["allowed_mentions"] = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in spec.pings])
    return kwargs


def edit_kwargs(spec: MessageSpec) -> dict[str, Any]:
    """The same message as an edit: files go in ``attachments``; no view clears the buttons."""
    kwargs = message_kwargs(spec)
    file = kwargs.pop("file", None)
    kwargs["attachments"] = [file] if file is not None else []
    kwargs.setdefault("view", None)
    return kwargs


def _bytes_io(data: bytes) -> Any:
    return io.BytesIO(data)


async def confirm(interaction: discord.Interaction, key: str) -> bool:
    """A private "done" after a recorded change. It may be lost (a 429 storm, an expired
    token) without holding back what matters more: the board that follows. Returns whether
    it went out (after a "thinking" defer, a later follow-up may then be public)."""
    try:
        await interaction.followup.send(command_mentions(t(lang_of(interaction), key)),
                                        ephemeral=True)
    except discord.HTTPException:
        log.warning("could not confirm %s to user %s", key, interaction.user.id)
        return False
    return True


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis shows the cut)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


async def answer_error(interaction: discord.Interaction, error: GameError) -> None:
    """An error goes only to the user who caused it (ephemeral), in their language; what the
    user typed is echoed clipped, so a long input never makes the answer itself too long."""
    interaction.extras["outcome"] = outcome_of(error)  # a command's, for its count
    lang = lang_of(interaction)
    params = {k: clip(v, ECHO_LIMIT) if isinstance(v, str) else v for k, v in error.params.items()}
    await _answer_privately(interaction,
                            clip(command_mentions(error_text(lang, error.key, params))))


async def answer_failure(interaction: discord.Interaction, exc: BaseException) -> None:
    """The last resort for an error nobody foresaw: logged with its traceback (a bug to fix),
    and the user still gets a clear private answer instead of "thinking…" forever. A database
    failure that reached this far is no bug: the user is told it as such, without a trace."""
    if isinstance(exc, StoreError):
        log.error("interaction %s of user %s: storage failed: %s", interaction.id,
                  interaction.user.id, exc)
        await answer_error(interaction, store_refusal(exc))
        return
    log.error("interaction %s of user %s failed", interaction.id, interaction.user.id,
              exc_info=exc)
    interaction.extras["outcome"] = "failed"
    await _answer_privately(interaction, t(lang_of(interaction), "error.internal"))


async def on_command_error(interaction: discord.Interaction,
                           error: discord.app_commands.AppCommandError) -> None:
    """The command tree's error handler: a refusal nobody caught is still answered."""
    original = getattr(error, "original", error)
    interaction.client.host.metrics.interaction(  # type: ignore[attr-defined]
        "command", outcome_of(original))  # (no completion event follows an error)
    if isinstance(original, GameError):
        await answer_error(interaction, original)
    else:
        await answer_failure(interaction, original)


def closed_privately(interaction: discord.Interaction) -> bool:
    """Whether the first answer updated the clicked private (ephemeral) message, as a move
    picker is closed by the click that plays its move."""
    message = interaction.message
    return (interaction.response.type == discord.InteractionResponseType.message_update
            and message is not None and message.flags.ephemeral)


async def _answer_privately(interaction: discord.Interaction, message: str) -> None:
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(message, ephemeral=True)
        elif closed_privately(interaction):
            # the picker the user is looking at says why, in place of its "done"
            await interaction.edit_original_response(content=message, view=None,
                                                     attachments=[])
        else:
            await interaction.followup.send(message, ephemeral=True)
    except discord.HTTPException as exc:
        # an expired token (15 minutes) or Discord failing: nothing more can reach the user
        log.warning("could not answer interaction %s: %s", interaction.id, exc)


class Channels:
    """Channels by id: from discord.py's cache, else one paced call."""

    def __init__(self, client: discord.Client, pace: GlobalPace) -> None:
        self.client = client
        self.pace = pace

    async def get(self, channel_id: int) -> discord.abc.Messageable:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            async with self.pace:
                channel = await self.client.fetch_channel(channel_id)
        return channel  # type: ignore[return-value]
