"""Board and hand images: they render for every kind of position, stay small, highlight."""

import io
import random
from collections import Counter

import pytest
from PIL import Image

from engines.gheos import GAME
from engines.gheos.preview import preview
from render.common import MIN_CONTRAST, PHONE_MIN_PX, SEAT_COLOURS, record_text
from render.gheos import CIV_RGB, board_canvas, board_image, render_board, render_hand
from tests.render.colour_vision import worst_pair
from tests.render.sample import bot_game_states

NAMES = ["Ala", "Bartłomiej", "Олена", "Dan"]


def bot_game(players: int, seed: int) -> list[dict]:
    return bot_game_states("gheos", players, seed)


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


# --- issue 13: phone width, contrast, continents, colours -----------------------------------
def sampled_views(players: int, seed: int, every: int = 4) -> list[dict]:
    states = bot_game(players, seed)
    return [GAME.view(s, None) for s in states[::every] + [states[-1]]]


def records_of(draw, *args, **kwargs):
    with record_text() as records:
        png = draw(*args, **kwargs)
    return records, Image.open(io.BytesIO(png))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_label_is_readable_at_phone_width_with_aa_contrast(players):
    for i, view in enumerate(sampled_views(players, players + 10)):
        lang = ("en", "pl", "uk")[i % 3]
        records, img = records_of(render_board, view, names=NAMES[:players], lang=lang)
        assert records, "the board's text must go through the recording canvas"
        for r in records:
            assert r.image_width == img.width
            assert r.phone_px() >= PHONE_MIN_PX, (r.text, r.size, img.width)
            assert r.contrast() >= MIN_CONTRAST, (r.text, r.fill, r.backgrounds)


def test_hand_labels_are_readable_at_phone_width_with_aa_contrast():
    s = bot_game(4, 5)[9]
    for seat in range(4):
        records, img = records_of(render_hand, GAME.view(s, seat), names=NAMES, lang="uk")
        assert records
        for r in records:
            assert r.phone_px() >= PHONE_MIN_PX and r.contrast() >= MIN_CONTRAST, r


def random_game(players: int, seed: int) -> list[dict]:
    """Random legal play: its positions do not change when the computer player improves."""
    s = GAME.setup(players, {}, seed)
    rng = random.Random(seed)
    states = [s]
    while not GAME.is_over(s):
        seat = GAME.to_act(s)[0]
        s, _ = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
        states.append(s)
    return states


def test_every_continent_is_listed_under_the_map():
    """The side list used to stop at eight continents or at the image's bottom: every
    continent's label is now drawn twice, on its tile and in the list."""
    most = 0
    for seed in range(3):
        states = random_game(4, seed)
        for view in [GAME.view(s, None) for s in states[::3] + [states[-1]]]:
            continents = [r["label"] for r in view["regions"] if r["kind"] == "continent"]
            most = max(most, len(continents))
            records, _ = records_of(render_board, view, names=NAMES)
            drawn = Counter(r.text for r in records)
            for label in continents:
                assert drawn[label] >= 2, (label, len(continents))
    assert most >= 9  # the positions tested include more continents than the old list held


def test_no_seat_colour_is_drawn_so_civilizations_are_not_read_as_players():
    view = sampled_views(4, 2)[-1]
    img = board_image(view, names=NAMES).convert("RGB")
    used = {colour for _, colour in img.getcolors(1 << 20)}
    assert not used & set(SEAT_COLOURS)
    assert used & set(CIV_RGB.values())  # the civilizations are there, in their colours


def test_seats_are_told_apart_by_shape():
    """Names, scores and counts equal: the seat rows still differ, by the seat shape drawn left
    of each name (in ink: no seat colour)."""
    view = sampled_views(4, 1)[0]
    for seat in view["seats"]:
        seat["score"], seat["followers"], seat["tokens"], seat["hand"] = 0, {}, 3, 2
    view["turn"] = 9  # nobody's row highlighted
    canvas = board_canvas(view, names=["X"] * 4)
    names = [m.box for m in canvas.marks if m.text == "X" and m.box]
    assert len(names) == 4
    img = canvas.image.convert("RGB")
    marks = [img.crop((4, top - 4, left - 2, bottom + 4)).tobytes()
             for left, top, _right, bottom in names]
    assert len(set(marks)) == 4


def test_civilization_colours_stay_apart_under_every_colour_vision():
    worst, vision, i, j = worst_pair(list(CIV_RGB.values()))
    assert worst >= 20, (list(CIV_RGB)[i], list(CIV_RGB)[j], vision, worst)
