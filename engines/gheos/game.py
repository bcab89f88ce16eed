"""Gheos as a Stolik :class:`~engines.base.Game`: setup, the steps of a turn, views, scores.

A turn is several actions, each its own phase:

* ``tile``: ``place T17 M30 r1`` or ``replace T17 M31 r0`` (hand tile, cell, rotation);
* ``resolve``: choices the placement forces on the active player, one at a time, only when
  there is a real choice: ``pay red`` (which follower pays for a war or migration),
  ``migrate blue M28`` (where a split civilization goes, on a wheat tie) and ``win yellow``
  (the winner of a war tied on swords);
* ``civ``: ``found red M30`` (a free marker on the uninhabited continent named by its label
  cell) or ``take blue`` (one follower of a civilization on the board);
* ``score``: ``token`` (use a scoring token) or ``pass``.

Drawing, epoch scorings and the end of the game happen by themselves after ``score``. A step
with nothing to choose (no continent to found on and no follower to take, no scoring token
left) is skipped.
"""

from __future__ import annotations

import random
from typing import Any

import engines.gheos.geometry as geometry
import engines.gheos.moves as moves
import engines.gheos.notation as notation
import engines.gheos.rules as R
from engines.base import (
    Game,
    GameMeta,
    MalformedAction,
    ScoreLine,
    TieBreak,
    check_players,
    rank_by,
    rng_for,
)
from engines.gheos.actions import (
    parse_colour,
    parse_put,
)
from engines.gheos.bot import choose
from engines.gheos.data import EPOCH_IDS, LANDSCAPE_IDS, START_TILE
from engines.gheos.regions import Land
from engines.gheos.views import build_view

META = GameMeta(
    id="gheos",
    min_players=2,
    max_players=4,
    hidden_information=True,
    rulebook="gheos.pl.txt",
)


