"""The readable Dwóch następców notation: a new game's exact text, exact round trips at every
step of seeded games (random legal play and the computer player, every kind of set choice and
the no-roads variant), hand-built positions with their own tiles, and malformed texts refused
with the line named."""

from __future__ import annotations

import random

import pytest

from engines.dwoch_nastepcow import GAME
from engines.dwoch_nastepcow.notation import dump, load
from tests import notation as shared

from .helpers import BLUE, WHITE, blank, put, reserve, tile, troop

NEW_GAME = """\
dwoch_nastepcow players=2 sets=travel,lands,trade roads=yes seed=7 draws=1 phase=turn \
first=1 current=1 final_turns=-
turn number=1 took=0 extra=0 discounts=0
reserve shield=0 - TR1 LI7 TC6 TC9 TR3 TR7
seat 0 hand=- troops=retinue:M13,normal:-,normal:-
seat 1 hand=- troops=retinue:M13,normal:-,normal:-
landscape M13:TR8:down
stack TC3 LI2 LI9 TR5 TC1 LI6 LI8 LI1 TC8 LI5 TR9 LI4 TC7 TR6 TC4 TR4 TR2 TC2 LI3 TC5
removed -
pending -"""

OPTIONS = [
    {},
    {"variants": ["no_roads"]},
    {"variants": ["set_war", "set_patrol", "set_lands"]},
    {"variants": ["no_roads", "set_craft", "set_war", "set_travel"]},
    {"sets": ["trade", "war", "craft"]},
]


def round_trips(state: dict) -> None:
    shared.round_trips(GAME, state, "landscape", "tiles")  # the landscape in the order laid


def test_notation_of_a_new_game():
    state = GAME.setup(2, {}, 7)
    assert GAME.notation(state) == NEW_GAME
    assert GAME.load(NEW_GAME) == state


def test_notation_after_a_take():
    state = GAME.setup(2, {}, 7)
    state, _ = GAME.apply(state, 1, "take TR1")
    lines = GAME.notation(state).splitlines()
    assert lines[1] == "turn number=1 took=1 extra=0 discounts=0"
    assert lines[2] == "reserve shield=1 TC3 - LI7 TC6 TC9 TR3 TR7"
    assert lines[4] == "seat 1 hand=TR1 troops=retinue:M13,normal:-,normal:-"
    round_trips(state)


def random_move(legal: list[str], rng: random.Random) -> str:
    """A random verb first, then a random code of it (as the playout tests do)."""
    verb = rng.choice(sorted({c.split()[0] for c in legal}))
    return rng.choice([c for c in legal if c.split()[0] == verb])


def play_through(options: dict, seed: int, bot: bool) -> set[str]:
    """Round-trip every state of one seeded game; the phases it went through."""
    rng = random.Random(seed)
    state = GAME.setup(2, options, seed)
    phases = set()
    while True:
        round_trips(state)
        phases.add(state["phase"])
        if GAME.is_over(state):
            return phases
        seat = GAME.to_act(state)[0]
        code = (GAME.bot_action(state, seat, rng) if bot
                else random_move(GAME.legal_actions(state, seat), rng))
        state, _ = GAME.apply(state, seat, code)


@pytest.mark.parametrize("options", OPTIONS)
def test_every_state_of_random_games_round_trips(options):
    for seed in range(4):
        play_through(options, seed, bot=False)


@pytest.mark.parametrize("options", OPTIONS)
def test_every_state_of_computer_games_round_trips(options):
    for seed in range(2):
        play_through(options, seed, bot=True)


def test_sieges_and_discards_round_trip():
    war = {"variants": ["set_war", "set_patrol", "set_lands"]}
    assert "siege" in play_through(war, 81, bot=False)  # seeds found to reach a siege
    assert "siege" in play_through(war, 2, bot=True)
    assert "discard" in set().union(*(play_through(war, seed, bot=False) for seed in range(20)))


def siege_position() -> dict:
    """White's Siege Tower at L13 next to a blue Inn at M13, a second tower in hand; tiles of
    the test's own next to the sets' tiles."""
    s = blank()
    put(s, "L13", tile("T1", "siege_tower", "grey"), owner=WHITE)
    put(s, "M13", tile("INN", "inn", "grey", roads=["N", "S"], axis="row"), owner=BLUE)
    put(s, "M14", tile("S0", colour="green"), face="down")
    troop(s, WHITE, 0, "M14")
    troop(s, WHITE, 2, "L13", moved=True)
    troop(s, BLUE, 0, "M13")
    reserve(s, {2: tile("R1", "basket_shop", "yellow",
                        layout={"W": "green", "E": "yellow"}), 4: "TR1"}, shield=3)
    s["tiles"]["T2"] = tile("T2", "siege_tower", "grey", cost={"stone": 1})
    s["tiles"]["TP"] = tile("TP", "trading_post", "yellow", counts=["farm"])
    s["hands"][WHITE] = ["T2", "TP"]
    s["turn"]["took"] = 1
    return s


