"""Setup: dominoes per player count, the first line, kings and their random order, options."""

import json
from collections import Counter

import pytest

from engines.base import BadOptions
from engines.kingdomino.state import acting_seat

from .helpers import GAME, act, play_random


@pytest.mark.parametrize(
    ("players", "variants", "in_play", "per_line", "rounds", "kings"),
    [
        (2, [], 24, 4, 6, 2),
        (3, [], 36, 3, 12, 1),
        (4, [], 48, 4, 12, 1),
        (2, ["mighty_duel"], 48, 4, 12, 2),
    ],
)
def test_dominoes_lines_and_kings_per_player_count(players, variants, in_play, per_line,
                                                   rounds, kings):
    state = GAME.setup(players, {"variants": variants}, 5)
    assert len(state["next_line"]) == per_line
    assert len(state["deck"]) + per_line == in_play
    assert len(state["removed"]) == 48 - in_play
    assert Counter(state["king_order"]) == Counter({s: kings for s in range(players)})
    view = GAME.view(state, None)
    assert view["rounds"] == rounds and view["round"] == 0 and view["phase"] == "pick"
    assert view["kings_per_player"] == kings
    assert view["grid"] == (7 if variants else 5) and view["size"] == (13 if variants else 9)
    assert view["kingdoms"][0]["castle"] == ("G7" if variants else "E5")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_has_one_placing_round_per_line(players):
    state = GAME.setup(players, {}, 11)
    rounds_seen = set()
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        if state["phase"] == "place":
            rounds_seen.add(state["round"])
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    assert rounds_seen == set(range(1, {2: 6, 3: 12, 4: 12}[players] + 1))


def test_line_is_sorted_by_number():
    for seed in range(30):
        state = GAME.setup(4, {}, seed)
        numbers = [slot["n"] for slot in state["next_line"]]
        assert numbers == sorted(numbers)
        state, _ = act(state, *[f"pick {n}" for n in numbers])
        numbers = [slot["n"] for slot in state["next_line"]]
        assert numbers == sorted(numbers)


def test_first_king_order_is_random_from_the_seed():
    firsts = {GAME.to_act(GAME.setup(4, {}, seed))[0] for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert GAME.setup(4, {}, 99) == GAME.setup(4, {}, 99)


def test_every_king_picks_once_in_drawing_order_and_2_players_pick_twice():
    state = GAME.setup(2, {}, 3)
    order = list(state["king_order"])
    seats = []
    while state["round"] == 0:
        seat = GAME.to_act(state)[0]
        seats.append(seat)
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1])
    assert seats == order and Counter(seats) == Counter({0: 2, 1: 2})
    # every king stands on a domino of the line that is placed now
    assert sorted(slot["king"] for slot in state["current_line"]) == [0, 0, 1, 1]


def test_state_is_plain_json():
    state, _ = play_random(3, 8, ["harmony", "middle_kingdom"])
    assert json.loads(json.dumps(state)) == state
    for key in ("seed", "rng_draws", "players"):
        assert key in state


def test_variants_are_normalised():
    state = GAME.setup(2, {"variants": ["harmony", "dynasty", "harmony"]}, 1)
    assert state["variants"] == ["dynasty", "harmony"]
    assert GAME.setup(2, {}, 1)["variants"] == []


@pytest.mark.parametrize(
    ("players", "variants", "key"),
    [
        (1, [], "error.players_range"),
        (5, [], "error.players_range"),
        (3, ["mighty_duel"], "error.variant_players"),
        (4, ["mighty_duel"], "error.variant_players"),
        (2, ["giant_kingdom"], "error.unknown_variant"),
        (2, "harmony", "error.unknown_variant"),
    ],
)
def test_bad_options(players, variants, key):
    with pytest.raises(BadOptions) as caught:
        GAME.setup(players, {"variants": variants}, 1)
    assert caught.value.key == key


def test_acting_king_in_round_0_follows_the_hidden_drawing_order():
    state = GAME.setup(3, {}, 21)
    assert acting_seat(state) == state["king_order"][0]
