"""The composer: answers written from the templates in PostgreSQL.

The templates live in ``sql/16_compose.sql`` (``footnote.compose``): literal
words and slots, each slot filled with the formatted text a catalog call
returned, each unit of the answer bound to its call, subject and period. The
gate grades every text against the same templates, so nothing here is trusted
and nothing here is duplicated: this module asks for the template and shapes
what comes back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from footnote_pg.queries import query
from footnote_pg.question import Route
from footnote_pg.results import OperationResult

INTERPRETATION = "This is an interpretation — the underlying facts are:"


@dataclass
class Composed:
    """An answer: text, claims with spans, the span of any inference in it and of its fact lines, its units."""

    answer: str
    claims: list[dict[str, Any]]
    inference: dict[str, int] | None = None
    facts: list[dict[str, int]] = field(default_factory=list)
    units: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Composed:
        return cls(answer=doc["answer"], claims=list(doc.get("claims") or []), inference=doc.get("inference"),
                   facts=list(doc.get("facts") or []), units=list(doc.get("units") or []))


def template_of(route: Route) -> dict[str, Any]:
    """What the gate grades this route's answer against: its intent and notes (``footnote.compose``)."""
    return {"intent": route.intent, "notes": dict(route.notes)}


def compose(conn: psycopg.Connection[Any], route: Route, results: list[OperationResult], question: str) -> Composed:
    """The template answer for a route whose calls all returned, written by the database."""
    template = template_of(route)
    row = conn.execute(query("compose"), {"call_ids": [r.call_id for r in results], "intent": template["intent"],
                                          "notes": Jsonb(template["notes"]), "question": question}).fetchone()
    assert row is not None
    return Composed.from_json(row[0])


def plain(message: str, options: tuple[str, ...] = ()) -> Composed:
    """A clarification or refusal: a sentence and, for a clarification, its options one per line."""
    return Composed("\n- ".join((message, *options)), [])
