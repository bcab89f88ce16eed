"""Placing a domino (zasady łączenia terenów): connection, the 5x5/7x7 limit, discarding."""

import pytest

from engines.base import IllegalAction, MalformedAction
from engines.kingdomino import rules
from engines.kingdomino.data import DOMINOES
from engines.kingdomino.kingdom import terrain_and_crowns

from .helpers import GAME, position, snapshot

# domino 19 = wheat with a crown (a) + forest (b); 1 = wheat + wheat; 3 = forest + forest


def placing(n: int, picture: str = "CC", **kwargs) -> dict:
    """Seat 0 must place domino ``n`` into the kingdom drawn by ``picture``."""
    return position(2, kingdoms=[picture], current=[(n, 0), (40, 1), (41, 0), (42, 1)],
                    next_line=[(5, None), (6, None), (7, None), (8, None)], **kwargs)


def legal(state: dict) -> list[str]:
    return GAME.legal_actions(state, GAME.to_act(state)[0])


def rejected(state: dict, code: str) -> str:
    before = snapshot(state)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 0, code)
    assert snapshot(state) == before
    return caught.value.key


def test_castle_is_wild_any_terrain_may_touch_it():
    state = placing(19)
    for code in ("place F5 G5", "place G5 F5", "place E4 E3", "place E6 D6"):
        assert code in legal(state)
        new, events = GAME.apply(state, 0, code)
        assert events[0]["key"] == "kingdomino.event.placed"


def test_lone_castle_has_24_placements():
    # 4 cells touch the castle, each with 3 free neighbours, both orientations: 4 * 3 * 2
    assert len(legal(placing(19))) == 24
    assert len(legal(placing(1))) == 24
    assert len(legal(placing(19, variants=["mighty_duel"]))) == 24


def test_matching_terrain_connects():
    state = placing(19, "W0 CC")  # wheat on D5
    assert "place C5 B5" in legal(state)  # wheat half next to wheat
    assert "place D4 D3" in legal(state)
    assert "place C4 C5" not in legal(state)  # forest half on C5 touches wheat: no match


def test_second_half_may_make_the_connection():
    state = placing(19, "F0 CC")  # forest on D5
    assert "place C4 C5" in legal(state)  # forest (b) on C5 touches forest on D5
    assert GAME.apply(state, 0, "place C4 C5")[0]["kingdoms"][0]["rows"][3][4:6] == "W1"


def test_no_matching_terrain_is_rejected_with_its_rule():
    state = placing(19, "W0 CC")
    assert rejected(state, "place C4 C5") == "kingdomino.rule.must_connect"


def test_diagonal_does_not_connect():
    state = placing(1, "W0 CC")  # wheat on D5; C4 is diagonal to it
    assert rejected(state, "place C4 B4") == "kingdomino.rule.must_connect"
    assert rejected(state, "place C4 C3") == "kingdomino.rule.must_connect"


def test_cells_must_be_adjacent_free_and_on_the_grid():
    state = placing(19, "W0 CC")
    assert rejected(state, "place F5 H5") == "kingdomino.rule.not_adjacent"
    assert rejected(state, "place F4 G5") == "kingdomino.rule.not_adjacent"
    assert rejected(state, "place D5 D4") == "kingdomino.rule.cell_taken"
    assert rejected(state, "place E5 E4") == "kingdomino.rule.cell_taken"
    assert rejected(state, "place J5 K5") == "kingdomino.rule.off_grid"
    assert rejected(state, "place A10 A9") == "kingdomino.rule.off_grid"


def test_kingdom_must_fit_5x5():
    state = placing(1, "W0 W0 CC W0 W0")  # columns C..G
    assert rejected(state, "place H5 I5") == "kingdomino.rule.kingdom_size"
    assert rejected(state, "place B5 A5") == "kingdomino.rule.kingdom_size"
    assert "place C4 C3" in legal(state)
    for code in legal(state):
        assert code.split()[1][0] in "CDEFG" and code.split()[2][0] in "CDEFG"


