"""Action codes are logged as the engine spells them, however they were typed (issue 27,
item 9): ``PICK 5``, ``pick  5`` and ``pick 05`` are all stored as ``pick 5``, so the log,
replays and the public history read the same whoever typed them."""

from __future__ import annotations

import random

import pytest

import engines
from engines.base import normal_form
from session.service import playable
from tests.host.days import CH

#: the session suite runs on SQLite and on PostgreSQL
BACKENDS = "both"


def test_the_loose_form_ignores_case_spaces_and_leading_zeros():
    assert normal_form("  PICK   05 ") == normal_form("pick 5") == "pick 5"
    assert normal_form("place B02 b3") == "place b02 b3"  # only whole numbers lose zeros
    assert normal_form("pick 0") == "pick 0"


async def first_pick(sessions, channel: int):
    """A fresh two-player Kingdomino game (the same seed each time): its row, the seat and
    user to move, and a legal ``pick N`` for them."""
    await sessions.new(guild_id=1, channel_id=channel, game_id="kingdomino", user_id=1,
                       name="Ala", players=2)
    row = (await sessions.join(channel, 2, "Bo")).session
    game = engines.get("kingdomino")
    state = await sessions.state(row)
    seat = game.to_act(state)[0]
    pick = next(c for c in game.legal_actions(state, seat) if c.startswith("pick "))
    return row, row.seats[seat].user_id, pick


@pytest.mark.parametrize("spelling", ["PICK {n}", "pick  {n}", "pick 0{n}", " Pick 00{n} "])
async def test_a_pick_typed_any_way_is_stored_as_the_engine_spells_it(sessions, spelling):
    row, user, pick = await first_pick(sessions, CH)
    typed = spelling.format(n=pick.split()[1])
    await sessions.act(row.id, user, typed)
    assert [a.code for a in await sessions.store.actions(row.id)] == [pick]


@pytest.mark.parametrize("game_id", sorted(g for g in playable() if g != "toy"))
async def test_every_game_stores_a_loosely_typed_legal_code_canonically(sessions, game_id):
    """For each game: a legal code typed in upper case with doubled spaces (and a zero in
    front of its first number, where it has one) is accepted and logged canonically."""
    game = engines.get(game_id)
    await sessions.new(guild_id=1, channel_id=CH, game_id=game_id, user_id=1, name="A",
                       players=game.meta.min_players)
    for user in range(2, game.meta.min_players + 1):
        row = (await sessions.join(CH, user, f"P{user}")).session
    state = await sessions.state(row)
    seat = game.to_act(state)[0]
    legal = game.legal_actions(state, seat)
    code = random.Random(7).choice([c for c in legal if " " in c] or legal)
    tokens = code.upper().split()
    numeric = next((i for i, tok in enumerate(tokens) if tok.isdigit()), None)
    if numeric is not None:
        tokens[numeric] = "0" + tokens[numeric]
    typed = "  ".join(tokens)
    assert typed != code
    await sessions.act(row.id, row.seats[seat].user_id, typed)
    assert [a.code for a in await sessions.store.actions(row.id)] == [code]


async def test_a_code_that_means_no_legal_move_is_still_refused_by_the_engine(sessions):
    from session.errors import GameError

    row, user, _ = await first_pick(sessions, CH)
    with pytest.raises(GameError):
        await sessions.act(row.id, user, "PICK 999")
    assert await sessions.store.actions(row.id) == []


@pytest.mark.parametrize("game_id", sorted(g for g in playable() if g != "toy"))
def test_no_two_legal_codes_read_the_same_loosely(game_id):
    """The loose form never merges two legal codes (else a typed code could mean either):
    checked in every state of a random playout, where each code also comes back exact."""
    game = engines.get(game_id)
    rng = random.Random(3)
    state = game.setup(game.meta.max_players, {"variants": []}, 11)
    while not game.is_over(state):
        for seat in game.to_act(state):
            legal = game.legal_actions(state, seat)
            assert len({normal_form(c) for c in legal}) == len(legal)
        seat = game.to_act(state)[0]
        code = rng.choice(game.legal_actions(state, seat))
        assert game.canonical(state, seat, "  ".join(code.upper().split())) == code
        state, _ = game.apply(state, seat, code)
