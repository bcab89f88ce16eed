"""Standings kept when a game ends: counted once per server and everywhere, abandoning is a
loss, ratings from openskill, read by /game stats and the leaderboard without replaying games."""

from __future__ import annotations

import asyncio

import pytest

from db import Database
from db.standings import EndedGame, Rating
from session import present
from session.ending import Ending
from session.service import Sessions
from session.standings import RANKED_AFTER, Standings, judge, rate
from text.catalog import catalog, t

GUILD, OTHER_GUILD = 111, 222
BACKENDS = "both"  # SQLite and PostgreSQL (tests/host/conftest.py)


async def play_toy(sessions: Sessions, channel: int, users: list[int | None], picks: list[int],
                   *, guild: int | None = GUILD, rounds: int = 3):
    """A toy game where seat i picks ``picks[i]`` every round (None: a computer seat)."""
    out = await sessions.new(guild_id=guild, channel_id=channel, game_id="toy",
                             user_id=users[0], name=f"U{users[0]}", players=len(users))
    for user in users[1:]:
        out = await sessions.join(channel, user, f"U{user}" if user else "CPU")
    row = out.session
    for _ in range(rounds):
        for seat, user in enumerate(users):
            if user is not None:
                row = (await sessions.act(row.id, user, f"pick {picks[seat]}")).session
    return row


async def test_a_finished_game_counts_once_per_server_and_everywhere(sessions):
    row = await play_toy(sessions, 1, [1, 2], [2, 1])
    assert row.status == "finished"
    stats = await sessions.standings.stats(1, GUILD)
    assert stats["server:toy"]["games"] == stats["global:toy"]["games"] == 1
    assert stats["global:toy"]["wins"] == 1 and stats["global:toy"]["average"] == 6
    loser = await sessions.standings.stats(2, GUILD)
    assert loser["global:toy"]["wins"] == 0 and loser["global:toy"]["average"] == 0
    assert stats["global:toy"]["rating"] > loser["global:toy"]["rating"]
    # counting it again (a second process, a restart's catch-up) changes nothing
    assert not await sessions.standings.record(row.id, "later")
    assert await sessions.standings.catch_up("later") == 0
    assert await sessions.standings.stats(1, GUILD) == stats
    # another server sees only the everywhere rows
    assert set(await sessions.standings.stats(1, OTHER_GUILD)) == {"global:toy"}


async def test_abandoning_a_game_is_the_abandoners_loss(sessions):
    row = await play_toy(sessions, 1, [1, 2, 3], [3, 2, 1], rounds=1)
    for user, pick in ((1, 1), (2, 2), (3, 1)):
        await sessions.act(row.id, user, f"pick {pick}")
    # 3 - 2 - 0 after two rounds, and the leader abandons
    await Ending(sessions).abandon(row.id, 1, can_manage=False)
    leader = await sessions.standings.stats(1, GUILD)
    assert leader["global:toy"] | {"rating": None} == {
        "games": 1, "wins": 0, "abandoned": 1, "average": 0, "rating": None, "rated": 1}
    # the best of the others wins; nobody's points count (not played to the end)
    second = (await sessions.standings.stats(2, GUILD))["global:toy"]
    third = (await sessions.standings.stats(3, GUILD))["global:toy"]
    assert (second["wins"], third["wins"], second["average"]) == (1, 0, 0)
    assert second["rating"] > third["rating"] > leader["global:toy"]["rating"]
    assert (await sessions.session(row.id)).status == "abandoned"


async def test_games_ended_without_a_loser_are_not_counted(sessions):
    row = await play_toy(sessions, 1, [1, 2], [2, 1], rounds=1)
    Sessions_manager = 99  # a channel manager who is not playing
    await Ending(sessions).abandon(row.id, Sessions_manager, can_manage=True)
    lobby = await sessions.new(guild_id=GUILD, channel_id=2, game_id="toy", user_id=1,
                               name="U1", players=2)
    await Ending(sessions).abandon(lobby.session.id, 1, can_manage=False)  # a lobby: no result
    assert await sessions.standings.stats(1, GUILD) == {}
    assert await sessions.standings.stats(2, GUILD) == {}


