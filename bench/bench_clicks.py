"""Clicks per move (issue 25): whole games of every game and seat count, against the real bot
process through the Discord stand-in, every move made by clicking as a player would.

    python bench/bench_clicks.py [--games 1] [--game gheos] [--players 3] [--seed 25]
                                 [--bot-checkout PATH]

For each move, the player whose turn the board names (several at once: one of them, by the
seeded generator) decides with the engine's own computer player ("easy"), on the position
the bot stored; then clicks, on the bot's real messages (the DM hand or the channel's board,
then each private picker step), the component that brings them nearest to exactly that move
(``tests/clicks.py``: play it, open its preview and Confirm, the step that leads on to it, or
"My move"). Counted per move: clicks (interactions: a button, or a choice in a menu) and taps
(a menu is opened, then an option tapped: two). Prints per game and seat count the median,
mean and max of both. The deal is the bot's own (random per game); the players' decisions and
the order of simultaneous movers are seeded.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines  # noqa: E402
from session.service import playable  # noqa: E402
from tests.clicks import toward  # noqa: E402
from tests.e2e.helpers import open_game, read_session  # noqa: E402
from tests.standin.botproc import REPO, BotProcess  # noqa: E402
from tests.standin.server import Discord  # noqa: E402
from tests.standin.users import Player, Table  # noqa: E402


async def play_game(table: Table, game_id: str, db: Path, rng: random.Random,
                    counts: list[tuple[int, int]]) -> None:
    game = engines.get(game_id)
    hidden = game.meta.hidden_information
    await open_game(table, game_id, timeout=120)
    while not table.finished():
        movers = table.movers()
        assert movers, "nobody to move"
        player = rng.choice(movers)
        stored = read_session(db, table.channel_id)
        assert stored.state is not None
        seat = stored.user_ids.index(player.id)
        codes = game.legal_actions(stored.state, seat)
        code = game.bot_action(stored.state, seat, rng, "easy")

        def aim(options, code=code, codes=codes):
            target = toward(options, code, codes)
            return target.custom_id, target.value

        move = await table.make_move(player, hidden, timeout=120, choose=aim)
        assert move.code == code, (move.code, code)
        counts.append((len(move.clicks),
                       sum(2 if click.data.get("values") else 1 for click in move.clicks)))


def summary(values: list[int]) -> str:
    return f"{statistics.median(values):>4g} {statistics.mean(values):>5.2f} {max(values):>3}"


async def run(games: int, only_game: str | None, only_players: int | None, seed: int,
              checkout: Path | None) -> None:
    discord = Discord(channels=0)
    await discord.start()
    workdir = Path(tempfile.mkdtemp(prefix="stolik-clicks-"))
    db = workdir / "clicks.sqlite3"
    bot = BotProcess(discord, db, workdir, checkout=checkout or REPO)
    rng = random.Random(seed)
    try:
        await bot.start(120)
        print(f"{'game':<16} {'seats':>5} {'moves':>5}  clicks: median mean max   "
              f"taps: median mean max")
        for game_id in playable():
            if only_game and game_id != only_game:
                continue
            meta = engines.get(game_id).meta
            for players in range(meta.min_players, meta.max_players + 1):
                if only_players and players != only_players:
                    continue
                counts: list[tuple[int, int]] = []
                t0 = time.monotonic()
                for n in range(games):
                    channel = discord.add_channel(f"{game_id}-{players}-{n}")
                    people = [Player(discord, f"{game_id[:3]}{players}{n}P{i}")
                              for i in range(players)]
                    table = Table(discord, channel, people, random.Random(rng.random()))
                    await play_game(table, game_id, db, random.Random(rng.random()), counts)
                clicks = [c for c, _ in counts]
                taps = [t for _, t in counts]
                print(f"{game_id:<16} {players:>5} {len(counts):>5}  {summary(clicks):>20}   "
                      f"{summary(taps):>18}   ({time.monotonic() - t0:.0f} s)", flush=True)
        if discord.violations:
            print(f"{len(discord.violations)} stand-in violations, first: {discord.violations[:3]}")
    finally:
        await bot.stop()
        await discord.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1, help="games per game and seat count")
    parser.add_argument("--game", default=None)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--bot-checkout", type=Path, default=None,
                        help="run bot.py of another checkout (e.g. the starting commit)")
    args = parser.parse_args()
    asyncio.run(run(args.games, args.game, args.players, args.seed, args.bot_checkout))


if __name__ == "__main__":
    main()
