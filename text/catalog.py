"""The one text catalog: every word Stolik shows comes from ``text/locales/<lang>/*.json``.

Each language folder holds several JSON files (``core.json`` and one per game) merged into
one flat ``key -> template`` table; templates use ``str.format`` fields. A key missing in a
language falls back to English, and a key missing everywhere shows itself, so a gap is
visible rather than silent. Discord locales (``pl``, ``uk``, ``en-US``, ``en-GB``) map to
the three languages.

Counts take the language's plural form from CLDR's rules (through Babel), written in the
ICU MessageFormat way that translators know: ``{count, plural, one {# city} few {# miasta}
many {# miast} other {# miasta}}``. ``#`` is the number; ``=N {…}`` matches one exact value;
``other`` is required and used for any category a template leaves out.

Names that a sentence inflects (a building after "bierze", "бере") carry their grammatical
forms: the name's key with ``:<case>`` holds that form (``"dwoch_nastepcow.building.inn:acc":
"Gospodę"``), kept in each language's ``forms.json``. A template asks for a form with a format
spec, ``bierze {building:acc}``; a parameter built by :func:`name` (or :func:`localised`) knows
its forms and answers with the one asked for (the plain name when a form is missing, which
``tests/host/test_name_forms.py`` does not allow). By convention a field ``X`` asking for a
form in a template of game ``G`` takes the names ``G.X.*``: the test walks every such
template with every name of its family and fails on a missing form.
"""

from __future__ import annotations

import json
import re
import string
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale

LOCALES_DIR = Path(__file__).parent / "locales"
LANGUAGES = ("en", "pl", "uk")
DEFAULT = "en"


@cache
def catalog(lang: str) -> dict[str, str]:
    table: dict[str, str] = {}
    for path in sorted((LOCALES_DIR / lang).glob("*.json")):
        table.update(json.loads(path.read_text(encoding="utf-8")))
    return table


@cache
def language(locale: str | None) -> str:
    """Discord locale string (or None) -> one of :data:`LANGUAGES`. Cached: every text asks
    it several times (a tenth of the time of a move's description)."""
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
    lang = language(lang) if catalog(language(lang)).get(key) else DEFAULT
    if _asks_a_form(template):  # a plain string asked for a form answers with itself
        params = {k: Name(v) if type(v) is str else v for k, v in params.items()}
    try:
        return expand_plurals(lang, template, params).format(**params)
    except (KeyError, IndexError, ValueError):
        return template


#: the forms a template may ask a name for (``{building:acc}``): Polish and Ukrainian cases
CASES = ("nom", "gen", "dat", "acc", "ins", "loc")


class Name(str):
    """A name in one language that also holds its grammatical forms (see the module's
    docstring). It is a ``str``: anything that is not a template asking for a form sees the
    plain name."""

    forms: dict[str, str]

    def __new__(cls, text: str, forms: dict[str, str] | None = None) -> Name:
        made = super().__new__(cls, text)
        made.forms = forms or _NO_FORMS  # shared, never changed
        return made

    def __format__(self, spec: str) -> str:
        if spec in CASES:
            return self.forms.get(spec, str(self))
        return format(str(self), spec)


@cache
def name_forms(lang: str) -> dict[str, dict[str, str]]:
    """``key -> {case: form}`` of every name that has forms in ``lang`` (once per language:
    names are built for every button and notice)."""
    forms: dict[str, dict[str, str]] = {}
    for full, form in catalog(lang).items():
        key, _, case = full.rpartition(":")
        if key and case in CASES:
            forms.setdefault(key, {})[case] = form
    return forms


_NO_FORMS: dict[str, str] = {}
_FORM_FIELD = re.compile(r"\{\w+:(?:" + "|".join(CASES) + r")\}")


@cache
def _asks_a_form(template: str) -> bool:
    return _FORM_FIELD.search(template) is not None


def name(lang: str, key: str, **params: Any) -> Name:
    """The text for ``key`` with the forms ``key:<case>`` the language has for it."""
    return Name(t(lang, key, **params), name_forms(language(lang)).get(key))


def term(key: str, params: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """A parameter that is itself a text of the catalog (a game's or a variant's name):
    engines stay free of words, and the reader sees the name in their own language."""
    return (key, params or {})


def localised(lang: str, value: Any) -> Any:
    """A parameter made readable: terms are translated, lists joined, the rest as it is."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str) \
            and isinstance(value[1], dict):
        return name(lang, value[0], **value[1])
    if isinstance(value, list | tuple):
        return ", ".join(str(localised(lang, item)) for item in value) or "-"
    return value


def error_text(lang: str, key: str, params: dict[str, Any]) -> str:
    """An error's text: a ``game`` parameter is a game id, shown by its name."""
    shown = {name: localised(lang, value) for name, value in params.items()}
    if isinstance(params.get("game"), str) and lookup(lang, f"game.{params['game']}"):
        shown["game"] = t(lang, f"game.{params['game']}")
    return t(lang, key, **shown)


@cache
def plural_rule(lang: str) -> Any:
    return Locale.parse(lang).plural_form


def plural_category(lang: str, number: float) -> str:
    """CLDR plural category of ``number`` in ``lang``: one, few, many or other."""
    return str(plural_rule(language(lang))(number))


_PLURAL_HEAD = re.compile(r"\{\s*(\w+)\s*,\s*plural\s*,")
_BRANCH = re.compile(r"\s*(=\d+|zero|one|two|few|many|other)\s*\{")


def plural_blocks(template: str) -> list[tuple[int, int, str, dict[str, str]]]:
    """Every ``{name, plural, …}`` block: (start, end, name, {selector: text})."""
    found: list[tuple[int, int, str, dict[str, str]]] = []
    for head in _PLURAL_HEAD.finditer(template):
        if any(start <= head.start() < end for start, end, _, _ in found):
            continue
        pos, branches = head.end(), {}
        while True:
            branch = _BRANCH.match(template, pos)
            if branch is None:
                break
            depth, i = 1, branch.end()
            while depth and i < len(template):
                depth += {"{": 1, "}": -1}.get(template[i], 0)
                i += 1
            branches[branch.group(1)] = template[branch.end():i - 1]
            pos = i
        close = template.find("}", pos)
        if close < 0 or template[pos:close].strip():
            raise ValueError(f"malformed plural block in {template!r}")
        found.append((head.start(), close + 1, head.group(1), branches))
    return found


def template_fields(template: str) -> set[str]:
    """The parameter names a template uses, inside plural branches too."""
    names: set[str] = set()
    plain, last = [], 0
    for start, end, name, branches in plural_blocks(template):
        names.add(name)
        plain.append(template[last:start])
        plain.extend(branch.replace("#", "") for branch in branches.values())
        last = end
    plain.append(template[last:])
    for part in plain:
        names |= {field for _, field, _, _ in string.Formatter().parse(part) if field}
    return names


def expand_plurals(lang: str, template: str, params: dict[str, Any]) -> str:
    """Replace each plural block by the branch that fits its number (``#`` → the number)."""
    blocks = plural_blocks(template)
    if not blocks:
        return template
    out, last = [], 0
    for start, end, name, branches in blocks:
        number = params.get(name)
        if not isinstance(number, int | float) or isinstance(number, bool):
            raise KeyError(name)
        chosen = branches.get(f"={number}") or branches.get(plural_category(lang, number)) \
            or branches["other"]
        out += [template[last:start], chosen.replace("#", str(number))]
        last = end
    out.append(template[last:])
    return "".join(out)
