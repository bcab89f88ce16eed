"""bench/lab/gheos_diagnose.py: the records it compares agree with the games they come from."""

from __future__ import annotations

from bench.lab.gheos_diagnose import play, report
from engines.gheos import rules as R


def test_each_record_adds_up_to_the_game_it_describes(capsys):
    games = [play(3, 30000 + g, g % 3, "random", "baseline") for g in range(4)]
    for g in games:
        for s in range(3):
            assert sum(t["points"] for t in g["tokens"][s]) == g["points"][s]["token"]
            assert len(g["tokens"][s]) + g["tokens_left"][s] == R.SCORING_TOKENS
            assert sum(g["points"][s].values()) == g["totals"][s]
        # every follower lost was lost by somebody's move, to a war or an island
        for lost in g["lost"]:
            by_move = sum(n for k, n in lost.items() if k.startswith("by +"))
            assert by_move == lost.get("war", 0) + lost.get("island", 0)
        assert g["epochs"][-1]["epoch"] <= R.LAST_EPOCH[3]
        assert g["last_turns"][-1]["after"] == g["totals"]
    report(games)
    assert "games, 3 players" in capsys.readouterr().out
