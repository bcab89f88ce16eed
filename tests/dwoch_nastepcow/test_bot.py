"""The Dwóch następców computer player: it beats random play in a seeded short tournament,
uses the mechanisms the issue found unused (sieges, open terrain), keeps a Camp worth 2
points, and fails loudly when it breaks."""

from __future__ import annotations

import random

import pytest

from engines.dwoch_nastepcow import GAME, promise
from engines.dwoch_nastepcow import bot as dwoch_bot

from .helpers import BLUE, WHITE, add, blank, put, reserve, tile, troop

SET_CHOICES = [[], ["war", "patrol", "craft"], ["travel", "war", "craft"],
               ["lands", "trade", "patrol"]]


def play(seed: int, policies, options=None) -> tuple[list[list[int]], dict]:
    state = GAME.setup(2, options or {}, seed)
    rng = random.Random(seed)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, policies[seat](state, seat, rng))
    return GAME.ranking(state), state


def random_player(state, seat, rng):
    return rng.choice(GAME.legal_actions(state, seat))


def computer(level):
    return lambda state, seat, rng: GAME.bot_action(state, seat, rng, level)


@pytest.mark.parametrize("sets", SET_CHOICES)
def test_normal_bot_beats_the_random_player_in_every_kind_of_set(sets):
    wins = 0
    for seed in range(2):
        bot_seat = seed % 2  # seats rotated
        policies = [random_player, random_player]
        policies[bot_seat] = computer("normal")
        ranking, _ = play(seed, policies, {"sets": sets} if sets else {})
        wins += ranking[0] == [bot_seat]
    assert wins == 2


def test_easy_bot_beats_random_play():
    ranking, _ = play(21, [computer("easy"), random_player])
    assert ranking[0] == [WHITE]


def test_bot_destroys_a_building_between_its_siege_towers():
    s = blank()
    put(s, "M13", tile("T1", "siege_tower", "grey"), owner=WHITE)
    put(s, "N13", tile("R", "robber_barony", "green"), owner=BLUE)
    put(s, "N12", tile("G", "cathedral", "grey"), owner=WHITE)
    troop(s, WHITE, 0, "N12")
    s["hands"][WHITE] = ["T2"]
    s["tiles"]["T2"] = tile("T2", "siege_tower", "grey", cost={"stone": 1})
    s["turn"]["took"] = 1
    code = GAME.bot_action(s, WHITE, random.Random(0))
    assert code == "build T2 O13", "the second tower goes where it besieges the barony"
    s, _ = GAME.apply(s, WHITE, code)
    assert s["phase"] == "siege"
    assert GAME.bot_action(s, WHITE, random.Random(0)) == "destroy N13"


def test_bot_lays_open_terrain_when_the_discount_lets_it_build():
    s = blank()
    put(s, "M13", tile("S", "cathedral", "grey"), owner=None, face="down")
    troop(s, WHITE, 0, "M13")
    s["tiles"]["C"] = tile("C", "cathedral", "grey", cost={"stone": 1, "wood": 1})
    s["tiles"]["F"] = tile("F", "farm", "yellow", cost={"wheat": 3})
    s["hands"][WHITE] = ["C", "F"]
    s["turn"]["took"] = 1
    code = GAME.bot_action(s, WHITE, random.Random(0))
    assert code.startswith("terrain F "), code
    s, _ = GAME.apply(s, WHITE, code)
    assert GAME.bot_action(s, WHITE, random.Random(0)).startswith("build C ")


def test_unknown_level_is_refused():
    state = GAME.setup(2, {}, 1)
    with pytest.raises(ValueError, match="unknown bot level"):
        GAME.bot_action(state, GAME.to_act(state)[0], random.Random(0), "grandmaster")


