"""The view: its shape, no hidden information, and the board image drawn from it."""

import io
import json
import random

from PIL import Image

from render.kingdomino import render_board

from .helpers import GAME, play_random, position

KEYS = {"game", "players", "grid", "size", "variants", "phase", "to_act", "round", "rounds",
        "last_round", "game_no", "games", "deck_left", "kingdoms", "current_line", "next_line",
        "scores", "dynasty_totals"}


def domino_numbers_in(view) -> set[int]:
    """Every domino number a view shows: line slots, last placement, discard piles."""
    found: set[int] = set()

    def walk(node, key=None):
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "n" and isinstance(v, int):
                    found.add(v)
                elif k == "discarded":
                    found.update(v)
                else:
                    walk(v, k)
        elif isinstance(node, list):
            for item in node:
                walk(item, key)

    walk(view)
    return found


def test_view_shape():
    state = GAME.setup(4, {"variants": ["harmony"]}, 3)
    view = GAME.view(state, None)
    assert set(view) >= KEYS
    assert view["game"] == "kingdomino" and view["to_act"] == GAME.to_act(state)
    assert view["games"] == 1 and view["game_no"] == 1 and view["deck_left"] == 44
    assert view["kingdoms"][0] == {"seat": 0, "castle": "E5", "cells": {}, "discarded": [],
                                   "window": ["A1", "I9"], "score": 5, "bonus": 5}
    assert view["next_line"][0].keys() == {"n", "a", "b", "king"}
    assert "private" not in view
    assert json.loads(json.dumps(view)) == view


def test_view_cells_and_lines():
    state = position(2, kingdoms=["W1 CC F0"], current=[(19, 0, True), (40, 1)],
                     next_line=[(48, 0), (3, None)], phase="place", turn=1)
    view = GAME.view(state, None)
    assert view["kingdoms"][0]["cells"] == {"D5": ["wheat", 1], "F5": ["forest", 0]}
    assert view["kingdoms"][0]["window"] == ["B1", "H9"]
    assert view["current_line"][0] == {"n": 19, "a": ["wheat", 1], "b": ["forest", 0],
                                       "king": 0, "done": True}
    assert view["next_line"][0] == {"n": 48, "a": ["wheat", 0], "b": ["mine", 3], "king": 0}
    assert view["acting"] == {"seat": 1, "step": "place", "n": 40, "index": 1}


def test_no_hidden_domino_ever_appears_in_a_spectator_view():
    for players, variants in ((2, []), (3, []), (4, ["dynasty"])):
        state = GAME.setup(players, {"variants": variants}, 12)
        rng = random.Random(1)
        while not GAME.is_over(state):
            hidden = set(state["deck"]) | set(state["removed"])
            for seat in (None, *range(players)):
                view = GAME.view(state, seat)
                assert not (domino_numbers_in(view) & hidden)
                text = json.dumps(view)
                for word in ('"deck"', '"removed"', '"king_order"', '"seed"', '"rng_draws"'):
                    assert word not in text
            seat = GAME.to_act(state)[0]
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))


def test_view_is_the_same_for_players_and_spectators():
    state, _ = play_random(3, 4)
    assert GAME.view(state, 0) == GAME.view(state, None) == GAME.view(state, 2)


def test_future_king_drawing_order_is_hidden():
    """Two setups that differ only in the later drawing order look the same."""
    state = GAME.setup(4, {}, 6)
    other = json.loads(json.dumps(state))
    other["king_order"][1:] = list(reversed(other["king_order"][1:]))
    assert GAME.view(state, None) == GAME.view(other, None)


def test_final_view_has_the_ranking():
    state, _ = play_random(4, 9)
    view = GAME.view(state, None)
    assert view["phase"] == "over" and view["to_act"] == [] and view["ranking"]
    assert view["scores"] == GAME.totals(state)


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data))


def test_board_image_for_every_player_count_and_language():
    names = ["Ada", "Bolek", "Cyryl", "Żaneta"]
    for players, variants, lang in ((2, [], "en"), (3, ["dynasty"], "pl"),
                                    (4, [], "uk"), (2, ["mighty_duel"], "en")):
        state = GAME.setup(players, {"variants": variants}, 2)
        rng = random.Random(2)
        for _ in range(14):
            seat = GAME.to_act(state)[0]
            state, _ = GAME.apply(state, seat, GAME.bot_action(state, seat, rng))
        data = render_board(GAME.view(state, None), names=names[:players], lang=lang)
        assert len(data) < 1_000_000
        image = _png(data)
        # phone-wide (issue 25): one kingdom a row, about 390 px wide
        assert 380 <= image.width <= 480 and image.height > 400
    final, _ = play_random(4, 1)
    _png(render_board(GAME.view(final, None), names=names, lang="pl"))


def test_highlight_changes_the_image():
    view = GAME.view(GAME.setup(2, {}, 1), None)
    plain = render_board(view, names=["A", "B"])
    marked = render_board(view, names=["A", "B"], highlight={0: ["F5", "G5"]})
    assert plain != marked
    assert render_board(view, names=["A", "B"]) == plain  # deterministic
