"""The exploration phase: dealing, secret simultaneous picks, playing cards, passing hands."""

from __future__ import annotations

import pytest

from engines.base import BadOptions
from engines.bunny_kingdom import GAME
from engines.bunny_kingdom.data import DECK, INDEX, kind_of
from tests.bunny_kingdom.helpers import all_cards, fresh


def kinds(cards):
    return [kind_of(c).id for c in cards]


def pick_first_two(state, seat):
    hand = kinds(state["hands"][seat])
    return f"pick {hand[0]} {hand[1]}"


def test_setup_shuffles_all_182_cards_and_deals():
    for players, hand in ((3, 12), (4, 10)):
        s = fresh(players)
        assert sorted(all_cards(s)) == sorted(DECK)
        assert [len(h) for h in s["hands"]] == [hand] * players
        assert len(s["deck"]) == 182 - hand * players
        assert GAME.to_act(s) == list(range(players))


def test_two_players_get_10_cards_and_10_reserve_and_add_one_before_picking():
    s = fresh(2)
    assert [len(h) for h in s["hands"]] == [11, 11]  # 10 + the first reserve card
    assert [len(r) for r in s["reserves"]] == [9, 9]
    assert len(s["deck"]) == 182 - 40


def test_player_count_outside_2_to_4_is_refused():
    for players in (1, 5):
        with pytest.raises(BadOptions):
            GAME.setup(players, {}, 1)


def test_same_seed_same_deal_different_seed_different_deal():
    assert fresh(3, 5)["deck"] == fresh(3, 5)["deck"]
    assert fresh(3, 5)["deck"] != fresh(3, 6)["deck"]


def test_a_pick_stays_hidden_until_everyone_has_picked():
    s = fresh(3)
    s1, events = GAME.apply(s, 0, pick_first_two(s, 0))
    assert s1["picks"][0] is not None and s1["owner"] == s["owner"]
    assert GAME.to_act(s1) == [1, 2]
    public = [e for e in events if "private_to" not in e]
    assert public == [{"key": "bunny_kingdom.event.picked", "seat": 0}]
    assert GAME.view(s1, None)["seats"][0]["picked"] is True
    assert GAME.view(s1, 0)["private"]["pick"] == kinds(s["hands"][0][:2])
    s2, _ = GAME.apply(s1, 1, pick_first_two(s1, 1))
    s3, events = GAME.apply(s2, 2, pick_first_two(s2, 2))
    reveal = [e for e in events if e["key"] == "bunny_kingdom.event.reveal"]
    assert len(reveal) == 1 and reveal[0]["reveal"] is True
    assert s3["picks"] == [None, None, None]
    assert GAME.to_act(s3) == [0, 1, 2] and s3["step"] == 2


def passes(round_no, players=4):
    """Which seat receives seat 0's remaining hand in that round."""
    s = fresh(players)
    s["round"] = round_no
    left = list(s["hands"][0][2:])
    for seat in range(players):
        s, _ = GAME.apply(s, seat, pick_first_two(s, seat))
    return next(seat for seat in range(players) if s["hands"][seat] == left)


def test_hands_pass_left_in_rounds_1_and_3_and_right_in_2_and_4():
    # left = the next seat (seat + 1), as in the Ukrainian rulebook and BGA
    assert passes(1) == 1 and passes(3) == 1
    assert passes(2) == 3 and passes(4) == 3


def test_two_players_play_one_and_discard_one_face_down():
    s = fresh(2)
    hand = kinds(s["hands"][0])
    s, _ = GAME.apply(s, 0, f"pick {hand[0]} {hand[1]}")
    s, events = GAME.apply(s, 1, pick_first_two(s, 1))
    assert len(s["hidden"][0]) == 1 and kind_of(s["hidden"][0][0]).id == hand[1]
    reveal = next(e for e in events if e["key"] == "bunny_kingdom.event.reveal")
    assert len(reveal["plays"][0]) == 1 and reveal["discarded"] == [1, 1]
    assert GAME.view(s, None)["seats"][0]["hidden_discards"] == 1
    assert GAME.view(s, 0)["private"]["hidden_discards"] == [hand[1]]
    # the hand passed on has 9 cards, plus the next reserve card
    assert [len(h) for h in s["hands"]] == [10, 10]


def test_steps_per_round_then_construction():
    for players, steps in ((2, 10), (3, 6), (4, 5)):
        s = fresh(players)
        for step in range(1, steps + 1):
            assert s["phase"] == "explore" and s["step"] == step and s["round"] == 1
            for seat in range(players):
                s, _ = GAME.apply(s, seat, pick_first_two(s, seat))
        assert s["round"] == 2 or s["phase"] in ("camps", "build", "trade")
        assert not any(s["reserves"]) or s["round"] == 2


def rig(state, seat, cards):
    """Put the named cards (ids) at the front of the seat's hand, swapping with the deck."""
    hand = state["hands"][seat]
    for n, card in enumerate(cards):
        where = next(k for k, pile in enumerate([state["deck"], *state["hands"]]) if card in pile)
        pile = state["deck"] if where == 0 else state["hands"][where - 1]
        pile[pile.index(card)] = hand[n]
        hand[n] = card


