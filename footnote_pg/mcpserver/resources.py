"""Evidence as MCP resources: ``erp://{type}/{id}``, a record read through the ``source_record`` operation,
``footnote://evidence/{call_id}/{set_id}/{offset}``, a page of the rows behind an evidence set a call cites, and
``footnote://result/{id}/{part}/{offset}``, a page of a list a tool result left out to fit ``max_result``."""

from __future__ import annotations

import json

import psycopg
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError

from footnote_pg import errors
from footnote_pg.mcpserver.arguments import text_problem
from footnote_pg.mcpserver.backend import Backend, reported
from footnote_pg.mcpserver.fitting import RESULT_TEMPLATE, page
from footnote_pg.mcpserver.results import SET_TEMPLATE, error_text

URI_TEMPLATE = "erp://{type}/{id}"
SET_PAGE = 100  # rows of an evidence set per resource read


def add_record_resource(server: MCPServer[Backend], backend: Backend) -> None:
    """The resource template ``erp://{type}/{id}``: the record behind an evidence deep link."""

    @server.resource(
        URI_TEMPLATE,
        name="erp_record",
        title="ERP record behind a deep link",
        description="The record behind an evidence deep link: type, id, uri, verified and its fields.",
        mime_type="application/json",
    )
    def erp_record(type: str, id: str) -> str:  # noqa: A002 - the template's variable names
        uri = f"erp://{type}/{id}"
        if why := text_problem(uri):
            raise ResourceNotFoundError(f"invalid argument uri: {why}")
        try:
            e = backend.run(lambda fn: fn.call("source_record", uri=uri), retry=True).evidence[0]
        except (errors.FootnoteError, psycopg.Error) as exc:
            error = reported("source_record", exc)
            found = not isinstance(error, errors.UnknownEntity | errors.InvalidArgument)
            raise (ResourceError if found else ResourceNotFoundError)(error_text("source_record", error)) from None
        return json.dumps(
            {"type": e.type, "id": e.record_id, "uri": e.uri, "verified": e.verified, "fields": e.fields,
             **({"ui_link": e.ui_link} if e.ui_link else {})},
            ensure_ascii=False,
        )


def _offset(offset: str) -> int:
    if not (offset.isascii() and offset.isdigit() and len(offset) <= 12):
        raise ResourceNotFoundError(f"invalid argument offset: must be a whole number, not {offset[:40]!r}")
    return int(offset)


def add_result_page_resource(server: MCPServer[Backend], backend: Backend) -> None:
    """The resource template of the lists a result cut to fit max_result: from ``offset``, as many as fit."""

    @server.resource(
        RESULT_TEMPLATE,
        name="result_page",
        title="The rest of a cut result",
        description="A tool result over the server's max_result keeps the first items of each list and names the "
                    "rest in structuredContent.omitted; this reads a list (part: evidence, rows, "
                    "values.<name>.evidence, …) of result id (a call_id or ledger record_id) from offset: items, "
                    "total and the URI of the next page (null at the end).",
        mime_type="application/json",
    )
    def result_page(id: str, part: str, offset: str) -> str:  # noqa: A002 - the template's variable names
        start = _offset(offset)
        try:
            doc = page(backend.held, id, part, start, backend.config.max_result)
        except errors.FootnoteError as exc:
            raise ResourceNotFoundError(error_text("result_page", exc)) from None
        return json.dumps(doc, ensure_ascii=False)


def add_evidence_set_resource(server: MCPServer[Backend], backend: Backend) -> None:
    """The resource template of evidence set pages: 100 rows from ``offset``, read again from the ERP."""

    @server.resource(
        SET_TEMPLATE,
        name="evidence_set_rows",
        title="Rows behind an evidence set",
        description="A figure over very many records cites them as an evidence set (type evidence_set: rows, "
                    "digest); this reads up to 100 of its rows from offset (fewer when they would not fit the server's "
                    "max_result), with their deep links and fields.",
        mime_type="application/json",
    )
    def evidence_set_rows(call_id: str, set_id: str, offset: str) -> str:
        start = _offset(offset)
        try:
            rows = backend.run(lambda fn: fn.evidence_rows(call_id, set_id, start, SET_PAGE), retry=True)
        except (errors.FootnoteError, psycopg.Error) as exc:
            error = reported("evidence_rows", exc)
            found = not isinstance(error, errors.InvalidArgument)
            raise (ResourceError if found else ResourceNotFoundError)(error_text("evidence_rows", error)) from None
        shown = [r.as_json() for r in rows]
        while True:  # fewer rows when they do not fit max_result: the next page starts after the last one given
            text = json.dumps({"call_id": call_id, "set": set_id, "offset": start, "rows": shown}, ensure_ascii=False)
            if len(shown) <= 1 or len(text.encode("utf-8")) <= backend.config.max_result:
                return text
            shown = shown[: len(shown) * 3 // 4]
