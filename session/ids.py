"""Custom ids of persistent components: ``sk:<session>:<version>:<kind>:<payload>``.

The version is the number of actions the session had when the component was sent; a click
with an older version is stale and changes nothing. Ids stay under Discord's 100 characters
because action codes are at most 60 (``engines.base.MAX_ACTION_CODE``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PATTERN = r"sk:(?P<sid>[0-9]+):(?P<rest>.*)"
_PARSE = re.compile(PATTERN)
#: ids are SQLite integers; a forged id beyond them is not ours (and would overflow)
MAX_ID = 2**63 - 1
#: the ballots a vote button may carry: ``<choice>:<topic>``
_VOTE = re.compile(r"(skip|computer|wait|yes|no):(end|timeout:[0-9]{1,2})")


@dataclass(frozen=True)
class Parsed:
    session_id: int
    kind: str  # act | pick | select | hand | lobby | vote | undo | abandon | rematch
    version: int | None
    payload: str


def act(session_id: int, version: int, code: str) -> str:
    return f"sk:{session_id}:{version}:a:{code}"


def pick(session_id: int, version: int, prefix: str) -> str:
    return f"sk:{session_id}:{version}:p:{prefix}"


def select(session_id: int, version: int) -> str:
    return f"sk:{session_id}:{version}:s:"


def select_value(value: str, complete: bool) -> str:
    return ("a:" if complete else "p:") + value


def hand(session_id: int) -> str:
    return f"sk:{session_id}:h"


def lobby(session_id: int, what: str) -> str:
    return f"sk:{session_id}:l:{what}"


def vote(session_id: int, topic: str, choice: str) -> str:
    return f"sk:{session_id}:v:{choice}:{topic}"


def undo(session_id: int) -> str:
    return f"sk:{session_id}:u"


def abandon(session_id: int, version: int) -> str:
    """The "Yes, abandon" button: void once anything changed since it was offered."""
    return f"sk:{session_id}:x:{version}"


def rematch(session_id: int) -> str:
    return f"sk:{session_id}:r"


_KINDS = {"a": "act", "p": "pick", "s": "select"}


def parse(custom_id: str) -> Parsed | None:
    """Parse an id; None for anything that is not ours or is malformed."""
    match = _PARSE.fullmatch(custom_id)
    if not match:
        return None
    sid, rest = int(match["sid"]), match["rest"]
    if sid > MAX_ID:
        return None
    if rest == "h":
        return Parsed(sid, "hand", None, "")
    if rest == "u":
        return Parsed(sid, "undo", None, "")
    if rest == "r":
        return Parsed(sid, "rematch", None, "")
    if rest.startswith("x:"):
        version = rest[2:]
        # "²" is a digit to str.isdigit, not to int(); ids are ASCII digits
        if not (version.isascii() and version.isdigit()) or int(version) > MAX_ID:
            return None
        return Parsed(sid, "abandon", int(version), "")
    if rest.startswith("l:"):
        return Parsed(sid, "lobby", None, rest[2:])
    if rest.startswith("v:"):
        if not _VOTE.fullmatch(rest[2:]):
            return None
        return Parsed(sid, "vote", None, rest[2:])  # "<choice>:<topic>"
    version, sep, tail = rest.partition(":")
    kind, sep2, payload = tail.partition(":")
    if not (sep and sep2 and version.isascii() and version.isdigit() and kind in _KINDS) \
            or int(version) > MAX_ID:
        return None
    return Parsed(sid, _KINDS[kind], int(version), payload)
