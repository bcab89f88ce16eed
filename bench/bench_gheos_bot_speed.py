"""The Gheos computer player's tile decision, timed: over the bot's own tile-decision states
of seeded tournament games (``bench_bots_gd.seeded_game``, ``normal`` against ``baseline``),
CPU time (``time.thread_time``) of

* ``judge``: the quick estimate (``bot.judge``) of every legal placement of the state;
* ``playout``: 24 placements played to the end of the turn and valued (``bot.play_turn`` +
  ``bot.position_value``) on a determinised copy;
* ``decision``: a whole ``GAME.bot_action`` with the wide settings (every placement judged,
  24 played out; ``--narrow`` keeps the module's own constants).

Not a test:

    python bench/bench_gheos_bot_speed.py [--games 6] [--runs 3] [--baseline main]
    python bench/bench_gheos_bot_speed.py --identity [--baseline main]

``--baseline REV`` loads ``engines/gheos`` of git revision REV (``git archive``) into a
temporary package, so the old and the new code run side by side in one process. The
versions alternate state by state (the machine's load weighs on both alike); each state's
time is the fastest of ``--runs`` (the load only ever adds), and the figures are the median
and p99 of those over the states, with the median of the states' old/new ratios. Both must
choose the same action in every state, or the bench stops.

``--identity`` plays seeded games of ``normal`` against ``baseline`` (30 with 3 players, 10
with 4, 10 with 2; ``--wide`` with the wide settings) with this checkout and with REV, each
entirely on its own code (the baseline bot's module is loaded on REV's engine too), and
checks that they play the very same actions to the same end.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_bots_gd import seeded_game, seeded_steps  # noqa: E402
from bench.stats import pct  # noqa: E402

#: every placement judged and 24 played out, set on both versions so that an older revision
#: (which sampled fewer) judges as many; the replacement cost is pinned too, so that both
#: choose alike and the timed states are the same
WIDE = {"SAMPLE_PLACE_MANY": 1000, "SAMPLE_REPLACE_MANY": 1000, "SHORTLIST_MANY": 24,
        "REPLACE_COST_MANY": 0.5}
PLAYOUTS = 24
WHAT = ("judge", "playout", "decision")


class Impl(NamedTuple):
    """One version of the engine: its game, its bot module and the baseline bot on it."""

    name: str
    game: Any
    bot: ModuleType
    baseline_choose: Callable[..., str]


def current() -> Impl:
    game = importlib.import_module("engines.gheos").GAME
    bot = importlib.import_module("engines.gheos.bot")
    base = importlib.import_module("bench.baseline_bots.gheos")
    return Impl("new", game, bot, base.choose)


def load_revision(rev: str, tmp: Path) -> Impl:
    """``engines/gheos`` and the baseline bot of git revision ``rev`` as a package of their
    own (``gheos_<rev>``), importing each other and not this checkout's Gheos modules."""
    package = "gheos_" + "".join(ch if ch.isalnum() else "_" for ch in rev)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "engines/gheos",
                              "bench/baseline_bots/gheos.py"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive, check=True)
    pkg = tmp / package
    (tmp / "engines" / "gheos").rename(pkg)
    (tmp / "bench" / "baseline_bots" / "gheos.py").rename(pkg / "baseline.py")
    for path in pkg.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("engines.gheos", package), encoding="utf-8")
    sys.path.insert(0, str(tmp))
    game = importlib.import_module(package).GAME
    bot = importlib.import_module(f"{package}.bot")
    base = importlib.import_module(f"{package}.baseline")
    return Impl(rev, game, bot, base.choose)


def set_wide(impls: list[Impl]) -> None:
    for impl in impls:
        for key, value in WIDE.items():
            setattr(impl.bot, key, value)


def decision_states(players: int, games: int, seed0: int) -> list[tuple[dict, int]]:
    """(state, seat) of every tile decision of the ``normal`` seat with a choice to make."""
    from engines.gheos import GAME

    out = []
    for g in range(games):
        seed = seed0 + g
        for step in seeded_game("gheos", players, {}, seed, seed % players, "normal",
                                "baseline"):
            if step.seat == seed % players and step.state["phase"] == "tile" \
                    and len(GAME.legal_actions(step.state, step.seat)) > 1:
                out.append((step.state, step.seat))
    return out


#: the player's public parts timed here, by their names in revisions before they were public
OLD_NAMES = {"judge": "_judge", "position_value": "_value", "play_turn": "_play_turn",
             "determinise": "_determinise"}


def part(impl: Impl, name: str) -> Callable[..., Any]:
    """The bot's function ``name``, in an older revision by the name it had there."""
    return getattr(impl.bot, name, None) or getattr(impl.bot, OLD_NAMES[name])


def judge_all(impl: Impl, state: dict, seat: int) -> float:
    codes = impl.game.legal_actions(state, seat)
    started = time.thread_time()
    judge = part(impl, "judge")
    context = getattr(impl.bot, "judge_context", None)
    if context is not None:
        ctx = context(state, seat)
        for code in codes:
            judge(state, seat, code, ctx)
    else:
        for code in codes:
            judge(state, seat, code)
    return time.thread_time() - started


