"""A computer heir: greedy one action at a time over the score margin plus what the board
promises, so it uses every mechanism of every set.

Each candidate action is applied to a copy and valued by :func:`value`: the final score
margin if the game ended now (every building's effect, troops doubling, roads) plus, for
each side, promises the scorer cannot see yet: a Bakery, Smithy or Guardhouse grows with the
tiles of its colour still to come, a Trading Post with the producers it counts, an Inn or a
Market with its free cells, a Mill, Mine or Barn with the free cells round its colour area,
a Craft shop whose layout cells are still free or already right,
a Farm, Sawmill or Quarry with the Trading Posts to come counting it, a Guild's shop to
come, a Siege Tower already touching a rival building, a troop in the royal reserve while
the game lasts. The shares (how many of the tiles to come get built, how many free cells
get filled) were measured in games of this bot against the old one and shrink as the game
runs out. A build that raises a siege is valued with its best
destroy (or spare). Open terrain is laid when the discount lets a building be built this
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
from collections import Counter
from typing import Any, NamedTuple

import engines.dwoch_nastepcow.actions as actions
import engines.dwoch_nastepcow.reserve as reserve
import engines.dwoch_nastepcow.rules as rules
import engines.dwoch_nastepcow.scoring as scoring
from engines.base import State
from engines.dwoch_nastepcow.data import CRAFT_SHOPS
from engines.dwoch_nastepcow.geometry import facing, neighbours4, step
from engines.dwoch_nastepcow.reserve import tiles_in_reach
from engines.dwoch_nastepcow.state import HAND_LIMIT, copy_state, opponent

LEVELS = ("easy", "normal")
#: cells tried per tile when the easy level looks for a build
EASY_CELLS_PER_TILE = 3
#: cells tried per tile when valuing what a take would let the bot build
TAKE_CELLS_PER_TILE = 8
#: troop moves tried before a build, and how much more the build after one must gain
MOVES_TRIED, MOVE_MARGIN = 6, 1.0
#: Bakery, Smithy, Guardhouse: 1 per building of a colour, anyone's, to the end of the game
COLOUR_COUNTERS = ("bakery", "smithy", "guardhouse")
COUNTER_COLOUR = {"bakery": "yellow", "smithy": "grey", "guardhouse": "green"}
#: share of the producers (Farm, Sawmill, Quarry) to come that an own Trading Post will count
PRODUCER_SHARE = 0.3
#: share of the tiles to come that will be built: GROWTH_END + GROWTH_RISE x the part of
#: the game left (see FILL), so 0.8 early and 0.3 of the last few (measured in games of this
#: bot against the old one: 0.81 with 20+ tiles to come, 0.59 with 7-12, 0.28 with 6 or less)
GROWTH_END, GROWTH_RISE = 0.3, 0.5
#: an own Farm, Sawmill or Quarry: the share of a Trading Post to come counting it (3 points)
#: that the bot may build (its extra resource each turn shows in the builds it opens). Games
#: measure about 0.4 early and 0.2 late; 0.7 won more in tournaments: it also pays for the
#: resource, which the rest of the value does not see
POST_SHARE = 0.7
#: chance that a free cell next to an Inn or Market is filled before the end, early on;
#: the game's last TILES_LATE tiles scale it down (measured: 0.7 of them with 20 tiles to
#: come, 0.14 with 5)
FILL, TILES_LATE = 0.7, 20
#: promise of a Craft shop's layout cell: already the right colour, or still free
CRAFT_RIGHT, CRAFT_FREE = 1.0, 0.4
#: promise of a rival building orthogonally next to an own Siege Tower (a second tower
#: next to it destroys it), and of a Guild whose shop the bot may still build
SIEGE_THREAT, GUILD_HOPE = 0.6, 0.5
#: a troop in the royal reserve while the game lasts (one more tile in reach)
RESERVE_TROOP = 1.0
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
#: Mill, Mine, Barn: a free cell on the edge of its colour area, early on (scaled down like
#: FILL, and by that colour's share of the tiles to come; measured: 0.5 cells of area gained
#: per edge cell with 20 tiles to come, 0.12 with 5)
REGION_FILL = 0.5
#: Mill, Mine, Barn and the colour of the area each counts
REGION_BUILDINGS = {"mill": "yellow", "mine": "grey", "barn": "green"}


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


def value(state: State, seat: int) -> float:
    """The score margin now plus the promises of each side's board (see the module doc)."""
    points = scoring.totals(state)
    rival = opponent(seat)
    return (points[seat] + _promise(state, seat)) - (points[rival] + _promise(state, rival))


def _to_come(state: State) -> list[str]:
    """Ids of the tiles still to be laid (stack, reserve, hands)."""
    return (state["stack"] + [t for t in state["reserve"] if t is not None]
            + [t for h in state["hands"] for t in h])


class _Outlook(NamedTuple):
    """The tiles still to come, as the promises of the buildings on the board count them."""

    to_come: list[str]
    by_colour: Counter[str]
    later: float  # how much of the game is left
    #: per colour-counting building, the tiles of its colour it may still count
    growth: dict[str, float]
    producers: Counter[str]  # producers still to come, of which the bot may build its share
    posts_to_come: Counter[str]  # producers the trading posts still to come count


