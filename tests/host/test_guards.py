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
from engines.base import GameError
from session import replay
from session.present import notices_text
from session.service import DM_RETRY_AFTER, Sessions
from session.values import Notice
from tests.host.days import first_moves
from tests.host.fakes import FakeClient, FakeInteraction
from text.catalog import t

CH = 2790


async def bunny_kingdom(sessions: Sessions, rounds: int = 6):
    """A two-player Bunny Kingdom (secret card picks) with a few picks made by each."""
    await sessions.new(guild_id=1, channel_id=CH, game_id="bunny_kingdom", user_id=1,
                       name="Ala", players=2)
    row = (await sessions.join(CH, 2, "Bo")).session
    return await first_moves(sessions, row, rounds)


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


async def test_dms_discord_failed_are_paused_for_that_user(sessions):
    """After a 5xx the user's DMs wait (:data:`cogs.hands.DM_PAUSE`): the next hands are not
    sent into the failure one by one."""
    client = FakeClient(sessions)
    client.failing_dms.add(2)
    await toy_rounds(client, 3)
    assert client.users[2].dm_attempts == 1
    assert told(client, 2) == 1


@pytest.fixture
def silent_toy(monkeypatch):
    """The toy game, with its "picked" event for the picker's eyes only: a game with secrets
    whose engine says nothing public about a move (only the reveal)."""
    from tests.host import toy

    apply = toy.GAME.apply

    def silent(state, seat, action):
        new, events = apply(state, seat, action)
        return new, [{**e, "private_to": seat} if e["key"] == "toy.event.picked" else e
                     for e in events]

    monkeypatch.setattr(toy.GAME, "apply", silent)


async def toy_game(sessions: Sessions):
    await sessions.new(guild_id=1, channel_id=CH, game_id="toy", user_id=1, name="Ala",
                       players=2)
    return (await sessions.join(CH, 2, "Bo")).session


async def test_a_hidden_move_the_engine_keeps_quiet_is_never_named(sessions, silent_toy,
                                                                   monkeypatch):
    """No "Ala played pick 3" for a game with secrets: not on the board, in /game log or in
    the replay's log."""
    from session.profile import Profile

    row = await toy_game(sessions)
    outcome = await sessions.act(row.id, 1, "pick 3")  # the board's news
    assert [n.key for n in outcome.notices] == []
    outcome = await sessions.act(row.id, 2, "pick 1")
    assert [n.key for n in outcome.notices] == ["toy.event.revealed"]
    row = outcome.session
    keys = [n.key for n in await Profile(sessions).public_log(row)]
    assert keys == ["toy.event.revealed"]
    monkeypatch.setattr(replay, "animate", lambda views, row, lang: b"")  # not drawn here
    codes = await replay.moves(sessions, row.id)
    _, moves = secrets_of(row, codes)
    made = replay.build(row, codes, "en")
    assert [line.split(". ", 1)[1] for line in made.log.splitlines()] == notices_text(
        row, [Notice("toy.event.revealed", {"picks": [3, 1]})], "en")
    assert not set(made.log.splitlines()) & set(moves)


async def test_a_hidden_games_public_board_shows_no_seats_view_and_no_choices(sessions):
    from session import ids, present

    row = await toy_game(sessions)
    outcome = await sessions.act(row.id, 1, "pick 3")  # one seat left to act: Bo
    row = outcome.session
    assert outcome.to_act == [1] and outcome.public is not None
    assert "private" not in outcome.public
    state = await sessions.state(row)
    spec = await present.turn_message(row, state, [], "en")
    assert spec.image is not None and b"private" not in spec.image
    parsed = [ids.parse(item.custom_id) for line in spec.rows for item in line]
    # "My move" opens a private picker; no move's code is on the public message
    assert all(p is not None and p.kind in ("pick", "hand", "undo") and p.payload == ""
               for p in parsed)


async def test_a_button_another_seat_was_offered_is_stale_for_the_next_player(sessions):
    """A board offered one player's choices (version v); that player moved; the next player
    clicks one of those old buttons: stale, even though the choice is legal for them now
    (they have not acted since v, but their choices at v were none)."""
    await sessions.new(guild_id=1, channel_id=CH, game_id="kingdomino", user_id=1,
                       name="Ala", players=2)
    row = (await sessions.join(CH, 2, "Bo")).session
    game = engines.get("kingdomino")
    for _ in range(20):
        state = await sessions.state(row)
        first = game.to_act(state)[0]
        offered = game.legal_actions(state, first)
        moved = (await sessions.act(row.id, row.seats[first].user_id, offered[0])).session
        after = await sessions.state(moved)
        nxt = game.to_act(after)[0]
        shared = [c for c in offered[1:] if c in game.legal_actions(after, nxt)]
        if nxt != first and shared:
            with pytest.raises(GameError) as refused:
                await sessions.act(row.id, moved.seats[nxt].user_id, shared[0], row.version)
            assert refused.value.key == "error.stale"
            assert (await sessions.session(row.id)).version == moved.version
            return
        row = moved
    pytest.fail("no turn passed between two players with a choice left in common")
