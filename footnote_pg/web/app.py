"""The web app: the demo page, its JSON API and, when asked, the MCP endpoint at ``/mcp``, as one Starlette app.

====================  =========================================================================
``POST /api/ask``      ``{"question": ...}`` -> ``Answer.as_json()`` plus ``model_version``
``GET /api/record``    ``?uri=erp://invoice/8812`` -> the source record behind a deep link
``GET /api/evidence``  ``?call_id=…&set=evidence_set:…&offset=0`` -> a page of the rows behind an evidence set
``GET /api/ledger``    ``?limit=20`` -> the latest ledger records and the chain's verification
``GET /api/suggestions``  the demo questions
``GET /``              the page (``static/index.html``, ``app.js``, ``app.css``)
``/mcp``               MCP over streamable HTTP (``footnote-pg serve``, ``demo --mcp``, ``mcp --http``)
====================  =========================================================================

Around every request: the ``Host`` must be this server's own address and an ``Origin`` (or a browser's
``Sec-Fetch-Site`` on the API) this origin, against DNS rebinding and cross-site requests; a body must arrive within
``Limits.body_seconds`` (else 408); responses carry a strict ``Content-Security-Policy``. Every error is JSON
``{"error": "one line", ...}`` with a 4xx status (5xx only for the server's own failures), never a traceback.
Database work runs in a thread pool of ``Limits.db_threads`` threads, so a slow or stalled client holds no thread.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import anyio.to_thread
import psycopg
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from footnote_pg import errors, identity, tracing
from footnote_pg.mcpserver.results import one_line
from footnote_pg.web import inputs
from footnote_pg.web.demo import POOL_SIZE, SUGGESTIONS, DemoApp
from footnote_pg.web.inputs import ApiError

if TYPE_CHECKING:
    from footnote_pg.client import Footnote
    from footnote_pg.mcpserver import FootnoteMCP

log = logging.getLogger("footnote_pg.web")
T = TypeVar("T")

STATIC = Path(__file__).parent / "static"
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}
JSON_TYPE = "application/json; charset=utf-8"
SECURITY_HEADERS = {
    "content-security-policy": ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
                                "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
                                "form-action 'self'; frame-ancestors 'none'"),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}
API_PREFIXES = ("/api/", "/mcp")
DRAIN_BYTES = 16 * 1024 * 1024  # an unread body up to this size is read and dropped before an early answer (a
# client that sends 10 MB reads a 413, not a reset connection); the app bounds how long that may take


@dataclass(frozen=True)
class Limits:
    """How much a request may take: body size and time, the time to send a request's head, idle keep-alive."""

    body_bytes: int = inputs.MAX_BODY
    body_seconds: float = 10.0  # from the request's head to the end of its body
    head_seconds: float = 10.0  # from the connection (or the previous response) to the end of a request's head
    keep_alive_seconds: int = 5  # an idle connection between requests
    db_threads: int = POOL_SIZE  # threads database work runs in, at most


DEFAULT_LIMITS = Limits()


def json_response(status: int, doc: Any, *, close: bool = False, headers: dict[str, str] | None = None) -> Response:
    """JSON in UTF-8; a lone surrogate (a client's own text echoed back) is written as its JSON escape."""
    body = json.dumps(doc, ensure_ascii=False, default=str).encode("utf-8", "backslashreplace")
    out = {"cache-control": "no-store", **(headers or {})}
    if close:
        out["connection"] = "close"
    return Response(body, status_code=status, media_type=JSON_TYPE, headers=out)


def status_for(exc: errors.FootnoteError) -> int:
    if isinstance(exc, errors.InvalidArgument | errors.AmbiguousEntity | errors.UnknownOperation):
        return 400
    if isinstance(exc, errors.UnknownEntity):
        return 404
    if isinstance(exc, errors.PermissionDenied):
        return 403
    if isinstance(exc, errors.ConnectionFailed | errors.NotInstalled):
        return 503
    if isinstance(exc, errors.Timeout | errors.Conflict | errors.ChainBusy):
        return 503
    return 422


