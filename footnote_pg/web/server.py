"""Serving the web demo (and MCP at /mcp) from one process: ``serve`` for the page, ``serve_mcp`` for MCP alone.

Both bind before they start (a taken port is an ``OSError``), block until Ctrl-C (or ``stop``), close every pool
they opened and print nothing. The address must be a loopback address unless a specific other one is named on
purpose (``host=``): then the server answers only requests addressed to it, without authentication.
"""

from __future__ import annotations

import ipaddress
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from footnote_pg import errors
from footnote_pg.identity import TokenSettings, Verifier
from footnote_pg.web import runner
from footnote_pg.web.app import DEFAULT_LIMITS, Limits, allowed_hosts, build_app
from footnote_pg.web.demo import ACTOR, ACTOR_ROLE, DemoApp, DemoUsers

if TYPE_CHECKING:
    from footnote_pg.mcpserver import FootnoteMCP

log = logging.getLogger("footnote_pg.web")

DEFAULT_PORT = 4711


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_host(host: str) -> None:
    """A loopback address, or one specific address of this machine: never a wildcard (0.0.0.0, ::) or a name."""
    if is_loopback(host):
        return
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        raise errors.InvalidArgument(f"invalid argument host: the server binds to a loopback address (127.0.0.1) "
                                     f"or one IP address of this machine, not {host!r}", {"argument": "host"}) from None
    if address.is_unspecified:
        raise errors.InvalidArgument(f"invalid argument host: the server binds to a loopback address (127.0.0.1) "
                                     f"or one IP address of this machine, not the wildcard {host} (name the address "
                                     "clients connect to)", {"argument": "host"})
    log.warning("serving on %s without authentication: whoever reaches it reads the ERP data", host)


def serve(database_url: str, host: str = "127.0.0.1", port: int = DEFAULT_PORT,
          ready: Callable[[str], None] | None = None, *, stop: threading.Event | None = None,
          mcp: FootnoteMCP | None = None, limits: Limits = DEFAULT_LIMITS, actor: str = ACTOR,
          actor_role: str | None = ACTOR_ROLE, tokens: TokenSettings | None = None,
          demo_users: DemoUsers | None = None) -> None:
    """Serve the demo page and its API (and ``mcp`` at /mcp) until Ctrl-C or ``stop``; blocking, prints nothing.

    ``ready(url)`` is called once the server accepts connections (``port=0`` picks a free port). The page runs as
    ``actor`` (``demo``, role ``viewer``, unless given) with the database rights of ``database_url``.
    """
    check_host(host)
    verifier = Verifier(tokens) if tokens is not None else None
    demo = DemoApp(database_url, actor, actor_role, users=demo_users)
    try:
        sock = runner.bind(host, port)
        app = build_app(demo, hosts=allowed_hosts(host, sock.getsockname()[1]), limits=limits, mcp=mcp,
                        tokens=verifier, client=lambda: demo.fn)
        runner.run(app, sock, limits=limits, ready=ready, stop=stop)
    finally:
        demo.close()


def serve_mcp(mcp: FootnoteMCP, host: str = "127.0.0.1", port: int = 8765,
              ready: Callable[[str], None] | None = None, *, stop: threading.Event | None = None,
              limits: Limits = DEFAULT_LIMITS, tokens: TokenSettings | None = None) -> None:
    """Serve only MCP over streamable HTTP at http://host:port/mcp, with the page's guards, until Ctrl-C or stop;
    with ``tokens``, only to requests with a valid bearer token."""
    check_host(host)
    verifier = Verifier(tokens) if tokens is not None else None
    sock = runner.bind(host, port)
    app = build_app(None, hosts=allowed_hosts(host, sock.getsockname()[1]), limits=limits, mcp=mcp,
                    tokens=verifier, client=mcp.backend.client)
    runner.run(app, sock, limits=limits, ready=ready, stop=stop)
