"""Smallest text and icon per game and seat count as a phone shows them (issue 25 item 1).

Run: ``python bench/bench_legibility.py [--games N] [--every K] [--game ID ...]``.

Plays ``N`` seeded bot games per game and seat count (and Mighty Duel for Kingdomino), renders
the spectator board every ``K`` actions and at the end, and each seat's hand where the game
draws hands, in Polish and Ukrainian, under ``render.common.record_text`` (and
``record_icons`` where the renderers record icons). Prints, for boards and hands, the image
widths seen and the smallest text and icon in px once the image is scaled to 390 px wide and
to a 320 px chat column. Targets: text >= 11 px and icons >= 14 px at 390 px.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines  # noqa: E402
import render.common as common  # noqa: E402
from render import board_png, hand_png  # noqa: E402
from tests.render.sample import bot_game_views  # noqa: E402

NAMES = ["Ada", "Bolesław", "Cyryl", "Євгенія", "Żaneta"]
COLUMNS = (390, 320)


@contextlib.contextmanager
def _icons() -> Iterator[list[Any] | None]:
    """Icon records where the renderers keep them (None on code from before issue 25)."""
    record = getattr(common, "record_icons", None)
    if record is None:
        yield None
        return
    with record() as icons:
        yield icons


def measure(game_id: str, players: int, variants: list[str], games: int, every: int
            ) -> dict[str, tuple[set[int], float | None, float | None]]:
    """image kind -> (widths, smallest text px, smallest icon px) at 390 px wide."""
    out: dict[str, tuple[set[int], float | None, float | None]] = {}
    names = NAMES[:players]
    for kind in ("board", "hand"):
        widths: set[int] = set()
        text: float | None = None
        icon: float | None = None
        for seed in range(games):
            for lang in ("pl", "uk"):
                with common.record_text() as texts, _icons() as icons:
                    for view, hands in bot_game_views(game_id, players, seed, every=every,
                                                      variants=variants):
                        if kind == "board":
                            board_png(game_id, view, names=names, lang=lang)
                        else:
                            for private in hands:
                                hand_png(game_id, private, names=names, lang=lang)
                for r in texts:
                    widths.add(r.image_width)
                    px = r.size * 390 / r.image_width
                    text = px if text is None else min(text, px)
                for i in icons or []:
                    px = i.px * 390 / i.image_width
                    icon = px if icon is None else min(icon, px)
        if widths:
            out[kind] = (widths, text, icon)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1, help="seeded games per row")
    parser.add_argument("--every", type=int, default=6, help="render every K-th position")
    parser.add_argument("--game", action="append", help="game id (default: all)")
    args = parser.parse_args()
    cols = " ".join(f"{'text@' + str(c):>9} {'icon@' + str(c):>9}" for c in COLUMNS)
    print(f"{'game':16} {'pl':>2} {'variant':12} {'image':5} {'width':>11} {cols}")
    for game_id in args.game or engines.available():
        meta = engines.get(game_id).meta
        rows: list[tuple[int, list[str]]] = [(n, []) for n in range(meta.min_players, meta.max_players + 1)]
        if game_id == "kingdomino":
            rows.append((2, ["mighty_duel"]))
        for players, variants in rows:
            measured = measure(game_id, players, variants, args.games, args.every)
            for kind, (widths, text, icon) in measured.items():
                span = f"{min(widths)}-{max(widths)}" if len(widths) > 1 else str(min(widths))
                figures = []
                for c in COLUMNS:
                    for v in (text, icon):
                        figures.append(f"{v * c / 390:>9.1f}" if v is not None else f"{'-':>9}")
                print(f"{game_id:16} {players:>2} {','.join(variants) or '-':12} {kind:5} "
                      f"{span:>11} {' '.join(figures)}", flush=True)


if __name__ == "__main__":
    main()
