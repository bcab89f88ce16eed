"""Game registry: game id -> engine. One table, so the host never names a game in code."""

from __future__ import annotations

from importlib import import_module

from engines.base import Game

#: game id -> module that defines ``GAME`` (imported on first use)
_MODULES = {
    "kingdomino": "engines.kingdomino",
    "bunny_kingdom": "engines.bunny_kingdom",
    "gheos": "engines.gheos",
    "dwoch_nastepcow": "engines.dwoch_nastepcow",
}
_loaded: dict[str, Game] = {}


def available() -> list[str]:
    """Ids of games whose engine is installed in this checkout."""
    out = []
    for game_id in _MODULES:
        try:
            get(game_id)
        except (ImportError, AttributeError):  # engine not (fully) in this checkout
            continue
        out.append(game_id)
    return out


def get(game_id: str) -> Game:
    if game_id not in _MODULES:
        raise KeyError(game_id)
    if game_id not in _loaded:
        _loaded[game_id] = import_module(_MODULES[game_id]).GAME
    return _loaded[game_id]
