"""Typed views of the JSON documents catalog operations return."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

PERIOD_PATTERN = (r"^\s*(\d{4}(-\d{2}|-?[Qq][1-4]|-?[Hh][12])?|[Qq][1-4] \d{4}|[Hh][12] \d{4}|[Ff][Yy] ?\d{4}"
                  r"|\d{4}-\d{2}-\d{2} ?\.\. ?\d{4}-\d{2}-\d{2})\s*$")


@dataclass(frozen=True)
class Value:
    """One figure: its kind, the raw value (text), the formatted text and the evidence behind it."""

    name: str
    kind: str
    raw: str | None
    text: str | None
    evidence: tuple[str, ...]
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def from_json(cls, name: str, doc: dict[str, Any]) -> Value:
        known = {"kind", "raw", "text", "evidence"}
        return cls(
            name=name,
            kind=doc["kind"],
            raw=doc.get("raw"),
            text=doc.get("text"),
            evidence=tuple(doc.get("evidence") or ()),
            extra={k: v for k, v in doc.items() if k not in known},
        )


@dataclass(frozen=True)
class Evidence:
    """A record behind a figure, with the field values it had when it was read."""

    id: str
    type: str
    record_id: str
    uri: str | None
    verified: bool
    fields: dict[str, Any]
    ui_link: str | None = None  # the record in the ERP's own UI (the ui_links setting), beside the deep link

    @classmethod
    def from_json(cls, doc: dict[str, Any], ui_link: str | None = None) -> Evidence:
        return cls(
            id=doc["id"],
            type=doc["type"],
            record_id=doc["record_id"],
            uri=doc.get("uri"),
            verified=bool(doc.get("verified", True)),
            fields=dict(doc.get("fields") or {}),
            ui_link=ui_link or doc.get("ui_link"),
        )

    @property
    def is_set(self) -> bool:
        """True for an evidence set: the rows behind a figure cited by count and digest, too many to inline."""
        return self.type == "evidence_set"

    def describe_set(self) -> str:
        """One line for an evidence set: how many records of which kind, and the start of their digest."""
        rows = int(self.fields.get("rows", 0))
        return (f"{rows:,} {self.fields.get('of', 'record')} record{'s' if rows != 1 else ''} "
                f"(evidence set, digest {str(self.fields.get('digest', ''))[:16]}…)")


@dataclass(frozen=True)
class EvidenceRow:
    """One row of an evidence set, read again: its place in the set, the record, and the text the digest hashes."""

    n: int
    evidence: Evidence
    text: str

    def as_json(self) -> dict[str, Any]:
        """The row as the web API, MCP and ``footnote-pg evidence --json`` give it (``text``: what the digest
        hashes)."""
        e = self.evidence
        return {"n": self.n, "id": e.id, "type": e.type, "uri": e.uri, "verified": e.verified, "fields": e.fields,
                "text": self.text}


def evidence_set_digest(row_texts: Iterable[str]) -> str:
    """The digest of an evidence set from its rows' texts in order (as footnote.evidence_rows gives them):
    SHA-256 (hex) over each row's SHA-256 (hex) followed by a line feed. An independent check of the SQL side."""
    outer = hashlib.sha256()
    for text in row_texts:
        outer.update(hashlib.sha256(text.encode("utf-8")).hexdigest().encode("ascii") + b"\n")
    return outer.hexdigest()


@dataclass(frozen=True)
class OperationResult:
    """What one catalog call returned, exactly as the call log holds it."""

    operation: str
    call_id: str
    arguments: dict[str, Any]
    values: dict[str, Value]
    rows: list[dict[str, Value]]
    evidence: list[Evidence]
    empty_reason: str | None
    queries: list[dict[str, Any]]
    duration_ms: float
    result_hash: str | None
    document: dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> OperationResult:
        return cls(
            operation=doc["operation"],
            call_id=doc["call_id"],
            arguments=dict(doc.get("arguments") or {}),
            values={k: Value.from_json(k, v) for k, v in (doc.get("values") or {}).items()},
            rows=[{k: Value.from_json(k, v) for k, v in row.items()} for row in doc.get("rows") or []],
            evidence=[Evidence.from_json(e, (doc.get("ui_links") or {}).get(e["id"]))
                      for e in doc.get("evidence") or []],
            empty_reason=doc.get("empty_reason"),
            queries=list(doc.get("queries") or []),
            duration_ms=float(doc.get("duration_ms") or 0),
            result_hash=doc.get("result_hash"),
            document=doc,
        )

    def evidence_by_id(self) -> dict[str, Evidence]:
        return {e.id: e for e in self.evidence}


@dataclass(frozen=True)
class Receipt:
    """Where a record landed in the ledger."""

    record_id: str
    seq: int
    recorded_at: Any
    status: str
    prev_hash: str
    hash: str


@dataclass(frozen=True)
class Argument:
    name: str
    type: str
    required: bool
    description: str
    example: str | None


@dataclass(frozen=True)
class Operation:
    """A catalog operation as ``footnote.catalog`` describes it."""

    name: str
    title: str
    description: str
    returns: str
    arguments: tuple[Argument, ...]
    signature: str

    def json_schema(self) -> dict[str, Any]:
        """A JSON Schema of the arguments, for typed tool definitions."""
        properties: dict[str, Any] = {}
        for arg in self.arguments:
            prop: dict[str, Any] = {"description": arg.description}
            if arg.type == "integer":
                prop["type"] = "integer"
            elif arg.type == "date":
                prop.update(type="string", format="date", pattern=r"^\d{4}-\d{2}-\d{2}$")
            elif arg.type == "period":
                prop.update(type="string", pattern=PERIOD_PATTERN)
            else:
                prop.update(type="string", minLength=1, maxLength=200)
            if arg.example is not None:
                prop["examples"] = [int(arg.example) if arg.type == "integer" else arg.example]
            properties[arg.name] = prop
        return {
            "type": "object",
            "properties": properties,
            "required": [a.name for a in self.arguments if a.required],
            "additionalProperties": False,
        }
