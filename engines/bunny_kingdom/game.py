"""Bunny Kingdom (*Королівство кроликів*, *Królestwo królików*) on the Stolik contract.

Action codes (space-separated, first token a verb; card tokens are card kinds, e.g. ``A1``,
``city_2``, ``farm_gold``, ``fisher``; identical copies are interchangeable):

- ``pick X Y`` - exploration, 3-4 players: the two cards to play (either order);
  2 players: play ``X``, discard ``Y`` face down.
- ``build camp_3 E5`` / ``keep`` - the camp offered now (lowest priority first): place it on
  an unoccupied territory, or keep it for a later round.
- ``build city_2 C3``, ``build farm_gold B2``, ``build trading_post E5``,
  ``build sky_tower C3 H7`` / ``done`` - construction (every seat that can build, at once).
- ``trade E5 fish`` - the resource a trading post gives this harvest.
- ``copy liberal fisher`` - after the final reveal: what a copy card copies.
"""

from __future__ import annotations

import random
from typing import Any

import engines.bunny_kingdom.bot as bot
import engines.bunny_kingdom.notation as notation
import engines.bunny_kingdom.rules as rules
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
from engines.bunny_kingdom.board import fiefs
from engines.bunny_kingdom.data import (
    BASIC_RESOURCES,
    CELLS,
    COORDS,
    INDEX,
    KINDS,
    LAVA,
    ROUNDS,
    TERRAIN,
    kind_of,
)
from engines.bunny_kingdom.scrolls import copy_targets
from engines.bunny_kingdom.state import State, clone, new_state

Event = dict[str, Any]

META = GameMeta(
    id="bunny_kingdom",
    min_players=2,
    max_players=4,
    simultaneous=True,
    hidden_information=True,
    rulebook="bunny_kingdom.uk.txt",
)

_LAVA_PAIRS = sorted(sorted(COORDS[i] for i in pair) for pair in LAVA)


def _malformed(action: str, why: str) -> MalformedAction:
    return MalformedAction("bunny_kingdom.error.malformed", f"cannot read {action!r}: {why}",
                           code=action)


def _cell(action: str, token: str) -> int:
    if token not in INDEX:
        raise _malformed(action, f"{token!r} is not a territory A1..J10")
    return INDEX[token]


def _kind(action: str, token: str) -> str:
    if token not in KINDS:
        raise MalformedAction("bunny_kingdom.error.unknown_card",
                              f"cannot read {action!r}: no card {token!r}", code=action,
                              card=token)
    return token


_PHASE_VERBS = {"explore": ("pick",), "camps": ("build", "keep"), "build": ("build", "done"),
                "trade": ("trade",), "copy": ("copy",), "over": ()}
#: verb -> number of arguments
_ARITY = {"pick": 2, "keep": 0, "done": 0, "trade": 2, "copy": 2}


def parse(action: str) -> tuple[str, list[str]]:
    """Check a code's shape: a known verb, the right number of known cards and cells.

    Raises :class:`MalformedAction`; whether the move is allowed now is checked later.
    """
    tokens = action.split()
    if not tokens or tokens[0] not in (*_ARITY, "build"):
        raise _malformed(action, "unknown verb")
    verb, args = tokens[0], tokens[1:]
    if verb == "build":
        if not args:
            raise _malformed(action, "build <building> <territory>")
        kind = KINDS.get(_kind(action, args[0]))
        want = 3 if args[0] == "sky_tower" else 2
        if kind is None or not kind.is_building or len(args) != want:
            raise _malformed(action, "build <building> <territory> (a sky tower: two)")
        for a in args[1:]:
            _cell(action, a)
        return verb, args
    if len(args) != _ARITY[verb]:
        raise _malformed(action, f"{verb} takes {_ARITY[verb]} argument(s)")
    if verb in ("pick", "copy"):
        for a in args:
            _kind(action, a)
    elif verb == "trade":
        _cell(action, args[0])
    return verb, args


