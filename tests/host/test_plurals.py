"""Counts in every language take CLDR's plural forms (text.catalog with Babel's rules)."""

from __future__ import annotations

import pytest
from babel import Locale

from text.catalog import LANGUAGES, catalog, expand_plurals, plural_blocks, plural_category, t


@pytest.mark.parametrize(("lang", "n", "expected"), [
    ("en", 1, "1 territory, 1 fief"),
    ("en", 3, "3 territories, 3 fiefs"),
    ("pl", 1, "1 terytorium, 1 księstwo"),
    ("pl", 3, "3 terytoria, 3 księstwa"),
    ("pl", 5, "5 terytoriów, 5 księstw"),
    ("pl", 12, "12 terytoriów, 12 księstw"),
    ("pl", 22, "22 terytoria, 22 księstwa"),
    ("uk", 1, "1 територія, 1 феод"),
    ("uk", 3, "3 території, 3 феоди"),
    ("uk", 5, "5 територій, 5 феодів"),
    ("uk", 11, "11 територій, 11 феодів"),
    ("uk", 21, "21 територія, 21 феод"),
])
def test_counts_take_the_languages_plural_form(lang, n, expected):
    assert t(lang, "bunny_kingdom.render.territories", n=n, fiefs=n) == expected


def test_categories_follow_cldr():
    assert [plural_category("pl", n) for n in (1, 2, 5, 12, 22, 1.5)] == \
        ["one", "few", "many", "many", "few", "other"]
    assert [plural_category("uk", n) for n in (1, 21, 3, 11, 14, 25)] == \
        ["one", "one", "few", "many", "many", "many"]
    assert [plural_category("en", n) for n in (0, 1, 2)] == ["other", "one", "other"]


def test_exact_values_and_nested_fields():
    template = "{n, plural, =0 {no tile for {player}} one {# tile} other {# tiles}}"
    assert expand_plurals("en", template, {"n": 0}) == "no tile for {player}"
    assert expand_plurals("en", template, {"n": 4}) == "4 tiles"


def test_a_plural_block_needs_a_number():
    with pytest.raises(KeyError):
        expand_plurals("en", "{n, plural, one {# x} other {# xs}}", {"n": "three"})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_plural_block_covers_the_languages_categories(lang):
    needed = set(Locale.parse(lang).plural_form.tags) | {"other"}
    blocks = 0
    for key, template in catalog(lang).items():
        for _, _, name, branches in plural_blocks(template):
            blocks += 1
            named = {b for b in branches if not b.startswith("=")}
            assert needed <= named, (lang, key, name, needed - named)
            assert named <= needed, (lang, key, name, named - needed)
    assert blocks > 20


async def test_errors_name_games_and_variants_in_the_readers_language(tmp_path):
    from db import Database
    from session.errors import SessionError
    from session.service import Sessions
    from text.catalog import error_text

    async with Database(tmp_path / "e.sqlite3") as db:
        sessions = Sessions(db, strict_bots=True)
        with pytest.raises(SessionError) as count:
            await sessions.new(guild_id=None, channel_id=1, game_id="dwoch_nastepcow", user_id=1,
                               name="A", players=5)
        with pytest.raises(SessionError) as variant:
            await sessions.new(guild_id=None, channel_id=1, game_id="kingdomino", user_id=1,
                               name="A", players=3, variants="mighty_duel")
        with pytest.raises(SessionError) as unknown:
            await sessions.new(guild_id=None, channel_id=1, game_id="kingdomino", user_id=1,
                               name="A", variants="giant")
    assert "dwoch_nastepcow" not in error_text("pl", count.value.key, count.value.params)
    assert "Dwóch następców" in error_text("pl", count.value.key, count.value.params)
    shown = error_text("en", variant.value.key, variant.value.params)
    assert "mighty_duel" not in shown and "Mighty Duel" in shown and "3 players" in shown
    shown = error_text("en", unknown.value.key, unknown.value.params)
    assert "middle_kingdom" not in shown and "Middle Kingdom" in shown
