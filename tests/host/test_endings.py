"""Endings that explain (issue 25, item 4): the ranking first, each tie and the rulebook's
tie-break that broke it with the deciding numbers, every point accounted for, nothing cut
mid-line, alt text that opens with the result, alt text on every image."""

from __future__ import annotations

import random

import pytest

import engines
from db import Database
from db.store import SeatRow, SessionRow
from session import present, replay, results, ties, wording
from session.service import Sessions
from session.values import Notice
from text.catalog import LANGUAGES, t


def row(**kw) -> SessionRow:
    base = dict(id=3, guild_id=9, channel_id=8, game_id="kingdomino", status="finished",
                creator_id=1, players=2, options={}, seed=0, state_json=None, version=5,
                lang="en", turn_message_id=77, result=None, created_at="", updated_at="",
                finished_at=None, seats=[SeatRow(0, 1, "Ala"), SeatRow(1, 2, "Bo")])
    base.update(kw)
    return SessionRow(**base)


def kingdomino_tie(largest: list[int], crowns: list[int], ranking: list[list[int]]) -> SessionRow:
    return row(result={"totals": [4, 4], "ranking": ranking, "breakdown": [[], []],
                       "tiebreaks": [["kingdomino.tiebreak.largest", largest],
                                     ["kingdomino.tiebreak.crowns", crowns]]})


def test_a_tie_broken_by_the_largest_property_names_it_and_the_numbers():
    # Bo's largest property (9 squares) has no crown: it decides all the same
    lines = results.final_lines(kingdomino_tie([6, 9], [2, 1], [[1], [0]]), "en")
    assert lines[1].startswith("1. Bo: 4") and lines[2].startswith("2. Ala: 4")
    assert lines[3] == ("⚖ Bo, Ala: tied on 4 points; the tie-break, largest property in "
                        "squares, crowned or not, decides: Bo 9 · Ala 6.")
    pl = results.final_lines(kingdomino_tie([6, 9], [2, 1], [[1], [0]]), "pl")
    assert "rozstrzyga największa posiadłość" in pl[3] and "Bo 9 · Ala 6" in pl[3]


def test_a_tie_broken_by_the_second_tiebreak_says_the_first_was_equal_too():
    lines = results.final_lines(kingdomino_tie([7, 7], [3, 5], [[1], [0]]), "en")
    assert "largest property in squares, crowned or not: equal too (7)" in lines[3]
    assert lines[3].endswith("crowns, decides: Bo 5 · Ala 3.")


def test_a_tie_no_tiebreak_breaks_is_a_shared_place_and_says_why():
    lines = results.final_lines(kingdomino_tie([7, 7], [3, 3], [[0, 1]]), "uk")
    assert "(спільне місце)" in lines[1] and "(спільне місце)" in lines[2]
    assert lines[3].endswith("місце спільне.") and "(7)" in lines[3] and "(3)" in lines[3]


def test_a_game_without_tiebreaks_shares_the_place():
    r = row(game_id="bunny_kingdom", result={"totals": [30, 30], "ranking": [[0, 1]],
                                             "breakdown": [[], []], "tiebreaks": []})
    assert ties.tie_lines(r, "pl") == ["⚖ Ala, Bo: remis, po 30 pkt; miejsce jest wspólne."]


def test_results_stored_before_tiebreaks_existed_still_read():
    r = row(result={"totals": [4, 4], "ranking": [[1], [0]], "breakdown": [[], []]})
    assert ties.tie_lines(r, "en") == []  # it cannot know how the tie was broken
    assert results.final_lines(r, "en")[1].startswith("1. Bo: 4")


def test_the_places_come_before_any_breakdown_and_the_alt_text_opens_with_them():
    lines = [["kingdomino.score.property", 3, {"terrain": "wheat", "squares": 3, "crowns": 1}]]
    r = row(result={"totals": [3, 9], "ranking": [[1], [0]], "breakdown": [lines, lines * 3],
                    "tiebreaks": []})
    final = results.final_lines(r, "en")
    assert [line[:2] for line in final[1:3]] == ["1.", "2."]
    assert all(not line.startswith("  · ") for line in final[:3])
    game = engines.get("kingdomino")
    state = game.setup(2, {}, 1)
    long_news = [Notice("kingdomino.event.line_drawn", {"dominoes": "x" * 200})] * 20
    alt = present.board_description(r, state, long_news, "en")
    assert alt.startswith("Final result: 1. Bo 9 · 2. Ala 3.") and len(alt) <= 1024


async def test_a_finished_board_message_opens_with_the_result_and_cuts_no_line():
    game = engines.get("kingdomino")
    state = game.setup(2, {}, 1)
    r = row(result={"totals": [3, 9], "ranking": [[1], [0]], "breakdown": [[], []],
                    "tiebreaks": []})
    news = [Notice("kingdomino.event.line_drawn", {"dominoes": f"{n:03d} " + "y" * 90})
            for n in range(40)]
    spec = await present.turn_message(r, state, news, "en")
    assert spec.content.startswith("🏆") and len(spec.content) <= 2000
    news_lines = [line for line in spec.content.splitlines() if "y" * 90 in line]
    assert news_lines and all(line.endswith("y" * 90) for line in news_lines)  # whole lines
    assert spec.content.endswith("…")


