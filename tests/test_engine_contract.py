"""The contract of :mod:`engines.base`, checked for every registered game on seeded games of
random legal moves: setup, legal actions, apply (which never mutates its input and whose
errors carry the position), views that hide private data, a notation that loads back and
reads as a position, and seeded replay. Each engine's own tests check its rules."""

from __future__ import annotations

import functools
import json
import random
from dataclasses import dataclass
from typing import Any

import pytest

import engines
from engines.base import MAX_ACTION_CODE, BadOptions, Game, GameError, State

#: seeded games of random legal moves per player count
SEEDS = (11, 12, 13)
#: every how many steps the costlier checks (every legal action, every view) run
EVERY = 3
#: a notation a person can read: lines, none too long to take in. The most is Bunny Kingdom's
#: (57 at the end of a 4-player game: ten board rows, the deck, up to eight lines a seat and a
#: line per seat and harvest); Kingdomino, Gheos and Dwóch następców stay within 25
MAX_LINES = 64
MAX_LINE = 200


def json_notation(game_id: str) -> bool:
    """The engine still writes its state as the base class's JSON dump."""
    return type(engines.get(game_id)).notation is Game.notation


GAMES = engines.available()
READABLE = [pytest.param(g, marks=pytest.mark.xfail(
    strict=True, reason="notation is still the JSON dump of the state"))
    if json_notation(g) else g for g in GAMES]


@dataclass(frozen=True)
class Step:
    state: State
    seat: int
    action: str
    after: State
    events: list[dict[str, Any]]


def player_counts(game: Game) -> range:
    return range(game.meta.min_players, game.meta.max_players + 1)


@functools.cache
def seeded_game(game_id: str, players: int, seed: int) -> tuple[Step, ...]:
    """A whole game of random legal moves (each state kept, so tests share the playing)."""
    game = engines.get(game_id)
    rng = random.Random(seed)
    state = game.setup(players, {}, seed)
    steps = []
    while not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        after, events = game.apply(state, seat, action)
        steps.append(Step(state, seat, action, after, events))
        state = after
        assert len(steps) < 5000, "a game of random moves ends"
    return tuple(steps)


def every_game(game_id: str) -> list[tuple[int, int, tuple[Step, ...]]]:
    """(players, seed, steps) of each seeded game."""
    game = engines.get(game_id)
    return [(players, seed, seeded_game(game_id, players, seed))
            for players in player_counts(game) for seed in SEEDS]


def positions(game_id: str) -> list[State]:
    """Every EVERY-th position of the seeded games, and each game's last."""
    out = []
    for _players, _seed, steps in every_game(game_id):
        out += [step.state for step in steps[::EVERY]] + [steps[-1].after]
    return out


def keys_anywhere(value: Any) -> set[str]:
    """Every dict key in a nested value."""
    if isinstance(value, dict):
        return set(value).union(*(keys_anywhere(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(*(keys_anywhere(v) for v in value))
    return set()


@pytest.mark.parametrize("game_id", GAMES)
def test_setup_for_every_allowed_player_count(game_id):
    game = engines.get(game_id)
    for players in player_counts(game):
        state = game.setup(players, {}, 5)
        assert json.loads(json.dumps(state)) == state
        assert state == game.setup(players, {}, 5)
        assert not game.is_over(state)
        assert game.to_act(state) and set(game.to_act(state)) <= set(range(players))
    for players in (game.meta.min_players - 1, game.meta.max_players + 1):
        with pytest.raises(BadOptions):
            game.setup(players, {}, 5)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_legal_action_applies(game_id):
    game = engines.get(game_id)
    for state in positions(game_id):
        acting = game.to_act(state)
        for seat in range(len(game.scores(state))):
            legal = game.legal_actions(state, seat)
            if seat not in acting:
                assert legal == []
                continue
            assert legal and len(set(legal)) == len(legal)
            for action in legal:
                assert len(action) <= MAX_ACTION_CODE
                game.apply(state, seat, action)  # raises nothing


@pytest.mark.parametrize("game_id", GAMES)
def test_apply_never_mutates_its_input(game_id):
    game = engines.get(game_id)
    for _players, _seed, steps in every_game(game_id):
        for step in steps:
            before = json.dumps(step.state, sort_keys=True)
            game.apply(step.state, step.seat, step.action)
            assert json.dumps(step.state, sort_keys=True) == before, step.action


@pytest.mark.parametrize("game_id", GAMES)
def test_views_hide_private_data(game_id):
    """The public part of a seat's view is the spectator's; whatever only the seat may see
    is under its ``"private"``, and nothing of another seat's is anywhere."""
    game = engines.get(game_id)
    for state in positions(game_id):
        public = game.view(state, None)
        assert "private" not in keys_anywhere(public)
        json.dumps(public)
        for seat in range(len(game.scores(state))):
            view = game.view(state, seat)
            private = view.get("private")
            assert {k: v for k, v in view.items() if k != "private"} == public, seat
            assert "private" not in keys_anywhere(private)
            if isinstance(private, dict) and "seat" in private:
                assert private["seat"] == seat


@pytest.mark.parametrize("game_id", GAMES)
def test_notation_loads_back_exactly(game_id):
    game = engines.get(game_id)
    for state in positions(game_id):
        assert game.load(game.notation(state)) == state


@pytest.mark.parametrize("game_id", READABLE)
def test_notation_is_a_position_a_person_can_read(game_id):
    """Like chess FEN: a line or a few, not the JSON dump of the state."""
    game = engines.get(game_id)
    for state in positions(game_id):
        text = game.notation(state)
        assert not text.startswith(("{", "[")), text[:80]
        lines = text.splitlines()
        assert 1 <= len(lines) <= MAX_LINES, len(lines)
        assert max(map(len, lines)) <= MAX_LINE, max(lines, key=len)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_same_seed_and_actions_give_the_same_game(game_id):
    game = engines.get(game_id)
    for players, seed, steps in every_game(game_id):
        state = game.setup(players, {}, seed)
        assert state == steps[0].state
        for step in steps:
            state, events = game.apply(state, step.seat, step.action)
            assert (state, events) == (step.after, step.events), step.action


@pytest.mark.parametrize("game_id", GAMES)
def test_errors_carry_the_position(game_id):
    """As python-chess's errors carry the FEN: a refused action names the position."""
    game = engines.get(game_id)
    for _players, _seed, steps in every_game(game_id):
        state = steps[len(steps) // 2].state
        seat = game.to_act(state)[0]
        with pytest.raises(GameError) as refused:
            game.apply(state, seat, "no such action")
        assert refused.value.position == game.notation(state)
        assert game.notation(state) in str(refused.value)
        idle = [s for s in range(len(game.scores(state))) if s not in game.to_act(state)]
        if idle:
            with pytest.raises(GameError) as refused:
                game.apply(state, idle[0], game.legal_actions(state, seat)[0])
            assert refused.value.position == game.notation(state)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_ranking_follows_points_then_the_tiebreaks_it_names(game_id):
    """The final results explain a tie with ``tiebreaks``: they must be what ranked it."""
    from engines.base import rank_by
    from text.catalog import LANGUAGES, catalog

    game = engines.get(game_id)
    for state in positions(game_id):
        totals = game.totals(state)
        breaks = game.tiebreaks(state)
        assert all(len(tb.values) == len(totals) for tb in breaks)
        keys = [(totals[s], *(tb.values[s] for tb in breaks)) for s in range(len(totals))]
        assert game.ranking(state) == rank_by(keys)
        for tb in breaks:
            assert all(tb.key in catalog(lang) for lang in LANGUAGES), tb.key
