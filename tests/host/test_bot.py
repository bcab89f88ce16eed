"""bot.py: start-up without a token, the offline demo, setup_hook and localised commands."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import discord
import pytest
from discord import app_commands

import bot
import settings
from cogs.translator import CatalogTranslator
from text.catalog import catalog


def config_for(db_path) -> settings.Settings:
    return settings.load({"STOLIK_DB": str(db_path)}).settings


def test_without_a_token_it_says_what_to_set(monkeypatch, tmp_path, capsys):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    assert bot.main([]) == 2
    err = capsys.readouterr().err
    assert "Set DISCORD_TOKEN" in err and err.count(".") <= 3


def test_dotenv_is_read_but_the_environment_wins(monkeypatch, tmp_path):
    (tmp_path / ".env").write_text("# comment\nSTOLIK_X='from file'\nSTOLIK_Y=file\n")
    monkeypatch.setenv("STOLIK_Y", "env")
    monkeypatch.delenv("STOLIK_X", raising=False)
    bot.load_dotenv(tmp_path / ".env")
    import os

    assert os.environ["STOLIK_X"] == "from file" and os.environ["STOLIK_Y"] == "env"
    monkeypatch.delenv("STOLIK_X")


def test_demo_plays_a_whole_game_offline(tmp_path, capsys):
    out = tmp_path / "demo"
    assert bot.main(["--demo", "kingdomino", "--players", "2", "--seed", "3", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "replay of the log: OK" in printed and "1." in printed
    images = sorted(out.glob("board_*.png"))
    assert len(images) > 20 and all(p.read_bytes().startswith(b"\x89PNG") for p in images)
    assert (out / "demo.sqlite3").exists()


async def test_setup_hook_loads_cogs_and_persistent_components(tmp_path, monkeypatch):
    client = bot.make_bot(config_for(tmp_path / "b.sqlite3"))

    async def no_sync(*, guild=None):
        return []

    monkeypatch.setattr(client.tree, "sync", no_sync)
    await client.setup_hook()
    try:
        names = {c.name for c in client.tree.get_commands()}
        assert {"game", "kingdomino"} <= names
        dynamic = client._connection._view_store._dynamic_items
        assert len(dynamic) == 2
    finally:
        await client.db.close()


async def test_each_setting_reaches_its_part_through_its_constructor(tmp_path, monkeypatch):
    """The values bot.py hands over: what each part did with os.environ before, unchanged."""
    (tmp_path / "clock").write_text("3600")
    loaded = settings.load({"STOLIK_DB": str(tmp_path / "b.sqlite3"), "STOLIK_STATE_CACHE": "7",
                            "STOLIK_STRICT_BOTS": "1", "STOLIK_GLOBAL_LIMIT": "10",
                            "STOLIK_IDLE_DAYS": "2", "STOLIK_CLOCK_FILE": str(tmp_path / "clock"),
                            "STOLIK_LOOP_LAG_LOG": str(tmp_path / "lag.txt")})
    assert loaded.problems == []
    client = bot.make_bot(loaded.settings)

    async def no_sync(*, guild=None):
        return []

    monkeypatch.setattr(client.tree, "sync", no_sync)
    await client.setup_hook()
    try:
        sessions = client.sessions
        assert (sessions.state_cache_size, sessions.strict_bots) == (7, True)
        assert sessions.idle_after.days == 2
        ahead = sessions.clock() - datetime.now(UTC)
        assert timedelta(minutes=59) < ahead < timedelta(minutes=61)
        assert client.host.pace.interval == pytest.approx(1 / 8)  # four fifths of 10 a second
        assert client.loop_lag.log_path == tmp_path / "lag.txt"
    finally:
        await client.loop_lag.stop()
        await client.db.close()


def _all_commands(client) -> list:
    """Every command and group, at every depth (/game settings me is three deep)."""
    out = []
    todo = list(client.tree.get_commands())
    while todo:
        command = todo.pop(0)
        out.append(command)
        todo.extend(getattr(command, "commands", []))
    return out


async def test_game_keeps_room_under_discords_25_subcommands(tmp_path, monkeypatch):
    client = bot.make_bot(config_for(tmp_path / "b.sqlite3"))

    async def no_sync(*, guild=None):
        return []

    monkeypatch.setattr(client.tree, "sync", no_sync)
    await client.setup_hook()
    try:
        game = client.tree.get_command("game")
        assert len(game.commands) <= 22  # room for three more
        groups = {c.name: [s.name for s in c.commands] for c in game.commands
                  if isinstance(c, app_commands.Group)}
        assert "me" in groups["settings"] and "end" in groups["admin"]
    finally:
        await client.db.close()


@pytest.mark.parametrize("locale", [discord.Locale.polish, discord.Locale.ukrainian])
async def test_every_command_name_and_description_is_translated_validly(tmp_path, monkeypatch, locale):
    client = bot.make_bot(config_for(tmp_path / "b.sqlite3"))

    async def no_sync(*, guild=None):
        return []

    monkeypatch.setattr(client.tree, "sync", no_sync)
    await client.setup_hook()
    translator = CatalogTranslator()
    loc = app_commands.TranslationContextLocation
    try:
        for command in _all_commands(client):
            is_group = isinstance(command, app_commands.Group)
            name = await translator.translate(
                app_commands.locale_str(command.name), locale,
                app_commands.TranslationContext(loc.group_name if is_group else loc.command_name, command))
            desc = await translator.translate(
                app_commands.locale_str(command.description), locale,
                app_commands.TranslationContext(
                    loc.group_description if is_group else loc.command_description, command))
            assert name and desc, command.qualified_name
            assert name == name.lower() and len(name) <= 32
            assert all(ch.isalnum() or ch in "-_" for ch in name), name
            for param in getattr(command, "parameters", []):
                pname = await translator.translate(
                    app_commands.locale_str(param.name), locale,
                    app_commands.TranslationContext(loc.parameter_name, param))
                assert pname and pname == pname.lower(), (command.qualified_name, param.name)
                for choice in param.choices:
                    shown = await translator.translate(
                        choice._locale_name or app_commands.locale_str(choice.name), locale,
                        app_commands.TranslationContext(loc.choice_name, choice))
                    # every choice has a name in the user's language, never the raw id
                    assert shown and shown != choice.value, (command.qualified_name, choice)
                    assert len(shown) <= 100
    finally:
        await client.db.close()
    assert catalog("en").get("cmd.game.name") is None  # English lives in the code


def test_bad_shard_settings_stop_the_bot_before_it_connects(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("STOLIK_SHARD_COUNT", "2")
    monkeypatch.setenv("STOLIK_SHARD_IDS", "0,2")
    assert bot.main([]) == 2
    assert "shard 2 is outside 0-1" in capsys.readouterr().err


def test_shard_of_a_guild_is_discords_rule():
    guild = (1234 << 22) | 99
    assert bot.shard_of(guild, 2) == 0 and bot.shard_of(guild + (1 << 22), 2) == 1
    assert bot.shard_of(None, 4) == 0  # DMs
