"""Hostile input: every value a user can type or forge is refused with a clear private answer,
within Discord's limits, before anything is saved (issue 14, item 1)."""

from __future__ import annotations

import logging

import discord
import pytest
from discord.ext import commands

import engines
from cogs.adapters import ECHO_LIMIT, MAX_CONTENT, on_command_error
from cogs.components import route
from cogs.game import GameCog
from cogs.kingdomino import KingdominoCog
from engines.base import MalformedAction
from engines.kingdomino.game import parse_pick
from session.clocks import check_zone, parse_pace
from session.errors import SessionError
from session.service import playable
from tests.host.fakes import FakeClient, FakeInteraction
from text.catalog import LANGUAGES, catalog, t

CH = 900


@pytest.fixture
def client(sessions) -> FakeClient:
    return FakeClient(sessions)


def interaction(client: FakeClient, user_id: int = 1, **kwargs) -> FakeInteraction:
    return FakeInteraction(client, client.user(user_id, f"Player{user_id}"), CH, **kwargs)


@pytest.mark.parametrize("pace", ["daily:nan", "daily:1e308", "realtime:inf", "daily:inf",
                                  "realtime:-inf", "realtime:1e308", "daily:1:nan", "daily:31",
                                  "daily:1:1000", "realtime:100000", "daily:0", "hourly"])
def test_paces_that_would_overflow_a_deadline_are_refused(pace):
    with pytest.raises(SessionError) as refused:
        parse_pace(pace)
    assert refused.value.key == "error.bad_pace"


@pytest.mark.parametrize("pace", ["none", "realtime:5", "realtime:10080", "daily:1", "daily:30",
                                  "daily:1:3", "daily:2.5"])
def test_reasonable_paces_are_kept(pace):
    parse_pace(pace)


@pytest.mark.parametrize("zone", ["Europe", "America", "A" * 300, "Europe/" + "x" * 300, "",
                                  "../etc/passwd", "Europe/Warsaw\x00"])
def test_time_zones_that_are_folders_or_too_long_are_refused(zone):
    with pytest.raises(SessionError) as refused:
        check_zone(zone)
    assert refused.value.key == "error.bad_timezone"


def test_superscript_digits_are_not_a_domino_number():
    assert "²".isdigit()  # why: str.isdigit accepts it, int() does not
    with pytest.raises(MalformedAction):
        parse_pick(["pick", "²"])


async def test_settings_answers_every_bad_value_within_discords_limit(client):
    cog = GameCog(client)  # type: ignore[arg-type]
    for kwargs, key in [({"timezone": "Europe"}, "error.bad_timezone"),
                        ({"timezone": "Z" * 300}, "error.bad_timezone"),
                        ({"quiet": "q" * 5000}, "error.bad_quiet")]:
        inter = interaction(client)
        await GameCog.settings_me.callback(cog, inter, **kwargs)
        [answer] = inter.replies
        assert answer.ephemeral and len(answer.content) <= MAX_CONTENT
        assert answer.content.startswith(t("en", key, tz="", quiet="")[:1])
    assert await client.host.sessions.store.settings(1) is None  # nothing saved


async def test_new_game_with_a_bad_pace_or_long_variants_saves_nothing_and_clips(client):
    cog = GameCog(client)  # type: ignore[arg-type]
    for pace, variants in [("daily:nan", None), ("realtime:inf", None), ("p" * 5000, None),
                           (None, "v" * 5000)]:
        inter = interaction(client)
        await GameCog.new.callback(cog, inter, "toy", 2, variants, pace)
        errors = inter.ephemeral_texts()
        assert len(errors) == 1 and len(errors[0]) <= MAX_CONTENT, errors
        assert "p" * (ECHO_LIMIT + 1) not in errors[0] and "v" * (ECHO_LIMIT + 1) not in errors[0]
    assert await client.host.sessions.store.open_in_channel(CH) is None
    assert client.channel(CH).messages == []


async def test_a_typed_move_that_is_not_an_action_code_is_refused_before_the_engine(client):
    cog = GameCog(client)  # type: ignore[arg-type]
    await GameCog.new.callback(cog, interaction(client), "toy", 2, None)
    await GameCog.join.callback(cog, interaction(client, 2))
    row = await client.host.sessions.in_channel(CH)
    for typed in ["pick ²", "pick 1" + "x" * 5000, "pick\x001", "ｐｉｃｋ 1"]:
        inter = interaction(client)
        await GameCog.play_cmd.callback(cog, inter, typed)
        [answer] = inter.ephemeral_texts()
        assert answer.startswith(t("en", "error.bad_action", action="")[:1])
        assert len(answer) <= MAX_CONTENT
    assert (await client.host.sessions.session(row.id)).version == row.version


FORGED = [
    "sk:1:v:skip:timeout:x", "sk:1:v:skip:timeout:99", "sk:1:v:boom:end", "sk:1:v:",
    "sk:99999999999999999999999:0:a:pick 1", "sk:1:99999999999999999999999:a:pick 1",
    "sk:1:0:a:pick ²", "sk:1:0:a:" + "x" * 90, "sk:1:l:nope", "sk:1:0:z:x", "sk:1:²:a:pick 1",
    "sk:1:", "sk:1:h:extra",
]


