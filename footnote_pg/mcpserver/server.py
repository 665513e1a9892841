"""The MCP server itself: the tools and the resource on one MCPServer, bad arguments as one line, stdio or HTTP.

:class:`FootnoteMCP` is the SDK's ``MCPServer`` with one change at the seam the SDK documents
(``except ToolError`` around ``call_tool``): arguments no tool can take (:func:`argument_problem`) and arguments
that fail a tool's model are answered with one ``isError`` line naming the argument
(:func:`invalid_arguments`), before any tool body runs, so nothing reaches the call log or the ledger.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import replace
from typing import Any

import anyio.to_thread
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.context import Context
from mcp.server.mcpserver.exceptions import (
    ResourceError,
    ResourceNotFoundError,
    ToolError,
    UnexpectedResourceError,
    UnexpectedToolError,
)
from mcp.types import CallToolResult, InputRequiredResult, TextContent
from pydantic import AnyUrl, ValidationError

from footnote_pg import __version__, errors
from footnote_pg.identity import TokenSettings
from footnote_pg.mcpserver.arguments import argument_problem, invalid_arguments
from footnote_pg.mcpserver.backend import Backend, Config
from footnote_pg.mcpserver.fitting import DEFAULT_MAX_RESULT, ENV, RESULT_TEMPLATE, parse_max_result
from footnote_pg.mcpserver.resources import add_evidence_set_resource, add_record_resource, add_result_page_resource
from footnote_pg.mcpserver.results import error_result, one_line
from footnote_pg.mcpserver.tools import catalog_tool, fixed_tools
from footnote_pg.results import Operation

log = logging.getLogger("footnote_pg.mcp")

SERVER_NAME = "footnote-pg"
DEFAULT_PORT = 8765


def instructions(cap: int = DEFAULT_MAX_RESULT) -> str:
    """What the server tells a model when a session starts; ``cap``: the server's max_result in bytes."""
    return f"""\
footnote-pg answers questions about ERP data (customers, invoices, receivables, revenue, suppliers, stock).
Every figure is computed by a catalog operation inside PostgreSQL and comes with the evidence records behind it.
Quote figures exactly as the `text` of a value; never compute, round or convert them yourself.
Use `answer` for a plain-English question; it returns a verified answer whose claims cite evidence.
When you write the final answer yourself from catalog results, submit it with `submit_answer` (the question,
your text, the call_ids you used) before showing it: the gate finds every figure and name in it, grades each
sentence against what the calls returned and records it. Instead of copying a figure you may write a reference
where it goes: [[n]] for footnote n of the template answer for those calls, or [[values.overdue_total]] /
[[rows[2].outstanding]] for a figure that template states; the server fills in the exact text before grading.
Show your text only when the status is `verified` (or `partially_verified`, saying which facts are unverified);
otherwise fix the sentences it names and submit again with the same call_ids (the ledger links the attempts;
once one is verified, those calls back nothing more), or show the `fallback` answer it returns.
Before an agent acts (pay, hold, escalate), call `record_decision` citing evidence ids and the call_id of the
catalog call that returned them; outcome `unverified` or `fabricated` means the decision does not stand on
verified evidence. An unknown or ambiguous name is an error listing the real names: retry with one of them.
Every result is at most {cap:,} bytes: a larger one keeps the figures, the text and the first rows and evidence,
lists what it left out in structuredContent.omitted, and pages the rest as resources {RESULT_TEMPLATE}."""


INSTRUCTIONS = instructions()


class FootnoteMCP(MCPServer[Backend]):
    """MCPServer whose argument errors and resource errors are one line each."""

    backend: Backend  # the database side of the tools (set by build_server)

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Backend, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        if problem := argument_problem(arguments):
            path, why = problem
            log.info("%s: rejected argument %r", one_line(name), path)
            return error_result(name, errors.InvalidArgument(f"invalid argument {path}: {why}", {"argument": path}))
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise  # a crash: the SDK logs the traceback and answers "Error executing tool <name>"
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                error = invalid_arguments(name, exc.__cause__)
                log.info("%s: %s", one_line(name), error)
                return error_result(name, error)
            log.info("%r", str(exc))  # an unknown tool
            return CallToolResult(content=[TextContent(type="text", text=one_line(str(exc)))], is_error=True)

    async def read_resource(
        self, uri: AnyUrl | str, context: Context[Backend, Any] | None = None
    ) -> Iterable[ReadResourceContents] | InputRequiredResult:
        try:
            return await super().read_resource(uri, context)
        except UnexpectedResourceError as exc:
            raise UnexpectedResourceError(one_line(str(exc))) from exc.__cause__
        except ResourceNotFoundError as exc:
            raise ResourceNotFoundError(one_line(str(exc))) from None
        except ResourceError as exc:
            raise ResourceError(one_line(str(exc))) from None


