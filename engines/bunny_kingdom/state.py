"""The state dict: its fields, a new game, and a fast copy.

A state is plain JSON (it survives ``json.loads(json.dumps(state))`` unchanged):

- ``players``, ``seed``, ``rng_draws``, ``variants`` - the contract's fields;
- ``round`` 1..4, ``phase`` (see :data:`PHASES`), ``step`` (pick step within the round);
- ``deck``: card ids, top first; ``hands``/``reserves``: per seat (reserves: 2 players only);
- ``picks``: per seat ``None`` or the cards picked this step, hidden until everyone picked;
- ``owner``/``building``/``towers``/``posts``: the board (see :mod:`board`);
- ``waiting``: per seat, building cards face up, waiting to be built;
- ``scrolls``: per seat, parchments face down (secret until the end of round 4);
- ``discard``: per seat, the personal discard pile (public: played territories, provisions,
  built building cards); ``hidden``: per seat, 2-player face-down discards (secret);
- ``camps_offered``: camp cards already offered this round; ``done``: seats finished building;
- ``score``: harvest carrots so far; ``harvests``: per round, per seat, the fief breakdown;
- ``copies``: per seat ``{copy card: copied parchment}``; ``final``: per seat parchment scores;
- ``last_play``: per seat, the public face of the cards played at the last reveal.
"""

from __future__ import annotations

from typing import Any

from engines.bunny_kingdom.data import CELLS, START_CITIES

State = dict[str, Any]

#: phases of a round, in order, then the end of the game
PHASES = ("explore", "camps", "build", "trade", "copy", "over")

#: fields that are a list per seat of lists (copied one level deeper)
_PER_SEAT_LISTS = ("hands", "reserves", "waiting", "scrolls", "discard", "hidden", "last_play")


def new_state(players: int, seed: int, variants: list[str]) -> State:
    building: list[str | None] = [None] * CELLS
    for cell in START_CITIES:
        building[cell] = "city_1"
    seats = range(players)
    return {
        "game": "bunny_kingdom",
        "players": players,
        "seed": seed,
        "rng_draws": 0,
        "variants": list(variants),
        "round": 1,
        "phase": "explore",
        "step": 1,
        "deck": [],
        "hands": [[] for _ in seats],
        "reserves": [[] for _ in seats],
        "picks": [None for _ in seats],
        "owner": [-1] * CELLS,
        "building": building,
        "towers": [],
        "posts": {},
        "waiting": [[] for _ in seats],
        "scrolls": [[] for _ in seats],
        "discard": [[] for _ in seats],
        "hidden": [[] for _ in seats],
        "last_play": [[] for _ in seats],
        "camps_offered": [],
        "done": [False for _ in seats],
        "score": [0 for _ in seats],
        "harvests": [],
        "copies": [{} for _ in seats],
        "final": None,
    }


def clone(state: State) -> State:
    """A copy ``apply`` may change freely: every list/dict it mutates is copied.

    Records that are only ever appended or replaced whole (``harvests`` rounds, ``final``,
    ``towers`` pairs) are shared with the original; that is safe because nothing edits them
    in place. Much faster than ``copy.deepcopy``.
    """
    new = dict(state)
    for key in _PER_SEAT_LISTS:
        new[key] = [list(x) for x in state[key]]
    new["deck"] = list(state["deck"])
    new["picks"] = [None if p is None else list(p) for p in state["picks"]]
    new["owner"] = list(state["owner"])
    new["building"] = list(state["building"])
    new["towers"] = list(state["towers"])
    new["posts"] = dict(state["posts"])
    new["camps_offered"] = list(state["camps_offered"])
    new["done"] = list(state["done"])
    new["score"] = list(state["score"])
    new["harvests"] = list(state["harvests"])
    new["copies"] = [dict(c) for c in state["copies"]]
    return new
