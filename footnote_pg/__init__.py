"""footnote-pg: answers about ERP data whose every number is a citation.

The database computes every figure (catalog operations in schema ``footnote``);
this package routes questions, fills templates with the returned strings, and
hands each answer to the gate in PostgreSQL, which records it in the ledger.

The names below are imported when first used, so that ``footnote-pg`` starts (and a Ctrl-C while it starts is
handled) before psycopg is loaded.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from footnote_pg.client import Footnote
    from footnote_pg.errors import (
        AmbiguousEntity,
        ConnectionFailed,
        FootnoteError,
        InvalidArgument,
        SourceNotMapped,
        UnknownEntity,
        UnknownOperation,
    )
    from footnote_pg.results import Evidence, Operation, OperationResult, Value

_MODULES = {
    "Footnote": "client",
    "AmbiguousEntity": "errors",
    "ConnectionFailed": "errors",
    "FootnoteError": "errors",
    "InvalidArgument": "errors",
    "SourceNotMapped": "errors",
    "UnknownEntity": "errors",
    "UnknownOperation": "errors",
    "Evidence": "results",
    "Operation": "results",
    "OperationResult": "results",
    "Value": "results",
}
__all__ = [
    "AmbiguousEntity",
    "ConnectionFailed",
    "Evidence",
    "Footnote",
    "FootnoteError",
    "InvalidArgument",
    "Operation",
    "OperationResult",
    "SourceNotMapped",
    "UnknownEntity",
    "UnknownOperation",
    "Value",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module 'footnote_pg' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"footnote_pg.{module}"), name)
    globals()[name] = value
    return value
