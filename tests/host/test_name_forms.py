"""Polish and Ukrainian as a native speaker writes them: names take the grammatical form a
sentence needs, no gendered word guesses a player's gender, Ukrainian keeps the formal "ви",
one abbreviation for points, a game has one name per language, no English in a pl/uk message."""

from __future__ import annotations

import random
import re
import string

import pytest

import engines
from db.store import SeatRow, SessionRow
from session import present, results, seatnames, wording
from text.catalog import (
    CASES,
    LANGUAGES,
    Name,
    catalog,
    error_text,
    localised,
    lookup,
    name,
    plural_blocks,
    t,
)

GAMES = ("kingdomino", "bunny_kingdom", "gheos", "dwoch_nastepcow")


def plain(template: str) -> str:
    """The template with each plural block replaced by all its branches."""
    out, last = [], 0
    for start, end, _, branches in plural_blocks(template):
        out += [template[last:start], *(b.replace("#", "") for b in branches.values())]
        last = end
    return "".join([*out, template[last:]])


def asked_forms(template: str) -> list[tuple[str, str]]:
    """(field, case) for every ``{field:case}`` of a template."""
    return [(field, spec) for _, field, spec, _ in string.Formatter().parse(plain(template))
            if field and spec]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_template_asking_a_form_has_it_for_every_name_it_can_take(lang):
    table = catalog(lang)
    walked = 0
    for key, template in table.items():
        if ":" in key:
            continue
        for field, case in asked_forms(template):
            assert case in CASES, (lang, key, field, case)
            family = f"{key.split('.')[0]}.{field}."
            members = [k for k in table if k.startswith(family) and ":" not in k]
            assert members, (lang, key, f"no names {family}*")
            for member in members:
                assert f"{member}:{case}" in table, (lang, key, f"{member}:{case} missing")
                shown = t(lang, key, **{f: "X" for f in _fields(template)} | {
                    field: localised(lang, (member, {}))})
                assert table[f"{member}:{case}"] in shown, (lang, key, shown)
                walked += 1
    if lang != "en":
        assert walked >= 3 * 24  # take, build and destroy, every Dwóch building


def _fields(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(plain(template)) if field}


def test_a_form_without_a_name_table_is_the_plain_name_and_a_name_is_a_str():
    assert f"{Name('Targ', {'acc': 'Targ'}):acc}" == "Targ"
    assert f"{Name('Gospoda', {'acc': 'Gospodę'}):acc}" == "Gospodę"
    assert f"{Name('Ala'):acc}" == "Ala" and f"{Name('Ala'):>4}" == " Ala"
    assert name("pl", "dwoch_nastepcow.building.inn") == "Gospoda"
    # a plain string given where a template asks a form answers with itself
    assert t("pl", "dwoch_nastepcow.action.take", building="Gospoda", tile="TR1") \
        == "bierze Gospoda (TR1)"


def _row(game_id: str, lang: str = "pl", seats: list[SeatRow] | None = None,
         **kw) -> SessionRow:
    base = dict(id=3, guild_id=9, channel_id=8, game_id=game_id, status="active",
                creator_id=1, players=2, options={}, seed=0, state_json=None, version=5,
                lang=lang, turn_message_id=77, result=None, created_at="", updated_at="",
                finished_at=None, seats=seats or [SeatRow(0, 1, "Ala"), SeatRow(1, 2, "Bo")])
    base.update(kw)
    return SessionRow(**base)


@pytest.mark.parametrize(("lang", "verb", "expected"), [
    ("pl", "take", r"^bierze (Gospodę|Targ|Miejsce pielgrzymek|Baronię rabusiów|Młyn|"
                   r"Kopalnię|Oborę|Piekarnię|Obozowisko|Kuźnię|Stróżówkę|Farmę|Tartak|"
                   r"Kamieniołom|Faktorię|Katedrę) \(\w+\)$"),
    ("uk", "take", r"^бере (Корчму|Ринок|Місце паломництва|Розбійницьке баронство|Млин|"
                   r"Копальню|Хлів|Пекарню|Табір|Кузню|Вартівню|Ферму|Лісопилку|Каменоломню|"
                   r"Факторію|Собор) \(\w+\)$"),
])
def test_a_move_names_the_building_in_the_accusative(lang, verb, expected):
    game = engines.get("dwoch_nastepcow")
    state = game.setup(2, {"variants": []}, 5)
    seat = game.to_act(state)[0]
    codes = [c for c in game.legal_actions(state, seat) if c.startswith(verb + " ")]
    assert codes
    for code in codes:
        assert re.match(expected, wording.describe(_row("dwoch_nastepcow"), state, code, lang))


#: words that guess a player's gender (or the "(a)" patch over it) in pl and uk
GENDERED = re.compile(r"\(a\)|\(-?ла\)|łeś\b|łaś\b|wziąłeś|\bzwycięzca\b|\bпереможець\b"
                      r"|\{player\} zostaje zastąpiony", re.I)
#: words of the informal Ukrainian "ти" (pronouns, possessives, 2nd person singular verbs)
INFORMAL_UK = re.compile(
    r"\b(ти|тобі|тебе|тобою|твій|твоя|твоє|твої|твого|твоєї|твоїх|твоїм|твоєму|твою|твоїми|"
    r"бачиш|маєш|можеш|хочеш|будеш|кладеш|натиснеш|отримуєш|передаєш|граєш|ходиш|"
    r"вибери|обери|візьми|заверши|залиш|натискай|натисни|поклади|рухайся|зроби|зачекай|"
    r"спробуй|додай|почни|напиши|клацни|виконай)\b", re.I)


