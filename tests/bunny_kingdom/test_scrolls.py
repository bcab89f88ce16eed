"""Each of the 37 parchments, one test each, plus the rulings for the open questions."""

from __future__ import annotations

from engines.bunny_kingdom import GAME
from engines.bunny_kingdom.data import INDEX, SCROLLS
from engines.bunny_kingdom.scrolls import copy_targets, final_scores
from tests.bunny_kingdom.helpers import board_only, give_scrolls, give_waiting, own, put, tower

A, B, C = 0, 1, 2


def points(state, seat, card):
    for line in final_scores(state)[seat]:
        if line.card == card:
            return line.points
    raise KeyError(card)


def table(*scrolls, players=3):
    s = board_only(players)
    give_scrolls(s, A, *scrolls)
    return s


def test_the_deck_holds_37_distinct_parchments():
    assert len(SCROLLS) == len(set(SCROLLS)) == 37


# --- treasures ----------------------------------------------------------------------------
def test_royal_ring():
    assert points(table("royal_ring"), A, "royal_ring") == 1


def test_royal_coat():
    assert points(table("royal_coat"), A, "royal_coat") == 2


def test_royal_scepter():
    assert points(table("royal_scepter"), A, "royal_scepter") == 3


def test_royal_chalice():
    assert points(table("royal_chalice"), A, "royal_chalice") == 4


def test_royal_crown():
    assert points(table("royal_crown"), A, "royal_crown") == 5


def test_royal_carrot():
    assert points(table("royal_carrot"), A, "royal_carrot") == 6


def test_left_glove_alone_1_with_the_right_4():
    assert points(table("left_glove"), A, "left_glove") == 1
    s = table("left_glove", "right_glove")
    assert points(s, A, "left_glove") == 4


def test_right_glove_alone_1_pair_8_in_all():
    assert points(table("right_glove"), A, "right_glove") == 1
    s = table("left_glove", "right_glove")
    assert points(s, A, "right_glove") + points(s, A, "left_glove") == 8


# --- counting missions --------------------------------------------------------------------
def test_bureaucrat_counts_every_parchment_including_itself():
    assert points(table("bureaucrat"), A, "bureaucrat") == 1
    assert points(table("bureaucrat", "royal_ring", "fisher"), A, "bureaucrat") == 3


def test_burgomaster_counts_cities_not_strength():
    s = table("burgomaster")
    own(s, A, "A4", "B3", "A3")
    put(s, "A3", "city_2")
    assert points(s, A, "burgomaster") == 3


def test_diplomat_counts_edge_territories():
    s = table("diplomat")
    own(s, A, "A1", "A5", "E10", "J3", "E5")
    assert points(s, A, "diplomat") == 4


def test_explorer_3_per_corner():
    s = table("explorer")
    own(s, A, "A1", "A10", "J10", "A2")
    assert points(s, A, "explorer") == 9


def _woods(s, n):
    forests = ["A1", "A2", "A3", "A8", "D10", "E1", "F1", "F4", "F5", "F9", "G1"]
    own(s, A, *forests[:n])


def test_carpenter_1_per_wood_repeats_count():
    s = table("carpenter")
    _woods(s, 3)
    put(s, "A1", "farm_wood")  # a forest with a wood farm gives 2 wood
    assert points(s, A, "carpenter") == 4


def test_master_carpenter_2_per_wood():
    s = table("master_carpenter")
    _woods(s, 3)
    assert points(s, A, "master_carpenter") == 6


def test_woodland_king_20_from_7_wood():
    s = table("woodland_king")
    _woods(s, 6)
    assert points(s, A, "woodland_king") == 0
    own(s, A, "G1")
    assert points(s, A, "woodland_king") == 20


def test_fisher_1_per_fish_wherever_it_is():
    s = table("fisher")
    own(s, A, "A5", "J9")  # two fiefs, no city: resources still count
    assert points(s, A, "fisher") == 2


def test_master_fisher_2_per_fish():
    s = table("master_fisher")
    own(s, A, "A5", "A6", "A7")
    assert points(s, A, "master_fisher") == 6


def test_fisher_king_20_from_7_fish():
    s = table("fisher_king")
    own(s, A, "A5", "A6", "A7", "A10", "B4", "B5")
    assert points(s, A, "fisher_king") == 0
    put(s, "A5", "farm_fish")
    assert points(s, A, "fisher_king") == 20


def test_farmer_1_per_carrot():
    s = table("farmer")
    own(s, A, "C7", "D4")
    assert points(s, A, "farmer") == 2


def test_master_farmer_2_per_carrot_and_trading_post_round_4_choice():
    s = table("master_farmer")
    own(s, A, "C7", "E4")
    put(s, "E4", "trading_post")
    s["posts"]["E4"] = "carrots"  # the choice made at the round-4 harvest
    assert points(s, A, "master_farmer") == 4
    s["posts"]["E4"] = "fish"
    assert points(s, A, "master_farmer") == 2


