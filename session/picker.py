"""Choosing a move by clicks: legal action codes offered token by token.

Codes are space-separated tokens (``place C3 D3``). A step shows the distinct next tokens
after a prefix; a step with one choice is taken automatically, and a step with more choices
than a Discord menu holds is split by the token's first character (``C…`` then ``C3``).
So ``place C3 D3`` among 60 placements takes three clicks: column, cell, second cell.
When even that leaves more choices than a menu holds (more than 25 first characters, or a
group of more than 25), the sorted tokens are split into ranges (``A1~C9``), nested as deep
as needed: every legal code stays reachable, none is cut.
"""

from __future__ import annotations

from dataclasses import dataclass

#: options one Discord select menu can hold
MENU_SIZE = 25


@dataclass(frozen=True)
class Choice:
    #: the prefix after choosing this option (a whole code when ``complete``)
    value: str
    #: what to show: the token (or first character of the tokens) it adds
    label: str
    complete: bool


@dataclass(frozen=True)
class Step:
    prefix: str
    choices: tuple[Choice, ...]


GROUP = "*"  # marks a group in a prefix: "place C*" (first character), "place A1~C9*" (range)
RANGE = "~"
#: tokens per range when a step must be split into ranges (two choices each at most, so a
#: range never needs more than a menu)
RANGE_SIZE = MENU_SIZE // 2


def _parse(prefix: str) -> tuple[list[str], str | None]:
    tokens = prefix.split()
    if tokens and tokens[-1].endswith(GROUP):
        return tokens[:-1], tokens[-1][:-1]
    return tokens, None


def _in_group(token: str, group: str) -> bool:
    low, sep, high = group.partition(RANGE)
    if sep:
        return low <= token <= high
    return token.startswith(group)


def _ranges(join: str, tokens: list[str]) -> tuple[Choice, ...]:
    """Split sorted tokens into at most a menu of ranges, each small enough or split again."""
    size = max(RANGE_SIZE, -(-len(tokens) // MENU_SIZE))
    chunks = [tokens[i:i + size] for i in range(0, len(tokens), size)]
    return tuple(Choice(f"{join}{chunk[0]}{RANGE}{chunk[-1]}{GROUP}", f"{chunk[0]}…{chunk[-1]}",
                        False) for chunk in chunks)


def _following(split: list[list[str]], done: list[str], group: str | None) -> dict[str, list[bool]]:
    """Next token after ``done`` (within ``group``) -> [ends a code, continues]."""
    depth = len(done)
    following: dict[str, list[bool]] = {}
    for tokens in split:
        if tokens[:depth] != done or len(tokens) <= depth:
            continue
        token = tokens[depth]
        if group is not None and not _in_group(token, group):
            continue
        flags = following.setdefault(token, [False, False])
        flags[0 if len(tokens) == depth + 1 else 1] = True
    return following


def _grouped(join: str, following: dict[str, list[bool]], group: str | None) -> tuple[Choice, ...]:
    """More choices than a menu holds: by first character, else by ranges."""
    heads = sorted({token[0] for token in following})
    if group is None and 1 < len(heads) <= MENU_SIZE:
        return tuple(Choice(f"{join}{h}{GROUP}", f"{h}…", False) for h in heads)
    return _ranges(join, sorted(following))


def _choices(join: str, following: dict[str, list[bool]]) -> tuple[Choice, ...]:
    choices: list[Choice] = []
    for token, (ends, continues) in following.items():
        if ends:
            choices.append(Choice(join + token, token, True))
        if continues:
            choices.append(Choice(join + token, token + " …" if ends else token, False))
    return tuple(choices)


def step(codes: list[str], prefix: str = "") -> Step:
    """The choices after ``prefix``; a step with a single choice is followed automatically."""
    split = [code.split() for code in codes]
    done, group = _parse(prefix)
    while True:
        following = _following(split, done, group)
        base = " ".join(done)
        join = (base + " ") if base else ""
        if sum(ends + continues for ends, continues in following.values()) > MENU_SIZE:
            return Step(prefix, _grouped(join, following, group))
        if len(following) == 1:
            ((token, (ends, continues)),) = following.items()
            if not ends and continues:  # the only way on: take it and look further
                done, group = done + [token], None
                continue
        return Step(prefix, _choices(join, following))
