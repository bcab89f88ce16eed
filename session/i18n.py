"""The one text catalog: every word Stolik shows comes from ``session/locales/<lang>/*.json``.

Each language folder holds several JSON files (``core.json`` and one per game) merged into
one flat ``key -> template`` table; templates use ``str.format`` fields. A key missing in a
language falls back to English, and a key missing everywhere shows itself, so a gap is
visible rather than silent. Discord locales (``pl``, ``uk``, ``en-US``, ``en-GB``) map to
the three languages.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

LOCALES_DIR = Path(__file__).parent / "locales"
LANGUAGES = ("en", "pl", "uk")
DEFAULT = "en"


@cache
def catalog(lang: str) -> dict[str, str]:
    table: dict[str, str] = {}
    for path in sorted((LOCALES_DIR / lang).glob("*.json")):
        table.update(json.loads(path.read_text(encoding="utf-8")))
    return table


def language(locale: str | None) -> str:
    """Discord locale string (or None) -> one of :data:`LANGUAGES`."""
    if not locale:
        return DEFAULT
    base = str(locale).split("-")[0].lower()
    return base if base in LANGUAGES else DEFAULT


def lookup(lang: str, key: str) -> str | None:
    """The raw template for ``key`` (English fallback), or None when no language has it."""
    return catalog(language(lang)).get(key) or catalog(DEFAULT).get(key)


def t(lang: str, key: str, **params: Any) -> str:
    """The text for ``key`` in ``lang``, formatted with ``params``."""
    template = lookup(lang, key)
    if template is None:
        return key if not params else f"{key} {params}"
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template
