"""The question path: a question -> catalog calls, a clarification or a refusal.

Deterministic rules, no model, no network: ``route(question, directory,
settings)`` returns a :class:`Route` that names the catalog operations to call
with typed, JSON-ready arguments, or asks one clarifying question whose options
are complete questions that route to an answer, or refuses with a reason. It
never computes or states a figure; its messages contain no digit.

Steps, one module each: ``text`` (folding, tokens), ``lexicon`` (vocabulary and
cue patterns), ``periods`` (periods and days), ``names`` (the directory of
customers, suppliers and items), ``reading`` (a question read once),
``plan`` and ``portfolio`` (what each intent calls), ``rules`` (which intent a question is), ``coverage``
(every content word used, or the part no operation answers named; keyword typos).
"""

from __future__ import annotations

from footnote_pg.question import coverage
from footnote_pg.question.names import Directory, Mention
from footnote_pg.question.reading import _analyse
from footnote_pg.question.rules import _decide
from footnote_pg.question.types import Call, Route, RouterSettings

__all__ = ["Call", "Directory", "Mention", "Route", "RouterSettings", "route"]


def _settle(r: Route, directory: Directory, settings: RouterSettings, depth: int) -> Route:
    """Replace an option that would itself need clarifying by the first option it offers."""
    if r.kind != "clarification" or not r.options:
        return r
    settled: list[str] = []
    for option in r.options:
        current = option
        for _ in range(3):
            routed = _route(current, directory, settings, depth + 1)
            if routed.kind != "clarification":
                settled.append(current)
                break
            if not routed.options or depth >= 2:
                break
            current = routed.options[0]
    return Route(kind=r.kind, intent=r.intent, calls=r.calls, options=tuple(dict.fromkeys(settled)),
                 reason=r.reason, message=r.message, notes=r.notes)


def _route(question: str, directory: Directory, settings: RouterSettings, depth: int) -> Route:
    text, corrections = coverage.correct_spelling(question, directory)
    q = _analyse(text, settings)
    r = coverage.check(q, _decide(q, directory), directory)
    if corrections:
        r = Route(kind=r.kind, intent=r.intent, calls=r.calls, options=r.options, reason=r.reason, message=r.message,
                  notes={**r.notes, "corrected": "; ".join(f"{a} -> {b}" for a, b in corrections.items())})
    if depth < 2:
        r = _settle(r, directory, settings, depth)
    return r


def route(question: str, directory: Directory, settings: RouterSettings) -> Route:
    """Map a question to catalog calls, a clarification or a refusal. Pure and deterministic."""
    return _route(question, directory, settings, 0)

