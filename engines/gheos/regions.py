"""Land regions: which tile parts are joined into one island or continent.

Land joins across every shared edge, because every tile edge carries land. A *region* is a
set of joined parts, each named ``"<cell>/<part index>"``. Of a finished region the rulebook
says: two shores make an *island* (wyspa); a region with at least one landmass over at least
two tiles is a *continent* (kontynent). A region of one tile only (a landmass whose edges all
face empty cells, or the lone start tile) is neither yet: we call it *open*.

The map keeps the partition incrementally in the state (``state["regions"]``: part -> region
id): placing a tile merges the regions it touches, removing one re-splits only the regions it
was in. :func:`partition_from_scratch` recomputes it independently for the tests.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

import engines.gheos.geometry as geometry
from engines.gheos.data import LANDMASS, Tile, part_on_slot, part_slots, tile

CONTINENT, ISLAND, OPEN = "continent", "island", "open"


@cache
def split_key(key: str) -> tuple[str, int]:
    cell, _, idx = key.partition("/")
    return cell, int(idx)


@cache
def part_key(cell: str, index: int) -> str:
    return f"{cell}/{index}"


@cache
def landmass_index(t: Tile) -> int | None:
    """Index of the tile's landmass part (a tile has at most one), or None."""
    return next((i for i, p in enumerate(t.parts) if p.kind == LANDMASS), None)


@lru_cache(maxsize=1 << 16)
def _sides(cell: str, t: Tile, rotation: int) -> tuple[tuple[tuple[str, str], ...],
                                                     tuple[str, ...]]:
    """Of tile ``t`` on ``cell``: (neighbour cell, key of the part facing it) across each
    edge with a cell of the table behind it, and the keys of all its parts."""
    on_slot = part_on_slot(t, rotation)
    sides = tuple((nb, part_key(cell, on_slot[slot]))
                  for slot, nb in enumerate(geometry.neighbours(cell)) if nb is not None)
    return sides, tuple(part_key(cell, i) for i in range(len(t.parts)))


class Counts(dict[str, int]):
    """Symbol counts; a missing symbol counts 0 (like ``Counter``, but cheap to create,
    which matters: region summaries are made on every engine step)."""

    def __missing__(self, key: str) -> int:
        return 0


@dataclass
class Region:
    """A summary of one region, computed on demand (never stored)."""

    id: int
    parts: list[str]
    cells: set[str]
    landmass_cells: list[str]  # cells whose tile's landmass part lies here, reading order
    counts: Counts = field(default_factory=Counts)  # normal symbols (temples apart)

    @property
    def kind(self) -> str:
        if len(self.cells) < 2:
            return OPEN
        return CONTINENT if self.landmass_cells else ISLAND

    @property
    def label(self) -> str:
        """The cell that names this region in action codes and on the image: for a
        continent, its first landmass tile in reading order (a tile has at most one
        landmass, so no two continents share a label)."""
        if self.landmass_cells:
            return self.landmass_cells[0]
        return min(self.cells, key=geometry.sort_key)


#: id(regions dict) -> (regions, board, custom tiles, members, summaries); entries keep
#: their dicts alive, so an id is never reused while cached
_SUMMARIES: OrderedDict[int, tuple] = OrderedDict()
#: id(board dict) -> (board, custom tiles, keys of the board's landmass parts), the same way
_LANDMASS: OrderedDict[int, tuple] = OrderedDict()
#: id(regions dict) -> (regions, board, custom tiles, contacts), the same way
_CONTACTS: OrderedDict[int, tuple] = OrderedDict()


def _cache_put(cache: OrderedDict[int, tuple], key: int, entry: tuple) -> None:
    """Keep ``entry`` under ``key``, dropping the oldest entry past 64 (an OrderedDict: a
    plain dict emptied from the front makes finding its first entry ever slower)."""
    if key not in cache and len(cache) >= 64:
        cache.popitem(last=False)
    cache[key] = entry


