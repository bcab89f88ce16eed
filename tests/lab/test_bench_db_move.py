"""bench/lab/bench_db_move.py plays the moves it is asked for and divides by the moves played."""

from bench.lab.bench_db_move import Cost, median_cost, play


async def test_it_plays_every_game_the_moves_asked(tmp_path):
    cost = await play(str(tmp_path / "lab.sqlite3"), games=3, moves=4, server_cpu=lambda: 0.0,
                      seed=1)
    assert cost.moves == 12
    assert cost.server_ms == 0.0 and cost.client_ms > 0
    # a move: the game read, the lock, the move's transaction; never more than a few dozen
    assert 3 <= cost.statements <= 40


def test_medians_are_taken_figure_by_figure():
    costs = [Cost(10, 1.0, 3.0, 5.0), Cost(10, 2.0, 1.0, 7.0), Cost(10, 9.0, 2.0, 6.0)]
    assert median_cost(costs) == Cost(30, 2.0, 2.0, 6.0)
