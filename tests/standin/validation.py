"""Request bodies checked as Discord checks them: against its OpenAPI spec
(:mod:`tests.standin.spec`), then against its documented limits, some stricter than the spec's
schemas (sizes in :mod:`tests.standin.limits`). A refusal is an :class:`HTTPError` carrying
Discord's error body; a message body breaking several rules gets every failing field, in the
order of :data:`MESSAGE_RULES`."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from tests.standin import spec
from tests.standin.limits import (
    MAX_CHOICE_TEXT,
    MAX_CHOICES,
    MAX_CONTENT,
    MAX_CUSTOM_ID,
    MAX_DESCRIPTION,
    MAX_FILE_BYTES,
    MAX_FILES,
    MAX_LABEL,
    MAX_LIST,
    MAX_NONCE,
    MAX_OPTION_TEXT,
    MAX_OPTIONS,
    MAX_PLACEHOLDER,
    MAX_ROW_ITEMS,
    MAX_ROWS,
    MAX_THREAD_NAME,
)
from tests.standin.model import Attachment

#: one failing field: (path such as "components.0.components.1.custom_id", Discord's code, text)
Problem = tuple[str, str, str]
#: component types that are select menus (one per action row)
SELECTS = (3, 5, 6, 7, 8)
BUTTON, STRING_SELECT, LINK_STYLE = 2, 3, 5


class HTTPError(Exception):
    """A refusal, answered with Discord's error body: ``code``, ``message`` and, for an invalid
    form, ``errors`` nested like the request body (``{"content": {"_errors": [...]}}``)."""

    def __init__(self, status: int, code: int, message: str,
                 problems: list[Problem] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.problems = problems or []

    @property
    def errors(self) -> list[str]:
        return [f"{path}: {name} {text}" for path, name, text in self.problems]

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.problems:
            body["errors"] = spec.form_errors(self.problems)
        return body


def invalid_form(*problems: Problem) -> HTTPError:
    return HTTPError(400, 50035, "Invalid Form Body", list(problems))


def check_spec(route_key: str, body: Any) -> None:
    """The body against the spec's schema for ``"METHOD /route/{template}"``."""
    problems = spec.check(route_key, body)
    if problems:
        raise invalid_form(*problems)


def too_long(limit: int) -> str:
    return f"Must be {limit} or fewer in length."


def between(low: int, high: int) -> str:
    return f"Must be between {low} and {high} in length."


# --- a message: content, components, files ---------------------------------------------
Body = dict[str, Any]
MessageRule = Callable[[Body, list[Attachment]], Iterator[Problem]]


def content_fits(body: Body, files: list[Attachment]) -> Iterator[Problem]:
    if len(body.get("content") or "") > MAX_CONTENT:
        yield "content", "BASE_TYPE_MAX_LENGTH", too_long(MAX_CONTENT)


def row_count_fits(body: Body, files: list[Attachment]) -> Iterator[Problem]:
    if len(body.get("components") or []) > MAX_ROWS:
        yield "components", "BASE_TYPE_MAX_LENGTH", too_long(MAX_ROWS)


