"""Images: PNG, small, quick, drawn from the view only; highlights show."""

from __future__ import annotations

import random
import time

import pytest

from engines.dwoch_nastepcow import GAME
from render.dwoch_nastepcow import render_board, render_hand

NAMES = ["Ala", "Богдан"]


def played(seed: int, steps: int, options=None):
    state = GAME.setup(2, options or {}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(state):
            break
        (seat,) = GAME.to_act(state)
        state, _ = GAME.apply(state, seat, GAME.bot_action(state, seat, rng))
    return state


@pytest.mark.parametrize("lang", ["en", "pl", "uk"])
def test_board_is_a_small_png(lang):
    state = played(1, 60)
    png = render_board(GAME.view(state, None), names=NAMES, lang=lang)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < 1_000_000


def test_board_renders_quickly_once_warm():
    state = played(2, 200, {"variants": ["set_war", "set_patrol", "set_craft"]})
    view = GAME.view(state, None)
    render_board(view, names=NAMES)
    start = time.perf_counter()
    render_board(view, names=NAMES)
    assert time.perf_counter() - start < 0.5  # the bench measures the real figure (< 100 ms)


def test_reach_and_mover_change_the_picture():
    state = GAME.setup(2, {}, 3)
    a = render_board(GAME.view(state, None), names=NAMES)
    # the shield moves: the reach marks move with it
    state["shield"], state["reserve"][0], state["reserve"][3] = 3, state["reserve"][3], None
    b = render_board(GAME.view(state, None), names=NAMES)
    assert a != b
    # another mover: the other seat's reach and placements are marked
    state["current"] = 1 - state["current"]
    assert render_board(GAME.view(state, None), names=NAMES) != b


def test_hand_image_from_the_private_view():
    state = played(4, 30)
    (seat,) = GAME.to_act(state) or [0]
    png = render_hand(GAME.view(state, seat), names=NAMES, lang="pl")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < 1_000_000
    empty = GAME.setup(2, {}, 4)
    assert render_hand(GAME.view(empty, 0), names=NAMES)[:4] == b"\x89PNG"


def test_final_board_and_siege_and_discard_phases_render():
    state = played(5, 10_000, {"variants": ["set_war", "set_lands", "set_craft"]})
    assert GAME.is_over(state)
    assert render_board(GAME.view(state, None), names=NAMES)[:4] == b"\x89PNG"
    s = GAME.setup(2, {}, 5)
    s["phase"], s["pending"] = "siege", {"targets": ["M13"]}
    assert render_board(GAME.view(s, None), names=NAMES)[:4] == b"\x89PNG"


def test_a_trading_post_image_shows_the_producers_it_counts():
    """On the board (where no effect text is written) the tile itself shows its kinds."""
    state = GAME.setup(2, {}, 5)
    state["tiles"] = dict(state["tiles"])
    state["landscape"] = dict(state["landscape"])
    state["landscape"]["M12"] = {"tile": "TC7", "face": "up", "owner": 0, "used": False,
                                 "destroyed": False}
    shown = render_board(GAME.view(state, None), names=NAMES)
    state["tiles"]["TC7"] = {**state["tiles"]["TC7"], "counts": ["farm"]}
    assert render_board(GAME.view(state, None), names=NAMES) != shown
