"""One test per rule of gheos.pl.txt (the worked examples are in test_rulebook_examples)."""

from collections import Counter

import pytest

from engines.base import BadOptions
from engines.gheos import GAME
from engines.gheos.data import TILES, is_epoch
from engines.gheos.position import part, position
from engines.gheos.regions import CONTINENT, ISLAND, OPEN, Land

from .helpers import check_invariants, full, keys, lr, play, region_of_civ, shores


# --- setup ----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_start_tile_two_tiles_each_three_tokens(players):
    s = GAME.setup(players, {}, 5)
    assert s["board"] == {"M30": ["T1", 0]}
    assert all(len(h) == 2 for h in s["hands"])
    assert s["tokens"] == [3] * players
    assert len(s["bag"]) == 51 + 8 - 2 * players
    check_invariants(s)


def test_epoch_tiles_drawn_in_setup_are_shuffled_back():
    reshuffled = 0
    for seed in range(300):
        s = GAME.setup(4, {}, seed)
        assert not any(is_epoch(t) for h in s["hands"] for t in h)
        reshuffled += s["rng_draws"] > 1
    assert reshuffled > 0  # some seeds did draw an epoch tile and put it back


def test_player_count_is_2_to_4():
    for n in (1, 5):
        with pytest.raises(BadOptions):
            GAME.setup(n, {}, 1)


def test_same_seed_same_game():
    assert GAME.setup(3, {}, 9) == GAME.setup(3, {}, 9)
    assert GAME.setup(3, {}, 9)["bag"] != GAME.setup(3, {}, 10)["bag"]


# --- land: islands and continents ---------------------------------------------------------
def test_two_shores_make_an_island_a_landmass_over_two_tiles_a_continent():
    s = position(2, {"M27": shores(), "M28": shores(), "K27": full(), "K28": shores()})
    land = Land(s)
    kinds = Counter(land.region(rid).kind for rid in set(land.regions.values()))
    # M27-M28 shores touch: one island; K27 landmass + K28 shore: a continent; the rest open
    assert kinds[ISLAND] == 1 and kinds[CONTINENT] == 1
    assert land.region_of("K28/1").kind == CONTINENT
    assert land.region_of("M27/1").kind == ISLAND
    assert land.region_of("M27/0").kind == OPEN


def test_a_lone_landmass_is_not_a_continent():
    s = GAME.setup(2, {}, 1)
    assert Land(s).region_of("M30/0").kind == OPEN


def test_land_joins_across_every_shared_edge_even_around_a_corner():
    # the six cells round the corner at the top of M29, each a landmass on its two edges
    # that meet at that corner: the landmasses close into one ring-shaped continent
    ring = {"M29": [0, 1], "M28": [0, 2], "M30": [1, 2], "L29": [0, 1], "L28": [1, 2],
            "L30": [0, 2]}
    tiles = {c: [part(e), *[part([x]) for x in range(3) if x not in e]] for c, e in
             ring.items()}
    s = position(2, tiles)
    land = Land(s)
    ring_region = land.region_of("M29/0")
    assert sorted(ring_region.parts) == sorted(f"{c}/0" for c in ring)
    assert ring_region.kind == CONTINENT
    check_invariants(s)


# --- step 1: place or replace ------------------------------------------------------------
def test_place_must_touch_the_board_on_a_free_cell():
    s = GAME.setup(2, {}, 3)
    cells = {a.split()[2] for a in GAME.legal_actions(s, 0) if a.startswith("place")}
    assert cells == {"L30", "M29", "M31"}  # the three cells round the start tile


def test_replace_swaps_a_tile_which_leaves_the_game():
    s = position(2, {"M29": full("wheat"), "M30": full()}, hands=[[full("chalice"), "T9"], []])
    s, ev = play(s, 0, "replace H1 M29 r0")
    assert s["board"]["M29"][0] == "H1"
    assert s["removed"] == ["X1"]
    assert ev[0]["key"] == "gheos.event.replaced" and ev[0]["old"] == "X1"


