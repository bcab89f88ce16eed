"""Final scoring (punktacja): each building's effect, troops doubling, roads, tie-break.

One function per building, named after it, returning its points before doubling. "Tile"
(kafelek) means any tile in the landscape, building or open terrain; "building" means a
face-up tile. Whose buildings count is as the rulebook says for each effect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.base import ScoreLine, State, rank_by
from engines.dwoch_nastepcow.geometry import (
    DIAGONAL,
    facing,
    neighbours4,
    ray,
    step,
)
from engines.dwoch_nastepcow.roads import roads
from engines.dwoch_nastepcow.state import opponent

Effect = Callable[["Context", str, dict[str, Any], int], int]

INN_REACH = 3  # "maksymalnie po 3 ... w obydwu kierunkach"


class Context:
    """What several effects need, computed once per scoring."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.land = state["landscape"]
        self.tiles = state["tiles"]
        self._roads: list[frozenset[str]] | None = None

    @property
    def roads(self) -> list[frozenset[str]]:
        if self._roads is None:
            self._roads = roads(self.state)
        return self._roads

    def colour(self, cell: str | None) -> str | None:
        spot = self.land.get(cell) if cell else None
        return None if spot is None else self.tiles[spot["tile"]]["colour"]

    def building(self, cell: str | None) -> tuple[str, int] | None:
        """(building, owner) of a face-up tile at ``cell``."""
        spot = self.land.get(cell) if cell else None
        if spot is None or spot["face"] != "up":
            return None
        return self.tiles[spot["tile"]]["building"], spot["owner"]

    def owned(self, seat: int, kinds: set[str] | tuple[str, ...]) -> int:
        return sum(
            1 for spot in self.land.values()
            if spot["face"] == "up" and spot["owner"] == seat
            and self.tiles[spot["tile"]]["building"] in kinds
        )


