"""The pieces of text shared by the line notations of Gheos and Dwóch następców (and
Bunny Kingdom's comma lists).

Both write a header line, then lines that start with a word and hold ``name=value`` fields,
comma lists (``-``: empty) and lists wrapped over lines with the same head. A game's notation
module keeps what is its own (the header, each line's reader, the checks across lines);
:func:`read_lines` does the walk over the lines and names the line a reader refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engines.base import State

#: reads one line's tokens after its first word into the state
Reader = Callable[[State, list[str]], None]
#: a list line longer than this goes on in another line
WIDTH = 150
#: what a reader may raise for a line it cannot read (a missing field, a bad number)
_UNREADABLE = (ValueError, KeyError, IndexError, TypeError)


# --- writing -----------------------------------------------------------------------------
def csv(values: Iterable[Any]) -> str:
    """``a,b,c``; ``-`` for none."""
    return ",".join(map(str, values)) or "-"


def pairs(mapping: Mapping[str, Any]) -> str:
    """``k:v,k:v``; ``-`` for none."""
    return ",".join(f"{k}:{v}" for k, v in mapping.items()) or "-"


def wrapped(prefix: str, items: list[str], width: int = WIDTH) -> list[str]:
    """``prefix`` and ``items``, in as many lines as keep each under ``width``; ``prefix -``
    for no items."""
    if not items:
        return [f"{prefix} -"]
    lines = [prefix]
    for item in items:
        if len(lines[-1]) + 1 + len(item) > width and lines[-1] != prefix:
            lines.append(prefix)
        lines[-1] += " " + item
    return lines


# --- reading -----------------------------------------------------------------------------
def comma_list(text: str) -> list[str]:
    """What :func:`csv` wrote."""
    return [] if text == "-" else text.split(",")


def items(tokens: list[str]) -> list[str]:
    """A line's tokens; none for a lone ``-``."""
    return [] if tokens == ["-"] else tokens


def pair(token: str, sep: str = "=") -> tuple[str, str]:
    name, found, value = token.partition(sep)
    if not found:
        raise ValueError(f"expected name{sep}value, not {token!r}")
    return name, value


def fields(tokens: list[str], names: Iterable[str]) -> dict[str, str]:
    """``name=value`` tokens, exactly the ``names`` given, in that order."""
    found = dict(pair(token) for token in tokens)
    if list(found) != list(names):
        raise ValueError(f"expected the fields {' '.join(names)}")
    return found


def lister(key: str) -> Reader:
    """A reader adding a line's items to the list ``state[key]`` (the lines of a wrapped list
    add up)."""
    def read(state: State, tokens: list[str]) -> None:
        state.setdefault(key, []).extend(items(tokens))
    return read


def _error(game: str, n: int, line: str, reason: object) -> ValueError:
    return ValueError(f"{game} notation, line {n} ({line[:60]!r}): {reason}")


def read_lines(text: str, game: str, header: Callable[[str], State],
               readers: Mapping[str, Reader], required: Iterable[str]) -> State:
    """The state that ``header`` makes of the first line and ``readers`` (by each line's
    first word) fill in from the others; a line none can read raises ``ValueError`` naming
    it, and so does a text without each of the ``required`` lines."""
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise ValueError(f"{game} notation: the text is empty")
    try:
        state = header(lines[0][1])
    except _UNREADABLE as error:
        raise _error(game, *lines[0], error) from error
    seen = set()
    for n, line in lines[1:]:
        word, *tokens = line.split()
        reader = readers.get(word)
        if reader is None:
            raise _error(game, n, line, f"unknown line {word!r}")
        try:
            reader(state, tokens or ["-"])
        except _UNREADABLE as error:
            raise _error(game, n, line, error) from error
        seen.add(word)
    missing = [word for word in required if word not in seen]
    if missing:
        raise ValueError(f"{game} notation: no {', '.join(missing)} line")
    return state
