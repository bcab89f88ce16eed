"""The Gheos computer player: it beats random play in a seeded short tournament, its
levels are known, and when it breaks it says so instead of playing at random."""

from __future__ import annotations

import random

import pytest

from engines.gheos import GAME
from engines.gheos import bot as gheos_bot


def play(players: int, seed: int, policies) -> list[list[int]]:
    state = GAME.setup(players, {}, seed)
    rng = random.Random(seed)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        state, _ = GAME.apply(state, seat, policies[seat](state, seat, rng))
    return GAME.ranking(state)


def random_player(state, seat, rng):
    return rng.choice(GAME.legal_actions(state, seat))


def computer(level):
    return lambda state, seat, rng: GAME.bot_action(state, seat, rng, level)


def test_normal_bot_beats_the_random_player_in_a_seeded_tournament():
    wins = 0
    for seed in range(6):
        bot_seat = seed % 2  # seats rotated
        policies = [random_player, random_player]
        policies[bot_seat] = computer("normal")
        ranking = play(2, seed, policies)
        wins += ranking[0] == [bot_seat]
    assert wins == 6


def test_easy_bot_also_beats_random_play_but_is_a_different_player():
    policies = [computer("easy"), random_player]
    assert play(2, 11, policies)[0] == [0]
    state = GAME.setup(2, {}, 3)
    seat = GAME.to_act(state)[0]
    easy = [GAME.bot_action(state, seat, random.Random(k), "easy") for k in range(6)]
    normal = [GAME.bot_action(state, seat, random.Random(k), "normal") for k in range(6)]
    assert easy != normal


def test_same_rng_same_move():
    state = GAME.setup(3, {}, 8)
    seat = GAME.to_act(state)[0]
    moves = {GAME.bot_action(state, seat, random.Random(4)) for _ in range(3)}
    assert len(moves) == 1


def test_unknown_level_is_refused():
    state = GAME.setup(2, {}, 1)
    with pytest.raises(ValueError, match="unknown bot level"):
        GAME.bot_action(state, GAME.to_act(state)[0], random.Random(0), "grandmaster")


def test_a_crashing_bot_fails_loudly(monkeypatch):
    """No silent fallback to a random move: a bug in the bot's judgement reaches the caller
    (the session's call site logs it and decides what to play)."""

    def broken(*args, **kwargs):
        raise RuntimeError("bot bug")

    monkeypatch.setattr(gheos_bot, "_judge", broken)
    state = GAME.setup(2, {}, 1)
    with pytest.raises(RuntimeError, match="bot bug"):
        GAME.bot_action(state, GAME.to_act(state)[0], random.Random(0))
