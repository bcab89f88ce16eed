"""The shared seat palette, seat shapes and text colours (issue 13 item 1)."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image

from render.common import (
    INK,
    MIN_CONTRAST,
    PAPER,
    SEAT_COLOURS,
    SEAT_SHAPES,
    WHITE,
    contrast_ratio,
    draw_seat_marker,
    draw_text,
    font,
    legible,
    record_text,
    seat_marker,
    text_on,
    to_png,
)
from tests.render.colour_vision import VISIONS, ciede2000, distance, simulate, worst_pair


@pytest.mark.parametrize(("lab1", "lab2", "expected"), [
    # Sharma, Wu & Dalal (2005), table 1, pairs 1, 7, 17 and 25
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
])
def test_ciede2000_matches_the_published_pairs(lab1, lab2, expected):
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)


def test_simulation_keeps_greys_and_merges_red_and_green_for_deuteranopes():
    for vision in VISIONS:
        r, g, b = simulate((128, 128, 128), vision)
        assert abs(r - g) < 2 and abs(g - b) < 2
    # the palette issue 13 reported: red and green nearly the same under deuteranopia
    assert distance((214, 39, 40), (44, 160, 44), "deuteranopia") < 12
    assert distance((214, 39, 40), (44, 160, 44), "normal") > 50


def test_every_seat_pair_stays_apart_under_every_colour_vision():
    worst, vision, i, j = worst_pair(SEAT_COLOURS)
    assert worst >= 20, f"seats {i + 1} and {j + 1} are only {worst:.1f} apart ({vision})"


def test_old_palette_would_fail_the_rule():
    old = [(214, 39, 40), (31, 119, 180), (44, 160, 44), (255, 187, 0), (148, 103, 189)]
    assert worst_pair(old)[0] < 20


def test_each_seat_has_its_own_shape():
    assert len(set(SEAT_SHAPES)) == len(SEAT_SHAPES) == len(SEAT_COLOURS)
    masks = [seat_marker(s, 40).getchannel("A").point(lambda a: 255 if a > 128 else 0)
             for s in range(len(SEAT_SHAPES))]
    for a, b in itertools.combinations(range(len(masks)), 2):
        differing = sum(1 for p, q in zip(masks[a].tobytes(), masks[b].tobytes(),
                                          strict=True) if p != q)
        assert differing > 40 * 40 * 0.05, f"shapes of seats {a + 1} and {b + 1} look alike"


def test_marker_is_outlined_so_it_shows_on_its_own_colour():
    for seat, colour in enumerate(SEAT_COLOURS):
        img = Image.new("RGB", (60, 60), colour)
        draw_seat_marker(img, seat, (30, 30), 40)
        assert any(contrast_ratio(px, colour) > 3 for _, px in img.getcolors(3600))


@pytest.mark.parametrize("background", [PAPER, WHITE, INK, *SEAT_COLOURS,
                                        (119, 119, 119), (90, 140, 200), (232, 70, 20)])
def test_text_colours_reach_wcag_aa(background):
    assert contrast_ratio(text_on(background), background) >= MIN_CONTRAST
    for colour in SEAT_COLOURS:
        assert contrast_ratio(legible(colour, background), background) >= MIN_CONTRAST


def test_text_on_covers_every_grey():
    for v in range(0, 256, 5):
        assert contrast_ratio(text_on((v, v, v)), (v, v, v)) >= MIN_CONTRAST


def test_legible_keeps_a_colour_that_already_reads():
    assert legible(INK, PAPER) == INK


def test_recorded_text_knows_its_background_and_final_width():
    img = Image.new("RGB", (780, 100), PAPER)
    img.paste((250, 215, 40), (0, 0, 390, 100))
    with record_text() as records:
        draw_text(img, (10, 10), "on yellow", font=font(20), fill=INK, key=True)
        draw_text(img, (400, 10), "on paper", font=font(12), fill=SEAT_COLOURS[2])
        to_png(img)
    on_yellow, on_paper = records
    assert on_yellow.backgrounds == [(250, 215, 40)]
    assert on_yellow.image_width == 780 and on_yellow.phone_px() == 10
    assert on_paper.contrast() < MIN_CONTRAST  # yellow on cream: the 1.59:1
    with record_text() as later:
        pass
    assert later == []


@pytest.mark.parametrize("anchor", ["la", "lm", "mm", "rm", "ms"])
def test_draw_text_puts_ink_where_imagedraw_does(anchor):
    """draw_text sets lines from cached word masks; the ink lands where Pillow puts it."""
    from PIL import ImageDraw

    def ink_box(img):
        return img.convert("L").point(lambda v: 255 if v < 200 else 0).getbbox()

    text = "Żółw 12  terytoriów, księstw ◀ Євгенія"
    expected = Image.new("RGB", (440, 40), PAPER)
    ImageDraw.Draw(expected).text((220, 20), text, font=font(15, True), fill=INK, anchor=anchor)
    drawn = Image.new("RGB", (440, 40), PAPER)
    draw_text(drawn, (220, 20), text, font=font(15, True), fill=INK, anchor=anchor)
    assert ink_box(drawn) == ink_box(expected)


def test_layer_cache_is_bypassed_while_recording():
    from render.common import layer_cache

    calls = []

    @layer_cache(maxsize=4)
    def layer(n):
        calls.append(n)
        img = Image.new("RGB", (40, 20), PAPER)
        draw_text(img, (0, 0), str(n), font=font(12), fill=INK)
        return img

    layer(1)
    layer(1)
    assert calls == [1]
    with record_text() as records:
        layer(1)
    assert calls == [1, 1] and [r.text for r in records] == ["1"]


def test_fixed_palette_keeps_declared_colours_exact():
    from render.common import fixed_palette

    declared = ((215, 25, 50), (100, 235, 225), (17, 34, 51))
    img = Image.new("RGB", (3, 1))
    for x, colour in enumerate(declared):
        img.putpixel((x, 0), colour)
    mapped = img.quantize(palette=fixed_palette(declared), dither=Image.Dither.NONE)
    assert [mapped.convert("RGB").getpixel((x, 0)) for x in range(3)] == list(declared)
    with pytest.raises(ValueError):
        fixed_palette(tuple((k, 0, 0) for k in range(41)))
