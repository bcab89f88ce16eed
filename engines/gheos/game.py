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
    rng_for,
)
from engines.gheos import geometry
from engines.gheos import rules as R
from engines.gheos.data import (
    EPOCH_IDS,
    LANDSCAPE_IDS,
    START_TILE,
    canonical_rotation,
    distinct_rotations,
    part_slots,
    tile,
)
from engines.gheos.regions import CONTINENT, Land, part_key

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
ROTATIONS = ("r0", "r1", "r2")


def copy_state(s: dict[str, Any]) -> dict[str, Any]:
    """A structured copy, much faster than ``copy.deepcopy``. Board entries ``[tile, rot]``
    are never changed in place, so the board dict is copied shallowly."""
    n = dict(s)
    n["board"] = dict(s["board"])
    n["regions"] = dict(s["regions"])
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


def frontier(board: dict[str, Any]) -> list[str]:
    """Free cells next to the board, in reading order: where a tile may be placed."""
    out = set()
    for cell in board:
        for nb in geometry.neighbours(cell):
            if nb is not None and nb not in board:
                out.add(nb)
    return sorted(out, key=geometry.sort_key)


def _tile_sort(tid: str) -> int:
    return int(tid[1:])


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
            return self._tile_actions(state, seat)
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
            land = Land(state)
            conts = R.uninhabited_continents(state, land)
            out = [f"found {c} {r.label}" for c in R.free_markers(state) for r in conts]
            return out + [f"take {c}" for c in R.takeable(state)]
        if phase == "score":
            return (["token"] if state["tokens"][seat] > 0 else []) + ["pass"]
        return []

    def _tile_actions(self, state: dict[str, Any], seat: int, first_only: bool = False
                      ) -> list[str]:
        hand = sorted(state["hands"][seat], key=_tile_sort)
        careful = R.followers_of(state, seat) == 0
        land = Land(state) if careful else None
        out: list[str] = []
        cells = frontier(state["board"])
        replace = sorted((c for c in state["board"] if R.replaceable(state, c)),
                         key=geometry.sort_key)
        for verb, where in (("place", cells), ("replace", replace)):
            for tid in hand:
                rots = distinct_rotations(tile(state, tid))
                for cell in where:
                    for r in rots:
                        if careful and _conflict(state, land, verb, cell, tid, r):
                            continue
                        out.append(f"{verb} {tid} {cell} r{r}")
                        if first_only:
                            return out
        return out

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
        _advance(s, events)
        return s, events

    # step 1 ---------------------------------------------------------------------------------
    def _do_place(self, s: dict, seat: int, tokens: list[str], events: list) -> None:
        self._put(s, seat, tokens, events)

    def _do_replace(self, s: dict, seat: int, tokens: list[str], events: list) -> None:
        self._put(s, seat, tokens, events)

    def _put(self, s: dict, seat: int, tokens: list[str], events: list) -> None:
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
            "old": {c: ks for c, ks in out.old_parts.items()
                    if c in out.migrations or any(c in w for w in out.wars)},
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
        colour = _colour(tokens[1])
        if colour not in choice["options"]:
            raise IllegalAction("gheos.rule.pay_with_own_follower",
                                f"you have no {colour} follower to pay with", civ=colour)
        _pay(s, seat, colour, events)

    def _do_migrate(self, s: dict, seat: int, tokens: list[str], events: list) -> None:
        choice = self._choice(s, "migrate", tokens, 3)
        colour = _colour(tokens[1])
        cell = tokens[2].upper()
        if colour != choice["civ"] or cell not in choice["options"]:
            raise IllegalAction(
                "gheos.rule.migrate_most_wheat",
                f"{colour} can only migrate to {', '.join(choice['options'])} "
                "(most wheat, continents before islands)",
                civ=choice["civ"], options=", ".join(choice["options"]))
        land = Land(s)
        region = land.continent_labelled(cell)
        R.land_migration(s, land, colour, region.id, events)  # type: ignore[union-attr]
        del s["pending"]["migrate"][colour]
        s["pending"]["choice"] = None

    def _do_win(self, s: dict, seat: int, tokens: list[str], events: list) -> None:
        choice = self._choice(s, "war", tokens, 2)
        colour = _colour(tokens[1])
        if colour not in choice["options"]:
            raise IllegalAction(
                "gheos.rule.war_most_swords",
                f"only {', '.join(choice['options'])} (most swords) can win this war",
                options=", ".join(choice["options"]))
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
        colour = _colour(tokens[1])
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
        colour = _colour(tokens[1])
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
        _end_turn(s, events)

    def _do_pass(self, s: dict, seat: int, tokens: list[str], events: list) -> None:
        if len(tokens) != 1:
            raise MalformedAction("gheos.error.malformed", "use: pass", code=" ".join(tokens))
        _end_turn(s, events)

    # --- views ------------------------------------------------------------------------------
    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        from engines.gheos.views import build_view

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
        key = {s: (totals[s], R.followers_of(state, s)) for s in range(state["players"])}
        groups: list[list[int]] = []
        for s in sorted(key, key=lambda s: key[s], reverse=True):
            if groups and key[groups[-1][0]] == key[s]:
                groups[-1].append(s)
            else:
                groups.append([s])
        return groups

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
                return f"gheos.action.{verb}", {"civ": _colour(tokens[1])}
            if verb == "migrate" and len(tokens) == 3:
                return "gheos.action.migrate", {"civ": _colour(tokens[1]), "cell": tokens[2]}
            if verb == "found" and len(tokens) == 3:
                land = Land(state)
                region = land.continent_labelled(tokens[2].upper())
                wheat = region.counts["wheat"] if region else 0
                return "gheos.action.found", {"civ": _colour(tokens[1]), "cell": tokens[2],
                                              "followers": min(wheat, 5)}
            if verb == "token":
                pts = R.follower_points(state, Land(state), state["turn"], "chalice")
                return "gheos.action.token", {"points": pts}
            if verb == "pass":
                return "gheos.action.pass", {}
        except (MalformedAction, KeyError, ValueError):
            pass
        return "action.generic", {"code": action}

    # --- computer player ------------------------------------------------------------------------
    def bot_action(self, state: dict[str, Any], seat: int, rng: random.Random) -> str:
        from engines.gheos.bot import choose

        return choose(self, state, seat, rng)


