"""The session layer: game lifecycle, seats, turns and persistence, with no Discord in it.

Every accepted action is written to the log together with the new state in one transaction
*before* the caller is answered. The write is guarded by the state version, so of two writers
(two clicks, two processes) exactly one lands and the other gets ``error.stale``; a per-session
store lock (across processes) keeps clicks in order so that is rare. The state version travels
on every button so a stale click changes nothing.
"""

from __future__ import annotations

import importlib
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import engines
from db import timers as timer_sql
from db.database import Database, StaleVersion
from db.store import ChannelBusy, SessionRow, Store
from engines.base import BOT_LEVELS, MAX_ACTION_CODE, BadOptions, Game, GameError, State
from session import computer, logs
from session.clocks import Pace, parse_pace
from session.errors import SessionError, outcome_of, tells_store_failures
from session.standings import Standings
from session.turns import TurnClocks
from session.values import Notice, Outcome, event_notices, says_the_move

log = logging.getLogger(__name__)

#: a game with no action for this long gets a warning, then is archived a week later
IDLE_WARNING_AFTER = timedelta(days=30)
ARCHIVE_AFTER_WARNING = timedelta(days=7)
#: how long a refused DM (Discord error 50007) keeps us from trying that user again
DM_RETRY_AFTER = timedelta(hours=6)
#: engine states kept in memory (least recently used first out); a game not in the cache is
#: read from its row, so an idle game costs no memory
STATE_CACHE_SIZE = 256

def started(row: SessionRow) -> bool:
    """The game left its lobby (a lobby archived unstarted never did): it has a state."""
    return row.status in ("active", "finished") or row.version > 0 \
        or row.last_action_at is not None


def parse_variants(text: str | None) -> list[str]:
    """'Middle Kingdom, harmony' -> ['middle_kingdom', 'harmony'] (order kept, no repeats)."""
    names: list[str] = []
    for part in (text or "").replace(";", ",").split(","):
        name = "_".join(part.strip().lower().replace("-", " ").split())
        if name and name not in names:
            names.append(name)
    return names


def check_code(code: str) -> None:
    """Refuse, before any engine parses it, text that cannot be an action code: codes are
    short printable ASCII (``engines.base``); "²" passes ``str.isdigit`` but not ``int``."""
    if not code or len(code) > MAX_ACTION_CODE or not (code.isascii() and code.isprintable()):
        raise SessionError("error.bad_action", f"not an action code: {code[:80]!r}", action=code)


def playable() -> list[str]:
    """Games this checkout can host: an engine and a board renderer are both installed."""
    return [g for g in engines.available() if _has_renderer(g)]


def _has_renderer(game_id: str) -> bool:
    try:
        importlib.import_module(f"render.{game_id}")
    except ImportError:
        return False
    return True


def default_players(game: Game, variants: list[str]) -> int:
    """Seats to open when none were asked for: the fewest the game and its variants allow, so
    two friends start a game with ``/game new`` and one Join (the full lobby starts by
    itself); more players ask for them with ``players``."""
    counts = set(range(game.meta.min_players, game.meta.max_players + 1))
    for variant in game.meta.variants:
        if variant.name in variants and variant.players:
            counts &= set(variant.players)
    return min(counts, default=game.meta.min_players)


def min_players(game: Game, variants: list[str]) -> int:
    """The fewest seats a game with these variants is played with."""
    counts = [n for n in range(game.meta.min_players, game.meta.max_players + 1)
              if all(n in v.players for v in game.meta.variants
                     if v.name in variants and v.players)]
    return min(counts, default=game.meta.min_players)


def utcnow() -> datetime:
    return datetime.now(UTC)


def _ignore_move(game: str, outcome: str) -> None:
    """No one counts the moves (tests, the demo)."""