# --- Travel (Podróż) ----------------------------------------------------------------------
def inn(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Gospoda: 1 per tile in its row or column (as printed), at most 3 spaces each way, +1.

    A row stays a row when the tile is turned, so the owner does not matter here.
    """
    ways = ("E", "W") if record["axis"] == "row" else ("N", "S")
    points = 1
    for way in ways:
        for distance in range(1, INN_REACH + 1):
            if step(cell, way, distance) in ctx.land:
                points += 1
    return points


def market(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Targ: 1 per tile orthogonally next to it, +1 for itself (at most 5)."""
    return 1 + sum(1 for n in neighbours4(cell) if n in ctx.land)


def pilgrimage_site(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Miejsce pielgrzymek: the tiles of the longest road joined to it; it is a road itself."""
    return max((len(road) for road in ctx.roads if cell in road), default=1)


def robber_barony(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Baronia rabusiów: 2 per opponent building orthogonally next to it, +2 (at most 10)."""
    rival = opponent(owner)
    near = sum(1 for n in neighbours4(cell) if (b := ctx.building(n)) and b[1] == rival)
    return 2 + 2 * near


# --- Lands & Industry (Ziemie i Przemysł) -------------------------------------------------
def _colour_region(ctx: Context, cell: str, colour: str) -> int:
    """Tiles of ``colour`` joined edge to edge to ``cell`` (any owner, open terrain too)."""
    seen = {cell}
    todo = [cell]
    count = 0
    while todo:
        current = todo.pop()
        for n in neighbours4(current):
            if n not in seen and ctx.colour(n) == colour:
                seen.add(n)
                count += 1
                todo.append(n)
    return count


def mill(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Młyn: 1 per yellow tile in the unbroken yellow area touching it, +1."""
    return 1 + _colour_region(ctx, cell, "yellow")


def mine(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Kopalnia: 1 per grey tile in the unbroken grey area touching it, +1."""
    return 1 + _colour_region(ctx, cell, "grey")


def barn(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Obora: 1 per green tile in the unbroken green area touching it, +1."""
    return 1 + _colour_region(ctx, cell, "green")


def _buildings_on(ctx: Context, cell: str, colour: str) -> int:
    """Buildings of either player on tiles of ``colour``, other than the one at ``cell``."""
    return sum(
        1 for other, spot in ctx.land.items()
        if other != cell and spot["face"] == "up"
        and ctx.tiles[spot["tile"]]["colour"] == colour
    )


def bakery(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Piekarnia: 1 per building on a yellow tile, +1."""
    return 1 + _buildings_on(ctx, cell, "yellow")


def smithy(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Kuźnia: 1 per building on a grey tile, +1."""
    return 1 + _buildings_on(ctx, cell, "grey")


def guardhouse(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Stróżówka: 1 per building on a green tile, +1."""
    return 1 + _buildings_on(ctx, cell, "green")


def camp(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Obozowisko: 2 if its extra take was never used."""
    return 0 if ctx.land[cell].get("used") else 2


def no_points(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Farm, Sawmill, Quarry (they give resources), Siege Tower and Guild score nothing."""
    return 0


# --- Trade & Church (Handel i Kościół) ----------------------------------------------------
def trading_post(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Faktoria: 3 per own Farm, Sawmill or Quarry shown on it."""
    return 3 * ctx.owned(owner, set(record["counts"]))


def cathedral(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Katedra: 5."""
    return 5


# --- War (Wojna) --------------------------------------------------------------------------
def fortress(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Twierdza: 1 per own Siege Tower and Fortress, this one included."""
    return ctx.owned(owner, {"siege_tower", "fortress"})


# --- Patrol -------------------------------------------------------------------------------
def watchtower(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Wieża strażnicza: 1 per tile of its own colour in the arrowed directions, +1.

    Arrows are printed on the tile, so they turn with it: blue's point the other way.
    Any distance; gaps do not stop the count (the whole column or row, as printed).
    """
    colour = record["colour"]
    points = 1
    for arrow in record["arrows"]:
        points += sum(1 for c in ray(cell, facing(arrow, owner)) if ctx.colour(c) == colour)
    return points


def garrison(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Garnizon: 2 per Watchtower (anyone's) on its diagonals, at any distance."""
    return 2 * sum(
        1 for d in DIAGONAL for c in ray(cell, d)
        if (b := ctx.building(c)) and b[0] == "watchtower"
    )


# --- Craft (Rzemiosło) --------------------------------------------------------------------
def craft_shop(ctx: Context, cell: str, record: dict, owner: int) -> int:
    """Sklep z koszykami / Garncarnia / Warsztat bednarski: 3 when the two tiles of the
    printed layout (turned with the tile) have the printed colours, anyone's tiles; 4 with
    one of the owner's Guilds for this craft. Nothing otherwise.
    """
    for direction, colour in record["layout"].items():
        if ctx.colour(step(cell, facing(direction, owner))) != colour:
            return 0
    boosted = any(
        spot["face"] == "up" and spot["owner"] == owner
        and ctx.tiles[spot["tile"]]["building"] == "guild"
        and ctx.tiles[spot["tile"]]["boosts"] == record["building"]
        for spot in ctx.land.values()
    )
    return 4 if boosted else 3


EFFECTS: dict[str, Effect] = {
    "inn": inn, "market": market, "pilgrimage_site": pilgrimage_site,
    "robber_barony": robber_barony,
    "mill": mill, "mine": mine, "barn": barn, "bakery": bakery, "camp": camp,
    "smithy": smithy, "guardhouse": guardhouse,
    "farm": no_points, "sawmill": no_points, "quarry": no_points,
    "trading_post": trading_post, "cathedral": cathedral,
    "siege_tower": no_points, "fortress": fortress,
    "watchtower": watchtower, "garrison": garrison,
    "basket_shop": craft_shop, "pottery": craft_shop, "cooper": craft_shop,
    "guild": no_points,
}


def doubled(state: State, cell: str, owner: int) -> bool:
    """Umiejscowienie oddziałów: your own troop on your building doubles its points."""
    return any(t["at"] == cell for t in state["troops"][owner])


def road_points(ctx: Context) -> list[list[tuple[int, int, int]]]:
    """Per seat, (points, own buildings, rival buildings) for each road it wins.

    A road joining at least 2 buildings gives its majority holder the difference; a tie
    gives nothing.
    """
    out: list[list[tuple[int, int, int]]] = [[], []]
    for road in ctx.roads:
        if len(road) < 2:
            continue
        count = [0, 0]
        for cell in road:
            count[ctx.land[cell]["owner"]] += 1
        if count[0] != count[1]:
            winner = 0 if count[0] > count[1] else 1
            mine, theirs = count[winner], count[1 - winner]
            out[winner].append((mine - theirs, mine, theirs))
    return out


def score_lines(state: State) -> list[list[ScoreLine]]:
    """Per seat, one line per building that scores and one per road won."""
    ctx = Context(state)
    lines: list[list[ScoreLine]] = [[], []]
    for cell in sorted(ctx.land):
        spot = ctx.land[cell]
        if spot["face"] != "up":
            continue
        record = ctx.tiles[spot["tile"]]
        owner = spot["owner"]
        base = EFFECTS[record["building"]](ctx, cell, record, owner)
        if base <= 0:
            continue
        twice = doubled(state, cell, owner)
        lines[owner].append(ScoreLine(
            f"dwoch_nastepcow.score.{record['building']}",
            base * (2 if twice else 1),
            {"cell": cell, "tile": spot["tile"], "base": base, "doubled": twice,
             "troop": ("dwoch_nastepcow.score.doubled" if twice
                       else "dwoch_nastepcow.score.single", {})},
        ))
    if state.get("roads_scored", True):
        for seat, won in enumerate(road_points(ctx)):
            for points, mine, theirs in won:
                lines[seat].append(ScoreLine(
                    "dwoch_nastepcow.score.road", points, {"mine": mine, "theirs": theirs}))
    return lines


def totals(state: State) -> list[int]:
    return [sum(line.points for line in seat) for seat in score_lines(state)]


def troops_in_reserve(state: State, seat: int) -> int:
    return sum(1 for t in state["troops"][seat] if t["at"] is None)


def ranking(state: State) -> list[list[int]]:
    """More points wins; a tie goes to more troops in the royal reserve; then shared."""
    points = totals(state)
    return rank_by([(points[s], troops_in_reserve(state, s)) for s in (0, 1)])