def play_round_step(state, plays):
    for seat in range(state["players"]):
        code = plays.get(seat) or pick_first_two(state, seat)
        state, events = GAME.apply(state, seat, code)
    return state, events


def test_territory_card_places_a_rabbit():
    s = fresh(3)
    rig(s, 0, ["E5", "J10"])
    s, _ = play_round_step(s, {0: "pick E5 J10"})
    assert s["owner"][INDEX["E5"]] == 0 and s["owner"][INDEX["J10"]] == 0


def test_building_cards_wait_face_up_and_scrolls_stay_face_down():
    s = fresh(3)
    rig(s, 0, ["city_2#1", "fisher"])
    s, events = play_round_step(s, {0: "pick city_2 fisher"})
    assert kinds(s["waiting"][0]) == ["city_2"] and s["scrolls"][0] == ["fisher"]
    reveal = next(e for e in events if e["key"] == "bunny_kingdom.event.reveal")
    assert sorted(reveal["plays"][0]) == ["city_2", "scroll"]
    assert "fisher" not in str([e for e in events if "private_to" not in e])


def to_deck_top(state, cards):
    """Move the cards (ids) to the top of the deck, swapping with whatever was there."""
    for n, card in enumerate(cards):
        if card in state["deck"]:
            k = state["deck"].index(card)
            state["deck"][k], state["deck"][n] = state["deck"][n], state["deck"][k]
        else:
            hand = next(h for h in state["hands"] if card in h)
            hand[hand.index(card)] = state["deck"][n]
            state["deck"][n] = card


def test_provisions_draw_the_top_2_cards_and_play_them_chains_too():
    s = fresh(3)
    rig(s, 0, ["provisions#1", "A1"])
    to_deck_top(s, ["provisions#2", "J10", "city_3#1", "fisher"])
    size = len(s["deck"])
    s, events = GAME.apply(s, 0, "pick provisions A1")
    for seat in (1, 2):
        s, events = GAME.apply(s, seat, "pick " + " ".join(kinds(s["hands"][seat][:2])))
    mine = [e for e in events if e.get("seat") == 0]
    provisions = [e for e in mine if e["key"] == "bunny_kingdom.event.provisions"]
    # provisions#1 draws provisions#2 and J10; provisions#2 draws city_3 and fisher
    assert [p["cards"] for p in provisions] == [["provisions", "J10"], ["city_3", "scroll"]]
    assert all(p["reveal"] for p in provisions)
    assert {"provisions#1", "provisions#2", "J10", "A1"} <= set(s["discard"][0])
    assert s["owner"][INDEX["J10"]] == 0 and s["scrolls"][0] == ["fisher"]
    assert kinds(s["waiting"][0]) == ["city_3"]
    assert len(s["deck"]) <= size - 4
    assert sorted(all_cards(s)) == sorted(DECK)


def test_territory_on_an_opponents_camp_replaces_the_rabbit_and_removes_the_camp():
    s = fresh(3)
    s["owner"][INDEX["E5"]] = 1
    s["building"][INDEX["E5"]] = "camp_3"
    rig(s, 0, ["E5", "J10"])
    s, events = play_round_step(s, {0: "pick E5 J10"})
    assert s["owner"][INDEX["E5"]] == 0 and s["building"][INDEX["E5"]] is None
    assert any(e["key"] == "bunny_kingdom.event.camp_replaced" for e in events)


def test_territory_on_your_own_camp_just_removes_the_camp():
    s = fresh(3)
    s["owner"][INDEX["E5"]] = 0
    s["building"][INDEX["E5"]] = "camp_3"
    rig(s, 0, ["E5", "J10"])
    s, events = play_round_step(s, {0: "pick E5 J10"})
    assert s["owner"][INDEX["E5"]] == 0 and s["building"][INDEX["E5"]] is None
    assert any(e["key"] == "bunny_kingdom.event.own_camp_removed" for e in events)


def test_pick_codes_cover_every_ordered_pair_of_cards():
    s = fresh(3, 11)
    hand = kinds(s["hands"][0])
    distinct = len(set(hand))
    codes = GAME.legal_actions(s, 0)
    # ordered pairs of distinct kinds, plus "pick X X" for each kind held twice or more
    doubles = sum(1 for k in set(hand) if hand.count(k) > 1)
    assert len(codes) == distinct * (distinct - 1) + doubles
    assert all(len(code) <= 60 for code in codes)


def test_legal_action_counts_perft_like():
    """Counts of legal codes in fixed positions (seed 1, first seat, first pick)."""
    counts = {p: len(GAME.legal_actions(fresh(p, 1), 0)) for p in (2, 3, 4)}
    assert counts == PERFT


PERFT = {2: 110, 3: 132, 4: 90}  # 11, 12, 10 distinct cards: n * (n - 1)
