"""Every worked example of the rulebook (gheos.pl.txt), built as a board position.

The rulebook's pictures are not in the text, so each position is the smallest board that
matches what the text says; the numbers (points, swords, wheat) are the rulebook's.
Cells used: the row M27 (up), M28 (down), M29 (up), M30 (down), M31 (up); neighbours in a
row meet through edges 0 and 1, so ``lr()`` is a landmass from the left to the right
neighbour, ``full()`` a landmass on all three edges, ``shores()`` three shores.
"""

from engines.gheos.position import land, part, position

from .helpers import check_invariants, full, keys, lr, play, region_of_civ, shores

ADAM, EWA, NOAH = 0, 1, 2


def test_temple_scores_two_for_two_swords_on_the_inhabited_continent():
    """Ewa adds a swords temple to the yellow continent, which shows 2 swords: 2 points."""
    s = position(3, {"M29": full("swords"), "M30": full("swords")}, civs={"yellow": "M29"},
                 followers=[{}, {"yellow": 1}, {}], hands=[[], [full("temple_swords")], []],
                 turn=EWA)
    s, ev = play(s, EWA, "place H1 M31 r0")
    assert s["points"][EWA]["temple"] == 2
    assert any(e["key"] == "gheos.event.temple" and e["points"] == 2 for e in ev)
    check_invariants(s)


def test_scoring_token_scores_eight():
    """Adam: red followers worth 1 chalice each, blue worth 2; none of the rich yellow ones.
    (The picture is not in the text; 2 red + 3 blue followers give the rulebook's 8.)"""
    s = position(3, {
        "K27": full("chalice"), "K28": full(),               # red: 1 chalice
        "M27": full("chalice"), "M28": full("chalice"),      # blue: 2 chalices
        "O27": full("chalice", "chalice"), "O28": full("chalice"),  # yellow: 3 chalices
    }, civs={"red": "K27", "blue": "M27", "yellow": "O27"},
        followers=[{"red": 2, "blue": 3}, {"yellow": 2}, {}], phase="score", turn=ADAM)
    s, ev = play(s, ADAM, "token")
    assert s["points"][ADAM]["token"] == 8
    assert s["points"][EWA]["token"] == 0  # only the active player scores
    assert s["tokens"] == [2, 3, 3]


def test_epoch_scoring_five_three_two():
    """Red's continent has 2 pyramids, blue's 1: Adam 5, Ewa 3, Noah 2."""
    s = position(3, {
        "K27": full("pyramid"), "K28": full("pyramid"),      # red: 2 pyramids
        "M27": full("pyramid"), "M28": full("wheat"),        # blue: 1 pyramid
    }, civs={"red": "K27", "blue": "M27"},
        followers=[{"red": 2, "blue": 1}, {"red": 1, "blue": 1}, {"blue": 2}],
        hands=[["T20"], ["T21", "T22"], ["T23", "T24"]], bag=["T5", "E1"],
        phase="score", turn=ADAM)
    s, ev = play(s, ADAM, "pass")
    assert [p["epoch"] for p in s["points"]] == [5, 3, 2]
    assert s["epochs"] == 1 and s["epoch_tiles"] == ["E1"]
    # the epoch tile is set aside and the player draws again
    assert sorted(s["hands"][ADAM]) == ["T20", "T5"]
    epoch = next(e for e in ev if e["key"] == "gheos.event.epoch")
    assert epoch["reveal"] is True
    assert s["turn"] == EWA and s["phase"] == "tile"


def war1_position():
    """Yellow on M27-M28, red on M30-M31 with one sword; M29 is free between them."""
    return position(3, {
        "M27": lr(), "M28": lr(),
        "M30": [part([0, 1], "swords"), part([2])], "M31": lr(),
    }, civs={"yellow": "M27", "red": "M30"},
        followers=[{"yellow": 1, "red": 1}, {"yellow": 2}, {"red": 1}],
        hands=[[full("swords", "swords"), "T9"], [], []], turn=ADAM)


def test_war_1_adam_pays_yellow_and_red_wins_on_swords():
    s = war1_position()
    s, ev = play(s, ADAM, "place H1 M29 r0")
    assert "event.war_starts" in keys(ev)
    assert s["phase"] == "resolve"
    from engines.gheos import GAME

    assert GAME.legal_actions(s, ADAM) == ["pay red", "pay yellow"]
    s, ev = play(s, ADAM, "pay yellow")  # he knew yellow would lose
    war = next(e for e in ev if e["key"] == "gheos.event.war")
    assert war["winner"] == "red" and war["losers"] == ["yellow"]
    assert "yellow" not in s["civs"]
    assert s["followers"] == [{"red": 1}, {}, {"red": 1}]
    assert s["supply"]["yellow"] == 5
    # the new tile's two swords did not count: red won with its own single sword
    assert region_of_civ(s, "red").counts["swords"] == 3
    check_invariants(s)


def war2_position():
    """Yellow on M27-M28-M29 (2 swords), blue on M29's right shore-M30-M31 (1 sword)."""
    return position(3, {
        "M27": lr(),
        "M28": lr("swords"),
        "M29": [part([0, 2], "swords"), part([1])],  # the middle tile
        "M30": lr(),
        "M31": lr("swords"),
    }, civs={"yellow": "M27", "blue": "M31"},
        followers=[{"yellow": 2}, {"blue": 1}, {"yellow": 1, "blue": 1}],
        hands=[[], [], [full("swords"), "T9"]], turn=NOAH)