def test_a_long_breakdown_goes_out_as_one_file_of_whole_lines_naming_the_player():
    entry = ["kingdomino.score.property", 1,
             {"terrain": "wheat", "icon": "", "squares": 1, "crowns": 1}]
    r = row(result={"totals": [0, 200], "ranking": [[1], [0]], "breakdown": [[], [entry] * 200],
                    "tiebreaks": []})
    spec = results.breakdown_message(r, "en")
    assert spec is not None and spec.image is not None
    lines = spec.image.decode("utf-8").splitlines()
    assert lines[0] == "Bo: 200 points"  # Ala scored nothing: no section
    assert len(lines) == 201 and all(line.startswith("· ") for line in lines[1:])


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_bunny_kingdom_end_of_four_sends_every_breakdown_line_whole_in_one_file(
        tmp_path, lang):
    async with Database(tmp_path / "b.sqlite3") as db:
        sessions = Sessions(db, seed_source=lambda: 7, strict_bots=True)
        await sessions.new(guild_id=None, channel_id=1, game_id="bunny_kingdom", user_id=1,
                           name="Ala", players=4)
        for user, name in ((2, "Bo"), (3, "Cy"), (4, "Di")):
            out = await sessions.join(1, user, name)
        r = out.session
        game = engines.get("bunny_kingdom")
        rng = random.Random(3)
        while r.status == "active":
            state = await sessions.state(r)
            seat = game.to_act(state)[0]
            r = (await sessions.act(r.id, r.seats[seat].user_id,
                                    game.bot_action(state, seat, rng, "easy"), r.version)).session
    assert r.result is not None
    final = results.final_lines(r, lang)
    assert not any(line.startswith("  · ") for line in final)  # too long for the final message
    spec = results.breakdown_message(r, lang)
    assert spec is not None and spec.image is not None and spec.description is not None
    assert len(spec.content) <= 2000 and "\n" not in spec.content and spec.filename == "scores.txt"
    # the alt text opens with the result: every place, in order
    assert spec.description.startswith(t(lang, "ending.alt_final",
                                         places=results.places_inline(r, lang)))
    assert len(spec.description) <= 1024
    assert spec.description.startswith(t(lang, "ending.alt_final", places="1. ")[:-1])
    shown = spec.image.decode("utf-8")
    sections = shown.rstrip("\n").split("\n\n")
    ranked = [s for group in r.result["ranking"] for s in group if r.result["breakdown"][s]]
    assert len(sections) == len(ranked)
    every = 0
    for seat, section in zip(ranked, sections, strict=True):
        head, *lines = section.split("\n")
        assert head.startswith(r.seats[seat].name + ": ")  # name and total open each section
        assert str(r.result["totals"][seat]) in head
        # every breakdown line whole, in the engine's order, none cut
        assert lines == ["· " + wording.text(r.game_id, lang, r, key, params) + f" = {points}"
                         for key, points, params in r.result["breakdown"][seat]]
        every += len(lines)
    assert every >= 30


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_kingdomino_end_names_the_players(lang):
    notice = Notice("kingdomino.event.game_over", {"scores": [20, 16], "winners": [0],
                                                   "text": "20 / 16"})
    said = present.notices_text(row(), [notice], lang)[0]
    assert "Ala 20" in said and "Bo 16" in said and "20 / 16" not in said


def test_the_finished_kingdomino_board_places_nothing_more():
    game = engines.get("kingdomino")
    rng = random.Random(1)
    state = game.setup(2, {}, 3)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        state, _ = game.apply(state, seat, game.bot_action(state, seat, rng, "easy"))
    assert game.view(state, None)["current_line"] == []


async def test_the_help_example_and_the_replay_carry_alt_text(tmp_path):
    for lang in LANGUAGES:
        spec = await present.howto_message("gheos", lang)
        assert spec.image and spec.description and "Gheos" in spec.description
    async with Database(tmp_path / "r.sqlite3") as db:
        sessions = Sessions(db, seed_source=lambda: 5, strict_bots=True)
        out = await sessions.new(guild_id=None, channel_id=1, game_id="kingdomino", user_id=1,
                                 name="Ala", players=2)
        out = await sessions.join(1, 2, "Bo")
        r = out.session
        game = engines.get("kingdomino")
        rng = random.Random(2)
        while r.status == "active":
            state = await sessions.state(r)
            seat = game.to_act(state)[0]
            r = (await sessions.act(r.id, r.seats[seat].user_id,
                                    game.bot_action(state, seat, rng, "easy"), r.version)).session
        made = replay.build(r, await replay.moves(sessions, r.id), "pl", limit=3)
    assert made.description.startswith("Powtórka gry Kingdomino")
    assert "Wynik końcowy: 1." in made.description
    assert "tiebreaks" in r.result and r.result["tiebreaks"][0][0] == "kingdomino.tiebreak.largest"


async def test_a_breakdown_file_the_interaction_refuses_goes_by_the_channel_whole(sessions):
    from cogs.adapters import message_kwargs
    from cogs.pace import GlobalPace
    from cogs.replies import Replies
    from tests.host.fakes import FakeClient, FakeInteraction

    entry = ["kingdomino.score.property", 1,
             {"terrain": "wheat", "icon": "", "squares": 1, "crowns": 1}]
    r = row(result={"totals": [0, 200], "ranking": [[1], [0]], "breakdown": [[], [entry] * 200],
                    "tiebreaks": []})
    spec = results.breakdown_message(r, "en")
    assert spec is not None
    client = FakeClient(sessions)
    reply = FakeInteraction(client, client.user(1), 8)
    await reply.response.defer()
    channel = client.channel(8)
    channel.failures = [503]  # the follow-up fails (Discord closed its file): the channel's try
    made = []

    def kwargs():
        made.append(message_kwargs(spec))  # a fresh discord.File for each try
        return made[-1]

    await Replies(GlobalPace()).post(reply, channel, kwargs)
    assert len(made) == 2 and made[0]["file"] is not made[1]["file"]
    [posted] = channel.messages
    assert posted.sent.content == spec.content and posted.sent.file.filename == "scores.txt"
    assert posted.sent.image() == spec.image
