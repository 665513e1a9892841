"""footnote-pg: answers about ERP data whose every number is a citation.

The database computes every figure (catalog operations in schema ``footnote``);
this package routes questions, fills templates with the returned strings, and
hands each answer to the gate in PostgreSQL, which records it in the ledger.
"""

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