def _player_facing(lang: str) -> dict[str, str]:
    """Every text but slash-command names (Discord's own register) and name forms."""
    return {k: v for k, v in catalog(lang).items() if ":" not in k}


@pytest.mark.parametrize("lang", ["pl", "uk"])
def test_no_text_guesses_a_players_gender(lang):
    found = {k: v for k, v in _player_facing(lang).items() if GENDERED.search(v)
             and not k.endswith("verb.win")}  # the winner of a war is a civilisation
    assert not found, found


def test_ukrainian_keeps_the_formal_register():
    found = {k: INFORMAL_UK.findall(v) for k, v in _player_facing("uk").items()
             if INFORMAL_UK.search(v)}
    assert not found, found


def test_ukrainian_abbreviates_points_one_way():
    values = "\n".join(_player_facing("uk").values())
    assert "очк." not in values and values.count("оч.") >= 5


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", GAMES)
def test_a_game_has_one_name_in_each_language(lang, game_id):
    own = t(lang, f"game.{game_id}")
    if lookup(lang, f"{game_id}.name") is not None:  # the name its board prints
        assert t(lang, f"{game_id}.name") == own
    others = {t(other, f"game.{game_id}") for other in LANGUAGES}
    # each other language's name, minus the words of this language's own name
    foreign = {n for n in others if n not in own and not any(n in o for o in (own,))}
    for key, value in _player_facing(lang).items():
        for word in foreign:
            bare = word.split(" (")[0]
            assert bare in own or bare not in value, (lang, key, bare)


def test_a_game_for_exactly_two_says_so():
    from engines.base import BadOptions, check_players
    meta = engines.get("dwoch_nastepcow").meta
    with pytest.raises(BadOptions) as error:
        check_players(meta, 5, [])
    assert error_text("pl", error.value.key, error.value.params) \
        == "Dwóch następców: gra dla 2 graczy, nie 5."
    assert "від 2 до 2" not in error_text("uk", error.value.key, error.value.params)
    assert "2 to 2" not in error_text("en", error.value.key, error.value.params)


async def test_a_computer_player_is_named_in_the_readers_language():
    """Added in a Polish lobby, shown to a Ukrainian reader in Ukrainian (its DM, the
    board's names, the alt text)."""
    seats = [SeatRow(0, 1, "Ala"), SeatRow(1, None, "Komputer 2 (łatwy)", level="easy")]
    game = engines.get("kingdomino")
    state = game.setup(2, {}, 4)
    r = _row("kingdomino", seats=seats)
    assert seatnames.seat_name(seats[1], "uk") == "Комп'ютер 2 (легкий)"
    assert seatnames.seat_name(seats[1], "en") == "Computer 2 (easy)"
    assert seatnames.seat_name(seats[0], "uk") == "Ala"
    hand = await present.hand_message(r, state, 0, "uk")
    turn = await present.turn_message(r, state, [], "uk")
    for text in (hand.description or "", turn.description or "", turn.content):
        assert "Komputer" not in text and "łatwy" not in text
    assert "Комп'ютер 2" in (turn.description or "")
    finished = _row("kingdomino", seats=seats, status="finished",
                    result={"ranking": [[1], [0]], "totals": [3, 9], "breakdown": [[], []]})
    assert any("Комп'ютер 2 (легкий)" in line for line in results.final_lines(finished, "uk"))


@pytest.mark.parametrize("lang", ["pl", "uk"])
def test_every_dwoch_move_of_a_whole_game_reads_without_a_nominative_after_a_verb(lang):
    game = engines.get("dwoch_nastepcow")
    state = game.setup(2, {"variants": []}, 7)
    rng = random.Random(2)
    table = catalog(lang)
    nominative = {table[k] for k in table if k.startswith("dwoch_nastepcow.building.")
                  and ":" not in k and table[f"{k}:acc"] != table[k]}  # acc differs
    assert len(nominative) > 10
    verbs = ("bierze ", "buduje ", "niszczy ") if lang == "pl" else ("бере ", "будує ", "руйнує ")
    seen = 0
    for _ in range(400):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        for code in game.legal_actions(state, seat):
            said = wording.describe(_row("dwoch_nastepcow"), state, code, lang)
            for verb in verbs:
                if said.startswith(verb):
                    seen += 1
                    assert not any(said.startswith(verb + n + " ") for n in nominative), said
        state, _ = game.apply(state, seat, game.bot_action(state, seat, rng, "easy"))
    assert seen > 50


def test_the_channel_history_names_computer_players_in_the_readers_language():
    from cogs.game import history_text

    seats = [SeatRow(0, 1, "Ala"), SeatRow(1, None, "Computer 2")]
    finished = _row("kingdomino", seats=seats, status="finished", finished_at="2026-01-02",
                    result={"ranking": [[1], [0]], "totals": [3, 9], "breakdown": [[], []]})
    shown = history_text([finished], "pl")
    assert "Komputer 2 9" in shown and "Computer" not in shown