def error_doc(exc: errors.FootnoteError) -> dict[str, Any]:
    """An error of footnote-pg as JSON: one line, its class, its FN code, the real names for a wrong name."""
    doc: dict[str, Any] = {"error": one_line(str(exc)), "type": type(exc).__name__, "code": exc.sqlstate}
    if exc.detail.get("argument"):
        doc["field"] = exc.detail["argument"]
    if isinstance(exc, errors.UnknownEntity) and exc.alternatives:
        doc["alternatives"] = [a.get("name") for a in exc.alternatives]
    if isinstance(exc, errors.AmbiguousEntity) and exc.candidates:
        doc["candidates"] = [c.get("name") for c in exc.candidates]
    return doc


def api(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint whose every failure is a JSON error: ours with their status, a crash as a logged 500."""

    @functools.wraps(handler)
    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except ApiError as exc:
            return json_response(exc.status, {"error": one_line(str(exc)), **exc.extra}, close=exc.close)
        except errors.FootnoteError as exc:
            return json_response(status_for(exc), error_doc(exc))
        except psycopg.Error as exc:
            log.error("database error on %s %s", request.method, request.url.path, exc_info=True)
            first = (str(exc).strip().splitlines() or ["error"])[0]
            status = 503 if isinstance(exc, psycopg.OperationalError) else 500
            return json_response(status, {"error": one_line(f"database error: {first}")})

    return endpoint


class Site:
    """The page and the API over one :class:`DemoApp`; database work in a bounded thread pool."""

    def __init__(self, demo: DemoApp, limits: Limits) -> None:
        self.demo = demo
        self.limits = limits
        self.limiter = anyio.CapacityLimiter(limits.db_threads)
        self.static = {p.name: p.read_bytes() for p in STATIC.iterdir() if p.is_file() and p.suffix in CONTENT_TYPES}

    async def db(self, work: Callable[..., T], *args: Any) -> T:
        return await anyio.to_thread.run_sync(functools.partial(work, *args), limiter=self.limiter)

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/", self.page, methods=["GET"]),
            Route("/index.html", self.page, methods=["GET"]),
            Route("/static/{name}", self.file, methods=["GET"]),
            Route("/favicon.ico", self.favicon, methods=["GET"]),
            Route("/api/ask", api(self.ask), methods=["POST"]),
            Route("/api/record", api(self.record), methods=["GET"]),
            Route("/api/evidence", api(self.evidence), methods=["GET"]),
            Route("/api/ledger", api(self.ledger), methods=["GET"]),
            Route("/api/suggestions", api(self.suggestions), methods=["GET"]),
            Route("/api/whoami", api(self.whoami), methods=["GET"]),
            Route("/demo/users", api(self.demo_users), methods=["GET"]),  # none unless `footnote-pg demo`
            *([Route("/demo/token", api(self.demo_token), methods=["GET"])] if self.demo.users else []),
        ]

    def _file(self, name: str) -> Response:
        if name not in self.static:
            raise HTTPException(404)
        return Response(self.static[name], media_type=CONTENT_TYPES[Path(name).suffix],
                        headers={"cache-control": "no-cache"})

    async def page(self, request: Request) -> Response:
        return self._file("index.html")

    async def file(self, request: Request) -> Response:
        return self._file(request.path_params["name"])

    async def favicon(self, request: Request) -> Response:
        return Response(status_code=204)

    async def ask(self, request: Request) -> Response:
        inputs.parameters(request, ())
        doc = inputs.json_body(request, await inputs.read_body(request, self.limits.body_bytes))
        return json_response(200, await self.db(self.demo.ask, inputs.question(doc)))

    async def record(self, request: Request) -> Response:
        uri = inputs.deep_link(inputs.parameters(request, ("uri",)))
        return json_response(200, await self.db(self.demo.record, uri))

    async def evidence(self, request: Request) -> Response:
        call_id, the_set, offset = inputs.evidence_set(inputs.parameters(request, ("call_id", "set", "offset")))
        return json_response(200, await self.db(self.demo.evidence, call_id, the_set, offset))

    async def ledger(self, request: Request) -> Response:
        limit = inputs.limit(inputs.parameters(request, ("limit",)))
        return json_response(200, await self.db(self.demo.ledger, limit))

    async def whoami(self, request: Request) -> Response:
        inputs.parameters(request, ())
        return json_response(200, await self.db(self.demo.whoami))

    async def demo_users(self, request: Request) -> Response:
        inputs.parameters(request, ())
        return json_response(200, {"users": list(self.demo.users.users.values()) if self.demo.users else []})

    async def demo_token(self, request: Request) -> Response:
        """A bearer token for a demo user, signed with the demo's own key (the demo's sign-in)."""
        user = inputs.parameters(request, ("user",)).get("user") or ""
        assert self.demo.users is not None
        return json_response(200, {"token": self.demo.users.token(user), "token_type": "Bearer"})

    async def suggestions(self, request: Request) -> Response:
        inputs.parameters(request, ())
        return json_response(200, {"suggestions": SUGGESTIONS})


async def http_error(request: Request, exc: Exception) -> Response:
    """404, 405 (with Allow) and the like, from routing, as JSON."""
    assert isinstance(exc, HTTPException)
    path = one_line(request.url.path[:100])
    message = {404: f"not found: {path}", 405: f"method {request.method} not allowed on {path}"}.get(
        exc.status_code, one_line(str(exc.detail)))
    return json_response(exc.status_code, {"error": message}, headers=dict(exc.headers or {}))


async def server_error(request: Request, exc: Exception) -> Response:
    """A crash: logged with its traceback, answered with one line and no detail."""
    log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
    return json_response(500, {"error": f"internal error ({type(exc).__name__})"}, close=True)


class Guard:
    """ASGI middleware: Host, Origin and Sec-Fetch-Site checks, security headers, the body's deadline, and the
    trace context the request carries (:func:`footnote_pg.tracing.continued`: the web API and MCP over HTTP)."""

    def __init__(self, app: ASGIApp, *, hosts: frozenset[str], limits: Limits) -> None:
        self.app = app
        self.hosts = hosts
        self.origins = frozenset(f"http://{h}" for h in hosts)
        self.address = "http://" + min(hosts, key=lambda h: (not h.startswith("127.0.0.1:"), h)) + "/"
        self.limits = limits

    def refusal(self, scope: Scope) -> str | None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "").strip().lower()
        if host not in self.hosts:
            return f"unexpected Host header: open this server at its own address, {self.address}"
        origin = headers.get("origin")
        if origin is not None and origin.strip().lower().rstrip("/") not in self.origins:
            return one_line(f"cross-origin request from {origin[:100]} refused")
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none") and scope["path"].startswith(API_PREFIXES):
            return f"cross-site request refused (Sec-Fetch-Site: {one_line(site[:40])})"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        exchange = Exchange(scope, receive, send, self.limits.body_seconds)
        if why := self.refusal(scope):
            await json_response(403, {"error": why})(scope, exchange.receive, exchange.send)
            return
        try:
            with tracing.continued({k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}):
                await self.app(scope, exchange.receive, exchange.send)
        except Exception:
            if not exchange.started:
                raise
            log.debug("after the response was sent", exc_info=True)  # a crash is logged by server_error


class Exchange:
    """One request seen by :class:`Guard`: its body must arrive by a deadline (else a 408 is the answer), a body
    left unread is read before the answer ends (so closing the connection does not reset it), every response gets
    the security headers."""

    def __init__(self, scope: Scope, receive: Receive, send: Send, body_seconds: float) -> None:
        self.scope, self._receive, self._send = scope, receive, send
        self.body_seconds = body_seconds
        self.deadline = anyio.current_time() + body_seconds
        self.body_done = False  # the whole body was received (or will never be)
        self.started = False  # a response has started
        self.late = False  # the body was late: the 408 was the answer, anything the app sends is dropped

    async def receive(self) -> Message:
        if self.body_done:
            return await self._receive()
        with anyio.move_on_after(max(0.0, self.deadline - anyio.current_time())):
            message = await self._receive()
            self.body_done = message["type"] != "http.request" or not message.get("more_body", False)
            return message
        self.body_done = True
        if not self.started:
            await json_response(408, {"error": f"the request body did not arrive within {self.body_seconds:g} s"},
                                close=True)(self.scope, self._receive, self.send)
            self.late = True
        return {"type": "http.disconnect"}

    async def send(self, message: Message) -> None:
        if self.late:
            return
        if message["type"] == "http.response.start":
            self.started = True
            message["headers"] = [*message.get("headers", []),
                                  *((k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items())]
        elif message["type"] == "http.response.body" and not message.get("more_body", False):
            await self.drain()
        await self._send(message)

    async def drain(self) -> None:
        if self.body_done or not drainable(self.scope):
            return
        size = 0
        while not self.body_done and size <= DRAIN_BYTES:
            size += len((await self.receive()).get("body", b""))


def drainable(scope: Scope) -> bool:
    """Whether a body left unread is small enough to read and drop before answering (else the connection closes)."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            return value.isdigit() and int(value) <= DRAIN_BYTES
    return True


