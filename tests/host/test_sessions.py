"""The session layer against a real SQLite file, with the toy game."""

from __future__ import annotations

import asyncio
import json

import pytest

from db import Database
from engines.base import GameError, IllegalAction, MalformedAction, NotYourTurn
from session import present
from session.ending import Ending
from session.history import news_since_move
from session.service import SessionError, Sessions, parse_variants
from text.catalog import t

#: the session suite runs on SQLite and on PostgreSQL
BACKENDS = "both"

CH = 10


async def open_toy(sessions: Sessions, players: int = 2) -> int:
    out = await sessions.new(guild_id=1, channel_id=CH, game_id="toy", user_id=1, name="Ala",
                             players=players)
    for n in range(2, players + 1):
        out = await sessions.join(CH, n, f"P{n}")
    assert out.session.status == "active"
    return out.session.id


async def test_lobby_fills_and_starts(sessions):
    out = await sessions.new(guild_id=1, channel_id=CH, game_id="toy", user_id=1, name="Ala",
                             players=3)
    assert out.session.status == "lobby" and [s.name for s in out.session.seats] == ["Ala"]
    out = await sessions.join(CH, 2, "Bo")
    assert out.session.status == "lobby"
    out = await sessions.join(CH, 3, "Cy")
    assert out.session.status == "active"
    assert [n.key for n in out.notices][-1] == "notice.started"
    assert out.private_seats == [0, 1, 2]  # everyone gets their hand at the start


async def test_second_game_in_channel_is_refused_naming_the_running_game(sessions):
    sid = await open_toy(sessions)
    with pytest.raises(SessionError) as err:
        await sessions.new(guild_id=1, channel_id=CH, game_id="toy", user_id=5, name="X")
    assert err.value.key == "error.channel_busy"
    assert err.value.params == {"game": "toy", "id": sid}
    # another channel (or a thread) is fine
    other = await sessions.new(guild_id=1, channel_id=CH + 1, game_id="toy", user_id=5, name="X")
    assert other.session.status == "lobby"


async def test_bad_options_are_refused_before_anyone_joins(sessions):
    with pytest.raises(SessionError) as err:
        await sessions.new(guild_id=1, channel_id=CH, game_id="toy", user_id=1, name="A",
                           players=5)
    assert err.value.key == "error.players_range"
    with pytest.raises(SessionError) as err:
        await sessions.new(guild_id=1, channel_id=CH, game_id="toy", user_id=1, name="A",
                           variants="nonsense")
    assert err.value.key == "error.unknown_variant"
    with pytest.raises(SessionError) as err:
        await sessions.new(guild_id=1, channel_id=CH, game_id="chess", user_id=1, name="A")
    assert err.value.key == "error.unknown_game"
    # the variant restricts the count, so the default seat count follows it
    out = await sessions.new(guild_id=1, channel_id=CH, game_id="toy", user_id=1, name="A",
                             variants="Double")
    assert out.session.players == 2 and out.session.options == {"variants": ["double"]}


def test_parse_variants():
    assert parse_variants(" Middle Kingdom, harmony;mighty-duel, harmony") == [
        "middle_kingdom", "harmony", "mighty_duel"]
    assert parse_variants(None) == []


async def test_new_without_players_opens_the_fewest_seats_so_one_join_starts(sessions):
    """Two friends: /game new without ``players`` and one Join start the game (issue 24);
    more players ask for more seats. The lobby says how many more it waits for."""
    out = await sessions.new(guild_id=1, channel_id=CH, game_id="kingdomino", user_id=1,
                             name="Ala")
    assert out.session.players == 2
    assert present.lobby_message(out.session, [], "en").content.endswith(
        t("en", "ui.lobby_waiting", count=1))
    out = await sessions.join(CH, 2, "Bo")
    assert out.session.status == "active"
    four = await sessions.new(guild_id=1, channel_id=CH + 1, game_id="kingdomino", user_id=1,
                              name="Ala", players=4)
    assert t("en", "ui.lobby_waiting", count=3) in present.lobby_message(
        four.session, [], "en").content
    # a variant for two only: two seats whatever the game allows
    duel = await sessions.new(guild_id=1, channel_id=CH + 2, game_id="kingdomino", user_id=1,
                              name="Ala", variants="mighty_duel")
    assert duel.session.players == 2