# --- parsing -------------------------------------------------------------------------------
def _colour(token: str) -> str:
    c = token.lower()
    if c not in R.CIVILIZATIONS:
        raise MalformedAction("gheos.error.bad_colour", f"no civilization colour {token!r}",
                              colour=token)
    return c


def parse_put(tokens: list[str]) -> tuple[str, str, str, int]:
    """``place T17 M30 r1`` -> ("place", "T17", "M30", 1)."""
    if len(tokens) != 4:
        raise MalformedAction("gheos.error.malformed",
                              f"use: {tokens[0] if tokens else 'place'} <tile> <cell> <r0|r1|r2>",
                              code=" ".join(tokens))
    verb, tid, cell, rot = tokens[0], tokens[1].upper(), tokens[2].upper(), tokens[3].lower()
    if rot not in ROTATIONS:
        raise MalformedAction("gheos.error.bad_rotation", f"rotation must be r0, r1 or r2, "
                              f"not {rot!r}", rotation=rot)
    if geometry.parse(cell) is None:
        raise MalformedAction("gheos.error.bad_cell", f"no cell {cell!r} on the table", cell=cell)
    return verb, tid, cell, int(rot[1])


def check_put(s: dict, seat: int, verb: str, tid: str, cell: str, rot: int) -> None:
    """Step 1's rules, apart from the follower needed for a war or migration."""
    if tid not in s["hands"][seat]:
        raise IllegalAction("gheos.rule.tile_not_in_hand", f"{tid} is not in your hand",
                            tile=tid)
    if verb == "place":
        if cell in s["board"]:
            raise IllegalAction("gheos.rule.cell_taken",
                                f"{cell} already holds a tile (use replace)", cell=cell)
        if not any(nb in s["board"] for nb in geometry.neighbours(cell) if nb):
            raise IllegalAction("gheos.rule.must_touch_board",
                                f"{cell} does not touch the board", cell=cell)
    else:
        if cell not in s["board"]:
            raise IllegalAction("gheos.rule.nothing_to_replace", f"{cell} is empty", cell=cell)
        if not R.replaceable(s, cell):
            raise IllegalAction("gheos.rule.pyramid_cannot_be_replaced",
                                f"the tile on {cell} has a pyramid and cannot be replaced",
                                cell=cell)


