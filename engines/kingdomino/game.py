"""Kingdomino as a Stolik :class:`~engines.base.Game`: setup, turn order, actions, views.

Flow of one game (the rulebook's "Przygotowanie" and "Rozgrywka"):

- Setup: the stack is shuffled (2 players: 24 removed face down, 3 players: 12), the first line
  is laid out sorted by number, and the kings are drawn in random order. That is *round 0*:
  phase ``pick``, each king in drawing order does ``pick N`` on the first line. Only the
  acting king of that order is public: the rest of the drawing order stays hidden.
- Round 1..R: the picked line becomes ``current_line``, a new ``next_line`` is laid out, and
  the kings act in the order of their dominoes in the current line (lowest number first):
  ``place``/``discard`` (D1), then ``pick`` (D2) in the next line. When the stack is empty
  no next line is laid out and the round is place-only (the last round).
- Dynasty: when game 1 or 2 ends the engine records its result and sets up the next game.

State layout (plain JSON): ``phase`` is ``"pick"``, ``"place"`` or ``"over"``; ``turn``
indexes ``king_order`` in round 0 and ``current_line`` afterwards; ``deck`` (top first) and
``removed`` are hidden from every view.
"""

from __future__ import annotations

import random
from typing import Any

from engines.base import (
    BadOptions,
    Event,
    Game,
    GameMeta,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    ScoreLine,
    State,
    TieBreak,
    Variant,
    View,
    check_players,
    rng_for,
    variant_term,
)

from . import bot, notation, rules, scoring
from .data import ALL_NUMBERS, DOMINOES, terrains_text
from .geometry import bounding_box, castle_index, cell_name, parse_cell, window
from .kingdom import cells_view, empty_rows, terrain_and_crowns, with_domino
from .state import (
    acting_seat,
    copy_state,
    games_of,
    grid_of,
    is_last_round,
    rounds_of,
    size_of,
)

GAME_ID = "kingdomino"
VARIANTS = ("dynasty", "middle_kingdom", "harmony", "mighty_duel")


META = GameMeta(
    id=GAME_ID,
    min_players=2,
    max_players=4,
    variants=(
        Variant("dynasty"),
        Variant("middle_kingdom"),
        Variant("harmony"),
        Variant("mighty_duel", players=(2,)),
    ),
    simultaneous=False,
    hidden_information=False,
    rulebook="kingdomino.pl.txt",
)


def overall_tallies(state: State) -> list[scoring.Tally]:
    """Per seat: this game's tally plus, in Dynasty, the finished games' (summed)."""
    out = []
    for seat in range(state["players"]):
        now = kingdom_tally(state, seat)
        out.append(scoring.Tally(
            now.points + sum(g["points"][seat] for g in state["history"]),
            now.largest + sum(g["largest"][seat] for g in state["history"]),
            now.crowns + sum(g["crowns"][seat] for g in state["history"]),
        ))
    return out


def kingdom_tally(state: State, seat: int) -> scoring.Tally:
    kingdom = state["kingdoms"][seat]
    terrain, crowns = terrain_and_crowns(kingdom["rows"])
    return scoring.tally(
        terrain, crowns, size_of(state),
        discarded=len(kingdom["discarded"]), variants=state["variants"],
    )


def _bonus_points(state: State, terrain: str, discarded: int) -> int:
    """Points of the variant bonuses (Middle Kingdom, Harmony) in a kingdom's score."""
    lines = scoring.kingdom_lines(terrain, "", size_of(state), discarded=discarded,
                                  variants=state["variants"], props=())
    return sum(points for key, points, _ in lines if key != "kingdomino.score.property")


