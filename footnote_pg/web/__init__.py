"""The web demo of footnote-pg: ask, see every figure's evidence, watch the gate reject a model's numbers.

``serve(database_url, port=4711)`` runs it on 127.0.0.1 with Starlette and uvicorn (``footnote-pg demo`` does so
after starting the embedded PostgreSQL; ``footnote-pg serve`` and ``demo --mcp`` add the MCP endpoint at /mcp).
The page is plain HTML, CSS and JS. Modules: ``demo`` (the database side), ``inputs`` (reading requests), ``app``
(routes and guards), ``runner`` (uvicorn in a thread), ``server`` (serve, serve_mcp), ``model`` (the simulated model).
"""

from __future__ import annotations

from footnote_pg.web.app import Limits
from footnote_pg.web.demo import SUGGESTIONS
from footnote_pg.web.model import model_rewrite
from footnote_pg.web.server import serve, serve_mcp

__all__ = ["SUGGESTIONS", "Limits", "model_rewrite", "serve", "serve_mcp"]