def rows_valid(body: Body, files: list[Attachment]) -> Iterator[Problem]:
    """Each row an action row of 1-5 buttons or one menu, every component valid, no custom id
    twice in the message."""
    seen: set[str] = set()
    for r, row in enumerate(body.get("components") or []):
        at = f"components.{r}"
        if row.get("type") != 1:
            yield f"{at}.type", "BASE_TYPE_INVALID", "not an action row"
            continue
        items = row.get("components") or []
        selects = [c for c in items if c.get("type") in SELECTS]
        if not items or len(items) > MAX_ROW_ITEMS or (selects and len(items) > 1):
            yield (f"{at}.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                   f"{len(items)} items (1-5 buttons or one menu)")
        for n, component in enumerate(items):
            yield from component_problems(f"{at}.components.{n}", component, seen)


def files_fit(body: Body, files: list[Attachment]) -> Iterator[Problem]:
    if len(files) > MAX_FILES or any(len(f.data) > MAX_FILE_BYTES for f in files):
        yield "files", "BASE_TYPE_MAX_LENGTH", "Too many or too large"


def descriptions_fit(body: Body, files: list[Attachment]) -> Iterator[Problem]:
    for n, f in enumerate(files):
        if len(f.description or "") > MAX_DESCRIPTION:
            yield f"attachments.{n}.description", "BASE_TYPE_MAX_LENGTH", too_long(MAX_DESCRIPTION)


def not_empty(body: Body, files: list[Attachment]) -> Iterator[Problem]:
    if not body.get("content") and not files and not body.get("components") \
            and not body.get("embeds") and "attachments" not in body:
        yield "content", "BASE_TYPE_REQUIRED", "Cannot send an empty message"


#: Discord's documented message limits, in the order their problems are reported
MESSAGE_RULES: tuple[MessageRule, ...] = (
    content_fits, row_count_fits, rows_valid, files_fit, descriptions_fit, not_empty)


def check_message(body: Body, files: list[Attachment]) -> None:
    """Discord's documented message limits (some stricter than the spec's schemas, which are
    checked first): a 400 with the failing fields, as Discord answers."""
    problems = [problem for rule in MESSAGE_RULES for problem in rule(body, files)]
    if problems:
        raise invalid_form(*problems)


# --- a component --------------------------------------------------------------------------
def component_problems(here: str, c: dict[str, Any], seen: set[str]) -> Iterator[Problem]:
    """A button's or select menu's problems; ``seen`` collects the message's custom ids."""
    yield from custom_id_problems(here, c, seen)
    if c.get("type") == BUTTON and len(c.get("label") or "") > MAX_LABEL:
        yield f"{here}.label", "BASE_TYPE_MAX_LENGTH", too_long(MAX_LABEL)
    if c.get("type") == STRING_SELECT:
        yield from select_problems(here, c)


def custom_id_problems(here: str, c: dict[str, Any], seen: set[str]) -> Iterator[Problem]:
    custom_id = c.get("custom_id")
    if c.get("type") == BUTTON and c.get("style") != LINK_STYLE and not custom_id:
        yield f"{here}.custom_id", "BASE_TYPE_REQUIRED", "A custom id is required"
    if custom_id is None:
        return
    if not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
        yield f"{here}.custom_id", "BASE_TYPE_BAD_LENGTH", between(1, MAX_CUSTOM_ID)
    if custom_id in seen:
        yield (f"{here}.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED",
               f"Component custom id {custom_id!r} is duplicated")
    seen.add(custom_id)


def select_problems(here: str, c: dict[str, Any]) -> Iterator[Problem]:
    """A string select: 1-25 options with short, distinct values, a short placeholder, and
    ``min_values``/``max_values`` that fit its options."""
    options = c.get("options") or []
    if not 1 <= len(options) <= MAX_OPTIONS:
        yield f"{here}.options", "BASE_TYPE_BAD_LENGTH", between(1, MAX_OPTIONS)
    for k, o in enumerate(options):
        if len(o.get("label", "")) > MAX_OPTION_TEXT or len(o.get("value", "")) > MAX_OPTION_TEXT:
            yield f"{here}.options.{k}", "BASE_TYPE_MAX_LENGTH", too_long(MAX_OPTION_TEXT)
    if len({o.get("value") for o in options}) != len(options):
        yield (f"{here}.options", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
               "Select option values must be unique")
    if len(c.get("placeholder") or "") > MAX_PLACEHOLDER:
        yield f"{here}.placeholder", "BASE_TYPE_MAX_LENGTH", too_long(MAX_PLACEHOLDER)
    low, high = c.get("min_values", 1), c.get("max_values", 1)
    if not (0 <= low <= MAX_OPTIONS and 1 <= high <= MAX_OPTIONS and low <= high <= len(options)):
        yield (f"{here}.max_values", "SELECT_COMPONENT_MAX_VALUES",
               f"min_values {low} / max_values {high} do not fit {len(options)} options")


# --- other bodies ---------------------------------------------------------------------------
def check_choices(choices: list[dict[str, Any]]) -> None:
    """An autocomplete answer: documented (stricter than the spec's 6000 for a value), 25
    choices, a name and value of 1-100 characters each."""
    problems = [(f"data.choices.{n}.{key}", "BASE_TYPE_BAD_LENGTH", between(1, MAX_CHOICE_TEXT))
                for n, c in enumerate(choices) for key in ("name", "value")
                if isinstance(c.get(key), str) and not 1 <= len(c[key]) <= MAX_CHOICE_TEXT]
    if len(choices) > MAX_CHOICES:
        problems.append(("data.choices", "BASE_TYPE_MAX_LENGTH", too_long(MAX_CHOICES)))
    if problems:
        raise invalid_form(*problems)


def check_nonce(nonce: Any) -> None:
    if nonce is not None and len(str(nonce)) > MAX_NONCE:
        raise invalid_form(("nonce", "BASE_TYPE_MAX_LENGTH", too_long(MAX_NONCE)))


def check_thread_name(body: Body) -> None:
    if not 1 <= len(body.get("name") or "") <= MAX_THREAD_NAME:
        raise invalid_form(("name", "BASE_TYPE_BAD_LENGTH", between(1, MAX_THREAD_NAME)))


def list_query(query: dict[str, str]) -> tuple[int, int, int]:
    """(limit, after, before) of a read of a channel's messages: ``limit`` 1-100, default 50."""
    try:
        limit = int(query.get("limit", 50))
        after, before = int(query.get("after", 0)), int(query.get("before", 0))
    except ValueError:
        raise invalid_form(("limit", "NUMBER_TYPE_COERCE", "Value is not int.")) from None
    if not 1 <= limit <= MAX_LIST:
        raise invalid_form(("limit", "NUMBER_TYPE_MAX", "int value should be between 1 and 100."))
    return limit, after, before
