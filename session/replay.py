"""``/game replay``: a whole game (finished or running) as an animated image of its boards
plus the full move log as a text file.

Everything public: frames are spectator views (``view(state, None)``) and the log holds only
public events, exactly as the channel saw them, so a running game with secrets leaks nothing.
The log is replayed from seed + actions and the frames drawn in one call away from the event
loop (``workers.off_loop``): a long game's replay and drawing would otherwise stall the bot.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

import engines
import render
from db.store import SessionRow
from session import present, wording
from session.errors import tells_store_failures
from session.service import Sessions
from session.values import Notice, says_the_move
from text.catalog import t

#: at most this many boards in one animation (the first, the last, evenly spaced between)
MAX_FRAMES = 48
#: milliseconds each board shows; the last one stays longer
FRAME_MS, LAST_FRAME_MS = 800, 4000
#: Discord's attachment limit without boosts is 10 MiB; stay well under it with the log
MAX_BYTES = 8 * 1024 * 1024
#: frames wider than this are scaled down (a phone shows ~400 px; the file stays small)
MAX_WIDTH = 900


@dataclass
class Replay:
    animation: bytes  # an animated GIF
    frames: int
    log: str  # the full public move log, one line per notice
    #: the animation in words (its alt text): which game, how many boards, how it ended
    description: str = ""


def frame_indices(positions: int, limit: int = MAX_FRAMES) -> list[int]:
    """Which of ``positions`` boards to show: all, or ``limit`` evenly spaced with the first
    and the last always in."""
    if positions <= limit:
        return list(range(positions))
    step = (positions - 1) / (limit - 1)
    return sorted({round(i * step) for i in range(limit)})


def build(row: SessionRow, codes: list[tuple[int, str]], lang: str,
          limit: int = MAX_FRAMES) -> Replay:
    """Replay ``codes`` (seat, code) from the session's seed; draw the chosen positions."""
    row = present.reader_row(row, lang)  # computer players named in the reader's language
    game = engines.get(row.game_id)
    state = game.setup(row.players, row.options, row.seed)
    views = [game.view(state, None)]
    lines: list[str] = []
    for number, (seat, code) in enumerate(codes, 1):
        before = state
        state, events = game.apply(state, seat, code)
        notices: list[Notice] = []
        if not game.meta.hidden_information and not says_the_move(events, seat):
            key, params = game.describe(before, code)
            notices.append(Notice("notice.played", {"seat": seat, "action": (key, params)}))
        notices += [Notice(e["key"], {k: v for k, v in e.items() if k not in ("key", "reveal")})
                    for e in events if "private_to" not in e]
        lines += [f"{number}. {line}" for line in present.notices_text(row, notices, lang)]
        views.append(game.view(state, None))
    chosen = frame_indices(len(views), limit)
    animation = animate([views[i] for i in chosen], row, lang)
    while len(animation) > MAX_BYTES and len(chosen) > 2:  # too big: fewer boards
        chosen = [chosen[i] for i in frame_indices(len(chosen), len(chosen) // 2)]
        animation = animate([views[i] for i in chosen], row, lang)
    description = present.alt_text([
        t(lang, "ending.alt_replay", game=t(lang, f"game.{row.game_id}"), id=row.id,
          frames=len(chosen)),
        present.board_description(row, state, [], lang)])
    return Replay(animation, len(chosen), "\n".join(lines) + "\n", description)


def animate(views: list[dict], row: SessionRow, lang: str) -> bytes:
    images = []
    for view in views:
        image = Image.open(io.BytesIO(render.board_png(row.game_id, view, names=wording.names(row),
                                                       lang=lang))).convert("RGB")
        if image.width > MAX_WIDTH:
            image = image.resize((MAX_WIDTH, round(image.height * MAX_WIDTH / image.width)))
        images.append(image)
    # boards may grow during a game: every frame gets the largest size, on white
    size = (max(i.width for i in images), max(i.height for i in images))
    frames = []
    for image in images:
        canvas = Image.new("RGB", size, "white")
        canvas.paste(image, (0, 0))
        # fast octree: ~5x quicker than the default median cut for the same look (measured)
        frames.append(canvas.quantize(colors=128, method=Image.Quantize.FASTOCTREE,
                                      dither=Image.Dither.NONE))
    out = io.BytesIO()
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:],
                   duration=durations, loop=0, optimize=False, disposal=1)
    return out.getvalue()


@tells_store_failures
async def moves(sessions: Sessions, session_id: int) -> list[tuple[int, str]]:
    """The (seat, code) of each move a replay of the session replays."""
    return [(a.seat, a.code) for a in await sessions.store.actions(session_id)]


@tells_store_failures
async def channel_game(sessions: Sessions, channel_id: int) -> SessionRow | None:
    """The game a replay without a number shows: the channel's open game, else its last
    ended one."""
    row = await sessions.store.open_in_channel(channel_id)
    if row is None:
        ended = await sessions.history(channel_id, limit=1)
        row = ended[0] if ended else None
    return row
