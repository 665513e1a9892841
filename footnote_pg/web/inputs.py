"""Reading the web API's requests: the body (bounded in size), its JSON, the question, a deep link, a limit.

Every way a request can be wrong is an :class:`ApiError`: a 4xx status and one line naming the field or parameter.
The question is checked with the same model as the MCP ``answer`` tool's argument, so both say the same.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError
from starlette.requests import ClientDisconnect, Request

from footnote_pg import errors
from footnote_pg.mcpserver.arguments import (
    AnswerArguments,
    argument_problem,
    invalid_arguments,
    json_type,
    label,
    text_problem,
)

MAX_BODY = 16 * 1024  # bytes of a request body
MAX_URI = 300  # characters of a deep link
MAX_LIMIT = 200  # ledger records in one answer


class ApiError(Exception):
    """An error answered as JSON ``{"error": message, **extra}`` with an HTTP status."""

    def __init__(self, status: int, message: str, *, close: bool = False, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.close = close  # the rest of the request may still be on its way: answer, then close the connection
        self.extra = extra


def invalid(error: errors.InvalidArgument, status: int = 400) -> ApiError:
    """An InvalidArgument as a 400 naming the field (code FN001)."""
    return ApiError(status, str(error), code=error.sqlstate, type=type(error).__name__,
                    field=error.detail.get("argument"))


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The body, at most ``limit`` bytes (413 beyond, without reading it all); the app bounds how long it may take."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise ApiError(413, f"the request body is larger than {limit:,} bytes ({int(declared):,})", close=True)
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise ApiError(413, f"the request body is larger than {limit:,} bytes", close=True)
            chunks.append(chunk)
    except ClientDisconnect:
        raise ApiError(400, "the request body did not arrive (the client stopped sending it)", close=True) from None
    return b"".join(chunks)


def json_body(request: Request, raw: bytes) -> Any:
    """The body as JSON: sent as application/json, UTF-8, well-formed, not nested beyond reason."""
    ctype = (request.headers.get("content-type") or "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise ApiError(415, "send the request body as application/json")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError(400, f"the request body is not valid JSON: not UTF-8 (byte {exc.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ApiError(400, f"the request body is not valid JSON: {exc.msg} (line {exc.lineno}, column "
                            f"{exc.colno})") from None
    except RecursionError:
        raise ApiError(400, "the request body is not valid JSON: nested too deeply") from None
    except ValueError:  # an integer of more digits than Python converts
        raise ApiError(400, "the request body is not valid JSON: a number has too many digits") from None


def question(doc: Any) -> str:
    """The question of ``{"question": "..."}``, checked like the MCP answer tool's argument."""
    if not isinstance(doc, dict):
        raise ApiError(400, f'invalid body: send a JSON object {{"question": "..."}}, not {json_type(doc)}',
                       code="FN001", type="InvalidArgument", field=None)
    if problem := argument_problem(doc):
        path, why = problem
        raise invalid(errors.InvalidArgument(f"invalid argument {path}: {why}", {"argument": path}))
    try:
        return AnswerArguments.model_validate(doc).question
    except ValidationError as exc:
        raise invalid(invalid_arguments("/api/ask", exc)) from None


def parameters(request: Request, allowed: tuple[str, ...]) -> dict[str, str]:
    """The query parameters, each at most once and only the ``allowed`` ones."""
    given: dict[str, str] = {}
    for name, value in request.query_params.multi_items():
        if name not in allowed:
            takes = ", ".join(allowed) if allowed else "no parameters"
            raise invalid(errors.InvalidArgument(
                f"invalid parameter {label(name)}: {request.url.path} takes {takes}", {"argument": label(name)}))
        if name in given:
            raise invalid(errors.InvalidArgument(f"invalid parameter {name}: give it once", {"argument": name}))
        given[name] = value
    return given


def deep_link(given: dict[str, str]) -> str:
    """``?uri=erp://<type>/<id>``: present, printable, not absurdly long (the database says whether it is one)."""
    uri = given.get("uri", "").strip()
    if not uri:
        raise invalid(errors.InvalidArgument("invalid parameter uri: give the deep link as ?uri=erp://<type>/<id>",
                                             {"argument": "uri"}))
    why = text_problem(uri) or (None if uri.isprintable() else "must not contain control characters")
    if why is None and len(uri) > MAX_URI:
        why = f"must be at most {MAX_URI} characters"
    if why:
        raise invalid(errors.InvalidArgument(f"invalid parameter uri: {why}", {"argument": "uri"}))
    return uri


def evidence_set(given: dict[str, str]) -> tuple[str, str, int]:
    """``?call_id=<uuid>&set=evidence_set:<n>&offset=N``: the call, the set it cites, and rows to skip."""
    call_id, the_set, raw = given.get("call_id", "").strip(), given.get("set", "").strip(), given.get("offset", "0")
    if not call_id:
        raise invalid(errors.InvalidArgument("invalid parameter call_id: give the call that cites the set",
                                             {"argument": "call_id"}))
    if not re.fullmatch(r"evidence_set:\d{1,19}", the_set):
        raise invalid(errors.InvalidArgument(
            f"invalid parameter set: must be an evidence set id (evidence_set:<digits>), not {the_set[:40]!r}",
            {"argument": "set"}))
    offset = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 12 else None
    if offset is None:
        raise invalid(errors.InvalidArgument(f"invalid parameter offset: must be a whole number, not {raw[:40]!r}",
                                             {"argument": "offset"}))
    return call_id, the_set, offset


def limit(given: dict[str, str], default: int = 20) -> int:
    """``?limit=N``: a whole number from 1 to MAX_LIMIT."""
    raw = given.get("limit", str(default))
    value = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 6 else None
    if value is None or not 1 <= value <= MAX_LIMIT:
        raise invalid(errors.InvalidArgument(
            f"invalid parameter limit: must be a whole number from 1 to {MAX_LIMIT}, not {raw[:40]!r}",
            {"argument": "limit"}))
    return value
