"""Move picker, component ids and the text catalog."""

from __future__ import annotations

import json

import pytest

from session import ids
from session.picker import MENU_SIZE, covers, step
from text.catalog import LANGUAGES, LOCALES_DIR, catalog, language, t, template_fields

PLACEMENTS = [f"place {c}{r} {d}" for c in "ABCDEFGHI" for r in range(1, 10) for d in ("Q", "R")]


def test_codes_that_fit_a_menu_are_offered_as_whole_moves():
    s = step(["place C3 D3", "place C3 C4"])
    assert s.prefix == "" and [c.value for c in s.choices] == ["place C3 D3", "place C3 C4"]
    assert all(c.complete for c in s.choices)
    only = step(["discard"])
    assert [(c.value, c.complete) for c in only.choices] == [("discard", True)]
    mixed = step(["pick 3", "pick 12", "discard", "end", "end now"])
    assert [(c.value, c.complete) for c in mixed.choices] == [
        ("pick 3", True), ("pick 12", True), ("discard", True), ("end", True),
        ("end now", True)]


def _path(codes: list[str], code: str, menus: int = 1) -> list[str]:
    """The prefixes chosen on the way to ``code``, each step within ``menus`` menus."""
    prefix, chosen = "", []
    while True:
        s = step(codes, prefix, menus)
        assert 0 < len(s.choices) <= MENU_SIZE * max(1, len(s.menus)) and len(s.menus) <= menus
        assert all(count <= MENU_SIZE for _, count in s.menus)
        assert sum(count for _, count in s.menus) in (0, len(s.choices))
        choice = next(c for c in s.choices if (c.complete and c.value == code)
                      or (not c.complete and covers(c.value, code, codes)))
        chosen.append(choice.value)
        if choice.complete:
            return chosen
        prefix = choice.value


def test_many_choices_are_grouped_by_first_tokens_so_every_code_is_two_clicks_away():
    codes = [f"place {c}{r} {d}" for c in "ABCDE" for r in range(1, 5) for d in ("Q", "R")]
    assert len(codes) > MENU_SIZE
    for code in codes:
        path = _path(codes, code)
        assert len(path) == 2 and path[-1] == code
        assert path[0] == " ".join(code.split()[:2])  # "place C3": the first cell


def test_when_no_grouping_fits_the_codes_are_cut_into_chunks_two_clicks_away():
    """Gheos-like: 2 verbs x 2 tiles x 19 cells x 3 turns: no grouping by first tokens fits
    a menu with groups that fit one; chunks of whole cells do, and say what they hold."""
    codes = [f"{verb} T{tile} {col}{row} r{turn}" for verb in ("place", "replace")
             for tile in (5, 17) for col in "KLMN" for row in range(27, 32) for turn in range(3)]
    for code in codes:
        assert len(_path(codes, code)) == 2
    first = step(codes)
    assert all(c.value.startswith("#") and " … " in c.label for c in first.choices)
    inside = step(codes, first.choices[1].value)
    assert inside.trail == (first.choices[1].label,)
    cells = {tuple(c.value.split()[:3]) for c in inside.choices}
    assert all(sum(1 for c in codes if tuple(c.split()[:3]) == cell) ==
               sum(1 for c in inside.choices if tuple(c.value.split()[:3]) == cell)
               for cell in cells), "a cell's turns are never split between chunks"


def test_up_to_five_menus_side_by_side_offer_whole_moves_in_one_click():
    codes = [f"place {c}{r} {d}" for c in "ABCDE" for r in range(1, 5) for d in ("Q", "R")]
    s = step(codes)
    assert [label for label, _ in s.menus] == ["A1 Q … C4 R", "D1 Q … E4 R"]
    for code in codes:
        assert _path(codes, code, menus=5) == [code]
    assert step(PLACEMENTS, menus=5).menus == ()  # 162 codes: more than five menus hold


def test_a_big_grid_is_two_clicks_away_in_chunks_of_whole_cells():
    for code in PLACEMENTS:
        assert len(_path(PLACEMENTS, code)) == 2


def test_more_codes_than_two_menus_hold_stay_reachable_in_nested_chunks():
    codes = [f"go {a}{b}" for a in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123" for b in range(30)]
    assert len(codes) > MENU_SIZE ** 2
    for code in codes[::37] + codes[-3:]:
        assert _path(codes, code)[-1] == code


def test_a_step_shows_the_trail_of_what_was_chosen():
    codes = [f"pick {a} {b}" for a in "ABCDEFGH" for b in "ABCDEFGH" if a != b]
    assert step(codes).trail == ()
    assert step(codes, "pick C").trail == ("pick", "C")


@pytest.mark.parametrize("forged", ["#99", "pick Z", "#x", "pick C #0"])
def test_a_prefix_that_opens_no_code_offers_nothing(forged):
    codes = [f"pick {a} {b}" for a in "ABCDEFGH" for b in "ABCDEFGH" if a != b]
    assert step(codes, forged).choices == ()


def test_older_prefixes_still_work():
    codes = [f"place {c}{r} D" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" for r in range(1, 4)]
    assert [c.value for c in step(codes, "place C*").choices] == [
        "place C1 D", "place C2 D", "place C3 D"]


@pytest.mark.parametrize("custom_id", [
    ids.act(12, 3, "place C3 D3"), ids.pick(12, 3, "place C*"), ids.pick(12, 3, "place #4"),
    ids.select(12, 3), ids.select(12, 3, 4), ids.hand(12), ids.lobby(12, "join"),
])
def test_ids_round_trip_and_fit_discord(custom_id):
    parsed = ids.parse(custom_id)
    assert parsed is not None and parsed.session_id == 12
    assert len(ids.act(2**40, 10**6, "x" * 60)) <= 100


@pytest.mark.parametrize("bad", ["", "sk:", "sk:x:1:a:c", "sk:1:1:q:c", "other:1:h", "sk:1:x1:a:x",
                                 "sk:1:1:s:5", "sk:1:1:s:x"])
def test_malformed_ids_are_rejected(bad):
    assert ids.parse(bad) is None


def _fields(template: str) -> set[str]:
    return template_fields(template)


def test_every_language_has_every_english_key_with_the_same_fields():
    english = catalog("en")
    for lang in LANGUAGES:
        table = catalog(lang)
        missing = [k for k in english if k not in table and not k.startswith("cmd.")]
        assert not missing, f"{lang} lacks {missing[:10]}"
        for key, template in table.items():
            if key in english:
                assert _fields(template) <= _fields(english[key]) | {"player"}, (lang, key)


def test_catalog_files_are_valid_json_objects():
    for path in LOCALES_DIR.glob("*/*.json"):
        assert isinstance(json.loads(path.read_text(encoding="utf-8")), dict), path


def test_language_of_a_discord_locale():
    assert language("pl") == "pl" and language("uk") == "uk" and language("en-GB") == "en"
    assert language("de") == "en" and language(None) == "en"
    assert t("pl", "ui.join") == "Dołącz" and t("uk", "ui.join") == "Приєднатися"
    assert t("uk", "no.such.key") == "no.such.key"  # a gap shows itself


def test_every_game_has_a_rules_summary_that_fits_one_message():
    from session.service import playable

    for lang in LANGUAGES:
        for game_id in playable():
            summary = catalog(lang).get(f"{game_id}.rules")
            assert summary and len(summary) <= 2000, (lang, game_id)
