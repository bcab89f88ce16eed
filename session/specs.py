"""Messages as plain data, with no Discord types: the cogs turn a :class:`MessageSpec` into a
Discord message (file + buttons), within Discord's limits named here."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: at most this many choices are shown as buttons (4 rows of 5; the 5th row is for tools)
MAX_BUTTONS = 20
#: Discord caps message content at 2000 characters
MAX_CONTENT = 2000
#: and an attachment's description (its alt text) at 1024
MAX_DESCRIPTION = 1024


@dataclass
class ButtonSpec:
    custom_id: str
    label: str
    style: str = "secondary"  # primary | secondary | success | danger


@dataclass
class SelectSpec:
    custom_id: str
    placeholder: str
    options: list[tuple[str, str]]  # (label, value)


@dataclass
class MessageSpec:
    content: str
    image: bytes | None = None
    filename: str = "board.png"
    rows: list[list[ButtonSpec | SelectSpec]] = field(default_factory=list)
    #: the image in words (alt text), for screen readers and anyone who cannot see it
    description: str | None = None
    #: users this message notifies (their mentions in it ping them); none by default
    pings: list[int] = field(default_factory=list)


def alt_text(parts: list[str]) -> str:
    """Lines as one alt text within Discord's limit, without mentions or markdown stars."""
    words = " ".join(part.strip() for part in parts if part and part.strip())
    words = re.sub(r"\s*\(?<@!?\d+>\)?", "", words).replace("**", "")
    if len(words) <= MAX_DESCRIPTION:
        return words
    cut = words[:MAX_DESCRIPTION - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > len(cut) - 40 else cut) + "…"  # a whole word last
