"""Results that fit an agent's context: every tool result at most ``max_result`` bytes, the rest a page away.

A result over the cap (a whole ``ar_aging`` is ~290 KB as sent, with 328 evidence records and their links)
keeps what an agent reads first: the text with the figures and the statement, the values, and the first items
of every list (rows before other lists; the evidence records the figures cite before the others, see
:func:`cited_first`; each figure's first evidence ids; a link per record shown). Each list it shortened is named
in ``structuredContent.omitted`` (path, shown, total and, for a top-level list, ``next``: the URI of its next
page; a nested list's next page is ``footnote://result/{id}/{path}/{shown}``) and in one line of the text.

The whole result stays in the server's memory (the newest ones, up to :data:`KEPT_BYTES`), readable a page at a
time through the resource template ``footnote://result/{id}/{part}/{offset}``: ``id`` the call_id (or the ledger
record_id of an answer, submission or decision), ``part`` the list's path (``evidence``, ``rows``,
``values.invoice_count.evidence``), ``offset`` the first item; each page fits the cap too and names the next.
The size counted is the result as sent: its JSON with every content block, ``structuredContent`` and ``_meta``.
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

from mcp.types import CallToolResult, ContentBlock, ResourceLink, TextContent

from footnote_pg import errors, identity
from footnote_pg.identity import Identity

ENV = "FOOTNOTE_MCP_MAX_RESULT"
DEFAULT_MAX_RESULT = 16_384  # bytes of one tool result or resource page, as sent
MIN_MAX_RESULT = 4_096  # below this the figures and the statement of a large result do not fit
KEPT_BYTES = 64 * 1024 * 1024  # whole results held for paging; the oldest go first
PAGE_ITEMS = 100  # most items of one page (fewer when they do not fit the cap)
RESULT_TEMPLATE = "footnote://result/{id}/{part}/{offset}"
# Items kept, tried in turn until the result fits: (of a list a reader reads first: the rows of figures, claims,
# sentences, findings, citations; of any other list of objects: evidence records, queries, calls; of a list of ids)
STAGES = ((50, 50, 10), (50, 20, 5), (50, 10, 3), (30, 5, 2), (20, 3, 1), (15, 2, 1), (10, 1, 1), (5, 1, 0),
          (3, 0, 0), (1, 0, 0), (0, 0, 0))
FIRST_READ = frozenset({"rows", "claims", "sentences", "findings", "citations", "options"})
SHORT_TEXT = 200  # characters a string keeps when nothing else made the result fit
ENVELOPE = 256  # bytes kept free for what wraps a result on the way (JSON-RPC id, result type)


def parse_max_result(value: str | int, source: str) -> int:
    """A cap in bytes from an option or the environment; anything else is one line naming where it came from."""
    text = str(value).strip().replace("_", "")
    if not (text.isascii() and text.isdigit() and len(text) <= 12):
        raise errors.InvalidArgument(f"invalid argument {source}: {str(value)[:40]!r} is not a number of bytes",
                                     {"argument": source})
    if int(text) < MIN_MAX_RESULT:
        raise errors.InvalidArgument(f"invalid argument {source}: must be at least {MIN_MAX_RESULT:,} bytes "
                                     f"(not {int(text):,})", {"argument": source})
    return int(text)


def max_result_from_env() -> int:
    """``FOOTNOTE_MCP_MAX_RESULT`` in bytes, or the default (16 KB)."""
    value = os.environ.get(ENV)
    return parse_max_result(value, ENV) if value else DEFAULT_MAX_RESULT


def wire_size(result: CallToolResult) -> int:
    """Bytes of the result as the protocol sends it."""
    return len(result.model_dump_json(by_alias=True, exclude_none=True).encode("utf-8"))


def page_uri(key: str, path: str, offset: int) -> str:
    return RESULT_TEMPLATE.format(id=quote(key, safe=""), part=quote(path, safe="._-"), offset=offset)


class Held:
    """Whole results behind cut ones, by call_id or record_id, held up to ``limit`` bytes (then the oldest go).

    Each belongs to the verified user who asked for it (:data:`footnote_pg.identity.current`, a bearer token's
    subject and scope; ``None`` without tokens): to anyone else it is a result never held, as a call made under
    another scope is, in SQL, a call never made."""

    def __init__(self, limit: int = KEPT_BYTES) -> None:
        self.limit = limit
        self._docs: OrderedDict[str, tuple[Any, int, Identity | None]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def keep(self, key: str, doc: Any, size: int) -> None:
        owner = identity.current.get()
        with self._lock:
            if key in self._docs:
                self._bytes -= self._docs.pop(key)[1]
            self._docs[key] = (doc, size, owner)
            self._bytes += size
            while self._bytes > self.limit and len(self._docs) > 1:
                self._bytes -= self._docs.popitem(last=False)[1][1]

    def get(self, key: str) -> Any:
        asking = identity.current.get()
        with self._lock:
            held = self._docs.get(key)
            return None if held is None or held[2] != asking else held[0]


@dataclass(frozen=True)
class Cut:
    """One list a result shortened: where, how many items it shows of how many, and where its next page starts
    (0 for the evidence records when the ones its figures cite were put first)."""

    path: str
    shown: int
    total: int
    resume: int


CITING = ("values", "claims", "citations")  # parts of a result whose items name the evidence records they stand on


def cited_first(doc: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """``doc`` with the evidence records its figures, claims or citations cite before the others, those of the
    figures that stand on fewest records first (a cut keeps the first records: a figure's own record matters more
    than one of hundreds behind a total); whether that changed their order."""
    evidence = doc.get("evidence")
    if not isinstance(evidence, list):
        return doc, False
    cited: dict[str, tuple[int, int]] = {}
    for part in CITING:
        items = doc.get(part)
        for item in items.values() if isinstance(items, dict) else items if isinstance(items, list) else ():
            ids = item.get("evidence") if isinstance(item, dict) else None
            if not isinstance(ids, list):
                continue
            for e in ids:
                if isinstance(e, str):
                    cited[e] = min(cited.get(e, (len(ids), len(cited))), (len(ids), len(cited)))
    last = (len(evidence) + 1, 0)
    ordered = sorted(evidence, key=lambda r: cited.get(str(r.get("id")), last) if isinstance(r, dict) else last)
    return {**doc, "evidence": ordered}, ordered != evidence


def trim(doc: Any, first: int, objects: int, ids: int, short: bool = False, reordered: frozenset[str] = frozenset()
         ) -> tuple[Any, list[Cut]]:
    """``doc`` with its FIRST_READ lists cut to ``first`` items, every other list of objects to ``objects`` and every
    list of ids (scalars) to ``ids``;
    ``short``: strings over SHORT_TEXT characters cut too; ``reordered``: paths of lists not in the whole result's
    order (their next page is the whole list). Returns the copy and what was cut, in document order."""
    cuts: list[Cut] = []

    def walk(value: Any, path: str) -> Any:
        if isinstance(value, dict):
            return {k: walk(v, f"{path}.{k}" if path else str(k)) for k, v in value.items()}
        if isinstance(value, list):
            limit = (first if path in FIRST_READ else objects) if any(isinstance(v, dict | list) for v in value) \
                else ids
            if len(value) > limit:
                cuts.append(Cut(path, limit, len(value), 0 if path in reordered else limit))
            return [walk(v, f"{path}.{n}") for n, v in enumerate(value[:limit])]
        if short and isinstance(value, str) and len(value) > SHORT_TEXT:
            return value[: SHORT_TEXT - 1] + "…"
        return value

    return walk(doc, ""), cuts


def _cut_text(text: str, limit: int) -> str:
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[: max(limit - 40, 0)].decode("utf-8", errors="ignore") + "\n… (text cut to fit the result)"


def _note(key: str, cap: int, whole: int, cuts: list[Cut], links_left: int) -> str:
    top = [c for c in cuts if "." not in c.path]
    nested = len(cuts) - len(top)
    parts = [f"{c.total - c.shown:,} of {c.total:,} {c.path} ({page_uri(key, c.path, c.resume)}"
             f"{' lists them all: the ones the figures cite come first here' if c.resume != c.shown else ''})"
             for c in top]
    if nested:
        parts.append(f"the tail of {nested:,} nested list{'s' if nested != 1 else ''} (e.g. a figure's evidence ids: "
                     f"footnote://result/{quote(key, safe='')}/{{path}}/{{shown}})")
    if links_left:
        parts.append(f"{links_left:,} evidence links (each record is also erp://{{type}}/{{id}})")
    return (f"[Cut to fit {cap:,} bytes (the whole result is {whole:,}). Left out: {'; '.join(parts)}. "
            "Read the rest with resources/read of those URIs (each page names the next); every list cut is in "
            "structuredContent.omitted. Figures and statements above are exact.]")


def _links(links: list[ResourceLink], doc: dict[str, Any], most: int) -> list[ResourceLink]:
    """The links to the evidence records a cut result still shows (in its order), or its first ``most`` links."""
    evidence = doc.get("evidence")
    if not isinstance(evidence, list) or not links:
        return links[:most]
    by_name = {link.name: link for link in links}
    shown = [by_name[r["id"]] for r in evidence if isinstance(r, dict) and r.get("id") in by_name]
    return shown[:most] if shown else links[:most]


def fit(result: CallToolResult, key: str, cap: int, held: Held) -> CallToolResult:
    """``result`` as it is when it fits ``cap`` bytes; otherwise cut as the module says, the whole one held."""
    whole = wire_size(result)
    if whole <= cap - ENVELOPE or not isinstance(result.structured_content, dict):
        return result
    held.keep(key, result.structured_content, whole)
    first = result.content[0] if result.content and isinstance(result.content[0], TextContent) else None
    links = [c for c in result.content if isinstance(c, ResourceLink)]
    others = [c for c in result.content if c is not first and not isinstance(c, ResourceLink)]
    text = first.text if first else ""
    whole_doc, reordered = cited_first(result.structured_content)
    fitted = result
    for n, (first_read, objects, ids) in enumerate(STAGES):
        for short in (False, True) if n == len(STAGES) - 1 else (False,):
            doc, cuts = trim(whole_doc, first_read, objects, ids, short, frozenset({"evidence"} if reordered else ()))
            doc["omitted"] = [{"path": c.path, "shown": c.shown, "total": c.total,
                               **({"next": page_uri(key, c.path, c.resume)} if "." not in c.path else {})}
                              for c in cuts]
            kept = _links(links, doc, objects)
            note = _note(key, cap, whole, cuts, len(links) - len(kept))
            body = _cut_text(text, cap // 2) if first_read <= 10 else text
            content: list[ContentBlock] = [TextContent(type="text", text=f"{body}\n{note}"), *others, *kept]
            meta = {**(result.meta or {}), "omitted": len(cuts)}
            fitted = CallToolResult(content=content, structured_content=doc, is_error=result.is_error, _meta=meta)
            if wire_size(fitted) <= cap - ENVELOPE:
                return fitted
    return fitted


def _quoted(value: Any) -> int:
    """Bytes of ``value`` as JSON inside a JSON string (how a resource's text travels)."""
    return len(json.dumps(json.dumps(value, ensure_ascii=False), ensure_ascii=False).encode("utf-8"))


def page(held: Held, key: str, part: str, offset: int, cap: int) -> dict[str, Any]:
    """Items of a held result's list from ``offset``: as many as fit ``cap`` (at least one, at most PAGE_ITEMS)."""
    doc = held.get(key)
    if doc is None:
        raise errors.UnknownEntity(
            f"no cut result {key[:60]!r} is held by this server (it keeps the newest whole results, up to "
            f"{KEPT_BYTES // 2**20} MB, until it restarts): call the tool again", {"entity": "result", "value": key})
    target: Any = doc
    path = unquote(part)
    for step in path.split("."):
        if isinstance(target, dict) and step in target:
            target = target[step]
        elif isinstance(target, list) and step.isdigit() and int(step) < len(target):
            target = target[int(step)]
        else:
            target = None
            break
    if not isinstance(target, list):
        raise errors.InvalidArgument(f"invalid argument part: {path[:80]!r} is not a list of result {key}",
                                     {"argument": "part"})
    out: dict[str, Any] = {"id": key, "part": path, "offset": offset, "total": len(target), "items": [],
                           "next": None}
    budget = cap - _quoted(out) - 600  # the envelope: the page's own keys, its URI, the next URI
    end = offset
    for item in target[offset: offset + PAGE_ITEMS]:
        size = _quoted(item) + 2
        if end > offset and size > budget:
            break
        budget -= size
        end += 1
    out["items"] = target[offset:end]
    out["next"] = page_uri(key, path, end) if end < len(target) else None
    return out