async def test_lobby_rules(sessions):
    await sessions.new(guild_id=1, channel_id=CH, game_id="toy", user_id=1, name="Ala", players=3)
    await sessions.join(CH, 2, "Bo")
    with pytest.raises(SessionError, match="already"):
        await sessions.join(CH, 2, "Bo")
    with pytest.raises(SessionError) as err:
        await sessions.start(CH, 2)
    assert err.value.key == "error.only_creator_starts"
    out = await sessions.leave(CH, 2)
    assert [s.name for s in out.session.seats] == ["Ala"]
    with pytest.raises(SessionError) as err:
        await sessions.start(CH, 1)  # one player is too few for the game
    # said as what the lobby waits for, not as the game's player range (issue 24)
    assert (err.value.key, err.value.params["count"]) == ("error.waiting_for_players", 1)
    await sessions.join(CH, 3, "Cy")
    out = await sessions.start(CH, 1)
    assert out.session.status == "active" and out.session.players == 2
    with pytest.raises(SessionError) as err:
        await sessions.leave(CH, 3)
    assert err.value.key == "error.leave_started"


async def test_action_is_logged_with_the_state_in_one_transaction(sessions, db_path):
    sid = await open_toy(sessions)
    out = await sessions.act(sid, 1, "pick 2", version=0)
    assert out.session.version == 1
    rows = await sessions.db.fetchall("SELECT n, seat, user_id, code FROM actions")
    assert [tuple(r) for r in rows] == [(0, 0, 1, "pick 2")]
    stored = json.loads(out.session.state_json)
    assert stored["picks"] == [2, None]
    assert out.private_seats == [0]  # only the picker's private view changed


async def test_restart_continues_the_game(sessions, db_path, clock):
    sid = await open_toy(sessions)
    await sessions.act(sid, 1, "pick 2")
    await sessions.db.close()
    # a new process: new objects over the same file
    db = await Database(db_path).open()
    again = Sessions(db, clock=clock, strict_bots=True)
    out = await again.act(sid, 2, "pick 3", version=1)
    assert out.session.version == 2
    state = await again.state(out.session)
    assert state["points"] == [0, 3] and state["round"] == 2
    assert await again.replay(out.session) == state
    await db.close()


async def test_stale_button_changes_nothing(sessions):
    sid = await open_toy(sessions)
    await sessions.act(sid, 1, "pick 1", version=0)
    await sessions.act(sid, 2, "pick 2", version=1)  # round 2 begins
    for user, version in ((1, 0), (2, 1), (1, 7)):
        with pytest.raises(SessionError) as err:
            await sessions.act(sid, user, "pick 1", version=version)
        assert err.value.key == "error.stale"
    row = await sessions.session(sid)
    assert row.version == 2
    assert len(await sessions.store.actions(sid)) == 2


async def test_a_simultaneous_pick_from_an_older_message_still_counts(sessions):
    """Others' secret picks do not change my choices, so my button is not stale."""
    sid = await open_toy(sessions, players=3)
    await sessions.act(sid, 1, "pick 1", version=0)
    await sessions.act(sid, 2, "pick 2", version=1)
    out = await sessions.act(sid, 3, "pick 3", version=0)
    assert out.session.version == 3


@pytest.mark.parametrize(("user", "code", "error", "key"), [
    (99, "pick 1", SessionError, "error.not_a_player"),
    (1, "jump", MalformedAction, "toy.malformed"),
])
async def test_bad_input_changes_nothing(sessions, user, code, error, key):
    sid = await open_toy(sessions)
    before = await sessions.session(sid)
    with pytest.raises(error) as err:
        await sessions.act(sid, user, code)
    assert err.value.key == key
    after = await sessions.session(sid)
    assert (after.version, after.state_json) == (before.version, before.state_json)


async def test_not_your_turn_and_illegal_come_from_the_engine(sessions):
    sid = await open_toy(sessions)
    await sessions.act(sid, 1, "pick 3")
    with pytest.raises(NotYourTurn):
        await sessions.act(sid, 1, "pick 2")
    assert (await sessions.session(sid)).version == 1
    # a leader may not pick 3 in the last round: the engine names the rule
    await sessions.act(sid, 2, "pick 1")
    await sessions.act(sid, 1, "pick 3")
    await sessions.act(sid, 2, "pick 1")
    row = await sessions.session(sid)
    assert (await sessions.state(row))["points"] == [6, 0]
    with pytest.raises(IllegalAction) as err:
        await sessions.act(sid, 1, "pick 3")
    assert err.value.key == "toy.rule.no_three_when_leading"
    assert (await sessions.session(sid)).version == row.version == 4


async def test_two_clicks_at_once_never_interleave(sessions):
    sid = await open_toy(sessions)
    # a double click: the second one finds the board moved on by its own seat
    results = await asyncio.gather(
        sessions.act(sid, 1, "pick 1", version=0),
        sessions.act(sid, 1, "pick 2", version=0),
        return_exceptions=True,
    )
    assert sum(isinstance(r, GameError) and r.key == "error.stale" for r in results) == 1
    assert (await sessions.session(sid)).version == 1
    assert [a.code for a in await sessions.store.actions(sid)] == ["pick 1"]


