"""The one contract every Stolik game engine follows.

An engine is pure rules: no discord, no I/O, no wall clock, no global ``random``.
A state is a plain ``dict`` that survives ``json.dumps``/``json.loads`` unchanged;
all chance comes from :func:`rng_for`, seeded by ``state["seed"]`` and a draw counter
kept in the state, so the same seed and action list always give the same game.

Seats are ``0..players-1``. Actions have two spellings (like UCI and SAN in chess):
a compact *code* (``str``, no more than :data:`MAX_ACTION_CODE` characters, used in
button ids, the action log and tests) and a readable description given as a
translation key plus parameters (:meth:`Game.describe`), rendered by the host in
the player's language.

Text never lives in an engine: errors, score lines and events carry a key and
parameters; ``text/locales/*.json`` holds the words.
"""

from __future__ import annotations

import functools
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

State = dict[str, Any]
View = dict[str, Any]
Event = dict[str, Any]

#: computer player levels, weakest first (``/game addbot level:``); "normal" is the default
BOT_LEVELS = ("easy", "normal")

#: Longest action code; keeps ``stolik:<session>:<version>:<code>`` under Discord's 100.
MAX_ACTION_CODE = 60


class GameError(ValueError):
    """A move or input that breaks a rule. ``key`` is a translation key, ``params`` its values.

    ``str(error)`` is an English fallback so logs and tests stay readable; an error raised by
    :meth:`Game.apply` also carries the position it was raised in (``position``, the
    :meth:`Game.notation`), as python-chess's errors carry the FEN, so a report reproduces.
    """

    def __init__(self, key: str, message: str = "", **params: Any) -> None:
        self.key = key
        self.params = params
        self.position: str | None = None
        super().__init__(message or key)

    def __str__(self) -> str:
        text = super().__str__()
        return text if self.position is None else f"{text} in position:\n{self.position}"


class MalformedAction(GameError):
    """The action code cannot be parsed at all."""


class IllegalAction(GameError):
    """The action is well formed but a rule forbids it now; ``key`` names the rule."""


class NotYourTurn(GameError):
    """The seat may not act now."""


class BadOptions(GameError):
    """Setup options (player count, variants) are not allowed."""


@dataclass(frozen=True)
class Variant:
    """A named rules variant that can be switched on at setup."""

    name: str
    #: player counts the variant allows; empty = every count the game allows
    players: tuple[int, ...] = ()


@dataclass(frozen=True)
class GameMeta:
    id: str
    min_players: int
    max_players: int
    variants: tuple[Variant, ...] = ()
    #: several seats may act at once (secret simultaneous picks)
    simultaneous: bool = False
    #: some of a seat's view is private (hands): the host offers DMs and a "my hand" button
    hidden_information: bool = False
    #: ``../shared/rules`` file this engine follows, for people reading the code
    rulebook: str = ""


@dataclass
class ScoreLine:
    """One line of a score breakdown: ``points`` for a reason named by ``key``."""

    key: str
    points: int
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TieBreak:
    """One of the rulebook's tie-breaks after the points, in the order it applies: ``key``
    names it in the catalog (``kingdomino.tiebreak.largest``), ``values`` holds each seat's
    number (more is better). The final results show how each tie was broken with them."""

    key: str
    values: list[int]


