"""Choosing a move by clicks: legal action codes -> steps of at most one menu each.

Codes are space-separated tokens (``place C3 D3``). The aim is two clicks a move (issue 25):

- when the codes still open fit one menu (25), or a few menus side by side (one message holds
  five; chunks as below, one menu each), the step offers them as whole moves, so one click
  plays (or previews) the move;
- else the codes are grouped by their first tokens, the coarsest grouping whose groups and
  whose every group fit a menu (``pick fisher_king`` then the second card): two clicks;
- when no grouping by first tokens fits (Gheos: 2 verbs x 2 tiles x 19 cells x 3 turns), the
  codes are cut into consecutive chunks of at most a menu each, at token boundaries
  where that still fits (``#0`` .. ``#4``): again two clicks, up to 625 codes, and nested
  chunks beyond (every legal code stays reachable, none is cut).

A prefix is what was chosen so far: tokens (``pick fisher_king``), then chunk numbers
(``place #2``), each taken among the codes the prefix before it opens. The same codes give
the same chunks, so a prefix means the same at the version its custom id carries. Older
prefixes (``place C*``: tokens starting with C; ``place A1~C9*``: a range of tokens) are
still understood, for buttons posted before this picker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: options one Discord select menu can hold
MENU_SIZE = 25
#: select menus one message can hold (one per row, five rows)
MENUS = 5

GROUP = "*"  # an older group in a prefix: "place C*" (first character), "place A1~C9*" (range)
RANGE = "~"
CHUNK = "#"  # a chunk of the open codes: "place #2"
ELLIPSIS = "…"


@dataclass(frozen=True)
class Choice:
    #: the prefix after choosing this option (a whole code when ``complete``)
    value: str
    #: what to show for a group: its tokens (``fisher_king``), or a chunk's first and last
    #: (``K29 … M31``); a whole code is shown by its description
    label: str
    complete: bool


@dataclass(frozen=True)
class Step:
    prefix: str
    choices: tuple[Choice, ...]
    #: what was chosen so far, one label per choice made (same form as ``Choice.label``)
    trail: tuple[str, ...] = ()
    #: whole moves in several menus side by side: (label, how many choices) per menu, in
    #: order; empty when the choices make one menu (or buttons)
    menus: tuple[tuple[str, int], ...] = ()


def _parse(prefix: str) -> tuple[list[str], str | None, list[str]]:
    """(tokens chosen, an older group or None, chunk numbers) of a prefix."""
    tokens = prefix.split()
    chunks: list[str] = []
    while tokens and tokens[-1].startswith(CHUNK):
        chunks.insert(0, tokens.pop()[1:])
    if tokens and tokens[-1].endswith(GROUP):
        return tokens[:-1], tokens[-1][:-1], chunks
    return tokens, None, chunks


def _in_group(token: str, group: str) -> bool:
    low, sep, high = group.partition(RANGE)
    if sep:
        return low <= token <= high
    return token.startswith(group)


def _common(split: list[list[str]]) -> int:
    """How many first tokens every code shares."""
    first = split[0]
    depth = 0
    while depth < len(first) and all(len(s) > depth and s[depth] == first[depth] for s in split):
        depth += 1
    return depth


def _groups(split: list[list[str]], k: int) -> dict[tuple[str, ...], list[list[str]]]:
    out: dict[tuple[str, ...], list[list[str]]] = {}
    for tokens in split:
        out.setdefault(tuple(tokens[:k]), []).append(tokens)
    return out


def _chunks(split: list[list[str]]) -> list[list[list[str]]]:
    """Codes (in :func:`_ordered` order) cut into consecutive chunks of at most a menu, whole
    groups of first tokens kept together when the chunks still fit a menu; more than 625
    codes: chunks of more than a menu, each cut again when it is opened."""
    depth = _common(split)
    longest = max(len(s) for s in split)
    for k in range(depth + 1, longest + 1):
        groups = list(_groups(split, k).values())
        if all(len(g) <= MENU_SIZE for g in groups):
            packed: list[list[list[str]]] = [[]]
            for group in groups:
                if len(packed[-1]) + len(group) > MENU_SIZE:
                    packed.append([])
                packed[-1].extend(group)
            if len(packed) <= MENU_SIZE:
                return packed
            break
    count = min(-(-len(split) // MENU_SIZE), MENU_SIZE)
    size = -(-len(split) // count)
    return [split[i:i + size] for i in range(0, len(split), size)]


def _chunk_label(chunk: list[list[str]], depth: int) -> str:
    """``first … last``: each from the token where they part, with the one after it
    (``place T17 K27 … L28``, ``place T29 N31 … T44 M30``)."""
    first, last = chunk[0], chunk[-1]
    if first == last:
        return " ".join(first[depth:])
    at = max(_common(chunk), depth)
    return f"{' '.join(first[depth:at + 2])} {ELLIPSIS} {' '.join(last[at:at + 2])}".strip()


def _ordered(split: list[list[str]], depth: int) -> list[list[str]]:
    """The engine's order, but codes that share first tokens kept together (so chunks and
    groups are runs of it): by first appearance of each token, level by level."""
    ends = [s for s in split if len(s) == depth]
    after: dict[str, list[list[str]]] = {}
    for tokens in split:
        if len(tokens) > depth:
            after.setdefault(tokens[depth], []).append(tokens)
    return ends + [s for group in after.values() for s in _ordered(group, depth + 1)]


def _natural(tokens: list[str]) -> tuple[tuple[tuple[int, int, str], ...], ...]:
    """Sort key: token by token, numbers as numbers (``T5`` before ``T29``, ``B3`` before
    ``B10``)."""
    return tuple(tuple((0, int(part), "") if part.isdigit() else (1, 0, part)
                       for part in re.findall(r"\d+|\D+", token)) for token in tokens)


def _arranged(split: list[list[str]]) -> list[list[str]]:
    """More than a menu: in natural order, so that a menu or chunk named by its first and last
    holds what lies between them; else the engine's order (``pick 1`` .. ``pick 4``)."""
    return sorted(split, key=_natural) if len(split) > MENU_SIZE else split