def test_tiles_with_a_pyramid_cannot_be_replaced():
    s = position(2, {"M29": full("pyramid"), "M30": full()}, hands=[[full(), "T9"], []])
    cells = {a.split()[2] for a in GAME.legal_actions(s, 0) if a.startswith("replace")}
    assert cells == {"M30"}


def test_rotations_that_look_the_same_are_listed_once():
    s = position(2, {"M30": full()}, hands=[[full("wheat"), lr("wheat")], []])
    codes = GAME.legal_actions(s, 0)
    assert [c for c in codes if c.startswith("place H1 M29")] == ["place H1 M29 r0"]
    assert len([c for c in codes if c.startswith("place H2 M29")]) == 3


def test_war_or_migration_is_illegal_without_a_follower():
    s = position(3, {"M27": lr(), "M28": lr(), "M30": lr(), "M31": lr()},
                 civs={"yellow": "M27", "red": "M30"}, followers=[{}, {"red": 1}, {}],
                 hands=[[full(), "T9"], [], []])
    codes = GAME.legal_actions(s, 0)
    assert "place H1 M29 r0" not in codes
    assert "place H1 M26 r0" in codes
    from engines.base import IllegalAction

    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 0, "place H1 M29 r0")
    assert err.value.key == "gheos.rule.conflict_needs_follower"


def test_war_with_three_civilizations_both_losers_go():
    # red (1 sword) left of M29, blue (2 swords) right, green (0) below: all join at M29
    s = position(3, {
        "M27": lr(), "M28": lr("swords"),
        "M30": lr("swords"), "M31": lr("swords"),
        "N29": [part([1, 2]), part([0])], "N28": [part([0, 1]), part([2])],
    }, civs={"red": "M27", "blue": "M31", "green": "N28"},
        followers=[{"red": 1}, {"blue": 2}, {"green": 3}], hands=[[full(), "T9"], [], []])
    s, ev = play(s, 0, "place H1 M29 r0")
    war = next(e for e in ev if e["key"] == "gheos.event.war")
    assert war["winner"] == "blue" and sorted(war["losers"]) == ["green", "red"]
    assert set(s["civs"]) == {"blue"}
    assert s["followers"] == [{}, {"blue": 2}, {}]
    check_invariants(s)


def test_war_tie_is_chosen_by_the_active_player_only_among_the_tied():
    s = position(3, {"M27": lr("swords"), "M28": lr(), "M30": lr("swords"), "M31": lr(),
                     "N29": [part([1, 2]), part([0])], "N28": [part([0, 1]), part([2])]},
                 civs={"red": "M27", "blue": "M31", "green": "N28"},
                 followers=[{"red": 1}, {}, {}], hands=[[full(), "T9"], [], []])
    s, _ = play(s, 0, "place H1 M29 r0")
    assert GAME.legal_actions(s, 0) == ["win red", "win blue"]  # green has no sword


def test_a_continent_reduced_to_an_island_is_a_migration_onto_the_island():
    """Our ruling: a replacement that leaves a civilization's land as one island (no split)
    still makes it migrate there, so it perishes, and the active player pays."""
    # red: M29's landmass and M30's left shore; after the swap only two shores are left
    s = position(2, {"M29": full(), "M30": [part([1]), part([0, 2])]}, civs={"red": "M29"},
                 followers=[{"red": 1}, {"red": 1}], hands=[[shores(), "T9"], []])
    assert region_of_civ(s, "red").kind == CONTINENT
    s, ev = play(s, 0, "replace H1 M29 r0")
    assert keys(ev)[:3] == ["event.replaced", "event.migration", "event.paid"]
    assert "event.eliminated_island" in keys(ev)
    assert s["civs"] == {} and s["supply"]["red"] == 5


