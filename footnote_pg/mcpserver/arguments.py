"""Arguments as the tools take them, and every way they can be wrong as one line naming the argument.

Two checks run before a tool does anything: :func:`argument_problem` on the raw JSON (nesting depth, NUL
characters, lone surrogates, absurd sizes: what no tool can take, named by path), then the tool's own model
(``extra="forbid"``: an unknown argument is an error, not ignored). :func:`invalid_arguments` turns pydantic's
``ValidationError`` into an :class:`footnote_pg.errors.InvalidArgument` from its structured errors (type, location,
limits), in the database's words: ``invalid argument citations[0].call_id: is required``. The web API uses the same
checks for its JSON body.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import ErrorDetails

from footnote_pg import errors

MAX_DEPTH = 32  # levels of nested lists and objects an argument may have
MAX_TEXT = 100_000  # characters in any one string (the tools' own limits are lower)
LABEL = 60  # characters of an unknown argument's name quoted in a message


def label(name: object) -> str:
    """A name as a message shows it: as it is when short and printable, else quoted, escaped and cut."""
    text = str(name)
    if text.isprintable() and 0 < len(text) <= LABEL and '"' not in text:
        return text
    return repr(text[:LABEL]) + ("…" if len(text) > LABEL else "")


def text_problem(value: str) -> str | None:
    """Why no tool can take this string (NUL, a lone surrogate, over MAX_TEXT characters), or None."""
    if "\x00" in value:
        return "must not contain NUL (0x00) characters"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "must be valid Unicode text (it holds a lone surrogate such as \\ud800)"
    if len(value) > MAX_TEXT:
        return f"must be at most {MAX_TEXT:,} characters (not {len(value):,})"
    return None


def argument_problem(arguments: dict[str, Any]) -> tuple[str, str] | None:
    """The first (path, reason) of a value nothing can take, walking the JSON without recursion; None if clean.

    A value nested too deeply is named by its argument, anything else by its path (``citations[0].fact``)."""
    pending: list[tuple[str, str, Any, int]] = []  # (argument, path, value, depth)
    for name, value in reversed(list(arguments.items())):
        if isinstance(name, str) and (why := text_problem(name)):
            return label(name), f"the name {why}"
        pending.append((label(name), label(name), value, 1))
    while pending:
        argument, path, value, depth = pending.pop()
        if isinstance(value, str):
            if why := text_problem(value):
                return path, why
            continue
        if not isinstance(value, dict | list):
            continue
        if depth >= MAX_DEPTH:
            return argument, f"is nested more than {MAX_DEPTH} levels deep"
        if isinstance(value, list):
            pending.extend((argument, f"{path}[{n}]", item, depth + 1) for n, item in reversed(list(enumerate(value))))
            continue
        for key, item in reversed(list(value.items())):
            if isinstance(key, str) and (why := text_problem(key)):
                return f"{path}.{label(key)}", f"the name {why}"
            pending.append((argument, f"{path}.{label(key)}", item, depth + 1))
    return None


def _path(loc: Sequence[int | str]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{label(part)}" if out else label(part))
    return out


def _items(n: object) -> str:
    return f"{n} item" if n == 1 else f"{n} items"


def _cause(error: ErrorDetails, tool: str) -> str:
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind == "missing":
        return "is required"
    if kind == "extra_forbidden":
        return f"is not an argument of {tool}" if len(error["loc"]) == 1 else "is not a field here"
    if kind in ("string_type", "string_sub_type"):
        return f"must be a string, not {json_type(error.get('input'))}"
    if kind == "string_unicode":
        return "must be valid Unicode text (it holds a lone surrogate such as \\ud800)"
    if kind == "string_too_short":
        return "must not be empty" if ctx.get("min_length") == 1 else f"must be at least {ctx['min_length']} characters"
    if kind == "string_too_long":
        return f"must be at most {ctx['max_length']:,} characters"
    if kind == "list_type":
        return f"must be an array, not {json_type(error.get('input'))}"
    if kind == "too_short":
        return f"must hold at least {_items(ctx.get('min_length'))}"
    if kind == "too_long":
        return f"must hold at most {_items(ctx.get('max_length'))}"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"must be an object, not {json_type(error.get('input'))}"
    message = " ".join(str(error.get("msg") or kind).split())
    return message[:1].lower() + message[1:]


def json_type(value: object) -> str:
    """The JSON type of a value, in JSON Schema's words (as the database's own messages name them)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def invalid_arguments(tool: str, exc: ValidationError) -> errors.InvalidArgument:
    """The first problem pydantic found, as one line naming the argument (and how many other problems there are)."""
    problems = exc.errors(include_url=False)
    first = problems[0]
    path = _path(first["loc"]) or "arguments"
    others = len(problems) - 1
    more = f" (and {others} more problem{'s' if others > 1 else ''})" if others else ""
    return errors.InvalidArgument(f"invalid argument {path}: {_cause(first, tool)}{more}",
                                  {"argument": path, "reason": first["type"]})


# -- the fixed tools' arguments -------------------------------------------------------------------------------------


class Arguments(ArgModelBase):
    """Arguments of a fixed tool: exactly the declared ones (an unknown argument is an error)."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)


class PassThroughArguments(ArgModelBase):
    """A catalog operation's arguments as given: the database validates them (one validator, the CLI's messages)."""

    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True)

    def model_dump_one_level(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


class Citation(BaseModel):
    """One piece of evidence a decision rests on."""

    model_config = ConfigDict(extra="forbid")

    evidence: str = Field(
        description="evidence id from a catalog result, e.g. bank_change_request:502", min_length=1, max_length=200
    )
    call_id: str = Field(
        description="call_id of the catalog call that returned that evidence", min_length=1, max_length=100
    )
    fact: str | None = Field(
        default=None, description="what the evidence shows, e.g. pending_account_ending", max_length=200
    )


Question = Annotated[
    str,
    Field(description="a question about the ERP data, in English, e.g. “How much does Bergmann Logistik owe?”",
          min_length=1, max_length=2000),
]
CallIds = Annotated[
    list[str], Field(description="call_id of every catalog call the answer rests on", min_length=1, max_length=100)
]


class AnswerArguments(Arguments):
    question: Question


class SubmitAnswerArguments(Arguments):
    question: Annotated[str, Field(description="the user's question, as asked", min_length=1, max_length=2000)]
    answer: Annotated[
        str,
        Field(description="the answer you want to show, in your words; quote every figure exactly as the `text` the "
                          "catalog returned", min_length=1, max_length=20000),
    ]
    call_ids: CallIds


class RecordDecisionArguments(Arguments):
    action: Annotated[str, Field(description="what is decided, e.g. pay, hold, escalate", min_length=1,
                                 max_length=60)]
    subject: Annotated[
        str,
        Field(description="what it is about, e.g. Northwind Supply invoice to account ending 9086", min_length=1,
              max_length=500),
    ]
    rationale: Annotated[str, Field(description="why, in one or two sentences", max_length=5000)]
    citations: Annotated[list[Citation], Field(description="the evidence the decision rests on", max_length=200)]
    call_ids: Annotated[
        list[str] | None,
        Field(description="the catalog calls consulted (default: the call_ids of the citations)", max_length=200),
    ] = None


class NoArguments(Arguments):
    """A tool that takes no arguments."""
