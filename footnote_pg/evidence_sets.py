"""Evidence sets offline: write the rows behind a set to a file, and check them against a bundle's records.

A file holds one line naming the call and the set, then each row's text exactly as footnote.evidence_rows gives
it (the jsonb text the digest hashes), in citation order. The check needs no database: it recomputes the digest
from the lines (:func:`footnote_pg.results.evidence_set_digest`) and compares it, and the number of rows, with the
evidence set a record of the bundle cites.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from footnote_pg import errors, ledger
from footnote_pg.results import evidence_set_digest

if TYPE_CHECKING:
    from footnote_pg.client import Footnote

FORMAT = "footnote-pg evidence set 1"
PAGE = 10_000


def write_set(fn: Footnote, call_id: str, evidence_set: str, path: Path) -> int:
    """Write every row of the set the call cites to ``path``; returns how many."""
    count = 0
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write(json.dumps({"format": FORMAT, "call_id": call_id, "evidence_set": evidence_set}) + "\n")
        while page := fn.evidence_rows(call_id, evidence_set, count, PAGE):
            for row in page:
                out.write(row.text + "\n")
            count += len(page)
    return count


@dataclass(frozen=True)
class SetVerdict:
    ok: bool
    evidence_set: str
    rows: int
    digest: str
    seq: int | None  # the first record of the bundle that cites the set
    problem: str | None = None

    def line(self) -> str:
        if self.ok:
            return (f"evidence set {self.evidence_set}: {self.rows:,} rows hash to the digest record #{self.seq} "
                    f"cites ({self.digest[:16]}…)")
        return f"evidence set {self.evidence_set}: {self.problem}"

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "evidence_set": self.evidence_set, "rows": self.rows, "digest": self.digest,
                "seq": self.seq, "problem": self.problem}


def _lines(path: Path) -> tuple[dict[str, Any], Iterator[str]]:
    stream = open(path, encoding="utf-8", newline="\n")  # noqa: SIM115 - closed by the caller's iteration
    try:
        head = json.loads(stream.readline())
    except ValueError:
        stream.close()
        raise errors.FootnoteError(f"{path}: line 1 is not an evidence set file's header") from None
    if not isinstance(head, dict) or head.get("format") != FORMAT or not isinstance(head.get("evidence_set"), str):
        stream.close()
        raise errors.FootnoteError(f"{path}: not a {FORMAT} file")

    def rows() -> Iterator[str]:
        with stream:
            for line in stream:
                yield line[:-1] if line.endswith("\n") else line
    return head, rows()


def verify_set(path: Path, bundle: Path) -> SetVerdict:
    """The rows of an evidence set file against the set a record of the bundle cites."""
    head, rows = _lines(path)
    set_id = head["evidence_set"]
    texts: list[str] = []
    for number, text in enumerate(rows, start=2):
        try:
            row = json.loads(text)
        except ValueError:
            return SetVerdict(False, set_id, len(texts), "", None, f"line {number} is not a row's JSON text")
        if not isinstance(row, dict) or not isinstance(row.get("id"), str):
            return SetVerdict(False, set_id, len(texts), "", None, f"line {number} is not an evidence row")
        texts.append(text)
    digest = evidence_set_digest(texts)
    with ledger.open_bundle(bundle) as (_, lines):
        for line in lines:
            record = json.loads(line)
            evidence = record.get("evidence") or []
            if record.get("version") == 2:  # its evidence rows are the openings of their commitments
                opened = (record.get("parts") or {}).get("evidence") or []
                evidence = [o.get("value") for o in opened if isinstance(o, dict)]
            for e in evidence:
                if isinstance(e, dict) and e.get("id") == set_id:
                    cited = e.get("fields") or {}
                    if cited.get("digest") != digest or str(cited.get("rows")) != str(len(texts)):
                        return SetVerdict(False, set_id, len(texts), digest, record.get("seq"),
                                          f"record #{record.get('seq')} cites {cited.get('rows')} rows with digest "
                                          f"{str(cited.get('digest'))[:16]}…; the file's {len(texts):,} rows hash to "
                                          f"{digest[:16]}…")
                    return SetVerdict(True, set_id, len(texts), digest, record.get("seq"))
    return SetVerdict(False, set_id, len(texts), digest, None, "no record of the bundle cites this set")
