"""Building positions for Bunny Kingdom tests without playing a whole draft."""

from __future__ import annotations

import random
from typing import Any

from engines.bunny_kingdom import GAME
from engines.bunny_kingdom.data import CELLS, DECK, INDEX, START_CITIES

State = dict[str, Any]


def fresh(players: int = 3, seed: int = 1) -> State:
    """A new game, just dealt."""
    return GAME.setup(players, {}, seed)


def board_only(players: int = 3) -> State:
    """A game whose cards are all in the deck and whose board is empty but for the cities:
    a blank table to put pieces on by hand."""
    state = fresh(players)
    state["deck"] = list(DECK)
    for key in ("hands", "reserves", "waiting", "scrolls", "discard", "hidden", "last_play"):
        state[key] = [[] for _ in range(players)]
    state["picks"] = [None] * players
    state["owner"] = [-1] * CELLS
    state["building"] = [None] * CELLS
    for cell in START_CITIES:
        state["building"][cell] = "city_1"
    return state


def take_card(state: State, card: str) -> str:
    """Remove a card (by id or kind) from the deck and return its id."""
    for c in state["deck"]:
        if c == card or c.split("#")[0] == card:
            state["deck"].remove(c)
            return c
    raise KeyError(card)


def own(state: State, seat: int, *coords: str) -> None:
    """Put the seat's rabbit on the cells (playing their territory cards)."""
    for coord in coords:
        state["owner"][INDEX[coord]] = seat
        state["discard"][seat].append(take_card(state, coord))


def put(state: State, coord: str, building: str) -> None:
    """Stand a building on a cell (as if built from a card)."""
    state["building"][INDEX[coord]] = building


def tower(state: State, a: str, b: str) -> None:
    put(state, a, "sky_tower")
    put(state, b, "sky_tower")
    state["towers"].append([INDEX[a], INDEX[b]])


def give_scrolls(state: State, seat: int, *kinds: str) -> None:
    for kind in kinds:
        state["scrolls"][seat].append(take_card(state, kind))


def give_waiting(state: State, seat: int, *kinds: str) -> list[str]:
    cards = [take_card(state, kind) for kind in kinds]
    state["waiting"][seat].extend(cards)
    return cards


def all_cards(state: State) -> list[str]:
    """Every card of the state, wherever it is (for the conservation invariant)."""
    cards = list(state["deck"])
    for key in ("hands", "reserves", "waiting", "scrolls", "discard", "hidden"):
        for pile in state[key]:
            cards.extend(pile)
    for pick in state["picks"]:
        cards.extend(pick or [])
    return cards


def play_to_end(players: int, seed: int, *, bot: bool = True,
                check: Any = None) -> tuple[State, list[tuple[int, str]]]:
    """Play a whole game by the computer player (or random legal moves); returns the final
    state and the action log. ``check(before, after, seat, action, events)`` runs each step."""
    state = GAME.setup(players, {}, seed)
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    while not GAME.is_over(state):
        acting = GAME.to_act(state)
        seat = rng.choice(acting)
        pick = GAME.bot_action if bot else _random_legal
        action = pick(state, seat, rng)
        new, events = GAME.apply(state, seat, action)
        if check:
            check(state, new, seat, action, events)
        log.append((seat, action))
        state = new
    return state, log


def _random_legal(state: State, seat: int, rng: random.Random) -> str:
    return rng.choice(GAME.legal_actions(state, seat))


def replay(players: int, seed: int, log: list[tuple[int, str]]) -> State:
    state = GAME.setup(players, {}, seed)
    for seat, action in log:
        state, _ = GAME.apply(state, seat, action)
    return state
