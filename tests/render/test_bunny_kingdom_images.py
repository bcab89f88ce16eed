"""Bunny Kingdom images (issue 13 item 4): fiefs outlined per player, lava always visible,
the 2-player reserve card marked, passing names a player."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engines.bunny_kingdom import GAME
from engines.bunny_kingdom.data import INDEX
from render.bunny_kingdom import render_board, render_hand
from render.bunny_kingdom.board import cell_box, fief_edges
from render.bunny_kingdom.lines import header_parts
from render.bunny_kingdom.style import LAVA, LAVA_CORE, TEXT_PX
from render.common import SEAT_COLOURS, record_text
from tests.bunny_kingdom.helpers import board_only, fresh

NAMES = ["Ada", "Bolek", "Cyryl", "Daryna"]


def _board(state) -> tuple[Image.Image, int]:
    """The decoded board and where its map starts (below the header)."""
    view = GAME.view(state, None)
    image = Image.open(io.BytesIO(render_board(view, names=NAMES[:state["players"]])))
    header_lines = len(header_parts(view, NAMES, "en"))
    assert header_lines  # the map starts below a header of one or more lines
    # the map's top: find the first row of the A1 cell's terrain under the "1" label
    top = next(y for y in range(image.height)
               if image.convert("RGB").getpixel((cell_box(0)[0] + 30, y))
               == (52, 120, 58)) - cell_box(0)[1] - 1
    return image.convert("RGB"), top


def test_fief_edges_follow_owners_and_lava():
    owner = [-1] * 100
    owner[INDEX["B1"]] = owner[INDEX["B2"]] = owner[INDEX["B3"]] = 0  # B1|B2 is lava
    owner[INDEX["C3"]] = 1
    lava = {frozenset((INDEX["B1"], INDEX["B2"]))}
    edges = set(fief_edges(owner, lava))
    assert (INDEX["B1"], "right") in edges and (INDEX["B2"], "left") in edges  # lava splits
    assert (INDEX["B2"], "right") not in edges and (INDEX["B3"], "left") not in edges
    assert (INDEX["B3"], "bottom") in edges and (INDEX["C3"], "top") in edges  # owners differ
    assert (INDEX["B1"], "left") in edges  # the map's edge


@pytest.mark.parametrize("round_no", [1, 2, 3, 4])
@pytest.mark.parametrize("owners", [(0, 0), (0, 1), (-1, -1)])
def test_lava_shows_between_any_two_cells_in_every_round(round_no, owners):
    state = board_only(3)
    state["round"] = round_no
    for a, b in GAME.view(state, None)["board"]["lava"]:
        state["owner"][INDEX[a]], state["owner"][INDEX[b]] = owners
    image, top = _board(state)
    for a, b in GAME.view(state, None)["board"]["lava"]:
        ia, ib = sorted((INDEX[a], INDEX[b]))
        x0, y0, x1, y1 = cell_box(ia, top)
        if ib - ia == 1:
            strip = [image.getpixel((x1, y)) for y in range(y0 + 4, y1 - 4)]
        else:
            strip = [image.getpixel((x, y1)) for x in range(x0 + 4, x1 - 4)]
        lava = sum(1 for p in strip if p in (LAVA, LAVA_CORE))
        assert lava > len(strip) * 0.8, (a, b, owners, round_no)


def test_a_fief_is_outlined_in_its_owners_colour_only_where_it_ends():
    state = board_only(3)
    for cell in ("E4", "E5"):
        state["owner"][INDEX[cell]] = 2
    state["owner"][INDEX["E6"]] = 1
    image, top = _board(state)
    e4, e5, e6 = (cell_box(INDEX[c], top) for c in ("E4", "E5", "E6"))
    mid_y = (e4[1] + e4[3]) // 2
    assert image.getpixel((e4[0] + 3, mid_y)) == SEAT_COLOURS[2]  # E4's outer left side
    assert image.getpixel((e4[2] - 3, mid_y)) != SEAT_COLOURS[2]  # E4|E5: one fief, no line
    assert image.getpixel((e5[2] - 3, mid_y)) == SEAT_COLOURS[2]  # E5|E6: owners differ
    assert image.getpixel((e6[0] + 3, mid_y)) == SEAT_COLOURS[1]


def _two_player_start():
    state = fresh(2, 5)
    view = GAME.view(state, 0)
    return state, view


def test_two_player_view_names_the_card_drawn_from_the_reserve():
    state, view = _two_player_start()
    private = view["private"]
    assert private["from_reserve"] == private["hand"][-1]
    # after a pick the card is no longer singled out
    seat_action = GAME.bot_action(state, 0, random.Random(1))
    after, _ = GAME.apply(state, 0, seat_action)
    assert GAME.view(after, 0)["private"]["from_reserve"] is None
    assert GAME.view(fresh(3, 5), 0)["private"]["from_reserve"] is None


def test_two_player_hand_marks_the_reserve_card():
    _, view = _two_player_start()
    with record_text() as records:
        marked = render_hand(view, names=NAMES[:2], lang="en")
    assert any("drawn from your reserve" in r.text for r in records)
    view["private"]["from_reserve"] = None
    assert render_hand(view, names=NAMES[:2], lang="en") != marked


@pytest.mark.parametrize(("players", "round_no", "to", "source"),
                         [(3, 1, "Bolek", "Cyryl"), (3, 2, "Cyryl", "Bolek"),
                          (2, 1, "Bolek", "Bolek")])
def test_passing_names_the_players(players, round_no, to, source):
    state = fresh(players, 3)
    state["round"] = round_no
    with record_text() as records:
        render_hand(GAME.view(state, 0), names=NAMES[:players], lang="en")
        render_board(GAME.view(state, None), names=NAMES[:players], lang="en")
    texts = " ".join(r.text for r in records)
    assert f"You pass to {to}, you receive from {source}" in texts
    order = "Ada → Bolek → Cyryl → Ada" if round_no % 2 else "Ada → Cyryl → Bolek → Ada"
    assert (order if players == 3 else "Ada ⇄ Bolek") in texts


def test_board_is_phone_sized():
    image, _ = _board(fresh(4, 1))
    assert TEXT_PX * 390 / image.width >= 11


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_board_keeps_one_size_while_the_game_is_played(players):
    """Until the final reveal the board keeps its size: the chat does not jump."""
    from tests.render.sample import bot_game_views

    sizes = {Image.open(io.BytesIO(render_board(view, names=NAMES[:players]))).size
             for view, _ in bot_game_views("bunny_kingdom", players, 2, every=6)
             if view["phase"] not in ("copy", "over")}
    assert len(sizes) == 1, sizes


def test_text_inside_icons_reaches_wcag_aa():
    from render.bunny_kingdom.style import ICON_TEXT
    from render.common import MIN_CONTRAST, contrast_ratio

    assert len(ICON_TEXT) == 7
    for text, background in ICON_TEXT:
        assert contrast_ratio(text, background) >= MIN_CONTRAST, (text, background)


def test_every_owned_cell_carries_its_owners_shape(monkeypatch):
    """Owners are never told by colour alone: each owned cell has the owner's seat marker."""
    import render.bunny_kingdom.board as bk

    state = board_only(3)
    for cell, seat in (("A1", 0), ("A2", 0), ("E5", 1), ("J10", 2)):
        state["owner"][INDEX[cell]] = seat
    drawn: list[int] = []
    real = bk.draw_seat_marker
    monkeypatch.setattr(bk, "draw_seat_marker",
                        lambda img, seat, *a, **k: (drawn.append(seat), real(img, seat, *a, **k)))
    bk.cell_tile.cache_clear()
    render_board(GAME.view(state, None), names=NAMES[:3])
    # one per owned cell, one in each player's block
    assert sorted(drawn) == sorted([0, 0, 1, 2] + [0, 1, 2])
