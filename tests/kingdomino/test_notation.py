"""The readable notation loads back exactly; pictures build kingdoms."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.kingdomino.notation import dump, load, rows_from_picture

from .helpers import GAME, act, position


def test_notation_of_a_new_game():
    state = GAME.setup(2, {"variants": ["harmony"]}, 7)
    text = GAME.notation(state)
    lines = text.splitlines()
    assert lines[0].startswith("kingdomino players=2 variants=harmony seed=7 draws=1 game=1")
    assert lines[-1].startswith("kingdom 1 discarded=- ")
    assert "........CC........" in lines[-1]
    assert GAME.load(text) == state


def test_notation_shows_the_lines_and_kings():
    state = position(2, current=[(3, 1, True), (12, 0)], next_line=[(7, None), (18, 1)],
                     deck=[5, 6], discarded=[[40], []])
    text = dump(state)
    assert "current 3:1* 12:0" in text and "next 7:- 18:1" in text
    assert "deck 5 6" in text and "kingdom 0 discarded=40 " in text
    assert load(text) == state


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), steps=st.integers(0, 200),
       dynasty=st.booleans())
def test_any_position_round_trips(players, seed, steps, dynasty):
    state = GAME.setup(players, {"variants": ["dynasty"] if dynasty else []}, seed)
    for _ in range(steps):
        if GAME.is_over(state):
            break
        seat = GAME.to_act(state)[0]
        codes = GAME.legal_actions(state, seat)
        state, _ = GAME.apply(state, seat, codes[seed % len(codes)])
    assert load(dump(state)) == state
    assert dump(load(dump(state))) == dump(state)


def test_picture_is_aligned_on_the_castle():
    rows = rows_from_picture("""
        .  W1
        CC F
    """)
    assert rows[3][8:12] == "..W1" and rows[4][8:12] == "CCF0"
    assert rows_from_picture("CC", 13)[6] == ".." * 6 + "CC" + ".." * 6


@pytest.mark.parametrize("picture", ["W1 W0", "CC CC", "CC X1", "CC W12",
                                     "CC W0 W0 W0 W0 W0"])
def test_bad_pictures(picture):
    with pytest.raises(ValueError):
        rows_from_picture(picture)


def test_a_played_sequence_gives_a_known_notation():
    state = position(4, current=[(5, 2), (17, 0), (30, 3), (44, 1)],
                     next_line=[(9, None), (20, None), (33, None), (46, None)], deck=[1, 2, 3, 4])
    state, _ = act(state, "place F5 G5", "pick 46", "place D5 C5")
    text = dump(state)
    assert "next 9:- 20:- 33:- 46:2" in text
    assert "last 0 17 D5 C5" in text
    assert "current 5:2* 17:0* 30:3 44:1" in text
    assert "phase=pick turn=1" in text.splitlines()[0]
