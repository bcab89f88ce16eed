"""Prestige points, bonuses of the variants, and every tie-break step."""

from engines.kingdomino import scoring
from engines.kingdomino.kingdom import terrain_and_crowns
from engines.kingdomino.notation import rows_from_picture

from .helpers import GAME, position


def over(*pictures: str, variants=(), discarded=None, history=()) -> dict:
    return position(len(pictures), kingdoms=list(pictures), variants=variants, phase="over",
                    round=12, discarded=discarded, history=history)


def total(picture: str, **kwargs) -> int:
    return GAME.totals(over(picture, "CC", **kwargs))[0]


def test_property_scores_squares_times_crowns():
    # wheat property of 4 squares with 2 crowns: 8; forest 2 squares 1 crown: 2
    assert total("W1 W0 CC F1\nW0 W1 .. F0") == 8 + 2


def test_property_without_crowns_scores_zero():
    assert total("W0 W0 CC\nW0 W0 ..") == 0
    lines = GAME.scores(over("W0 W0 CC F1", "CC"))[0]
    assert [(line.key, line.points) for line in lines] == [("kingdomino.score.property", 1)]


def test_same_terrain_in_two_places_scores_separately():
    # two wheat groups of 2 squares with a crown each: 2 + 2 (not 4 x 2 = 8)
    assert total("W1 W0 CC W1 W0") == 4
    lines = GAME.scores(over("W1 W0 CC W1 W0", "CC"))[0]
    assert [line.params for line in lines] == [
        {"terrain": "wheat", "icon": "🌾", "squares": 2, "crowns": 1}] * 2


def test_diagonal_squares_are_different_properties():
    assert total("L1 .. ..\n.. L1 CC") == 2  # two properties of 1 square x 1 crown


def test_castle_belongs_to_no_property():
    # the castle does not join the two wheat squares on either side into one property
    assert total("W1 CC W1") == 2
    terrain, crowns = terrain_and_crowns(rows_from_picture("W1 CC W1"))
    assert [squares for _, squares, _ in scoring.survey(terrain, crowns, 9).properties] == [1, 1]


def test_full_kingdom_example():
    picture = """
        W1 W0 F0 F1 F0
        G2 W0 L1 L0 F0
        G0 S0 CC L0 M2
        G1 S1 L0 L1 M0
        G0 S0 S0 W0 W0
    """
    # wheat 3 squares x 1 crown = 3; forest 4 x 1 = 4; grassland 4 x 3 = 12; lake 5 x 2 = 10;
    # swamp 4 x 1 = 4; mine 2 x 2 = 4; wheat (bottom right) 2 x 0 = 0
    assert total(picture) == 3 + 4 + 12 + 10 + 4 + 4 == 37
    assert total(picture, variants=["middle_kingdom"]) == 37 + 10
    assert total(picture, variants=["harmony"]) == 37 + 5
    assert total(picture, variants=["harmony", "middle_kingdom"]) == 37 + 15


def test_middle_kingdom_needs_the_castle_in_the_middle_of_the_box():
    centred = "W0 W0 W0\nW0 CC W0\nW0 W0 W0"
    assert total(centred, variants=["middle_kingdom"]) == 10  # holes and a 3x3 box allowed
    assert total("W0 CC W0", variants=["middle_kingdom"]) == 10
    assert total("CC W0 W0", variants=["middle_kingdom"]) == 0
    assert total("W0 CC\n.. W0", variants=["middle_kingdom"]) == 0
    lines = GAME.scores(over(centred, "CC", variants=["middle_kingdom"]))[0]
    assert [(line.key, line.points) for line in lines] == [("kingdomino.score.middle_kingdom", 10)]


def test_harmony_only_without_discarded_dominoes():
    assert total("W1 CC", variants=["harmony"]) == 1 + 5
    assert total("W1 CC", variants=["harmony"], discarded=[[40], []]) == 1
    lines = GAME.scores(over("W1 CC", "CC", variants=["harmony"]))[1]
    assert [(line.key, line.points) for line in lines] == [("kingdomino.score.harmony", 5)]


def test_no_bonus_without_its_variant():
    assert total("W0 CC W0") == 0


def test_ranking_by_points():
    assert GAME.ranking(over("W1 W0 CC", "W1 CC")) == [[0], [1]]


def test_tie_on_points_largest_property_wins_even_without_crowns():
    # both 2 points; seat 1 has a crownless forest of 3 squares
    assert GAME.ranking(over("W1 W0 CC", "W1 W0 CC F0 F0 F0")) == [[1], [0]]


def test_tie_on_points_and_largest_then_most_crowns():
    seat0 = "W1 W0 CC F0 F0"  # 2 points, largest 2, 1 crown
    seat1 = "G2 CC F0 F0"  # 2 points, largest 2, 2 crowns
    assert GAME.ranking(over(seat0, seat1)) == [[1], [0]]


def test_full_tie_is_a_shared_place():
    assert GAME.ranking(over("W1 W0 CC", "CC L1 L0", "F0 CC")) == [[0, 1], [2]]


def test_dynasty_totals_add_up_and_tie_breaks_are_summed():
    history = [{"points": [10, 4], "largest": [3, 9], "crowns": [5, 1]}]
    state = over("W1 W0 CC", "W1 W0 W0 CC F1", variants=["dynasty"], history=history)
    # game 2 now: seat 0 has 2, seat 1 has 3 + 1 = 4 -> totals 12 and 8
    assert GAME.totals(state) == [12, 8]
    assert GAME.scores(state)[0][0].key == "kingdomino.score.previous_games"
    assert GAME.scores(state)[0][0].points == 10
    assert GAME.scores(state)[0][0].params == {"games": 1}
    assert GAME.ranking(state) == [[0], [1]]
    # equal totals: summed largest decides (3 + 2 = 5 against 9 + 3 = 12)
    history = [{"points": [10, 9], "largest": [3, 9], "crowns": [5, 1]}]
    state = over("W1 W0 CC", "W1 W0 W0 CC", variants=["dynasty"], history=history)
    assert GAME.totals(state) == [12, 12] and GAME.ranking(state) == [[1], [0]]
    # equal totals and summed largest: summed crowns decides
    history = [{"points": [10, 10], "largest": [3, 3], "crowns": [5, 1]}]
    state = over("W1 W0 CC", "W1 W0 CC", variants=["dynasty"], history=history)
    assert GAME.ranking(state) == [[0], [1]]
    history = [{"points": [10, 10], "largest": [3, 3], "crowns": [1, 1]}]
    state = over("W1 W0 CC", "W1 W0 CC", variants=["dynasty"], history=history)
    assert GAME.ranking(state) == [[0, 1]]


def test_rank_helper_orders_tallies():
    tallies = [scoring.Tally(5, 3, 2), scoring.Tally(7, 1, 1), scoring.Tally(5, 3, 2)]
    assert scoring.rank(tallies) == [[1], [0, 2]]
