"""Images: PNG, small, drawn from the view only; highlights show; readable on a phone."""

from __future__ import annotations

import copy
import io
import random

import pytest
from PIL import Image

from engines.dwoch_nastepcow import GAME
from render.common import MIN_CONTRAST, PHONE_MIN_PX, min_label_px, record_text
from render.dwoch_nastepcow import TROOP_COLOURS, board_canvas, render_board, render_hand
from tests.render.colour_vision import worst_pair
from tests.render.sample import bot_game_states
from text.catalog import t

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

# --- issue 13: phone width, contrast, troops, notes on the table, craft layouts ---------------
SETUPS = [[], ["set_war", "set_patrol", "set_craft"], ["set_lands", "set_war", "set_craft"],
          ["set_trade", "set_lands", "set_craft"]]


def whole_game(seed: int, variants: list[str]) -> list[dict]:
    return bot_game_states("dwoch_nastepcow", 2, seed, variants=variants)


@pytest.mark.parametrize("variants", SETUPS)
def test_every_label_is_readable_at_phone_width_with_aa_contrast(variants):
    states = whole_game(7, variants)
    for i, state in enumerate(states[::6] + [states[-1]]):
        lang = ("en", "pl", "uk")[i % 3]
        for draw, view in ((render_board, GAME.view(state, None)),
                           (render_hand, GAME.view(state, i % 2))):
            with record_text() as records:
                img = Image.open(io.BytesIO(draw(view, names=NAMES, lang=lang)))
            assert records
            for r in records:
                assert r.image_width == img.width
                assert r.contrast() >= MIN_CONTRAST, (r.text, r.fill, r.backgrounds)
                if r.key:
                    assert r.phone_px() >= PHONE_MIN_PX, (r.text, r.size, img.width)


def test_tile_ids_on_the_landscape_are_readable_labels():
    state = whole_game(3, [])[-1]
    view = GAME.view(state, None)
    canvas = board_canvas(view, names=NAMES)
    ids = {e["id"] for e in view["landscape"] if e["face"] == "up"}
    drawn = {m.text for m in canvas.marks if m.key and m.size >= min_label_px(canvas.width)}
    assert ids <= drawn


def test_troops_do_not_cover_tile_ids_or_names():
    """The issue: troop markers covered tile names. Every id and name on the landscape looks
    the same with the troops on the board and with them all taken off."""
    checked = 0
    for seed in range(3):
        for state in whole_game(seed, SETUPS[seed])[10::10]:
            view = GAME.view(state, None)
            bare = copy.deepcopy(view)
            for troops in bare["troops"]:
                for troop in troops:
                    troop["at"] = None
            with_troops = board_canvas(view, names=NAMES)
            without = board_canvas(bare, names=NAMES)
            occupied = {tr["at"] for troops in view["troops"] for tr in troops if tr["at"]}
            for mark in with_troops.marks:
                if mark.box is None or mark.box[1] > without.height:
                    continue
                a = with_troops.image.crop(mark.box).tobytes()
                b = without.image.crop(mark.box).tobytes()
                assert a == b, (mark.text, mark.box)
                checked += 1
            assert occupied
    assert checked > 100


def test_guild_targets_and_trading_post_counts_are_on_the_table():
    seen = set()
    for seed in range(6):
        for state in whole_game(seed, SETUPS[seed % len(SETUPS)])[::8]:
            view = GAME.view(state, None)
            on_table = [e for e in view["landscape"] if e["face"] == "up"] + [
                f for f in view["reserve"]["slots"] if f]
            special = [e for e in on_table if e["building"] in ("guild", "trading_post")]
            if not special:
                continue
            with record_text() as records:
                render_board(view, names=NAMES, lang="pl")
            words = " ".join(r.text for r in records)
            for e in special:
                if e["building"] == "guild":
                    target = t("pl", "dwoch_nastepcow.building." + e["boosts"])
                    text = t("pl", "dwoch_nastepcow.effect.guild", boosts=target)
                else:
                    counts = ", ".join(t("pl", "dwoch_nastepcow.building." + b)
                                       for b in e["counts"])
                    text = t("pl", "dwoch_nastepcow.effect.trading_post", counts=counts)
                assert text in words, (e["id"], text)
                seen.add(e["building"])
    assert seen == {"guild", "trading_post"}


def test_craft_layout_in_the_reserve_is_drawn_large():
    for state in whole_game(1, SETUPS[1]):
        view = GAME.view(state, None)
        crafts = [f for f in view["reserve"]["slots"] if f and f.get("layout")]
        if crafts:
            break
    plain = copy.deepcopy(view)
    for face in plain["reserve"]["slots"]:
        if face and face.get("layout"):
            face["layout"] = {}
    a = board_canvas(view, names=NAMES)
    b = board_canvas(plain, names=NAMES)
    diff = Image.frombytes("L", a.image.size, bytes(
        255 if p != q else 0 for p, q in zip(a.image.tobytes(), b.image.tobytes(), strict=True)))
    assert diff.getbbox() is not None
    # each layout cell is as big as the text: three cells span at least two text heights
    # (the small glyph on the tile picture spans less)
    span = max(end - start for start, end in _runs(diff) + _runs(diff.transpose(Image.Transpose.TRANSPOSE)))
    assert span >= 2 * min_label_px(a.width)


def _runs(mask: Image.Image) -> list[tuple[int, int]]:
    """Extents of the blocks of changed rows."""
    rows = [mask.crop((0, y, mask.width, y + 1)).getbbox() is not None
            for y in range(mask.height)]
    out, start = [], None
    for y, changed in enumerate([*rows, False]):
        if changed and start is None:
            start = y
        elif not changed and start is not None:
            out.append((start, y))
            start = None
    return out


def test_troop_colours_stay_apart_under_every_colour_vision():
    """White and blue are the game's colours; troops also differ by shape (circle, square)."""
    assert worst_pair(list(TROOP_COLOURS))[0] >= 20