# --- setup and the course of a game ------------------------------------------------------
def start_game(state: State) -> list[Event]:
    """Shuffle the stack, remove the unused dominoes, draw the kings, lay out the first line."""
    players = state["players"]
    rng = rng_for(state)
    deck = list(ALL_NUMBERS)
    rng.shuffle(deck)
    unused = len(deck) - rules.dominoes_in_play(players, "mighty_duel" in state["variants"])
    removed, deck = sorted(deck[:unused]), deck[unused:]
    kings = [seat for seat in range(players) for _ in range(rules.kings_per_player(players))]
    rng.shuffle(kings)
    line, deck = rules.lay_out_line(deck, rules.line_size(players))
    state.update(
        round=0, phase="pick", turn=0, deck=deck, removed=removed, king_order=kings,
        current_line=[], next_line=[{"n": n, "king": None} for n in line],
        kingdoms=[{"rows": empty_rows(size_of(state)), "discarded": []} for _ in range(players)],
        last_placed=None,
    )
    return [line_drawn_event(state, line)]


def line_drawn_event(state: State, line: list[int]) -> Event:
    return {
        "key": "kingdomino.event.line_drawn", "round": state["round"], "line": line,
        "dominoes": ", ".join(f"{n} {terrains_text(n)}" for n in line), "reveal": True,
    }


def king_done(state: State, events: list[Event]) -> None:
    """The acting king finished its turn: pass to the next king, or end the round."""
    state["turn"] += 1
    if state["round"] == 0:
        if state["turn"] < len(state["king_order"]):
            return
    elif state["turn"] < len(state["current_line"]):
        state["phase"] = "place"
        return
    if state["round"] >= 1 and not state["next_line"]:
        end_game(state, events)
        return
    new_round(state, events)


def new_round(state: State, events: list[Event]) -> None:
    """The picked line becomes the current line; a new line is laid out if the stack allows."""
    state["current_line"] = [dict(slot, done=False) for slot in state["next_line"]]
    state["round"] += 1
    state["turn"] = 0
    state["phase"] = "place"
    if state["deck"]:
        line, state["deck"] = rules.lay_out_line(state["deck"], rules.line_size(state["players"]))
        state["next_line"] = [{"n": n, "king": None} for n in line]
        events.append(line_drawn_event(state, line))
    else:
        state["next_line"] = []
        events.append({"key": "kingdomino.event.last_round", "round": state["round"]})


def end_game(state: State, events: list[Event]) -> None:
    """Score the game; in Dynasty set up the next one until three are played."""
    tallies = [kingdom_tally(state, seat) for seat in range(state["players"])]
    points = [t.points for t in tallies]
    if state["game_no"] < games_of(state):
        state["history"].append({
            "points": points,
            "largest": [t.largest for t in tallies],
            "crowns": [t.crowns for t in tallies],
        })
        events.append({
            "key": "kingdomino.event.game_finished", "game_no": state["game_no"],
            "scores": points, "text": " / ".join(map(str, points)),
        })
        state["game_no"] += 1
        events.append({
            "key": "kingdomino.event.next_game", "game_no": state["game_no"],
            "games": games_of(state), "reveal": True,
        })
        events.extend(start_game(state))
        return
    state["phase"] = "over"
    overall = overall_tallies(state)
    totals = [t.points for t in overall]
    winners = scoring.rank(overall)[0]
    events.append({
        "key": "kingdomino.event.game_over", "scores": totals, "winners": winners,
        "text": " / ".join(map(str, totals)),
    })


# --- parsing action codes ------------------------------------------------------------------
def parse_pick(tokens: list[str]) -> int:
    if len(tokens) != 2 or not (tokens[1].isascii() and tokens[1].isdigit()):
        raise MalformedAction(
            "kingdomino.malformed.pick", "write pick and a domino number, e.g. 'pick 12'")
    return int(tokens[1])


def parse_cell_token(token: str, size: int) -> int:
    cell = parse_cell(token, size)
    if cell is not None:
        return cell
    if len(token) in (2, 3) and token.isascii() and token[0].isalpha() and token[1:].isdigit():
        raise IllegalAction(
            "kingdomino.rule.off_grid", f"cell {token} is outside the kingdom's grid",
            cell=token.upper(), last=cell_name(size * size - 1, size),
        )
    raise MalformedAction(
        "kingdomino.malformed.cell", f"{token!r} is not a cell name like C3", cell=token)


