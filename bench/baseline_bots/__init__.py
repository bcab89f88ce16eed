"""Frozen copies of the computer players as they were before issue 15, for benchmarks only
(``bench/bench_bots.py --a baseline``). Production code never imports these."""
