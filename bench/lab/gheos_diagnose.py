"""Where Gheos games are lost: plays seeded games of one ``--a`` seat against ``--b`` seats
(seats rotated, the same seeds and rng as bench_bots_gd.py) and compares the games ``--a``
won with those it lost. Not a test, not a tournament for win rates (use bench_bots_gd.py):

    python bench/lab/gheos_diagnose.py --players 3 --games 100 --seed 30000 --out /tmp/diag.json
    python bench/lab/gheos_diagnose.py --load /tmp/diag.json

For each game it records, per seat: points by source, scoring tokens (when and for how
much), foundings, followers lost (to wars and islands) and by whose move, the final
followers; who ended the game and how; the standings at every epoch tile (points so far,
and what a final scoring then would add); the last turns. The report splits the games by
result: who wins when ``--a`` loses (seat relative to it: next player, the one after), the
final margin, points by source, and when it fell behind.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.bench_bots_gd import seeded_game  # noqa: E402


def play(players: int, seed: int, seat_a: int, a: str, b: str) -> dict[str, Any]:
    from engines.gheos import GAME
    from engines.gheos import rules as R
    from engines.gheos.data import CHALICE
    from engines.gheos.regions import Land

    seats = range(players)
    tokens: list[list[dict[str, Any]]] = [[] for _ in seats]
    found = [0 for _ in seats]
    founded = [0 for _ in seats]
    takes = [0 for _ in seats]
    lost: list[Counter] = [Counter() for _ in seats]  # by cause and by whose move
    epochs: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []  # one per completed turn: seat, actions, points gained
    current: dict[str, Any] | None = None
    for step in seeded_game("gheos", players, {}, seed, seat_a, a, b):
        state, seat, code, events = step.state, step.seat, step.code, step.events
        if current is None or current["seat"] != seat or state["phase"] == "tile":
            if current is not None:
                turns.append(current)
            current = {"seat": seat, "codes": [], "before": R.tally(state),
                       "bag": len(state["bag"])}
        before = [dict(f) for f in state["followers"]]
        state = step.after
        current["codes"].append(code)
        verb = code.split()[0]
        if verb == "take":
            takes[seat] += 1
        for e in events:
            kind = e["key"].rsplit(".", 1)[1]
            if kind == "founded":
                found[seat] += 1
                founded[seat] += e["followers"]
            elif kind == "token":
                tokens[e["seat"]].append({"bag": current["bag"], "points": e["points"],
                                          "turn": state["turn_no"]})
            elif kind.startswith("eliminated_"):
                cause = kind[len("eliminated_"):]
                for s in seats:
                    n = before[s].get(e["civ"], 0)
                    if n:
                        after = (seat - s) % players  # 0 own move, 1 the next player, ...
                        lost[s][f"{cause}"] += n
                        lost[s][f"by +{after}"] += n
            elif kind == "epoch":
                if state["phase"] != "over":
                    land = Land(state)
                    final = [R.follower_points(state, land, s, CHALICE) for s in seats]
                else:
                    final = [0 for _ in seats]
                epochs.append({"epoch": e["epoch"], "totals": R.tally(state),
                               "final_now": final, "bag": len(state["bag"]),
                               "followers": [R.followers_of(state, s) for s in seats]})
    if current is not None:
        turns.append(current)
    totals = R.tally(state)
    for t, nxt in zip(turns, turns[1:] + [None], strict=True):
        t["after"] = nxt["before"] if nxt else totals
    return {
        "seed": seed, "players": players, "seat_a": seat_a, "totals": totals,
        "ranking": GAME.ranking(state), "points": state["points"],
        "end_reason": state.get("end_reason"), "ender": turns[-1]["seat"],
        "turn_no": state["turn_no"], "tokens": tokens, "tokens_left": state["tokens"],
        "found": found, "founded": founded, "takes": takes,
        "lost": [dict(c) for c in lost], "followers": [R.followers_of(state, s) for s in seats],
        "epochs": epochs, "last_turns": turns[-12:],
    }


def rel(g: dict[str, Any], s: int) -> int:
    """Seat ``s`` relative to the ``--a`` seat: 0 itself, 1 the next player, 2 the one after."""
    return (s - g["seat_a"]) % g["players"]


def report(games: list[dict[str, Any]]) -> None:
    n = len(games)
    players = games[0]["players"]
    won = [g for g in games if g["seat_a"] in g["ranking"][0]]
    lost = [g for g in games if g["seat_a"] not in g["ranking"][0]]
    print(f"{n} games, {players} players: --a won {len(won)}, lost {len(lost)}")
    if not won or not lost:
        print("  (the comparison needs games won and games lost: play more games)")
        return
    mean = statistics.mean

    def margin(g: dict[str, Any]) -> int:
        """--a's points minus the best other seat's."""
        a = g["totals"][g["seat_a"]]
        return a - max(t for s, t in enumerate(g["totals"]) if s != g["seat_a"])

    winners = Counter(rel(g, g["ranking"][0][0]) for g in lost)
    print("  winner when --a loses, by seat relative to it:",
          {f"+{k}": v for k, v in sorted(winners.items())})
    print("  --a's seat (0 = starts):", "won", sorted(Counter(g["seat_a"] for g in won).items()),
          "lost", sorted(Counter(g["seat_a"] for g in lost).items()))
    ms = sorted(margin(g) for g in lost)
    print(f"  margin when lost: median {statistics.median(ms)}, quartiles "
          f"{ms[len(ms) // 4]}..{ms[3 * len(ms) // 4]}; within 5: {sum(m >= -5 for m in ms)}, "
          f"within 10: {sum(m >= -10 for m in ms)}")
    mw = sorted(margin(g) for g in won)
    print(f"  margin when won: median {statistics.median(mw)}")
    # second place when lost: beat the other baseline?
    second = sum(1 for g in lost if sorted(g["totals"], reverse=True).index(
        g["totals"][g["seat_a"]]) == 1)
    print(f"  lost games where --a came second: {second} of {len(lost)}")

    def table(title: str, key) -> None:
        print(f"  {title:<26} {'won: a':>8} {'others':>7} | {'lost: a':>8} {'winner':>7} "
              f"{'third':>7}")
        rows = []
        for group in (won, lost):
            a = [key(g, g["seat_a"]) for g in group]
            if group is won:
                o = [key(g, s) for g in group for s in range(players) if s != g["seat_a"]]
                rows += [mean(a), mean(o)]
            else:
                w = [key(g, g["ranking"][0][0]) for g in group]
                third = [key(g, s) for g in group for s in range(players)
                         if s != g["seat_a"] and s != g["ranking"][0][0]]
                rows += [mean(a), mean(w), mean(third) if third else float("nan")]
        print(f"  {'':<26} {rows[0]:8.1f} {rows[1]:7.1f} | {rows[2]:8.1f} {rows[3]:7.1f} "
              f"{rows[4]:7.1f}")

    for reason in ("temple", "token", "epoch", "final"):
        print(f"  points {reason}:")
        table("", lambda g, s, r=reason: g["points"][s][r])
    print("  total:")
    table("", lambda g, s: g["totals"][s])
    print("  tokens used:")
    table("", lambda g, s: len(g["tokens"][s]))
    print("  points per token:")
    table("", lambda g, s: (sum(t["points"] for t in g["tokens"][s]) / len(g["tokens"][s])
                            if g["tokens"][s] else 0))
    print("  bag size at first token:")
    table("", lambda g, s: g["tokens"][s][0]["bag"] if g["tokens"][s] else 0)
    print("  foundings:")
    table("", lambda g, s: g["found"][s])
    print("  followers founded:")
    table("", lambda g, s: g["founded"][s])
    print("  takes:")
    table("", lambda g, s: g["takes"][s])
    print("  followers at the end:")
    table("", lambda g, s: g["followers"][s])
    for cause in ("war", "island"):
        print(f"  followers lost ({cause}):")
        table("", lambda g, s, c=cause: g["lost"][s].get(c, 0))
    for k in range(players):
        print(f"  followers lost by the move of the seat {k} after the loser (0 = own move):")
        table("", lambda g, s, k=k: g["lost"][s].get(f"by +{k}", 0))
    print("  scoring tokens left unspent at the end:")
    table("", lambda g, s: g["tokens_left"][s])
    for group, name in ((won, "won"), (lost, "lost")):
        reasons = Counter(g["end_reason"] for g in group)
        enders = Counter(rel(g, g["ender"]) for g in group if g["end_reason"] == "tokens")
        print(f"  {name}: end reason {dict(reasons)}; token end by seat +k: "
              f"{dict(sorted(enders.items()))}")
    # when did --a fall behind? standing at each epoch (points + a final scoring then)
    for group, name in ((lost, "lost"), (won, "won")):
        print(f"  {name} games: --a's margin to the best other (points so far + a final "
              "scoring then) at each epoch tile, and how often it led")
        by_epoch: dict[int, list[int]] = {}
        for g in group:
            for e in g["epochs"]:
                proj = [t + f for t, f in zip(e["totals"], e["final_now"], strict=True)]
                by_epoch.setdefault(e["epoch"], []).append(
                    proj[g["seat_a"]] - max(p for s, p in enumerate(proj) if s != g["seat_a"]))
        for ep, ms in sorted(by_epoch.items()):
            print(f"    epoch {ep}: median {statistics.median(ms):6.1f}, led in "
                  f"{sum(m > 0 for m in ms)}/{len(ms)}")
    # points gained in the last 12 turns, by seat relative to --a
    print("  points gained in the last 12 turns (four rounds, the final scoring included),"
          " by seat relative to --a:")
    for group, name in ((won, "won"), (lost, "lost")):
        gain: Counter[int] = Counter()
        for g in group:
            first, last = g["last_turns"][0]["before"], g["totals"]
            for s in range(players):
                gain[rel(g, s)] += last[s] - first[s]
        print(f"    {name}: " + ", ".join(f"+{k}: {gain[k] / len(group):.1f}"
                                          for k in range(players)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=30000)
    parser.add_argument("--a", default="normal")
    parser.add_argument("--b", default="baseline")
    parser.add_argument("--out", help="save the games' records (JSON)")
    parser.add_argument("--load", help="report on saved records instead of playing")
    args = parser.parse_args()
    if args.load:
        games = json.loads(Path(args.load).read_text())
    else:
        games = [play(args.players, args.seed + g, g % args.players, args.a, args.b)
                 for g in range(args.games)]
        if args.out:
            Path(args.out).write_text(json.dumps(games))
    report(games)


if __name__ == "__main__":
    main()
