"""Roads (drogi): which tiles a road joins.

A road runs through a tile with exactly two road edges. A tile with one, three or four road
edges (a crossroads, rozdroże) and every Pilgrimage Site is an end point of each road that
touches it, never a link between them. Roads join across a shared edge only when both tiles
show a road there; open terrain carries no road. Each road is the set of tiles it joins.
"""

from __future__ import annotations

from engines.base import State
from engines.dwoch_nastepcow.geometry import OPPOSITE, facing, step

Node = tuple[str, str]  # (cell, absolute edge)


def road_edges(state: State, cell: str) -> tuple[str, ...]:
    """Edges of the tile at ``cell`` that carry a road, turned to face the tile's owner."""
    spot = state["landscape"].get(cell)
    if spot is None or spot["face"] != "up":
        return ()
    record = state["tiles"][spot["tile"]]
    return tuple(facing(e, spot["owner"]) for e in record["roads"])


def is_road_end(record: dict) -> bool:
    """Crossroads and Pilgrimage Sites end every road touching them."""
    return record["building"] == "pilgrimage_site" or len(record["roads"]) != 2


def roads(state: State) -> list[frozenset[str]]:
    """Every road in the landscape as the set of cells it joins."""
    parent: dict[Node, Node] = {}

    def find(node: Node) -> Node:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def union(a: Node, b: Node) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb

    edges: dict[str, tuple[str, ...]] = {}
    for cell in state["landscape"]:
        found = road_edges(state, cell)
        if found:
            edges[cell] = found
            for e in found:
                parent[(cell, e)] = (cell, e)
    for cell, found in edges.items():
        record = state["tiles"][state["landscape"][cell]["tile"]]
        if not is_road_end(record):
            union((cell, found[0]), (cell, found[1]))
        for e in found:
            other = step(cell, e)
            if other in edges and OPPOSITE[e] in edges[other]:
                union((cell, e), (other, OPPOSITE[e]))
    groups: dict[Node, set[str]] = {}
    for node in parent:
        groups.setdefault(find(node), set()).add(node[0])
    return [frozenset(cells) for cells in groups.values()]
