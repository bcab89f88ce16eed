"""A Gheos tournament (``bench/bench_bots_gd.py``) with some of the computer player's public
constants set for this run only, to screen a value without editing ``engines/gheos/bot.py``.
Not a test:

    python bench/lab/bench_gheos_variant.py --set SHORTLIST_MANY=8 --set GROWTH_CHALICE=0.5 \\
        --players 3 --games 100 --a normal --b baseline --seed 10000

Every other option is passed to ``bench_bots_gd.py`` (``--game gheos`` is implied). A name
that the bot does not define is refused, and a value keeps the constant's type, so a typo
cannot silently screen the unchanged bot.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench import bench_bots_gd  # noqa: E402
from engines.gheos import bot  # noqa: E402


def override(assignment: str) -> str:
    """Set one ``NAME=VALUE`` on the bot module; the line to print."""
    name, sep, text = assignment.partition("=")
    if not sep or not name.isupper() or not hasattr(bot, name):
        raise SystemExit(f"not a constant of engines/gheos/bot.py: {assignment!r}")
    old = getattr(bot, name)
    if isinstance(old, bool) or not isinstance(old, int | float):
        raise SystemExit(f"{name} is not a number ({old!r})")
    setattr(bot, name, type(old)(text))
    return f"{name} = {getattr(bot, name)} (was {old})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], add_help=False)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args, rest = parser.parse_known_args()
    for assignment in args.set:
        print(override(assignment))
    sys.argv = [sys.argv[0], "--game", "gheos", *rest]
    bench_bots_gd.main()


if __name__ == "__main__":
    main()