class BunnyKingdom(Game):
    meta = META

    # --- setup ---------------------------------------------------------------------------
    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        variants = list(options.get("variants", []))
        check_players(self.meta, players, variants)
        state = new_state(players, seed, variants)
        rules.shuffle_deck(state, rng_for(state))
        rules.deal(state, [])
        return state

    # --- whose move ----------------------------------------------------------------------
    def to_act(self, state: State) -> list[int]:
        phase = state["phase"]
        n = state["players"]
        if phase == "explore":
            return [s for s in range(n) if state["picks"][s] is None]
        if phase == "camps":
            offer = rules.next_camp(state)
            return [offer[0]] if offer else []
        if phase == "build":
            return rules.builders(state)
        if phase == "trade":
            return [s for s in range(n) if rules.unchosen_posts(state, s)]
        if phase == "copy":
            return [s for s in range(n) if rules.pending_copies(state, s)]
        return []

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if phase == "explore":
            return self._pick_codes(state["hands"][seat])
        if phase == "camps":
            offer = rules.next_camp(state)
            assert offer is not None
            card = offer[1]
            return [f"build {card} {COORDS[i]}" for i in range(CELLS)
                    if state["owner"][i] < 0 and state["building"][i] is None] + ["keep"]
        if phase == "build":
            return rules.build_options(state, seat) + ["done"]
        if phase == "trade":
            return [f"trade {COORDS[i]} {r}" for i in rules.unchosen_posts(state, seat)
                    for r in BASIC_RESOURCES]
        if phase == "copy":
            return [f"copy {c} {t}" for c in rules.pending_copies(state, seat)
                    for t in copy_targets(state, seat, c)]
        return []

    @staticmethod
    def _pick_codes(hand: list[str]) -> list[str]:
        """Every ordered pair of two different cards of the hand (by kind, no repeats)."""
        kinds = [kind_of(c).id for c in hand]
        out: dict[str, None] = {}
        for i, a in enumerate(kinds):
            for j, b in enumerate(kinds):
                if i != j:
                    out[f"pick {a} {b}"] = None
        return list(out)

    # --- apply ---------------------------------------------------------------------------
    def apply(self, state: State, seat: int, action: str) -> tuple[State, list[Event]]:
        verb, args = parse(action)  # MalformedAction first: the code must make sense at all
        if seat not in self.to_act(state):
            raise NotYourTurn("bunny_kingdom.error.not_your_turn",
                              f"seat {seat} may not act now ({state['phase']})", seat=seat)
        phase = state["phase"]
        if verb not in _PHASE_VERBS[phase]:
            raise IllegalAction("bunny_kingdom.rule.wrong_phase",
                                f"{verb!r} is not a move of the {phase} phase",
                                verb=verb, phase=phase)
        new = clone(state)
        events: list[Event] = []
        if verb == "pick":
            rules.pick(new, seat, args, events)
        elif verb == "build":
            self._build(new, seat, args, events)
        elif verb == "keep":
            offer = rules.next_camp(new)
            assert offer is not None
            rules.keep_camp(new, seat, offer[1], events)
        elif verb == "done":
            new["done"][seat] = True
            events.append({"key": "bunny_kingdom.event.done", "seat": seat})
        elif verb == "trade":
            rules.choose_post(new, seat, INDEX[args[0]], args[1], events)
        else:
            rules.choose_copy(new, seat, args[0], args[1], events)
        rules.advance(new, events)
        return new, events

    @staticmethod
    def _build(state: State, seat: int, args: list[str], events: list[Event]) -> None:
        kind_id, cells = args[0], [INDEX[a] for a in args[1:]]
        if state["phase"] == "camps":
            offer = rules.next_camp(state)
            assert offer is not None
            if kind_id != offer[1]:
                raise IllegalAction("bunny_kingdom.rule.camp_order",
                                    f"camp {offer[1]} is the one offered now", card=offer[1])
            rules.place_camp(state, seat, kind_id, cells[0], events)
        elif KINDS[kind_id].category == "camp":
            raise IllegalAction("bunny_kingdom.rule.camp_order",
                                "camps are placed in priority order before the other buildings",
                                card=kind_id)
        else:
            rules.build(state, seat, kind_id, cells, events)

    # --- views ---------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        n = state["players"]
        offer = rules.next_camp(state) if state["phase"] == "camps" else None
        view: dict[str, Any] = {
            "game": "bunny_kingdom",
            "players": n,
            "round": state["round"],
            "rounds": ROUNDS,
            "phase": state["phase"],
            "step": state["step"],
            "steps": rules.steps_per_round(n),
            "direction": "left" if rules.pass_direction(state["round"]) > 0 else "right",
            "to_act": self.to_act(state),
            "board": _board_view(state),
            "posts": dict(state["posts"]),
            "deck": len(state["deck"]),
            "seats": [_seat_view(state, s) for s in range(n)],
            "last_play": [list(p) for p in state["last_play"]],
            "harvests": state["harvests"],
            "camp_offer": {"seat": offer[0], "card": offer[1]} if offer else None,
            "totals": _totals(state),
            "final": state["final"],
            "ranking": self.ranking(state) if state["phase"] == "over" else None,
        }
        if seat is not None:
            view["private"] = _private_view(state, seat, self.legal_actions(state, seat))
        return view

    # --- results -------------------------------------------------------------------------
    def scores(self, state: State) -> list[list[ScoreLine]]:
        out: list[list[ScoreLine]] = []
        for s in range(state["players"]):
            lines: list[ScoreLine] = []
            for r, record in enumerate(state["harvests"], start=1):
                scoring = [f for f in record[s] if f["points"]]
                for f in scoring:
                    lines.append(ScoreLine("bunny_kingdom.score.fief", f["points"], {
                        "round": r, "anchor": f["cells"][0], "size": len(f["cells"]),
                        "strength": f["strength"], "wealth": f["wealth"]}))
                if not scoring:
                    lines.append(ScoreLine("bunny_kingdom.score.harvest_none", 0, {"round": r}))
            for line in state["final"][s] if state["final"] else []:
                if line["kind"] is not None and line["kind"] != line["card"]:
                    lines.append(ScoreLine(f"bunny_kingdom.score.copy.{line['card']}", 0, {}))
                lines.append(ScoreLine(rules.scroll_key(line["card"], line["kind"]),
                                       line["points"], dict(line["params"])))
            out.append(lines)
        return out

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def ranking(self, state: State) -> list[list[int]]:
        """Most golden carrots first; tied players share the place (and the victory)."""
        return rank_by(self.totals(state))

    # --- descriptions --------------------------------------------------------------------
    def describe(self, state: State, action: str) -> tuple[str, dict[str, Any]]:
        tokens = action.split()
        verb, args = (tokens[0], tokens[1:]) if tokens else ("", [])
        if verb == "pick" and len(args) == 2:
            key = "bunny_kingdom.action.pick2" if state["players"] == 2 else \
                "bunny_kingdom.action.pick"
            return key, {"a": args[0], "b": args[1]}
        if verb == "build" and len(args) == 3:
            return "bunny_kingdom.action.build.sky_tower", {"a": args[1], "b": args[2]}
        if verb == "build" and len(args) == 2 and args[0] in KINDS:
            kind = KINDS[args[0]]
            if kind.category == "camp":
                return "bunny_kingdom.action.build.camp", {"coord": args[1],
                                                          "priority": kind.priority}
            return f"bunny_kingdom.action.build.{args[0]}", {"coord": args[1]}
        if verb in ("keep", "done") and not args:
            return f"bunny_kingdom.action.{verb}", {}
        if verb == "trade" and len(args) == 2:
            return f"bunny_kingdom.action.trade.{args[1]}", {"coord": args[0]}
        if verb == "copy" and len(args) == 2:
            return f"bunny_kingdom.action.copy.{args[1]}", {"card": args[0]}
        return "action.generic", {"code": action}

    # --- notation ------------------------------------------------------------------------
    def notation(self, state: State) -> str:
        """The readable position of :mod:`engines.bunny_kingdom.notation`."""
        return notation.dump(state)

    def load(self, text: str) -> State:
        return notation.load(text)

    # --- computer player -----------------------------------------------------------------
    def bot_action(self, state: State, seat: int, rng: random.Random, level: str = "normal") -> str:
        return bot.choose(self, state, seat, rng, level)