class Land:
    """The board's tiles and the region partition, as mutable working copies.

    Built from a state (copying the two dicts), changed by :meth:`add`/:meth:`remove`, and
    written back with :meth:`store`.

    What is read from a map (members, region summaries, landmass parts, contacts) is cached
    with the map's dicts, which a state never changes in place, so a cache entry cannot go
    stale; a Land that changes its map copies the dicts first and keeps only what the
    change left true: the summaries of the regions it did not touch
    (:meth:`changed_regions`). tests/gheos/test_land_cache.py checks every cached fact
    against a Land that never saw the old map. The computer player judges hundreds of
    placements on one map per move; this is what keeps that within its time budget.
    """

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state  # only read, for custom tiles
        # The board and region dicts of a state are never changed in place (a changed map
        # is a new dict), so they are shared until this Land changes them (copy on write),
        # and region summaries are cached per dict.
        self.board: dict[str, list] = state["board"]
        self.regions: dict[str, int] = state["regions"]
        self.next_region: int = state["next_region"]
        self._own = False
        self._members: dict[int, list[str]] | None = None
        self._summaries: dict[int, Region] = {}
        self._tiles: dict[str, Tile] = {}
        self._landmass: list[str] | None = None  # landmass part keys, kept up to date
        self._contacts: dict[int, frozenset[int]] | None = None
        # The map this Land started from (its members and shared summaries, see
        # ``members``) and the regions changed since: a region not changed has the same
        # parts, on the same tiles, in both maps, so its summary is the same in both and
        # is shared with every other Land working from that map.
        self._base: tuple[dict[int, list[str]], dict[int, Region]] | None = None
        self._moved: set[int] = set()

    def _write(self) -> None:
        if not self._own:
            if self._base is None:
                self._base = (self.members(), self._summaries)
                self._summaries = {}
            self._landmass_keys()  # kept up to date from now on
            self.board = dict(self.board)
            self.regions = dict(self.regions)
            self._own = True

    def store(self, state: dict[str, Any]) -> None:
        self._own = False  # the state now holds these dicts: never change them in place
        state["board"] = self.board
        state["regions"] = self.regions
        state["next_region"] = self.next_region
        # what this Land knows of the new map is cached for the Lands built on it next,
        # with the summaries of the regions left alone since the starting map
        members = self.members()
        if self._base is not None:
            moved, summaries = self._moved, self._summaries
            # a snapshot: the starting map's summaries are shared, and another Land (in
            # another thread) may add to them meanwhile
            for rid, r in list(self._base[1].items()):
                if rid not in moved and rid not in summaries:
                    summaries[rid] = r
        self._remember(members)
        if self._landmass is not None:
            _cache_put(_LANDMASS, id(self.board),
                       (self.board, self.state.get("custom_tiles"), self._landmass))

    def copy(self) -> Land:
        """A working copy: changing either Land leaves the other as it is (both share their
        dicts until one of them writes, and then copies them)."""
        other = Land(self.state)
        self._own = False
        other.board, other.regions, other.next_region = self.board, self.regions, \
            self.next_region
        # the same map: the same facts (none of these is changed in place)
        other._members, other._summaries = self._members, self._summaries
        other._landmass, other._contacts = self._landmass, self._contacts
        other._base, other._moved = self._base, set(self._moved)
        other._tiles = dict(self._tiles)
        return other

    # --- reading ---------------------------------------------------------------------------
    def tile_at(self, cell: str) -> Tile:
        t = self._tiles.get(cell)
        if t is None:
            t = self._tiles[cell] = tile(self.state, self.board[cell][0])
        return t

    def parts_of(self, cell: str) -> list[str]:
        return [part_key(cell, i) for i in range(len(self.tile_at(cell).parts))]

    def part(self, key: str):
        cell, idx = split_key(key)
        return self.tile_at(cell).parts[idx]

    def across(self, cell: str, slot: int) -> str | None:
        """The part of the neighbouring tile that touches ``cell``'s edge ``slot``."""
        nb = geometry.neighbours(cell)[slot]
        if nb is None or nb not in self.board:
            return None
        return part_key(nb, part_on_slot(self.tile_at(nb), self.board[nb][1])[slot])

    def joined_parts(self, key: str) -> list[str]:
        """Parts on other tiles that this part touches."""
        cell, idx = split_key(key)
        out = []
        for slot in part_slots(self.tile_at(cell), self.board[cell][1])[idx]:
            other = self.across(cell, slot)
            if other is not None:
                out.append(other)
        return out

    def _changed(self, ids: set[int]) -> None:
        """The parts of regions ``ids`` changed: their summaries go, the others' stay (a
        new dict: the old one may be shared through the cache)."""
        self._moved |= ids
        self._members = None
        self._contacts = None
        self._summaries = {rid: r for rid, r in list(self._summaries.items()) if rid not in ids}

    def members(self) -> dict[int, list[str]]:
        """Region id -> its parts (cached per region dict while it is shared)."""
        if self._members is not None:
            return self._members
        hit = None if self._own else _SUMMARIES.get(id(self.regions))
        if hit is not None and hit[0] is self.regions and hit[1] is self.board \
                and hit[2] is self.state.get("custom_tiles"):
            self._members, self._summaries = hit[3], hit[4]
            return self._members
        m: dict[int, list[str]] = {}
        for key, rid in self.regions.items():
            parts = m.get(rid)
            if parts is None:
                m[rid] = [key]
            else:
                parts.append(key)
        # the summaries kept are those of unchanged regions (see ``_changed``)
        self._members = m
        if not self._own:
            self._remember(m)
        return m

    def _remember(self, members: dict[int, list[str]]) -> None:
        _cache_put(_SUMMARIES, id(self.regions), (self.regions, self.board,
                                                  self.state.get("custom_tiles"), members,
                                                  self._summaries))

    def region(self, rid: int) -> Region:
        r = self._summaries.get(rid)
        if r is not None:  # kept through a change that left the region alone
            return r
        if self._base is not None and rid not in self._moved:
            members, summaries = self._base
            r = summaries.get(rid)
            if r is None:
                r = summaries[rid] = self._summarise(rid, members.get(rid, []))
        elif self._own and self._members is None:
            # a changed map: the parts of the one region asked, in the map's order (cheaper
            # than all the members when few regions changed)
            r = self._summarise(rid, [k for k, x in self.regions.items() if x == rid])
        else:
            members = self.members()
            r = self._summaries.get(rid)  # summaries cached with the members
            if r is not None:
                return r
            r = self._summarise(rid, members.get(rid, []))
        self._summaries[rid] = r
        return r

    def _summarise(self, rid: int, parts: list[str]) -> Region:
        cells: set[str] = set()
        landmass: list[str] = []
        counts = Counts()
        count = counts.get  # not ``counts[sym] += 1``: a missing key calls __missing__
        for key in parts:
            cell, idx = split_key(key)
            cells.add(cell)
            p = self.tile_at(cell).parts[idx]
            if p.kind == LANDMASS:
                landmass.append(cell)
            for sym in p.normal_symbols:
                counts[sym] = count(sym, 0) + 1
        landmass.sort(key=geometry.sort_key)
        return Region(rid, parts, cells, landmass, counts)

    def landmass_regions(self) -> set[int]:
        """Ids of the regions that hold at least one landmass part."""
        regions = self.regions
        return {regions[k] for k in self._landmass_keys()}

    def _landmass_keys(self) -> list[str]:
        """The board's landmass parts: cached per board dict while it is shared, and kept
        up to date by :meth:`add` and :meth:`remove` (a new list: the old may be shared)."""
        if self._landmass is not None:
            return self._landmass
        custom = self.state.get("custom_tiles")
        hit = None if self._own else _LANDMASS.get(id(self.board))
        if hit is not None and hit[0] is self.board and hit[1] is custom:
            self._landmass = hit[2]
            return hit[2]
        keys = []
        for cell in self.board:
            idx = landmass_index(self.tile_at(cell))
            if idx is not None:
                keys.append(part_key(cell, idx))
        self._landmass = keys
        if not self._own:
            _cache_put(_LANDMASS, id(self.board), (self.board, custom, keys))
        return keys

    def contacts(self) -> dict[int, frozenset[int]]:
        """For each region, the other regions one tile could join it to (see
        :meth:`contact_groups`); regions with none are left out. Cached per map like the
        summaries."""
        if self._contacts is not None:
            return self._contacts
        custom = self.state.get("custom_tiles")
        hit = None if self._own else _CONTACTS.get(id(self.regions))
        if hit is not None and hit[0] is self.regions and hit[1] is self.board \
                and hit[2] is custom:
            self._contacts = hit[3]
            return hit[3]
        joined: dict[int, set[int]] = {}
        for group in self.contact_groups():
            for rid in group:
                joined.setdefault(rid, set()).update(group)
        out = {rid: frozenset(others - {rid}) for rid, others in joined.items()}
        self._contacts = out
        if not self._own:
            _cache_put(_CONTACTS, id(self.regions), (self.regions, self.board, custom, out))
        return out

    def contact_groups(self) -> list[frozenset[int]]:
        """Groups of two or more regions that one tile could join: the regions whose land
        faces one free cell, and those with parts in one tile without a pyramid (which may
        be replaced by a landmass)."""
        board, regions = self.board, self.regions
        facing: dict[str, set[int]] = {}
        groups: list[frozenset[int]] = []
        for cell, (_, rot) in board.items():
            t = self.tile_at(cell)
            sides, keys = _sides(cell, t, rot)
            for nb, key in sides:
                if nb not in board:
                    rids = facing.get(nb)
                    if rids is None:
                        facing[nb] = {regions[key]}
                    else:
                        rids.add(regions[key])
            if len(keys) > 1 and not t.has_pyramid:
                rids = {regions[k] for k in keys}
                if len(rids) > 1:
                    groups.append(frozenset(rids))
        return groups + [frozenset(rids) for rids in facing.values() if len(rids) > 1]

    def changed_regions(self) -> set[int]:
        """Ids of the regions whose parts :meth:`add` and :meth:`remove` changed since this
        Land was built from its state (ids gone or new included); every other region is
        the same, with the same summary, in both maps."""
        return set(self._moved)

    def region_of(self, key: str) -> Region:
        return self.region(self.regions[key])

    def continent_labelled(self, cell: str) -> Region | None:
        """The continent named by ``cell`` (the continent of that tile's landmass)."""
        if cell not in self.board:
            return None
        for i, p in enumerate(self.tile_at(cell).parts):
            if p.kind == LANDMASS:
                r = self.region_of(part_key(cell, i))
                return r if r.kind == CONTINENT and r.label == cell else None
        return None

    # --- changing -------------------------------------------------------------------------
    def add(self, cell: str, tile_id: str, rotation: int) -> None:
        """Put a tile on a free cell and merge the regions its parts touch."""
        self._write()
        self.board[cell] = [tile_id, rotation]
        self._tiles.pop(cell, None)
        if self._landmass is not None:
            idx = landmass_index(self.tile_at(cell))
            if idx is not None:
                self._landmass = self._landmass + [part_key(cell, idx)]
        changed: set[int] = set()
        board, regions = self.board, self.regions
        neighbours = geometry.neighbours(cell)
        # the parts' neighbours as in ``joined_parts``, written out: this is the hottest
        # loop of the computer player's estimate
        for idx, slots in enumerate(part_slots(self.tile_at(cell), rotation)):
            key = part_key(cell, idx)
            touching = set()
            for slot in slots:
                nb = neighbours[slot]
                if nb is not None and nb in board:
                    other = part_on_slot(self.tile_at(nb), board[nb][1])[slot]
                    touching.add(regions[part_key(nb, other)])
            if not touching:
                regions[key] = self.next_region
                changed.add(self.next_region)
                self.next_region += 1
                continue
            keep = min(touching)
            regions[key] = keep
            for rid in touching:
                if rid != keep:
                    for k in self._parts_now(rid, changed):
                        regions[k] = keep
            changed |= touching
        self._changed(changed)

    def _parts_now(self, rid: int, changing: set[int]) -> list[str]:
        """The parts of region ``rid`` on the map as it is, while regions ``changing`` (and
        those changed before) are being changed: those of the starting map if the region
        was left alone, else found on the map."""
        if self._base is not None and rid not in self._moved and rid not in changing:
            return self._base[0].get(rid, [])
        return [k for k, r in self.regions.items() if r == rid]

    def remove(self, cell: str) -> None:
        """Take the tile at ``cell`` off the board and re-split the regions it was in."""
        members = self.members()
        self._write()
        gone = self.parts_of(cell)
        if self._landmass is not None:
            self._landmass = [k for k in self._landmass if k not in gone]
        # the parts left that touched the tile, by region: a region only splits if the tile
        # joined two or more of them that nothing else joins
        ends: dict[int, list[str]] = {}
        for k in gone:
            for o in self.joined_parts(k):
                ends.setdefault(self.regions[o], []).append(o)
        affected = {self.regions.pop(k) for k in gone}
        del self.board[cell]
        self._tiles.pop(cell, None)
        first_new = self.next_region
        self._changed(affected)
        for rid in sorted(affected):
            if _connected(self, ends.get(rid, [])):
                continue  # still one piece (or gone): it keeps its id
            left = sorted((k for k in members.get(rid, ()) if k not in gone), key=_part_order)
            seen: set[str] = set()
            first = True
            for start in left:
                if start in seen:
                    continue
                comp = _flood(self, start)
                seen |= comp
                new_id = rid if first else self.next_region
                if not first:
                    self.next_region += 1
                first = False
                for k in comp:
                    self.regions[k] = new_id
        self._changed(affected | set(range(first_new, self.next_region)))


