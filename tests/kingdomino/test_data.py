"""The 48 dominoes match the rulebook's component table."""

from collections import Counter

from engines.kingdomino.data import ALL_NUMBERS, DOMINOES, LETTER_TERRAIN


def test_48_dominoes_numbered_1_to_48():
    assert tuple(range(1, 49)) == ALL_NUMBERS


def test_square_counts_per_terrain_and_crowns_match_the_rulebook_table():
    squares = Counter()
    for d in DOMINOES.values():
        squares[(LETTER_TERRAIN[d.a_terrain], d.a_crowns)] += 1
        squares[(LETTER_TERRAIN[d.b_terrain], d.b_crowns)] += 1
    assert squares == Counter({
        ("wheat", 0): 21, ("wheat", 1): 5,
        ("forest", 0): 16, ("forest", 1): 6,
        ("lake", 0): 12, ("lake", 1): 6,
        ("grassland", 0): 10, ("grassland", 1): 2, ("grassland", 2): 2,
        ("swamp", 0): 6, ("swamp", 1): 2, ("swamp", 2): 2,
        ("mine", 0): 1, ("mine", 1): 1, ("mine", 2): 3, ("mine", 3): 1,
    })


def test_known_dominoes():
    assert DOMINOES[19].half("a") == ("wheat", 1) and DOMINOES[19].half("b") == ("forest", 0)
    assert DOMINOES[48].half("b") == ("mine", 3)
    assert DOMINOES[40].half("a") == ("mine", 1)
