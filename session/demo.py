"""``python bot.py --demo GAME``: a whole game between computer players, offline.

It goes through the real session layer and a real SQLite file, so what it shows is what the
bot does: every move is validated, logged and stored; every board image is rendered from the
spectator view and written to the output folder; at the end the log is replayed and compared.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import engines
import render
from db import Database
from session import computer, results, wording
from session.service import Sessions
from text.catalog import t

CHANNEL = 1
FIRST_USER = 1000


async def run_demo(game_id: str, *, players: int | None, variants: str, seed: int | None,
                   out: Path, db_path: str | None, lang: str = "en",
                   strict_bots: bool = False) -> int:
    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("board_*.png"), *out.glob("scores.txt")]:  # a previous run's
        old.unlink()
    path = Path(db_path) if db_path else out / "demo.sqlite3"
    if not db_path and path.exists():
        path.unlink()
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    async with Database(path) as db:
        sessions = Sessions(db, seed_source=lambda: seed, strict_bots=strict_bots)
        # one pseudo-user per seat: the demo plays every seat through the same path as a human
        outcome = await sessions.new(guild_id=None, channel_id=CHANNEL, game_id=game_id,
                                     user_id=FIRST_USER, name="Ada", players=players,
                                     variants=variants, lang=lang)
        row = outcome.session
        for n, name in enumerate(["Bolek", "Cyryl", "Daria", "Emil"][: row.players - 1], 1):
            outcome = await sessions.join(CHANNEL, FIRST_USER + n, name)
        row = outcome.session
        game = engines.get(game_id)
        rng = random.Random(seed)
        print(t(lang, "demo.start", game=t(lang, f"game.{game_id}"), players=row.players, seed=seed,
                variants=", ".join(t(lang, f"{game_id}.variant.{v}") for v in row.options["variants"])
                or "-"))
        frame = 0
        while row.status == "active":
            state = await sessions.state(row)
            (out / f"board_{frame:03d}.png").write_bytes(
                render.board_png(game_id, game.view(state, None), names=wording.names(row),
                                 lang=lang))
            frame += 1
            seat = game.to_act(state)[0]
            code = await computer.move(game_id, state, seat, f"{rng.random()}", "normal",
                                       strict=strict_bots)
            user = row.seats[seat].user_id
            assert user is not None  # the demo seats stand-in users, not computer seats
            outcome = await sessions.act(row.id, user, code, row.version)
            row = outcome.session
        state = await sessions.state(row)
        (out / f"board_{frame:03d}.png").write_bytes(
            render.board_png(game_id, game.view(state, None), names=wording.names(row), lang=lang))
        replayed = await sessions.replay(row)
        same = json.dumps(replayed, sort_keys=True) == json.dumps(state, sort_keys=True)
        print("\n".join(results.final_lines(row, lang)))
        breakdown = results.breakdown_message(row, lang)
        if breakdown is not None and breakdown.image is not None:  # the file, as the bot sends it
            (out / breakdown.filename).write_bytes(breakdown.image)
            print(breakdown.content)
            print(breakdown.image.decode("utf-8"), end="")
        print(t(lang, "demo.end", moves=row.version, images=frame + 1, out=str(out), db=str(path),
                replay="OK" if same else "MISMATCH"))
        return 0 if same else 1
