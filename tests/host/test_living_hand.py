"""One living hand (issue 12): each player has one private message per game, edited in place
when their view changes; a new DM only when they must act (at most one per turn they must act),
in the player's own language; the card it replaces, and every card at the end, loses its
buttons (issue 24)."""

from __future__ import annotations

import pytest

import engines
from tests.host.fakes import FakeClient
from tests.host.test_every_game_through_cogs import CH, play_game
from text.catalog import t

HIDDEN = [g for g in ("bunny_kingdom", "gheos", "dwoch_nastepcow")
          if engines.get(g).meta.hidden_information]


async def turns_to_act(sessions, row) -> dict[int, int]:
    """Per seat, how many times its turn started (it came to be among the seats to act)."""
    game = engines.get(row.game_id)
    state = game.setup(row.players, row.options, row.seed)
    acting = set(game.to_act(state))
    starts = {seat: int(seat in acting) for seat in range(row.players)}
    for action in await sessions.store.actions(row.id):
        state, _ = game.apply(state, action.seat, action.code)
        now = set(game.to_act(state)) if not game.is_over(state) else set()
        for seat in now - acting:
            starts[seat] += 1
        acting = now
    return starts


@pytest.mark.parametrize("game_id", HIDDEN)
async def test_hand_dms_are_edited_in_place_one_new_dm_per_turn_to_act(
        game_id, sessions, db_path, clock):
    client = FakeClient(sessions)
    meta = engines.get(game_id).meta
    players = min(max(meta.min_players, 3), meta.max_players)
    await sessions.store.save_user_lang(2, "pl")  # remembered from an earlier interaction
    client = await play_game(client, game_id, players, db_path, clock, seed=11)
    sessions = client.host.sessions
    row = (await sessions.history(CH))[0]
    assert row.status == "finished"
    starts = await turns_to_act(sessions, row)
    edits = 0
    for seat in row.seats:
        user = client.users[seat.user_id]
        new_dms = len(user.dms)
        # one new DM per turn the player must act, at most (the first comes with their first
        # turn: a hand while others act is no reason to buzz a phone)
        assert 1 <= new_dms <= starts[seat.seat], (seat.seat, new_dms, starts[seat.seat])
        edits += sum(m.edits for m in client.channel(-seat.user_id).messages)
        lang = "pl" if seat.user_id == 2 else "en"
        # every older card says the game moved on, the last one that it is over; none keeps
        # a button that would no longer work
        assert [dm.content for dm in user.dms[:-1]] == [t(lang, "ui.hand_moved_on")] * (new_dms - 1)
        assert user.dms[-1].content == t(lang, "ui.hand_over", game=t(lang, f"game.{game_id}"),
                                         channel=CH)
        assert all(not dm.view or not dm.view.children for dm in user.dms)
    assert edits > 0  # the hand followed the game by edits, not by new messages
    await sessions.db.close()  # play_game restarted over a database of its own


async def test_a_language_is_remembered_from_interactions_and_written_only_on_change(sessions):
    client = FakeClient(sessions)
    hands = client.host.hands
    await hands.remember_language(5, "uk")
    assert await sessions.store.user_lang(5) == "uk"
    await sessions.store.save_user_lang(5, "en")  # changed meanwhile by another process
    await hands.remember_language(5, "uk")  # this process saw "uk" already: no write
    assert await sessions.store.user_lang(5) == "en"
    await hands.remember_language(5, "pl")
    assert await sessions.store.user_lang(5) == "pl"
    await hands.remember_language(5, None)
    assert await sessions.store.user_lang(5) == "pl"


