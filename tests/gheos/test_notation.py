"""The readable Gheos notation: a new game's exact text, exact round trips at every step of
seeded games (random legal play and the computer player), positions with custom tiles, and
malformed texts refused with the line named."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines.gheos import GAME
from engines.gheos.notation import dump, load
from engines.gheos.position import part, position
from tests import notation as shared

from .helpers import full, lr, play

NEW_GAME = """\
gheos players=2 seed=7 draws=1 phase=tile turn=0 turn_no=1 epochs=0 next_region=1 stalled=- end=-
board M30:T1r0=0
civs -
supply red=5 green=5 yellow=5 blue=5 black=5 white=5
seat 0 hand=T47,T24 tokens=3 followers=- points=temple:0,token:0,epoch:0,final:0
seat 1 hand=T41,T5 tokens=3 followers=- points=temple:0,token:0,epoch:0,final:0
scored 0 -
scored 1 -
bag T28 T38 T39 T48 T22 T32 E2 E5 T46 T2 T6 E3 T10 T16 T31 T15 T14 T4 T51 T43 T33 T7 T21 T3 \
T37 T13 T44 T17 E4 T11 T34 T49 T8 T35 T30 T52 T42 T27 T23
bag E7 T20 T36 T19 E8 T50 T40 T25 T29 E1 T18 T26 E6 T12 T45 T9
removed -
epoch_tiles -
last -
pending -"""


def round_trips(state: dict) -> None:
    # the same order too: the engine walks the board and regions in placement order
    shared.round_trips(GAME, state, "board", "regions")


def test_notation_of_a_new_game():
    state = GAME.setup(2, {}, 7)
    assert GAME.notation(state) == NEW_GAME
    assert GAME.load(NEW_GAME) == state


def test_notation_after_a_placement():
    state = GAME.setup(2, {}, 7)
    code = GAME.legal_actions(state, 0)[0]
    state, _ = GAME.apply(state, 0, code)
    _, tid, cell, _ = code.split()
    lines = GAME.notation(state).splitlines()
    assert lines[1].startswith(f"board M30:T1r0=0 {cell}:{tid}r")
    assert f"last seat=0 verb=place tile={tid} cell={cell}" in lines
    round_trips(state)


def play_through(players: int, seed: int, bot: bool) -> set[str]:
    """Round-trip every state of one seeded game; the kinds of choices it met."""
    rng = random.Random(seed)
    state = GAME.setup(players, {}, seed)
    met = set()
    while True:
        round_trips(state)
        if state["pending"] and state["pending"]["choice"]:
            met.add(state["pending"]["choice"]["type"])
        if GAME.is_over(state):
            return met
        seat = GAME.to_act(state)[0]
        code = (GAME.bot_action(state, seat, rng) if bot
                else rng.choice(GAME.legal_actions(state, seat)))
        state, _ = GAME.apply(state, seat, code)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_state_of_random_games_round_trips(players):
    met = set()
    for seed in range(6):
        met |= play_through(players, seed, bot=False)
    assert met  # the games went through mid-move choices too


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_state_of_computer_games_round_trips(players):
    for seed in range(2):
        play_through(players, seed, bot=True)


def test_every_choice_kind_round_trips():
    met = set()
    for seed in range(10):
        met |= play_through(3, seed, bot=False)
    assert met == {"pay", "migrate", "war"}


def custom_position() -> dict:
    bag: list[Any] = ["E1", "T7", full("pyramid")]
    return position(3, {"M29": full("swords"), "M30": ("T5", 1), "M31": lr("wheat", "wheat")},
                    civs={"red": "M29"}, followers=[{"red": 2}, {}, {}],
                    hands=[["T20", [part([2, 0], "chalice"), part([1])]], [], []],
                    bag=bag, tokens=[3, 2, 0], epochs=1)


def test_custom_tiles_round_trip():
    state = custom_position()
    text = dump(state)
    assert "custom X1 landmass012+swords" in text.splitlines()
    assert "custom X2 landmass01+wheat+wheat shore2" in text.splitlines()
    assert "custom H1 landmass20+chalice shore1" in text.splitlines()
    assert "custom B1 landmass012+pyramid" in text.splitlines()
    assert "seat 0 hand=T20,H1 tokens=3 followers=red:2" in text
    assert load(text) == state
    round_trips(state)


def test_a_custom_position_plays_on_and_round_trips():
    state = custom_position()
    for _ in range(12):
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)[0]
        state, _ = play(state, seat, GAME.legal_actions(state, seat)[-1])
        round_trips(state)


def test_empty_custom_tiles_and_no_custom_tiles_differ():
    state = position(2, {"M30": "T1"})
    assert state["custom_tiles"] == {}
    assert dump(state).endswith("\ncustom -")
    round_trips(state)
    assert "custom" not in dump(GAME.setup(2, {}, 1))


def test_settling_lines_round_trip():
    """Every field of a placement being settled, and a stalled count, written and read."""
    state = custom_position()
    state["phase"], state["stalled"] = "resolve", 2
    state["civs"]["blue"] = None
    state["pending"] = {
        "verb": "replace", "cell": "M30", "tile": "T20", "pay": False,
        "old": {"red": ["M29/0", "M30/0"], "blue": []}, "migrate": {"blue": [0, 3]},
        "migrated": ["green", "red"],
        "choice": {"type": "war", "civs": ["red", "green"], "options": ["red"], "cell": "M29"},
    }
    text = dump(state)
    assert "stalled=2" in text.splitlines()[0]
    assert "old blue -" in text and "migrate blue 0 3" in text and "migrated green,red" in text
    assert "choice type=war civs=red,green options=red cell=M29" in text
    round_trips(state)


def test_long_lists_wrap_into_lines_of_the_same_word():
    state = GAME.setup(4, {}, 3)
    lines = dump(state).splitlines()
    bag = [line for line in lines if line.startswith("bag ")]
    assert len(bag) > 1
    assert sum(len(line.split()) - 1 for line in bag) == len(state["bag"])


@pytest.mark.parametrize(("broken", "line", "says"), [
    (lambda t: t.replace("gheos players=2", "kingdomino players=2"), 1, "not a gheos"),
    (lambda t: t.replace(" turn=0", ""), 1, "expected the fields"),
    (lambda t: t.replace("players=2", "players=two"), 1, "invalid literal"),
    (lambda t: t.replace("M30:T1r0=0", "M30:T1=0"), 2, "cannot read the board cell"),
    (lambda t: t.replace("M30:T1r0=0", "Z99:T1r0=0"), 2, "no cell"),
    (lambda t: t.replace("seat 1 hand", "seat 2 hand"), 6, "expected seat 1"),
    (lambda t: t.replace("tokens=3 followers=-", "tokens=3 followers=red"), 5, "name:value"),
    (lambda t: t.replace("last -", "last seat=0"), 13, "expected the fields"),
    (lambda t: t.replace("pending -", "pending -\nplayers 2"), 15, "unknown line 'players'"),
    (lambda t: t.replace("pending -", "choice -"), 14, "needs a 'pending' line"),
    (lambda t: t.replace("scored 1 -", "scored 1 temple/0=3"), 8, "not enough values"),
    (lambda t: t.replace("scored 1 -", "scored 3 -"), 8, "expected scored 1"),
])
def test_malformed_text_is_refused_naming_the_line(broken, line, says):
    text = broken(NEW_GAME)
    with pytest.raises(ValueError, match=f"line {line} ") as error:
        load(text)
    assert says in str(error.value)


@pytest.mark.parametrize(("broken", "says"), [
    (lambda t: t.replace("\nseat 1 hand=T41,T5 tokens=3 followers=- "
                         "points=temple:0,token:0,epoch:0,final:0", ""), "2 players but 1 seat"),
    (lambda t: t.replace("hand=T47,T24", "hand=T47,Q1"), "unknown tiles: Q1"),
    (lambda t: t.replace("\nremoved -", ""), "no removed line"),
    (lambda t: "", "empty"),
])
def test_incomplete_text_is_refused(broken, says):
    with pytest.raises(ValueError, match=says):
        load(broken(NEW_GAME))
