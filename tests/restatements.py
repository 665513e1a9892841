"""The restatement corpus (tests/corpus/): real answers restated as assistants write them, labelled.

A corpus file holds answers and their restatements:

    ?? How much does Bergmann Logistik owe?
    == pass figure_first
    43.805,00 € is overdue from Bergmann Logistik GmbH across 4 invoices, ...

    == block direction
    Bergmann Logistik GmbH is owed 43.805,00 € ...

A "pass" text says what the answer says (every figure verbatim), a "block" text says something the answer's
calls do not support. Each text is also graded wrapped in the polite framing of tests/corpus/framing.txt (an
opener, a closer or both, chosen by the text's hash), as assistants wrap what they say. 30 % of the texts,
chosen by a hash of the text before any rule was tuned on them, are held out: their failures are counted,
never listed, while the gate is tuned.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus"
HELD_OUT_PERCENT = 30
FRAMED = 3  # framed variants per text, besides the text itself (opener, closer, both; chosen by its hash)


@dataclass(frozen=True)
class Restatement:
    question: str
    text: str
    cls: str
    harmful: bool
    held_out: bool
    framing: str  # "" for the text as written, else "opener", "closer" or "both"
    source: str  # file:line of the text


def _digest(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def held_out(text: str) -> bool:
    """Whether a text is in the held-out part (fixed by its hash)."""
    return _digest(text) % 100 < HELD_OUT_PERCENT


def framing() -> tuple[list[str], list[str]]:
    openers: list[str] = []
    closers: list[str] = []
    for line in (CORPUS / "framing.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("< "):
            openers.append(line[2:].replace("\\n", "\n"))
        elif line.startswith("> "):
            closers.append(line[2:].replace("\\n", "\n"))
    return openers, closers


def _parse(path: Path) -> list[tuple[str, str, bool, str, int]]:
    """(question, class, harmful, text, line) of every text of a corpus file."""
    out: list[tuple[str, str, bool, str, int]] = []
    question = ""
    head: tuple[str, bool, int] | None = None
    body: list[str] = []

    def flush() -> None:
        nonlocal head, body
        if head is not None:
            text = "\n".join(body).strip("\n")
            assert text, f"{path.name}:{head[2]}: a restatement without text"
            out.append((question, head[0], head[1], text, head[2]))
        head, body = None, []

    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("?? "):
            flush()
            question = line[3:].strip()
        elif line.startswith("== "):
            flush()
            verdict, cls = line[3:].split(None, 1)
            assert verdict in ("pass", "block") and question, f"{path.name}:{n}: {line!r}"
            head = (cls.strip(), verdict == "block", n)
        elif head is not None and (line.strip() or body):
            if not line.strip() and body and not body[-1].strip():
                continue
            body.append(line)
        elif line.startswith("#") or not line.strip():
            continue
    flush()
    # a blank line ends a text unless a table or a list goes on after it: texts are stored without trailing blanks
    return [(q, c, h, t.rstrip(), ln) for q, c, h, t, ln in out]


def load() -> list[Restatement]:
    openers, closers = framing()
    items: list[Restatement] = []
    for path in sorted(CORPUS.glob("restatements_*.txt")):
        for question, cls, harmful, text, line in _parse(path):
            held = held_out(text)
            src = f"{path.name}:{line}"
            items.append(Restatement(question, text, cls, harmful, held, "", src))
            d = _digest(text)
            for k in range(FRAMED):
                o = openers[(d + 7 * k) % len(openers)]
                c = closers[(d // 7 + 5 * k) % len(closers)]
                kind = ("opener", "closer", "both")[k % 3]
                framed = (o + ("" if o.endswith("\n") else " ") if kind != "closer" else "") + text + (
                    c if kind != "opener" else "")
                items.append(Restatement(question, framed, cls, harmful, held, kind, src))
    return items
