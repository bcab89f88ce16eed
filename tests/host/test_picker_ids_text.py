"""Move picker, component ids and the text catalog."""

from __future__ import annotations

import json

import pytest

from session import ids
from session.picker import MENU_SIZE, step
from text.catalog import LANGUAGES, LOCALES_DIR, catalog, language, t, template_fields

PLACEMENTS = [f"place {c}{r} {d}" for c in "ABCDEFGHI" for r in range(1, 10) for d in ("Q", "R")]


def test_single_choices_are_taken_automatically():
    s = step(["place C3 D3", "place C3 C4"])
    assert s.prefix == "" and [c.value for c in s.choices] == ["place C3 D3", "place C3 C4"]
    assert all(c.complete for c in s.choices)
    only = step(["discard"])
    assert [(c.value, c.complete) for c in only.choices] == [("discard", True)]


def test_many_choices_are_grouped_so_every_code_is_three_clicks_away():
    for code in PLACEMENTS:
        prefix, clicks = "", 0
        while True:
            s = step(PLACEMENTS, prefix)
            assert 0 < len(s.choices) <= MENU_SIZE
            choice = next(c for c in s.choices
                          if code.startswith(c.value.rstrip("*")) or c.value == code)
            clicks += 1
            if choice.complete:
                assert choice.value == code
                break
            prefix = choice.value
        assert clicks <= 3


def test_verbs_come_first_when_several():
    s = step(["pick 3", "pick 12", "discard"])
    assert [(c.label, c.complete) for c in s.choices] == [("pick", False), ("discard", True)]
    assert [c.value for c in step(["pick 3", "pick 12", "discard"], "pick").choices] == [
        "pick 3", "pick 12"]


def test_a_code_that_is_a_prefix_of_another_stays_reachable():
    s = step(["end", "end now"])
    assert [(c.value, c.complete) for c in s.choices] == [("end", True), ("end", False)]


@pytest.mark.parametrize("custom_id", [
    ids.act(12, 3, "place C3 D3"), ids.pick(12, 3, "place C*"), ids.select(12, 3),
    ids.hand(12), ids.lobby(12, "join"),
])
def test_ids_round_trip_and_fit_discord(custom_id):
    parsed = ids.parse(custom_id)
    assert parsed is not None and parsed.session_id == 12
    assert len(ids.act(2**40, 10**6, "x" * 60)) <= 100


@pytest.mark.parametrize("bad", ["", "sk:", "sk:x:1:a:c", "sk:1:1:q:c", "other:1:h", "sk:1:x1:a:x"])
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
