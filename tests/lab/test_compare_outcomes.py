"""bench/lab/compare_outcomes.py compares two players on the games both played, game by game."""

import pytest

from bench.lab.compare_outcomes import load, paired


def test_only_common_games_are_compared_and_the_difference_is_per_game():
    a = {(1, 0): 1.0, (2, 1): 0.0, (3, 2): 1.0, (4, 0): 0.5, (9, 0): 1.0}
    b = {(1, 0): 0.0, (2, 1): 0.0, (3, 2): 1.0, (4, 0): 0.0, (8, 0): 0.0}
    r = paired(a, b)
    assert r["games"] == 4 and r["differ"] == 2
    assert r["a"] == pytest.approx(2.5 / 4) and r["b"] == pytest.approx(1 / 4)
    assert r["diff"] == pytest.approx(1.5 / 4)
    assert r["low"] < r["diff"] < r["high"]


def test_identical_players_differ_by_nothing():
    a = {(s, s % 3): float(s % 2) for s in range(30)}
    r = paired(a, dict(a))
    assert r["diff"] == r["low"] == r["high"] == 0.0 and r["differ"] == 0


def test_too_few_common_games_are_refused():
    with pytest.raises(SystemExit):
        paired({(1, 0): 1.0}, {(1, 0): 0.0, (2, 0): 1.0})


def test_a_tournament_records_each_game_for_the_comparison():
    from bench.bench_bots_gd import tournament

    r = tournament("gheos", 3, 4, "random", "random", {}, 50)
    games = r["outcomes"]
    assert [(g["seed"], g["seat"]) for g in games] == [(50, 0), (51, 1), (52, 2), (53, 0)]
    assert sum(g["win"] for g in games) == pytest.approx(4 * r["wins"])
    assert all(len(g["points"]) == 3 for g in games)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(SystemExit, match="nothing.json: no such file"):
        load([tmp_path / "nothing.json"])
