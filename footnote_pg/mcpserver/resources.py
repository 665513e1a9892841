"""Evidence records as MCP resources: ``erp://{type}/{id}``, read through the ``source_record`` operation."""

from __future__ import annotations

import json

import psycopg
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError

from footnote_pg import errors
from footnote_pg.mcpserver.arguments import text_problem
from footnote_pg.mcpserver.backend import Backend, reported
from footnote_pg.mcpserver.results import error_text

URI_TEMPLATE = "erp://{type}/{id}"


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