def test_judge_places_the_abandoner_last_alone_and_skips_computers():
    game = EndedGame(1, GUILD, "toy", "abandoned", {"ranking": [[0], [1, 2], [3]],
                                                     "totals": [9, 5, 5, 0]},
                     ended_by=10, humans={0: 10, 1: 11, 3: 13})
    results = {r.user_id: r for r in judge(game) or []}
    assert {u: (r.place, r.won, r.abandoned) for u, r in results.items()} == {
        10: (2, False, True), 11: (0, True, False), 13: (1, False, False)}
    assert all(r.points is None for r in results.values())
    vote = EndedGame(1, GUILD, "toy", "abandoned", {"ranking": [[0], [1]], "totals": [1, 0]},
                     ended_by=None, humans={0: 10, 1: 11})
    assert judge(vote) is None
    shared = EndedGame(1, GUILD, "toy", "finished", {"ranking": [[0, 1]], "totals": [4, 4]},
                       ended_by=None, humans={0: 10, 1: 11})
    assert [(r.place, r.won, r.points) for r in judge(shared) or []] == [(0, True, 4), (0, True, 4)]


def test_openskill_shares_a_shared_place_and_rewards_a_win():
    new = Rating(None, None, 0)
    tie = rate([(1, 0, new), (2, 0, new)])
    assert tie[1] == pytest.approx(tie[2])
    win = rate([(1, 0, new), (2, 1, new), (3, 2, new)])
    assert win[1][2] > win[2][2] > win[3][2]  # ordinal (mu - 3 sigma)
    assert win[1][1] < 25 / 3  # one game makes the rating surer


async def test_leaderboard_per_server_by_default_and_ranked_after_three_games(sessions):
    channel = 0
    for _ in range(RANKED_AFTER):
        channel += 1
        await play_toy(sessions, channel, [1, 2], [2, 1])
    channel += 1
    await play_toy(sessions, channel, [3, 1], [2, 1])  # user 3 won their only game
    channel += 1
    await play_toy(sessions, channel, [1, 4], [2, 1], guild=OTHER_GUILD)
    here = await sessions.standings.leaderboard("toy", GUILD)
    assert [u for u, _, _ in here] == [1, 2]
    assert here[0][2] == RANKED_AFTER + 1 and here[0][1] > here[1][1]
    everywhere = await sessions.standings.leaderboard("toy", None)
    assert everywhere[0][:1] == (1,) and everywhere[0][2] == RANKED_AFTER + 2
    assert await sessions.standings.leaderboard("toy", OTHER_GUILD) == []  # 1 game each there


async def test_a_game_with_one_person_counts_but_is_not_rated(sessions):
    await play_toy(sessions, 1, [1, None], [2, 1])
    stats = (await sessions.standings.stats(1, GUILD))["global:toy"]
    assert stats["games"] == 1 and stats["rating"] is None


async def test_catch_up_counts_a_game_a_stop_left_uncounted(sessions, monkeypatch):
    calls = []

    async def stopped_before_counting(session_id, now):
        calls.append(session_id)
        return False

    with monkeypatch.context() as patch:
        patch.setattr(sessions.standings, "record", stopped_before_counting)
        row = await play_toy(sessions, 1, [1, 2], [2, 1])
    assert calls == [row.id]
    assert await sessions.standings.stats(1, GUILD) == {}
    assert await sessions.standings.catch_up("later") == 1
    assert (await sessions.standings.stats(1, GUILD))["global:toy"]["wins"] == 1


async def test_two_processes_counting_the_same_games_count_each_once(sessions, db_path):
    """Two connections to one file stand for two bot processes catching up at once."""
    ended = [await play_toy(sessions, c, [1, 2], [2, 1]) for c in range(1, 4)]
    async with sessions.db.transaction() as tx:
        await tx.execute("DELETE FROM game_results")
        await tx.execute("DELETE FROM standings")
    async with Database(db_path) as a, Database(db_path) as b:
        first, second = Standings(a), Standings(b)
        counted = await asyncio.gather(*(s.record(row.id, "now") for row in ended
                                         for s in (first, second)))
    assert sum(counted) == len(ended)
    assert (await sessions.standings.stats(1, GUILD))["global:toy"]["games"] == len(ended)
    # no rating update was lost to the other "process": each player was rated once per game
    for scope in (GUILD, None):
        board = await sessions.standings.leaderboard("toy", scope)
        assert sorted((u, rated) for u, _, rated in board) == [(1, 3), (2, 3)]


