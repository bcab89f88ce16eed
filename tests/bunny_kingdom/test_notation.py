"""The readable notation: what a position looks like, and that every position loads back."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines.bunny_kingdom import GAME
from engines.bunny_kingdom.notation import WIDTH, NotationError, dump, load
from tests.bunny_kingdom.helpers import board_only, give_scrolls, own, play_to_end, put, tower

NEW_GAME = "\n".join([
    "bunny_kingdom players=2 variants=- seed=3 draws=1 round=1 phase=explore step=1 camps=-",
    "row A .        .        .        .:city_1 .        .        .        .        .        .",
    "row B .        .        .:city_1 .        .        .        .:city_1 .        .:city_1 .",
    "row C .:city_1 .        .        .        .        .        .        .        .        .",
    "row D .        .        .:city_1 .        .        .        .        .        .:city_1 .",
    "row E .        .        .        .        .        .:city_1 .        .        .        .:city_1",
    "row F .        .        .        .        .        .        .        .:city_1 .        .",
    "row G .        .:city_1 .        .        .:city_1 .        .        .        .:city_1 .",
    "row H .        .        .:city_1 .        .        .        .:city_1 .        .        .",
    "row I .:city_1 .        .        .        .        .        .        .        .:city_1 .",
    "row J .        .        .:city_1 .        .        .        .        .        .        .",
    "deck H10 B1 F8 master_carpenter city_2#5 city_1#6 J3 A8 G7 B5 city_1#9 camp_3 sky_tower#3 "
    "city_1#3 city_2#4 merchant woodland_king city_1#4 E4 B2 F9 F6 F7 city_1#8 bun_shee E10 "
    "royal_coat C3 city_3#3",
    "deck I4 city_2#9 D5 D1 master_farmer B8 J9 provisions#1 F1 G4 sky_tower#1 burgomaster B9 A5 "
    "left_glove C7 H8 H6 socialist little_prince I10 H2 fisher J2 I8 A4 A2 provisions#3 farm_wood "
    "I2",
    "deck panpan_the_barbarian royal_crown D7 G2 G5 B10 I1 C6 G9 E3 diplomat right_glove explorer "
    "C2 city_2#3 camp_1 D2 I7 B7 A1 liberal city_2#8 H4 E2 E7 B4 master_of_the_mountains E5 "
    "hun_ny_king D8 J5 A9",
    "deck farm_spices matriarch C4 I9 E8 city_3#2 C10 harecingetorix E9 city_1#1 F10 farmer A10 "
    "C9 J10 bureaucrat city_1#2 city_1#7 city_1#5 B6 G1 H7 treasure_guardian J1 G10 D10 H1 "
    "carrotistador J4 camp_5",
    "deck F5 camp_2 farm_pearl royal_chalice D6 G3 D4 camp_6 I5 trading_post#2 D9 E6 master_fisher "
    "G6 royal_ring A6 F4 C8 farm_gold J7 farm_iron",
    "seat 0 score=0 done=no pick=- copies=-",
    "hand 0 fisher_king G8 royal_carrot camp_4 trading_post#1 provisions#2 D3 J6 farm_diamond "
    "carrot_king A3",
    "reserve 0 C1 farm_fish carpenter farm_carrots farm_copper I6 A7 city_2#6 H3",
    "seat 1 score=0 done=no pick=- copies=-",
    "hand 1 opportunist F2 I3 E1 royal_scepter farm_mushroom treasure_hunter city_2#2 city_3#1 H5 "
    "sky_tower#2",
    "reserve 1 city_2#7 H9 J8 king_of_thieves F3 city_2#1 B3 C5 colonist",
])


def test_notation_of_a_new_game() -> None:
    state = GAME.setup(2, {}, 3)
    assert GAME.notation(state) == NEW_GAME
    assert GAME.load(NEW_GAME) == state


def test_notation_shows_picks_then_the_reveal() -> None:
    state = GAME.setup(2, {}, 3)
    state, _ = GAME.apply(state, 0, "pick fisher_king G8")
    lines = dump(state).splitlines()
    assert "seat 0 score=0 done=no pick=fisher_king,G8 copies=-" in lines
    assert "seat 1 score=0 done=no pick=- copies=-" in lines
    state, _ = GAME.apply(state, 1, "pick F2 opportunist")
    lines = dump(state).splitlines()
    assert lines[0].endswith("round=1 phase=explore step=2 camps=-")
    assert "row F .        1        ." in dump(state)
    for line in ("scrolls 0 fisher_king", "hidden 0 G8", "played 0 scroll",
                 "discard 1 F2", "hidden 1 opportunist", "played 1 F2",
                 "seat 0 score=0 done=no pick=- copies=-"):
        assert line in lines
    assert load(dump(state)) == state


def test_notation_shows_the_board_and_the_end() -> None:
    state = board_only(3)
    own(state, 0, "C3", "H7", "E5")
    own(state, 2, "A1")
    tower(state, "C3", "H7")
    put(state, "E5", "trading_post")
    state["posts"] = {"E5": "fish"}
    give_scrolls(state, 1, "liberal", "fisher")
    state["copies"][1] = {"liberal": "fisher"}
    state["harvests"] = [[[], [], [{"cells": ["A1"], "strength": 0, "resources": [],
                                     "wealth": 0, "points": 0}]]]
    state["final"] = [[], [
        {"card": "liberal", "kind": None, "points": 0, "params": {}},
        {"card": "fisher", "kind": "fisher", "points": 2, "params": {"count": 2, "each": 1}},
    ], []]
    lines = dump(state).splitlines()
    assert lines[1].startswith("row A 2   ")
    assert lines[3].split()[4] == "0:sky_tower"
    assert lines[5].split()[6] == "0:trading_post"
    for line in ("towers C3-H7", "posts E5=fish", "scrolls 1 liberal fisher",
                 "seat 1 score=0 done=no pick=- copies=liberal>fisher",
                 "harvest 1 0 -", "harvest 1 2 A1:0:-",
                 "final 0 -", "final 1 liberal>-=0 fisher=2(count=2,each=1)"):
        assert line in lines
    assert load(dump(state)) == state


def _play(players: int, seed: int, bot: bool) -> int:
    """Play a whole game, loading the notation back after every move; returns the moves."""
    states: list[dict[str, Any]] = [GAME.setup(players, {}, seed)]

    def check(before: dict[str, Any], after: dict[str, Any], *_: Any) -> None:
        states.append(after)

    play_to_end(players, seed, bot=bot, check=check)
    for state in states:
        text = dump(state)
        assert load(text) == state, text
        assert dump(load(text)) == text
        assert max(map(len, text.splitlines())) <= WIDTH
    return len(states)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bot", [True, False], ids=["bot", "random"])
def test_every_position_of_a_game_loads_back(players: int, bot: bool) -> None:
    for seed in (1, 2, 3):
        assert _play(players, 100 * players + seed, bot) > 40


def test_random_positions_load_back() -> None:
    """Random legal moves from a few starts, stopping at random points."""
    rng = random.Random(5)
    for _ in range(20):
        players = rng.choice([2, 3, 4])
        state = GAME.setup(players, {}, rng.randrange(10**6))
        for _ in range(rng.randrange(400)):
            if GAME.is_over(state):
                break
            seat = rng.choice(GAME.to_act(state))
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        assert GAME.load(GAME.notation(state)) == state


def _replace(old: str, new: str) -> str:
    assert old in NEW_GAME
    return NEW_GAME.replace(old, new, 1)


@pytest.mark.parametrize(("text", "where"), [
    ("", "empty"),
    (_replace("bunny_kingdom", "kingdomino"), "line 1"),
    (_replace(" step=1", ""), "line 1"),
    (_replace("players=2", "players=7"), "line 1"),
    (_replace("phase=explore", "phase=nap"), "line 1"),
    (_replace("row A .        .        .", "row A .        .        7"), "line 2"),
    (_replace("row B .        .        .:city_1", "row B .        .        .:castle"), "line 3"),
    (_replace("row C .:city_1 .", "row C .:city_1"), "line 4"),
    (_replace("deck H10 B1", "deck H10 Z1"), "line 12"),
    (_replace("seat 0 score=0", "seat 0 score=x"), "line 17"),
    (_replace("seat 1 score=0 done=no", "seat 1 score=0"), "line 20"),
    (_replace("hand 1 ", "hand 2 "), "line 21"),
    (_replace("reserve 1", "dream 1"), "line 22"),
    (NEW_GAME + "\nharvest 2 0 -", "line 23"),
    (NEW_GAME + "\nharvest 1 0 A1:x:-", "line 23"),
    (NEW_GAME + "\nfinal 0 fisher=lots", "line 23"),
    (NEW_GAME + "\ntowers C3", "line 23"),
    (NEW_GAME + "\nrow A . . . . . . . . . .", "line 23"),
    (_replace("row J .", "rowJ ."), "line 11"),
    (NEW_GAME.replace("\nseat 1 score=0 done=no pick=- copies=-", ""), "a seat line per player"),
])
def test_malformed_text_is_refused_naming_the_line(text: str, where: str) -> None:
    with pytest.raises(NotationError, match=where):
        load(text)
    assert issubclass(NotationError, ValueError)
