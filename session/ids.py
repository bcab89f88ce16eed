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


def select(session_id: int, version: int, menu: int = 0) -> str:
    """A menu of moves; ``menu`` tells apart the menus of one message (Discord wants every
    custom id of a message different)."""
    return f"sk:{session_id}:{version}:s:{menu or ''}"


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
#: ids that carry nothing but the session
_BARE = {"h": "hand", "u": "undo", "r": "rematch"}
#: the number of a menu among a message's menus (none: the first)
_MENU = re.compile(r"[1-4]?")


def _number(text: str) -> int | None:
    """A version as the id spells it: ASCII digits ("²" is a digit to str.isdigit, not to
    int()) within SQLite's integers; None for anything else."""
    if not (text.isascii() and text.isdigit()) or int(text) > MAX_ID:
        return None
    return int(text)


def _tagged(sid: int, rest: str) -> Parsed | None:
    """The ids named by a letter and a colon: abandon, lobby, vote."""
    tag, payload = rest[:2], rest[2:]
    if tag == "x:":
        version = _number(payload)
        return None if version is None else Parsed(sid, "abandon", version, "")
    if tag == "l:":
        return Parsed(sid, "lobby", None, payload)
    if tag == "v:" and _VOTE.fullmatch(payload):
        return Parsed(sid, "vote", None, payload)  # "<choice>:<topic>"
    return None


def parse(custom_id: str) -> Parsed | None:
    """Parse an id; None for anything that is not ours or is malformed."""
    match = _PARSE.fullmatch(custom_id)
    if not match or int(match["sid"]) > MAX_ID:
        return None
    sid, rest = int(match["sid"]), match["rest"]
    if rest in _BARE:
        return Parsed(sid, _BARE[rest], None, "")
    if rest[:2] in ("x:", "l:", "v:"):
        return _tagged(sid, rest)
    version_text, sep, tail = rest.partition(":")
    kind, sep2, payload = tail.partition(":")
    version = _number(version_text)
    if not (sep and sep2 and kind in _KINDS) or version is None:
        return None
    if kind == "s" and not _MENU.fullmatch(payload):
        return None
    return Parsed(sid, _KINDS[kind], version, payload)