def _outlook(state: State) -> _Outlook:
    tiles = state["tiles"]
    to_come = _to_come(state)
    # buildings that count every building of a colour grow with the game: a share of the
    # tiles of that colour still to come
    by_colour = Counter(tiles[t]["colour"] for t in to_come)
    later = min(1.0, len(to_come) / TILES_LATE)
    share = GROWTH_END + GROWTH_RISE * later
    growth = {b: share * by_colour[c] for b, c in COUNTER_COLOUR.items()}
    producers = Counter(tiles[t]["building"] for t in to_come)
    posts_to_come = Counter(p for t in to_come if tiles[t]["building"] == "trading_post"
                            for p in tiles[t]["counts"])
    return _Outlook(to_come, by_colour, later, growth, producers, posts_to_come)


def _promise(state: State, seat: int) -> float:
    if state["phase"] == "over":
        return 0.0
    land, tiles = state["landscape"], state["tiles"]
    outlook = _outlook(state)
    out = 0.0
    own_shops: set[str] = set()
    for cell, spot in land.items():
        if spot["face"] != "up" or spot["owner"] != seat:
            continue
        record = tiles[spot["tile"]]
        if record["building"] in CRAFT_SHOPS:
            own_shops.add(record["building"])
        promise = _building_promise(state, seat, cell, record, outlook)
        if promise is not None:
            out += promise
    # a troop in the royal reserve widens the reach (choice of tile, resources) while the
    # game lasts; near the end the troops are worth more doubling buildings
    out += RESERVE_TROOP * outlook.later * sum(
        1 for t in state["troops"][seat] if t["at"] is None)
    for spot in land.values():
        if spot["face"] == "up" and spot["owner"] == seat:
            record = tiles[spot["tile"]]
            if record["building"] == "guild" and record["boosts"] not in own_shops:
                out += GUILD_HOPE
    return out


def _building_promise(state: State, seat: int, cell: str, record: dict[str, Any],
                      outlook: _Outlook) -> float | None:
    """What the seat's building at ``cell`` may still score (None: nothing to hope for)."""
    building = record["building"]
    if building in CRAFT_SHOPS:
        hope = _craft_hope(state, seat, cell, record)
        return hope if 0 < hope < 2 * CRAFT_RIGHT else None  # not yet scoring, still possible
    if building in REGION_BUILDINGS:
        colour = REGION_BUILDINGS[building]
        share = 3 * outlook.by_colour[colour] / max(1, len(outlook.to_come))  # 1: a third
        return (REGION_FILL * outlook.later * share * _region_edge(state, cell, colour)
                * _times(state, seat, cell))
    if building in COLOUR_COUNTERS:
        return outlook.growth[building] * _times(state, seat, cell)
    if building in ("inn", "market"):
        return FILL * outlook.later * _free_to_fill(state, cell, record) * _times(state, seat, cell)
    if building == "trading_post":
        return (3 * PRODUCER_SHARE * sum(outlook.producers[p] for p in record["counts"])
                * _times(state, seat, cell))
    if building in rules.PRODUCERS:
        return 3 * POST_SHARE * outlook.posts_to_come[building]
    if building == "siege_tower":
        land, rival = state["landscape"], opponent(seat)
        return SIEGE_THREAT * sum(
            1 for n in neighbours4(cell)
            if (o := land.get(n)) and o["face"] == "up" and o["owner"] == rival)
    return None


def _craft_hope(state: State, seat: int, cell: str, record: dict[str, Any]) -> float:
    """A craft shop's hope: each neighbour of its layout still free or already right; -1
    once one is wrong (a wrong colour never changes: the shop is dead)."""
    land, tiles = state["landscape"], state["tiles"]
    hope = 0.0
    for direction, colour in record["layout"].items():
        there = land.get(step(cell, facing(direction, seat)))
        if there is None:
            hope += CRAFT_FREE
        elif tiles[there["tile"]]["colour"] == colour:
            hope += CRAFT_RIGHT
        else:
            return -1.0
    return hope


def _free_to_fill(state: State, cell: str, record: dict[str, Any]) -> int:
    """Free cells an Inn (three along its axis each way) or a Market (its four sides) counts."""
    land = state["landscape"]
    if record["building"] == "inn":
        ways = ("E", "W") if record["axis"] == "row" else ("N", "S")
        return sum(1 for w in ways for d in range(1, 4) if step(cell, w, d) not in land)
    return sum(1 for n in neighbours4(cell) if n not in land)


def _times(state: State, seat: int, cell: str) -> int:
    """2 for a building the seat's troop doubles, else 1."""
    return 2 if _doubled(state, seat, cell) else 1


def _region_edge(state: State, cell: str, colour: str) -> int:
    """Free cells edge to edge with the colour area a Mill, Mine or Barn at ``cell`` counts."""
    land, tiles = state["landscape"], state["tiles"]
    seen, todo, free = {cell}, [cell], set()
    while todo:
        current = todo.pop()
        for n in neighbours4(current):
            if n in seen:
                continue
            spot = land.get(n)
            if spot is None:
                free.add(n)
            elif tiles[spot["tile"]]["colour"] == colour:
                seen.add(n)
                todo.append(n)
    return len(free)


def _doubled(state: State, seat: int, cell: str) -> bool:
    return any(t["at"] == cell for t in state["troops"][seat])


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
