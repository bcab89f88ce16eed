"""Guards a single-line change could remove while every other test still passed (issue 27,
item 4): what keeps players' hands out of ``/game replay`` and ``/game log``, the creator's
right to add computer players, and "a player whose DMs fail is told once". Each test here
kills a mutant listed in bench/mutation_guards.py."""

from __future__ import annotations

import random

import pytest

import cogs.hands as hands_module
import engines
from cogs.game import GameCog
from session import replay
from session.present import notices_text
from session.service import DM_RETRY_AFTER, Sessions
from session.values import Notice
from tests.host.fakes import FakeClient, FakeInteraction
from text.catalog import t

CH = 2790


async def bunny_kingdom(sessions: Sessions, rounds: int = 6):
    """A two-player Bunny Kingdom (secret card picks) with a few picks made by each."""
    await sessions.new(guild_id=1, channel_id=CH, game_id="bunny_kingdom", user_id=1,
                       name="Ala", players=2)
    row = (await sessions.join(CH, 2, "Bo")).session
    game = engines.get("bunny_kingdom")
    for _ in range(rounds):
        state = await sessions.state(row)
        seat = game.to_act(state)[0]
        row = (await sessions.act(row.id, row.seats[seat].user_id,
                                  game.legal_actions(state, seat)[0])).session
    return row


def secrets_of(row, codes) -> tuple[list[str], list[str]]:
    """What the log must never show, replayed with the engine: the lines of the events meant
    for one seat's eyes, and a "played" line per move (in a game with secrets a move may be
    one: a hidden pick)."""
    game = engines.get(row.game_id)
    state = game.setup(row.players, row.options, row.seed)
    private, moves = [], []
    for seat, code in codes:
        before = state
        state, events = game.apply(state, seat, code)
        private += [Notice(e["key"], {k: v for k, v in e.items() if k not in ("key", "reveal")})
                    for e in events if "private_to" in e]
        key, params = game.describe(before, code)
        moves.append(Notice("notice.played", {"seat": seat, "action": (key, params)}))
    return notices_text(row, private, "en"), notices_text(row, moves, "en")


async def test_the_replay_log_shows_no_hand_and_no_hidden_move(sessions):
    row = await bunny_kingdom(sessions)
    codes = await replay.moves(sessions, row.id)
    private, moves = secrets_of(row, codes)
    assert private and moves  # the game had secrets to keep
    made = replay.build(row, codes, "en", limit=2)
    lines = [line.split(". ", 1)[1] for line in made.log.splitlines()]
    assert lines  # its public events are there
    assert not set(lines) & set(private)
    assert not set(lines) & set(moves)


async def test_game_log_shows_no_hand_and_no_hidden_move(sessions):
    from session.profile import Profile

    row = await bunny_kingdom(sessions)
    notices = await Profile(sessions).public_log(row, limit=1000)
    keys = {n.key for n in notices}
    assert keys and "notice.played" not in keys
    private, _ = secrets_of(row, await replay.moves(sessions, row.id))
    assert not set(notices_text(row, notices, "en")) & set(private)
    assert "bunny_kingdom.event.you_picked" not in keys


async def test_only_the_creator_adds_computer_players(sessions):
    client = FakeClient(sessions)
    cog = GameCog(client)  # type: ignore[arg-type]
    await GameCog.new.callback(cog, FakeInteraction(client, client.user(1), CH), "toy", 3, None)
    await GameCog.join.callback(cog, FakeInteraction(client, client.user(2), CH))
    other = FakeInteraction(client, client.user(2), CH)
    await GameCog.addbot.callback(cog, other)
    assert other.ephemeral_texts() == [t("en", "error.only_creator_addbot")]
    assert [s.user_id for s in (await sessions.in_channel(CH)).seats] == [1, 2]
    creator = FakeInteraction(client, client.user(1), CH)
    await GameCog.addbot.callback(cog, creator)
    assert [s.user_id for s in (await sessions.in_channel(CH)).seats] == [1, 2, None]


async def toy_rounds(client: FakeClient, rounds: int, between=None) -> None:
    """Rounds of the toy game (secret picks: each new round DMs each player's hand)."""
    cog = GameCog(client)  # type: ignore[arg-type]
    await GameCog.new.callback(cog, FakeInteraction(client, client.user(1), CH), "toy", 2, None)
    await GameCog.join.callback(cog, FakeInteraction(client, client.user(2), CH))
    rng = random.Random(5)
    for _ in range(rounds):
        if between is not None:
            between()
        for user in (2, 1):  # player 2's hand changes at both picks (then at the reveal)
            await GameCog.play_cmd.callback(cog, FakeInteraction(client, client.user(user), CH),
                                            f"pick {rng.randint(1, 2)}")


def told(client: FakeClient, user_id: int) -> int:
    return len([m for m in client.channel(CH).messages
                if m.sent.content == t("en", "ui.dm_closed", players=f"<@{user_id}>")])


async def test_dms_that_fail_again_after_the_pause_are_still_told_once(sessions, monkeypatch):
    """The pause after a 5xx ends (here at once): each new hand tries the DM again, and the
    channel is not told again."""
    monkeypatch.setattr(hands_module, "DM_PAUSE", 0.0)
    client = FakeClient(sessions)
    client.failing_dms.add(2)
    await toy_rounds(client, 3)
    assert client.users[2].dm_attempts >= 3  # tried again each time...
    assert told(client, 2) == 1  # ...and told once


async def test_refused_dms_are_remembered_then_tried_again_and_still_told_once(sessions, clock):
    client = FakeClient(sessions)
    client.closed_dms.add(2)
    await toy_rounds(client, 1)
    assert client.users[2].dm_attempts == 1  # the refusal is remembered: no blind retry
    assert not await sessions.may_dm(2)
    await toy_rounds_more(client, clock)
    assert client.users[2].dm_attempts == 2  # tried again once the refusal expired
    assert told(client, 2) == 1


async def toy_rounds_more(client: FakeClient, clock) -> None:
    """The refusal's time passes; the game goes on (one more round)."""
    clock.advance(seconds=DM_RETRY_AFTER.total_seconds() + 60)
    cog = GameCog(client)  # type: ignore[arg-type]
    for user in (2, 1):
        await GameCog.play_cmd.callback(cog, FakeInteraction(client, client.user(user), CH),
                                        "pick 1")


@pytest.mark.parametrize("custom_id", [
    "sk:99999999999999999999:0:a:pick 1",  # beyond a database integer
    "sk:1:x:²",  # a digit to str.isdigit that int() refuses
    "sk:1:x:99999999999999999999",
    "sk:1:²:a:pick 1",
    "sk:1:99999999999999999999:a:pick 1",
    "sk:1:0:q:pick 1",  # no such kind
    "sk:1:v:skip:timeout:999",  # not a ballot a vote button carries
    "sk:1:v:maybe:end",
])
def test_forged_component_ids_parse_to_nothing(custom_id):
    from session import ids

    assert ids.parse(custom_id) is None
