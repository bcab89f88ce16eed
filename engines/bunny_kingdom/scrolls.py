"""Final scoring of the 37 parchments (*сувої*, *pergaminy*): treasures and missions.

The scorer is driven by each card's ``scoring`` entry in ``data/cards.json``, so a misread
number is fixed in the data. Rulings for questions the sources leave open are in
``data/SOURCES.md`` (section 5) and each has a test:

- Liberal/Socialist copy a whole card of the right/left neighbour (the opponent with 2
  players), never another copy card; the copy acts as that card (a copied treasure is a
  treasure for Treasure Guardian/Hunter and for the glove pair).
- Matriarch: every player tied for the most territories scores.
- Each Treasure Hunter effect adds the value of your treasures once.
- Opportunist is resolved last, on the totals before any Opportunist points: you are second
  when exactly one player is strictly ahead of you.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engines.bunny_kingdom.board import cell_resources, city_strength, territories
from engines.bunny_kingdom.data import (
    CAMPS,
    COPY_SCROLLS,
    CORNER,
    EDGE,
    KINDS,
    LUXURY_RESOURCES,
    TERRAIN,
)
from engines.bunny_kingdom.harvest import FiefHarvest, harvest_fiefs

State = dict[str, Any]


@dataclass
class ScrollScore:
    """Points of one parchment: ``card`` owned, scored as ``kind`` (the copied card for a copy)."""

    card: str
    kind: str | None
    points: int
    params: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"card": self.card, "kind": self.kind, "points": self.points, "params": self.params}


@dataclass
class Facts:
    """What a player's parchments look at, measured once on the final board."""

    seat: int
    production: Counter[str]
    cities: int
    fiefs: list[FiefHarvest]
    territories: int
    edge: int
    corner: int
    mountain: int
    #: territories that hold no city and produce nothing (PanPan the Barbarian)
    barren: int
    #: cities standing in fiefs of wealth 0 (Bun-Shee)
    cities_without_resources: int
    camp_cards: int
    parchments: int
    most_territories: int


def facts(state: State, seat: int, most: int | None = None) -> Facts:
    """Measure the seat's board; ``most`` = the most territories anyone controls (if known)."""
    cells = territories(state, seat)
    production: Counter[str] = Counter()
    barren = 0
    for i in cells:
        made = cell_resources(state, i)
        production.update(made)
        if not made and not city_strength(state, i):
            barren += 1
    fiefs = harvest_fiefs(state, seat)
    camp_cards = sum(1 for c in state["waiting"][seat] + state["discard"][seat] if c in CAMPS)
    return Facts(
        seat=seat,
        production=production,
        cities=sum(1 for i in cells if city_strength(state, i)),
        fiefs=fiefs,
        territories=len(cells),
        edge=sum(1 for i in cells if EDGE[i]),
        corner=sum(1 for i in cells if CORNER[i]),
        mountain=sum(1 for i in cells if TERRAIN[i] == "mountain"),
        barren=barren,
        cities_without_resources=sum(
            1 for x in fiefs if x.wealth == 0 for i in x.cells if city_strength(state, i)
        ),
        camp_cards=camp_cards,
        parchments=len(state["scrolls"][seat]),
        most_territories=most if most is not None else most_territories(state),
    )


def most_territories(state: State) -> int:
    return max(sum(1 for o in state["owner"] if o == s) for s in range(state["players"]))


def copy_neighbour(players: int, seat: int, card: str) -> int:
    """Whose parchments a copy card copies: Liberal the right neighbour, Socialist the left.

    Hands pass left to seat+1, so the left neighbour is seat+1 and the right one seat-1;
    with 2 players both are the opponent.
    """
    side = KINDS[card].scoring["neighbor"]
    return (seat - 1) % players if side == "right" else (seat + 1) % players


def copy_targets(state: State, seat: int, card: str) -> list[str]:
    """Parchments the copy card may copy: the neighbour's, except copy cards (our ruling)."""
    other = copy_neighbour(state["players"], seat, card)
    return sorted({c for c in state["scrolls"][other] if c not in COPY_SCROLLS})


def effective_kinds(state: State, seat: int) -> list[tuple[str, str | None]]:
    """(card, kind it scores as) per parchment; a copy card scores as its chosen target."""
    chosen = state["copies"][seat]
    return [
        (card, chosen.get(card)) if card in COPY_SCROLLS else (card, card)
        for card in state["scrolls"][seat]
    ]