def test_a_position_with_its_own_tiles_round_trips():
    state = siege_position()
    text = dump(state)
    lines = text.splitlines()
    assert "tile T1 set=travel building=siege_tower colour=grey cost=stone:1 roads=-" in lines
    assert ("tile INN set=travel building=inn colour=grey cost=stone:1 roads=N,S axis=row"
            in lines)
    assert "tile R1 set=travel building=basket_shop colour=yellow cost=stone:1 roads=- " \
           "layout=W:green,E:yellow" in lines
    assert "reserve shield=3 - - R1 - TR1 - -" in lines
    assert "seat 0 hand=T2,TP troops=retinue:M14,normal:-,normal:L13:moved" in lines
    assert "landscape L13:T1:up0 M13:INN:up1 M14:S0:down" in lines
    assert not any(line.startswith("tiles ") for line in lines)
    round_trips(state)


def test_a_siege_and_a_destroyed_building_round_trip():
    state, _ = GAME.apply(siege_position(), WHITE, "build T2 N13")
    assert "pending targets=M13" in dump(state).splitlines()
    round_trips(state)
    state, _ = GAME.apply(state, WHITE, "destroy M13")
    assert " M13:INN:down:destroyed " in dump(state)
    round_trips(state)


def test_a_used_camp_and_a_changed_data_tile_round_trip():
    state = blank()
    put(state, "M13", "LI6", owner=BLUE)  # a Camp of the lands set, its data as in the file
    state["landscape"]["M13"]["used"] = True
    state["tiles"]["TR1"] = dict(state["tiles"]["TR1"], colour="green")  # a corrected tile
    text = dump(state)
    assert "landscape M13:LI6:up1:used" in text.splitlines()
    assert "tile TR1 set=travel building=inn colour=green" in text
    round_trips(state)


def test_tiles_not_of_the_sets_are_listed():
    state = blank()
    del state["tiles"]["TC9"]
    state["stack"] = [t for t in state["stack"] if t != "TC9"]
    listed = [line.split()[1:] for line in dump(state).splitlines() if line.startswith("tiles ")]
    assert sum(listed, []) == list(state["tiles"]) and "TC9" not in state["tiles"]
    round_trips(state)


@pytest.mark.parametrize(("broken", "line", "says"), [
    (lambda t: t.replace("dwoch_nastepcow players", "gheos players"), 1, "not a dwoch"),
    (lambda t: t.replace("roads=yes", "roads=maybe"), 1, "roads is yes or no"),
    (lambda t: t.replace(" first=1", ""), 1, "expected the fields"),
    (lambda t: t.replace("took=0", "took=none"), 2, "invalid literal"),
    (lambda t: t.replace("shield=0", "shield"), 3, "expected name=value"),
    (lambda t: t.replace("seat 1 hand", "seat 0 hand"), 5, "expected seat 1"),
    (lambda t: t.replace("retinue:M13,normal:-,normal:-\nseat 1",
                         "retinue:Z99,normal:-,normal:-\nseat 1"), 4, "no cell 'Z99'"),
    (lambda t: t.replace("M13:TR8:down", "M13:TR8:sideways"), 6, "cannot read the landscape"),
    (lambda t: t.replace("pending -", "pending M13"), 9, "expected name=value"),
    (lambda t: t.replace("removed -", "removed -\nscore 3"), 9, "unknown line 'score'"),
    (lambda t: t + "\ntile X1 set=war shape=round", 10, "unknown tile field 'shape'"),
])
def test_malformed_text_is_refused_naming_the_line(broken, line, says):
    with pytest.raises(ValueError, match=f"line {line} ") as error:
        load(broken(NEW_GAME))
    assert says in str(error.value)


@pytest.mark.parametrize(("broken", "says"), [
    (lambda t: t.replace("\nseat 1 hand=- troops=retinue:M13,normal:-,normal:-", ""),
     "2 players but 1 seat"),
    (lambda t: t.replace("stack TC3", "stack QQ1"), "tiles not in play: QQ1"),
    (lambda t: t + "\ntiles TR1 Q7", "unknown tiles: Q7"),
    (lambda t: t.replace("\npending -", ""), "no pending line"),
    (lambda t: "  \n", "empty"),
])
def test_incomplete_text_is_refused(broken, says):
    with pytest.raises(ValueError, match=says):
        load(broken(NEW_GAME))
