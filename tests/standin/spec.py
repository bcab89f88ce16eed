"""Request bodies checked against Discord's official OpenAPI spec.

``discord_openapi.json`` keeps, unchanged, the request-body schemas of the routes the bot calls
and of Discord's error body, with every schema they reference, from
github.com/discord/discord-api-spec (``specs/openapi.json``; MIT, see
``LICENSE-discord-api-spec.txt``; the commit is in the file's ``source``). Discord answers a body
that breaks them with 400, code 50035 "Invalid Form Body", and an ``errors`` object nested like
the body, each failing field holding ``_errors``: :func:`form_errors` builds that shape.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

FIXTURE = Path(__file__).with_name("discord_openapi.json")

#: Discord's error codes for a field, by the JSON-schema keyword that failed
_CODES = {
    "maxLength": "BASE_TYPE_MAX_LENGTH", "minLength": "BASE_TYPE_MIN_LENGTH",
    "maxItems": "BASE_TYPE_MAX_LENGTH", "minItems": "BASE_TYPE_MIN_LENGTH",
    "maximum": "NUMBER_TYPE_MAX", "minimum": "NUMBER_TYPE_MIN", "type": "BASE_TYPE_BAD_TYPE",
    "required": "BASE_TYPE_REQUIRED", "enum": "BASE_TYPE_CHOICES", "pattern": "STRING_TYPE_REGEX",
}


@functools.cache
def document() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


@functools.cache
def _components() -> dict[str, Any]:
    """The spec's schemas, with one leniency of the real Discord: a snowflake may be given as
    an integer (discord.py sends attachment and mentioned-user ids that way, and Discord takes
    them), where the spec writes only the string form."""
    schemas = dict(document()["components"]["schemas"])
    schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"],
                                          {"type": "integer", "minimum": 0}]}
    return {"schemas": schemas}


@functools.cache
def _validator(route: str) -> Draft202012Validator | None:
    root = document()["roots"].get(route)
    if root is None:
        return None
    return Draft202012Validator({**root, "components": _components()})


def routes() -> list[str]:
    """The routes (``"METHOD /template"``) whose request bodies the spec fixture covers."""
    return list(document()["roots"])


def check(route: str, body: Any) -> list[tuple[str, str, str]]:
    """(dotted path, Discord error code, message) for each way ``body`` breaks the spec's
    schema of ``route``; empty when it conforms or the route has no body schema here."""
    validator = _validator(route)
    if validator is None:
        return []
    errors = list(validator.iter_errors(body))
    if not errors:
        return []
    out = []
    for error in errors:
        error = _deepest(error)
        path = ".".join(str(p) for p in error.absolute_path) or "_form"
        out.append((path, _CODES.get(str(error.validator), "BASE_TYPE_INVALID"), _message(error)))
    return out


def _deepest(error: ValidationError) -> ValidationError:
    """The most specific cause of an ``anyOf``/``oneOf`` failure (the field that broke)."""
    while error.context:
        # the branch the body meant: not one whose ``type`` discriminator differs, and of the
        # rest the one that got furthest into the body
        error = max(error.context, key=lambda e: (not _wrong_kind(e), len(e.absolute_path)))
    return error


def _wrong_kind(error: ValidationError) -> bool:
    path = list(error.absolute_path)
    return bool(path) and path[-1] == "type" and error.validator in ("enum", "const")


def _message(error: ValidationError) -> str:
    """Discord's wording for the common cases, else the schema's own (without the value)."""
    limit = error.validator_value
    if error.validator in ("maxLength", "maxItems"):
        return f"Must be {limit} or fewer in length."
    if error.validator in ("minLength", "minItems"):
        return f"Must be {limit} or more in length."
    if error.validator == "required":
        return "This field is required"
    if error.validator == "maximum":
        return f"int value should be less than or equal to {limit}."
    if error.validator == "minimum":
        return f"int value should be greater than or equal to {limit}."
    return f"Invalid value ({error.validator})."


def form_errors(problems: list[tuple[str, str, str]]) -> dict[str, Any]:
    """Discord's ``errors`` object: nested like the body, ``_errors`` at each failing field
    (``{"content": {"_errors": [{"code": 50035, "message": ...}]}}``). The spec's ``Error``
    has an integer ``code``; Discord itself is seen sending a name there ("BASE_TYPE_..."):
    the spec is followed, the name goes into the violation text, and discord.py reads only the
    messages either way."""
    nested: dict[str, Any] = {}
    for path, _name, message in problems:
        node = nested
        for part in path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": 50035, "message": message})
    return nested


def error_body(problems: list[tuple[str, str, str]]) -> dict[str, Any]:
    return {"code": 50035, "message": "Invalid Form Body", "errors": form_errors(problems)}