class Gheos(Game):
    meta = META

    # --- setup ------------------------------------------------------------------------------
    def setup(self, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
        check_players(self.meta, players, list(options.get("variants", [])))
        state: dict[str, Any] = {
            "game": "gheos", "seed": seed, "rng_draws": 0, "players": players,
            "phase": "tile", "turn": 0, "turn_no": 1,
            "board": {}, "regions": {}, "next_region": 0,
            "civs": {}, "supply": {c: R.FOLLOWERS_PER_CIVILIZATION for c in R.CIVILIZATIONS},
            "followers": [{} for _ in range(players)],
            "tokens": [R.SCORING_TOKENS] * players,
            "hands": [[] for _ in range(players)],
            "bag": [], "removed": [], "epochs": 0, "epoch_tiles": [],
            "points": [{r: 0 for r in R.POINT_REASONS} for _ in range(players)],
            # per seat "reason/epoch tiles drawn" -> [points, scorings] (scores())
            "scored": [{} for _ in range(players)],
            "pending": None, "last": None, "end_reason": None,
        }
        # The start tile (red star) lies face up in the middle of the table.
        land = Land(state)
        land.add(geometry.START_CELL, START_TILE, 0)
        land.store(state)
        # The other landscape tiles are shuffled with the epoch tiles, face down.
        bag = [t for t in LANDSCAPE_IDS if t != START_TILE] + list(EPOCH_IDS)
        rng_for(state).shuffle(bag)
        state["bag"] = bag
        R.deal_start_hands(state)
        return state

    # --- whose move -----------------------------------------------------------------------
    def to_act(self, state: dict[str, Any]) -> list[int]:
        return [] if state["phase"] == "over" else [state["turn"]]

    def is_over(self, state: dict[str, Any]) -> bool:
        return state["phase"] == "over"

    # --- legal actions and their effect (engines.gheos.moves) --------------------------------
    def legal_actions(self, state: dict[str, Any], seat: int) -> list[str]:
        return moves.legal_actions(state, seat)

    def apply(self, state: dict[str, Any], seat: int, action: str
              ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        return moves.apply(state, seat, action)

    # --- views ------------------------------------------------------------------------------
    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    # --- results ------------------------------------------------------------------------------
    def scores(self, state: dict[str, Any]) -> list[list[ScoreLine]]:
        """Every scoring by kind and epoch (temples and tokens of epoch n, the n-th epoch
        scoring, the final scoring); a state from before that record: the four totals."""
        if "scored" in state:
            return [_scored_lines(state["scored"][seat]) for seat in range(state["players"])]
        out = []
        for seat in range(state["players"]):
            pts = state["points"][seat]
            lines = [
                ScoreLine("gheos.score.temple", pts["temple"]),
                ScoreLine("gheos.score.token", pts["token"],
                          {"used": R.SCORING_TOKENS - state["tokens"][seat]}),
                ScoreLine("gheos.score.epoch", pts["epoch"], {"epochs": state["epochs"]}),
            ]
            if state["phase"] == "over":
                lines.append(ScoreLine("gheos.score.final", pts["final"]))
            out.append(lines)
        return out

    def ranking(self, state: dict[str, Any]) -> list[list[int]]:
        """Most points wins; a tie goes to the most followers; still tied is a draw."""
        totals = R.tally(state)
        return rank_by([(totals[s], R.followers_of(state, s)) for s in range(state["players"])])

    def tiebreaks(self, state: dict[str, Any]) -> list[TieBreak]:
        return [TieBreak("gheos.tiebreak.followers",
                         [R.followers_of(state, s) for s in range(state["players"])])]

    # --- descriptions -------------------------------------------------------------------------
    def describe(self, state: dict[str, Any], action: str) -> tuple[str, dict[str, Any]]:
        tokens = action.split()
        verb = tokens[0] if tokens else ""
        try:
            if verb in ("place", "replace"):
                _, tid, cell, rot = parse_put(tokens)
                params: dict[str, Any] = {"tile": tid, "cell": cell, "rotation": rot * 120}
                if verb == "replace" and cell in state["board"]:
                    params["old"] = state["board"][cell][0]
                return f"gheos.action.{verb}", params
            if verb in ("pay", "take", "win") and len(tokens) == 2:
                return f"gheos.action.{verb}", {"civ": parse_colour(tokens[1])}
            if verb == "migrate" and len(tokens) == 3:
                return "gheos.action.migrate", {"civ": parse_colour(tokens[1]), "cell": tokens[2]}
            if verb == "found" and len(tokens) == 3:
                land = Land(state)
                region = land.continent_labelled(tokens[2].upper())
                wheat = region.counts["wheat"] if region else 0
                return "gheos.action.found", {"civ": parse_colour(tokens[1]), "cell": tokens[2],
                                              "followers": min(wheat, 5)}
            if verb == "token":
                pts = R.follower_points(state, Land(state), state["turn"], "chalice")
                return "gheos.action.token", {"points": pts}
            if verb == "pass":
                return "gheos.action.pass", {}
        except (MalformedAction, KeyError, ValueError):
            pass
        return "action.generic", {"code": action}

    # --- notation ------------------------------------------------------------------------------
    def notation(self, state: dict[str, Any]) -> str:
        """The position in a few readable lines (:mod:`engines.gheos.notation`)."""
        return notation.dump(state)

    def load(self, text: str) -> dict[str, Any]:
        return notation.load(text)

    # --- computer player ------------------------------------------------------------------------
    def bot_action(self, state: dict[str, Any], seat: int, rng: random.Random,
                   level: str = "normal") -> str:
        return choose(self, state, seat, rng, level)


GAME = Gheos()


#: the order of a breakdown's lines within one epoch
_KIND_ORDER = {"temple": 0, "token": 1, "epoch": 2, "final": 3}


def _scored_lines(scored: dict[str, list[int]]) -> list[ScoreLine]:
    """``reason/drawn`` records as lines: temples and tokens played while ``drawn`` epoch
    tiles were out belong to epoch ``drawn + 1``; epoch scoring ``drawn`` closes epoch
    ``drawn``. The points sum to the four totals of ``state["points"]`` (a test checks)."""
    def epoch_of(reason: str, drawn: int) -> int:
        return drawn if reason == "epoch" else drawn + 1

    records = []
    for key, (points, count) in scored.items():
        reason, drawn = key.split("/")
        records.append((reason, epoch_of(reason, int(drawn)), points, count))
    records.sort(key=lambda r: (r[0] == "final", r[1], _KIND_ORDER[r[0]]))
    return [ScoreLine(f"gheos.score.{reason}_epoch", points, {"epoch": epoch, "count": count})
            for reason, epoch, points, count in records]
