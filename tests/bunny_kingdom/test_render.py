"""Board and hand images: valid PNGs, small, drawn from the view only, in every language."""

from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image

from engines.bunny_kingdom import GAME
from engines.bunny_kingdom.data import INDEX
from render.bunny_kingdom import render_board, render_hand
from tests.bunny_kingdom.helpers import fresh

NAMES = ["Anna", "Bohdan", "Czesław", "Дарина"]


def states(players: int, seed: int):
    """A state from each phase of one game (bot moves)."""
    state = fresh(players, seed)
    rng = random.Random(seed)
    seen: dict[str, dict] = {}
    while not GAME.is_over(state):
        seen.setdefault(state["phase"], state)
        seat = rng.choice(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, GAME.bot_action(state, seat, rng))
    seen["over"] = state
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_board_and_hands_render_in_every_phase_and_language(players):
    for phase, state in states(players, players).items():
        for lang in ("en", "pl", "uk"):
            png = render_board(GAME.view(state, None), names=NAMES[:players], lang=lang)
            image = Image.open(io.BytesIO(png))
            assert image.format == "PNG" and image.width >= 600
            assert len(png) < 1_000_000, (phase, len(png))
        hand = render_hand(GAME.view(state, 0), names=NAMES[:players], lang="pl")
        assert Image.open(io.BytesIO(hand)).format == "PNG"


def test_a_rabbit_changes_the_image():
    state = fresh(3)
    before = render_board(GAME.view(state, None), names=NAMES[:3])
    state["owner"][INDEX["E5"]] = 1
    assert render_board(GAME.view(state, None), names=NAMES[:3]) != before


def test_hidden_cards_never_change_the_channel_image():
    state = fresh(3, 9)
    state, _ = GAME.apply(state, 0, GAME.bot_action(state, 0, random.Random(0)))
    other = json.loads(json.dumps(state))
    other["hands"][1][0], other["deck"][0] = other["deck"][0], other["hands"][1][0]
    other["picks"][0] = list(reversed(other["picks"][0]))
    assert render_board(GAME.view(state, None), names=NAMES[:3]) == \
        render_board(GAME.view(other, None), names=NAMES[:3])


def test_hand_image_shows_private_view_only_for_its_seat():
    state = fresh(4, 2)
    images = {render_hand(GAME.view(state, s), names=NAMES) for s in range(4)}
    assert len(images) == 4  # each seat its own hand
