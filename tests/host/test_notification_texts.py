"""Texts a phone shows well (issue 24 item 4): slash commands named in texts are clickable
command mentions once the commands are synced; times are Discord timestamps."""

from __future__ import annotations

import discord
import pytest

from cogs import adapters
from cogs.adapters import command_mentions, message_kwargs, remember_commands
from session.specs import MessageSpec


def synced() -> list[discord.app_commands.AppCommand]:
    """The /game command as Discord answers a sync: subcommands and one group."""
    sub = {"type": 1, "description": "x"}
    data = {"id": "4242", "application_id": "1", "name": "game", "description": "x",
            "type": 1, "options": [
                {**sub, "name": "play"}, {**sub, "name": "join"}, {**sub, "name": "new"},
                {"type": 2, "name": "admin", "description": "x",
                 "options": [{**sub, "name": "end"}]}]}
    return [discord.app_commands.AppCommand(data=data, state=None)]  # type: ignore[arg-type]


@pytest.fixture
def commands(monkeypatch):
    monkeypatch.setattr(adapters, "_COMMANDS", {})  # module state: never left to other tests
    remember_commands(synced())


def test_command_names_become_clickable_mentions(commands):
    assert command_mentions("Join with /game join or the button.") == \
        "Join with </game join:4242> or the button."
    assert command_mentions("`/game play` and /game admin end.") == \
        "</game play:4242> and </game admin end:4242>."
    # a name followed by words that are not a subcommand keeps those words
    assert command_mentions("/game new starts another.") == "</game new:4242> starts another."
    # unknown names, a group, and names inside a longer code span stay as written
    assert command_mentions("/game fly, /game admin, `/game new pace:daily`, /other x") == \
        "/game fly, /game admin, `/game new pace:daily`, /other x"
    assert message_kwargs(MessageSpec("Use /game play"))["content"] == "Use </game play:4242>"


def test_without_synced_commands_the_names_stay_plain(monkeypatch):
    monkeypatch.setattr(adapters, "_COMMANDS", {})
    assert command_mentions("Use /game play.") == "Use /game play."