def build_server(backend: Backend, operations: list[Operation]) -> FootnoteMCP:
    """The MCP server: one tool per catalog operation, the fixed tools, the record resource."""

    @asynccontextmanager
    async def lifespan(_: MCPServer[Backend]) -> AsyncIterator[Backend]:
        await anyio.to_thread.run_sync(backend.open)
        try:
            yield backend
        finally:
            await anyio.to_thread.run_sync(backend.close)
            log.info("connection pool closed")

    server = FootnoteMCP(
        SERVER_NAME,
        title="footnote-pg: ERP answers where every number is a citation",
        version=__version__,
        instructions=instructions(backend.config.max_result),
        tools=[*(catalog_tool(op, backend) for op in operations), *fixed_tools(backend)],
        lifespan=lifespan,
        log_level="WARNING",
    )
    server.backend = backend
    add_record_resource(server, backend)
    add_evidence_set_resource(server, backend)
    add_result_page_resource(server, backend)
    return server


def prepare(config: Config | None = None) -> tuple[FootnoteMCP, int]:
    """The server for ``config`` (default: the environment) with the catalog read once; and how many operations."""
    backend = Backend(config or Config.from_env())
    with stdout_to_stderr():
        operations = backend.catalog()
    return build_server(backend, operations), len(operations)


def configure_logging() -> None:
    """Our lines at INFO, everything else at WARNING; all on stderr (stdout is the protocol in stdio mode)."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="footnote-pg mcp: %(levelname)s %(message)s")
    log.setLevel(logging.INFO)


@contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Send fd 1 to stderr while starting up, so nothing (the embedded server, a library) writes to the protocol."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def main(transport: str = "stdio", host: str = "127.0.0.1", port: int = DEFAULT_PORT,
         max_result: int | None = None, tokens: TokenSettings | None = None) -> None:
    """Serve MCP over stdio (default) or streamable HTTP at http://host:port/mcp; blocks until stopped.
    Each tool result is at most max_result bytes (default: FOOTNOTE_MCP_MAX_RESULT, else 16 KB)."""
    if transport not in ("stdio", "streamable-http", "http"):
        raise errors.InvalidArgument(f"invalid argument transport: {transport}; use stdio or streamable-http")
    configure_logging()
    config = Config.from_env()
    if max_result is not None:
        config = replace(config, max_result=max_result)
    server, count = prepare(config)
    if transport == "stdio":
        log.info("%d catalog operations; serving over stdio", count)
        server.run("stdio")
        return
    from footnote_pg.identity import describe
    from footnote_pg.web import serve_mcp

    def identified() -> str:
        """How requests are identified (said once the port is bound)."""
        if tokens is not None:
            return describe(tokens, None, None)
        actor = ":".join(p for p in (config.actor, config.actor_role) if p) or None
        try:
            scope = (server.backend.run(lambda fn: fn.whoami(), retry=True).get("scope") or {}).get("id")
        except errors.FootnoteError as exc:  # the tools report an outage; the line says what is known
            return f"no token validation: every request is served as {actor or '(no actor)'} (scope unknown: {exc})"
        return describe(None, actor, scope)

    def ready(url: str) -> None:
        log.info("%d catalog operations; serving over %smcp", count, url)
        log.info("%s", identified())

    serve_mcp(server, host=host, port=port, tokens=tokens, ready=ready)


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m footnote_pg.mcp_server", description=main.__doc__)
    parser.add_argument("--http", action="store_true", help="serve streamable HTTP instead of stdio")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"HTTP port (default {DEFAULT_PORT})")
    parser.add_argument("--max-result", metavar="BYTES",
                        help=f"most bytes of one tool result (default: ${ENV}, else {DEFAULT_MAX_RESULT:,})")
    return parser.parse_args(argv)


def cli(argv: list[str] | None = None) -> None:
    """``python -m footnote_pg.mcp_server [--http] [--host H] [--port P]``; SIGTERM stops it like Ctrl-C."""
    import signal

    def stop(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)  # stop like Ctrl-C: the pool and an embedded PostgreSQL are closed
    args = _parse(argv)
    try:
        cap = parse_max_result(args.max_result, "--max-result") if args.max_result is not None else None
        main("streamable-http" if args.http else "stdio", host=args.host, port=args.port, max_result=cap)
    except KeyboardInterrupt:
        pass
    except (errors.FootnoteError, OSError) as exc:
        log.error("%s", exc)
        raise SystemExit(2) from None
