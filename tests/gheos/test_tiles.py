"""The reconstructed tile set keeps the facts the sources give (see data/README.md)."""

from collections import Counter

from engines.gheos.data import (
    EPOCH_IDS,
    LANDSCAPE_IDS,
    START_TILE,
    TEMPLES,
    TILES,
    distinct_rotations,
    part_slots,
)


def test_52_landscape_tiles_with_one_start_tile_and_8_epoch_tiles():
    assert len(LANDSCAPE_IDS) == 52
    assert [t.id for t in TILES.values() if t.start] == [START_TILE]
    assert len(EPOCH_IDS) == 8


def test_every_edge_carries_land_in_one_of_the_three_configurations():
    configs = Counter()
    for t in TILES.values():
        assert sorted(e for p in t.parts for e in p.edges) == [0, 1, 2]
        for p in t.parts:
            assert p.kind == ("shore" if len(p.edges) == 1 else "landmass")
        configs[t.configuration] += 1
    assert set(configs) == {"landmass3", "landmass2", "shores"}
    assert all(n >= 10 for n in configs.values()), configs


def test_one_or_two_symbols_per_tile_at_most_one_pyramid_or_temple():
    for t in TILES.values():
        symbols = [s for p in t.parts for s in p.symbols]
        assert 1 <= len(symbols) <= 2, t.id
        assert sum(1 for s in symbols if s == "pyramid" or s in TEMPLES) <= 1, t.id


def test_all_kinds_of_symbols_and_temples_appear():
    counts = Counter(s for t in TILES.values() for p in t.parts for s in p.symbols)
    for s in ("wheat", "chalice", "swords", "pyramid", *TEMPLES):
        assert counts[s] >= 3, s


def test_no_two_tiles_alike_in_any_rotation():
    def form(t, r):
        return tuple(sorted((part_slots(t, r)[i], p.symbols) for i, p in enumerate(t.parts)))

    seen = {}
    for t in TILES.values():
        forms = {form(t, r) for r in range(3)}
        for f in forms:
            assert f not in seen, (t.id, seen.get(f))
        for f in forms:
            seen[f] = t.id


def test_distinct_rotations_drop_only_lookalikes():
    full = next(t for t in TILES.values() if t.configuration == "landmass3")
    assert distinct_rotations(full) == (0,)
    two = next(t for t in TILES.values() if t.configuration == "landmass2")
    assert distinct_rotations(two) == (0, 1, 2)


def test_start_tile_has_wheat_and_a_pyramid():
    symbols = [s for p in TILES[START_TILE].parts for s in p.symbols]
    assert "wheat" in symbols and "pyramid" in symbols
