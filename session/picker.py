"""Choosing a move by clicks: legal action codes offered token by token.

Codes are space-separated tokens (``place C3 D3``). A step shows the distinct next tokens
after a prefix; a step with one choice is taken automatically, and a step with more choices
than a Discord menu holds is split by the token's first character (``C…`` then ``C3``).
So ``place C3 D3`` among 60 placements takes three clicks: column, cell, second cell.
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


GROUP = "*"  # marks a first-character group in a prefix: "place C*"


def _parse(prefix: str) -> tuple[list[str], str | None]:
    tokens = prefix.split()
    if tokens and tokens[-1].endswith(GROUP):
        return tokens[:-1], tokens[-1][:-1]
    return tokens, None


def step(codes: list[str], prefix: str = "") -> Step:
    """The choices after ``prefix``; a step with a single choice is followed automatically."""
    split = [code.split() for code in codes]
    done, group = _parse(prefix)
    while True:
        depth = len(done)
        following: dict[str, list[bool]] = {}  # next token -> [ends a code, continues]
        for tokens in split:
            if tokens[:depth] != done or len(tokens) <= depth:
                continue
            token = tokens[depth]
            if group is not None and not token.startswith(group):
                continue
            flags = following.setdefault(token, [False, False])
            flags[0 if len(tokens) == depth + 1 else 1] = True
        base = " ".join(done)
        join = (base + " ") if base else ""
        if group is None and len(following) > MENU_SIZE:
            heads = sorted({token[0] for token in following})
            if len(heads) > 1:
                return Step(prefix, tuple(
                    Choice(f"{join}{h}{GROUP}", f"{h}…", False) for h in heads))
        if len(following) == 1:
            ((token, (ends, continues)),) = following.items()
            if not continues:
                return Step(prefix, (Choice(join + token, token, True),))
            if not ends:
                done, group = done + [token], None
                continue
        choices: list[Choice] = []
        for token, (ends, continues) in following.items():
            if ends:
                choices.append(Choice(join + token, token, True))
            if continues:
                choices.append(Choice(join + token, token + " …" if ends else token, False))
        return Step(prefix, tuple(choices))
