"""bench/lab/fit_gheos_eval.py, the tool that fits a Gheos position value to game outcomes: its
measures split threatened civilizations from safe ones, its least squares recover a known
rule, and it runs on a few games."""

from __future__ import annotations

import pytest

from bench.lab import fit_gheos_eval as fit_tool
from engines.gheos import rules as R
from engines.gheos.position import position
from tests.gheos.helpers import full, lr


def _exposed():
    """Red (5 chalices, seat 0's two followers) faces blue (1 sword, seat 2's) across the
    free cell M29: red is threatened. Green (4 chalices, seat 1's) is out of reach."""
    return position(3, {"M27": lr("chalice", "chalice", "chalice"), "M28": lr("chalice", "chalice"),
                        "M30": lr("swords"), "M31": lr(),
                        "M35": lr("chalice", "chalice"), "M36": lr("chalice", "chalice")},
                    civs={"red": "M27", "blue": "M31", "green": "M35"},
                    followers=[{"red": 2}, {"green": 1}, {"blue": 2}], tokens=[2, 3, 1],
                    bag=[full() for _ in range(6)] + ["E1", "E2"], epochs=5)


def test_features_count_threatened_civilizations_apart():
    rows = fit_tool.features(_exposed())
    col = {name: i for i, name in enumerate(fit_tool.FEATURES)}
    red, green, blue = rows
    assert red[col["threatened chalices"]] == 10 and red[col["chalices"]] == 0
    assert red[col["threatened chalices x tokens"]] == 20
    assert red[col["threatened followers"]] == 2 and red[col["value"]] == 0
    assert red[col["threatened value"]] > 0
    assert green[col["chalices"]] == 4 and green[col["threatened chalices"]] == 0
    assert blue[col["followers"]] == 2 and blue[col["chalices"]] == 0  # stronger: safe
    assert red[col["epochs left"]] == R.LAST_EPOCH[3] - 5


def test_least_squares_recover_a_known_rule():
    samples = [(0, [1.0, float(a), float(b)], 2 + 3 * a - b) for a in range(5) for b in range(4)]
    assert fit_tool.fit(samples, ridge=0.0) == pytest.approx([2.0, 3.0, -1.0])
    assert fit_tool.r_squared(samples, [2.0, 3.0, -1.0]) == pytest.approx(1.0)


def test_the_tool_records_the_points_each_seat_still_scores_and_fits_them(capsys):
    samples = fit_tool.play_and_record(3, 3, 5, "random", "random")
    assert {g for g, _, _ in samples} == {0, 1, 2}
    game0 = [(x, y) for g, x, y in samples if g == 0]
    points = fit_tool.FEATURES.index("points")
    for seat in range(3):
        mine = game0[seat::3]
        # nobody has scored at the first decision, so its target is the seat's final total;
        # points only grow, so what is still to come only shrinks
        assert mine[0][0][points] == 0
        assert [y for _, y in mine] == sorted((y for _, y in mine), reverse=True)
        assert all(x[points] + y == mine[0][1] for x, y in mine)
    fit_tool.report(samples)
    assert "R^2" in capsys.readouterr().out


def test_survival_counts_are_consistent():
    counts = fit_tool.survival(3, 2, 5, "random", "random")
    keys = {k for k, _ in counts}
    assert keys
    for k in keys:
        assert counts[k, "round"] <= counts[k, "end"] <= counts[k, "n"]
