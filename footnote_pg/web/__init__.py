"""The web demo of footnote-pg: ask, see every figure's evidence, watch the gate reject a model's numbers.

``serve(database_url, port=4711)`` runs it on 127.0.0.1 (``footnote-pg demo`` does so after
starting the embedded PostgreSQL). Standard library only; the page is plain HTML, CSS and JS.
"""

from __future__ import annotations

from footnote_pg.web.model import model_rewrite
from footnote_pg.web.server import SUGGESTIONS, serve

__all__ = ["SUGGESTIONS", "model_rewrite", "serve"]
