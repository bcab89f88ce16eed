"""A computer heir: greedy one action at a time over the score margin plus what the board
promises, so it uses every mechanism of every set.

Each candidate action is applied to a copy and valued by :func:`promise.value` (the score
margin now plus what each side's board promises). A build that raises a siege is valued
with its best destroy (or spare). Open terrain is laid when the discount lets a building be built this
turn, when it scores by itself (a colour area, a Craft layout, an Inn line) or instead of a
tile the hand limit would throw away.

Order of thought in a turn: build while a build gains (before taking: a tile in reach gives
its resource); take the tile with the best build to come (one it cannot afford yet at a
share per missing resource) less what it leaves the rival: the take moves the royal shield
to the taken slot, so it decides which tiles the rival reaches next, and the rival's best of
them (the same estimate, from the rival's side) counts against it; the rival's take of that
tile moves the shield again, and half of the bot's own best tile then in reach counts for
it (the slot the rival empties is refilled with a tile drawn at random from those the bot
cannot see: the stack and the rival's hand are one pool to it); lay open terrain as
above; move a troop when that makes a building affordable or doubles one; turn a Camp when
the extra take is worth more than the Camp's 2 points (valued as a take is, so a tile built
next turn counts too); end the turn.

Levels: ``normal`` as above; ``easy`` looks at a few cells per tile, takes at random and
never plans sieges or terrain, so a new player can beat it.
"""

from __future__ import annotations

import random

import engines.dwoch_nastepcow.actions as actions
import engines.dwoch_nastepcow.reserve as reserve
import engines.dwoch_nastepcow.rules as rules
import engines.dwoch_nastepcow.scoring as scoring
from engines.base import State
from engines.dwoch_nastepcow.promise import value
from engines.dwoch_nastepcow.reserve import tiles_in_reach
from engines.dwoch_nastepcow.state import HAND_LIMIT, copy_state, opponent

LEVELS = ("easy", "normal")
#: cells tried per tile when the easy level looks for a build
EASY_CELLS_PER_TILE = 3
#: cells tried per tile when valuing what a take would let the bot build
TAKE_CELLS_PER_TILE = 8
#: troop moves tried before a build, and how much more the build after one must gain
MOVES_TRIED, MOVE_MARGIN = 6, 1.0
#: the worth of a tile kept in hand (a building later) against laying it as terrain
TILE_IN_HAND = 1.5
#: a tile the bot cannot afford yet: the share of its build's worth kept per missing
#: resource, and what each missing resource costs besides
LATER_SHARE, SHORT_COST = 0.8, 0.3
#: weight of what the rival's best tile in reach would bring it, once the take has moved
#: the shield (the take decides which tiles the rival can reach)
DENY = 1.0
#: weight of the bot's own best tile in reach once the rival has made that take in turn
#: (the rival's take moves the shield again and refills a slot from the hidden stack)
NEXT = 0.5


