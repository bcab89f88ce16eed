"""The round-trip check the notation tests of several games share."""

from __future__ import annotations

from typing import Any

from engines.base import Game


def round_trips(game: Game, state: dict[str, Any], *ordered: str) -> None:
    """``state``'s notation loads back to exactly ``state`` and is written again the same,
    each ``ordered`` mapping keeps its key order (the engine walks it in that order), and no
    line is over 200 characters."""
    text = game.notation(state)
    loaded = game.load(text)
    assert loaded == state
    assert game.notation(loaded) == text
    for key in ordered:
        assert list(loaded[key]) == list(state[key]), key
    assert all(len(line) <= 200 for line in text.splitlines())