def test_carrot_king_15_from_5_carrots():
    s = table("carrot_king")
    own(s, A, "C7", "D4", "D7", "E3")
    assert points(s, A, "carrot_king") == 0
    put(s, "E3", "farm_carrots")
    assert points(s, A, "carrot_king") == 15


def test_merchant_3_per_luxury_resource():
    s = table("merchant")
    own(s, A, "A5", "B1", "A3")
    put(s, "A5", "farm_pearl")
    put(s, "B1", "farm_gold")
    put(s, "A3", "farm_wood")  # a basic farm is no luxury
    assert points(s, A, "merchant") == 6


def test_master_of_the_mountains_2_per_mountain():
    s = table("master_of_the_mountains")
    own(s, A, "B1", "B2", "A1")
    assert points(s, A, "master_of_the_mountains") == 4


def test_carrotistador_4_per_fief_of_3_or_more():
    s = table("carrotistador")
    own(s, A, "A1", "A2", "A3")  # 3
    own(s, A, "J1", "J2")  # 2
    own(s, A, "E5", "E6", "E7", "F6")  # 4
    assert points(s, A, "carrotistador") == 8


def test_harecingetorix_1_per_fief_sky_towers_count():
    s = table("harecingetorix")
    own(s, A, "A1", "C10", "J1", "J10")
    assert points(s, A, "harecingetorix") == 4
    tower(s, "A1", "J1")  # towers join fiefs: fewer fiefs
    assert points(s, A, "harecingetorix") == 3


def test_hun_ny_king_12_from_10_fiefs():
    s = table("hun_ny_king")
    own(s, A, "A1", "A3", "A5", "A7", "A9", "C1", "C3", "C5", "C7")
    assert points(s, A, "hun_ny_king") == 0
    own(s, A, "C9")
    assert points(s, A, "hun_ny_king") == 12


def test_bun_shee_2_per_city_in_fiefs_without_resources():
    s = table("bun_shee")
    own(s, A, "A4", "B3")  # city + city, no resource
    own(s, A, "G5", "G6")  # city + plains, no resource
    own(s, A, "E10", "D10")  # city + forest: has a resource
    assert points(s, A, "bun_shee") == 6


def test_panpan_counts_territories_with_no_city_and_no_resource():
    s = table("panpan_the_barbarian")
    own(s, A, "A9", "B1", "B2", "E2", "C3", "A4", "A1")
    put(s, "B2", "farm_iron")  # a luxury farm: produces
    put(s, "E2", "camp_1")  # a camp is no city
    put(s, "C3", "sky_tower")  # a sky tower is no city
    # A9 plains, B1 mountain, E2 camp on plains, C3 tower on plains count; A4 city, A1 forest,
    # B2 iron farm do not
    assert points(s, A, "panpan_the_barbarian") == 8


def test_colonist_3_per_camp_card_played_placed_or_waiting():
    s = table("colonist")
    give_waiting(s, A, "camp_2")
    s["discard"][A].append("camp_5")  # a camp card built (even if later removed)
    s["deck"].remove("camp_5")
    assert points(s, A, "colonist") == 6


def test_king_of_thieves_12_from_9_cities():
    s = table("king_of_thieves")
    own(s, A, "A4", "B3", "B7", "B9", "C1", "D3", "D9", "E6")
    assert points(s, A, "king_of_thieves") == 0
    own(s, A, "E10")
    assert points(s, A, "king_of_thieves") == 12


def test_matriarch_12_for_the_most_territories_ties_all_score():
    s = table("matriarch")
    own(s, A, "A1", "A2", "A3")
    own(s, B, "J1", "J2")
    assert points(s, A, "matriarch") == 12
    own(s, B, "J3")  # tied at 3: our ruling, every tied player counts as having the most
    assert points(s, A, "matriarch") == 12
    own(s, B, "J4")
    assert points(s, A, "matriarch") == 0


def test_little_prince_harvests_all_fiefs_but_the_best_once():
    s = table("little_prince")
    own(s, A, "A4", "A5")  # 1 x 1 = 1
    own(s, A, "J3", "J4")  # 1 x 1 = 1
    own(s, A, "E10", "D10")  # 1 x 1 = 1
    own(s, A, "B9", "A9", "A10", "B10")  # city + plains + 2 seas
    put(s, "A9", "city_1")  # 2 x 1 = 2: the best, left out
    assert points(s, A, "little_prince") == 3


def test_little_prince_excludes_only_one_of_tied_best_fiefs():
    s = table("little_prince")
    own(s, A, "A4", "A5")
    own(s, A, "J3", "J4")
    assert points(s, A, "little_prince") == 1


def test_treasure_guardian_3_per_treasure():
    s = table("treasure_guardian", "royal_ring", "left_glove", "fisher")
    assert points(s, A, "treasure_guardian") == 6


def test_treasure_hunter_doubles_treasures_glove_pair_included():
    s = table("treasure_hunter", "royal_crown", "left_glove", "right_glove")
    assert points(s, A, "treasure_hunter") == 13  # 5 + 4 + 4 once more


