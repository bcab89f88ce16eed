"""Board and hand images: they render for every kind of position, stay small, highlight."""

import io
import random

from PIL import Image

from engines.gheos import GAME
from engines.gheos.preview import preview
from render.gheos import board_image, render_board, render_hand

NAMES = ["Ala", "Bartłomiej", "Олена", "Dan"]


def bot_game(players: int, seed: int) -> list[dict]:
    s = GAME.setup(players, {}, seed)
    rng = random.Random(seed)
    states = [s]
    while not GAME.is_over(s):
        seat = GAME.to_act(s)[0]
        s, _ = GAME.apply(s, seat, GAME.bot_action(s, seat, rng))
        states.append(s)
    return states


def test_board_images_through_a_whole_game_are_pngs_under_a_megabyte():
    states = bot_game(4, 3)
    for i, s in enumerate(states[:: max(1, len(states) // 12)] + [states[-1]]):
        png = render_board(GAME.view(s, None), names=NAMES, lang=("en", "pl", "uk")[i % 3])
        img = Image.open(io.BytesIO(png))
        assert img.format == "PNG" and len(png) < 1_000_000
        assert img.width >= 600 and img.height >= 500


def test_highlighted_cell_changes_the_image():
    s = GAME.setup(2, {}, 1)
    code = GAME.legal_actions(s, 0)[0]
    p = preview(s, 0, code)
    plain = board_image(p["view"], names=NAMES)
    marked = board_image(p["view"], names=NAMES, highlight=p["highlight"])
    assert plain.size == marked.size and plain.tobytes() != marked.tobytes()


def test_hand_image_shows_the_seats_tiles():
    s = GAME.setup(3, {}, 2)
    png = render_hand(GAME.view(s, 1), names=NAMES, lang="uk")
    img = Image.open(io.BytesIO(png))
    assert img.height > 300
    empty = dict(GAME.view(s, 1))
    empty["private"] = {"seat": 1, "hand": []}
    assert render_hand(empty, names=NAMES)


def test_renderer_uses_only_the_spectator_view():
    s = bot_game(2, 4)[30]
    view = GAME.view(s, None)
    assert "private" not in view
    render_board(view, names=NAMES[:2])