def playout(impl: Impl, state: dict, seat: int, k: int) -> float:
    codes = impl.game.legal_actions(state, seat)
    picked = random.Random(k).sample(codes, min(PLAYOUTS, len(codes)))
    value, play_turn = part(impl, "position_value"), part(impl, "play_turn")
    guess = part(impl, "determinise")(state, seat, random.Random(k))
    started = time.thread_time()
    for code in picked:
        value(play_turn(guess, seat, code), seat)
    return time.thread_time() - started


def decide(impl: Impl, state: dict, seat: int, k: int) -> tuple[float, str]:
    started = time.thread_time()
    code = impl.game.bot_action(state, seat, random.Random(k))
    return time.thread_time() - started, code


def time_state(impl: Impl, state: dict, seat: int, k: int) -> tuple[dict[str, float], str]:
    t, code = decide(impl, state, seat, k)
    return {"judge": judge_all(impl, state, seat), "playout": playout(impl, state, seat, k),
            "decision": t}, code


def speed(args: argparse.Namespace, impls: list[Impl]) -> None:
    for players in args.players:
        states = decision_states(players, args.games, args.seed)
        print(f"\n{players} players: {len(states)} tile decisions of {args.games} games "
              f"(seeds {args.seed}-{args.seed + args.games - 1}); ms CPU per decision, "
              f"median / p99 over the states of each state's fastest of {args.runs} runs "
              f"(the versions alternate state by state)")
        # per version and measure: each state's times, one per run
        times: dict[str, dict[str, list[list[float]]]] = {
            i.name: {w: [[] for _ in states] for w in WHAT} for i in impls}
        for k, (state, seat) in enumerate(states):
            codes = set()
            for _ in range(args.runs):
                for impl in impls:
                    got, code = time_state(impl, state, seat, k)
                    codes.add(code)
                    for w in WHAT:
                        times[impl.name][w][k].append(got[w])
            if len(codes) > 1:
                raise SystemExit(f"state {k}: the versions chose {sorted(codes)}: {state!r}")
        header = "".join(f"{i.name:>22}" for i in impls)
        if len(impls) > 1:
            header += f"   {impls[1].name} / {impls[0].name}: median of the states' ratios, p99s"
        print(f"  {'':<10}{header}")
        for w in WHAT:
            per_state = {name: [min(ts) for ts in by[w]]
                         for name, by in times.items()}
            line = f"  {w:<10}"
            for impl in impls:
                v = per_state[impl.name]
                line += f"{1e3 * pct(v, .5):>13.2f} / {1e3 * pct(v, .99):6.2f}"
            if len(impls) > 1:
                new, old = per_state[impls[0].name], per_state[impls[1].name]
                ratio = statistics.median(o / n for n, o in zip(new, old, strict=True))
                line += f"   {ratio:.2f}, {pct(old, .99) / pct(new, .99):.2f}"
            print(line)


def game_actions(impl: Impl, players: int, seed: int) -> Iterator[tuple[int, str, dict]]:
    """Tournament game ``seed`` (``seeded_game``'s seats and rng) played on ``impl`` alone."""
    def normal(state: dict, seat: int, rng: random.Random) -> str:
        return impl.game.bot_action(state, seat, rng, "normal")

    for step in seeded_steps(impl.game, players, {}, seed, seed % players, normal,
                             impl.baseline_choose):
        yield step.seat, step.code, step.after


def identity(args: argparse.Namespace, impls: list[Impl]) -> None:
    new, old = impls
    counts = {3: 30, 4: 10, 2: 10} if not args.identity_games else \
        {p: args.identity_games for p in args.players}
    for players, games in counts.items():
        started = time.perf_counter()
        actions = 0
        for g in range(games):
            seed = args.seed + g
            mine = list(game_actions(new, players, seed))
            theirs = list(game_actions(old, players, seed))
            for i, (a, b) in enumerate(zip(mine, theirs, strict=False)):
                if a[:2] != b[:2]:
                    raise SystemExit(f"{players} players, seed {seed}: action {i} differs: "
                                     f"{new.name} {a[:2]}, {old.name} {b[:2]}")
            if len(mine) != len(theirs) or mine[-1][2] != theirs[-1][2]:
                raise SystemExit(f"{players} players, seed {seed}: different ends")
            actions += len(mine)
        print(f"{players} players: {games} games (seeds {args.seed}-{args.seed + games - 1}), "
              f"{actions} actions, identical to {old.name} "
              f"({time.perf_counter() - started:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5000, help="first game's seed")
    parser.add_argument("--baseline", help="git revision to run side by side, e.g. main")
    parser.add_argument("--narrow", action="store_true",
                        help="time the module's own constants, not the wide settings")
    parser.add_argument("--identity", action="store_true",
                        help="check that seeded games play the same actions as --baseline")
    parser.add_argument("--identity-games", type=int, default=0,
                        help="games per --players count (default 30, 10, 10 for 3, 4, 2)")
    parser.add_argument("--wide", action="store_true", help="--identity with the wide settings")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        impls = [current()]
        if args.baseline:
            impls.append(load_revision(args.baseline, Path(tmp)))
        if args.identity:
            if len(impls) < 2:
                parser.error("--identity needs --baseline")
            if args.wide:
                set_wide(impls)
            identity(args, impls)
            return
        if not args.narrow:
            set_wide(impls)
        speed(args, impls)


if __name__ == "__main__":
    main()
