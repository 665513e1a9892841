"""Running an ASGI app with uvicorn in a thread of its own, until Ctrl-C, SIGTERM (as KeyboardInterrupt) or ``stop``.

The socket is bound before the server starts, so a taken port is an ``OSError`` for the caller (one line in the
CLI). Connections are cut off when they dawdle: :class:`HeadDeadline` gives a client ``Limits.head_seconds`` to send
a request's head (an idle connection, a slow one, a TLS hello sent to plain HTTP), uvicorn's keep-alive timeout
closes idle connections between requests, and the app bounds the body (``Limits.body_seconds``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from footnote_pg.web.app import Limits

log = logging.getLogger("footnote_pg.web")



def raw_json(status: str, message: str) -> bytes:
    """A whole JSON error response, for the connection's own errors (before any request reaches the app)."""
    body = json.dumps({"error": message}).encode()
    return (f"HTTP/1.1 {status}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: {len(body)}\r\n"
            "cache-control: no-store\r\nconnection: close\r\n\r\n").encode() + body


LATE_HEAD = raw_json("408 Request Timeout", "the request head did not arrive in time")
NOT_HTTP = raw_json("400 Bad Request", "not a valid HTTP/1.1 request")
SHUTDOWN_SECONDS = 3  # a stopping server waits this long for requests still running


class HeadDeadline(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's head (the request line and headers)."""

    head_seconds = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        self._await_head()

    def _await_head(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self.loop.call_later(self.head_seconds, self._head_late)

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle and self._head_timer is not None:  # a request's head arrived
            self._head_timer.cancel()
            self._head_timer = None

    def on_response_complete(self) -> None:
        self._await_head()  # before the next request is read (pipelined requests are read right here)
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """A request h11 cannot parse (or a TLS hello): a JSON 400, then the connection is closed."""
        log.info("%s", msg)
        self.transport.write(NOT_HTTP)
        self.transport.close()

    def _head_late(self) -> None:
        self._head_timer = None
        if self.transport.is_closing() or (self.cycle is not None and not self.cycle.response_complete):
            return
        if self.conn.trailing_data[0]:  # part of a head (or bytes that are not HTTP): say why, then close
            self.transport.write(LATE_HEAD)
        self.transport.close()


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: a free one); OSError when the port is taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except BaseException:
        sock.close()
        raise
    return sock


def run(app: Any, sock: socket.socket, *, limits: Limits, ready: Callable[[str], None] | None = None,
        stop: threading.Event | None = None) -> None:
    """Serve ``app`` on ``sock`` until Ctrl-C or ``stop``; ``ready(url)`` once it accepts connections.

    Blocking; prints nothing. RuntimeError when the server did not start or stopped on its own (uvicorn's log
    says why), after closing everything.
    """
    protocol = type("Protocol", (HeadDeadline,), {"head_seconds": limits.head_seconds})
    config = uvicorn.Config(app, http=protocol, ws="none", lifespan="on", log_config=None, access_log=False,
                            log_level="warning", timeout_keep_alive=limits.keep_alive_seconds,
                            timeout_graceful_shutdown=SHUTDOWN_SECONDS)
    server = uvicorn.Server(config)
    failure: list[BaseException] = []

    def serve() -> None:
        try:
            asyncio.run(server.serve(sockets=[sock]))
        except BaseException as exc:  # noqa: BLE001 - reported by the calling thread
            failure.append(exc)

    host, port = sock.getsockname()[:2]
    url = f"http://{f'[{host}]' if ':' in host else host}:{port}/"
    thread = threading.Thread(target=serve, name="footnote-pg-http", daemon=True)
    try:
        thread.start()
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError(f"the server at {url} did not start ({failure[0]!r})" if failure else
                                   f"the server at {url} did not start")
            time.sleep(0.02)
        if ready is not None:
            ready(url)
        waiter = stop or threading.Event()
        while not waiter.wait(0.5):
            if not thread.is_alive():
                raise RuntimeError(f"the server at {url} stopped on its own")
    except KeyboardInterrupt:
        pass
    finally:
        server.should_exit = True
        with contextlib.suppress(RuntimeError):  # a signal that came while the thread was being started
            thread.join(timeout=SHUTDOWN_SECONDS + 10)
        sock.close()