async def test_corrupt_state_row_is_rebuilt_from_the_log(sessions, db_path, clock):
    sid = await open_toy(sessions)
    await sessions.act(sid, 1, "pick 3")
    await sessions.act(sid, 2, "pick 1")
    good = await sessions.state(await sessions.session(sid))
    async with sessions.db.transaction() as conn:
        await conn.execute("UPDATE sessions SET state = '{garbage' WHERE id = ?", (sid,))
    fresh = Sessions(sessions.db, clock=clock, strict_bots=True)  # no cached state
    row = await fresh.session(sid)
    assert await fresh.state(row) == good
    out = await fresh.act(sid, 1, "pick 2", version=2)  # and the game goes on
    assert out.session.version == 3


async def test_computer_players_move_by_themselves(sessions):
    out = await sessions.new(guild_id=1, channel_id=CH, game_id="toy", user_id=1, name="Ala",
                             players=3)
    await sessions.join(CH, None, "Bot 2")
    out = await sessions.join(CH, None, "Bot 3")
    assert out.session.version == 2  # both computers picked at once
    rows = await sessions.store.actions(out.session.id)
    assert [(r.seat, r.user_id) for r in rows] == [(1, None), (2, None)]
    for _ in range(3):
        out = await sessions.act(out.session.id, 1, "pick 1")
    assert out.session.status == "finished"
    assert await sessions.replay(out.session) == await sessions.state(out.session)


async def test_finished_game_records_result_and_history(sessions, clock):
    sid = await open_toy(sessions)
    for _ in range(3):
        await sessions.act(sid, 1, "pick 2")
        out = await sessions.act(sid, 2, "pick 1")
    assert out.finished and out.session.status == "finished"
    assert out.session.result["totals"] == [6, 0]
    assert out.session.result["ranking"] == [[0], [1]]
    history = await sessions.history(CH)
    assert [h.id for h in history] == [sid]
    with pytest.raises(SessionError) as err:
        await sessions.act(sid, 1, "pick 1")
    assert err.value.key in ("error.not_active",)
    # the channel is free again
    out = await sessions.new(guild_id=1, channel_id=CH, game_id="toy", user_id=1, name="Ala")
    assert out.session.status == "lobby"


async def test_abandon_needs_rights_and_is_recorded(sessions):
    sid = await open_toy(sessions)
    await sessions.act(sid, 1, "pick 3")
    await sessions.act(sid, 2, "pick 1")
    with pytest.raises(SessionError) as err:
        await Ending(sessions).abandon(sid, 2, can_manage=False)
    assert err.value.key == "error.abandon_rights"
    out = await Ending(sessions).abandon(sid, 2, can_manage=True)
    assert out.session.status == "abandoned"
    assert out.session.result["totals"] == [3, 0]
    assert len(await sessions.store.actions(sid)) == 2  # recorded, not deleted
    assert [h.status for h in await sessions.history(CH)] == ["abandoned"]


async def test_refused_dm_is_remembered_for_a_while(sessions, clock):
    assert await sessions.may_dm(7)
    await sessions.dm_refused(7)
    assert not await sessions.may_dm(7)
    clock.advance(hours=7)
    assert await sessions.may_dm(7)


async def test_legal_moves_for_a_user(sessions):
    sid = await open_toy(sessions)
    row, seat, codes = await sessions.legal(sid, 2)
    assert seat == 1 and codes == ["pick 1", "pick 2", "pick 3"]
    await sessions.act(sid, 2, "pick 1")
    assert (await sessions.legal(sid, 2))[2] == []


async def test_news_since_a_seats_move_are_the_others_public_events(sessions):
    """What a player who was away missed (issue 24): the others' public events since their
    own last move, and none of a hand's secrets."""
    import engines

    await sessions.new(guild_id=1, channel_id=CH, game_id="gheos", user_id=1, name="Ala",
                       players=2)
    row = (await sessions.join(CH, 2, "Bo")).session
    game = engines.get("gheos")
    seen: list[int] = []
    while len(set(seen[-2:])) < 2 or seen[-1] != 1:  # Ala's turn, then Bo's at least once
        state = await sessions.state(row)
        seat = game.to_act(state)[0]
        row = (await sessions.act(row.id, row.seats[seat].user_id,
                                  game.legal_actions(state, seat)[0])).session
        seen.append(seat)
    news = await news_since_move(sessions, row, 0)
    assert news and all(n.params.get("seat") == 1 for n in news)
    assert all("private_to" not in n.params for n in news)  # nothing for one seat's eyes
    assert await news_since_move(sessions, row, 1) == []  # Bo moved last
    text = present.since_line(row, news, "pl")
    assert text.startswith(t("pl", "ui.since_your_move", events="")) and "Bo" in text