async def test_games_of_one_player_counted_side_by_side_each_count(sessions, db_path):
    """Different games sharing players, counted at once from two connections (on PostgreSQL
    the transactions overlap: the rating guard makes the later one count again)."""
    ended = [await play_toy(sessions, c, [1 + c % 2, 2 - c % 2, 3], [2, 1, 1])
             for c in range(1, 7)]
    async with sessions.db.transaction() as tx:
        await tx.execute("DELETE FROM game_results")
        await tx.execute("DELETE FROM standings")
    async with Database(db_path) as a, Database(db_path) as b:
        counted = await asyncio.gather(*(Standings(a if n % 2 else b).record(row.id, "now")
                                         for n, row in enumerate(ended)))
    assert all(counted)
    board = await sessions.standings.leaderboard("toy", None)
    assert sorted((u, rated) for u, _, rated in board) == [(1, 6), (2, 6), (3, 6)]


@pytest.mark.parametrize("lang", ["en", "pl", "uk"])
def test_stats_and_leaderboard_texts_in_every_language(lang):

    keys = [k for k in catalog("en") if k.startswith("ui.standings_")
            or k.startswith("cmd.game leaderboard.everywhere")]
    assert len(keys) >= 9 and all(k in catalog(lang) for k in keys)
    # standings.json overrides core.json's description, which still named Elo
    assert "Elo" not in catalog(lang).get("cmd.game leaderboard.desc", "")
    board = present.leaderboard_text("kingdomino", [(1, 12.345, 4), (2, -0.5, 3)], lang)
    # in whole points, never negative
    assert "<@1>" in board and str(present.rating_points(12.345)) in board and "-" not in \
        board.split("\n", 2)[2].replace("<@2> —", "")
    assert board.splitlines()[0] == t(lang, "ui.standings_title_server",
                                              game=t(lang, "game.kingdomino"))
    everywhere = present.leaderboard_text("kingdomino", [], lang, everywhere=True)
    assert everywhere == t(lang, "ui.standings_empty_everywhere",
                                   game=t(lang, "game.kingdomino"))
    stats = present.stats_text("Ala", {"server:kingdomino": {
        "games": 5, "wins": 2, "abandoned": 1, "average": 41.5, "rating": 3.2, "rated": 4}},
        lang)
    assert "41.5" in stats and str(present.rating_points(3.2)) in stats and "{" not in stats


@pytest.mark.parametrize("lang", ["en", "pl", "uk"])
def test_a_rating_is_shown_only_once_it_means_something_and_never_negative(lang):
    """After one game the model's ordinal is negative (-1.8): /game stats says how many more
    rated games until a rating, then shows it in whole points, at least 0 (issue 24)."""
    first = present.stats_text("Ala", {"server:kingdomino": {
        "games": 1, "wins": 0, "abandoned": 0, "average": 20, "rating": -1.8, "rated": 1}}, lang)
    assert "-1.8" not in first and "1.8" not in first
    assert first.endswith(t(lang, "ui.standings_stats_unrated", count=2))
    later = present.stats_text("Ala", {"server:kingdomino": {
        "games": 3, "wins": 0, "abandoned": 0, "average": 20, "rating": -0.4, "rated": 3}}, lang)
    assert later.endswith(t(lang, "ui.standings_stats_rating", rating=0))
    assert present.rating_points(20.0) == 800


async def test_a_game_whose_player_was_rated_meanwhile_is_counted_again(sessions, monkeypatch):
    from db.standings import RatingRace

    store = sessions.standings.store
    real, attempts = store.record, []

    async def raced_once(session_id, now, judge_, rate_):
        attempts.append(session_id)
        if len(attempts) == 1:
            raise RatingRace(session_id)  # what the guard raises after rolling back
        return await real(session_id, now, judge_, rate_)

    monkeypatch.setattr(store, "record", raced_once)
    row = await play_toy(sessions, 1, [1, 2], [2, 1])
    assert attempts == [row.id, row.id]
    assert (await sessions.standings.stats(1, GUILD))["global:toy"]["games"] == 1

