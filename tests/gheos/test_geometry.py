"""The triangular grid: names, up/down cells, neighbours across matching edge slots."""

from engines.gheos import geometry as g


def test_names_round_trip_and_bad_names_are_rejected():
    assert g.parse("M30") == (29, 12)
    assert g.name(29, 12) == "M30"
    assert g.parse("m30") == (29, 12)
    for bad in ("", "M0", "M61", "30M", "AA1", "M3O", "Z100"):
        assert g.parse(bad) is None, bad


def test_up_and_down_cells_alternate():
    assert g.is_up("M27") and not g.is_up("M28") and g.is_up("M29")
    assert g.is_up("L28") and not g.is_up("L29")


def test_every_neighbour_meets_back_through_the_same_slot():
    for row in range(1, 25):
        for col in range(1, 59):
            cell = g.name(col, row)
            for slot, nb in enumerate(g.neighbours(cell)):
                assert nb is not None
                assert g.is_up(nb) != g.is_up(cell)
                assert g.neighbours(nb)[slot] == cell


def test_up_cell_has_left_right_and_below_down_cell_left_right_and_above():
    assert g.neighbours("M29") == ("M28", "M30", "N29")  # up: left, right, bottom
    assert g.neighbours("M30") == ("M31", "M29", "L30")  # down: right, left, top


def test_table_edges():
    assert g.neighbours("A2")[2] is None  # a down cell on the top row has no cell above
    assert g.neighbours("A1")[0] is None
