"""Who may see what, by Discord's rules: the cogs decide them (the session layer says which
channel and which players a game had)."""

from __future__ import annotations

from typing import Any

import discord

from cogs.host import Host
from session import replay as replay_module
from session.errors import SessionError
from session.service import started


async def replay_target(host: Host, interaction: discord.Interaction, number: int | None):
    """The game to replay: by number (see :func:`check_may_replay`), else the channel's open
    game, else its last ended one."""
    if number is None:
        row = await replay_module.channel_game(host.sessions, interaction.channel_id or 0)
        if row is None:
            raise SessionError("error.no_game_here", "no game in this channel")
    else:
        row = await host.sessions.session(number)
        await check_may_replay(host, interaction, row)
    if not started(row):  # a lost state is rebuilt from the log: only a lobby has none
        raise SessionError("error.not_started", "the game has not started yet")
    return row


async def check_may_replay(host: Host, interaction: discord.Interaction, row) -> None:
    """A game's number is no key to it: Discord decides who may see a game. Its players (they
    were shown every board), or a member of its server who may see the channel it was played
    in and read its history; a game in direct messages only its players."""
    user = interaction.user
    if row.seat_of(user.id) is not None:
        return
    if row.guild_id is None:
        raise SessionError("error.replay_private", "a game in direct messages", id=row.id)
    if row.guild_id != interaction.guild_id:
        # another server's game: its permissions are not this member's to ask
        raise SessionError("error.no_such_session", "no such game here", id=row.id)
    try:
        channel: Any = await host.channel(row.channel_id)
        allowed = channel.permissions_for(user)
    except (discord.HTTPException, discord.ClientException):
        # gone, or hidden from the bot itself (a thread's parent it cannot see): nobody's
        # view can be checked, so nobody else's is assumed
        allowed = discord.Permissions.none()
    if not (allowed.view_channel and allowed.read_message_history):
        raise SessionError("error.replay_hidden", "the game's channel is hidden from the user",
                           id=row.id)