def _conflict(s: dict, land: Land, verb: str, cell: str, tid: str, rot: int) -> bool:
    """Would this placement start a war or a migration? (only asked for a player with no
    follower to pay with)"""
    if verb == "replace":
        return R.put_tile(s, verb, cell, tid, rot).costs_follower
    inhabited = {land.regions[a] for a in s["civs"].values() if a is not None}
    if len(inhabited) < 2:
        return False
    # the new tile's parts link the regions they touch; a region touched by two parts
    # links those parts too, so group the touched regions transitively
    groups: list[set[int]] = []
    t = tile(s, tid)
    for slots in part_slots(t, rot):
        touched = set()
        for slot in slots:
            other = land.across(cell, slot)
            if other is not None:
                touched.add(land.regions[other])
        merged = [g for g in groups if g & touched]
        for g in merged:
            touched |= g
            groups.remove(g)
        groups.append(touched)
    return any(len(g & inhabited) > 1 for g in groups)


# --- automatic steps ----------------------------------------------------------------------
def _pay(s: dict, seat: int, colour: str, events: list) -> None:
    R.return_follower(s, seat, colour)
    s["pending"]["pay"] = False
    s["pending"]["choice"] = None
    events.append({"key": "gheos.event.paid", "seat": seat, "civ": colour})


def _resolve(s: dict, events: list) -> bool:
    """Settle the placement: payment, migrations, wars. False while a choice is awaited."""
    p = s["pending"]
    if p["choice"] is not None:
        return False
    seat = s["turn"]
    if p["pay"]:
        held = [c for c in R.CIVILIZATIONS if s["followers"][seat].get(c)]
        if len(held) > 1:
            p["choice"] = {"type": "pay", "options": held}
            return False
        _pay(s, seat, held[0], events)
    land = Land(s)
    for colour in sorted(p["migrate"], key=R.CIVILIZATIONS.index):
        dests = R.migration_destinations(land, p["migrate"][colour])
        if not dests:
            R.eliminate(s, colour, events, "island")
            del p["migrate"][colour]
            continue
        if len(dests) > 1:
            p["choice"] = {"type": "migrate", "civ": colour,
                           "options": [land.region(r).label for r in dests]}
            return False
        R.land_migration(s, land, colour, dests[0], events)
        del p["migrate"][colour]
    for region, civs in R.war_fronts(s, land):
        tied, _, swords = R.war_contenders(s, land, region, civs)
        if len(tied) > 1:
            p["choice"] = {"type": "war", "civs": civs, "options": tied, "cell": region.label}
            return False
        R.win_war(s, region, tied[0], civs, swords, events, chosen=False)
    return True


def _temple(s: dict, events: list) -> None:
    """A temple placed this turn scores once the wars and migrations are settled."""
    p = s["pending"]
    land = Land(s)
    got = R.temple_points(s, land, p["cell"])
    if got is None:
        return
    symbol, pts = got
    seat = s["turn"]
    R.add_points(s, seat, "temple", pts)
    events.append({"key": "gheos.event.temple", "seat": seat, "symbol": symbol,
                   "points": pts, "cell": p["cell"]})


def _end_turn(s: dict, events: list) -> None:
    seat = s["turn"]
    if R.draw_tiles(s, seat, events):
        R.end_game(s, "epochs", events)
        return
    if not any(s["hands"]):
        R.end_game(s, "tiles", events)  # cannot happen with 8 epoch tiles in the bag
        return
    s["turn"] = (seat + 1) % s["players"]
    s["turn_no"] += 1
    s["phase"] = "tile"


def _advance(s: dict, events: list) -> None:
    """Run the steps that need no decision until a player must choose or the game ends."""
    game = GAME_FOR_ADVANCE
    while True:
        phase = s["phase"]
        if phase == "resolve":
            if not _resolve(s, events):
                return
            _temple(s, events)
            s["pending"] = None
            s["phase"] = "civ"
        elif phase == "civ":
            if game.legal_actions(s, s["turn"]):
                return
            events.append({"key": "gheos.event.no_civ_action", "seat": s["turn"]})
            s["phase"] = "score"
        elif phase == "score":
            if s["tokens"][s["turn"]] > 0:
                return
            _end_turn(s, events)
        elif phase == "tile":
            if game._tile_actions(s, s["turn"], first_only=True):
                s.pop("stalled", None)
                return
            # no tile in hand, or every placement would cost a follower the player lacks
            events.append({"key": "gheos.event.no_tile_action", "seat": s["turn"]})
            s["stalled"] = s.get("stalled", 0) + 1
            if s["stalled"] > s["players"]:
                R.end_game(s, "tiles", events)  # nobody can place any more: a safety net
                return
            s["phase"] = "civ"
        else:
            return


GAME = Gheos()
GAME_FOR_ADVANCE = GAME

__all__ = ["GAME", "Gheos", "copy_state", "frontier", "part_key", "CONTINENT"]