@pytest.mark.parametrize("custom_id", FORGED)
async def test_forged_component_ids_get_a_private_answer_and_change_nothing(client, custom_id,
                                                                              caplog):
    cog = GameCog(client)  # type: ignore[arg-type]
    await GameCog.new.callback(cog, interaction(client), "toy", 2, None, "realtime:5")
    await GameCog.join.callback(cog, interaction(client, 2))
    row = await client.host.sessions.in_channel(CH)
    posted = len(client.channel(CH).messages)
    inter = interaction(client, 2, message=client.channel(CH).last)
    with caplog.at_level(logging.ERROR):
        await route(inter, custom_id, None)
    assert inter.answered
    assert [r for r in inter.replies if r.ephemeral], inter.replies
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # foreseen, not a bug
    assert (await client.host.sessions.session(row.id)).version == row.version
    assert len(client.channel(CH).messages) == posted


@pytest.mark.parametrize("prefix", ["#99", "#x", "pick 9", "nothing at all"])
async def test_a_forged_picker_step_is_refused_as_not_recognised(client, prefix):
    """A picker prefix that opens no legal move (no button of the bot carries one) is
    answered privately as not recognised, not with an empty picker."""
    cog = GameCog(client)  # type: ignore[arg-type]
    await GameCog.new.callback(cog, interaction(client), "toy", 2, None)
    await GameCog.join.callback(cog, interaction(client, 2))
    row = await client.host.sessions.in_channel(CH)
    inter = interaction(client, 1, message=client.channel(CH).last)
    await route(inter, f"sk:{row.id}:{row.version}:p:{prefix}", None)
    assert inter.ephemeral_texts() == [t("en", "error.bad_component")]
    assert (await client.host.sessions.session(row.id)).version == row.version


async def test_an_unforeseen_failure_is_logged_and_still_answered(client, monkeypatch, caplog):
    cog = GameCog(client)  # type: ignore[arg-type]
    await GameCog.new.callback(cog, interaction(client), "toy", 2, None)
    await GameCog.join.callback(cog, interaction(client, 2))
    row = await client.host.sessions.in_channel(CH)

    async def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(client.host.sessions, "act", broken)
    inter = interaction(client, message=client.channel(CH).last)
    with caplog.at_level(logging.ERROR):
        await route(inter, f"sk:{row.id}:{row.version}:a:pick 1", None)
    assert inter.ephemeral_texts() == [t("en", "error.internal")]
    assert any(r.exc_info and "a bug" in str(r.exc_info[1]) for r in caplog.records)


async def test_the_command_tree_answers_errors_nobody_caught(client, caplog):
    inter = interaction(client)
    failure = discord.app_commands.CommandInvokeError.__new__(
        discord.app_commands.CommandInvokeError)
    failure.original = KeyError("boom")  # type: ignore[misc]
    with caplog.at_level(logging.ERROR):
        await on_command_error(inter, failure)  # type: ignore[arg-type]
    assert inter.ephemeral_texts() == [t("en", "error.internal")]
    refusal = discord.app_commands.CommandInvokeError.__new__(
        discord.app_commands.CommandInvokeError)
    refusal.original = SessionError("error.bad_pace", "", pace="x" * 3000)  # type: ignore[misc]
    inter = interaction(client)
    await on_command_error(inter, refusal)  # type: ignore[arg-type]
    [answer] = inter.ephemeral_texts()
    assert len(answer) < 300


class _Namespace:
    def __init__(self, game: str) -> None:
        self.game = game


@pytest.mark.parametrize("game_id", playable())
async def test_variant_autocomplete_values_fit_discords_100_characters(client, game_id):
    cog = GameCog(client)  # type: ignore[arg-type]
    meta = engines.get(game_id).meta
    typed = ""
    for _ in range(len(meta.variants) + 1):
        inter = interaction(client, namespace=_Namespace(game_id))
        choices = await GameCog.variants_autocomplete(cog, inter, typed)  # type: ignore[arg-type]
        assert len(choices) <= 25
        assert all(len(c.value) <= 100 and len(c.name) <= 100 for c in choices)
        if not choices:
            break
        typed = max((c.value for c in choices), key=len) + ", "


async def test_every_free_text_option_has_a_max_length():
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    await bot.add_cog(GameCog(bot))
    await bot.add_cog(KingdominoCog(bot))
    for command in bot.tree.get_commands():
        for sub in command.to_dict(bot.tree).get("options", []):
            for option in sub.get("options", []):
                if option["type"] == 3 and not option.get("choices"):
                    assert 1 <= option.get("max_length", 0) <= 100, (sub["name"], option)


def test_new_error_texts_exist_in_every_language():
    keys = {"error.internal", "error.bad_action", "error.board_failed"}
    for lang in LANGUAGES:
        assert keys <= set(catalog(lang)), lang