def _open(codes: list[str], prefix: str) -> tuple[list[list[str]], tuple[str, ...]]:
    """The codes a prefix leaves open (in order, split) and its trail."""
    done, group, chunks = _parse(prefix)
    depth = len(done)
    split = _ordered([code.split() for code in dict.fromkeys(codes)], 0)
    open_ = [s for s in split if s[:depth] == done]
    trail: list[str] = list(done)
    if group is not None:
        open_ = [s for s in open_ if len(s) > depth and _in_group(s[depth], group)]
        trail.append(group.replace(RANGE, f" {ELLIPSIS} "))
    for number in chunks:
        if len(open_) <= MENU_SIZE or not number.isdigit():
            return [], tuple(trail)  # no step cut these codes into chunks
        open_ = _arranged(open_)
        parts = _chunks(open_)
        if int(number) >= len(parts):
            return [], tuple(trail)
        common = _common(open_)
        open_ = parts[int(number)]
        trail.append(_chunk_label(open_, common))
    return open_, tuple(trail)


def _whole(split: list[list[str]]) -> tuple[Choice, ...]:
    return tuple(Choice(" ".join(s), " ".join(s), True) for s in split)


def step(codes: list[str], prefix: str = "", menus: int = MENUS) -> Step:
    """The choices after ``prefix``: whole moves when they fit a menu (or ``menus`` menus
    side by side, one per chunk), else groups or chunks. A prefix that opens no code (forged,
    or of another position) has no choices."""
    open_, trail = _open(codes, prefix)
    if not open_:
        return Step(prefix, (), trail)
    if len(open_) <= MENU_SIZE:
        return Step(prefix, _whole(open_), trail)
    open_ = _arranged(open_)
    depth = _common(open_)
    parts = _chunks(open_)
    if len(parts) <= menus:
        return Step(prefix, _whole(open_), trail,
                    tuple((_chunk_label(part, depth), len(part)) for part in parts))
    longest = max(len(s) for s in open_)
    for k in range(depth + 1, longest + 1):
        groups = _groups(open_, k)
        if len(groups) > MENU_SIZE:
            break
        if all(len(g) <= MENU_SIZE for g in groups.values()):
            return Step(prefix, tuple(
                Choice(" ".join(g[0]), " ".join(g[0]), True) if len(g) == 1
                else Choice(" ".join(key), " ".join(key[depth:]), False)
                for key, g in groups.items()), trail)
    tokens = prefix.split()
    # chunks are numbered among the codes this prefix opens; the tokens all of them share
    # are written out when nothing but tokens was chosen (the same codes either way)
    marked = any(p.startswith(CHUNK) or p.endswith(GROUP) for p in tokens)
    base = " ".join(tokens) if marked else " ".join(open_[0][:depth])
    join = f"{base} " if base else ""
    return Step(prefix, tuple(
        Choice(f"{join}{CHUNK}{n}", _chunk_label(chunk, depth), False)
        for n, chunk in enumerate(parts)), trail)


def covers(prefix: str, code: str, codes: list[str]) -> bool:
    """Whether choosing ``prefix`` leads on to ``code`` (for click models and tests)."""
    open_, _ = _open(codes, prefix)
    return code.split() in open_