def _part_order(key: str) -> tuple[int, int, int]:
    cell, idx = split_key(key)
    return (*geometry.sort_key(cell), idx)


def _connected(land: Land, keys: list[str]) -> bool:
    """Are all ``keys`` in one piece of land?"""
    want = set(keys)
    return len(want) < 2 or want <= _flood(land, keys[0], want)


def _flood(land: Land, start: str, until: set[str] | None = None) -> set[str]:
    """The piece of land part ``start`` is in; given ``until``, it may stop as soon as it
    holds all of those (a removed tile's neighbours still joined need no full flood)."""
    seen = {start}
    todo = [start]
    missing = set(until or ()) - seen
    if until and not missing:
        return seen
    while todo:
        for o in land.joined_parts(todo.pop()):
            if o not in seen:
                seen.add(o)
                todo.append(o)
                if o in missing:
                    missing.discard(o)
                    if not missing:
                        return seen
    return seen


def partition_from_scratch(state: dict[str, Any]) -> set[frozenset[str]]:
    """The regions of ``state``'s board computed from nothing but the tiles (for tests)."""
    land = Land({**state, "regions": {}, "next_region": 0})
    land.regions = {}
    out: set[frozenset[str]] = set()
    seen: set[str] = set()
    for cell in land.board:
        for key in land.parts_of(cell):
            if key not in seen:
                comp = frozenset(_flood(land, key))
                seen |= comp
                out.add(comp)
    return out


def partition_stored(state: dict[str, Any]) -> set[frozenset[str]]:
    groups: dict[int, set[str]] = {}
    for key, rid in state["regions"].items():
        groups.setdefault(rid, set()).add(key)
    return {frozenset(g) for g in groups.values()}
