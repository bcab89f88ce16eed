"""The view carries what the host and the renderer need; every key has words in 3 languages."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engines.dwoch_nastepcow import GAME
from text.catalog import catalog, template_fields

ENGINE = Path(__file__).parents[2] / "engines" / "dwoch_nastepcow"


def fields(template: str) -> set[str]:
    return template_fields(template)


def test_view_shape_for_the_host_and_the_renderer():
    state = GAME.setup(2, {}, 2)
    view = GAME.view(state, None)
    for key in ("phase", "to_act", "current", "reserve", "landscape", "troops", "hand_sizes",
                "scores", "stack", "mover", "grid", "final_round", "colours"):
        assert key in view
    assert view["to_act"] == [state["current"]] and view["phase"] == "turn"
    reserve = view["reserve"]
    assert reserve["shield"] == 0 and reserve["crown"] == state["current"]
    assert reserve["reach"] == [3, 3] and len(reserve["in_reach"][state["current"]]) == 3
    mover = view["mover"]
    assert set(mover["resources"]) == {"wood", "wheat", "stone"}
    assert sum(mover["resources"].values()) == 4  # 3 tiles in reach + the start tile
    assert len(mover["placements"]) == 8 and mover["must_take"]
    assert view["grid"] == {"cols": 25, "rows": 25, "start": "M13"}
    own = GAME.view(state, state["current"])
    assert own["private"] == {"seat": state["current"], "hand": []}


def test_every_engine_key_has_words_in_every_language():
    source = "\n".join(p.read_text(encoding="utf-8") for p in ENGINE.glob("*.py"))
    keys = set(re.findall(r'"(dwoch_nastepcow\.[a-z_.]+[a-z_])"', source))
    keys |= {f"dwoch_nastepcow.rule.{k}" for k in re.findall(r'_illegal\(\s*"([a-z_]+)"', source)}
    for verb in ("take", "build", "terrain", "move", "deploy", "withdraw", "camp", "destroy",
                 "spare", "discard", "end"):
        keys.add(f"dwoch_nastepcow.action.{verb}")
    buildings = {t["building"] for t in GAME.setup(2, {"variants": [
        "set_war", "set_patrol", "set_craft"]}, 1)["tiles"].values()} | {
        t["building"] for t in GAME.setup(2, {}, 1)["tiles"].values()}
    for b in buildings:
        keys |= {f"dwoch_nastepcow.building.{b}", f"dwoch_nastepcow.score.{b}",
                 f"dwoch_nastepcow.effect.{b}"}
    keys |= {"dwoch_nastepcow.help", "dwoch_nastepcow.rules", "dwoch_nastepcow.score.road"}
    english = catalog("en")
    for lang in ("en", "pl", "uk"):
        table = catalog(lang)
        missing = sorted(k for k in keys if k not in table)
        assert not missing, (lang, missing)
        for key in keys:
            assert fields(table[key]) <= fields(english[key]) | {"player"}, (lang, key)


def test_polish_and_ukrainian_are_translations_not_copies():
    en, pl, uk = catalog("en"), catalog("pl"), catalog("uk")
    ours = [k for k in en if k.startswith("dwoch_nastepcow.") and len(en[k]) > 12
            and "{" not in en[k][:3]]
    assert sum(pl[k] != en[k] for k in ours) > 0.9 * len(ours)
    assert sum(uk[k] != en[k] for k in ours) > 0.9 * len(ours)


@pytest.mark.parametrize("lang", ["en", "pl", "uk"])
def test_help_says_the_solo_mode_is_left_out(lang):
    text = catalog(lang)["dwoch_nastepcow.help"].lower()
    assert {"en": "solo", "pl": "jednoosobowy", "uk": "одиночний"}[lang] in text
    assert len(text) < 2000


def test_every_action_is_described_with_fields_its_template_knows():
    state = GAME.setup(2, {}, 6)
    rng = random.Random(6)
    english = catalog("en")
    seen = set()
    for _ in range(400):
        if GAME.is_over(state):
            break
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        for code in legal:
            key, params = GAME.describe(state, code)
            assert key in english and fields(english[key]) <= set(params), (code, key)
            seen.add(code.split()[0])
        state, events = GAME.apply(state, seat, rng.choice(legal))
        for e in events:
            params = {k: v for k, v in e.items() if k != "key"} | {"player": "x"}
            assert fields(english[e["key"]]) <= set(params), e
    assert {"take", "build", "terrain", "move", "end"} <= seen


def test_picker_labels_of_tiles_follow_the_tile_data():
    """``verb.<tile id>`` labels the tile step of the move picker ("Inn (TR1)"); a corrected
    tile in data/tiles.json needs its label corrected too."""
    from engines.dwoch_nastepcow.data import TILES

    for lang in ("en", "pl", "uk"):
        table = catalog(lang)
        for tid, record in TILES.items():
            name = table[f"dwoch_nastepcow.building.{record['building']}"]
            assert table[f"dwoch_nastepcow.verb.{tid}"] == f"{name} ({tid})", (lang, tid)
