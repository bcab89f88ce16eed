"""The README's board pictures: one board of each game as a phone shows it (issue 25).

Run: ``python bench/readme_images.py [--out docs/img] [--lang en]``.

Plays a seeded game of computer players per game to about two thirds of the way, renders
the spectator board with the bot's own renderer (``render.board_png``), scales it to 390 px
wide (a phone's width, ``render.common.PHONE_WIDTH``) and writes ``<game>.png`` as a
palette PNG. Prints each file's size and fails when one is 100 KB or more.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image  # noqa: E402

import engines  # noqa: E402
from render import board_png  # noqa: E402
from render.common import PHONE_WIDTH  # noqa: E402
from tests.render.sample import bot_game_states  # noqa: E402

NAMES = ["Ada", "Bolesław", "Cyryl", "Daryna"]
#: game -> (players, seed): small tables keep the pictures short
SETUPS = {"kingdomino": (2, 3), "bunny_kingdom": (2, 3), "gheos": (3, 3),
          "dwoch_nastepcow": (2, 3)}
MAX_BYTES = 100 * 1024


def position(game_id: str, players: int, seed: int, share: float = 0.66) -> dict:
    """The spectator view ``share`` of the way through a seeded bot game."""
    states = bot_game_states(game_id, players, seed)
    return engines.get(game_id).view(states[int(len(states) * share)], None)


def phone_png(png: bytes) -> bytes:
    """The board scaled to a phone's width, as a palette PNG."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    height = round(image.height * PHONE_WIDTH / image.width)
    small = image.resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.quantize(colors=128, method=Image.Quantize.MEDIANCUT,
                   dither=Image.Dither.NONE).save(out, format="PNG", optimize=True)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="docs/img")
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    too_big = []
    for game_id, (players, seed) in SETUPS.items():
        view = position(game_id, players, seed)
        data = phone_png(board_png(game_id, view, names=NAMES[:players], lang=args.lang))
        (out / f"{game_id}.png").write_bytes(data)
        print(f"{game_id:16} {len(data) / 1024:6.1f} KB")
        if len(data) >= MAX_BYTES:
            too_big.append(game_id)
    if too_big:
        raise SystemExit(f"100 KB or more: {', '.join(too_big)}")


if __name__ == "__main__":
    main()
