"""What a Dwóch następców position is worth to the computer player (:mod:`bot`).

:func:`value` is the final score margin if the game ended now (every building's effect,
troops doubling, roads) plus, for each side, promises the scorer cannot see yet: a Bakery,
Smithy or Guardhouse grows with the tiles of its colour still to come, a Trading Post with
the producers it counts, an Inn or a Market with its free cells, a Mill, Mine or Barn with
the free cells round its colour area, a Craft shop whose layout cells are still free or
already right, a Farm, Sawmill or Quarry with the Trading Posts to come counting it, a
Guild's shop to come, a Siege Tower already touching a rival building, a troop in the royal
reserve while the game lasts. The shares (how many of the tiles to come get built, how many
free cells get filled) were measured in games of the bot and shrink as the game runs out.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

import engines.dwoch_nastepcow.scoring as scoring
from engines.base import State
from engines.dwoch_nastepcow.data import CRAFT_SHOPS
from engines.dwoch_nastepcow.geometry import facing, neighbours4, step
from engines.dwoch_nastepcow.rules import PRODUCERS
from engines.dwoch_nastepcow.state import opponent

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
#: Mill, Mine, Barn: a free cell on the edge of its colour area, early on (scaled down like
#: FILL, and by that colour's share of the tiles to come; measured: 0.5 cells of area gained
#: per edge cell with 20 tiles to come, 0.12 with 5)
REGION_FILL = 0.5
#: Mill, Mine, Barn and the colour of the area each counts
REGION_BUILDINGS = {"mill": "yellow", "mine": "grey", "barn": "green"}


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
    if building in PRODUCERS:
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
