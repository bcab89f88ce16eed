"""Whole games of every game, with every text a player sees built in English, Polish and
Ukrainian: no raw id (a game, a variant, a terrain, a card), no catalog key and no unfilled
template ever reaches a reader."""

from __future__ import annotations

import random
import re

import pytest

import engines
from db import Database
from engines.base import BadOptions
from session import present, results, specs
from session.picker import step
from session.service import Sessions, playable
from text.catalog import LANGUAGES, t

#: a snake_case id (middle_kingdom, camp_1), a catalog key (ui.to_move) or a template left over
RAW = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\b[a-z_]+(?:\.[a-z0-9_]+)+\b|[{}]")


def raw_in(text: str) -> list[str]:
    found = RAW.findall(text)
    found += [g for g in playable() if re.search(rf"(?<![/\w]){g}\b", text)]
    return found


def texts(row, state, notices, lang: str) -> list[str]:
    game = engines.get(row.game_id)
    out = present.notices_text(row, notices, lang)
    out.append(present.board_description(row, state, notices, lang))
    if row.status == "active":
        to_act = game.to_act(state)
        rows = present.turn_rows(row, state, to_act, lang)
        for seat in to_act:
            codes = game.legal_actions(state, seat)
            rows += present.picker_rows(row, state, codes, "", lang)
            # a step further: its title names what was chosen, its choices in words
            for choice in [c for c in step(codes).choices if not c.complete][:2]:
                message = present.picker_message(row, state, codes, choice.value, lang)
                out.append(message.content)
                rows += message.rows
        for items in rows:
            for item in items:
                out += [item.label] if isinstance(item, specs.ButtonSpec) else \
                    [item.placeholder, *(label for label, _ in item.options)]
    else:
        out += results.final_lines(row, lang)
        breakdown = results.breakdown_message(row, lang)
        if breakdown is not None:  # the message, its alt text and the attached file's text
            assert breakdown.image is not None and breakdown.description is not None
            out += [breakdown.content, breakdown.description, breakdown.image.decode("utf-8")]
    return out


def workable_variants(game, players: int) -> str:
    """As many variants as the game allows together (more texts to check)."""
    names = [v.name for v in game.meta.variants if not v.players or players in v.players]
    while names:
        try:
            game.setup(players, {"variants": names}, 0)
            break
        except BadOptions:
            names.pop()
    return ", ".join(names)


@pytest.mark.parametrize("game_id", playable())
async def test_no_raw_id_or_key_in_any_text_of_a_whole_game(game_id, tmp_path):
    game = engines.get(game_id)
    players = min(max(game.meta.min_players, 3), game.meta.max_players)
    variants = workable_variants(game, players)
    async with Database(tmp_path / "t.sqlite3") as db:
        sessions = Sessions(db, seed_source=lambda: 11, strict_bots=True)
        outcome = await sessions.new(guild_id=None, channel_id=1, game_id=game_id, user_id=100,
                                     name="Ada", players=players, variants=variants or None)
        notices = list(outcome.notices)
        for lang in LANGUAGES:
            lobby = present.lobby_message(outcome.session, notices, lang)
            assert not raw_in(lobby.content), (lang, lobby.content)
        for n in range(1, players):
            outcome = await sessions.join(1, 100 + n, f"Gracz {n}")
            notices += outcome.notices
        row = outcome.session
        rng = random.Random(3)
        seen: dict[str, set[str]] = {lang: set() for lang in LANGUAGES}
        while True:
            state = await sessions.state(row)
            for lang in LANGUAGES:
                for line in texts(row, state, notices, lang):
                    if line not in seen[lang]:
                        seen[lang].add(line)
                        assert not raw_in(line), (lang, line, raw_in(line))
            if row.status != "active":
                break
            seat = game.to_act(state)[0]
            outcome = await sessions.act(row.id, row.seats[seat].user_id,
                                         game.bot_action(state, seat, rng), row.version)
            row, notices = outcome.session, list(outcome.notices)
        assert row.status == "finished"
        for lang in LANGUAGES:
            assert len(seen[lang]) > 20
            rules = t(lang, f"{game_id}.rules")
            assert not re.search(r"[{}]", rules)


def test_every_button_text_is_a_move_text_of_its_language_with_its_fields():
    """``do.<key>``: the imperative a button shows for a move described by ``<key>`` (issue 25:
    "Take Inn (TR2)", not "takes Inn (TR2)"), in every language that has it, with no field the
    description lacks; the picker's own texts exist in every language."""
    from text.catalog import catalog, template_fields

    for lang in LANGUAGES:
        table = catalog(lang)
        buttons = [key for key in table if key.startswith("do.")]
        assert buttons, lang
        for key in buttons:
            described = key[len("do."):]
            assert described in table, (lang, key)  # (a verb's button text: of its verb)
            assert template_fields(table[key]) <= template_fields(table[described]), (lang, key)
        for key in ("picker.trail", "do.dwoch_nastepcow.action.end"):
            assert key in table, (lang, key)
    assert t("en", "do.dwoch_nastepcow.action.end") == "End turn"
    assert t("uk", "do.dwoch_nastepcow.action.end") == "Завершіть хід"
