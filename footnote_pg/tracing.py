"""OpenTelemetry traces of the answer path, when the application wants them (``pip install 'footnote-pg[otel]'``).

A span per question (``footnote.ask``) with a child per step: ``footnote.route``, ``footnote.call`` for each catalog
call, ``footnote.compose``, ``footnote.gate`` (grading and queueing the record) and ``footnote.seal`` (the COMMIT
that seals it, and the receipt). ``Footnote.call`` and ``Footnote.submit_answer`` outside a question get a
``footnote.call`` or ``footnote.gate`` span of their own. Attributes say what happened (operation, call id, route,
status, record id and sequence), never a figure, a name or an evidence value. The web app and the MCP server over
HTTP continue the trace an incoming request carries (W3C ``traceparent``, or whatever propagator the application
configured).

Tracing is off until the application sets a tracer provider (``opentelemetry.trace.set_tracer_provider``, with the
SDK of the ``otel`` extra and an exporter): until then every span is one shared no-op context manager (about two
microseconds, against about 15 for the API's own no-op span), so the answer path pays next to nothing for it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import Any

try:
    from opentelemetry import context as otel_context
    from opentelemetry import propagate, trace
except ImportError:  # the optional extra is not installed: tracing is off
    trace = None  # type: ignore[assignment]

_OFF = contextlib.nullcontext()
TRACER_NAME = "footnote_pg"


def enabled() -> bool:
    return trace is not None


def span(name: str, **attributes: Any) -> contextlib.AbstractContextManager[Any]:
    """A span ``footnote.<name>`` around a step (a no-op without the API); attributes whose value is None are left
    out."""
    if trace is None or isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider):
        return _OFF  # no tracer provider set: nothing would record the span
    return trace.get_tracer(TRACER_NAME).start_as_current_span(
        f"footnote.{name}", attributes={f"footnote.{k}": v for k, v in attributes.items() if v is not None})


def annotate(current: Any, **attributes: Any) -> None:
    """Set attributes on a span ``span()`` gave (ignored for the no-op)."""
    if current is None or trace is None:
        return
    for key, value in attributes.items():
        if value is not None:
            current.set_attribute(f"footnote.{key}", value)


@contextlib.contextmanager
def continued(headers: Mapping[str, str]) -> Iterator[None]:
    """Make the trace context an incoming request carries the current one, for the request's work."""
    if trace is None or isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider):
        yield
        return
    token = otel_context.attach(propagate.extract(dict(headers)))
    try:
        yield
    finally:
        otel_context.detach(token)