def treasure_value(kind: str, kinds: list[str | None]) -> int:
    """Points of one treasure; a glove is worth 4 (not 1) when its partner is also yours."""
    scoring = KINDS[kind].scoring
    if scoring["type"] == "paired_treasure":
        return scoring["with_partner"] if scoring["partner"] in kinds else scoring["alone"]
    return scoring["points"]


def metric(name: str, f: Facts, kinds: list[str | None]) -> int:
    """The quantity a ``per_count``/``threshold`` mission counts."""
    values = {
        "parchments_owned": f.parchments,
        "cities": f.cities,
        "edge_territories": f.edge,
        "corner_territories": f.corner,
        "mountain_territories": f.mountain,
        "fiefs": len(f.fiefs),
        "fiefs_with_3plus_territories": sum(1 for x in f.fiefs if len(x.cells) >= 3),
        "cities_in_fiefs_without_resources": f.cities_without_resources,
        "territories_without_city_or_resource": f.barren,
        "camp_cards_played": f.camp_cards,
    }
    if name == "treasures_owned":
        return sum(1 for k in kinds if k and KINDS[k].treasure)
    return values[name]


def score_kind(kind: str, f: Facts, kinds: list[str | None]) -> tuple[int, dict[str, Any]]:
    """Points and explanation of one parchment for a player (not the Opportunist)."""
    s = KINDS[kind].scoring
    typ = s["type"]
    if typ in ("fixed", "paired_treasure"):
        points = treasure_value(kind, kinds)
        return points, {}
    if typ == "per_resource":
        count = f.production[s["resource"]]
        return count * s["points"], {"count": count, "each": s["points"]}
    if typ == "per_resource_class":
        count = sum(f.production[r] for r in LUXURY_RESOURCES)
        return count * s["points"], {"count": count, "each": s["points"]}
    if typ == "per_count":
        count = metric(s["metric"], f, kinds)
        return count * s["points"], {"count": count, "each": s["points"]}
    if typ == "threshold":
        count = f.production[s["resource"]] if "resource" in s else metric(s["metric"], f, kinds)
        return (s["points"] if count >= s["min"] else 0), {"count": count, "min": s["min"]}
    if typ == "most_territories":
        ok = f.territories == f.most_territories
        return (s["points"] if ok else 0), {"count": f.territories, "most": f.most_territories}
    if typ == "extra_harvest_except_best":
        harvests = sorted((x.points for x in f.fiefs), reverse=True)
        return sum(harvests[1:]), {"best": harvests[0] if harvests else 0,
                                   "fiefs": max(len(harvests) - 1, 0)}
    if typ == "multiply_treasures":
        value = sum(treasure_value(k, kinds) for k in kinds if k and KINDS[k].treasure)
        return value * (s["factor"] - 1), {"value": value}
    raise ValueError(f"no scorer for {kind} ({typ})")


def final_scores(state: State) -> list[list[ScrollScore]]:
    """Every player's parchments scored; the Opportunist last, on the totals without it."""
    n = state["players"]
    out: list[list[ScrollScore]] = []
    most = most_territories(state)
    for seat in range(n):
        f = facts(state, seat, most)
        pairs = effective_kinds(state, seat)
        kinds = [k for _, k in pairs]
        lines = []
        for card, kind in pairs:
            if kind is None:
                lines.append(ScrollScore(card, None, 0))
            elif KINDS[kind].scoring["type"] == "rank_bonus":
                lines.append(ScrollScore(card, kind, 0))  # resolved below
            else:
                points, params = score_kind(kind, f, kinds)
                lines.append(ScrollScore(card, kind, points, params))
        out.append(lines)
    before = [state["score"][s] + sum(x.points for x in out[s]) for s in range(n)]
    for seat in range(n):
        for line in out[seat]:
            if line.kind and KINDS[line.kind].scoring["type"] == "rank_bonus":
                rule = KINDS[line.kind].scoring
                ahead = sum(1 for t in before if t > before[seat])
                line.points = rule["points"] if ahead + 1 == rule["rank"] else 0
                line.params = {"total": before[seat], "place": ahead + 1}
    return out