def test_liberal_copies_a_parchment_of_the_right_neighbour():
    s = table("liberal")
    give_scrolls(s, C, "royal_carrot")  # seat 0's right neighbour is seat 2 (seat - 1)
    give_scrolls(s, B, "royal_crown")
    assert copy_targets(s, A, "liberal") == ["royal_carrot"]
    s["copies"][A]["liberal"] = "royal_carrot"
    assert points(s, A, "liberal") == 6


def test_socialist_copies_a_parchment_of_the_left_neighbour():
    s = table("socialist")
    give_scrolls(s, B, "master_of_the_mountains")  # left neighbour: seat + 1
    own(s, A, "B1", "B2", "C2")
    s["copies"][A]["socialist"] = "master_of_the_mountains"
    assert copy_targets(s, A, "socialist") == ["master_of_the_mountains"]
    assert points(s, A, "socialist") == 6  # counted on the copier's own board


def test_opportunist_10_for_second_place_resolved_last():
    s = table("opportunist")
    s["score"] = [50, 60, 40]
    assert points(s, A, "opportunist") == 10
    s["score"] = [50, 50, 40]  # tied first: nobody is second (competition ranking)
    assert points(s, A, "opportunist") == 0
    s["score"] = [70, 60, 40]
    assert points(s, A, "opportunist") == 0


# --- rulings for the open questions -------------------------------------------------------
def test_copy_cards_copy_whole_cards_and_copied_treasures_count():
    s = table("liberal", "left_glove", "treasure_guardian")
    give_scrolls(s, C, "right_glove")
    s["copies"][A]["liberal"] = "right_glove"
    assert points(s, A, "liberal") == 4 and points(s, A, "left_glove") == 4
    assert points(s, A, "treasure_guardian") == 6


def test_a_copy_card_cannot_copy_a_copy_card():
    s = table("liberal", players=2)
    give_scrolls(s, B, "socialist", "fisher")
    assert copy_targets(s, A, "liberal") == ["fisher"]
    assert copy_targets(s, B, "socialist") == []  # seat 0 holds only a copy card


def test_two_players_both_copy_cards_copy_the_opponent():
    s = table("liberal", "socialist", players=2)
    give_scrolls(s, B, "royal_ring")
    assert copy_targets(s, A, "liberal") == copy_targets(s, A, "socialist") == ["royal_ring"]


def test_copy_with_nothing_to_copy_scores_zero():
    s = table("socialist")
    assert copy_targets(s, A, "socialist") == []
    assert points(s, A, "socialist") == 0


def test_a_copied_treasure_hunter_counts_the_copiers_treasures():
    s = board_only(2)
    give_scrolls(s, A, "royal_crown", "liberal")
    give_scrolls(s, B, "treasure_hunter", "royal_ring")
    s["copies"][A]["liberal"] = "treasure_hunter"
    assert points(s, A, "liberal") == 5 and points(s, B, "treasure_hunter") == 1


def test_each_treasure_hunter_effect_adds_the_treasures_once():
    # one Treasure Hunter exists, so two effects for one player cannot happen in the base
    # game; the ruling (each effect adds the value once) is what the scorer does anyway
    s = board_only(2)
    give_scrolls(s, A, "treasure_hunter", "royal_crown", "liberal")
    s["copies"][A]["liberal"] = "treasure_hunter"
    assert points(s, A, "treasure_hunter") == 5 and points(s, A, "liberal") == 5


def test_several_opportunists_are_judged_on_the_same_totals():
    s = table("opportunist")
    give_scrolls(s, B, "liberal")
    s["copies"][B]["liberal"] = "opportunist"  # seat 1's right neighbour is seat 0
    s["score"] = [60, 50, 40]
    assert points(s, A, "opportunist") == 0 and points(s, B, "liberal") == 10
    s["score"] = [50, 50, 60]
    assert points(s, A, "opportunist") == 10 and points(s, B, "liberal") == 10


def test_final_score_lines_explain_each_parchment():
    s = table("liberal", "fisher")
    own(s, A, "A5", "A6")
    give_scrolls(s, C, "royal_carrot")
    s["copies"][A]["liberal"] = "royal_carrot"
    s["phase"] = "over"
    s["final"] = [[x.as_dict() for x in lines] for lines in final_scores(s)]
    lines = GAME.scores(s)[A]
    keys = [(line.key, line.points) for line in lines]
    assert ("bunny_kingdom.score.copy.liberal", 0) in keys
    assert ("bunny_kingdom.score.copied.royal_carrot", 6) in keys
    fisher = next(x for x in lines if x.key == "bunny_kingdom.score.scroll.fisher")
    assert fisher.points == 2 and fisher.params == {"count": 2, "each": 1}


def test_indexes_are_the_printed_coordinates():
    assert INDEX["A1"] == 0 and INDEX["A10"] == 9 and INDEX["J10"] == 99