def allowed_hosts(host: str, port: int) -> frozenset[str]:
    """Host headers this server answers: its loopback names, and the address it is bound to."""
    names = {"127.0.0.1", "localhost", "[::1]", f"[{host}]" if ":" in host else host}
    return frozenset(f"{name.lower()}:{port}" for name in names)


def build_app(demo: DemoApp | None, *, hosts: frozenset[str], limits: Limits = DEFAULT_LIMITS,
              mcp: FootnoteMCP | None = None, tokens: identity.Verifier | None = None,
              client: Callable[[], Footnote] | None = None) -> Starlette:
    """The Starlette app: the page and API over ``demo`` (when given) and MCP at /mcp (when ``mcp`` is given).

    With ``tokens`` every API and MCP request needs a valid bearer token (:class:`footnote_pg.identity.Bearer`);
    ``client`` is the Footnote client that asks the database whether a token's scope exists."""
    routes: list[BaseRoute] = Site(demo, limits).routes() if demo is not None else []
    address = "http://" + min(hosts, key=lambda h: (not h.startswith("127.0.0.1:"), h)) + "/"
    metadata_url = address + ".well-known/oauth-protected-resource"
    if tokens is not None:
        routes.append(Route("/.well-known/oauth-protected-resource", protected_resource(tokens, address),
                            methods=["GET"]))
    if mcp is not None:
        from mcp.server.transport_security import TransportSecuritySettings

        security = TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=sorted(hosts),
                                             allowed_origins=sorted(f"http://{h}" for h in hosts))
        routes += mcp.streamable_http_app(streamable_http_path="/mcp", transport_security=security).routes

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            if mcp is not None:  # the MCP sessions, and the MCP server's own lifespan (its pool), live here
                await stack.enter_async_context(mcp.session_manager.run())
            yield

    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error, Exception: server_error})
    app.router.redirect_slashes = False  # /api/ledger/ is not found, not a redirect
    inner: ASGIApp = app
    if tokens is not None:
        assert client is not None
        inner = identity.Bearer(app, tokens, scope_check(client, limits), protected=API_PREFIXES,
                                public=("/api/suggestions",), metadata_url=metadata_url)  # the five questions
    return Guard(inner, hosts=hosts, limits=limits)  # type: ignore[return-value]


def protected_resource(tokens: identity.Verifier, address: str) -> Callable[[Request], Awaitable[Response]]:
    """The OAuth protected resource metadata (RFC 9728) the MCP authorization specification asks for."""

    async def metadata(request: Request) -> Response:
        return json_response(200, {"resource": address + "mcp", "authorization_servers": [tokens.settings.issuer],
                                   "bearer_methods_supported": ["header"],
                                   "resource_name": "footnote-pg"})

    return metadata


def scope_check(client: Callable[[], Footnote], limits: Limits) -> identity.Check:
    """Whether the database accepts a verified identity (its scope defined, this login a gateway): one empty
    transaction that asserts it, in the database threads."""
    limiter = anyio.CapacityLimiter(limits.db_threads)

    def check(who: identity.Identity) -> None:
        identity.current.set(who)  # this thread's copy of the request's context
        with client().transaction():
            raise psycopg.Rollback  # asserted, then rolled back: nothing to keep

    async def run(who: identity.Identity) -> None:
        await anyio.to_thread.run_sync(functools.partial(check, who), limiter=limiter)

    return run