def parse_place(tokens: list[str], size: int) -> tuple[int, int]:
    if len(tokens) != 3:
        raise MalformedAction(
            "kingdomino.malformed.place", "write place and two cells, e.g. 'place C3 D3'")
    return parse_cell_token(tokens[1], size), parse_cell_token(tokens[2], size)


class Kingdomino(Game):
    meta = META

    # --- setup -----------------------------------------------------------------------
    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        variants = (options or {}).get("variants") or []
        if isinstance(variants, str) or not all(isinstance(v, str) for v in variants):
            raise BadOptions(
                "error.unknown_variant", f"variants must be a list of names, not {variants!r}",
                variant=str(variants), known=[variant_term(META.id, v) for v in VARIANTS],
            )
        variants = sorted(set(variants))
        check_players(self.meta, players, variants)
        state: State = {
            "game": GAME_ID, "seed": seed, "rng_draws": 0, "players": players,
            "variants": variants, "game_no": 1, "history": [],
        }
        start_game(state)
        return state

    # --- whose move, which moves --------------------------------------------------------
    def to_act(self, state: State) -> list[int]:
        seat = acting_seat(state)
        return [] if seat is None else [seat]

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if seat != acting_seat(state):
            return []
        if state["phase"] == "pick":
            return [f"pick {slot['n']}" for slot in state["next_line"] if slot["king"] is None]
        names = self._placements(state)
        return [f"place {a} {b}" for a, b in names] or ["discard"]

    def _placements(self, state: State) -> list[tuple[str, str]]:
        size = size_of(state)
        domino = DOMINOES[state["current_line"][state["turn"]]["n"]]
        terrain, _ = terrain_and_crowns(state["kingdoms"][acting_seat(state)]["rows"])
        return [
            (cell_name(a, size), cell_name(b, size))
            for a, b in rules.legal_placements(terrain, size, grid_of(state), domino)
        ]

    def apply(self, state: State, seat: int, action: str) -> tuple[State, list[Event]]:
        if state["phase"] == "over":
            raise NotYourTurn("kingdomino.error.game_over", "the game is over")
        acting = acting_seat(state)
        if seat != acting:
            raise NotYourTurn(
                "kingdomino.error.not_your_turn", f"seat {seat} may not act now; seat {acting} may",
                seat=seat, acting=acting,
            )
        tokens = action.split()
        verb = tokens[0].lower() if tokens else ""
        if verb == "pick":
            return self._pick(state, seat, parse_pick(tokens))
        if verb == "place":
            a, b = parse_place(tokens, size_of(state))
            return self._place(state, seat, a, b)
        if verb == "discard":
            if len(tokens) != 1:
                raise MalformedAction("kingdomino.malformed.discard", "discard takes no arguments")
            return self._discard(state, seat)
        raise MalformedAction(
            "kingdomino.malformed.verb", f"unknown action {action!r}: use pick, place or discard",
            code=action,
        )

    def _current_domino(self, state: State) -> int:
        return state["current_line"][state["turn"]]["n"]

    def _require_phase(self, state: State, phase: str) -> None:
        if state["phase"] == phase:
            return
        if phase == "pick":
            n = self._current_domino(state)
            raise IllegalAction(
                "kingdomino.rule.place_first",
                f"place (or discard) domino {n} first, then pick", n=n,
            )
        raise IllegalAction("kingdomino.rule.pick_now", "now pick a domino in the next line")

    def _pick(self, state: State, seat: int, n: int) -> tuple[State, list[Event]]:
        """D2 (and round 0): put the king on a free domino of the next line."""
        self._require_phase(state, "pick")
        slot_index = next((i for i, s in enumerate(state["next_line"]) if s["n"] == n), None)
        if slot_index is None:
            raise IllegalAction(
                "kingdomino.rule.not_in_line", f"domino {n} is not in the line to pick from",
                n=n, line=", ".join(str(s["n"]) for s in state["next_line"]),
            )
        if state["next_line"][slot_index]["king"] is not None:
            raise IllegalAction(
                "kingdomino.rule.domino_taken", f"domino {n} already has a king on it", n=n)
        new = copy_state(state)
        new["next_line"][slot_index]["king"] = seat
        event: Event = {
            "key": "kingdomino.event.picked", "seat": seat, "n": n, "terrains": terrains_text(n),
        }
        if state["round"] == 0:
            event["reveal"] = True  # the next king of the hidden drawing order shows
        events = [event]
        king_done(new, events)
        return new, events

    def _place(self, state: State, seat: int, a: int, b: int) -> tuple[State, list[Event]]:
        """D1: add the king's domino to the kingdom (zasady łączenia terenów)."""
        self._require_phase(state, "place")
        size = size_of(state)
        n = self._current_domino(state)
        domino = DOMINOES[n]
        kingdom = state["kingdoms"][seat]
        terrain, _ = terrain_and_crowns(kingdom["rows"])
        rules.check_placement(terrain, size, grid_of(state), domino, a, b)
        new = copy_state(state)
        new["kingdoms"][seat]["rows"] = with_domino(kingdom["rows"], size, domino, a, b)
        cells = [cell_name(a, size), cell_name(b, size)]
        new["last_placed"] = {"seat": seat, "n": n, "cells": cells}
        events: list[Event] = [{
            "key": "kingdomino.event.placed", "seat": seat, "n": n, "cells": cells,
            "at": f"{cells[0]}-{cells[1]}", "terrains": terrains_text(n),
        }]
        self._after_place(new, events)
        return new, events

    def _discard(self, state: State, seat: int) -> tuple[State, list[Event]]:
        """A domino that fits nowhere is discarded and scores nothing; only then."""
        self._require_phase(state, "place")
        size = size_of(state)
        n = self._current_domino(state)
        terrain, _ = terrain_and_crowns(state["kingdoms"][seat]["rows"])
        if rules.can_place(terrain, size, grid_of(state), DOMINOES[n]):
            raise IllegalAction(
                "kingdomino.rule.must_place",
                f"domino {n} can be placed, so it may not be discarded", n=n,
            )
        new = copy_state(state)
        new["kingdoms"][seat]["discarded"].append(n)
        events: list[Event] = [{"key": "kingdomino.event.discarded", "seat": seat, "n": n}]
        self._after_place(new, events)
        return new, events

    def _after_place(self, state: State, events: list[Event]) -> None:
        state["current_line"][state["turn"]]["done"] = True
        if is_last_round(state):
            king_done(state, events)
        else:
            state["phase"] = "pick"

    # --- what a seat may see -------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> View:
        size = size_of(state)
        acting = acting_seat(state)
        game_points = [kingdom_tally(state, s).points for s in range(state["players"])]
        totals = self.totals(state)
        kingdoms = []
        for s, kingdom in enumerate(state["kingdoms"]):
            terrain, _ = terrain_and_crowns(kingdom["rows"])
            r0, c0, r1, c1 = window(bounding_box(terrain, size), grid_of(state), size)
            kingdoms.append({
                "seat": s,
                "castle": cell_name(castle_index(size), size),
                "cells": cells_view(kingdom["rows"], size),
                # the cells this kingdom may still grow into, top-left and bottom-right
                "window": [cell_name(r0 * size + c0, size), cell_name(r1 * size + c1, size)],
                "discarded": list(kingdom["discarded"]),
                "score": game_points[s],
                # the part of "score" from Middle Kingdom / Harmony: it can still be lost
                # until the game ends, so the board calls it provisional
                "bonus": _bonus_points(state, terrain, len(kingdom["discarded"])),
            })
        acting_info = None
        if acting is not None:
            acting_info = {"seat": acting, "step": state["phase"], "n": None, "index": None}
            if state["round"] >= 1:
                acting_info["index"] = state["turn"]
                acting_info["n"] = self._current_domino(state)
        out: View = {
            "game": GAME_ID,
            "players": state["players"],
            "grid": grid_of(state),
            "size": size,
            "variants": list(state["variants"]),
            "phase": state["phase"],
            "to_act": self.to_act(state),
            "acting": acting_info,
            "round": state["round"],
            "rounds": rounds_of(state),
            "last_round": is_last_round(state),
            "game_no": state["game_no"],
            "games": games_of(state),
            "deck_left": len(state["deck"]),
            "kings_per_player": rules.kings_per_player(state["players"]),
            "kingdoms": kingdoms,
            # the finished game places nothing more: its board shows no "Placing now" line
            "current_line": [] if state["phase"] == "over"
            else [self._slot_view(slot) for slot in state["current_line"]],
            "next_line": [self._slot_view(slot) for slot in state["next_line"]],
            "last_placed": None if state["last_placed"] is None else dict(state["last_placed"]),
            "game_scores": game_points,
            "scores": totals,
            "dynasty_totals": totals,
            "previous_games": [list(g["points"]) for g in state["history"]],
            "ranking": self.ranking(state) if state["phase"] == "over" else None,
        }
        return out

    @staticmethod
    def _slot_view(slot: dict) -> dict:
        d = DOMINOES[slot["n"]]
        out = {"n": slot["n"], "a": list(d.half("a")), "b": list(d.half("b")),
               "king": slot["king"]}
        if "done" in slot:
            out["done"] = slot["done"]
        return out

    # --- results -------------------------------------------------------------------------
    def scores(self, state: State) -> list[list[ScoreLine]]:
        size = size_of(state)
        out = []
        for seat, kingdom in enumerate(state["kingdoms"]):
            lines: list[ScoreLine] = []
            if state["history"]:
                lines.append(ScoreLine(
                    "kingdomino.score.previous_games",
                    sum(g["points"][seat] for g in state["history"]),
                    {"games": len(state["history"])},
                ))
            terrain, crowns = terrain_and_crowns(kingdom["rows"])
            for key, points, params in scoring.kingdom_lines(
                terrain, crowns, size,
                discarded=len(kingdom["discarded"]), variants=state["variants"],
            ):
                lines.append(ScoreLine(key, points, params))
            out.append(lines)
        return out

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def ranking(self, state: State) -> list[list[int]]:
        return scoring.rank(overall_tallies(state))

    def tiebreaks(self, state: State) -> list[TieBreak]:
        """The largest property (counted even without a crown), then the most crowns."""
        tallies = overall_tallies(state)
        return [TieBreak("kingdomino.tiebreak.largest", [t.largest for t in tallies]),
                TieBreak("kingdomino.tiebreak.crowns", [t.crowns for t in tallies])]

    # --- notation and descriptions ---------------------------------------------------------
    def describe(self, state: State, action: str) -> tuple[str, dict[str, Any]]:
        tokens = action.split()
        verb = tokens[0].lower() if tokens else ""
        try:
            if verb == "pick":
                n = parse_pick(tokens)
                if n in DOMINOES:
                    return "kingdomino.action.pick", {"n": n, "terrains": terrains_text(n)}
            elif verb in ("place", "discard") and state["phase"] == "place":
                n = self._current_domino(state)
                if verb == "discard":
                    return "kingdomino.action.discard", {"n": n, "terrains": terrains_text(n)}
                size = size_of(state)
                a, b = parse_place(tokens, size)
                d = DOMINOES[n]
                return "kingdomino.action.place", {
                    "n": n, "a": cell_name(a, size), "b": cell_name(b, size),
                    "terrains": terrains_text(n),
                    "half_a": terrains_text(n).split(" | ")[0],
                    "half_b": terrains_text(n).split(" | ")[1],
                    "crowns": d.crowns,
                }
        except (MalformedAction, IllegalAction):
            pass
        return "action.generic", {"code": action}

    def notation(self, state: State) -> str:
        return notation.dump(state)

    def load(self, text: str) -> State:
        return notation.load(text)

    # --- computer player -------------------------------------------------------------------
    def bot_action(self, state: State, seat: int, rng: random.Random, level: str = "normal") -> str:
        return bot.choose(self, state, seat, rng, level)


GAME = Kingdomino()