def _board_view(state: State) -> dict[str, Any]:
    return {
        "coords": list(COORDS),
        "terrain": list(TERRAIN),
        "owner": list(state["owner"]),
        "building": list(state["building"]),
        "towers": [[COORDS[a], COORDS[b]] for a, b in state["towers"]],
        "lava": _LAVA_PAIRS,
    }


def _seat_view(state: State, s: int) -> dict[str, Any]:
    """What everybody sees of seat ``s``: counts of its hidden cards, its parchments once
    they are revealed (copy step and end)."""
    revealed = state["phase"] in ("copy", "over")
    return {
        "score": state["score"][s],
        "hand": len(state["hands"][s]),
        "picked": state["phase"] == "explore" and state["picks"][s] is not None,
        "waiting": sorted(kind_of(c).id for c in state["waiting"][s]),
        "scrolls": len(state["scrolls"][s]),
        "territories": sum(1 for o in state["owner"] if o == s),
        "fiefs": len(fiefs(state, s)),
        "discard": [kind_of(c).id for c in state["discard"][s]],
        "reserve": len(state["reserves"][s]),
        "hidden_discards": len(state["hidden"][s]),
        "revealed_scrolls": sorted(state["scrolls"][s]) if revealed else None,
        "copies": dict(state["copies"][s]) if revealed else {},
    }


def _totals(state: State) -> list[int]:
    """Each seat's points: the harvests so far, and the parchments once scored."""
    totals = list(state["score"])
    if state["final"] is not None:
        totals = [totals[s] + sum(x["points"] for x in state["final"][s])
                  for s in range(state["players"])]
    return totals


def _private_view(state: State, seat: int, legal: list[str]) -> dict[str, Any]:
    """What only ``seat`` sees: its hand, pick, parchments and hidden discards."""
    pick = state["picks"][seat]
    hand = state["hands"][seat]
    # 2 players: the reserve card is drawn onto the end of the hand before each pick
    # (rules.draw_from_reserve), so until the seat picks it is the last card
    from_reserve = kind_of(hand[-1]).id if (
        state["players"] == 2 and state["phase"] == "explore" and pick is None and hand) else None
    return {
        "seat": seat,
        "hand": [kind_of(c).id for c in state["hands"][seat]],
        "pick": [kind_of(c).id for c in pick] if pick else None,
        "scrolls": sorted(state["scrolls"][seat]),
        "hidden_discards": [kind_of(c).id for c in state["hidden"][seat]],
        "waiting": sorted(kind_of(c).id for c in state["waiting"][seat]),
        "legal": legal,
        "from_reserve": from_reserve,
    }