def test_a_crashing_bot_fails_loudly(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("bot bug")

    monkeypatch.setattr(dwoch_bot, "value", broken)
    state = GAME.setup(2, {}, 1)
    seat = GAME.to_act(state)[0]
    with pytest.raises(RuntimeError, match="bot bug"):
        GAME.bot_action(state, seat, random.Random(0))


def _shield_position() -> dict:
    """White reaches two tiles: a Farm (no points) and a Camp (2 points). The take moves
    the shield to the taken slot and Blue, with every troop out, reaches the one slot after
    it: the Camp after taking the Farm, a Cathedral (5 points, affordable) after the Camp."""
    s = blank()
    put(s, "M13", tile("S", "cathedral", "grey"), face="down")
    put(s, "L13", tile("S2", "cathedral", "grey"), face="down")
    troop(s, WHITE, 0, "M13")
    troop(s, WHITE, 1, "L13")
    for index, cell in enumerate(("M16", "M17", "M18")):
        put(s, cell, tile(f"B{index}", "cathedral", "grey"), face="down")
        troop(s, BLUE, index, cell)
    reserve(s, {1: tile("F", "farm", "yellow"), 2: tile("C", "camp", "green"),
                3: tile("K", "cathedral", "grey")})
    return s


def test_normal_takes_the_tile_that_leaves_the_rival_the_least():
    s = _shield_position()
    assert GAME.bot_action(s, WHITE, random.Random(0)) == "take F", (
        "taking the Camp would hand Blue the Cathedral")


def test_without_the_rivals_reply_the_camp_would_be_taken(monkeypatch):
    # the position above tests the look at the rival's reply, not a tie or another rule
    monkeypatch.setattr(dwoch_bot, "DENY", 0.0)
    assert GAME.bot_action(_shield_position(), WHITE, random.Random(0)) == "take C"


def _next_take_position() -> dict:
    """White reaches two identical Farms (slots 1 and 2) and owns two Farms, so a Trading
    Post counting Farms is worth 6 to it. Blue reaches one slot and has nowhere to build, so
    whichever tile it takes in reply gains it nothing: the takes differ only in what White
    reaches after Blue's reply. Taking slot 1 leaves Blue slot 2; once Blue has taken it,
    White reaches the Trading Post (slot 3). Taking slot 2 leaves Blue the Trading Post."""
    s = blank()
    put(s, "M13", tile("S", "cathedral", "grey"), face="down")
    troop(s, WHITE, 0, "M13")
    troop(s, WHITE, 1, "L13")  # one troop left in the royal reserve: White reaches two
    put(s, "L13", tile("F1", "farm", "yellow"), owner=WHITE)
    put(s, "N13", tile("F2", "farm", "yellow"), owner=WHITE)
    # Blue's three troops in a corner with every space round them taken
    for cell in ("A1", "A2", "B1", "B2", "A3", "B3", "C1", "C2", "C3"):
        put(s, cell, tile(f"X{cell}", "cathedral", "grey"), face="down")
    for index, cell in enumerate(("A1", "A2", "B1")):
        troop(s, BLUE, index, cell)
    farm = {"cost": {"wood": 1}}
    reserve(s, {1: tile("A", "farm", "yellow", **farm), 2: tile("B", "farm", "yellow", **farm),
                3: tile("T", "trading_post", "yellow", cost={"stone": 1}, counts=["farm"]),
                4: tile("D", "farm", "yellow", **farm), 5: tile("E", "farm", "yellow", **farm),
                6: tile("G", "farm", "yellow", **farm)})
    return s


def test_normal_takes_the_tile_after_which_it_reaches_more_once_the_rival_has_taken():
    takes = {GAME.bot_action(_next_take_position(), WHITE, random.Random(seed))
             for seed in range(12)}
    assert takes == {"take A"}, "after taking B, Blue's reply would take the Trading Post"


def test_without_the_look_at_its_next_reach_the_two_farms_are_a_toss_up(monkeypatch):
    # the position above tests the look one take further, not a tie-break or another rule
    monkeypatch.setattr(dwoch_bot, "NEXT", 0.0)
    takes = {GAME.bot_action(_next_take_position(), WHITE, random.Random(seed))
             for seed in range(12)}
    assert takes == {"take A", "take B"}


def test_the_rivals_reply_draws_its_refill_from_the_unseen_tiles_only():
    s = _next_take_position()
    s["stack"] = ["P", "Q", "R"]
    s["hands"][BLUE] = ["H"]
    for tid in ("P", "Q", "R", "H"):
        add(s, tile(tid, "cathedral", "grey"))
    to_come = sorted(s["stack"] + s["hands"][BLUE])
    drawn = set()
    for seed in range(40):
        after = dwoch_bot.rival_takes(s, WHITE, "A", random.Random(seed))
        refill = after["reserve"][0]  # the slot the shield left
        drawn.add(refill)
        assert after["hands"][BLUE][-1] == "A" and after["shield"] == 1
        assert sorted(after["stack"] + after["hands"][BLUE][:-1] + [refill]) == to_come
    assert drawn == {"P", "Q", "R", "H"}, "the stack's order is hidden: any unseen tile"
    assert s["stack"] == ["P", "Q", "R"], "the state itself is not changed"


def _camp_position(reachable: dict) -> dict:
    """White has taken its tile this turn, owns an unused Camp, cannot move a troop and
    reaches ``reachable`` (slot 1), a grey tile it cannot afford this turn."""
    s = blank()
    put(s, "M13", tile("S", "cathedral", "grey"), face="down")
    put(s, "L13", tile("C", "camp", "green"), owner=WHITE)
    troop(s, WHITE, 0, "M13", moved=True)
    troop(s, WHITE, 1, None, moved=True)
    troop(s, WHITE, 2, None, moved=True)
    reserve(s, {1: reachable})
    s["turn"]["took"] = 1
    return s


def test_normal_turns_a_camp_for_a_tile_it_builds_next_turn():
    # a Cathedral (5 points) one wood short: worth more than the Camp's 2 points, though
    # it cannot be built this turn (before, only a build this turn counted)
    cathedral = tile("K", "cathedral", "grey", cost={"stone": 1, "wood": 1})
    s = _camp_position(cathedral)
    assert GAME.bot_action(s, WHITE, random.Random(0)) == "camp L13"


def test_normal_keeps_a_camp_when_the_extra_tile_is_worth_less():
    # a Siege Tower with no rival building in sight scores nothing: the Camp's 2 points stay
    tower = tile("K", "siege_tower", "grey", cost={"stone": 1, "wood": 1})
    assert GAME.bot_action(_camp_position(tower), WHITE, random.Random(0)) == "end"


def _mill_position(edge: str | None) -> dict:
    """White's Mill at M13 with a yellow field at N13; ``edge`` (a colour) fills the six
    free cells round that yellow area with open terrain, None leaves them free."""
    s = blank()
    put(s, "M13", tile("M", "mill", "yellow"), owner=WHITE)
    put(s, "N13", tile("Y", "farm", "yellow"), face="down")
    troop(s, WHITE, 0, "M13")
    if edge is not None:
        for cell in ("L13", "M12", "M14", "N12", "N14", "O13"):
            put(s, cell, tile(f"E{cell}", "cathedral", edge), face="down")
    return s


def test_a_mill_whose_yellow_area_can_still_grow_is_worth_more():
    free, blocked = _mill_position(None), _mill_position("grey")
    assert GAME.totals(free) == GAME.totals(blocked), "grey tiles do not count"
    assert dwoch_bot.value(free, WHITE) > dwoch_bot.value(blocked, WHITE) + 1


def test_without_the_area_promise_the_two_mills_are_worth_the_same(monkeypatch):
    # the position above tests the colour area's promise, not another term of the value
    monkeypatch.setattr(promise, "REGION_FILL", 0.0)
    assert dwoch_bot.value(_mill_position(None), WHITE) == dwoch_bot.value(
        _mill_position("grey"), WHITE)
