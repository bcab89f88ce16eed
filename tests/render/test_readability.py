"""Every text and icon in every image: WCAG AA contrast and readable at phone width (issue 13
items 1 and 3, issue 25 item 1). Texts are recorded by ``render.common.draw_text`` and
``render.canvas.Canvas.text`` with the colours actually under them and the width of the PNG
they end in; icons by ``render.common.note_icon``. Once the image is shown 390 px wide every
text must be >= 11 px (``PHONE_MIN_PX``) and every icon >= 14 px (``PHONE_MIN_ICON_PX``), in
every game and seat count, sampled through whole seeded games; boards keep a steady width.
"""

from __future__ import annotations

import pytest

from render import board_png, hand_png
from render.common import (
    MIN_CONTRAST,
    PHONE_MIN_ICON_PX,
    PHONE_MIN_PX,
    PHONE_WIDTH,
    IconRecord,
    TextRecord,
    record_icons,
    record_text,
)
from tests.render.sample import bot_game_views

NAMES = ["Ada", "Bolesław", "Cyryl", "Євгенія", "Żaneta"]

#: game id -> (player counts, variants to also try, actions between sampled positions)
GAMES: dict[str, tuple[tuple[int, ...], list[list[str]], int]] = {
    "kingdomino": ((2, 3, 4), [["dynasty", "middle_kingdom", "harmony"], ["mighty_duel"]], 9),
    "bunny_kingdom": ((2, 3, 4), [], 17),
    "gheos": ((2, 3, 4), [], 9),
    "dwoch_nastepcow": ((2,), [], 5),
}


def _cases() -> list[tuple[str, int, list[str]]]:
    cases: list[tuple[str, int, list[str]]] = []
    for game_id, (counts, variant_sets, _) in GAMES.items():
        cases += [(game_id, n, []) for n in counts]
        for variants in variant_sets:
            n = 2 if "mighty_duel" in variants else counts[-1]
            cases.append((game_id, n, variants))
    return cases


def _records(game_id: str, players: int, variants: list[str], lang: str
             ) -> tuple[list[TextRecord], list[IconRecord], set[int]]:
    every = GAMES[game_id][2]
    names = NAMES[:players]
    board_widths: set[int] = set()
    with record_text() as texts, record_icons() as icons:
        for view, hands in bot_game_views(game_id, players, 4, every=every, variants=variants):
            png = board_png(game_id, view, names=names, lang=lang)
            board_widths.add(int.from_bytes(png[16:20], "big"))  # the IHDR width
            for private in hands[:2]:
                hand_png(game_id, private, names=names, lang=lang)
    return texts, icons, board_widths


@pytest.mark.parametrize(("game_id", "players", "variants"), _cases())
def test_every_text_and_icon_has_aa_contrast_and_phone_size(game_id, players, variants):
    for lang in ("pl", "uk"):
        records, icons, widths = _records(game_id, players, variants, lang)
        assert records, "the renderer draws no text through draw_text"
        assert all(r.image_width for r in records), "text outside any PNG"
        low = [r for r in records if r.contrast() < MIN_CONTRAST]
        assert not low, [(r.text, r.fill, r.backgrounds, round(r.contrast(), 2)) for r in low[:5]]
        keys = [r for r in records if r.key]
        assert keys, "no label a player needs to choose a move was recorded"
        small = [r for r in records if r.phone_px() < PHONE_MIN_PX]
        assert not small, [(r.text, r.size, r.image_width) for r in small[:5]]
        assert icons, "the renderer notes no icon"
        assert all(i.image_width for i in icons), "icon outside any PNG"
        tiny = [i for i in icons if i.phone_px() < PHONE_MIN_ICON_PX]
        assert not tiny, [(i.kind, i.px, i.image_width) for i in tiny[:5]]
        # a steady width: the chat does not rescale the board (and its text) as play goes on
        assert len(widths) == 1, f"board widths through the game: {sorted(widths)}"


def test_the_check_catches_a_small_label():
    """The phone rule as the test applies it: 12 px on a 1,000 px image is 4.7 px."""
    record = TextRecord("A1", (0, 0, 0), [(255, 255, 255)], 12, True, image_width=1000)
    assert record.phone_px() == pytest.approx(12 * PHONE_WIDTH / 1000)
    assert record.phone_px() < PHONE_MIN_PX


def test_the_check_catches_a_small_icon():
    """A 22 px crown on a 626 px board is 13.7 px on a phone: too small."""
    icon = IconRecord("crown", 22, image_width=626)
    assert icon.phone_px() < PHONE_MIN_ICON_PX
    assert IconRecord("crown", 23, image_width=626).phone_px() >= PHONE_MIN_ICON_PX
