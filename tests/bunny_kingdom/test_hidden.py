"""Hidden information: hands, secret picks, parchments, the 2-player reserve and discards."""

from __future__ import annotations

import json
import random

from engines.bunny_kingdom import GAME
from engines.bunny_kingdom.data import SCROLLS, kind_of
from tests.bunny_kingdom.helpers import fresh


def spectator(state) -> str:
    return json.dumps(GAME.view(state, None), sort_keys=True)


def secret_names(state) -> set[str]:
    """Parchment kinds that are secret now (in hands, picks, face down, reserves, deck)."""
    hidden = set(state["deck"])
    for key in ("hands", "reserves", "scrolls", "hidden"):
        for pile in state[key]:
            hidden.update(pile)
    for pick in state["picks"]:
        hidden.update(pick or [])
    return {kind_of(c).id for c in hidden} & set(SCROLLS)


def advance_randomly(state, steps, seed=0):
    rng = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(state):
            break
        seat = rng.choice(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, GAME.bot_action(state, seat, rng))
    return state


def test_spectator_view_has_no_private_part_and_no_secret_parchment():
    for players in (2, 3, 4):
        state = fresh(players, 3)
        for _ in range(12):
            view = GAME.view(state, None)
            assert "private" not in view
            text = spectator(state)
            if state["phase"] not in ("copy", "over"):
                for name in secret_names(state):
                    assert f'"{name}"' not in text, name
            state = advance_randomly(state, 9, players)


def test_swapping_hidden_cards_does_not_change_the_spectator_view():
    """Hands, picks, parchments, reserve and deck can be anything: the spectator sees the same."""
    state = advance_randomly(fresh(2, 8), 7)
    seat = GAME.to_act(state)[0]
    state, _ = GAME.apply(state, seat, GAME.bot_action(state, seat, random.Random(1)))
    before = spectator(state)
    other = json.loads(json.dumps(state))
    # exchange a card of seat 0's hand with a deck card, and the two reserves
    other["hands"][0][0], other["deck"][5] = other["deck"][5], other["hands"][0][0]
    other["reserves"][0], other["reserves"][1] = other["reserves"][1], other["reserves"][0]
    other["scrolls"][0] = ["royal_crown"] * len(other["scrolls"][0])
    other["hidden"][0] = list(reversed(other["hidden"][0]))
    if other["picks"][seat]:
        other["picks"][seat] = list(reversed(other["picks"][seat]))
    assert spectator(other) == before


def test_a_seat_sees_only_its_own_hand_and_pick():
    state = fresh(3, 4)
    state, _ = GAME.apply(state, 1, "pick " + " ".join(
        kind_of(c).id for c in state["hands"][1][:2]))
    mine = GAME.view(state, 1)["private"]
    assert mine["seat"] == 1 and mine["pick"] is not None
    assert mine["hand"] == [kind_of(c).id for c in state["hands"][1]]
    theirs = GAME.view(state, 0)
    assert theirs["private"]["pick"] is None
    assert json.dumps(theirs["private"]) == json.dumps(GAME.view(state, 0)["private"])
    assert "private" not in GAME.view(state, None)


def test_picked_event_names_no_card_and_private_event_goes_to_its_seat():
    state = fresh(3, 4)
    code = "pick " + " ".join(kind_of(c).id for c in state["hands"][0][:2])
    _, events = GAME.apply(state, 0, code)
    public = [e for e in events if "private_to" not in e]
    private = [e for e in events if "private_to" in e]
    assert public == [{"key": "bunny_kingdom.event.picked", "seat": 0}]
    assert private and all(e["private_to"] == 0 for e in private)


def test_two_player_reserve_is_secret_even_to_its_owner():
    state = fresh(2, 2)
    for seat in (0, 1):
        private = GAME.view(state, seat)["private"]
        reserve = {kind_of(c).id for c in state["reserves"][seat]}
        hand = set(private["hand"])
        assert "reserve" not in private
        assert GAME.view(state, None)["seats"][seat]["reserve"] == 9
        # nothing of the reserve that is not also in the hand shows in the private view
        text = json.dumps(private)
        for kind in reserve - hand:
            if kind in SCROLLS:
                assert f'"{kind}"' not in text


def test_parchments_are_revealed_at_the_end():
    state = advance_randomly(fresh(3, 5), 10_000, 5)
    assert GAME.is_over(state)
    view = GAME.view(state, None)
    for seat in range(3):
        assert view["seats"][seat]["revealed_scrolls"] == sorted(state["scrolls"][seat])
    assert view["final"] and view["ranking"]
