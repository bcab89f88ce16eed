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

from engines.base import (
    Game,
    GameMeta,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    ScoreLine,
    check_players,
    rank_by,
    rng_for,
)
from engines.gheos import geometry, notation
from engines.gheos import rules as R
from engines.gheos.actions import (
    check_put,
    civ_actions,
    parse_colour,
    parse_put,
    tile_actions,
)
from engines.gheos.bot import choose
from engines.gheos.data import EPOCH_IDS, LANDSCAPE_IDS, START_TILE, canonical_rotation, tile
from engines.gheos.regions import Land
from engines.gheos.turn import advance, end_turn, pay
from engines.gheos.views import build_view

META = GameMeta(
    id="gheos",
    min_players=2,
    max_players=4,
    hidden_information=True,
    rulebook="gheos.pl.txt",
)

PHASE_VERBS = {
    "tile": ("place", "replace"),
    "resolve": ("pay", "migrate", "win"),
    "civ": ("found", "take"),
    "score": ("token", "pass"),
    "over": (),
}
VERBS = {v for vs in PHASE_VERBS.values() for v in vs}


def copy_state(s: dict[str, Any]) -> dict[str, Any]:
    """A structured copy, much faster than ``copy.deepcopy``. The board and region dicts
    are never changed in place (a new map is a new dict, see ``regions.Land``), so they are
    shared, not copied."""
    n = dict(s)
    n["civs"] = dict(s["civs"])
    n["supply"] = dict(s["supply"])
    n["followers"] = [dict(f) for f in s["followers"]]
    n["tokens"] = list(s["tokens"])
    n["hands"] = [list(h) for h in s["hands"]]
    n["bag"] = list(s["bag"])
    n["removed"] = list(s["removed"])
    n["epoch_tiles"] = list(s["epoch_tiles"])
    n["points"] = [dict(p) for p in s["points"]]
    p = s.get("pending")
    if p is not None:
        n["pending"] = {
            **p,
            "old": {c: list(v) for c, v in p["old"].items()},
            "migrate": {c: list(v) for c, v in p["migrate"].items()},
            "migrated": list(p["migrated"]),
            "choice": None if p["choice"] is None else {
                k: (list(v) if isinstance(v, list) else v) for k, v in p["choice"].items()},
        }
    if s.get("last") is not None:
        n["last"] = dict(s["last"])
    return n


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

    # --- legal actions ----------------------------------------------------------------------
    def legal_actions(self, state: dict[str, Any], seat: int) -> list[str]:
        if state["phase"] == "over" or seat != state["turn"]:
            return []
        phase = state["phase"]
        if phase == "tile":
            return tile_actions(state, seat)
        if phase == "resolve":
            choice = state["pending"]["choice"] or {}
            kind = choice.get("type")
            if kind == "pay":
                return [f"pay {c}" for c in choice["options"]]
            if kind == "migrate":
                return [f"migrate {choice['civ']} {cell}" for cell in choice["options"]]
            if kind == "war":
                return [f"win {c}" for c in choice["options"]]
            return []
        if phase == "civ":
            return civ_actions(state)
        if phase == "score":
            return (["token"] if state["tokens"][seat] > 0 else []) + ["pass"]
        return []

    # --- apply ----------------------------------------------------------------------------
    def apply(self, state: dict[str, Any], seat: int, action: str
              ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        if state["phase"] == "over":
            raise IllegalAction("gheos.rule.game_over", "the game is over")
        if seat != state["turn"]:
            raise NotYourTurn("gheos.error.not_your_turn",
                              f"seat {seat} may not act now; seat {state['turn']} is to move",
                              seat=seat)
        if not isinstance(action, str) or len(action) > 60:
            raise MalformedAction("gheos.error.malformed", f"cannot read {action!r}",
                                  code=str(action)[:60])
        tokens = action.split()
        verb = tokens[0] if tokens else ""
        if verb not in VERBS:
            raise MalformedAction("gheos.error.malformed", f"unknown action {action!r}",
                                  code=action)
        phase = state["phase"]
        if verb not in PHASE_VERBS[phase]:
            raise IllegalAction("gheos.rule.wrong_step",
                                f"{verb!r} is not allowed now (step: {phase})",
                                verb=verb, step=phase)
        s = copy_state(state)
        events: list[dict[str, Any]] = []
        getattr(self, f"_do_{verb}")(s, seat, tokens, events)
        advance(s, events)
        return s, events

    # step 1 ---------------------------------------------------------------------------------
    def _do_place(self, s: dict, seat: int, tokens: list[str], events: list) -> None:
        self.put_tile(s, seat, tokens, events)

    def _do_replace(self, s: dict, seat: int, tokens: list[str], events: list) -> None:
        self.put_tile(s, seat, tokens, events)

    def put_tile(self, s: dict, seat: int, tokens: list[str], events: list) -> None:
        """Step 1 on a working copy ``s``: put the tile down and note what it starts (wars,
        migrations, the follower owed) in ``s["pending"]``; nothing is settled yet."""
        verb, tid, cell, rot = parse_put(tokens)
        check_put(s, seat, verb, tid, cell, rot)
        rot = canonical_rotation(tile(s, tid), rot)
        out = R.put_tile(s, verb, cell, tid, rot)
        if out.costs_follower and R.followers_of(s, seat) == 0:
            raise IllegalAction(
                "gheos.rule.conflict_needs_follower",
                "this placement starts a war or a migration, which costs a follower you "
                "do not have", cell=cell)
        old = s["board"][cell][0] if verb == "replace" else None
        if old is not None:
            s["removed"].append(old)
        s["hands"][seat].remove(tid)
        land = out.land
        land.store(s)
        for c, rid in out.stays.items():
            # a marker that stood on the replaced tile moves to its continent's label tile
            if s["civs"][c].split("/")[0] == cell:
                s["civs"][c] = R.anchor_of(land, land.region(rid))
        for c in out.migrations:
            s["civs"][c] = None  # lifted off the split continent until it lands
        s["last"] = {"cell": cell, "verb": verb, "seat": seat, "tile": tid}
        ev: dict[str, Any] = {"key": f"gheos.event.{verb}d", "seat": seat, "tile": tid,
                              "cell": cell, "rotation": rot * 120, "reveal": True}
        if old is not None:
            ev["old"] = old
        events.append(ev)
        for c in sorted(out.migrations, key=R.CIVILIZATIONS.index):
            events.append({"key": "gheos.event.migration", "civ": c})
        for civs in out.wars:
            events.append({"key": "gheos.event.war_starts", "civs": civs})
        s["pending"] = {
            "verb": verb, "cell": cell, "tile": tid, "pay": out.costs_follower,
            "old": out.old_parts,
            "migrate": {c: rids for c, rids in out.migrations.items()},
            "migrated": [], "choice": None,
        }
        s["phase"] = "resolve"

    # mid-move choices ------------------------------------------------------------------------
    def _choice(self, s: dict, kind: str, tokens: list[str], n: int) -> dict:
        choice = s["pending"]["choice"] or {}
        if choice.get("type") != kind:
            raise IllegalAction("gheos.rule.wrong_step", f"no {kind} choice is asked now",
                                verb=tokens[0], step=s["phase"])
        if len(tokens) != n:
            raise MalformedAction("gheos.error.malformed", f"cannot read {' '.join(tokens)!r}",
                                  code=" ".join(tokens))
        return choice

    def _do_pay(self, s: dict, seat: int, tokens: list[str], events: list) -> None:
        """War or migration costs the active player one follower of any colour, paid first."""
        choice = self._choice(s, "pay", tokens, 2)
        colour = parse_colour(tokens[1])
        if colour not in choice["options"]:
            raise IllegalAction("gheos.rule.pay_with_own_follower",
                                f"you have no {colour} follower to pay with", civ=colour)
        pay(s, seat, colour, events)

    def _do_migrate(self, s: dict, seat: int, tokens: list[str], events: list) -> None:
        choice = self._choice(s, "migrate", tokens, 3)
        colour = parse_colour(tokens[1])
        cell = tokens[2].upper()
        if colour != choice["civ"] or cell not in choice["options"]:
            raise IllegalAction(
                "gheos.rule.migrate_most_wheat",
                f"{colour} can only migrate to {', '.join(choice['options'])} "
                "(most wheat, continents before islands)",
                civ=choice["civ"], options=list(choice["options"]))
        land = Land(s)
        region = land.continent_labelled(cell)
        R.land_migration(s, land, colour, region.id, events)  # type: ignore[union-attr]
        del s["pending"]["migrate"][colour]
        s["pending"]["choice"] = None

    def _do_win(self, s: dict, seat: int, tokens: list[str], events: list) -> None:
        choice = self._choice(s, "war", tokens, 2)
        colour = parse_colour(tokens[1])
        if colour not in choice["options"]:
            raise IllegalAction(
                "gheos.rule.war_most_swords",
                f"only {', '.join(choice['options'])} (most swords) can win this war",
                options=list(choice["options"]))
        land = Land(s)
        region = land.region(land.regions[s["civs"][colour]])
        civs = [c for c in R.CIVILIZATIONS
                if s["civs"].get(c) is not None and land.regions[s["civs"][c]] == region.id]
        _, _, swords = R.war_contenders(s, land, region, civs)
        R.win_war(s, region, colour, civs, swords, events, chosen=True)
        s["pending"]["choice"] = None

    # step 2 ---------------------------------------------------------------------------------
    def _do_found(self, s: dict, seat: int, tokens: list[str], events: list) -> None:
        if len(tokens) != 3:
            raise MalformedAction("gheos.error.malformed", "use: found <colour> <cell>",
                                  code=" ".join(tokens))
        colour = parse_colour(tokens[1])
        cell = tokens[2].upper()
        if geometry.parse(cell) is None:
            raise MalformedAction("gheos.error.bad_cell", f"no cell {cell!r}", cell=cell)
        if colour in s["civs"]:
            raise IllegalAction("gheos.rule.marker_on_board",
                                f"the {colour} civilization is already on the board", civ=colour)
        land = Land(s)
        region = land.continent_labelled(cell)
        if region is None or any(land.regions[a] == region.id
                                 for a in s["civs"].values() if a is not None):
            raise IllegalAction(
                "gheos.rule.found_on_uninhabited_continent",
                f"{cell} does not name an uninhabited continent (name a continent by its "
                "first landmass tile)", cell=cell)
        R.found_civilization(s, land, seat, colour, region, events)
        s["phase"] = "score"

    def _do_take(self, s: dict, seat: int, tokens: list[str], events: list) -> None:
        if len(tokens) != 2:
            raise MalformedAction("gheos.error.malformed", "use: take <colour>",
                                  code=" ".join(tokens))
        colour = parse_colour(tokens[1])
        if colour not in R.takeable(s):
            raise IllegalAction(
                "gheos.rule.take_from_civilization_on_board",
                f"no {colour} follower can be taken (its civilization must be on the board "
                "and have a follower left)", civ=colour)
        R.give_follower(s, seat, colour)
        events.append({"key": "gheos.event.took", "seat": seat, "civ": colour})
        s["phase"] = "score"

    # step 3 ---------------------------------------------------------------------------------
    def _do_token(self, s: dict, seat: int, tokens: list[str], events: list) -> None:
        if len(tokens) != 1:
            raise MalformedAction("gheos.error.malformed", "use: token", code=" ".join(tokens))
        if s["tokens"][seat] <= 0:
            raise IllegalAction("gheos.rule.no_scoring_token", "you have no scoring token left")
        R.use_scoring_token(s, Land(s), seat, events)
        if sum(s["tokens"]) == 0:
            R.end_game(s, "tokens", events)
            return
        end_turn(s, events)

    def _do_pass(self, s: dict, seat: int, tokens: list[str], events: list) -> None:
        if len(tokens) != 1:
            raise MalformedAction("gheos.error.malformed", "use: pass", code=" ".join(tokens))
        end_turn(s, events)

    # --- views ------------------------------------------------------------------------------
    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    # --- results ------------------------------------------------------------------------------
    def scores(self, state: dict[str, Any]) -> list[list[ScoreLine]]:
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