def test_migration_tie_between_continents_is_the_active_players_choice():
    s = position(2, {"M27": lr("wheat"), "M28": lr(), "M29": lr(), "M30": lr(),
                     "M31": lr("wheat")}, civs={"red": "M28"},
                 followers=[{"red": 1}, {}], hands=[[shores(), "T9"], []])
    s, _ = play(s, 0, "replace H1 M29 r0")
    assert GAME.legal_actions(s, 0) == ["migrate red M27", "migrate red M30"]
    s, ev = play(s, 0, "migrate red M30")
    assert region_of_civ(s, "red").label == "M30"
    check_invariants(s)


def test_a_marker_on_the_replaced_tile_stays_on_its_continent():
    s = position(2, {"M28": lr(), "M29": full("wheat"), "M30": lr()}, civs={"red": "M29"},
                 followers=[{"red": 1}, {}], hands=[[full("chalice"), "T9"], []])
    s, ev = play(s, 0, "replace H1 M29 r0")
    assert "event.migration" not in keys(ev) and "event.paid" not in keys(ev)
    assert region_of_civ(s, "red").counts["chalice"] == 1
    check_invariants(s)


# --- temples -------------------------------------------------------------------------------
def test_temple_on_an_uninhabited_continent_scores_nothing():
    s = position(2, {"M29": full("swords"), "M30": full("swords")},
                 hands=[[full("temple_swords"), "T9"], []])
    s, ev = play(s, 0, "place H1 M31 r0")
    assert s["points"][0]["temple"] == 0


def test_temples_are_not_normal_symbols():
    s = position(2, {"M29": full("temple_chalice"), "M30": full("chalice")},
                 civs={"red": "M29"}, followers=[{}, {"red": 1}],
                 hands=[[full("temple_chalice"), "T9"], []])
    assert region_of_civ(s, "red").counts["chalice"] == 1
    s, _ = play(s, 0, "place H1 M31 r0")
    assert s["points"][0]["temple"] == 1


def test_temple_scores_after_the_war_it_caused():
    # the temple joins red and blue; blue wins on swords and the temple counts the joined land
    s = position(2, {"M27": lr("wheat"), "M28": lr(), "M30": lr("swords"), "M31": lr("wheat")},
                 civs={"red": "M27", "blue": "M31"}, followers=[{"red": 1}, {}],
                 hands=[[full("temple_wheat"), "T9"], []])
    s, ev = play(s, 0, "place H1 M29 r0")
    assert "event.war" in keys(ev)
    assert s["points"][0]["temple"] == 2


# --- step 2 --------------------------------------------------------------------------------
def test_found_takes_wheat_followers_at_most_five():
    s = position(2, {"M29": full("wheat", "wheat"), "M30": full("wheat", "wheat"),
                     "M31": full("wheat", "wheat")}, phase="civ")
    s, ev = play(s, 0, "found green M29")
    assert s["followers"][0] == {"green": 5} and s["supply"]["green"] == 0
    assert s["phase"] == "score"  # only once per turn: step 2 is over


def test_found_only_on_an_uninhabited_continent():
    s = position(2, {"M29": full("wheat"), "M30": full(), "K27": shores(), "K28": shores()},
                 civs={"red": "M29"}, phase="civ")
    assert GAME.legal_actions(s, 0) == ["take red"]


def test_take_one_follower_of_a_civilization_on_the_board_while_any_is_left():
    s = position(2, {"M29": full("wheat"), "M30": full()}, civs={"red": "M29"},
                 followers=[{"red": 4}, {"red": 1}], phase="civ")
    assert GAME.legal_actions(s, 0) == []  # supply empty, no continent free: step skipped
    s2 = position(2, {"M29": full("wheat"), "M30": full()}, civs={"red": "M29"},
                  followers=[{"red": 3}, {}], phase="civ")
    s2, _ = play(s2, 0, "take red")
    assert s2["followers"][0] == {"red": 4}