class Game(ABC):
    """Rules of one game. Methods never mutate the state they are given."""

    meta: GameMeta

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """An engine's ``apply`` is wrapped so that its errors carry the position (below)."""
        super().__init_subclass__(**kwargs)
        if "apply" in cls.__dict__:
            cls.apply = _noting_position(cls.__dict__["apply"])  # type: ignore[method-assign,assignment]

    # --- setup -------------------------------------------------------------------------
    @abstractmethod
    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        """A new game. ``options`` is ``{"variants": [names...]}`` plus game-specific keys.

        Raises :class:`BadOptions` for a player count or variant the game does not allow.
        """

    # --- whose move, which moves --------------------------------------------------------
    @abstractmethod
    def to_act(self, state: State) -> list[int]:
        """Seats that must act now (several in a simultaneous phase); empty when over."""

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[str]:
        """Every legal action code for ``seat`` now; empty when the seat may not act."""

    def canonical(self, state: State, seat: int, action: str) -> str:
        """The one spelling of ``action`` the log keeps: the legal code it means when typed
        in another case, with other spaces or with leading zeros (``PICK 05`` -> ``pick 5``);
        an action matching no legal code is returned as it is (:meth:`apply` refuses it).

        Exact codes (every button, every computer move) cost one scan of the legal list and
        no normalising; an engine whose legal list is costly may override with a parse.
        """
        legal = self.legal_actions(state, seat)
        if action in legal:
            return action
        wanted = normal_form(action)
        return next((code for code in legal if normal_form(code) == wanted), action)

    @abstractmethod
    def apply(self, state: State, seat: int, action: str) -> tuple[State, list[Event]]:
        """The state after ``seat`` plays ``action`` and the public events it caused.

        Raises :class:`NotYourTurn`, :class:`MalformedAction` or :class:`IllegalAction`
        (naming the broken rule) and leaves ``state`` untouched; the base class fills in the
        error's ``position``. An event is a dict with a ``"key"`` (translation key) and
        parameters; an event with ``"private_to": seat`` is for that seat only and never shown
        in the channel.
        """

    # --- what a seat may see --------------------------------------------------------------
    @abstractmethod
    def view(self, state: State, seat: int | None) -> View:
        """What ``seat`` may see; ``None`` is a spectator (public information only).

        Private information of a seat sits under ``view["private"]`` (absent for spectators).
        Renderers and channel messages are built from ``view(state, None)`` only.
        """

    # --- results ------------------------------------------------------------------------
    @abstractmethod
    def scores(self, state: State) -> list[list[ScoreLine]]:
        """Per seat, the score breakdown (current, or final when the game is over)."""

    @abstractmethod
    def is_over(self, state: State) -> bool: ...

    @abstractmethod
    def ranking(self, state: State) -> list[list[int]]:
        """Seats grouped by place, best first; a group of several is a shared place."""

    def tiebreaks(self, state: State) -> list[TieBreak]:
        """The rulebook's tie-breaks after the points, in order (none: ties are shared).
        :meth:`ranking` must order seats by ``(total, *values)`` (a contract test checks)."""
        return []

    # --- notation and descriptions ------------------------------------------------------
    def describe(self, state: State, action: str) -> tuple[str, dict[str, Any]]:
        """Readable spelling of ``action`` as (translation key, params)."""
        return "action.generic", {"code": action}

    def notation(self, state: State) -> str:
        """One line that :meth:`load` turns back into exactly this state."""
        return json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def load(self, text: str) -> State:
        return json.loads(text)

    # --- computer player ----------------------------------------------------------------
    def bot_action(self, state: State, seat: int, rng: random.Random, level: str = "normal") -> str:
        """A legal move for a computer player of ``level`` (one of :data:`BOT_LEVELS`).

        Deterministic given ``rng``: no wall clock, so a search spends a count of playouts,
        not seconds. ``"easy"`` must be beatable by a new player; ``"normal"`` is the default
        and what plays for an absent player. Random legal here; games do better.
        """
        return rng.choice(self.legal_actions(state, seat))

    # --- helpers shared by engines ------------------------------------------------------
    def totals(self, state: State) -> list[int]:
        return [sum(line.points for line in lines) for lines in self.scores(state)]


def _noting_position(apply: Callable[[Game, State, int, str], tuple[State, list[Event]]]
                     ) -> Callable[[Game, State, int, str], tuple[State, list[Event]]]:
    """``apply`` whose :class:`GameError` carries the notation of the position it was raised
    in (kept when an inner ``apply`` set it already)."""

    @functools.wraps(apply)
    def noting(self: Game, state: State, seat: int, action: str) -> tuple[State, list[Event]]:
        try:
            return apply(self, state, seat, action)
        except GameError as error:
            if error.position is None:
                error.position = _position_of(self, state)
            raise

    return noting


def _position_of(game: Game, state: State) -> str | None:
    try:
        return game.notation(state)
    except (KeyError, IndexError, TypeError, ValueError):
        return None  # a state too damaged to write must not hide the rule it broke


def normal_form(action: str) -> str:
    """``action`` compared loosely: lower case, single spaces, numbers without leading zeros.

    >>> normal_form("  PICK   05 ")
    'pick 5'
    """
    return " ".join(str(int(token)) if token.isascii() and token.isdigit() else token
                    for token in action.casefold().split())


def rank_by(keys: list[Any]) -> list[list[int]]:
    """Seats grouped by place, best first, from one comparable key per seat (points first,
    then the game's tie-breaks); seats with equal keys share a place.

    >>> rank_by([(10, 2), (12, 0), (10, 2)])
    [[1], [0, 2]]
    """
    groups: list[list[int]] = []
    for seat in sorted(range(len(keys)), key=lambda s: keys[s], reverse=True):
        if groups and keys[groups[-1][0]] == keys[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return groups


def rng_for(state: State) -> random.Random:
    """A generator for the next chance event, advancing ``state["rng_draws"]``.

    Seeded from the stored seed and a counter, so a state loaded from JSON continues with
    exactly the draws it would have had. The caller must own ``state`` (a copy).
    """
    draws = state.get("rng_draws", 0)
    state["rng_draws"] = draws + 1
    return random.Random(f"{state['seed']}/{draws}")


def check_players(meta: GameMeta, players: int, variants: list[str]) -> None:
    """Reject a player count or variant the game does not allow (shared by every setup)."""
    if not meta.min_players <= players <= meta.max_players:
        raise BadOptions(
            "error.players_exact" if meta.min_players == meta.max_players
            else "error.players_range",
            f"{meta.id} is for {meta.min_players}-{meta.max_players} players, not {players}",
            game=meta.id, min=meta.min_players, max=meta.max_players, players=players,
        )
    known = {v.name: v for v in meta.variants}
    for name in variants:
        if name not in known:
            raise BadOptions(
                "error.unknown_variant", f"unknown variant {name!r}",
                variant=name, known=[variant_term(meta.id, v) for v in known],
            )
        if known[name].players and players not in known[name].players:
            raise BadOptions(
                "error.variant_players", f"variant {name} is not for {players} players",
                variant=variant_term(meta.id, name), players=players,
            )


def variant_term(game_id: str, variant: str) -> tuple[str, dict[str, Any]]:
    """A variant's name as a catalog term (``<game>.variant.<name>``), for error texts."""
    return (f"{game_id}.variant.{variant}", {})
