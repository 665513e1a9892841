"""Bad input to the web API and to every MCP tool and the resource template: one JSON or isError line, nothing written.

One server for the module (``footnote_pg.web.serve`` with MCP mounted at /mcp, short limits so stalls end quickly)
and one in-memory MCP server on the same database. Every case is checked for its 4xx status (web) or ``isError``
(MCP), a one-line message naming the field or argument, and an unchanged call log and ledger. Stalled connections
are raw sockets: a body shorter than its Content-Length, a TLS hello, an idle connection, half a head; the server
answers or closes each and still serves a normal request, also with 50 stalled sockets open at once.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from mcp import MCPError
from mcp.types import TextContent

from footnote_pg.mcpserver import Backend, Config, FootnoteMCP, build_server
from footnote_pg.mcpserver.arguments import MAX_DEPTH, MAX_TEXT, label
from footnote_pg.web import Limits, serve
from tests.conftest import REPORTS, TestDatabase
from tests.test_bad_input import BAD, VALID, VALID_FOR
from tests.test_mcp import Session, session

pytestmark = pytest.mark.timeout(300)

LIMITS = Limits(body_seconds=1.0, head_seconds=1.0, keep_alive_seconds=1)
WRITES = "SELECT (SELECT count(*) FROM footnote.call_log), (SELECT count(*) FROM footnote.ledger)"
CASES: dict[str, set[str]] = {}  # the cases of each surface that ran, reported at the end of the run
UUID = "00000000-0000-4000-8000-000000000000"


def deep(levels: int) -> Any:
    value: Any = "x"
    for _ in range(levels):
        value = [value]
    return value


# -- the servers ----------------------------------------------------------------------------------------------------


@dataclass
class Server:
    port: int
    stop: threading.Event
    thread: threading.Thread
    failures: list[BaseException] = field(default_factory=list)

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"


@contextmanager
def running(url: str, limits: Limits, mcp: FootnoteMCP | None = None) -> Iterator[Server]:
    ready = threading.Event()
    stop = threading.Event()
    box: dict[str, int] = {}
    failures: list[BaseException] = []

    def on_ready(address: str) -> None:
        box["port"] = int(address.rsplit(":", 1)[1].strip("/"))
        ready.set()

    def run() -> None:
        try:
            serve(url, port=0, ready=on_ready, stop=stop, mcp=mcp, limits=limits)
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)
            ready.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(60) and not failures, failures
    server = Server(box["port"], stop, thread, failures)
    try:
        yield server
    finally:
        stop.set()
        thread.join(30)
        assert not thread.is_alive() and not failures, failures


def mcp_server(db: TestDatabase) -> FootnoteMCP:
    backend = Backend(Config(db.url_as("service"), "tester", None))
    return build_server(backend, backend.catalog())


@pytest.fixture(scope="module")
def web(module_db: TestDatabase) -> Iterator[Server]:
    with running(module_db.url, LIMITS, mcp=mcp_server(module_db)) as server:
        yield server


@pytest.fixture(scope="module")
def mcp(module_db: TestDatabase) -> Iterator[Session]:
    with session(mcp_server(module_db)) as s:
        yield s


@pytest.fixture(scope="module", autouse=True)
def report(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    if CASES:  # the module's fixtures may be set up again between backends: keep one table, the latest
        title = "bad input (web, MCP), cases per surface"
        table = "\n".join([title] + [f"  {k:<28} {len(v):>5}" for k, v in CASES.items()])
        reports = request.config.stash.setdefault(REPORTS, [])
        reports[:] = [r for r in reports if not r.startswith(title)] + [table]


def ran(surface: str, *names: str) -> None:
    CASES.setdefault(surface, set()).update(names)


def writes(db: TestDatabase) -> tuple[Any, ...]:
    return db.rows(WRITES)[0]


# -- raw HTTP -------------------------------------------------------------------------------------------------------


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def exchange(port: int, raw: bytes, timeout: float = 20) -> Reply:
    """Send ``raw`` bytes as they are and read one response."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(raw)
        response = http.client.HTTPResponse(sock, method=raw.split(b" ", 1)[0].decode("latin-1"))
        response.begin()
        return Reply(response.status, response.headers, response.read())


