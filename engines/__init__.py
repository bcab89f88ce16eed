"""Game registry: game id -> engine. One table, so the host never names a game in code.

:data:`BUILT_IN` names the games this checkout ships; :func:`register` is how a game gets into
the registry (the built-in ones at import, a test's toy game when the test needs it).
"""

from __future__ import annotations

from importlib import import_module

from engines.base import Game

#: the games this project ships: game id -> module that defines ``GAME`` (imported on first use)
BUILT_IN = {
    "kingdomino": "engines.kingdomino",
    "bunny_kingdom": "engines.bunny_kingdom",
    "gheos": "engines.gheos",
    "dwoch_nastepcow": "engines.dwoch_nastepcow",
}

#: game id -> its engine, or the module path to import it from on first use
_registry: dict[str, Game | str] = {}


def register(game_id: str, engine: Game | str) -> None:
    """Make ``game_id`` known: ``engine`` is a :class:`Game` or the path of a module that
    defines ``GAME`` (imported on first use). Registering an id again replaces its engine."""
    _registry[game_id] = engine


def unregister(game_id: str) -> None:
    """Forget ``game_id`` (nothing happens when it is not registered)."""
    _registry.pop(game_id, None)


def available() -> list[str]:
    """Ids of games whose engine is installed in this checkout."""
    out = []
    for game_id in list(_registry):
        try:
            get(game_id)
        except (ImportError, AttributeError):  # engine not (fully) in this checkout
            continue
        out.append(game_id)
    return out


def get(game_id: str) -> Game:
    engine = _registry[game_id]  # KeyError: no such game
    if isinstance(engine, str):
        game: Game = import_module(engine).GAME
        _registry[game_id] = engine = game
    return engine


for _game_id, _module in BUILT_IN.items():
    register(_game_id, _module)
