"""The web demo: a small JSON API and a static page, standard library only.

``serve(database_url)`` runs a :class:`http.server.ThreadingHTTPServer` on
127.0.0.1 with one :class:`footnote_pg.Footnote` client (actor ``demo``, role
``viewer``) for its lifetime. Endpoints:

====================  =========================================================================
``POST /api/ask``      ``{"question": ...}`` -> ``Answer.as_json()`` plus ``model_version``
``GET /api/record``    ``?uri=erp://invoice/8812`` -> the source record behind a deep link
``GET /api/ledger``    ``?limit=20`` -> the latest ledger records and the chain's verification
``GET /api/suggestions``  the demo questions
``GET /``              the page (``static/index.html``, ``app.js``, ``app.css``)
====================  =========================================================================

Errors are JSON ``{"error": "..."}`` with a 4xx/5xx status, never a traceback.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import psycopg

from footnote_pg import errors
from footnote_pg.client import Footnote
from footnote_pg.queries import query
from footnote_pg.web.model import map_span, model_rewrite

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
SUGGESTIONS = [
    "How much does Bergmann owe?",
    "Is Bergmann Logistik at risk?",
    "Show AR aging",
    "How much does Acme Corporation owe?",
    "What will revenue be next quarter?",
]
ACTOR, ACTOR_ROLE = "demo", "viewer"
MAX_BODY = 16 * 1024
AUDITOR_MESSAGE = "connect as a member of footnote_auditor to see the ledger"

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}
SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
                                "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
                                "form-action 'self'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}

class ApiError(Exception):
    """An error answered as JSON with an HTTP status."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.extra = extra


def _status_for(exc: errors.FootnoteError) -> int:
    if isinstance(exc, errors.InvalidArgument | errors.AmbiguousEntity | errors.UnknownOperation):
        return 400
    if isinstance(exc, errors.UnknownEntity):
        return 404
    if isinstance(exc, errors.PermissionDenied):
        return 403
    if isinstance(exc, errors.ConnectionFailed | errors.NotInstalled):
        return 503
    return 422


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class DemoApp:
    """What the endpoints do, independent of HTTP."""

    def __init__(self, database_url: str) -> None:
        self.fn = Footnote(database_url, actor=ACTOR, actor_role=ACTOR_ROLE, min_size=1, max_size=4)

    def close(self) -> None:
        self.fn.close()

    # -- /api/ask ----------------------------------------------------------------------------------------------
    def ask(self, question: str) -> dict[str, Any]:
        answer = self.fn.ask(question)
        doc: dict[str, Any] = answer.as_json()
        doc["model_version"] = self.model_version(doc)
        return doc

    def model_version(self, doc: dict[str, Any]) -> dict[str, Any] | None:
        """The same answer with the figures a fluent model would write, graded by the gate (not recorded)."""
        claims = doc["claims"]
        if not claims or not doc["calls"]:
            return None
        text, asserted = model_rewrite(doc["answer"], claims)
        if text == doc["answer"]:
            return None
        try:  # check_answer records nothing, so the answer's own calls may back it
            graded = self.fn.check_answer(text, asserted, [c["call_id"] for c in doc["calls"]],
                                          template={"intent": doc["intent"],
                                                    "notes": {k: v for k, v in doc["notes"].items()
                                                              if isinstance(v, str)}},
                                          question=doc["question"])
        except errors.FootnoteError as exc:
            return {"error": f"the model version could not be graded: {exc}"}
        out_claims = []
        for n, (original, g) in enumerate(zip(claims, graded["claims"], strict=True), start=1):
            out_claims.append({**g, "footnote": n, "original": original["text"],
                               "changed": g["text"] != original["text"]})
        return {
            "answer": text,
            "status": graded["status"],
            "claims": out_claims,
            "findings": graded["findings"],
            "sentences": graded.get("sentences") or [],
            "inference": map_span(doc.get("inference"), doc["answer"], claims),
            "facts": [map_span(f, doc["answer"], claims) for f in doc.get("facts") or []],
            "changed": sum(1 for c in out_claims if c["changed"]),
            "recorded": False,
            "checked_against": [{"operation": c["operation"], "call_id": c["call_id"]} for c in doc["calls"]],
        }

    # -- /api/record -------------------------------------------------------------------------------------------
    def record(self, uri: str) -> dict[str, Any]:
        result = self.fn.call("source_record", uri=uri)
        (e,) = result.evidence
        return {"uri": e.uri, "id": e.id, "type": e.type, "record_id": e.record_id, "verified": e.verified,
                "fields": e.fields, "call_id": result.call_id, "called_at": result.document.get("called_at")}

    # -- /api/ledger -------------------------------------------------------------------------------------------
    def ledger(self, limit: int) -> dict[str, Any]:
        try:
            chain = self.fn.verify_chain()
        except errors.PermissionDenied as exc:
            raise ApiError(403, AUDITOR_MESSAGE, detail=str(exc)) from exc
        try:
            with self.fn.transaction() as conn:
                rows = conn.execute(query("ledger_latest"), {"limit": limit}).fetchall()
                bad = None
                if chain["first_bad_seq"] is not None:
                    bad = conn.execute(query("ledger_record"), {"seq": chain["first_bad_seq"]}).fetchone()
        except errors.PermissionDenied as exc:
            raise ApiError(403, AUDITOR_MESSAGE, chain=chain, detail=str(exc)) from exc
        chain["first_bad"] = None if bad is None else _ledger_row(bad)
        return {"records": [_ledger_row(r) for r in rows], "chain": chain, "limit": limit}