def test_war_2_replacing_the_middle_tile_ties_swords_and_noah_picks_blue():
    s = war2_position()
    assert region_of_civ(s, "yellow").counts["swords"] == 2
    assert region_of_civ(s, "blue").counts["swords"] == 1
    s, _ = play(s, NOAH, "replace H1 M29 r0", "pay yellow")
    # one sword each on the old parts; the new tile's sword does not count
    from engines.gheos import GAME

    assert s["pending"]["choice"]["type"] == "war"
    assert GAME.legal_actions(s, NOAH) == ["win yellow", "win blue"]
    s, ev = play(s, NOAH, "win blue")
    assert next(e for e in ev if e["key"] == "gheos.event.war_chosen")["winner"] == "blue"
    assert set(s["civs"]) == {"blue"}
    assert s["followers"] == [{}, {"blue": 1}, {"blue": 1}]
    assert s["removed"] == ["X3"]  # the replaced tile leaves the game
    check_invariants(s)


def migration1_position(new_tile):
    """Red on one continent M27..M31: wheat 2 left of M29, 1 right of it."""
    return position(3, {
        "M27": lr("wheat"), "M28": lr("wheat"), "M29": lr(), "M30": lr("wheat"), "M31": lr(),
    }, civs={"red": "M31"}, followers=[{"red": 1}, {"red": 1}, {}],
        hands=[[], [new_tile, "T9"], []], turn=EWA)


def test_migration_1_red_moves_to_the_left_part_with_most_wheat():
    s = migration1_position(shores())
    s, ev = play(s, EWA, "replace H1 M29 r0")  # Ewa's only follower pays by itself
    assert keys(ev)[:3] == ["event.replaced", "event.migration", "event.paid"]
    moved = next(e for e in ev if e["key"] == "gheos.event.migrated")
    assert moved["civ"] == "red" and moved["cell"] == "M27" and moved["land"] == "continent"
    assert s["civs"]["red"] == "M27/0"
    assert s["followers"] == [{"red": 1}, {}, {}]
    check_invariants(s)


def test_migration_counts_wheat_on_the_new_tile():
    s = migration1_position(shores((), ("wheat", "wheat")))  # two wheat on the right shore
    s, ev = play(s, EWA, "replace H1 M29 r0")
    assert next(e for e in ev if e["key"] == "gheos.event.migrated")["cell"] == "M30"


def migration2_position(island_wheat: int = 1):
    """Yellow: M27's right shore (wheat) + M28's landmass + M29 (wheat) + M30. Above M28,
    L28's bottom shore (2 wheat) and M28's top shore are an island yellow never touched."""
    return position(3, {
        "M27": shores((), ("wheat",) * island_wheat),
        "M28": [part([0, 1]), part([2])],  # the middle tile
        "L28": shores((), (), ("wheat", "wheat")),
        "M29": lr("wheat"),
        "M30": lr(),
    }, civs={"yellow": "M29"}, followers=[{"yellow": 1}, {}, {}],
        hands=[[shores(), "T9"], [], []], turn=ADAM)


def test_migration_2_wheat_tie_goes_to_the_continent_not_the_island():
    s = migration2_position()
    s, ev = play(s, ADAM, "replace H1 M28 r0")
    moved = next(e for e in ev if e["key"] == "gheos.event.migrated")
    assert moved["cell"] == "M29" and moved["land"] == "continent"
    assert s["civs"]["yellow"].startswith("M29")
    check_invariants(s)


def test_migration_onto_an_island_destroys_the_civilization():
    s = migration2_position(island_wheat=2)  # now the island part has more wheat
    s, ev = play(s, ADAM, "replace H1 M28 r0")
    assert "event.eliminated_island" in keys(ev)
    assert s["civs"] == {} and s["supply"]["yellow"] == 5


def test_war_with_migration_migrant_loses_and_only_one_follower_is_paid():
    """Blue (M27, M28, M29's landmass, N29) and red (M29's right shore, M30, M31). Noah's
    new M29 splits blue: the part with most wheat (N29's side) is joined to red's continent,
    so blue migrates there and loses the war automatically."""
    s = position(3, {
        "M27": lr("wheat"), "M28": lr(),
        "M29": [part([0, 2]), part([1])],
        "N29": [part([1, 2], "wheat", "wheat"), part([0])],  # below M29 (a down cell)
        "M30": lr(), "M31": lr("wheat"),
    }, civs={"blue": "M27", "red": "M31"},
        followers=[{"red": 2}, {"blue": 2}, {"blue": 1, "red": 1}],
        hands=[[], [], [[part([0]), part([1, 2])], "T9"]], turn=NOAH)
    s, ev = play(s, NOAH, "replace H1 M29 r0", "pay blue")
    assert [e["cell"] for e in ev if e["key"] == "gheos.event.migrated"] == ["M29"]
    war = next(e for e in ev if e["key"] == "gheos.event.war")
    assert war["winner"] == "red" and war["losers"] == ["blue"]
    assert sum(1 for e in ev if e["key"] == "gheos.event.paid") == 1
    assert s["followers"] == [{"red": 2}, {}, {"red": 1}]
    assert set(s["civs"]) == {"red"}
    check_invariants(s)


def test_founding_takes_one_follower_per_wheat():
    """Noah founds red on the uninhabited continent with one wheat and takes 1 follower."""
    s = position(3, {"M27": lr("wheat"), "M28": lr(), "K27": full(), "K28": full()},
                 civs={"blue": "K27"}, phase="civ", turn=NOAH)
    from engines.gheos import GAME

    assert "found red M27" in GAME.legal_actions(s, NOAH)
    assert not any(a.endswith(" K27") for a in GAME.legal_actions(s, NOAH))
    s, _ = play(s, NOAH, "found red M27")
    assert s["followers"][NOAH] == {"red": 1} and s["civs"]["red"] == "M27/0"


def test_land_helper_puts_shores_on_the_other_edges():
    assert land([0, 1], "wheat") == [part([0, 1], "wheat"), part([2])]