def test_5x5_box_need_not_be_centred_on_the_castle():
    state = placing(1, "CC W0 W0")  # columns E..G: may still grow to I, or back to C
    assert "place H5 I5" in legal(state)
    new, _ = GAME.apply(state, 0, "place H5 I5")
    # now E..I is full width: D is out of reach
    terrain, _ = terrain_and_crowns(new["kingdoms"][0]["rows"])
    assert not rules.fits_in_kingdom(terrain, 9, 5, (3 * 9 + 3,))


def test_vertical_limit_too():
    picture = "W0\nW0\nCC\nW0\nW0"  # rows 3..7
    state = placing(1, picture)
    assert rejected(state, "place E8 E9") == "kingdomino.rule.kingdom_size"
    assert rejected(state, "place E2 E1") == "kingdomino.rule.kingdom_size"


def test_mighty_duel_kingdom_fits_7x7():
    wide = "W0 W0 W0 CC W0 W0 W0"  # columns D..J of the 13x13 grid, castle on G7
    state = placing(1, wide, variants=["mighty_duel"])
    assert rejected(state, "place C7 B7") == "kingdomino.rule.kingdom_size"
    assert rejected(state, "place K7 L7") == "kingdomino.rule.kingdom_size"
    narrower = placing(1, "W0 W0 CC W0 W0", variants=["mighty_duel"])
    assert "place K7 L7" not in legal(narrower)
    assert "place J7 K7" in legal(narrower)  # 7 wide: E..K


def test_discard_only_when_no_placement_exists():
    ring = "F0 F0 F0\nF0 CC F0\nF0 F0 F0"
    stuck = placing(1, ring)  # wheat + wheat: no wheat, castle closed in
    assert legal(stuck) == ["discard"]
    new, events = GAME.apply(stuck, 0, "discard")
    assert events[0] == {"key": "kingdomino.event.discarded", "seat": 0, "n": 1}
    assert new["kingdoms"][0]["discarded"] == [1]
    assert new["phase"] == "pick"  # discarding is D1: the king still picks
    fits = placing(3, ring)  # forest + forest fits
    assert "discard" not in legal(fits)
    assert rejected(fits, "discard") == "kingdomino.rule.must_place"


def test_domino_that_no_longer_fits_the_5x5_is_discarded():
    full_rows = "\n".join(["W0 W0 W0 W0 W0"] * 2 + ["W0 W0 CC W0 W0"] + ["W0 W0 W0 W0 W0"] * 2)
    state = placing(1, full_rows)
    assert legal(state) == ["discard"]


def test_malformed_placements():
    state = placing(19)
    for code, key in [
        ("place", "kingdomino.malformed.place"),
        ("place C3", "kingdomino.malformed.place"),
        ("place C3 D3 E3", "kingdomino.malformed.place"),
        ("place 3C D3", "kingdomino.malformed.cell"),
        ("place C3 ##", "kingdomino.malformed.cell"),
        ("discard now", "kingdomino.malformed.discard"),
        ("build C3", "kingdomino.malformed.verb"),
        ("", "kingdomino.malformed.verb"),
    ]:
        before = snapshot(state)
        with pytest.raises(MalformedAction) as caught:
            GAME.apply(state, 0, code)
        assert caught.value.key == key, code
        assert snapshot(state) == before


def test_lower_case_cells_are_accepted():
    state = placing(19)
    assert GAME.apply(state, 0, "place f5 g5")[0] == GAME.apply(state, 0, "place F5 G5")[0]


def test_legal_placements_agree_with_the_single_placement_check():
    """Every pair of adjacent cells: legal_placements lists it iff check_placement accepts it."""
    pictures = ["CC", "W0 CC", "F0 F0 F0\nF0 CC F0\nL1 .. F0", "CC W0 W0 G2\n.. S1 .. M0"]
    for picture in pictures:
        for n in (1, 3, 19, 40, 48):
            state = placing(n, picture)
            terrain, _ = terrain_and_crowns(state["kingdoms"][0]["rows"])
            listed = set(rules.legal_placements(terrain, 9, 5, DOMINOES[n]))
            for a in range(81):
                for b in range(81):
                    if not rules.are_adjacent(a, b, 9):
                        continue
                    try:
                        rules.check_placement(terrain, 9, 5, DOMINOES[n], a, b)
                        ok = True
                    except IllegalAction:
                        ok = False
                    assert ok == ((a, b) in listed), (picture, n, a, b)
