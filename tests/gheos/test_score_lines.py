"""Every Gheos point accounted for (issue 25, item 4): the breakdown gives each scoring kind
per epoch, and its lines add up to the same totals as before."""

from __future__ import annotations

import random

import pytest

import engines
from engines.gheos import rules as R
from text.catalog import LANGUAGES, t

GAME = engines.get("gheos")


def play(players: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    state = GAME.setup(players, {}, seed)
    states = [state]
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, GAME.bot_action(state, seat, rng, "easy"))
        states.append(state)
    return states


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_the_lines_add_up_to_each_kind_and_total_at_every_step(players, seed):
    for state in play(players, seed)[::7] + play(players, seed)[-1:]:
        lines = GAME.scores(state)
        assert GAME.totals(state) == R.tally(state)
        for seat, seat_lines in enumerate(lines):
            for reason in R.POINT_REASONS:
                assert sum(line.points for line in seat_lines
                           if line.key == f"gheos.score.{reason}_epoch") \
                    == state["points"][seat][reason]


def test_a_finished_game_names_each_epoch_scoring_and_the_final_one():
    state = play(3, 2)[-1]
    keys = [line.key for seat in GAME.scores(state) for line in seat]
    epochs = [line.params["epoch"] for seat in GAME.scores(state) for line in seat
              if line.key == "gheos.score.epoch_epoch"]
    assert "gheos.score.final_epoch" in keys and state["epochs"] in epochs
    for lang in LANGUAGES:
        for seat in GAME.scores(state):
            for line in seat:
                shown = t(lang, line.key, **line.params)
                assert "{" not in shown and "gheos." not in shown


def test_a_state_from_before_the_record_still_gives_its_four_totals():
    state = dict(play(2, 5)[-1])
    del state["scored"]
    lines = GAME.scores(state)
    assert [line.key for line in lines[0]] == [
        "gheos.score.temple", "gheos.score.token", "gheos.score.epoch", "gheos.score.final"]
    assert GAME.totals(state) == R.tally(state)
    assert GAME.load(GAME.notation(state)) == state  # and its notation has no scored line