def request(server: Server, method: str, target: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> Reply:
    """A request with the server's own Host unless ``headers`` name another; ``None`` values drop a header."""
    hdrs: dict[str, str | None] = {"Host": server.host, "Connection": "close"}
    if body is not None:
        hdrs |= {"Content-Type": "application/json", "Content-Length": str(len(body))}
    hdrs |= headers or {}
    head = f"{method} {target} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in hdrs.items() if v is not None)
    return exchange(server.port, head.encode("latin-1") + b"\r\n" + (body or b""))


# -- the web cases --------------------------------------------------------------------------------------------------

API = {"/api/ask": "POST", "/api/record": "GET", "/api/evidence": "GET", "/api/ledger": "GET",
       "/api/suggestions": "GET"}
NIL = "00000000-0000-0000-0000-000000000000"
EVIDENCE_QUERIES = [  # (name, query, what the message says)
    ("no-parameters", "", "invalid parameter call_id"),
    ("no-set", f"?call_id={NIL}", "invalid parameter set"),
    ("set-not-a-set", f"?call_id={NIL}&set=invoice:8812", "invalid parameter set"),
    ("set-injection", f"?call_id={NIL}&set=evidence_set:1%27;DROP%20TABLE%20x", "invalid parameter set"),
    ("set-twice", f"?call_id={NIL}&set=evidence_set:1&set=evidence_set:2", "set: give it once"),
    ("call-not-a-uuid", "?call_id=8812&set=evidence_set:1", "invalid argument call_id"),
    ("call-never-made", f"?call_id={NIL}&set=evidence_set:1", "was never made"),
    ("offset-negative", f"?call_id={NIL}&set=evidence_set:1&offset=-1", "invalid parameter offset"),
    ("offset-word", f"?call_id={NIL}&set=evidence_set:1&offset=ten", "invalid parameter offset"),
    ("offset-huge", f"?call_id={NIL}&set=evidence_set:1&offset=1" + "0" * 20, "invalid parameter offset"),
    ("unknown-parameter", f"?call_id={NIL}&set=evidence_set:1&limit=5", "invalid parameter limit"),
]
PAGES = ["/", "/index.html", "/static/app.js", "/static/app.css", "/favicon.ico"]
QUESTIONS: list[tuple[str, Any, str]] = [  # (name, the body's JSON, what the message says)
    ("number", {"question": 42}, "question: must be a string, not number"),
    ("float", {"question": 4.2}, "question: must be a string, not number"),
    ("true", {"question": True}, "question: must be a string, not boolean"),
    ("null", {"question": None}, "question: must be a string, not null"),
    ("list", {"question": ["How much?"]}, "question: must be a string, not array"),
    ("object", {"question": {"text": "How much?"}}, "question: must be a string, not object"),
    ("empty", {"question": ""}, "question: must not be empty"),
    ("blank", {"question": "   "}, "question: must not be empty"),
    ("tabs", {"question": "\t\n"}, "question: must not be empty"),
    ("too_long", {"question": "x" * 2001}, "question: must be at most 2,000 characters"),
    ("nul", {"question": "Bergmann\x00"}, "question: must not contain NUL"),
    ("only_nul", {"question": "\x00"}, "question: must not contain NUL"),
    ("surrogate", {"question": "\ud800"}, "question: must be valid Unicode text"),
    ("low_surrogate", {"question": "How much does \udfff owe?"}, "question: must be valid Unicode text"),
    ("deep", {"question": deep(MAX_DEPTH + 5)}, "question"),
    ("missing", {}, "question: is required"),
    ("misspelt", {"questoin": "How much?"}, "question: is required"),
    ("extra", {"question": "How much does Bergmann owe?", "model": "x"}, "model: is not an argument of /api/ask"),
    ("nul_key", {"question": "How much?", "a\x00": 1}, "must not contain NUL"),
    ("surrogate_key", {"question": "How much?", "\udc80": 1}, "must be valid Unicode text"),
    ("list_body", ["How much?"], "not array"),
    ("string_body", "How much?", "not string"),
    ("number_body", 7, "not number"),
    ("true_body", True, "not boolean"),
    ("null_body", None, "not null"),
]
NOT_JSON: list[tuple[str, bytes, str]] = [
    ("empty", b"", "not valid JSON"),
    ("open_brace", b"{", "not valid JSON"),
    ("unquoted_key", b"{question: 1}", "not valid JSON"),
    ("single_quotes", b"{'question': 'x'}", "not valid JSON"),
    ("trailing_comma", b'{"question": "x",}', "not valid JSON"),
    ("two_documents", b'{"question": "x"} {}', "not valid JSON"),
    ("form", b"question=hi", "not valid JSON"),
    ("nested_16000_lists", b"[" * 16000, "not valid JSON"),
    ("nested_2000_objects", b'{"a":' * 2000 + b"1" + b"}" * 2000, "not valid JSON"),
    ("nested_900_lists", b"[" * 900 + b"]" * 900, "not array"),
    ("long_number", b'{"question": ' + b"9" * 5000 + b"}", "a number has too many digits"),
    ("latin1", '{"question": "Müller"}'.encode("latin-1"), "not UTF-8"),
    ("utf16", '{"question": "x"}'.encode("utf-16"), "not UTF-8"),
    ("invalid_utf8", b'{"question": "\xff\xfe"}', "not UTF-8"),
    ("overlong_utf8", b'{"question": "\xc0\xaf"}', "not UTF-8"),
    ("utf8_surrogate", b'{"question": "\xed\xa0\x80"}', "not UTF-8"),
    ("bom", b'\xef\xbb\xbf{"question": "x"}', "not valid JSON"),
    ("nul_byte", b'{"question": "x"}\x00', "not valid JSON"),
    ("raw_control", b'{"question": "a\x01b"}', "not valid JSON"),
    ("bad_escape", b'{"question": "\\x41"}', "not valid JSON"),
    ("cut_escape", b'{"question": "\\ud8"}', "not valid JSON"),
]
NOT_HTTP: list[tuple[str, bytes]] = [  # requests h11 refuses before any app sees them
    ("http09", b"GET /\r\n\r\n"),
    ("no_version", b"GET / \r\nHost: {host}\r\n\r\n"),
    ("space_in_target", b"GET /a b HTTP/1.1\r\nHost: {host}\r\n\r\n"),
    ("header_without_colon", b"GET / HTTP/1.1\r\nHost: {host}\r\nbroken\r\n\r\n"),
    ("space_before_colon", b"GET / HTTP/1.1\r\nHost : {host}\r\n\r\n"),
    ("nul_in_header", b"GET / HTTP/1.1\r\nHost: {host}\r\nX-A: a\x00b\r\n\r\n"),
    ("non_ascii_target", b"GET /\xff HTTP/1.1\r\nHost: {host}\r\n\r\n"),
    ("two_lengths", b"POST /api/ask HTTP/1.1\r\nHost: {host}\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"),
    ("negative_length", b"POST /api/ask HTTP/1.1\r\nHost: {host}\r\nContent-Length: -1\r\n\r\n"),
    ("letters_length", b"POST /api/ask HTTP/1.1\r\nHost: {host}\r\nContent-Length: abc\r\n\r\n"),
    ("bad_chunk", b"POST /api/ask HTTP/1.1\r\nHost: {host}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
    ("unknown_coding", b"POST /api/ask HTTP/1.1\r\nHost: {host}\r\nTransfer-Encoding: gzip\r\n\r\n"),
    ("lf_only_garbage", b"\x00\x01\x02\x03\r\n\r\n"),
]
URIS: list[tuple[str, str, int]] = [  # (name, query string, status)
    ("missing", "", 400), ("empty", "?uri=", 400), ("blank", "?uri=%20%20", 400),
    ("not_a_link", "?uri=hello", 400), ("unknown_type", "?uri=erp://salary/1", 400),
    ("no_id", "?uri=erp://invoice/", 400), ("no_type", "?uri=erp:///8812", 400),
    ("http", "?uri=http://example.com/x", 400), ("extra_segment", "?uri=erp://invoice/8812/x", 400),
    ("too_long", "?uri=erp://invoice/" + "9" * 400, 400), ("nul", "?uri=erp://invoice/88%0012", 400),
    ("newline", "?uri=erp://invoice/88%0A12", 400), ("tab", "?uri=erp://invoice/88%0912", 400),
    ("bad_utf8", "?uri=erp://invoice/%FF", 400), ("twice", "?uri=erp://invoice/8812&uri=erp://invoice/8834", 400),
    ("unknown_parameter", "?uri=erp://invoice/8812&format=xml", 400), ("only_unknown", "?format=xml", 400),
    ("no_such_invoice", "?uri=erp://invoice/1", 404), ("letters_id", "?uri=erp://invoice/abc", 400),
    ("negative_id", "?uri=erp://invoice/-1", 400), ("huge_id", "?uri=erp://invoice/99999999999999999999", 400),
    ("injection", "?uri=erp://customer/1%27%3B%20DROP%20TABLE%20erp.invoices%3B--", 400),
]
LIMITS_GIVEN: list[tuple[str, str]] = [
    ("letters", "abc"), ("zero", "0"), ("negative", "-1"), ("too_many", "201"), ("huge", "100000000000"),
    ("fraction", "1.5"), ("empty", ""), ("blank", "%20"), ("exponent", "1e3"), ("hex", "0x10"),
    ("arabic_digits", "%D9%A3"), ("fullwidth_digits", "%EF%BC%95"), ("nul", "5%00"), ("plus", "%2B5"),
    ("newline", "5%0A"),
]


@dataclass(frozen=True)
class WebCase:
    name: str
    method: str
    target: str
    status: int
    fragment: str
    body: bytes | None = None
    headers: dict[str, str | None] = field(default_factory=dict)
    raw: bytes | None = None  # the whole request, as bytes


def web_cases() -> list[WebCase]:
    cases: list[WebCase] = []
    ok_body = json.dumps({"question": "How much does Bergmann Logistik owe?"}).encode()
    for path, allowed in API.items():  # every other method, and some that do not exist
        for method in ("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PURGE", "BREW"):
            if method != allowed:
                cases.append(WebCase(f"method-{method}-{path}", method, path, 405, "not allowed"))
    for path in PAGES:
        for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PURGE"):
            cases.append(WebCase(f"method-{method}-{path}", method, path, 405, "not allowed"))
    for path in ("/api", "/api/", "/api/asks", "/api/ask/x", "/API/ask", "/api/record/8812", "/static/",
                 "/static/missing.js", "/static/../server.py", "/static/%2e%2e/app.py", "/static/.hidden",
                 "/static/app.js/x", "/static/model.py", "/index.htm", "/%00", "/%FF", "/x%0Ay", "/" + "a" * 4000,
                 "/api/ledger/", "/mcp/x", "/.env", "/static/app.js%00.css"):
        cases.append(WebCase(f"path-{path[:30]}", "GET", path, 404, "not found"))
    targets = [("GET", "/", None), ("GET", "/static/app.js", None), ("GET", "/api/suggestions", None),
               ("GET", "/api/ledger", None), ("GET", "/api/record?uri=erp://invoice/8812", None),
               ("POST", "/api/ask", ok_body), ("POST", "/mcp", b"{}")]
    for name, host in (("attacker", "attacker.example:4711"), ("no_port", "127.0.0.1"), ("other_port", "127.0.0.1:1"),
                       ("suffix", "localhost.evil.example"), ("empty", ""), ("userinfo", "user@127.0.0.1"),
                       ("ipv6_other", "[::2]:4711"), ("spaces", "127.0.0.1 :1")):
        for method, path, body in targets:  # DNS rebinding: a name that resolves here is still not this server
            cases.append(WebCase(f"host-{name}-{method}-{path[:16]}", method, path, 403, "Host", body=body,
                                 headers={"Host": host}))
    for method, path, body in targets:
        cases.append(WebCase(f"host-missing-{method}-{path[:16]}", method, path, 400, "not a valid HTTP/1.1 request",
                             body=body, headers={"Host": None}))
    for name, origin in (("evil", "http://evil.example"), ("null", "null"), ("https", "https://127.0.0.1:{port}"),
                         ("other_port", "http://127.0.0.1:1"), ("file", "file://"), ("suffix", "http://127.0.0.1.nip.io")):
        for method, path, body in targets[2:]:
            cases.append(WebCase(f"origin-{name}-{method}-{path[:16]}", method, path, 403, "cross-origin", body=body,
                                 headers={"Origin": origin}))
    for site in ("cross-site", "same-site"):
        for method, path, body in targets[2:]:
            cases.append(WebCase(f"fetch-site-{site}-{method}-{path[:16]}", method, path, 403, "cross-site",
                                 body=body, headers={"Sec-Fetch-Site": site}))
    for name, raw in NOT_HTTP:
        cases.append(WebCase(f"http-{name}", "GET", "/", 400, "not a valid HTTP/1.1 request", raw=raw))
    cases.append(WebCase("http-http2_preface", "PRI", "*", 403, "Host", raw=b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"))
    cases.append(WebCase("http-absolute_target", "GET", "/", 404, "not found",
                         raw=b"GET http://evil.example/x HTTP/1.1\r\nHost: {host}\r\n\r\n"))
    for name, ctype in (("text", "text/plain"), ("form", "application/x-www-form-urlencoded"), ("missing", None),
                        ("multipart", "multipart/form-data; boundary=x"), ("jsonx", "application/jsonx"),
                        ("json_suffix", "application/problem+json"), ("xml", "application/xml"), ("empty", "")):
        cases.append(WebCase(f"content-type-{name}", "POST", "/api/ask", 415, "application/json", body=ok_body,
                             headers={"Content-Type": ctype}))
    big = json.dumps({"question": "x" * (LIMITS.body_bytes + 10)}).encode()
    cases.append(WebCase("size-over-limit", "POST", "/api/ask", 413, "larger than", body=big))
    cases.append(WebCase("size-one-mib", "POST", "/api/ask", 413, "larger than", body=b"[" * 1024 * 1024))
    cases.append(WebCase("size-ten-mb", "POST", "/api/ask", 413, "larger than", body=b"x" * 10_000_000))
    for declared in (LIMITS.body_bytes + 1, 10**9, 10**15):
        cases.append(WebCase(f"size-declared-{declared}", "POST", "/api/ask", 413, "larger than",
                             raw=f"POST /api/ask HTTP/1.1\r\nHost: {{host}}\r\nContent-Type: application/json\r\n"
                                 f"Content-Length: {declared}\r\n\r\n".encode()))
    chunks = b"".join(b"%x\r\n%s\r\n" % (4096, b"x" * 4096) for _ in range(6)) + b"0\r\n\r\n"
    cases.append(WebCase("size-chunked", "POST", "/api/ask", 413, "larger than",
                         raw=b"POST /api/ask HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                             b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunks))
    for name, doc, fragment in QUESTIONS:
        cases.append(WebCase(f"question-{name}", "POST", "/api/ask", 400, fragment, body=json.dumps(doc).encode()))
    for name, raw_body, fragment in NOT_JSON:
        cases.append(WebCase(f"json-{name}", "POST", "/api/ask", 400, fragment, body=raw_body))
    cases.append(WebCase("ask-query-parameter", "POST", "/api/ask?debug=1", 400, "invalid parameter debug",
                         body=ok_body))
    for name, query, status in URIS:
        fragment = "uri" if status == 400 and "parameter" not in name and "format" not in query else ""
        cases.append(WebCase(f"record-{name}", "GET", "/api/record" + query, status, fragment))
    for name, value in LIMITS_GIVEN:
        cases.append(WebCase(f"ledger-limit-{name}", "GET", f"/api/ledger?limit={value}", 400,
                             "limit: must be a whole number from 1 to 200"))
    cases.append(WebCase("ledger-limit-twice", "GET", "/api/ledger?limit=5&limit=6", 400, "limit: give it once"))
    cases.append(WebCase("ledger-unknown", "GET", "/api/ledger?offset=5", 400, "invalid parameter offset"))
    cases.append(WebCase("suggestions-parameter", "GET", "/api/suggestions?all=1", 400, "invalid parameter all"))
    for name, query, fragment in EVIDENCE_QUERIES:
        cases.append(WebCase(f"evidence-{name}", "GET", "/api/evidence" + query, 400, fragment))
    return cases


WEB_CASES = web_cases()


def test_the_web_table_is_large() -> None:
    assert len(WEB_CASES) >= 300, len(WEB_CASES)
    assert len({c.name for c in WEB_CASES}) == len(WEB_CASES)


@pytest.mark.parametrize("case", WEB_CASES, ids=[c.name for c in WEB_CASES])
def test_a_bad_web_request_is_a_one_line_json_error_and_writes_nothing(web: Server, module_db: TestDatabase,
                                                                      case: WebCase) -> None:
    before = writes(module_db)
    if case.raw is not None:
        reply = exchange(web.port, case.raw.replace(b"{host}", web.host.encode()))
    else:
        headers = {k: (v.replace("{port}", str(web.port)) if v else v) for k, v in case.headers.items()}
        reply = request(web, case.method, case.target, case.body, headers)
    assert reply.status == case.status, (reply.status, reply.body[:300])
    assert reply.headers["Content-Type"] == "application/json; charset=utf-8"
    doc = reply.json()
    assert isinstance(doc, dict) and isinstance(doc["error"], str), doc
    message = doc["error"]
    assert message and message.isprintable() and len(message) < 400, message
    assert case.fragment in message, message
    assert "Traceback" not in message and "validation error" not in message and "pydantic" not in message
    assert writes(module_db) == before
    ran("web requests", case.name)


def test_a_field_error_names_the_field_and_its_code(web: Server) -> None:
    doc = request(web, "POST", "/api/ask", json.dumps({"question": 42}).encode()).json()
    assert doc == {"error": "invalid argument question: must be a string, not number", "code": "FN001",
                   "type": "InvalidArgument", "field": "question"}
    doc = request(web, "GET", "/api/ledger?limit=0").json()
    assert doc["field"] == "limit" and doc["code"] == "FN001"
    reply = request(web, "DELETE", "/api/ask")
    assert reply.status == 405 and reply.headers["Allow"] == "POST"


# -- stalled connections --------------------------------------------------------------------------------------------

TLS_HELLO = bytes.fromhex(  # the start of a TLS 1.2 ClientHello, as a browser sends it to an https:// URL
    "16030100f4010000f00303" + "ab" * 32 + "20" + "cd" * 32 + "0020c02bc02fc02cc030cca9cca8c013c014009c009d002f0035"
    "0100008700000014001200000f3132372e302e302e313a34373131")


def closed_or_answered(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (the socket's timeout fails the test)."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def still_serves(server: Server) -> None:
    reply = request(server, "GET", "/api/suggestions")
    assert reply.status == 200 and "How much does Bergmann owe?" in reply.json()["suggestions"]


@pytest.mark.parametrize(("name", "sent"), [
    ("idle", b""),
    ("half_a_head", b"GET /api/suggestions HTTP/1.1\r\nHost: 127.0.0.1"),
    ("tls_hello", TLS_HELLO),
    ("one_byte", b"G"),
])
def test_a_client_that_never_finishes_its_head_is_cut_off(web: Server, name: str, sent: bytes) -> None:
    with socket.create_connection(("127.0.0.1", web.port), timeout=20) as sock:
        sock.sendall(sent)
        data = closed_or_answered(sock)
    if sent:  # something arrived: the server says why it closes
        assert data.startswith((b"HTTP/1.1 408 ", b"HTTP/1.1 400 ")), data[:200]
    else:
        assert data == b""
    if data.startswith(b"HTTP/1.1 408 "):
        assert json.loads(data.split(b"\r\n\r\n", 1)[1])["error"] == "the request head did not arrive in time"
    still_serves(web)
    ran("stalled connections", name)


@pytest.mark.parametrize("path", ["/api/ask", "/mcp"])
def test_a_body_shorter_than_its_content_length_is_a_408(web: Server, module_db: TestDatabase, path: str) -> None:
    before = writes(module_db)
    body = b'{"question": "How much'
    head = (f"POST {path} HTTP/1.1\r\nHost: {web.host}\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\nContent-Length: {len(body) + 100}\r\n\r\n")
    with socket.create_connection(("127.0.0.1", web.port), timeout=20) as sock:
        sock.sendall(head.encode() + body)
        data = closed_or_answered(sock)
    status, _, rest = data.partition(b"\r\n")
    assert status == b"HTTP/1.1 408 Request Timeout", data[:300]
    assert json.loads(rest.split(b"\r\n\r\n", 1)[1]) == {"error": "the request body did not arrive within 1 s"}
    assert writes(module_db) == before
    still_serves(web)
    ran("stalled connections", f"short body {path}")


def test_an_idle_keep_alive_connection_is_closed_after_its_request(web: Server) -> None:
    with socket.create_connection(("127.0.0.1", web.port), timeout=20) as sock:
        sock.sendall(f"GET /api/suggestions HTTP/1.1\r\nHost: {web.host}\r\n\r\n".encode())
        data = closed_or_answered(sock)  # no second request: the keep-alive timeout ends it
    assert data.startswith(b"HTTP/1.1 200 OK") and b"How much does Bergmann owe?" in data
    still_serves(web)
    ran("stalled connections", "idle after a response")


def test_fifty_stalled_sockets_do_not_stop_a_normal_request_or_take_threads(module_db: TestDatabase) -> None:
    patient = Limits(body_seconds=60, head_seconds=60, keep_alive_seconds=60)
    with running(module_db.url, patient) as server:
        still_serves(server)
        threads = threading.active_count()
        body = b'{"question": "How much does Bergmann'
        stalls = [b"", b"GET / HTTP/1.1\r\nHost: " + server.host.encode(), TLS_HELLO,
                  f"POST /api/ask HTTP/1.1\r\nHost: {server.host}\r\nContent-Type: application/json\r\n"
                  f"Content-Length: 500\r\n\r\n".encode() + body]
        sockets = []
        try:
            for n in range(50):
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=20)
                sock.sendall(stalls[n % len(stalls)])
                sockets.append(sock)
            reply = request(server, "POST", "/api/ask",
                            json.dumps({"question": "How much does Bergmann Logistik owe?"}).encode())
            assert reply.status == 200 and reply.json()["status"] == "verified"
            still_serves(server)
            assert threading.active_count() - threads < 10  # stalled clients hold no thread
        finally:
            for sock in sockets:
                sock.close()
    ran("stalled connections", *(f"one of fifty: {n}" for n in range(50)))


# -- MCP: every tool, every argument --------------------------------------------------------------------------------

HYGIENE: list[tuple[str, Any, str]] = [  # what no tool takes, whatever its type: (name, value, message)
    ("nul", "Berg\x00mann", "must not contain NUL"),
    ("surrogate", "\ud800", "must be valid Unicode text"),
    ("huge", "x" * (MAX_TEXT + 1), f"must be at most {MAX_TEXT:,} characters"),
    ("deep", deep(MAX_DEPTH + 8), f"nested more than {MAX_DEPTH} levels deep"),
    ("nested_nul", {"a": ["ok", "b\x00"]}, "must not contain NUL"),
]


@dataclass(frozen=True)
class ToolCase:
    name: str
    tool: str
    arguments: dict[str, Any]
    argument: str  # the argument the message must name
    fragment: str = ""


def catalog_cases(module_db: TestDatabase) -> list[ToolCase]:
    operations = module_db.client("service").catalog()
    sku = module_db.scalar("SELECT sku FROM erp.items ORDER BY id LIMIT 1")
    cases: list[ToolCase] = []
    for op in operations:
        required = [a.name for a in op.arguments if a.required]
        base = {a: (sku if a == "item" else VALID_FOR.get((op.name, a), VALID[a])) for a in required}
        for arg in op.arguments:
            for n, (value, _expected) in enumerate(BAD[arg.type]):
                if arg.name == "name_contains" and isinstance(value, str) and value.strip() and len(value) < 200 \
                        and "\x00" not in value and "\x01" not in value and "\n" not in value:
                    continue  # any printable text is a filter
                cases.append(ToolCase(f"{op.name}-{arg.name}-{arg.type}{n}", op.name, {**base, arg.name: value},
                                      arg.name))
            for why, value, fragment in HYGIENE:
                cases.append(ToolCase(f"{op.name}-{arg.name}-{why}", op.name, {**base, arg.name: value}, arg.name,
                                      fragment))
        name = op.name
        cases.append(ToolCase(f"{name}-unknown", name, {**base, "colour": "red"}, "colour", "is not an argument"))
        cases.append(ToolCase(f"{name}-unknown-nul-name", name, {**base, "a\x00b": 1}, "a", "must not contain NUL"))
        cases.append(ToolCase(f"{name}-unknown-long-name", name, {**base, "n" * 500: 1}, "n" * 20))
        for arg_name in required:
            rest = {k: v for k, v in base.items() if k != arg_name}
            cases.append(ToolCase(f"{name}-missing-{arg_name}", name, rest, arg_name, "is required"))
            cases.append(ToolCase(f"{name}-null-{arg_name}", name, {**base, arg_name: None}, arg_name, "is required"))
    return cases


CITATION = {"evidence": "bank_account:1", "call_id": UUID}
DECISION = {"action": "hold", "subject": "Northwind Supply", "rationale": "check", "citations": [CITATION]}
SUBMISSION = {"question": "How much does Bergmann Logistik owe?", "answer": "It owes 43.805,00 €.", "call_ids": [UUID]}
FIXED: list[tuple[str, str, dict[str, Any], str, str]] = [  # (name, tool, arguments, argument, fragment)
    ("answer-number", "answer", {"question": 123}, "question", "must be a string, not number"),
    ("answer-list", "answer", {"question": ["How much?"]}, "question", "must be a string, not array"),
    ("answer-object", "answer", {"question": {"q": 1}}, "question", "must be a string, not object"),
    ("answer-bool", "answer", {"question": False}, "question", "must be a string, not boolean"),
    ("answer-null", "answer", {"question": None}, "question", "must be a string, not null"),
    ("answer-empty", "answer", {"question": ""}, "question", "must not be empty"),
    ("answer-blank", "answer", {"question": "   "}, "question", "must not be empty"),
    ("answer-long", "answer", {"question": "x" * 2001}, "question", "at most 2,000 characters"),
    ("answer-huge", "answer", {"question": "x" * (MAX_TEXT + 1)}, "question", "at most"),
    ("answer-surrogate", "answer", {"question": "How much does \ud800 owe?"}, "question", "valid Unicode"),
    ("answer-nul", "answer", {"question": "Bergmann\x00"}, "question", "NUL"),
    ("answer-deep", "answer", {"question": deep(100)}, "question", "nested"),
    ("answer-missing", "answer", {}, "question", "is required"),
    ("answer-unknown", "answer", {"question": "Show AR aging", "model": "x"}, "model",
     "is not an argument of answer"),
    ("answer-misspelt", "answer", {"questoin": "Show AR aging"}, "question", "is required (and 1 more problem)"),
    ("answer-json-string", "answer", {"question": '{"q": 1}', "extra": '["x"]'}, "extra", "is not an argument"),
    ("submit-question-number", "submit_answer", {**SUBMISSION, "question": 1}, "question", "must be a string"),
    ("submit-answer-list", "submit_answer", {**SUBMISSION, "answer": ["a"]}, "answer", "must be a string"),
    ("submit-answer-empty", "submit_answer", {**SUBMISSION, "answer": ""}, "answer", "must not be empty"),
    ("submit-answer-long", "submit_answer", {**SUBMISSION, "answer": "x" * 20001}, "answer", "at most 20,000"),
    ("submit-answer-surrogate", "submit_answer", {**SUBMISSION, "answer": "\udfff"}, "answer", "valid Unicode"),
    ("submit-answer-nul", "submit_answer", {**SUBMISSION, "answer": "a\x00"}, "answer", "NUL"),
    ("submit-call-ids-string", "submit_answer", {**SUBMISSION, "call_ids": "x"}, "call_ids", "must be an array"),
    ("submit-call-ids-json-object", "submit_answer", {**SUBMISSION, "call_ids": '{"a": 1}'}, "call_ids",
     "must be an array, not object"),
    ("submit-call-ids-empty", "submit_answer", {**SUBMISSION, "call_ids": []}, "call_ids", "at least 1 item"),
    ("submit-call-ids-number", "submit_answer", {**SUBMISSION, "call_ids": [1]}, "call_ids[0]", "must be a string"),
    ("submit-call-ids-nested", "submit_answer", {**SUBMISSION, "call_ids": [[UUID]]}, "call_ids[0]",
     "must be a string, not array"),
    ("submit-call-ids-many", "submit_answer", {**SUBMISSION, "call_ids": [UUID] * 101}, "call_ids", "at most 100"),
    ("submit-call-ids-not-uuid", "submit_answer", {**SUBMISSION, "call_ids": ["not-a-uuid"]}, "call_ids[0]",
     "is not a call_id"),
    ("submit-call-ids-second-bad", "submit_answer", {**SUBMISSION, "call_ids": [UUID, "x"]}, "call_ids[1]",
     "is not a call_id"),
    ("submit-never-made", "submit_answer", SUBMISSION, "call", "never made"),
    ("submit-missing-all", "submit_answer", {}, "question", "is required (and 2 more problems)"),
    ("submit-unknown", "submit_answer", {**SUBMISSION, "claims": []}, "claims", "is not an argument"),
    ("decision-action-number", "record_decision", {**DECISION, "action": 5}, "action", "must be a string"),
    ("decision-action-empty", "record_decision", {**DECISION, "action": ""}, "action", "must not be empty"),
    ("decision-action-long", "record_decision", {**DECISION, "action": "p" * 61}, "action", "at most 60"),
    ("decision-subject-object", "record_decision", {**DECISION, "subject": {"a": 1}}, "subject", "not object"),
    ("decision-subject-long", "record_decision", {**DECISION, "subject": "s" * 501}, "subject", "at most 500"),
    ("decision-rationale-long", "record_decision", {**DECISION, "rationale": "r" * 5001}, "rationale",
     "at most 5,000"),
    ("decision-rationale-null", "record_decision", {**DECISION, "rationale": None}, "rationale", "not null"),
    ("decision-citations-string", "record_decision", {**DECISION, "citations": "x"}, "citations", "must be an array"),
    ("decision-citations-object", "record_decision", {**DECISION, "citations": CITATION}, "citations",
     "must be an array, not object"),
    ("decision-citation-number", "record_decision", {**DECISION, "citations": [1]}, "citations[0]",
     "must be an object, not number"),
    ("decision-citation-empty", "record_decision", {**DECISION, "citations": [{}]}, "citations[0].evidence",
     "is required (and 1 more problem)"),
    ("decision-citation-garbage", "record_decision", {**DECISION, "citations": [{"evidence": {"x": [1, {"y": 2}]}}]},
     "citations[0].evidence", "must be a string, not object (and 1 more problem)"),
    ("decision-citation-extra", "record_decision", {**DECISION, "citations": [{**CITATION, "weight": 1}]},
     "citations[0].weight", "is not a field here"),
    ("decision-citation-evidence-empty", "record_decision", {**DECISION, "citations": [{**CITATION, "evidence": ""}]},
     "citations[0].evidence", "must not be empty"),
    ("decision-citation-fact-long", "record_decision",
     {**DECISION, "citations": [{**CITATION, "fact": "f" * 201}]}, "citations[0].fact", "at most 200"),
    ("decision-citation-call-id-bad", "record_decision",
     {**DECISION, "citations": [{**CITATION, "call_id": "not-a-uuid"}]}, "call_ids[0]", "is not a call_id"),
    ("decision-citation-surrogate", "record_decision",
     {**DECISION, "citations": [{**CITATION, "fact": "\ud83d"}]}, "citations[0].fact", "valid Unicode"),
    ("decision-citation-deep", "record_decision", {**DECISION, "citations": [{"evidence": deep(60)}]},
     "citations", "nested"),
    ("decision-citations-many", "record_decision", {**DECISION, "citations": [CITATION] * 201}, "citations",
     "at most 200"),
    ("decision-call-ids-string", "record_decision", {**DECISION, "call_ids": UUID}, "call_ids", "must be an array"),
    ("decision-call-ids-bad", "record_decision", {**DECISION, "call_ids": ["x"]}, "call_ids[0]", "is not a call_id"),
    ("decision-call-ids-number", "record_decision", {**DECISION, "call_ids": [7]}, "call_ids[0]", "must be a string"),
    ("decision-missing", "record_decision", {"action": "pay"}, "subject", "is required (and 2 more problems)"),
    ("decision-unknown", "record_decision", {**DECISION, "amount": 100}, "amount", "is not an argument"),
    ("chain-argument", "verify_chain", {"deep": True}, "deep", "is not an argument of verify_chain"),
    ("chain-arguments", "verify_chain", {"a": 1, "b": 2}, "a", "(and 1 more problem)"),
    ("chain-nul-name", "verify_chain", {"\x00": 1}, "", "must not contain NUL"),
    ("chain-deep", "verify_chain", {"x": deep(40)}, "x", "nested"),
]
RESOURCES: list[tuple[str, str]] = [  # (name, uri) of records that are not there or cannot be
    ("unknown_type", "erp://salary/1"), ("no_such_invoice", "erp://invoice/1"),
    ("letters_id", "erp://invoice/abc"), ("negative_id", "erp://invoice/-1"),
    ("huge_id", "erp://invoice/99999999999999999999"), ("long_id", "erp://invoice/" + "9" * 5000),
    ("nul", "erp://invoice/88\x0012"), ("newline", "erp://invoice/88\n12"), ("tab", "erp://invoice/88\t12"),
    ("space", "erp://invoice/88 12"),
    ("injection", "erp://customer/1'; DROP TABLE erp.invoices; --"), ("extra_segment", "erp://invoice/8812/x"),
    ("no_type", "erp:///8812"), ("no_id", "erp://invoice/"), ("other_scheme", "http://invoice/8812"),
    ("not_a_uri", "not a uri"), ("dots", "erp://invoice/.."), ("percent", "erp://invoice/%2e%2e"),
    ("fraction", "erp://invoice/1.5"), ("zero", "erp://invoice/0"), ("unicode_digits", "erp://invoice/٨٨١٢"),
    ("bank_change_letters", "erp://bank_change_request/x"), ("customer_letters", "erp://customer/Bergmann"),
    # pages of cut results: none held, or not a page at all
    ("result_not_held", "footnote://result/00000000-0000-4000-8000-000000000000/evidence/0"),
    ("result_negative_offset", "footnote://result/x/evidence/-1"), ("result_no_part", "footnote://result/x//0"),
    ("result_nul", "footnote://result/x\x00/evidence/0"), ("result_long", "footnote://result/" + "9" * 5000 + "/e/0"),
    ("result_dots", "footnote://result/../../0"), ("result_percent", "footnote://result/%00/%FF/0"),
]


def fixed_cases() -> list[ToolCase]:
    return [ToolCase(name, tool, arguments, argument, fragment) for name, tool, arguments, argument, fragment in FIXED]


def encodable(arguments: dict[str, Any]) -> bool:
    try:
        json.dumps(arguments, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_error(case: ToolCase, result: Any) -> str:
    assert result.is_error, (case.name, result.structured_content)
    (content,) = result.content
    assert isinstance(content, TextContent)
    message = content.text
    assert message.isprintable() and len(message) < 500, (case.name, message)
    assert message.startswith("invalid argument "), (case.name, message)
    assert label(case.argument)[:20] in message or case.argument[:20] in message, (case.name, message)
    assert case.fragment in message, (case.name, message)
    for leak in ("validation error", "pydantic", "Traceback", "input_value", "Error executing tool"):
        assert leak not in message, (case.name, message)
    return message


def test_every_bad_tool_call_is_one_line_and_writes_nothing(mcp: Session, module_db: TestDatabase) -> None:
    cases = catalog_cases(module_db) + fixed_cases()
    assert len(cases) >= 300, len(cases)
    seen = {c.tool for c in cases}
    assert seen == set(mcp.tools()), set(mcp.tools()) - seen  # every tool
    before = writes(module_db)
    failures = []
    for case in cases:
        try:
            check_error(case, mcp.call(case.tool, case.arguments))
        except AssertionError as exc:
            failures.append(str(exc)[:300])
    assert not failures, f"{len(failures)} of {len(cases)}:\n" + "\n".join(failures[:40])
    assert writes(module_db) == before
    ran("MCP tool calls", *(c.name for c in cases))


@pytest.mark.parametrize(("name", "uri"), RESOURCES, ids=[n for n, _ in RESOURCES])
def test_a_bad_resource_read_is_one_line_and_writes_nothing(mcp: Session, module_db: TestDatabase, name: str,
                                                            uri: str) -> None:
    before = writes(module_db)
    with pytest.raises(MCPError) as caught:
        mcp.read(uri)
    message = str(caught.value)
    assert message.isprintable() and len(message) < 500, message
    assert "Traceback" not in message and "validation error" not in message
    assert writes(module_db) == before
    ran("MCP resource reads", name)


def test_bad_tool_calls_over_http_are_one_line_too(web: Server, module_db: TestDatabase) -> None:
    before = writes(module_db)
    with session(f"http://{web.host}/mcp") as s:
        sendable = [c for c in fixed_cases() if encodable(c.arguments)]  # a client cannot send a lone surrogate
        for case in sendable:
            check_error(case, s.call(case.tool, case.arguments))
        unknown = s.call("forecast_revenue", {"x": 1})
        assert unknown.is_error and isinstance(unknown.content[0], TextContent)
        assert unknown.content[0].text == "Unknown tool: forecast_revenue"
    assert writes(module_db) == before
    ran("MCP tool calls over HTTP", *(c.name for c in sendable), "unknown tool")
