"""A tiny game with secret simultaneous picks, to test the host without any real game.

Every round each seat secretly picks 1-3; when all have picked the picks are revealed and the
highest unique pick scores its value. Three rounds.
"""

from __future__ import annotations

import sys
import types

import engines
from engines.base import (
    Game,
    GameMeta,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    ScoreLine,
    Variant,
    check_players,
    rank_by,
)

ROUNDS = 3


class Toy(Game):
    meta = GameMeta("toy", 2, 3, variants=(Variant("double", (2,)),), simultaneous=True,
                    hidden_information=True)

    def setup(self, players, options, seed):
        check_players(self.meta, players, options.get("variants", []))
        return {"seed": seed, "rng_draws": 0, "players": players, "round": 1,
                "picks": [None] * players, "points": [0] * players, "log": []}

    def to_act(self, state):
        if state["round"] > ROUNDS:
            return []
        return [s for s, p in enumerate(state["picks"]) if p is None]

    def legal_actions(self, state, seat):
        return ["pick 1", "pick 2", "pick 3"] if seat in self.to_act(state) else []

    def apply(self, state, seat, action):
        verb, _, arg = action.partition(" ")
        if verb != "pick" or arg not in ("1", "2", "3"):
            raise MalformedAction("toy.malformed", f"bad action {action!r}")
        if seat not in self.to_act(state):
            raise NotYourTurn("toy.not_your_turn", "not your turn")
        if arg == "3" and state["round"] == ROUNDS and state["points"][seat] > 5:
            raise IllegalAction("toy.rule.no_three_when_leading", "leaders may not pick 3 last")
        new = {**state, "picks": list(state["picks"]), "points": list(state["points"])}
        new["picks"][seat] = int(arg)
        events = [{"key": "toy.event.picked", "seat": seat}]
        if all(p is not None for p in new["picks"]):
            picks = new["picks"]
            unique = [p for p in picks if picks.count(p) == 1]
            if unique:
                new["points"][picks.index(max(unique))] += max(unique)
            events.append({"key": "toy.event.revealed", "picks": picks, "reveal": True})
            new["picks"] = [None] * new["players"]
            new["round"] += 1
        return new, events

    def view(self, state, seat):
        out = {"round": state["round"], "points": state["points"],
               "picked": [p is not None for p in state["picks"]], "to_act": self.to_act(state)}
        if seat is not None:
            out["private"] = {"pick": state["picks"][seat]}
        return out

    def scores(self, state):
        return [[ScoreLine("toy.score.points", p)] for p in state["points"]]

    def is_over(self, state):
        return state["round"] > ROUNDS

    def ranking(self, state):
        return rank_by(state["points"])


GAME = Toy()


def render_board(view, *, names, lang="en"):
    return b"\x89PNG board " + repr(view).encode()


def render_hand(view, *, names, lang="en"):
    return b"\x89PNG hand " + repr(view.get("private")).encode()


def install(monkeypatch) -> None:
    """Register the toy game and its renderer for one test (tests/host/conftest.py's
    ``forget_the_toy`` unregisters the game after each test)."""
    engines.register("toy", GAME)
    module = types.ModuleType("render.toy")
    module.__dict__.update(render_board=render_board, render_hand=render_hand)
    monkeypatch.setitem(sys.modules, "render.toy", module)
