"""Dwóch następców (The Two Heirs) on the Stolik engine contract."""

from __future__ import annotations

import random
from typing import Any

import engines.dwoch_nastepcow.actions as actions
import engines.dwoch_nastepcow.bot as bot
import engines.dwoch_nastepcow.notation as notation
import engines.dwoch_nastepcow.scoring as scoring
from engines.base import (
    BadOptions,
    Game,
    GameMeta,
    NotYourTurn,
    ScoreLine,
    State,
    TieBreak,
    Variant,
    View,
    check_players,
    rng_for,
)
from engines.dwoch_nastepcow.data import DEFAULT_SETS, SETS, TILES, tiles_of_sets
from engines.dwoch_nastepcow.geometry import START
from engines.dwoch_nastepcow.state import RESERVE_SLOTS, copy_state, new_turn
from engines.dwoch_nastepcow.view import build_view

GAME_ID = "dwoch_nastepcow"
#: "first game" advice of the rulebook: roads score nothing
NO_ROADS = "no_roads"
#: choosing the three sets: pick exactly three of these (none = the recommended three)
SET_VARIANT = "set_"


class DwochNastepcow(Game):
    meta = GameMeta(
        id=GAME_ID,
        min_players=2,
        max_players=2,
        variants=(Variant(NO_ROADS),) + tuple(Variant(SET_VARIANT + s) for s in SETS),
        simultaneous=False,
        hidden_information=True,
        rulebook="rules/dwoch_nastepcow.pl.txt",
    )

    # --- setup -----------------------------------------------------------------------------
    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        """Przygotowanie gry: three sets shuffled into the common stack; six tiles face up
        clockwise from the shield; the next tile face down in the middle with both retinue
        troops on it; two troops each in the reserve; the shield tossed for the first player.
        """
        variants = list(options.get("variants", []))
        check_players(self.meta, players, variants)
        sets = choose_sets(options, variants)
        state: State = {
            "game": GAME_ID,
            "seed": seed,
            "rng_draws": 0,
            "players": players,
            "sets": sets,
            "roads_scored": NO_ROADS not in variants,
        }
        ids = tiles_of_sets(sets)
        state["tiles"] = {i: dict(TILES[i]) for i in ids}
        rng = rng_for(state)
        rng.shuffle(ids)
        first = rng.randrange(2)  # the shield tossed like a coin: its crown begins
        state["reserve"] = [None] + ids[:RESERVE_SLOTS - 1]
        state["shield"] = 0
        start = ids[RESERVE_SLOTS - 1]
        state["stack"] = ids[RESERVE_SLOTS:]
        state["landscape"] = {
            START: {"tile": start, "face": "down", "owner": None,
                    "used": False, "destroyed": False}}
        state["troops"] = [
            [{"kind": "retinue", "at": START, "moved": False},
             {"kind": "normal", "at": None, "moved": False},
             {"kind": "normal", "at": None, "moved": False}]
            for _ in range(2)
        ]
        state["hands"] = [[], []]
        state["removed"] = []
        state["first"] = first
        state["current"] = first
        state["phase"] = "turn"
        state["turn"] = new_turn(1)
        state["pending"] = None
        state["final_turns"] = None
        return state

    # --- whose move, which moves -------------------------------------------------------------
    def to_act(self, state: State) -> list[int]:
        return [] if state["phase"] == "over" else [state["current"]]

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        return actions.legal(state, seat)

    def apply(self, state: State, seat: int, action: str) -> tuple[State, list[dict]]:
        verb, args = actions.parse(state, action)
        if seat not in self.to_act(state):
            raise NotYourTurn("dwoch_nastepcow.error.not_your_turn",
                              f"seat {seat} may not act now", seat=seat)
        new = copy_state(state)
        events = actions.perform(new, seat, verb, args)
        # the public log line: a game with hands gets no generic "X played Y" from the host,
        # and describe() never names a tile laid face down or returned to the box
        key, params = actions.describe(state, action)
        played = {"key": "dwoch_nastepcow.event.played", "seat": seat, "action": (key, params)}
        return new, [played, *events]

    # --- views ------------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> View:
        return build_view(state, seat)

    # --- results ----------------------------------------------------------------------------
    def scores(self, state: State) -> list[list[ScoreLine]]:
        return scoring.score_lines(state)

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def ranking(self, state: State) -> list[list[int]]:
        return scoring.ranking(state)

    def tiebreaks(self, state: State) -> list[TieBreak]:
        """More troops in the royal reserve; still tied, the place is shared."""
        return [TieBreak("dwoch_nastepcow.tiebreak.reserve",
                         [scoring.troops_in_reserve(state, s) for s in (0, 1)])]

    def describe(self, state: State, action: str) -> tuple[str, dict[str, Any]]:
        return actions.describe(state, action)

    def notation(self, state: State) -> str:
        """The position in a few readable lines (:mod:`engines.dwoch_nastepcow.notation`)."""
        return notation.dump(state)

    def load(self, text: str) -> State:
        return notation.load(text)

    def bot_action(self, state: State, seat: int, rng: random.Random,
                   level: str = "normal") -> str:
        return bot.choose(state, seat, rng, level)


def choose_sets(options: dict[str, Any], variants: list[str]) -> list[str]:
    """The three sets in play: ``options["sets"]``, else three ``set_*`` variants, else the
    rulebook's recommendation for a first game (Travel, Lands & Industry, Trade & Church).
    """
    chosen = list(options.get("sets") or [
        v[len(SET_VARIANT):] for v in variants if v.startswith(SET_VARIANT)])
    if not chosen:
        return list(DEFAULT_SETS)
    if len(set(chosen)) != 3 or any(s not in SETS for s in chosen):
        raise BadOptions("dwoch_nastepcow.error.three_sets",
                         f"choose exactly 3 different sets of {', '.join(SETS)}: {chosen}",
                         chosen=", ".join(chosen), sets=", ".join(SETS))
    return [s for s in SETS if s in chosen]

