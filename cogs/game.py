"""``/game``: the lifecycle commands every game shares. Thin: parse, call the session layer,
send what it returns."""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.access import replay_target
from cogs.adapters import answer_error, clip, confirm, lang_of, message_kwargs
from cogs.host import Host
from session import facts, present, seatnames, wording, workers
from session import replay as replay_module
from session.errors import GameError
from session.facts import BOT_LEVELS
from session.service import SessionError, parse_variants, playable
from text.catalog import t

log = logging.getLogger(__name__)

PACES = ("none", "realtime:5", "realtime:15", "daily:1", "daily:2", "daily:3")
#: Discord's longest autocomplete value; typed text is capped (``max_length``) to match
MAX_VALUE = 100
#: games by name (English here; the translator gives each user's language from ``game.<id>``)
GAME_CHOICES = [app_commands.Choice(name=app_commands.locale_str(t("en", f"game.{game_id}"),
                                                                 key=f"game.{game_id}"),
                                    value=game_id)
                for game_id in playable()]
#: the choice names are localised by cogs/translator.py from the ``bots.level.*`` keys
BOT_LEVEL_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(level, key=f"bots.level.{level}"), value=level)
    for level in BOT_LEVELS
]


def host_of(interaction: discord.Interaction) -> Host:
    return interaction.client.host  # type: ignore[attr-defined]


def can_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_channels)


async def play(interaction: discord.Interaction, code: str) -> None:
    """Play a move typed in a slash command, in this channel's game."""
    host = host_of(interaction)
    lang = lang_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        row = await host.sessions.in_channel(interaction.channel_id or 0)
        before = await host.sessions.state(row) if row.state_json else None
        outcome = await host.sessions.act(row.id, interaction.user.id, code.strip())
    except GameError as error:
        await answer_error(interaction, error)
        return
    done = wording.describe(row, before or {}, code.strip(), lang)
    reply: discord.Interaction | None = interaction
    try:
        await interaction.followup.send(t(lang, "ui.played", action=done), ephemeral=True)
    except discord.HTTPException:
        # the move is recorded: its board must still go out (a 429 storm, a lost token), by
        # the channel: a first follow-up would take the private "thinking" message's place
        log.warning("could not confirm a typed move in session %s", row.id)
        reply = None
    # the board as the command's second follow-up, public (exempt from the global limit)
    await host.publish(outcome, reply)


async def legal_choices(
    interaction: discord.Interaction, current: str, verbs: tuple[str, ...] = ()
) -> list[app_commands.Choice[str]]:
    """Autocomplete: only the legal moves of the user's seat, filtered by what was typed."""
    host = host_of(interaction)
    try:
        row = await host.sessions.in_channel(interaction.channel_id or 0)
        row, _seat, codes = await host.sessions.legal(row.id, interaction.user.id)
        state = await host.sessions.state(row)
    except GameError:
        return []
    lang = lang_of(interaction)
    typed = current.strip().lower()
    out = []
    for code in codes:
        if verbs and code.split()[0] not in verbs:
            continue
        label = wording.describe(row, state, code, lang)
        if typed and typed not in code.lower() and typed not in label.lower():
            continue
        out.append(app_commands.Choice(name=label[:100], value=code))
        if len(out) == 25:
            break
    return out


