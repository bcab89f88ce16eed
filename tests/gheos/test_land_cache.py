"""The region summaries, landmass parts and contact groups a ``Land`` keeps between changes
(they make the computer player's estimates cheap) are never stale: after every kind of
change they equal the same facts computed by a Land that never saw the old map."""

from __future__ import annotations

import random
from typing import Any

from engines.gheos import GAME
from engines.gheos import rules as R
from engines.gheos.regions import Land, Region, partition_from_scratch, partition_stored

from .helpers import random_game


def summary(r: Region) -> tuple:
    return (r.id, list(r.parts), sorted(r.cells), list(r.landmass_cells),
            {k: n for k, n in r.counts.items() if n})


def fresh(land: Land) -> Land:
    """A Land on copies of ``land``'s map: it shares no cache with it."""
    return Land({**land.state, "board": dict(land.board), "regions": dict(land.regions),
                 "next_region": land.next_region})


def facts(land: Land, extra_ids: range) -> dict[str, Any]:
    ids = sorted(set(land.members()) | set(extra_ids))
    return {"members": {rid: list(ks) for rid, ks in land.members().items()},
            "regions": [summary(land.region(rid)) for rid in ids],
            "landmass": land.landmass_regions(),
            "contacts": land.contacts()}


def warm(land: Land) -> None:
    """Fill every cache, including a summary of a region id not yet in use (the next new
    region must not inherit it)."""
    facts(land, range(land.next_region + 3))


def tile_states(players: int, seed: int) -> list[dict[str, Any]]:
    """The tile-step states of a seeded game of random legal moves."""
    return [state for state, _ in random_game(players, seed) if state["phase"] == "tile"]


def test_changed_land_keeps_no_stale_summary() -> None:
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        for state in tile_states(2 + seed % 3, seed):
            codes = GAME.legal_actions(state, state["turn"])
            for code in rng.sample(codes, min(4, len(codes))):
                verb, tid, cell, rot = code.split()
                shared = Land(state)
                warm(shared)
                before = facts(fresh(shared), range(shared.next_region + 3))
                land = Land(state)  # shares the state's cached summaries with ``shared``
                warm(land)
                if verb == "replace":
                    land.remove(cell)
                    assert facts(land, range(land.next_region + 3)) == \
                        facts(fresh(land), range(land.next_region + 3)), code
                land.add(cell, tid, int(rot[1]))
                assert facts(land, range(land.next_region + 3)) == \
                    facts(fresh(land), range(land.next_region + 3)), code
                # the Land that shares the old map still sees the old map
                assert facts(shared, range(shared.next_region + 3)) == before, code
                # a stored map, read again, gives the same facts
                after: dict[str, Any] = dict(state)
                land.store(after)
                assert partition_stored(after) == partition_from_scratch(after), code
                assert facts(Land(after), range(land.next_region + 3)) == \
                    facts(fresh(land), range(land.next_region + 3)), code
                checked += 1
    assert checked > 300


def outcome(out: R.Outcome) -> tuple:
    return (out.stays, out.migrations, out.old_parts,
            facts(out.land, range(out.land.next_region + 3)))


def test_a_lifted_map_shared_by_several_replacements_gives_their_own_outcomes() -> None:
    checked = 0
    for seed in range(6):
        for state in tile_states(2 + seed % 3, seed)[::3]:
            codes = [c.split() for c in GAME.legal_actions(state, state["turn"])
                     if c.startswith("replace")]
            lifted: dict[str, R.Lifted] = {}
            for verb, tid, cell, rot in codes:
                shared = lifted.setdefault(cell, R.lift_tile(state, cell))
                out = R.put_tile(state, verb, cell, tid, int(rot[1]), shared)
                alone = R.put_tile(state, verb, cell, tid, int(rot[1]))
                assert outcome(out) == outcome(alone), (cell, tid, rot)
                checked += 1
            for shared in lifted.values():  # the lifted maps were not changed
                assert facts(shared.land, range(shared.land.next_region + 3)) == \
                    facts(fresh(shared.land), range(shared.land.next_region + 3))
    assert checked > 300
