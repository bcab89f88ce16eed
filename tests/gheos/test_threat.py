"""The computer player's threat check (``bot.threatened``) reads the map's region contacts
pairwise; it must flag exactly the civilizations the rule names: in each group of
continents one tile could join, those with fewer swords than the strongest, and all of them
when the strongest are tied."""

from __future__ import annotations

from engines.gheos import rules as R
from engines.gheos.bot import threatened
from engines.gheos.data import SWORDS
from engines.gheos.regions import Land, Region

from .helpers import random_game


def threatened_by_groups(land: Land, regions: dict[str, Region]) -> set[str]:
    """The rule, group by group."""
    civ_of = {r.id: c for c, r in regions.items()}
    out: set[str] = set()
    for group in land.contact_groups():
        rids = group & civ_of.keys()
        if len(rids) < 2:
            continue
        swords = {rid: land.region(rid).counts[SWORDS] for rid in rids}
        top = max(swords.values())
        tied = sum(n == top for n in swords.values()) > 1
        out.update(civ_of[rid] for rid, n in swords.items() if n < top or tied)
    return out


def test_threatened_flags_exactly_the_weaker_or_tied_of_each_contact_group() -> None:
    flagged = 0
    for seed in range(12):
        for state, _ in random_game(2 + seed % 3, seed):
            if state["phase"] == "tile":
                land = Land(state)
                regions = R.civilization_regions(land, state)
                want = threatened_by_groups(land, regions) if len(regions) > 1 else set()
                assert threatened(land, regions) == want
                flagged += len(want)
    assert flagged > 50  # the games did threaten civilizations