def choose(state: State, seat: int, rng: random.Random, level: str = "normal") -> str:
    """The bot's action. A failure raises (the session's call site decides what a game does
    when its computer player breaks; a silent fallback would hide the bug)."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}")
    legal = actions.legal(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal action (phase {state['phase']})")
    if len(legal) == 1:
        return legal[0]
    phase = state["phase"]
    if phase == "siege":
        return _best(state, seat, legal, rng)[1]
    if phase == "discard":
        return _discard(state, seat, rng)
    by_verb: dict[str, list[str]] = {}
    for code in legal:
        by_verb.setdefault(code.split()[0], []).append(code)
    if level == "easy":
        return _easy_turn(state, seat, legal, by_verb, rng)

    # build before taking: a tile still in the reserve within reach gives its resource
    builds = by_verb.get("build", [])
    troop_moves = by_verb.get("move", []) + by_verb.get("deploy", []) + by_verb.get(
        "withdraw", [])
    if builds:
        gain, code = _best(state, seat, builds, rng)
        if gain >= 0:
            better = _reposition(state, seat, troop_moves, gain, rng)
            return better if better is not None else code

    takes = by_verb.get("take", [])
    if takes:
        return _take(state, seat, takes, rng)

    terrain = _terrain(state, seat, by_verb.get("terrain", []), rng)
    if terrain is not None:
        return terrain

    if troop_moves:
        move = _troop_move(state, seat, troop_moves, rng)
        if move is not None:
            return move

    camps = by_verb.get("camp", [])
    if camps:
        camp = _camp(state, seat, camps, rng)
        if camp is not None:
            return camp
    if "end" in legal:
        return "end"
    raise ValueError(f"no bot decision among {legal[:5]}...")


# --- valuing a position ------------------------------------------------------------------------
def _after(state: State, seat: int, code: str) -> State:
    new = copy_state(state)
    verb, args = actions.parse(new, code)
    actions.perform(new, seat, verb, args)
    return new


def _outcome(state: State, seat: int, code: str) -> float:
    """Value after ``code``; a build that raises a siege is valued with its best answer."""
    new = _after(state, seat, code)
    if new["phase"] == "siege":
        return max(value(_after(new, seat, c), seat) for c in actions.legal(new, seat))
    return value(new, seat)


def _best(state: State, seat: int, codes: list[str], rng: random.Random) -> tuple[float, str]:
    base = value(state, seat)
    scored = [(_outcome(state, seat, c) - base, rng.random(), c) for c in codes]
    gain, _, code = max(scored)
    return gain, code


# --- the parts of a turn -----------------------------------------------------------------------
def _take(state: State, seat: int, takes: list[str], rng: random.Random) -> str:
    """The tile whose best build (now, with what the take leaves in reach) gains most, less
    what the rival's best tile in reach then brings it; a tile that cannot be built yet is
    worth a share of its build per missing resource, less the shortfall."""
    base = value(state, seat)
    best: tuple[float, float, str] | None = None
    for code in takes:
        after = _after(state, seat, code)
        worth = _own_take_worth(state, seat, code, base, rng, after)
        if DENY:
            rival_gain, rival_tile = _best_pick(after, opponent(seat), rng)
            worth -= DENY * rival_gain
            if NEXT and rival_tile is not None:
                replied = rival_takes(after, seat, rival_tile, rng)
                worth += NEXT * _best_pick(replied, seat, rng)[0]
        candidate = (worth, rng.random(), code)
        if best is None or candidate > best:
            best = candidate
    assert best is not None
    return best[2]


def _own_take_worth(state: State, seat: int, code: str, base: float, rng: random.Random,
                    after: State | None = None) -> float:
    """What the take brings the bot itself: its tile's best build now, or a share of the
    build to come per missing resource, less the shortfall."""
    tile_id = code.split()[1]
    if after is None:
        after = _after(state, seat, code)
    builds = [c for c in actions.legal(after, seat) if c.startswith(f"build {tile_id} ")]
    if builds:
        if len(builds) > TAKE_CELLS_PER_TILE:
            builds = rng.sample(builds, TAKE_CELLS_PER_TILE)
        return max(_outcome(after, seat, c) for c in builds) - base
    have = rules.available_resources(after, seat)
    short = rules.shortfall(state["tiles"][tile_id]["cost"], have)
    later = _unpaid_build(after, seat, tile_id, rng) - base
    return LATER_SHARE ** short * max(0.0, later) - SHORT_COST * short


def _best_pick(state: State, who: int, rng: random.Random) -> tuple[float, str | None]:
    """What ``who``'s best tile in reach (where the shield now stands) would bring ``who``
    (its build's worth, a share per missing resource; never below 0), and that tile (None
    only when nothing is in reach: a take that gains nothing is still made)."""
    base = value(state, who)
    have = rules.available_resources(state, who)
    best: tuple[float, str | None] = (float("-inf"), None)
    for tile_id in tiles_in_reach(state, who):
        short = rules.shortfall(state["tiles"][tile_id]["cost"], have)
        gain = LATER_SHARE ** short * (_unpaid_build(state, who, tile_id, rng) - base)
        if best[1] is None or gain > best[0]:
            best = (gain, tile_id)
    return max(0.0, best[0]), best[1]


def rival_takes(state: State, seat: int, tile_id: str, rng: random.Random) -> State:
    """``state`` after the rival takes ``tile_id``; the slot it frees is refilled with a
    tile drawn at random from those the bot cannot see (the stack and the rival's hand are
    one pool to it), so the bot never reads the hidden order of the stack."""
    new = copy_state(state)
    rival = opponent(seat)
    stack, hand = new["stack"], new["hands"][rival]
    if stack:  # the tiles still to come stay the same; only the one drawn is chosen
        k = rng.randrange(len(stack) + len(hand))
        if k < len(stack):
            stack.insert(0, stack.pop(k))
        else:
            k -= len(stack)
            stack[0], hand[k] = hand[k], stack[0]
    reserve.take_tile(new, rival, tile_id)
    return new


def _terrain(state: State, seat: int, codes: list[str], rng: random.Random) -> str | None:
    """Open terrain that pays: it enables a build now, scores by itself, or uses a tile
    the hand limit would discard anyway."""
    if not codes:
        return None
    hand = state["hands"][seat]
    have = rules.available_resources(state, seat)
    discounts = state["turn"]["discounts"]
    short = {t: rules.shortfall(state["tiles"][t]["cost"], have) for t in hand}
    wanted = {t for t in hand if short[t] == discounts + 1}
    spare_tiles = len(hand) > HAND_LIMIT or _last_turn(state)
    base = value(state, seat)
    best: tuple[float, float, str] | None = None
    for code in codes:
        tile_id = code.split()[1]
        if tile_id in wanted and len(wanted) == 1:
            continue  # the tile to be built is not the one to lay down
        gain = value(_after(state, seat, code), seat) - base
        if wanted:
            gain += TILE_IN_HAND  # the discount lets a wanted building be built
        if not spare_tiles:
            gain -= TILE_IN_HAND * (1 if short[tile_id] <= discounts + 1 else 0.5)
        candidate = (gain, rng.random(), code)
        if best is None or candidate > best:
            best = candidate
    if best is not None and best[0] > 0:
        return best[2]
    return None


def _unpaid_build(state: State, seat: int, tile_id: str, rng: random.Random) -> float:
    """The best value of building ``tile_id`` from hand as if it were paid for: what the
    tile promises once the resources are there."""
    cells = rules.placement_cells(state, seat)
    if len(cells) > TAKE_CELLS_PER_TILE:
        cells = rng.sample(cells, TAKE_CELLS_PER_TILE)
    best = float("-inf")
    for cell in cells:
        new = copy_state(state)
        if tile_id in new["hands"][seat]:
            new["hands"][seat].remove(tile_id)
        else:  # still in the royal reserve
            new["reserve"][new["reserve"].index(tile_id)] = None
        new["landscape"][cell] = {
            "tile": tile_id, "face": "up", "owner": seat, "used": False, "destroyed": False}
        best = max(best, value(new, seat))
    return best


def _reposition(state: State, seat: int, moves: list[str], direct: float,
                rng: random.Random) -> str | None:
    """A troop move first, when the build it opens (new cells next to the troop, a doubled
    building, other resources) beats the best build now by a clear margin."""
    if not moves:
        return None
    base = value(state, seat)
    best: tuple[float, str] | None = None
    for code in rng.sample(moves, min(len(moves), MOVES_TRIED)):
        after = _after(state, seat, code)
        builds = [c for c in actions.legal(after, seat) if c.startswith("build ")]
        if not builds:
            continue
        gain = max(_outcome(after, seat, c) for c in _sample_per_tile(builds, rng)) - base
        if best is None or gain > best[0]:
            best = (gain, code)
    if best is not None and best[0] > direct + MOVE_MARGIN:
        return best[1]
    return None


def _sample_per_tile(codes: list[str], rng: random.Random) -> list[str]:
    by_tile: dict[str, list[str]] = {}
    for code in codes:
        by_tile.setdefault(code.split()[1], []).append(code)
    return [c for options in by_tile.values()
            for c in rng.sample(options, min(len(options), TAKE_CELLS_PER_TILE))]


def _camp(state: State, seat: int, camps: list[str], rng: random.Random) -> str | None:
    """Turn a Camp (losing its 2 points, 4 if doubled) only when the extra take is worth
    more than that, valued as a take is: its build now, or a share of the build to come per
    missing resource (a tile built next turn counts too, not only one built now)."""
    base = value(state, seat)
    after = _after(state, seat, camps[0])
    turned = value(after, seat)  # the Camp's points are gone
    gains = [_own_take_worth(after, seat, code, turned, rng)
             for code in actions.legal(after, seat) if code.startswith("take ")]
    return camps[0] if gains and max(gains) + turned - base > 0 else None


def _last_turn(state: State) -> bool:
    """The mover's final turn (once the stack has run out each heir has one more turn):
    tiles left in hand are worth nothing afterwards."""
    return state["final_turns"] is not None


def _troop_move(state: State, seat: int, moves: list[str], rng: random.Random) -> str | None:
    """A troop move that makes a building in hand affordable, else one that gains points
    (a troop doubling an own building)."""
    hand = state["hands"][seat]
    if hand:
        have = rules.available_resources(state, seat)
        discounts = state["turn"]["discounts"]
        if all(rules.shortfall(state["tiles"][t]["cost"], have) > discounts for t in hand):
            enabling = []
            for code in moves:
                after = _after(state, seat, code)
                builds = [c for c in actions.legal(after, seat) if c.startswith("build ")]
                if builds:
                    enabling.append((_best(after, seat, builds, rng)[0], rng.random(), code))
            if enabling:
                return max(enabling)[2]
    gain, code = _best(state, seat, moves, rng)
    return code if gain > 0 else None


def _discard(state: State, seat: int, rng: random.Random) -> str:
    """Throw away the tile furthest from being affordable."""
    have = rules.available_resources(state, seat)
    hand = sorted(state["hands"][seat],
                  key=lambda t: (-rules.shortfall(state["tiles"][t]["cost"], have),
                                 rng.random()))
    return f"discard {hand[0]}"


def _easy_turn(state: State, seat: int, legal: list[str], by_verb: dict[str, list[str]],
               rng: random.Random) -> str:
    """A beginner: a take at random, a build judged on a few cells, troops at random now and
    then, no sieges planned and no terrain laid."""
    takes = by_verb.get("take", [])
    if takes:
        return rng.choice(takes)
    builds = by_verb.get("build", [])
    if builds:
        by_tile: dict[str, list[str]] = {}
        for code in builds:
            by_tile.setdefault(code.split()[1], []).append(code)
        sample = [c for options in by_tile.values()
                  for c in rng.sample(options, min(len(options), EASY_CELLS_PER_TILE))]
        base = scoring.totals(state)[seat]
        scored = [(scoring.totals(_after(state, seat, c))[seat] - base, rng.random(), c)
                  for c in sample]
        gain, _, code = max(scored)
        if gain >= 0:
            return code
    moves = by_verb.get("move", []) + by_verb.get("deploy", [])
    if moves and rng.random() < 0.3:
        return rng.choice(moves)
    if "end" in legal:
        return "end"
    return rng.choice(legal)
