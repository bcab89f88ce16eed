"""Seeded random playouts of whole games with invariants checked at every step.

Scores are recomputed here from a shadow model of each kingdom that is built only from the
public ``placed`` events and the printed domino list, with its own flood fill: an independent
check of the engine's kingdom rows, scoring, bonuses and tie-breaks.
"""

import random
from collections import Counter

import pytest

from engines.kingdomino.data import DOMINOES

from .helpers import GAME

GAMES_PER_COUNT = 500


# --- the independent model -------------------------------------------------------------------
def cell_rc(name: str) -> tuple[int, int]:
    return int(name[1:]) - 1, ord(name[0]) - 65


def shadow_score(squares: dict, castle: tuple[int, int], discards: int, variants) -> tuple:
    """(points, largest property, crowns) of a kingdom given as {(r, c): (terrain, crowns)}."""
    seen = set()
    points = largest = crowns_total = 0
    for start in squares:
        if start in seen:
            continue
        seen.add(start)
        group, todo = [], [start]
        while todo:
            r, c = todo.pop()
            group.append((r, c))
            for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if near in squares and near not in seen \
                        and squares[near][0] == squares[start][0]:
                    seen.add(near)
                    todo.append(near)
        crowns = sum(squares[cell][1] for cell in group)
        points += len(group) * crowns
        largest = max(largest, len(group))
        crowns_total += crowns
    if "middle_kingdom" in variants:
        rows = [r for r, _ in squares] + [castle[0]]
        cols = [c for _, c in squares] + [castle[1]]
        if min(rows) + max(rows) == 2 * castle[0] and min(cols) + max(cols) == 2 * castle[1]:
            points += 10
    if "harmony" in variants and discards == 0:
        points += 5
    return points, largest, crowns_total


def expected_ranking(tallies: list[tuple]) -> list[list[int]]:
    groups: dict[tuple, list[int]] = {}
    for seat, tally in enumerate(tallies):
        groups.setdefault(tally, []).append(seat)
    return [groups[key] for key in sorted(groups, reverse=True)]


class Shadow:
    def __init__(self, players: int, grid: int, variants) -> None:
        self.players, self.grid, self.variants = players, grid, list(variants)
        self.castle = (grid - 1, grid - 1)
        self.new_game()
        self.done_games: list[list[tuple]] = []

    def new_game(self) -> None:
        self.squares: list[dict] = [{} for _ in range(self.players)]
        self.placed: list[list[int]] = [[] for _ in range(self.players)]
        self.discarded: list[list[int]] = [[] for _ in range(self.players)]

    def tallies(self) -> list[tuple]:
        return [shadow_score(self.squares[s], self.castle, len(self.discarded[s]), self.variants)
                for s in range(self.players)]

    def take(self, event: dict) -> None:
        key = event["key"]
        if key == "kingdomino.event.placed":
            d = DOMINOES[event["n"]]
            seat = event["seat"]
            for cell, (terrain, crowns) in zip(event["cells"], (d.half("a"), d.half("b")),
                                               strict=True):
                assert cell_rc(cell) not in self.squares[seat] and cell_rc(cell) != self.castle
                self.squares[seat][cell_rc(cell)] = (terrain, crowns)
            self.placed[seat].append(event["n"])
        elif key == "kingdomino.event.discarded":
            self.discarded[event["seat"]].append(event["n"])
        elif key == "kingdomino.event.game_finished":
            tallies = self.tallies()
            assert event["scores"] == [t[0] for t in tallies]
            self.done_games.append(tallies)
            self.new_game()

    def totals(self) -> list[tuple]:
        now = self.tallies()
        return [tuple(sum(game[s][i] for game in [*self.done_games, now]) for i in range(3))
                for s in range(self.players)]