def _ledger_row(r: tuple[Any, ...]) -> dict[str, Any]:
    seq, recorded_at, db_role, actor_id, actor_role, kind, question, status, hash_ = r
    return {"seq": seq, "recorded_at": recorded_at.isoformat(), "db_role": db_role, "actor": actor_id,
            "actor_role": actor_role, "kind": kind, "question": question, "status": status,
            "hash": hash_[:16], "hash_full": hash_}


class Handler(BaseHTTPRequestHandler):
    """One request; the application is ``self.server.app``."""

    server: DemoHTTPServer
    server_version = "footnote-pg-demo"
    _body_bytes: bytes | None = None  # the request body, once read
    protocol_version = "HTTP/1.0"

    # -- plumbing ----------------------------------------------------------------------------------------------
    def version_string(self) -> str:
        return self.server_version

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        log.debug("%s " + format, self.address_string(), *args)

    def _send(self, status: int, body: bytes, content_type: str, *, cache: str = "no-store") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, doc: Any) -> None:
        body = json.dumps(doc, ensure_ascii=False, default=str).encode("utf-8")
        self._send(status, body, "application/json; charset=utf-8")

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Errors of the HTTP layer itself (bad request line, unsupported method) as JSON too."""
        try:
            phrase = HTTPStatus(code).phrase
        except ValueError:
            phrase = "error"
        self.close_connection = True
        self._json(code, {"error": message or phrase})

    def _host_ok(self) -> bool:
        """Refuse other Host names (DNS rebinding): only the loopback names of this server."""
        host = (self.headers.get("Host") or "").strip().lower()
        port = self.server.server_address[1]
        return host in {f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"}

    def _dispatch(self, method: str) -> None:
        try:
            if not self._host_ok():
                raise ApiError(403, "unexpected Host header: open the demo at its 127.0.0.1 address")
            path = urlsplit(self.path).path
            route = ROUTES.get((method, path))
            if route is not None:
                route(self)
            elif method in ("GET", "HEAD") and self._static(path):
                pass
            elif any(p == path for (_m, p) in ROUTES):
                raise ApiError(405, f"method {method} not allowed on {path}")
            else:
                raise ApiError(404, f"not found: {path}")
        except ApiError as exc:
            self._drain()
            self._json(exc.status, {"error": str(exc), **exc.extra})
        except errors.FootnoteError as exc:
            self._json(_status_for(exc), {"error": str(exc), "type": type(exc).__name__, **_error_extra(exc)})
        except psycopg.Error as exc:
            log.error("database error on %s %s", method, self.path, exc_info=True)
            first = (str(exc).strip().splitlines() or ["error"])[0]
            self._json(503 if isinstance(exc, psycopg.OperationalError) else 500, {"error": f"database error: {first}"})
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as exc:  # never a traceback to the client
            log.error("internal error on %s %s", method, self.path, exc_info=True)
            self._json(500, {"error": f"internal error ({type(exc).__name__})"})

    def do_GET(self) -> None:  # noqa: N802 - the base class's naming
        self._dispatch("GET")

    def do_HEAD(self) -> None:  # noqa: N802
        self._dispatch("HEAD")

    def do_POST(self) -> None:  # noqa: N802
        self._dispatch("POST")

    def do_PUT(self) -> None:  # noqa: N802
        self._dispatch("PUT")

    def do_DELETE(self) -> None:  # noqa: N802
        self._dispatch("DELETE")

    def do_PATCH(self) -> None:  # noqa: N802
        self._dispatch("PATCH")

    def do_OPTIONS(self) -> None:  # noqa: N802
        self._dispatch("OPTIONS")

    # -- static files ------------------------------------------------------------------------------------------
    def _static(self, path: str) -> bool:
        if path == "/favicon.ico":
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return True
        name = "index.html" if path in ("/", "/index.html") else path.removeprefix("/static/")
        if path != "/" and path != "/index.html" and not path.startswith("/static/"):
            return False
        if "/" in name or name.startswith(".") or name not in self.server.static_files:
            return False
        body = self.server.static_files[name]
        self._send(200, body, CONTENT_TYPES[Path(name).suffix], cache="no-cache")
        return True

    # -- API ---------------------------------------------------------------------------------------------------
    def _query(self) -> dict[str, list[str]]:
        return parse_qs(urlsplit(self.path).query, keep_blank_values=True)

    def _body(self) -> bytes:
        """The request body (read once); a body too large to take is drained, so the client reads our answer."""
        if self._body_bytes is not None:
            return self._body_bytes
        length = self.headers.get("Content-Length")
        if length is None:
            raise ApiError(411, "a Content-Length is required")
        try:
            size = int(length)
        except ValueError:
            raise ApiError(400, "Content-Length is not a number") from None
        if size < 0:
            raise ApiError(400, "Content-Length is negative")
        if size > MAX_BODY:
            if size <= 1024 * 1024:
                self.rfile.read(size)
            self._body_bytes = b""
            raise ApiError(413, f"the request body is larger than {MAX_BODY} bytes")
        self._body_bytes = self.rfile.read(size)
        return self._body_bytes

    def _drain(self) -> None:
        if self.command in ("POST", "PUT", "PATCH") and self._body_bytes is None:
            try:
                self._body()
            except ApiError:
                pass

    def _read_json(self) -> Any:
        raw = self._body()
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise ApiError(415, "send the request body as application/json")
        origin = self.headers.get("Origin")
        if origin and origin.rstrip("/") != f"http://{self.headers.get('Host')}":
            raise ApiError(403, f"cross-origin request from {origin} refused")
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise ApiError(400, "the request body is not valid JSON") from None

    def api_ask(self) -> None:
        doc = self._read_json()
        if not isinstance(doc, dict) or "question" not in doc:
            raise ApiError(400, 'send {"question": "..."}')
        question = doc["question"]
        if not isinstance(question, str) or not question.strip():
            raise ApiError(400, "question must be a non-empty string")
        self._json(200, self.server.app.ask(question))

    def api_record(self) -> None:
        uri = self._query().get("uri", [""])[0].strip()
        if not uri:
            raise ApiError(400, "give the deep link as ?uri=erp://<type>/<id>")
        self._json(200, self.server.app.record(uri))

    def api_ledger(self) -> None:
        raw = self._query().get("limit", ["20"])[0]
        try:
            limit = int(raw)
        except ValueError:
            raise ApiError(400, f"limit must be an integer from 1 to 200, not {raw[:40]!r}") from None
        if not 1 <= limit <= 200:
            raise ApiError(400, f"limit must be an integer from 1 to 200, not {limit}")
        self._json(200, self.server.app.ledger(limit))

    def api_suggestions(self) -> None:
        self._json(200, {"suggestions": SUGGESTIONS})


def _error_extra(exc: errors.FootnoteError) -> dict[str, Any]:
    if isinstance(exc, errors.UnknownEntity) and exc.alternatives:
        return {"alternatives": [a.get("name") for a in exc.alternatives]}
    if isinstance(exc, errors.AmbiguousEntity) and exc.candidates:
        return {"candidates": [c.get("name") for c in exc.candidates]}
    return {}


ROUTES: dict[tuple[str, str], Callable[[Handler], None]] = {
    ("POST", "/api/ask"): Handler.api_ask,
    ("GET", "/api/record"): Handler.api_record,
    ("GET", "/api/ledger"): Handler.api_ledger,
    ("GET", "/api/suggestions"): Handler.api_suggestions,
}


class DemoHTTPServer(ThreadingHTTPServer):
    """The HTTP server, holding the application and the static files (read once)."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], app: DemoApp) -> None:
        self.app = app
        self.static_files = {p.name: p.read_bytes() for p in STATIC.iterdir()
                             if p.is_file() and p.suffix in CONTENT_TYPES}
        super().__init__(address, Handler)


def serve(database_url: str, host: str = "127.0.0.1", port: int = 4711,
          ready: Callable[[str], None] | None = None, *, stop: threading.Event | None = None) -> None:
    """Serve the demo until Ctrl-C (or until ``stop`` is set); blocking, prints nothing.

    ``ready(url)`` is called once the server accepts connections (``port=0`` picks a free port).
    The host must be a loopback address: the demo runs with the database rights it was given.
    """
    if not _is_loopback(host):
        raise ValueError(f"the demo binds only to a loopback address (127.0.0.1), not {host}")
    app = DemoApp(database_url)
    try:
        httpd = DemoHTTPServer((host, port), app)
    except BaseException:
        app.close()
        raise
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.1},
                              name="footnote-pg-demo", daemon=True)
    try:
        thread.start()
        if ready is not None:
            ready(f"http://{host}:{httpd.server_address[1]}/")
        waiter = stop or threading.Event()
        while not waiter.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        httpd.shutdown()
        thread.join(timeout=5)
        httpd.server_close()
        app.close()