def test_all_six_markers_on_the_board_means_no_founding():
    tiles, civs = {}, {}
    for i, c in enumerate(("red", "green", "yellow", "blue", "black", "white")):
        a, b = f"{chr(ord('B') + 2 * i)}10", f"{chr(ord('B') + 2 * i)}11"
        tiles[a], tiles[b] = full(), full()
        civs[c] = a
    tiles["X10"], tiles["X11"] = full("wheat"), full()
    s = position(2, tiles, civs=civs, phase="civ")
    assert not any(a.startswith("found") for a in GAME.legal_actions(s, 0))


# --- step 3 and 4 ----------------------------------------------------------------------------
def test_unused_step_is_skipped_when_no_token_is_left():
    s = position(2, {"M29": full(), "M30": full()}, tokens=[0, 1],
                 hands=[[full(), "T9"], ["T10", "T11"]], bag=["T12"])
    s, ev = play(s, 0, "place H1 M31 r0", "found red M29")
    assert s["turn"] == 1 and s["phase"] == "tile"  # no token: straight to drawing
    assert sorted(s["hands"][0]) == ["T12", "T9"]


def test_two_epoch_tiles_in_a_row_score_twice():
    s = position(2, {"K27": full("pyramid"), "K28": full()}, civs={"red": "K27"},
                 followers=[{"red": 2}, {}], hands=[["T20"], ["T21", "T22"]],
                 bag=["T5", "E2", "E1"], phase="score")
    s, ev = play(s, 0, "pass")
    assert s["points"][0]["epoch"] == 4 and s["epochs"] == 2
    assert keys(ev).count("event.epoch") == 2


@pytest.mark.parametrize("players,last", [(2, 6), (3, 7), (4, 8)])
def test_the_game_ends_after_the_6th_7th_8th_epoch_tile_with_a_final_scoring(players, last):
    s = position(players, {"K27": full("pyramid", "chalice"), "K28": full()},
                 civs={"red": "K27"}, followers=[{"red": 2}] + [{}] * (players - 1),
                 hands=[["T20"]] + [["T21", "T22"]] * (players - 1),
                 bag=["T5", f"E{last}"], epochs=last - 1, phase="score")
    s, ev = play(s, 0, "pass")
    assert GAME.is_over(s) and s["end_reason"] == "epochs"
    assert s["points"][0]["epoch"] == 2 and s["points"][0]["final"] == 2
    assert keys(ev)[-1] == "event.game_over_epochs"
    assert GAME.to_act(s) == [] and GAME.legal_actions(s, 0) == []


def test_the_game_ends_when_all_scoring_tokens_are_used():
    s = position(2, {"K27": full("chalice"), "K28": full()}, civs={"red": "K27"},
                 followers=[{"red": 2}, {}], tokens=[1, 0], phase="score")
    s, ev = play(s, 0, "token")
    assert GAME.is_over(s) and s["end_reason"] == "tokens"
    # the token scores 2, then the final scoring as if a token were played: 2 more
    assert s["points"][0]["token"] == 2 and s["points"][0]["final"] == 2
    assert GAME.totals(s) == [4, 0]


def test_ties_go_to_most_followers_then_a_shared_place():
    s = position(3, {"K27": full(), "K28": full()}, civs={"red": "K27"},
                 followers=[{"red": 1}, {"red": 2}, {}], tokens=[0, 0, 0], phase="over")
    for seat in range(3):
        s["points"][seat]["token"] = 5
    assert GAME.ranking(s) == [[1], [0], [2]]
    s["followers"][0]["red"] = 2
    s["supply"]["red"] = 1
    assert GAME.ranking(s) == [[0, 1], [2]]
    lines = GAME.scores(s)[0]
    assert [line.key for line in lines][-1] == "gheos.score.final"


def test_start_tile_is_the_unique_red_star():
    assert TILES["T1"].start and sum(t.start for t in TILES.values()) == 1
