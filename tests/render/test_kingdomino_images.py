"""Kingdomino images (issue 13 item 4): variant bonuses are marked provisional until the
game is over; the board is phone-sized for every setup."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engines.kingdomino import GAME
from render.common import PHONE_MIN_PX, PHONE_WIDTH, record_text
from render.kingdomino import render_board
from tests.kingdomino.helpers import play_random

NAMES = ["Ada", "Bolek", "Cyryl", "Daryna"]


def _texts(view) -> list[str]:
    with record_text() as records:
        render_board(view, names=NAMES[:view["players"]], lang="en")
    return [r.text for r in records]


def test_bonuses_count_from_the_start_but_are_called_provisional():
    state = GAME.setup(3, {"variants": ["middle_kingdom", "harmony"]}, 1)
    view = GAME.view(state, None)
    assert [k["score"] for k in view["kingdoms"]] == [15, 15, 15]
    assert [k["bonus"] for k in view["kingdoms"]] == [15, 15, 15]
    texts = _texts(view)
    assert sum("incl. bonus 15 (provisional)" in text for text in texts) == 3


def test_without_variants_there_is_no_bonus_line():
    view = GAME.view(GAME.setup(2, {}, 1), None)
    assert all(k["bonus"] == 0 for k in view["kingdoms"])
    assert not any("bonus" in text for text in _texts(view))


def test_bonuses_are_final_once_the_game_is_over():
    final, _ = play_random(4, 3, variants=["middle_kingdom", "harmony"])
    view = GAME.view(final, None)
    assert view["phase"] == "over"
    texts = _texts(view)
    assert not any("provisional" in text for text in texts)
    for kingdom in view["kingdoms"]:
        if kingdom["bonus"]:
            assert f"incl. bonus {kingdom['bonus']}" in " ".join(texts)


@pytest.mark.parametrize(("players", "variants"), [(2, []), (3, []), (4, []),
                                                   (2, ["mighty_duel"])])
def test_coordinates_are_readable_at_phone_width(players, variants):
    view = GAME.view(GAME.setup(players, {"variants": variants}, 2), None)
    with record_text() as records:
        png = render_board(view, names=NAMES[:players])
    width = Image.open(io.BytesIO(png)).width
    coordinates = [r for r in records if r.key and r.text in ("A", "E", "9")]
    assert coordinates
    assert all(r.size * PHONE_WIDTH / width >= PHONE_MIN_PX for r in coordinates)


@pytest.mark.parametrize(("players", "variants"), [(2, []), (3, []), (4, ["harmony"])])
def test_the_board_keeps_one_size_for_the_whole_game(players, variants):
    """Boards follow each other in the channel: a steady size keeps the chat from jumping."""
    from tests.render.sample import bot_game_views

    sizes = {Image.open(io.BytesIO(render_board(view, names=NAMES[:players]))).size
             for view, _ in bot_game_views("kingdomino", players, 6, every=5,
                                           variants=variants)}
    assert len(sizes) == 1, sizes


def test_castles_and_kings_carry_their_seats_shape(monkeypatch):
    """Owners are never told by colour alone: every castle and king is a seat marker."""
    import render.kingdomino as kd
    from tests.render.sample import bot_game_views

    view = bot_game_views("kingdomino", 4, 3, every=7)[1][0]
    kings = [slot["king"] for line in ("current_line", "next_line") for slot in view[line]
             if slot["king"] is not None]
    assert kings
    drawn: list[int] = []
    real = kd.draw_seat_marker
    monkeypatch.setattr(kd, "draw_seat_marker",
                        lambda img, seat, *a, **k: (drawn.append(seat), real(img, seat, *a, **k)))
    kd.castle_square.cache_clear()
    render_board(view, names=NAMES)
    # a marker in each name bar and on each castle, one on each king
    assert sorted(drawn) == sorted([0, 1, 2, 3] * 2 + kings)
