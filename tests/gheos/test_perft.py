"""Perft-style counts of legal actions from fixed positions."""

from engines.gheos import GAME
from engines.gheos.position import position

from .helpers import full, lr


def test_counts_round_the_start_tile():
    # 3 free cells; the two-edge landmass tile has 3 looks, the full one 1; the start tile
    # has a pyramid, so nothing can be replaced
    s = position(2, {"M30": "T1"}, hands=[[lr("wheat"), full("chalice")], []])
    assert len(GAME.legal_actions(s, 0)) == 3 * (3 + 1)


def test_counts_with_a_replaceable_tile():
    s = position(2, {"M30": "T1", "M29": full()}, hands=[[lr("wheat"), full("chalice")], []])
    codes = GAME.legal_actions(s, 0)
    assert sum(c.startswith("place") for c in codes) == 4 * 4  # M28, N29, M31, L30
    assert sum(c.startswith("replace") for c in codes) == 4  # M29 only
    assert GAME.legal_actions(s, 1) == []


def test_counts_in_step_two():
    s = position(2, {"M27": lr("wheat"), "M28": lr(), "K27": full(), "K28": full(),
                     "O27": full(), "O28": full()}, civs={"blue": "O27"}, phase="civ")
    codes = GAME.legal_actions(s, 0)
    assert sum(c.startswith("found") for c in codes) == 5 * 2  # 5 free colours, 2 continents
    assert [c for c in codes if c.startswith("take")] == ["take blue"]
