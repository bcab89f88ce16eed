"""Views -> PNG bytes. ``render.<game_id>`` modules each provide ``render_board`` (from the
spectator view) and, for games with private information, ``render_hand``."""

from __future__ import annotations

from importlib import import_module
from typing import Any


def board_png(game_id: str, view: dict[str, Any], *, names: list[str], lang: str = "en") -> bytes:
    return import_module(f"render.{game_id}").render_board(view, names=names, lang=lang)


def hand_png(
    game_id: str, view: dict[str, Any], *, names: list[str], lang: str = "en"
) -> bytes | None:
    """A seat's private view as an image, or None when the game draws no hands."""
    module = import_module(f"render.{game_id}")
    draw = getattr(module, "render_hand", None)
    return draw(view, names=names, lang=lang) if draw else None
