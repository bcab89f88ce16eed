"""A second, deliberately naive scorer written from the rulebook (and data/README.md rulings)
without the engine's code, to check the engine's final scores in random games."""

from __future__ import annotations

from typing import Any

STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
FLIP = {"N": "S", "S": "N", "E": "W", "W": "E", "NE": "SW", "SW": "NE", "NW": "SE", "SE": "NW"}
STEP8 = dict(STEP, NE=(1, -1), SE=(1, 1), SW=(-1, 1), NW=(-1, -1))


def _xy(cell: str) -> tuple[int, int]:
    return ord(cell[0]) - 65, int(cell[1:]) - 1


def totals(state: dict[str, Any]) -> list[int]:
    grid: dict[tuple[int, int], dict[str, Any]] = {}
    for cell, spot in state["landscape"].items():
        record = state["tiles"][spot["tile"]]
        grid[_xy(cell)] = {"colour": record["colour"], "up": spot["face"] == "up",
                           "owner": spot["owner"], "rec": record, "used": spot["used"]}
    troops = {(seat, _xy(t["at"])) for seat in (0, 1) for t in state["troops"][seat] if t["at"]}

    def turn(d: str, owner: int) -> str:
        return FLIP[d] if owner == 1 else d

    def at(x: int, y: int) -> dict[str, Any] | None:
        return grid.get((x, y))

    def line(x: int, y: int, d: str, limit: int = 99) -> list[dict[str, Any]]:
        dx, dy = STEP8[d]
        out = []
        for k in range(1, limit + 1):
            if not (0 <= x + dx * k < 25 and 0 <= y + dy * k < 25):
                break
            if (t := at(x + dx * k, y + dy * k)) is not None:
                out.append(t)
        return out

    def road_sets() -> list[set[tuple[int, int]]]:
        ends: dict[tuple[int, int], list[str]] = {}
        for pos, t in grid.items():
            if t["up"] and t["rec"]["roads"]:
                ends[pos] = [turn(e, t["owner"]) for e in t["rec"]["roads"]]
        seen: set[tuple[tuple[int, int], str]] = set()
        found = []
        for pos, edges in ends.items():
            for e in edges:
                if (pos, e) in seen:
                    continue
                todo, tiles = [(pos, e)], set()
                while todo:
                    p, edge = todo.pop()
                    if (p, edge) in seen:
                        continue
                    seen.add((p, edge))
                    tiles.add(p)
                    rec = grid[p]["rec"]
                    if len(ends[p]) == 2 and rec["building"] != "pilgrimage_site":
                        other = [x for x in ends[p] if x != edge][0]
                        todo.append((p, other))
                    q = (p[0] + STEP[edge][0], p[1] + STEP[edge][1])
                    if q in ends and FLIP[edge] in ends[q]:
                        todo.append((q, FLIP[edge]))
                found.append(tiles)
        return found

    roads = road_sets()
    points = [0, 0]
    for (x, y), t in grid.items():
        if not t["up"]:
            continue
        rec, me = t["rec"], t["owner"]
        kind = rec["building"]
        near4 = [at(x + dx, y + dy) for dx, dy in STEP.values()]
        v = 0
        if kind == "inn":
            dirs = ("E", "W") if rec["axis"] == "row" else ("N", "S")
            v = 1 + sum(len(line(x, y, d, 3)) for d in dirs)
        elif kind == "market":
            v = 1 + sum(1 for n in near4 if n)
        elif kind == "pilgrimage_site":
            v = max([len(r) for r in roads if (x, y) in r] + [1])
        elif kind == "robber_barony":
            v = 2 + 2 * sum(1 for n in near4 if n and n["up"] and n["owner"] == 1 - me)
        elif kind in ("mill", "mine", "barn"):
            want = {"mill": "yellow", "mine": "grey", "barn": "green"}[kind]
            area, todo = {(x, y)}, [(x, y)]
            while todo:
                px, py = todo.pop()
                for dx, dy in STEP.values():
                    q = (px + dx, py + dy)
                    if q not in area and q in grid and grid[q]["colour"] == want:
                        area.add(q)
                        todo.append(q)
            v = len(area)
        elif kind in ("bakery", "smithy", "guardhouse"):
            want = {"bakery": "yellow", "smithy": "grey", "guardhouse": "green"}[kind]
            v = 1 + sum(1 for p, o in grid.items()
                        if p != (x, y) and o["up"] and o["colour"] == want)
        elif kind == "camp":
            v = 0 if t["used"] else 2
        elif kind == "trading_post":
            v = 3 * sum(1 for o in grid.values() if o["up"] and o["owner"] == me
                        and o["rec"]["building"] in rec["counts"])
        elif kind == "cathedral":
            v = 5
        elif kind == "fortress":
            v = sum(1 for o in grid.values() if o["up"] and o["owner"] == me
                    and o["rec"]["building"] in ("fortress", "siege_tower"))
        elif kind == "watchtower":
            v = 1 + sum(1 for a in rec["arrows"] for o in line(x, y, turn(a, me))
                        if o["colour"] == rec["colour"])
        elif kind == "garrison":
            v = 2 * sum(1 for d in ("NE", "SE", "SW", "NW") for o in line(x, y, d)
                        if o["up"] and o["rec"]["building"] == "watchtower")
        elif kind in ("basket_shop", "pottery", "cooper"):
            ok = True
            for d, colour in rec["layout"].items():
                dx, dy = STEP8[turn(d, me)]
                n = at(x + dx, y + dy)
                ok = ok and n is not None and n["colour"] == colour
            guild = any(o["up"] and o["owner"] == me and o["rec"]["building"] == "guild"
                        and o["rec"]["boosts"] == kind for o in grid.values())
            v = (4 if guild else 3) if ok else 0
        if (me, (x, y)) in troops:
            v *= 2
        points[me] += v
    if state["roads_scored"]:
        for r in roads:
            if len(r) < 2:
                continue
            held = [sum(1 for p in r if grid[p]["owner"] == s) for s in (0, 1)]
            if held[0] > held[1]:
                points[0] += held[0] - held[1]
            elif held[1] > held[0]:
                points[1] += held[1] - held[0]
    return points