class Sessions:
    """The service the cogs and the demo call. Construct it over an open :class:`Database`."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], datetime] = utcnow,
        seed_source: Callable[[], int] = lambda: secrets.randbits(62),
        idle_after: timedelta = IDLE_WARNING_AFTER,
        state_cache: int = STATE_CACHE_SIZE,
        strict_bots: bool = False,
        on_move: Callable[[str, str], None] | None = None,
    ) -> None:
        """``strict_bots``: a failing computer player raises (the tests) instead of a seeded
        fallback move being played (production); see session/computer.py."""
        self.idle_after = idle_after
        #: told (game, outcome) of every player's move (:func:`session.errors.outcome_of`)
        self.on_move = on_move or _ignore_move
        self.db = db
        self.store = Store(db)
        self.standings = Standings(db)
        self.turns = TurnClocks(self.store, clock, idle_after)
        self.clock = clock
        self.seed_source = seed_source
        # session id -> (version, state); the version makes a state cached by this process
        # useless, never wrong, once another process moved the game on
        self._states: OrderedDict[int, tuple[int, State]] = OrderedDict()
        self.state_cache_size = state_cache
        self.strict_bots = strict_bots

    def now(self) -> str:
        """The current time as stored (ISO, UTC)."""
        return self.clock().isoformat()

    @asynccontextmanager
    async def locked(self, session_id: int) -> AsyncIterator[None]:
        """One request at a time per session, across all processes on this database (a
        store-level lock). It keeps clicks in order; the version-guarded writes keep the log
        right even without it."""
        async with self.store.locked(session_id):
            yield

    def remember_state(self, session_id: int, version: int, state: State) -> None:
        """Cache a session's state at a version (least recently used states are dropped)."""
        self._states[session_id] = (version, state)
        self._states.move_to_end(session_id)
        while len(self._states) > self.state_cache_size:
            self._states.popitem(last=False)

    def forget_state(self, session_id: int) -> None:
        self._states.pop(session_id, None)

    def cached_states(self) -> int:
        return len(self._states)

    # --- loading -----------------------------------------------------------------------
    @tells_store_failures
    async def session(self, session_id: int) -> SessionRow:
        row = await self.store.get(session_id)
        if row is None:
            raise SessionError("error.no_such_session", f"no session {session_id}", id=session_id)
        logs.bind_row(row)  # this task's lines from here on name the game (session/logs.py)
        return row

    @tells_store_failures
    async def in_channel(self, channel_id: int) -> SessionRow:
        row = await self.store.open_in_channel(channel_id)
        if row is None:
            raise SessionError("error.no_game_here", "no game in this channel")
        logs.bind_row(row)
        return row

    @tells_store_failures
    async def in_channel_or_ended(self, channel_id: int) -> SessionRow:
        """The channel's open game, else the one that ended last (``/game status`` and
        ``/game log`` right after the end answer about it rather than "no game here")."""
        row = await self.store.open_in_channel(channel_id)
        if row is not None:
            return row
        ended = await self.store.ended_in_channel(channel_id, 1)
        if not ended:
            raise SessionError("error.no_game_here", "no game in this channel")
        return await self.session(ended[0].id)

    @tells_store_failures
    async def state(self, row: SessionRow) -> State:
        """The engine state of an active or ended session, rebuilt from the log if damaged."""
        cached = self._states.get(row.id)
        if cached and cached[0] == row.version:
            self._states.move_to_end(row.id)
            return cached[1]
        if row.state_json is None and not started(row):
            raise SessionError("error.not_started", "the game has not started yet")
        try:
            state = json.loads(row.state_json or "null")
            if not isinstance(state, dict):
                raise ValueError("state is not an object")
        except ValueError:
            # a damaged row (unreadable or lost state) never loses the game: seed + action
            # log rebuild it exactly
            log.warning("session %s: stored state unreadable, replaying the log", row.id)
            state = await self.rebuild(row)
        if row.status == "active":
            self.remember_state(row.id, row.version, state)
        return state

    async def rebuild(self, row: SessionRow) -> State:
        """A damaged row's state from its seed and log; a log that no longer replays is
        reported by the game's number and name (the keeper gets the reason in the log)."""
        try:
            return await self.replay(row)
        except GameError as exc:
            log.error("session %s (%s): damaged beyond replay: %s", row.id, row.game_id, exc)
            raise SessionError("error.damaged_game", f"game {row.id} is damaged",
                               id=row.id, game=row.game_id) from exc

    async def replay(self, row: SessionRow, at_version: int | None = None) -> State:
        """Seed + action log -> state, exactly as played (as it stood at ``at_version``).

        Undone actions stay in the log; they count only for versions before their undo.
        """
        game = engines.get(row.game_id)
        state = game.setup(row.players, row.options, row.seed)
        for action in await self.store.actions(row.id, with_undone=at_version is not None):
            if at_version is not None and (
                action.version > at_version
                or (action.undone_version is not None and action.undone_version <= at_version)
            ):
                continue
            state, _ = game.apply(state, action.seat, action.code)
        return state

    async def check_fresh(self, row: SessionRow, seat: int, version: int | None) -> None:
        """Refuse a click made on an older board, unless nothing it offered has changed.

        A button carries the version it was sent at. In a simultaneous phase others act in
        between without changing this seat's choices; such a click is still good when this
        seat has not acted (or undone) since and its legal moves then and now are the same.
        """
        if version is None or version == row.version:
            return
        stale = SessionError("error.stale", "this move is no longer available")
        if not 0 <= version < row.version or row.status != "active":
            raise stale
        for action in await self.store.actions(row.id, with_undone=True):
            changed = action.version > version or (action.undone_version or 0) > version
            if changed and action.seat == seat:
                raise stale
        game = engines.get(row.game_id)
        then = await self.replay(row, version)
        if game.legal_actions(then, seat) != game.legal_actions(await self.state(row), seat):
            raise stale

    # --- lobby -------------------------------------------------------------------------
    @tells_store_failures
    async def new(
        self, *, guild_id: int | None, channel_id: int, game_id: str, user_id: int, name: str,
        players: int | None = None, variants: str | None = None, lang: str = "en",
        pace: str | None = None,
    ) -> Outcome:
        pace_json = parse_pace(pace).to_json()
        if game_id not in playable():
            raise SessionError(
                "error.unknown_game", f"unknown game {game_id!r}",
                game=game_id, known=[("game." + g, {}) for g in playable()],
            )
        game = engines.get(game_id)
        options = {"variants": parse_variants(variants)}
        wanted = players or default_players(game, options["variants"])
        # validate now (players and variants), so a bad option is refused before anyone joins
        try:
            game.setup(wanted, options, 0)
        except BadOptions as exc:
            raise SessionError(exc.key, str(exc), **exc.params) from None
        try:
            session_id = await self.store.create(
                guild_id=guild_id, channel_id=channel_id, game_id=game_id, creator_id=user_id,
                creator_name=name, players=wanted, options=options, seed=self.seed_source(),
                lang=lang, now=self.now(), pace_json=pace_json,
            )
        except ChannelBusy:
            running = await self.store.open_in_channel(channel_id)
            raise SessionError(
                "error.channel_busy", "a game is already open in this channel",
                game=running.game_id if running else "?",
                id=running.id if running else 0,
            ) from None
        # a lobby nobody starts is warned, then closed, like a silent game
        await self.store.run([timer_sql.idle_warning(
            session_id, (self.clock() + self.idle_after).isoformat())])
        row = await self.session(session_id)
        return Outcome(row, [Notice("notice.created", {"game": game_id, "player": name,
                                                        "players": wanted})])

    @tells_store_failures
    async def join(self, channel_id: int, user_id: int | None, name: str,
                   level: str | None = None) -> Outcome:
        """Take a seat (``user_id=None`` adds a computer player of ``level``, one of
        ``engines.base.BOT_LEVELS``, default "normal"); a full lobby starts."""
        if level is not None and (user_id is not None or level not in BOT_LEVELS):
            raise SessionError("error.bot_level", f"unknown computer level {level!r}",
                               level=level, levels=", ".join(BOT_LEVELS))
        row = await self.in_channel(channel_id)
        async with self.locked(row.id):
            row = await self.session(row.id)
            if row.status != "lobby":
                raise SessionError("error.already_started", "the game has already started")
            if user_id is not None and row.seat_of(user_id) is not None:
                raise SessionError("error.already_joined", "you are already in this game")
            if len(row.seats) >= row.players:
                raise SessionError("error.lobby_full", "the game is full", players=row.players)
            await self.store.add_seat(row.id, user_id, name, self.now(), level)
            row = await self.session(row.id)
            notices = [Notice("notice.joined", {"player": name, "count": len(row.seats),
                                                "players": row.players})]
            if len(row.seats) == row.players:
                return await self._start(row, notices)
            return Outcome(row, notices)

    @tells_store_failures
    async def leave(self, channel_id: int, user_id: int) -> Outcome:
        row = await self.in_channel(channel_id)
        async with self.locked(row.id):
            row = await self.session(row.id)
            if row.status != "lobby":
                raise SessionError("error.leave_started", "you cannot leave a game once it started")
            seat = row.seat_of(user_id)
            if seat is None:
                raise SessionError("error.not_a_player", "you are not in this game")
            name = row.seats[seat].name
            if user_id == row.creator_id:
                await self.store.end(row.id, "abandoned", None, self.now())
                return Outcome(await self.session(row.id), [Notice("notice.lobby_closed",
                                                                   {"player": name})])
            await self.store.remove_seat(row.id, seat, self.now())
            return Outcome(await self.session(row.id), [Notice("notice.left", {"player": name})])

    @tells_store_failures
    async def start(self, channel_id: int, user_id: int) -> Outcome:
        row = await self.in_channel(channel_id)
        async with self.locked(row.id):
            row = await self.session(row.id)
            if row.status != "lobby":
                raise SessionError("error.already_started", "the game has already started")
            if user_id != row.creator_id:
                raise SessionError("error.only_creator_starts", "only the creator can start")
            fewest = min_players(engines.get(row.game_id), row.options.get("variants", []))
            if len(row.seats) < fewest:
                raise SessionError("error.waiting_for_players", "the lobby is not full enough",
                                   game=row.game_id, count=fewest - len(row.seats))
            return await self._start(row, [])

    async def _start(self, row: SessionRow, notices: list[Notice]) -> Outcome:
        game = engines.get(row.game_id)
        try:
            state = game.setup(len(row.seats), row.options, row.seed)
        except BadOptions as exc:
            raise SessionError(exc.key, str(exc), **exc.params) from None
        extra = await self.turns.statements(row, set(), game.to_act(state), over=False)
        try:
            await self.store.start(row.id, len(row.seats), json.dumps(state), self.now(), extra)
        except StaleVersion:  # another process started it first
            raise SessionError("error.already_started", "the game has already started") from None
        row = await self.session(row.id)
        self.remember_state(row.id, row.version, state)
        notices.append(Notice("notice.started", {"game": row.game_id}))
        outcome = Outcome(row, notices, board_changed=True,
                          private_seats=self._human_seats(row, game), acting_before=set())
        return await self.settle(await self.run_computer_players(outcome))

    # --- play --------------------------------------------------------------------------
    @staticmethod
    def seat_of(row: SessionRow, user_id: int) -> int:
        """The user's seat, or a clear refusal for someone not at this table."""
        seat = row.seat_of(user_id)
        if seat is None:
            raise SessionError("error.not_a_player", "you are not playing in this game")
        return seat

    @classmethod
    def playing_seat(cls, row: SessionRow, user_id: int) -> int:
        """The user's seat in a running game."""
        if row.status != "active":
            raise SessionError("error.not_active", "this game is not running")
        return cls.seat_of(row, user_id)

    @tells_store_failures
    async def act(
        self, session_id: int, user_id: int, code: str, version: int | None = None
    ) -> Outcome:
        """Play ``code`` for the user's seat. ``version`` (from a button) must be current."""
        game = "unknown"  # until the session is read
        try:
            check_code(code)
            async with self.locked(session_id):
                row = await self.session(session_id)
                game = row.game_id
                seat = self.playing_seat(row, user_id)
                await self.check_fresh(row, seat, version)
                outcome = Outcome(row, new_turn=False)
                # typed codes are logged as the engine spells them (``PICK 05`` -> ``pick 5``)
                code = engines.get(row.game_id).canonical(await self.state(row), seat, code)
                await self.apply_move(outcome, seat, user_id, code)
                outcome = await self.settle(await self.run_computer_players(outcome))
        except Exception as error:  # counted, then raised as it was
            self.on_move(game, outcome_of(error))
            raise
        self.on_move(game, "accepted")
        return outcome

    async def apply_move(self, outcome: Outcome, seat: int, user_id: int | None, code: str,
                     kind: str = "move") -> None:
        """Apply, persist (one transaction), and record what changed in ``outcome``.

        ``error.stale`` when another writer moved the game on since ``outcome.session`` was
        read (the version guard decides; nothing is written)."""
        row = outcome.session
        game = engines.get(row.game_id)
        state = await self.state(row)
        new_state, events = game.apply(state, seat, code)  # raises GameError: nothing changes
        over = game.is_over(new_state)
        result = self.result(game, new_state) if over else None
        before, after = set(game.to_act(state)), [] if over else game.to_act(new_state)
        if outcome.acting_before is None:  # the first move of this change
            outcome.acting_before = before
        reveals = any(e.get("reveal") for e in events)
        outcome.new_turn |= over or reveals or not set(after) <= before
        extra = await self.turns.statements(row, before, after, over=over)
        # the clocks before the move, for an undo: only where a clock runs (half the row else)
        clocked = Pace.from_json(row.pace_json).timed or any(
            x.bank is not None or x.running_since is not None for x in row.seats)
        try:
            await self.store.record_action(
                session_id=row.id, version=row.version, seat=seat, user_id=user_id, code=code,
                state_json=json.dumps(new_state), finished=over, result=result, now=self.now(),
                reveals=reveals, kind=kind, extra=extra,
                clocks_before=[[x.seat, x.bank, x.running_since] for x in row.seats]
                if clocked else None,
            )
        except StaleVersion:
            self.forget_state(row.id)
            raise SessionError("error.stale", "this move is no longer available") from None
        if over:
            await self.standings.record(row.id, self.now())
        if not game.meta.hidden_information and not says_the_move(events, seat):
            # in games with secrets a move may be one (a hidden pick): only the engine's
            # public events describe those; a move the engine tells itself is said once
            key, params = game.describe(state, code)
            outcome.notices.append(Notice("notice.played", {"seat": seat, "action": (key, params)}))
        outcome.notices.extend(event_notices(events))
        self.note_private_changes(outcome, game, state, new_state)
        outcome.board_changed = True
        outcome.session = await self.session(row.id)
        log.debug("%s by seat %s accepted (version %s)", kind, seat, outcome.session.version)
        if outcome.session.status == "active":
            self.remember_state(row.id, outcome.session.version, new_state)
        else:  # a finished game is read rarely: its state leaves memory
            self.forget_state(row.id)

    def note_private_changes(self, outcome: Outcome, game: Game, old: State, new: State) -> None:
        if not game.meta.hidden_information:
            return
        for s in self._human_seats(outcome.session, game):
            before, after = game.view(old, s), game.view(new, s)
            if before.get("private") != after.get("private") and s not in outcome.private_seats:
                outcome.private_seats.append(s)

    @staticmethod
    def _human_seats(row: SessionRow, game: Game) -> list[int]:
        if not game.meta.hidden_information:
            return []
        return [s.seat for s in row.seats if not s.is_bot]

    async def run_computer_players(self, outcome: Outcome) -> Outcome:
        """Let computer seats move until a human must act or the game ends."""
        game = engines.get(outcome.session.game_id)
        while outcome.session.status == "active":
            row = outcome.session
            state = await self.state(row)
            bots = [s for s in game.to_act(state) if row.seats[s].is_bot]
            if not bots:
                break
            seat = bots[0]
            # seeded per move, so a replay of the log needs no hidden generator state
            code = await computer.move(row.game_id, state, seat, f"{row.seed}/bot/{row.version}",
                                       row.seats[seat].level, strict=self.strict_bots)
            await self.apply_move(outcome, seat, None, code, kind="computer")
        return outcome

    async def settle(self, outcome: Outcome) -> Outcome:
        """Fill in who must act now and the spectator view, as the change that produced
        ``outcome`` left them, so the publisher does not read them again (a lobby has no
        state: both stay ``None``)."""
        row = outcome.session
        if not started(row):  # (a started game's lost state is rebuilt by self.state)
            return outcome
        game = engines.get(row.game_id)
        state = await self.state(row)
        outcome.to_act = game.to_act(state) if row.status == "active" else []
        outcome.public = game.view(state, None)
        if outcome.acting_before is not None:
            outcome.started = [s for s in outcome.to_act if s not in outcome.acting_before]
        return outcome

    # --- reading for the host ----------------------------------------------------------
    @staticmethod
    def result(game: Game, state: State) -> dict[str, Any]:
        scores = game.scores(state)
        return {
            "totals": [sum(line.points for line in lines) for lines in scores],
            "ranking": game.ranking(state),
            "breakdown": [[[line.key, line.points, line.params] for line in lines]
                          for lines in scores],
            # the rulebook's tie-breaks with each seat's numbers: how a tie was broken
            "tiebreaks": [[tb.key, tb.values] for tb in game.tiebreaks(state)],
        }

    @tells_store_failures
    async def legal(self, session_id: int, user_id: int) -> tuple[SessionRow, int, list[str]]:
        """(session, seat, legal codes) for a user; empty when it is not their move."""
        row = await self.session(session_id)
        seat = self.seat_of(row, user_id)
        if row.status != "active":
            return row, seat, []
        return row, seat, engines.get(row.game_id).legal_actions(await self.state(row), seat)

    @tells_store_failures
    async def view(self, row: SessionRow, seat: int | None = None) -> dict[str, Any]:
        """A seat's view (``None``: the spectator view used for every public message)."""
        return engines.get(row.game_id).view(await self.state(row), seat)

    @tells_store_failures
    async def history(self, channel_id: int, limit: int = 5) -> list[SessionRow]:
        return await self.store.ended_in_channel(channel_id, limit)

    async def set_turn_message(self, session_id: int, message_id: int | None) -> None:
        await self.store.set_turn_message(session_id, message_id)

    # --- direct messages ---------------------------------------------------------------
    async def may_dm(self, user_id: int) -> bool:
        until = await self.store.dm_refused_until(user_id)
        return until is None or until <= self.now()

    async def dm_refused(self, user_id: int) -> None:
        """Remember a refused DM so we do not retry blindly (it counts toward Discord's ban)."""
        await self.store.set_dm_refused(user_id, (self.clock() + DM_RETRY_AFTER).isoformat())

    async def dm_allowed(self, user_id: int) -> None:
        await self.store.set_dm_refused(user_id, None)


async def open_sessions(path: str) -> tuple[Database, Sessions]:
    db = await Database(path).open()
    return db, Sessions(db)