# --- the invariants ----------------------------------------------------------------------------
def check_step(state: dict, shadow: Shadow, full: bool) -> None:
    players = state["players"]
    in_line = [slot["n"] for slot in state["current_line"] if not slot["done"]]
    in_next = [slot["n"] for slot in state["next_line"]]
    used = [n for seat in range(players) for n in shadow.placed[seat] + shadow.discarded[seat]]
    everywhere = Counter(state["deck"] + state["removed"] + in_line + in_next + used)
    assert everywhere == Counter(range(1, 49)), "each domino in exactly one place"
    for seat in range(players):
        cells = [*shadow.squares[seat], shadow.castle]
        rows = [r for r, _ in cells]
        cols = [c for _, c in cells]
        assert max(rows) - min(rows) < shadow.grid and max(cols) - min(cols) < shadow.grid
    to_act = GAME.to_act(state)
    assert len(to_act) == (0 if GAME.is_over(state) else 1)
    if full:
        view = GAME.view(state, None)
        size = view["size"]
        for seat, kingdom in enumerate(view["kingdoms"]):
            expected = {f"{chr(65 + c)}{r + 1}": [t, k]
                        for (r, c), (t, k) in shadow.squares[seat].items()}
            assert kingdom["cells"] == expected
            assert kingdom["discarded"] == shadow.discarded[seat]
            assert all(cell_rc(cell)[0] < size for cell in kingdom["cells"])
        assert view["to_act"] == to_act


def playout(players: int, seed: int, variants=(), *, bot: bool = False, full: bool = False):
    state = GAME.setup(players, {"variants": list(variants)}, seed)
    shadow = Shadow(players, 7 if "mighty_duel" in variants else 5, variants)
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    check_step(state, shadow, full)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        assert legal and ("discard" not in legal or legal == ["discard"])
        code = GAME.bot_action(state, seat, rng) if bot else rng.choice(legal)
        assert code in legal
        state, events = GAME.apply(state, seat, code)
        for event in events:
            shadow.take(event)
        log.append((seat, code))
        check_step(state, shadow, full)
    # final scores equal the independent recomputation
    totals = shadow.totals()
    assert GAME.totals(state) == [t[0] for t in totals]
    assert GAME.ranking(state) == expected_ranking(totals)
    assert len(shadow.done_games) == (2 if "dynasty" in variants else 0)
    # exact replay from seed + action log
    replay = GAME.setup(players, {"variants": list(variants)}, seed)
    for seat, code in log:
        replay, _ = GAME.apply(replay, seat, code)
    assert GAME.notation(replay) == GAME.notation(state)
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games(players):
    for seed in range(GAMES_PER_COUNT):
        playout(players, seed, full=seed < 40)


@pytest.mark.parametrize(
    ("players", "variants", "games"),
    [
        (2, ("mighty_duel",), 60),
        (2, ("harmony", "middle_kingdom"), 60),
        (3, ("harmony", "middle_kingdom"), 60),
        (4, ("harmony", "middle_kingdom"), 60),
        (4, ("dynasty",), 20),
        (2, ("dynasty", "harmony", "middle_kingdom", "mighty_duel"), 10),
    ],
)
def test_random_games_with_variants(players, variants, games):
    for seed in range(games):
        playout(players, 1000 + seed, variants, full=seed < 5)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bot_games(players):
    for seed in range(25):
        playout(players, 5000 + seed, ("harmony",), bot=True, full=seed < 3)


def test_bot_is_deterministic_given_its_rng():
    state = GAME.setup(3, {}, 77)
    a = [GAME.bot_action(state, GAME.to_act(state)[0], random.Random(5)) for _ in range(3)]
    assert len(set(a)) == 1


def test_bot_beats_random_play():
    wins = 0
    for seed in range(20):
        state = GAME.setup(2, {}, seed)
        rng = random.Random(seed)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            code = (GAME.bot_action(state, seat, rng) if seat == 0
                    else rng.choice(GAME.legal_actions(state, seat)))
            state, _ = GAME.apply(state, seat, code)
        wins += GAME.ranking(state)[0] == [0]
    assert wins >= 15
