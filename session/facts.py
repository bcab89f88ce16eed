"""What the cogs may know of a game's rules, read through the session layer: who is to act,
its scores, its public description. The cogs never import the engines themselves."""

from __future__ import annotations

from typing import Any

import engines
from db.store import SessionRow
from engines.base import BOT_LEVELS, GameMeta

__all__ = ["BOT_LEVELS", "SessionRow", "hidden_information", "meta", "to_act", "totals"]


def meta(game_id: str) -> GameMeta:
    """The game's description (variants, player counts); ``KeyError`` or
    ``ModuleNotFoundError`` for a game that is not registered."""
    return engines.get(game_id).meta


def hidden_information(game_id: str) -> bool:
    """Whether the game has secrets (its players get private hands)."""
    return meta(game_id).hidden_information


def to_act(row: SessionRow, state: Any) -> list[int]:
    """The seats that must act in ``state`` of the session's game."""
    return engines.get(row.game_id).to_act(state)


def totals(row: SessionRow, state: Any) -> list[int]:
    """Each seat's score in ``state``."""
    return engines.get(row.game_id).totals(state)