async def test_quiet_hours_hold_a_new_dm_on_every_path_and_the_ping_delivers_it(
        sessions, clock):
    """The toy game (secret simultaneous picks): Bo is in quiet hours (11-13, the clock at
    12:00). His turn's DM is held on a move's publish and on a repair's (which does not know
    whose turn started); no mention either; when the hours end the ping timer sends one new
    DM saying it is his move (issue 24, item 3)."""
    from cogs.game import GameCog
    from session.values import Outcome
    from tests.host.fakes import FakeInteraction

    client = FakeClient(sessions)
    await client.host.rooms.profile.settings(2, tz="UTC", quiet="11-13")
    cog = GameCog(client)  # type: ignore[arg-type]
    await GameCog.new.callback(cog, FakeInteraction(client, client.user(1, "Ala"), CH),
                               "toy", 2, None)
    await GameCog.join.callback(cog, FakeInteraction(client, client.user(2, "Bo"), CH))
    row = await sessions.in_channel(CH)
    await client.host.repairs.repair_board(row.id)  # nothing missing: nothing posted
    await client.host.hands.send_in_order(row, [0, 1])  # as a repair or a give-back sends
    assert client.users[2].dms == [] and client.users[1].dms  # Ala is not in quiet hours
    assert all(2 not in m.sent.pinged() for m in client.channel(CH).messages)
    await client.host.publish(Outcome(row, board_changed=True))  # a board by the channel
    assert client.users[2].dms == []
    clock.advance(hours=1, minutes=1)  # 13:01
    for event in await client.host.rooms.timers.fire_due():
        await client.host.publish_timer(event)
    [held] = client.users[2].dms
    assert held.content.splitlines()[0] == t("en", "ui.hand_your_move", game=t("en", "game.toy"),
                                             channel=CH)
    assert all(2 not in m.sent.pinged() for m in client.channel(CH).messages)


async def _toy_for_two(client):
    """Ala (1) and Bo (2) start the toy game (every round both pick: both turns start)."""
    from cogs.game import GameCog
    from tests.host.fakes import FakeInteraction

    cog = GameCog(client)  # type: ignore[arg-type]
    await GameCog.new.callback(cog, FakeInteraction(client, client.user(1, "Ala"), CH),
                               "toy", 2, None)
    await GameCog.join.callback(cog, FakeInteraction(client, client.user(2, "Bo"), CH))
    return await client.host.sessions.in_channel(CH)


async def _play_round(client, row) -> None:
    """Both pick, each move published as a click publishes it: the next round starts, and
    with it Bo's turn (Ala, the last to pick, stays to act: no new turn of hers starts)."""
    for user_id in (2, 1):
        await client.host.publish(await client.host.sessions.act(row.id, user_id, "pick 1"))


@pytest.mark.parametrize("pings", [True, False])
async def test_with_reminders_off_a_turn_start_edits_the_card_instead_of_a_new_dm(
        sessions, pings):
    """Bo's turn starts in round 1, 2 and 3. Reminders on: a new DM each time (his one
    notification per turn). Reminders off: the first hand still comes by DM (he would have
    none by DM otherwise), and every later turn start edits that card, with its current
    view, instead of buzzing his phone; no board mentions him either."""
    client = FakeClient(sessions)
    await client.host.rooms.profile.settings(2, pings=pings)
    row = await _toy_for_two(client)
    bo = client.users[2]
    [first] = bo.dms  # the first hand arrives either way
    await _play_round(client, row)
    await _play_round(client, row)
    [card] = [m for m in client.channel(-2).messages if m.sent is first]
    your_move = t("en", "ui.hand_your_move", game=t("en", "game.toy"), channel=CH)
    if pings:
        assert len(bo.dms) == 3  # unchanged: one new DM per turn start
        assert first.content == t("en", "ui.hand_moved_on")
    else:
        assert bo.dms == [first] and card.edits >= 2  # round 2 and 3 by edits
        assert first.content is not None and first.content.splitlines()[0] == your_move
        assert first.view is not None and first.view.children  # still a live card
    assert all(2 not in m.sent.pinged() for m in client.channel(CH).messages)


async def test_with_reminders_off_the_quiet_hours_ping_neither_dms_nor_mentions(
        sessions, clock):
    """Bo has reminders off and quiet hours (11-13, the clock at 12:00): his turn's ping
    timer fires when the hours end and tells him nothing, by DM or in the channel; his first
    hand comes with his next turn start outside quiet hours."""
    client = FakeClient(sessions)
    await client.host.rooms.profile.settings(2, tz="UTC", quiet="11-13", pings=False)
    row = await _toy_for_two(client)
    assert client.users[2].dms == []  # quiet hours hold even the first hand
    clock.advance(hours=1, minutes=1)  # 13:01
    for event in await client.host.rooms.timers.fire_due():
        await client.host.publish_timer(event)
    assert client.users[2].dms == []
    assert all(2 not in m.sent.pinged() for m in client.channel(CH).messages)
    await _play_round(client, row)
    assert len(client.users[2].dms) == 1