class GameCog(commands.GroupCog, group_name="game", group_description="Board games in this channel"):
    # groups keep /game under Discord's 25 subcommands, with room for more
    settings_group = app_commands.Group(name="settings",
                                        description="Settings: yours and the server's")
    admin = app_commands.Group(name="admin", description="For people who manage the channel")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="new", description="Open a new game in this channel")
    @app_commands.describe(game="Which game", players="How many seats (default: as many as the game allows)",
                           variants="Variants, comma-separated",
                           pace="Turn clock: none, realtime:MINUTES or daily:DAYS[:CAP]",
                           thread="Open the game in a new thread of this channel")
    @app_commands.choices(game=GAME_CHOICES)
    async def new(self, interaction: discord.Interaction, game: str,
                  players: app_commands.Range[int, 1, 6] | None = None,
                  variants: app_commands.Range[str, 1, MAX_VALUE] | None = None,
                  pace: app_commands.Range[str, 1, 30] | None = None,
                  thread: bool = False) -> None:
        host = host_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        created = None
        try:
            # the first read: a database that is away is told here like any refusal
            defaults = await host.rooms.profile.server_defaults(interaction.guild_id)
            lang = defaults.lang or language_of_channel(interaction)
            pace = pace or defaults.pace
            channel_id = interaction.channel_id or 0
            if thread:
                created = await open_thread(interaction, t(lang, f"game.{game}"))
                channel_id = created.id
            outcome = await host.sessions.new(
                guild_id=interaction.guild_id, channel_id=channel_id,
                game_id=game, user_id=interaction.user.id, name=interaction.user.display_name,
                players=players, variants=variants, lang=lang, pace=pace,
            )
        except GameError as error:
            if created is not None:
                await created.delete()
            await answer_error(interaction, error)
            return
        # the lobby as the command's second follow-up when the first went out (exempt from
        # the global limit; a first follow-up would take the private "thinking" one's place)
        await host.publish(outcome, interaction if await confirm(interaction, "ui.created")
                           else None)

    @new.autocomplete("pace")
    async def pace_autocomplete(self, interaction: discord.Interaction, current: str):
        return pace_choices(interaction, current)

    @new.autocomplete("variants")
    async def variants_autocomplete(self, interaction: discord.Interaction, current: str):
        game_id = getattr(interaction.namespace, "game", None)
        try:
            meta = facts.meta(str(game_id))
        except (KeyError, ModuleNotFoundError):
            return []
        chosen = parse_variants(current.rsplit(",", 1)[0]) if "," in current else []
        lang = lang_of(interaction)
        out = []
        for variant in meta.variants:
            if variant.name in chosen:
                continue
            value = ", ".join([*chosen, variant.name])
            if len(value) > MAX_VALUE:  # Discord refuses the whole answer for one long value
                continue
            name = ", ".join(t(lang, f"{meta.id}.variant.{v}") for v in [*chosen, variant.name])
            out.append(app_commands.Choice(name=name[:100], value=value))
        return out[:25]

    async def _lobby(self, interaction: discord.Interaction, action: str,
                     level: str | None = None) -> None:
        host = host_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = interaction.user
        channel_id = interaction.channel_id or 0
        try:
            if action == "join":
                outcome = await host.sessions.join(channel_id, user.id, user.display_name)
            elif action == "addbot":
                row = await host.sessions.in_channel(channel_id)
                if row.creator_id != user.id:
                    raise SessionError("error.only_creator_addbot",
                                       "only the creator can add computer players")
                name = t(row.lang, "ui.computer_name", n=len(row.seats) + 1)
                if level is not None:
                    name = f"{name} ({t(row.lang, f'bots.level.{level}')})"
                outcome = await host.sessions.join(channel_id, None, name, level)
            elif action == "leave":
                outcome = await host.sessions.leave(channel_id, user.id)
            else:
                outcome = await host.sessions.start(channel_id, user.id)
        except GameError as error:
            await answer_error(interaction, error)
            return
        await host.publish(outcome, interaction if await confirm(interaction, "ui.done")
                           else None)

    @app_commands.command(name="join", description="Take a seat in this channel's game")
    async def join(self, interaction: discord.Interaction) -> None:
        await self._lobby(interaction, "join")

    @app_commands.command(name="addbot", description="Add a computer player (creator only)")
    @app_commands.describe(level="How strong (default: normal)")
    @app_commands.choices(level=BOT_LEVEL_CHOICES)
    async def addbot(self, interaction: discord.Interaction, level: str | None = None) -> None:
        await self._lobby(interaction, "addbot", level)

    @app_commands.command(name="leave", description="Leave the game before it starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._lobby(interaction, "leave")

    @app_commands.command(name="start", description="Start with the players seated (creator only)")
    async def start(self, interaction: discord.Interaction) -> None:
        await self._lobby(interaction, "start")

    @app_commands.command(name="play", description="Play a move (the list shows only legal moves)")
    @app_commands.describe(action="Your move")
    async def play_cmd(self, interaction: discord.Interaction,
                       action: app_commands.Range[str, 1, MAX_VALUE]) -> None:
        await play(interaction, action)

    @play_cmd.autocomplete("action")
    async def play_autocomplete(self, interaction: discord.Interaction, current: str):
        return await legal_choices(interaction, current)

    @app_commands.command(name="hand", description="Show your private hand (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        host = host_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            row = await host.sessions.in_channel(interaction.channel_id or 0)
            seat = host.sessions.seat_of(row, interaction.user.id)
            state = await host.sessions.state(row)
            spec = await present.hand_message(row, state, seat, lang_of(interaction))
        except GameError as error:
            await answer_error(interaction, error)
            return
        await interaction.followup.send(**message_kwargs(spec), ephemeral=True)

    @app_commands.command(name="status", description="Whose move it is and the scores")
    async def status(self, interaction: discord.Interaction) -> None:
        host = host_of(interaction)
        lang = lang_of(interaction)
        try:
            row = await host.sessions.in_channel_or_ended(interaction.channel_id or 0)
            content = await status_text(host, row, lang)
        except GameError as error:
            await answer_error(interaction, error)
            return
        await interaction.response.send_message(content, ephemeral=True)

    @app_commands.command(name="board", description="Post the current board image here")
    async def board(self, interaction: discord.Interaction) -> None:
        host = host_of(interaction)
        try:
            row = await host.sessions.in_channel(interaction.channel_id or 0)
        except GameError as error:
            # answered before deferring: Discord shows the first follow-up of a public
            # "thinking" defer to everyone, whatever its ephemeral flag says
            await answer_error(interaction, error)
            return
        await interaction.response.defer(thinking=True)
        try:
            if await host.repairs.board_missing(row.id) and await host.repairs.repair_board(row.id):
                # the live board's post failed or was never recorded: it is posted again, with
                # its buttons, rather than a copy (repair_board waits for a publish under way
                # and posts nothing when that publish recorded its board meanwhile)
                await interaction.followup.send(t(lang_of(interaction), "ui.board_reposted"))
                return
            row = await host.sessions.session(row.id)
            if row.status == "lobby":
                spec = present.lobby_message(row, [], lang_of(interaction))
            else:
                state = await host.sessions.state(row)
                spec = await present.turn_message(row, state, [], lang_of(interaction))
                spec.rows = []  # the live buttons stay on the turn message
        except GameError as error:
            await answer_error(interaction, error)
            return
        await interaction.followup.send(**message_kwargs(spec))

    @app_commands.command(name="abandon", description="End this channel's game now (recorded)")
    async def abandon(self, interaction: discord.Interaction) -> None:
        """Asks first: the "Yes" button ends the game (see components._abandon)."""
        host = host_of(interaction)
        lang = lang_of(interaction)
        try:
            row = await host.sessions.in_channel(interaction.channel_id or 0)
            if interaction.user.id != row.creator_id and not can_manage(interaction):
                raise SessionError("error.abandon_rights",
                                   "only the creator or a channel manager can end the game")
        except GameError as error:
            await answer_error(interaction, error)
            return
        playing = row.status == "active" and row.seat_of(interaction.user.id) is not None
        spec = present.abandon_question(row, lang, forfeit=playing)
        await interaction.response.send_message(**message_kwargs(spec), ephemeral=True)

    @admin.command(name="end", description="End this channel's game now (no winner)")
    async def admin_end(self, interaction: discord.Interaction) -> None:
        host = host_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            if not can_manage(interaction):
                raise SessionError("error.admin_only", "only channel managers can do this")
            row = await host.sessions.in_channel(interaction.channel_id or 0)
            outcome = await host.rooms.ending.abandon(row.id, interaction.user.id, can_manage=True)
        except GameError as error:
            await answer_error(interaction, error)
            return
        await confirm(interaction, "ui.done")
        await host.publish(outcome)

    @app_commands.command(name="help", description="How Stolik works, or how to play one game")
    @app_commands.describe(game="Which game (default: how Stolik works)")
    @app_commands.choices(game=GAME_CHOICES)
    async def help(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """How Stolik works; with a game: how to play it here (and its rules summary)."""
        lang = lang_of(interaction)
        if game is None:
            await interaction.response.send_message(t(lang, "help.stolik")[:2000], ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        spec = await present.howto_message(game, lang)
        await interaction.followup.send(**message_kwargs(spec), ephemeral=True)
        await interaction.followup.send(t(lang, f"{game}.rules")[:2000], ephemeral=True)

    @app_commands.command(name="history", description="Recent finished games in this channel")
    async def history(self, interaction: discord.Interaction) -> None:
        host = host_of(interaction)
        lang = lang_of(interaction)
        rows = await host.sessions.history(interaction.channel_id or 0)
        await interaction.response.send_message(history_text(rows, lang), ephemeral=True)


    @app_commands.command(name="undo", description="Take back your last move (until the next player acts)")
    async def undo(self, interaction: discord.Interaction) -> None:
        await self._with_game(interaction,
                              lambda host, row: host.rooms.undo.undo(row.id, interaction.user.id),
                              "ui.undone")

    @app_commands.command(name="substitute", description="Take over a seat whose player timed out")
    @app_commands.describe(seat="Seat number (1 = first player)")
    async def substitute(self, interaction: discord.Interaction,
                         seat: app_commands.Range[int, 1, 6]) -> None:
        user = interaction.user
        await self._with_game(
            interaction, lambda host, row: host.rooms.absence.substitute(
                row.channel_id, user.id, user.display_name, seat - 1), "ui.done")

    @app_commands.command(name="endvote", description="Propose to end this game now (all must agree)")
    async def endvote(self, interaction: discord.Interaction) -> None:
        host = host_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            row = await host.sessions.in_channel(interaction.channel_id or 0)
            outcome = await host.rooms.absence.vote(row.id, interaction.user.id, "end", "yes")
        except GameError as error:
            await answer_error(interaction, error)
            return
        await confirm(interaction, "ui.voted")
        if outcome.finished:
            await host.publish(outcome)
            return
        channel = await host.channel(row.channel_id)
        async with host.pace:
            await channel.send(**message_kwargs(present.end_vote_message(row, row.lang)))

    async def _with_game(self, interaction: discord.Interaction, call, done_key: str) -> None:
        host = host_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            row = await host.sessions.in_channel(interaction.channel_id or 0)
            outcome = await call(host, row)
        except GameError as error:
            await answer_error(interaction, error)
            return
        await confirm(interaction, done_key)
        await host.publish(outcome)

    @settings_group.command(name="me", description="Settings: yours and the server's")
    @app_commands.describe(timezone="e.g. Europe/Warsaw", quiet="Quiet hours, e.g. 22-7, or off",
                           pings="Remind me when it is my move")
    async def settings_me(self, interaction: discord.Interaction,
                          timezone: app_commands.Range[str, 1, 64] | None = None,
                          quiet: app_commands.Range[str, 1, 20] | None = None,
                          pings: bool | None = None) -> None:
        host = host_of(interaction)
        lang = lang_of(interaction)
        try:
            saved = await host.rooms.profile.settings(interaction.user.id, tz=timezone,
                                                      quiet=quiet, pings=pings)
        except GameError as error:
            await answer_error(interaction, error)
            return
        quiet_text = (f"{saved['quiet_start']}-{saved['quiet_end']}"
                      if saved["quiet_start"] is not None else t(lang, "ui.off"))
        said = t(lang, "ui.settings", tz=saved["tz"], quiet=quiet_text,
                 pings=t(lang, "ui.on" if saved["pings"] else "ui.off"))
        if not saved["pings"]:  # what "off" means, since a hand's DM still arrives once
            said += "\n" + t(lang, "ui.settings_reminders_off")
        await interaction.response.send_message(said, ephemeral=True)

    @settings_group.command(name="server", description="This server's defaults (server managers)")
    @app_commands.describe(pace="Default pace of new games, e.g. none or daily:1",
                           remind_hours="Untimed games: remind the player to move after hours",
                           absent_hours="Untimed games: the others may vote after hours",
                           language="Language of the game posts in this server")
    @app_commands.choices(language=[
        app_commands.Choice(name=app_commands.locale_str(name, key=f"lang.{code}"), value=code)
        for code, name in (("en", "English"), ("pl", "Polski"), ("uk", "Українська"))])
    async def settings_server(self, interaction: discord.Interaction, pace: str | None = None,
                              remind_hours: float | None = None,
                              absent_hours: float | None = None,
                              language: str | None = None) -> None:
        host = host_of(interaction)
        lang = lang_of(interaction)
        perms = getattr(interaction, "permissions", None)
        try:
            if interaction.guild_id is None or not (perms and perms.manage_guild):
                raise SessionError("error.server_managers_only", "only server managers")
            saved = await host.rooms.profile.save_server_defaults(
                interaction.guild_id, pace=pace, remind_hours=remind_hours,
                absent_hours=absent_hours, lang=language)
        except GameError as error:
            await answer_error(interaction, error)
            return
        await interaction.response.send_message(t(
            lang, "ui.server_settings", pace=saved.pace or "none",
            remind=f"{saved.remind_hours:g}", absent=f"{saved.absent_hours:g}",
            language=saved.lang or t(lang, "ui.server_lang_discord")), ephemeral=True)

    @settings_server.autocomplete("pace")
    async def server_pace_autocomplete(self, interaction: discord.Interaction, current: str):
        return pace_choices(interaction, current)

    @app_commands.command(name="mine", description="Every game you are in, and whose move it is")
    async def mine(self, interaction: discord.Interaction) -> None:
        host = host_of(interaction)
        entries = await host.rooms.profile.mine(interaction.user.id)
        await interaction.response.send_message(present.mine_text(entries, lang_of(interaction)),
                                                ephemeral=True)

    @app_commands.command(name="stats", description="Games, wins and average score per game")
    @app_commands.describe(player="Whose statistics (default: yours)")
    async def stats(self, interaction: discord.Interaction,
                    player: discord.User | None = None) -> None:
        host = host_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        who = player or interaction.user
        stats = await host.rooms.profile.stats(who.id, interaction.guild_id)
        await interaction.followup.send(
            present.stats_text(who.display_name, stats, lang_of(interaction)), ephemeral=True)

    @app_commands.command(name="leaderboard",
                          description="Ratings for one game (openskill), on this server or everywhere")
    @app_commands.describe(game="Which game",
                           everywhere="Every server together (default: this server)")
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, game: str,
                          everywhere: bool = False) -> None:
        host = host_of(interaction)
        await interaction.response.defer(thinking=True)
        # outside a server (a DM) there is only the table of every server
        everywhere = everywhere or interaction.guild_id is None
        board = await host.rooms.profile.leaderboard(game, None if everywhere else interaction.guild_id)
        await interaction.followup.send(
            present.leaderboard_text(game, board, lang_of(interaction), everywhere=everywhere),
            allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="replay", description="A game's boards as an animation and its "
                          "whole move log")
    @app_commands.describe(number="The game's number (default: this channel's game, or its last)")
    async def replay(self, interaction: discord.Interaction,
                     number: app_commands.Range[int, 1] | None = None) -> None:
        host = host_of(interaction)
        lang = lang_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            row = await replay_target(host, interaction, number)
            made = await workers.off_loop(replay_module.build, row,
                                          await replay_module.moves(host.sessions, row.id), lang)
        except GameError as error:
            await answer_error(interaction, error)
            return
        files = [discord.File(io.BytesIO(made.animation), filename=f"stolik-{row.id}.gif",
                              description=made.description),
                 discord.File(io.BytesIO(made.log.encode()), filename=f"stolik-{row.id}.txt")]
        await interaction.followup.send(
            t(lang, "ui.replay", game=t(lang, f"game.{row.game_id}"), id=row.id,
              moves=row.version, frames=made.frames), files=files, ephemeral=True)

    @app_commands.command(name="log", description="The moves of this channel's game (public only)")
    async def log(self, interaction: discord.Interaction) -> None:
        host = host_of(interaction)
        lang = lang_of(interaction)
        try:
            row = await host.sessions.in_channel_or_ended(interaction.channel_id or 0)
            lines = present.notices_text(row, await host.rooms.profile.public_log(row), lang)
        except GameError as error:
            await answer_error(interaction, error)
            return
        shown: list[str] = []  # the newest lines that fit, whole
        for line in reversed(lines):
            if len("\n".join([line, *shown])) > 2000:
                break
            shown.insert(0, line)
        await interaction.response.send_message(
            "\n".join(shown) or t(lang, "ui.log_empty"), ephemeral=True)


def pace_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    lang = lang_of(interaction)
    return [app_commands.Choice(name=t(lang, f"ui.pace.{value.replace(':', '_')}"), value=value)
            for value in PACES if current.lower() in value][:25]


async def open_thread(interaction: discord.Interaction, title: str):
    """A public thread under the channel for a new game (a thread is a channel to Stolik)."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) or not hasattr(channel, "create_thread"):
        raise SessionError("error.no_threads_here", "threads cannot be opened here")
    name = f"{title} — {interaction.user.display_name}"[:100]
    parent: Any = channel  # a text channel (forums and voice channels have no plain threads)
    try:
        return await parent.create_thread(name=name, type=discord.ChannelType.public_thread,
                                           auto_archive_duration=10080)
    except discord.HTTPException:  # no Create Public Threads permission, or threads are off
        raise SessionError("error.no_threads_here", "threads cannot be opened here") from None


def language_of_channel(interaction: discord.Interaction) -> str:
    """Public posts use the server's language (Discord's guild locale), else the user's."""
    from text.catalog import language

    locale = interaction.guild_locale or interaction.locale
    return language(str(locale) if locale else None)


async def status_text(host: Host, row, lang: str) -> str:
    if row.status == "lobby":
        return present.lobby_message(row, [], lang).content
    if row.status != "active":  # the game that just ended
        return clip("\n".join([
            t(lang, "ui.status_over", game=t(lang, f"game.{row.game_id}"), id=row.id,
              status=t(lang, f"ui.status_{row.status}"), moves=row.version),
            *present.final_lines(row, lang)]))
    state = await host.sessions.state(row)
    row = seatnames.reader_row(row, lang)  # computer players named in the reader's language
    who = ", ".join(row.seats[s].name for s in facts.to_act(row, state))
    return "\n".join([
        t(lang, "ui.status", game=t(lang, f"game.{row.game_id}"), id=row.id, moves=row.version),
        t(lang, "ui.to_move", players=who),
        present.scores_line(row, facts.totals(row, state), lang),
    ])


def history_text(rows, lang: str) -> str:
    if not rows:
        return t(lang, "ui.history_empty")
    lines = [t(lang, "ui.history_title")]
    for row in (seatnames.reader_row(r, lang) for r in rows):
        result = row.result or {}
        ranking = result.get("ranking") or []
        totals = result.get("totals") or []
        winners = ", ".join(row.seats[s].name for s in ranking[0]) if ranking else "-"
        scores = " · ".join(f"{s.name} {totals[s.seat]}" for s in row.seats if s.seat < len(totals))
        status = t(lang, f"ui.status_{row.status}")
        key = "ui.history_line"
        if row.status == "abandoned":  # an abandoned game names no winner
            key = "ui.history_line_abandoned"
            forfeit = result.get("forfeit")
            if forfeit is not None:
                status = t(lang, "ui.forfeit", player=row.seats[forfeit].name)
        lines.append(t(lang, key, game=t(lang, f"game.{row.game_id}"),
                       date=(row.finished_at or "")[:10], status=status, winners=winners,
                       scores=scores or "-"))
    return "\n".join(lines)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GameCog(bot))
