"""Notifications a player's phone gets: seeded whole games of every game and seat count, played
by simulated players through the Discord stand-in against the real bot process.

    python bench/bench_notifications.py [--seed 1] [--games kingdomino,gheos] [--bot-checkout PATH]

At each table the first player has quiet hours around the bot's current time (the whole game
falls inside them) and, from three seats on, the third player's DMs are closed. Printed per
game and seat count (read from the requests the bot made, as Discord decides what buzzes:
tests/e2e/notifications.py):

- notifications per turn a player had to act (a channel mention or a new DM; goal <= 1.0),
  counted for the players outside quiet hours; a turn starts each time the engine makes a
  seat one that must act (staying to act over several moves is one turn);
- new DMs per player per game;
- messages of the game left with live buttons after its end (its channel and its players'
  DMs; a Rematch button works and is not counted; goal 0);
- notifications to a player inside their quiet hours (goal 0).

``--bot-checkout`` runs another checkout's bot.py (e.g. the starting commit, for "before").
``--think S`` (default 0.5): after each move the next waits 0.5-1.5 x S seconds, as a person
reads the board first; with no thinking a simulated player often moves before its turn's DM
goes out (it is at the screen: no DM then), which lowers the notifications per turn.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines  # noqa: E402
from tests.e2e.helpers import open_game, play_to_end, read_session  # noqa: E402
from tests.e2e.notifications import live_buttons, notifications, turns_started  # noqa: E402
from tests.standin.botproc import REPO, BotProcess  # noqa: E402
from tests.standin.server import Discord  # noqa: E402
from tests.standin.users import Player, Table, answer  # noqa: E402

#: how long after the end the bot may still be tidying (DMs losing their buttons)
SETTLE = 3.0


@dataclass
class Result:
    game: str
    seats: int
    moves: int
    turns: int  # turns the players had to act
    per_turn: float  # notifications per move, players outside quiet hours
    dms: float  # new DMs per player
    live: int  # messages with live buttons after the end
    quiet: int  # notifications inside quiet hours
    error: str = ""


def setups(games: list[str]) -> list[tuple[str, int]]:
    out = []
    for game_id in games:
        meta = engines.get(game_id).meta
        out += [(game_id, n) for n in range(meta.min_players, meta.max_players + 1)]
    return out


async def one_game(discord: Discord, db: Path, channel: int, game_id: str, seats: int,
                   seed: int, n: int, think: float = 0.0) -> Result:
    players = [Player(discord, f"T{n}P{i}") for i in range(seats)]
    hour = datetime.now(UTC).hour
    quiet = players[0]
    # the quiet hours hold the whole game: from an hour ago to three hours on
    await answer(discord, await quiet.command(channel, "game settings me", timezone="UTC",
                                              quiet=f"{(hour - 1) % 24}-{(hour + 3) % 24}"))
    closed = {players[2].id} if seats >= 3 else set()
    for user_id in closed:
        discord.faults.refuse_dms(user_id)
    table = Table(discord, channel, players, random.Random(seed * 1000 + n), dms_closed=closed)
    start = len(discord.calls)
    await open_game(table, game_id, timeout=120)
    thinking = random.Random(seed * 7919 + n)  # apart from the table's: the same moves

    async def pause(_: int) -> None:  # a person reads the board before the next move
        await asyncio.sleep(think * thinking.uniform(0.5, 1.5))

    moves = await play_to_end(table, game_id, between=pause if think else None)
    await asyncio.sleep(SETTLE)
    user_ids = [p.id for p in players]
    mine = [x for x in notifications(discord, discord.calls[start:]) if x.user_id in user_ids]
    made = turns_started(read_session(db, channel))
    awake = [p.id for p in players if p is not quiet]
    per_turn = (sum(1 for x in mine if x.user_id in awake)
                / max(1, sum(made[u] for u in awake)))
    dms = sum(1 for x in mine if x.via == "dm") / seats
    in_quiet = sum(1 for x in mine if x.user_id == quiet.id)
    return Result(game_id, seats, moves, sum(made.values()), per_turn, dms,
                  len(live_buttons(discord, channel, user_ids)), in_quiet)


async def run(games: list[str], seed: int, checkout: Path, think: float) -> list[Result]:
    todo = setups(games)
    discord = Discord(channels=len(todo))
    await discord.start()
    workdir = Path(tempfile.mkdtemp(prefix="stolik-notify-"))
    bot = BotProcess(discord, workdir / "bench.sqlite3", workdir, checkout=checkout)
    try:
        await bot.start(120)
        done = await asyncio.gather(
            *(one_game(discord, workdir / "bench.sqlite3", discord.text_channels[n], game_id, seats,
                       seed, n, think)
              for n, (game_id, seats) in enumerate(todo)), return_exceptions=True)
    finally:
        await bot.stop()
        await discord.stop()
    out = []
    for (game_id, seats), result in zip(todo, done, strict=True):
        if isinstance(result, BaseException):
            out.append(Result(game_id, seats, 0, 0, 0.0, 0.0, 0, 0, error=repr(result)[:120]))
        else:
            out.append(result)
    if "Traceback" in bot.log_text():
        print(f"the bot logged a traceback: {workdir / 'bot.log'}")
    return out


def report(results: list[Result]) -> None:
    print(f"{'game':16} {'seats':>5} {'moves':>5} {'turns':>5} {'notif/turn':>10} {'DMs/player':>10} "
          f"{'live after end':>14} {'in quiet hours':>14}")
    for r in results:
        if r.error:
            print(f"{r.game:16} {r.seats:>5}  failed: {r.error}")
            continue
        print(f"{r.game:16} {r.seats:>5} {r.moves:>5} {r.turns:>5} {r.per_turn:>10.2f} {r.dms:>10.1f} "
              f"{r.live:>14} {r.quiet:>14}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(engines.available()))
    parser.add_argument("--bot-checkout", type=Path, default=REPO)
    parser.add_argument("--think", type=float, default=0.5,
                        help="players wait 0.5-1.5 x this many seconds after each move")
    args = parser.parse_args()
    report(asyncio.run(run(args.games.split(","), args.seed, args.bot_checkout, args.think)))


if __name__ == "__main__":
    main()
