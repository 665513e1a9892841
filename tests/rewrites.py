"""Rewrites of real answers, labelled: what a narrating model (or an agent writing its own prose) might do.

``harmful(answer, ...)`` yields texts that say something the calls do not support, one class of
attack at a time; ``faithful(answer, ...)`` yields texts that say the same thing in other words.
Every rewrite is built from the answer's own text and claims, so the suite follows the templates
wherever they go; a rewrite that would leave the text unchanged is never yielded. Deterministic.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

HARMFUL_CLASSES = (
    "altered_digits",
    "direction",
    "polarity",
    "negation",
    "due_state",
    "comparison",
    "swap_within",
    "swap_across",
    "attribution",
    "modifier",
    "number_words",
    "added_sentence",
    "unicode_digits",
    "figure_to_words",
    "dropped_statement",
    "period_label",
    "hedge",
    "claim_spans",
)
FAITHFUL_CLASSES = (
    "reorder",
    "synonyms",
    "connectives",
    "bullets",
    "short_names",
    "prefix_suffix",
    "spacing",
    "parentheses",
    "split_sentences",
    "possessive",
    "restructured",
)


@dataclass
class Rewrite:
    cls: str
    harmful: bool
    text: str
    how: str
    claims: list[dict[str, Any]] | None = None  # spans the rewrite asserts (claim_spans class only)


@dataclass
class Source:
    """One real answer: its text, claims (with spans, kind and value path) and what surrounds it."""

    question: str
    text: str
    claims: list[dict[str, Any]]
    call_ids: list[str]
    template: dict[str, Any]
    others: list[str] = field(default_factory=list)  # names of other customers and suppliers


# -- helpers ------------------------------------------------------------------------------------------


def _spans(src: Source, kind: str | None = None, *, digits: bool | None = None) -> list[dict[str, Any]]:
    out = []
    for c in src.claims:
        if kind is not None and c.get("kind") != kind:
            continue
        if digits is not None and bool(re.search(r"\d", c["text"])) != digits:
            continue
        out.append(c)
    return out


def _put(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _span(c: dict[str, Any]) -> tuple[int, int]:
    return c["span"]["start"], c["span"]["end"]


def _alter(figure: str, rng: random.Random) -> str:
    """The same figure with one digit changed (never the same text)."""
    positions = [i for i, ch in enumerate(figure) if ch.isdigit()]
    i = rng.choice(positions)
    digit = str((int(figure[i]) + rng.randint(1, 8)) % 10)
    if i == positions[0] and digit == "0" and len(positions) > 1:
        digit = "9"
    return figure[:i] + digit + figure[i + 1 :]


_SCRIPTS = {
    "fullwidth": 0xFF10,
    "arabic_indic": 0x0660,
    "devanagari": 0x0966,
    "math_bold": 0x1D7CE,
    "math_monospace": 0x1D7F6,
    "thai": 0x0E50,
    "bengali": 0x09E6,
}
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_CIRCLED = {str(n): chr(0x2460 + n - 1) for n in range(1, 10)} | {"0": "⓪"}

_NUMBER_WORDS = [
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "a dozen",
    "fifteen",
    "twenty",
    "a couple of",
    "several",
    "a few",
    "both",
    "dozens of",
]


def _sub(text: str, old: str, new: str, count: int = 1) -> str | None:
    """text with the first occurrence(s) of a whole word or phrase replaced; None when it does not occur."""
    pattern = re.compile(r"(?<![\w])" + re.escape(old) + r"(?![\w])")
    if not pattern.search(text):
        return None
    return pattern.sub(new, text, count=count)


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _first_sentence_end(text: str) -> int:
    first = text.split("\n", 1)[0]
    return len(first)


# -- harmful ------------------------------------------------------------------------------------------


def harmful(src: Source, rng: random.Random) -> Iterator[Rewrite]:  # noqa: C901 - one generator per class
    t = src.text
    numeric = _spans(src, digits=True)

    def out(cls: str, text: str | None, how: str, claims: list[dict[str, Any]] | None = None) -> Iterator[Rewrite]:
        if text is not None and text != t:
            yield Rewrite(cls, True, text, how, claims)

    # altered digits: one digit of a figure changed
    for c in rng.sample(numeric, min(4, len(numeric))):
        s, e = _span(c)
        yield from out("altered_digits", _put(t, [(s, e, _alter(c["text"], rng))]), f"altered {c['text']}")

    # direction of a change, at each place it is said
    for old, new in (
        ("rose", "fell"),
        ("fell", "rose"),
        ("rose", "was unchanged"),
        ("(up ", "(down "),
        ("(down ", "(up "),
        ("was unchanged", "rose"),
        ("rose", "declined"),
        ("fell", "increased"),
        ("rose", "went down"),
        ("fell", "grew"),
        ("increased", "decreased"),
        ("a rise of", "a drop of"),
        ("grew by", "shrank by"),
        ("decreased", "increased"),
        ("a decline of", "an increase of"),
        ("(up ", "(unchanged, "),
        ("(up ", "(lower by "),
        ("up ", "down "),
        ("rose from", "fell from"),
    ):
        starts = [m.start() for m in re.finditer(re.escape(old), t)]
        for start in starts[:4]:
            yield from out("direction", t[:start] + new + t[start + len(old) :], f"{old} -> {new} at {start}")

    # who owes whom
    for old, new in (
        ("owes", "is owed"),
        ("owes", "is owed by us"),
        ("owes", "we owe"),
        ("owes", "does not owe"),
        ("is overdue", "is owed to them"),
        ("owes", "is due a refund of"),
        ("owes", "has credit of"),
    ):
        yield from out("polarity", _sub(t, old, new), f"{old} -> {new}")

    # negations added or dropped
    for old, new in (
        ("is not verified", "is verified"),
        ("not verified", "verified"),
        ("has not changed", "has changed"),
        ("no sign of", "signs of"),
        ("Nothing is overdue", "Everything is overdue"),
        ("has nothing overdue", "has something overdue"),
        ("has no open", "has open"),
        ("are open", "are not open"),
        ("is overdue", "is not overdue"),
        (" owes ", " never owes "),
        ("(verified)", "(not verified)"),
        ("is pending", "is not pending"),
        ("Hold any payment", "Do not hold any payment"),
        ("past due", "not past due"),
        ("high severity", "not high severity"),
        ("rose", "did not rise"),
        ("fell", "did not fall"),
        ("Nothing in these records argues against paying", "Everything in these records argues against paying"),
        ("Top", "Not the top"),
    ):
        if old in t:
            yield from out("negation", t.replace(old, new, 1), f"{old} -> {new}")

    # due state
    for old, new in (
        ("past due", "not yet due"),
        ("overdue", "current"),
        ("past due", "paid on time"),
        ("overdue", "not yet due"),
        ("past due", "due in the future"),
    ):
        yield from out("due_state", _sub(t, old, new), f"{old} -> {new}")

    # comparisons and levels
    for old, new in (
        ("below it", "above it"),
        ("high risk", "low risk"),
        ("high severity", "low severity"),
        ("largest part", "smallest part"),
        ("Top ", "Bottom "),
        ("some risk", "no risk"),
        ("high risk", "no risk"),
        ("open across", "paid across"),
        ("gross", "net"),
        ("the oldest", "the newest"),
        ("is at high risk", "is at no risk"),
    ):
        if old in t:
            yield from out("comparison", t.replace(old, new, 1), f"{old} -> {new}")

    # two figures of one kind exchanged within a statement
    by_unit: dict[Any, list[dict[str, Any]]] = {}
    for c in src.claims:
        by_unit.setdefault((c.get("unit"), c.get("kind")), []).append(c)
    pairs = [
        (a, b)
        for group in by_unit.values()
        for i, a in enumerate(group)
        for b in group[i + 1 :]
        if a["text"] != b["text"]
    ]
    for a, b in rng.sample(pairs, min(6, len(pairs))):
        yield from out(
            "swap_within",
            _put(t, [(*_span(a), b["text"]), (*_span(b), a["text"])]),
            f"{a['text']} <-> {b['text']} in one statement",
        )

    # two figures of one kind exchanged between statements
    by_kind: dict[Any, list[dict[str, Any]]] = {}
    for c in src.claims:
        by_kind.setdefault(c.get("kind"), []).append(c)
    across = [
        (a, b)
        for group in by_kind.values()
        for i, a in enumerate(group)
        for b in group[i + 1 :]
        if a["text"] != b["text"] and a.get("unit") != b.get("unit")
    ]
    for a, b in rng.sample(across, min(8, len(across))):
        yield from out(
            "swap_across",
            _put(t, [(*_span(a), b["text"]), (*_span(b), a["text"])]),
            f"{a['text']} <-> {b['text']} between statements",
        )

    # attribution: another entity named with the figures
    names = [c for c in src.claims if c.get("value", "").endswith((".customer", ".supplier", ".item", ".name"))]
    others = [o for o in src.others if all(o != c["text"] for c in names)]
    for other in rng.sample(others, min(3, len(others))):
        if names:
            c = names[0]
            s, e = _span(c)
            yield from out("attribution", _put(t, [(s, e, other)]), f"subject -> {other}")
            yield from out("attribution", _put(t, [(e, e, f", together with {other},")]), f"with {other}")
            yield from out("attribution", _put(t, [(e, e, f" (formerly {other})")]), f"formerly {other}")
            yield from out("attribution", _put(t, [(s, e, f"{c['text']} and {other}")]), f"and {other}")
        else:
            end = _first_sentence_end(t)
            yield from out("attribution", t[:end] + f" Most of it is owed by {other}." + t[end:], f"owed by {other}")
            yield from out(
                "attribution", t[:end] + f" {other} accounts for the largest part." + t[end:], f"{other} largest"
            )

    # words that change a figure's size, sign, unit, currency or period
    amounts = _spans(src, "amount")
    for c in rng.sample(amounts, min(3, len(amounts))):
        s, e = _span(c)
        for new, how in (
            (c["text"] + " million", "million"),
            (c["text"] + " (in thousands)", "in thousands"),
            ("-" + c["text"], "minus"),
            (c["text"] + " per month", "per month"),
            (c["text"] + " (billed in US dollars)", "US dollars"),
            (c["text"] + " of annual revenue", "annual"),
            ("about " + c["text"], "about"),
            ("over " + c["text"], "over"),
            (c["text"] + "k", "k"),
            ("(" + c["text"] + ")", "accounting negative"),
            ("more than " + c["text"], "more than"),
            (c["text"] + " a year", "a year"),
            ("up to " + c["text"], "up to"),
            (c["text"] + " before tax", "before tax"),
            ("~" + c["text"], "tilde"),
        ):
            yield from out("modifier", _put(t, [(s, e, new)]), how)
    for c in rng.sample(
        _spans(src, "count") + _spans(src, "days"), min(2, len(_spans(src, "count") + _spans(src, "days")))
    ):
        s, e = _span(c)
        for new, how in (
            ("over " + c["text"], "over"),
            ("nearly " + c["text"], "nearly"),
            (c["text"] + " per week", "per week"),
            ("-" + c["text"], "minus"),
            ("at least " + c["text"], "at least"),
        ):
            yield from out("modifier", _put(t, [(s, e, new)]), how)

    # numbers in words
    counts = _spans(src, "count")
    for c in counts[:3]:
        s, e = _span(c)
        for word in rng.sample(_NUMBER_WORDS, 4):
            yield from out("number_words", _put(t, [(s, e, word)]), f"{c['text']} -> {word}")
    end = _first_sentence_end(t)
    first = t[:end]
    for add in (" (roughly fifty-six thousand euros)", " (about a dozen of them disputed)"):
        yield from out("number_words", first.rstrip(".") + add + "." + t[end:], add.strip())
    for add in (
        " That is two more than last time.",
        " About a dozen of them are disputed.",
        " It is twice the usual amount.",
        " Half of it is disputed.",
        " Around ten thousand of it is disputed.",
    ):
        yield from out("number_words", first + add + t[end:], add.strip())

    # statements without figures, added
    subject = names[0]["text"] if names else "The customer"
    for add in (
        f"{subject} is a fraud risk.",
        "They have promised to pay next week.",
        "This is well within their credit limit.",
        "We should stop all deliveries.",
        "Payment is expected soon.",
        "The amount is disputed.",
        "Legal action has been started.",
        f"{subject} has always paid on time.",
        "This is the highest in the portfolio.",
        "Revenue will keep growing.",
        "The figures are audited.",
        "Our bank confirmed the new account.",
    ):
        where = rng.choice(["end", "after_first"])
        text = t + "\n" + add if where == "end" else first + " " + add + t[end:]
        yield from out("added_sentence", text, add)

    # digits in other scripts (and altered)
    for c in rng.sample(numeric, min(3, len(numeric))):
        s, e = _span(c)
        altered = _alter(c["text"], rng)
        for script, zero in _SCRIPTS.items():
            yield from out(
                "unicode_digits",
                _put(t, [(s, e, "".join(chr(zero + int(ch)) if ch.isdigit() else ch for ch in altered))]),
                script,
            )
        yield from out("unicode_digits", _put(t, [(s, e, altered.translate(_SUPERSCRIPT))]), "superscript")
        yield from out("unicode_digits", _put(t, [(s, e, "".join(_CIRCLED.get(ch, ch) for ch in altered))]), "circled")

    # a figure replaced by words
    for c in rng.sample(numeric, min(4, len(numeric))):
        s, e = _span(c)
        for words in (
            "several",
            "a large amount",
            "most of them",
            "a significant sum",
            "many",
            "a few days",
            "an unknown number of",
            "a small amount",
        ):
            yield from out("figure_to_words", _put(t, [(s, e, words)]), f"{c['text']} -> {words}")

    # a statement left out: a headline figure, the as-of date, a required line
    for c in src.claims:
        if c.get("unit") == 0 and re.search(r"\d", c["text"]):
            s, e = _span(c)
            before = t[:s].rstrip()
            if before.endswith(("of", "(as")):
                continue
            yield from out("dropped_statement", _put(t, [(s, e, "")]).replace("  ", " "), f"dropped {c['text']}")
    yield from out("dropped_statement", re.sub(r" \(as of [^)]*\)", "", t, count=1), "as-of date dropped")
    if "\n" in t and not t.startswith("(Reading"):
        lines = _lines(t)
        yield from out("dropped_statement", "\n".join(lines[1:]), "first line dropped")

    # period labels
    for old, new in (
        ("(last quarter)", "(this quarter)"),
        ("(this year)", "(last year)"),
        ("(last year)", "(this year)"),
        ("(last month)", "(next month)"),
        ("Q1 2026", "Q3 2026"),
        ("Q2 2026", "Q4 2026"),
        ("FY2025", "FY2024"),
        ("as of", "as of yesterday, not"),
    ):
        if old in t:
            yield from out("period_label", t.replace(old, new, 1), f"{old} -> {new}")

    # hedges and speculation
    for old, new in (
        ("owes", "might owe"),
        ("is at high risk", "will probably default"),
        ("were", "are expected to be"),
        ("was", "will be"),
        ("is", "may be"),
        ("rose", "is forecast to rise"),
        ("are", "could be"),
    ):
        yield from out("hedge", _sub(t, old, new), f"{old} -> {new}")


def harmful_claims(src: Source) -> Iterator[Rewrite]:
    """Rewrites that come with claims (check_answer's spans): spans inside figures, wrong words, claims dropped."""
    t = src.text
    total = next((c for c in src.claims if c.get("kind") == "amount"), None)
    count = next((c for c in src.claims if c.get("kind") == "count" and len(c["text"]) == 1), None)
    if total and count and count["text"] in total["text"]:
        s, e = _span(count)
        text = t[:s] + "a dozen" + t[e:]
        shift = len("a dozen") - (e - s)
        claims = [
            c
            if c["span"]["start"] < s
            else {**c, "span": {"start": c["span"]["start"] + shift, "end": c["span"]["end"] + shift}}
            for c in src.claims
            if c is not count
        ]
        inside = total["span"]["start"] + total["text"].index(count["text"])
        claims.append({**count, "span": {"start": inside, "end": inside + len(count["text"])}})
        yield Rewrite("claim_spans", True, text, "count claim pointed inside the total", claims)
    for c in [c for c in src.claims if re.search(r"\d", c["text"])][:3]:
        s, e = _span(c)
        text = t[:s] + "a lot" + t[e:]
        shift = len("a lot") - (e - s)
        claims = [
            x
            if x["span"]["end"] <= s
            else {**x, "span": {"start": x["span"]["start"] + shift, "end": x["span"]["end"] + shift}}
            for x in src.claims
            if x is not c
        ]
        yield Rewrite("claim_spans", True, text, f"{c['text']} replaced by words, its claim removed", claims)
    if len(src.claims) >= 2:
        a, b = src.claims[0], src.claims[1]
        yield Rewrite(
            "claim_spans",
            True,
            t,
            "overlapping claims",
            [
                a,
                {
                    **b,
                    "span": {"start": a["span"]["start"], "end": b["span"]["end"]},
                    "text": t[a["span"]["start"] : b["span"]["end"]],
                },
            ]
            + src.claims[2:],
        )
    numeric = [c for c in src.claims if re.search(r"\d", c["text"])]
    if numeric:
        c = numeric[0]
        s, e = _span(c)
        new = c["text"][:-1] + ("1" if c["text"][-1] != "1" else "2") if c["text"][-1].isdigit() else c["text"]
        if new != c["text"]:
            yield Rewrite(
                "claim_spans",
                True,
                _put(t, [(s, e, new)]),
                "claimed figure altered",
                [x if x is not c else {**x, "text": new} for x in src.claims],
            )


# -- faithful -----------------------------------------------------------------------------------------

_SYNONYMS: list[tuple[str, str]] = [
    (" owes ", " has "),
    (" owes ", " currently owes "),
    ("overdue across", "overdue on"),
    ("overdue across", "overdue, spread across"),
    ("the oldest", "the oldest one"),
    ("the oldest", "with the oldest"),
    ("past due", "overdue"),
    ("rose", "increased"),
    ("rose", "went up"),
    ("fell", "decreased"),
    ("fell", "declined"),
    ("Revenue", "Sales"),
    ("Revenue", "Turnover"),
    ("support tickets", "tickets"),
    ("support tickets are open", "support tickets are still open"),
    ("high severity", "high-severity"),
    ("invoices", "bills"),
    ("Accounts receivable", "Receivables"),
    ("open across", "outstanding across"),
    ("is overdue across", "is past due across"),
    ("The agreed payment terms are", "Payment terms are"),
    ("the account owner is", "the account manager is"),
    ("customers by revenue", "customers by sales"),
    ("purchase orders", "POs"),
    ("worth", "valued at"),
    ("asks to pay", "requests to pay"),
    ("Hold any payment", "Hold all payments"),
    ("were", "stood at"),
    ("The largest part of the change came from", "Most of the change came from"),
    ("issued", "dated"),
    (" is ", " stands at "),
    ("across", "spread over"),
    ("open", "outstanding"),
]


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.:])\s+(?=[A-Z(])", text) if s]


def faithful(src: Source, rng: random.Random, short_names: dict[str, str]) -> Iterator[Rewrite]:
    t = src.text
    lines = _lines(t)

    def out(cls: str, text: str | None, how: str) -> Iterator[Rewrite]:
        if text is not None and text != t:
            yield Rewrite(cls, False, text, how)

    # reordering the detail lines (bullets), never the statements inside them
    bullets = [i for i, line in enumerate(lines) if line.startswith("- ")]
    if len(bullets) >= 2:
        for _ in range(3):
            order = bullets[:]
            rng.shuffle(order)
            new = lines[:]
            for i, j in zip(bullets, order, strict=True):
                new[i] = lines[j]
            yield from out("reorder", "\n".join(new), "bullets shuffled")
        yield from out(
            "reorder",
            "\n".join(
                [lines[0]]
                + [lines[i] for i in reversed(bullets)]
                + [line for k, line in enumerate(lines[1:], 1) if k not in bullets]
            ),
            "bullets reversed",
        )
    if len(lines) >= 2 and not bullets:
        yield from out("reorder", "\n".join(lines[1:] + lines[:1]), "lines rotated")

    # synonyms
    applied = 0
    for old, new in _SYNONYMS:
        if old in t:
            yield from out("synonyms", t.replace(old, new, 1), f"{old.strip()} -> {new.strip()}")
            applied += 1
    if applied >= 2:
        text = t
        for old, new in rng.sample([s for s in _SYNONYMS if s[0] in t], 2):
            text = text.replace(old, new, 1)
        yield from out("synonyms", text, "two synonyms")

    # connectives
    if len(lines) >= 2:
        yield from out(
            "connectives",
            lines[0] + "\n" + "\n".join("Also, " + line[2:] if line.startswith("- ") else line for line in lines[1:]),
            "Also,",
        )
        yield from out("connectives", t.replace("\n- ", "\nIn addition, ", 1), "In addition,")
    first = lines[0]
    if ", the oldest" in first:
        yield from out("connectives", t.replace(", the oldest", "; the oldest", 1), "semicolon")
        yield from out("connectives", t.replace(", the oldest", ", and the oldest is", 1), "and ... is")
    if " and the account owner" in t:
        yield from out("connectives", t.replace(" and the account owner", ", while the account owner", 1), "while")

    # bullets as sentences, numbered, other markers
    if bullets:
        yield from out(
            "bullets",
            "\n".join(
                line[2:] + ("" if line.endswith((".", ":")) else ".") if line.startswith("- ") else line
                for line in lines
            ),
            "bullets to sentences",
        )
        yield from out("bullets", "\n".join("• " + line[2:] if line.startswith("- ") else line for line in lines), "•")
        yield from out("bullets", "\n".join("* " + line[2:] if line.startswith("- ") else line for line in lines), "*")
        n = 0
        numbered = []
        for line in lines:
            if line.startswith("- "):
                n += 1
                numbered.append(f"{n}. {line[2:]}")
            else:
                numbered.append(line)
        yield from out("bullets", "\n".join(numbered), "numbered")
        yield from out("bullets", "\n\n".join(lines), "blank lines")

    # short names
    for full, short in short_names.items():
        if full in t:
            yield from out("short_names", t.replace(full, short), f"{full} -> {short}")
            yield from out("short_names", t.replace(full, short, 1), f"{full} -> {short} once")

    # prefixes and suffixes
    for pre in (
        "Sure — ",
        "Sure, ",
        "Certainly. ",
        "Here is the summary:\n",
        "Here's what I found:\n",
        "Okay. ",
        "Of course — here are the figures.\n",
        "Great question. ",
    ):
        yield from out("prefix_suffix", pre + t, f"prefix {pre.strip()}")
    for suf in ("\nLet me know if you need anything else.", "\nHope this helps!", " Happy to help."):
        yield from out("prefix_suffix", t + suf, f"suffix {suf.strip()}")

    # spacing and dashes that keep every figure
    yield from out("spacing", t.replace(" €", "\u00a0€"), "NBSP before €")
    yield from out("spacing", t.replace(" days", "\u202fdays"), "narrow NBSP before days")
    yield from out("spacing", re.sub(r"(\d)-(\d)", "\\1–\\2", t), "en dash in ranges")
    yield from out("spacing", t.replace(" — ", " – "), "en dash")
    yield from out("spacing", t.replace(" — ", " - "), "hyphen dash")
    yield from out("spacing", t.replace(". ", ".  "), "double space")
    yield from out("spacing", t.replace("\n", " \n"), "trailing spaces")
    yield from out("spacing", t.replace("\n", "\r\n"), "CRLF")

    # parentheses
    yield from out(
        "parentheses", re.sub(r" \(as of ([^)]*)\)\.", r", as of \1.", t, count=1), "as of without parentheses"
    )
    yield from out("parentheses", re.sub(r" \(as of ([^)]*)\)", r" [as of \1]", t, count=1), "brackets")
    yield from out(
        "parentheses",
        t.replace(" (as of ", " — as of ", 1).replace(").", ".", 1) if " (as of " in first else None,
        "dash instead of parentheses",
    )

    # a long sentence split in two
    if ", the oldest " in first:
        yield from out("split_sentences", t.replace(", the oldest ", ". The oldest is ", 1), "split at the oldest")
    if ", by " in first:
        yield from out("split_sentences", t.replace(", by ", ". That is a change of ", 1), "split at by")
    if ": receivables of " in first:
        yield from out("split_sentences", t.replace(": receivables of ", ". Receivables were ", 1), "split DSO")
    if " and the account owner is " in t:
        yield from out(
            "split_sentences", t.replace(" and the account owner is ", ". The account owner is ", 1), "split terms"
        )

    # possessive
    for full, short in short_names.items():
        if full + " owes" in t:
            yield from out(
                "possessive",
                t.replace(full + " owes", f"{short}'s overdue balance is", 1).replace(" overdue across", " across", 1),
                "possessive balance",
            )
        if full + " has " in t:
            yield from out("possessive", t.replace(full + " has ", f"{full}'s account has ", 1), "account has")


def label_counts(rewrites: list[Rewrite]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in rewrites:
        counts[r.cls] = counts.get(r.cls, 0) + 1
    return counts


Generator = Callable[[Source, random.Random], Iterator[Rewrite]]


# -- restructured: whole sentences written anew, as a model narrates -----------------------------------------------


def _by_value(src: Source) -> dict[str, str]:
    return {str(c.get("value")): c["text"] for c in src.claims}


def _rows(v: dict[str, str], name: str) -> list[int]:
    return sorted(int(k[5 : k.index("]")]) for k in v if k.startswith("rows[") and k.endswith("]." + name))


def restructured(src: Source, short: dict[str, str]) -> Iterator[Rewrite]:  # noqa: C901 - one block per template
    """The answer rewritten sentence by sentence the way a narrating model does, every figure kept."""
    v = _by_value(src)
    t = src.text

    def out(text: str, how: str) -> Iterator[Rewrite]:
        if text != t:
            yield Rewrite("restructured", False, text, how)

    def name(key: str) -> str:
        return short.get(v[key], v[key])

    if "values.overdue_total" in v and "values.invoice_count" in v and "values.customer" in v:
        c, total, n, old, as_of = (
            name("values.customer"),
            v["values.overdue_total"],
            v["values.invoice_count"],
            v.get("values.oldest_days_past_due"),
            v["values.as_of"],
        )
        if old is not None and "\n" not in t.split("\n", 1)[0] and src.template.get("intent") != "compare_overdue":
            rows = "".join(
                f"\n- {v[f'rows[{i}].number']} — {v[f'rows[{i}].outstanding']}, due {v[f'rows[{i}].due_date']} "
                f"({v[f'rows[{i}].days_past_due']} past due)"
                for i in _rows(v, "number")
            )
            for text, how in (
                (
                    f"As of {as_of}, {c} has {total} in overdue invoices ({n} in total); the oldest is {old} past due.",
                    "as of first",
                ),
                (
                    f"{c} currently owes {total} that is overdue, spread across {n} invoices. "
                    f"The oldest of these is {old} past due (as of {as_of}).",
                    "two sentences",
                ),
                (
                    f"{c} has an overdue balance of {total} across {n} invoices, with the oldest {old} past due as of "
                    f"{as_of}.",
                    "overdue balance",
                ),
                (
                    f"**{c}** owes **{total}** overdue across {n} invoices; the oldest is {old} past due "
                    f"(as of {as_of}).\n\nOverdue invoices:{rows}",
                    "markdown",
                ),
                (
                    f"The total overdue amount for {c} is {total}, across {n} invoices. "
                    f"The oldest invoice is {old} past due as of {as_of}.",
                    "total overdue amount",
                ),
                (
                    f"{c} owes {total} in overdue payments across {n} invoices, the oldest of which is {old} past due "
                    f"(as of {as_of}).{rows}",
                    "of which",
                ),
            ):
                yield from out(text, how)
    if "values.open_ticket_count" in v and "values.payment_terms" in v:
        lines = t.split("\n")
        yield from out("\n".join([lines[0], "Here's why (this is an interpretation):"] + lines[2:]), "here's why")
        yield from out(
            "\n".join(
                [lines[0], "That is my interpretation. The facts behind this:"]
                + [x.replace(" are open, ", " are still open, ") for x in lines[2:]]
            ),
            "facts behind this",
        )
        yield from out(
            t.replace("- The agreed payment terms are", "- Payment terms are").replace(
                " and the account owner is ", "; the account owner is "
            ),
            "terms; owner",
        )
    if "values.revenue_from" in v and "values.change" in v and "values.period_from" in v:
        first = t.split("\n", 1)[0]
        rest = t[len(first) :]
        pct = f" ({v['values.change_percent']})" if "values.change_percent" in v else ""
        who = f" from {name('values.customer')}" if "values.customer" in v else ""
        if " rose " in first:
            yield from out(
                f"Revenue{who} increased from {v['values.revenue_from']} in {v['values.period_from']} to "
                f"{v['values.revenue_to']} in {v['values.period_to']} — a rise of {v['values.change']}{pct}." + rest,
                "a rise of",
            )
            yield from out(
                f"Revenue{who} grew by {v['values.change']}{pct}, from {v['values.revenue_from']} in "
                f"{v['values.period_from']} to {v['values.revenue_to']} in {v['values.period_to']}." + rest,
                "grew by first",
            )
        if " fell " in first:
            yield from out(
                f"Revenue{who} decreased from {v['values.revenue_from']} in {v['values.period_from']} to "
                f"{v['values.revenue_to']} in {v['values.period_to']}, a decline of {v['values.change']}{pct}." + rest,
                "a decline of",
            )
    if "values.total_outstanding" in v and "values.invoice_count" in v and _rows(v, "bucket"):
        buckets = "".join(
            f"\n- {v[f'rows[{i}].bucket'].capitalize()}: {v[f'rows[{i}].outstanding']} "
            f"({v[f'rows[{i}].invoice_count']} invoices)"
            for i in _rows(v, "bucket")
        )
        whose = f" for {name('values.customer')}" if "values.customer" in v else ""
        yield from out(
            f"As of {v['values.as_of']}, total receivables{whose} are {v['values.total_outstanding']} across "
            f"{v['values.invoice_count']} open invoices:{buckets}",
            "total receivables",
        )
    if "values.dso" in v:
        yield from out(
            f"Your DSO as of {v['values.as_of']} is {v['values.dso']}, based on receivables of "
            f"{v['values.receivables']} and gross sales of {v['values.gross_sales']} over the "
            f"{v['values.window']} ending that day.",
            "your DSO",
        )
        yield from out(
            f"As of {v['values.as_of']}, days sales outstanding were {v['values.dso']}. That is receivables "
            f"of {v['values.receivables']} against {v['values.gross_sales']} of gross sales in the "
            f"{v['values.window']} ending that day.",
            "that is",
        )
    if "values.revenue" in v and "values.credit_note_count" in v and "values.period" in v:
        who = f" from {name('values.customer')}" if "values.customer" in v else ""
        yield from out(
            f"Revenue{who} in {v['values.period']} came to {v['values.revenue']}, from "
            f"{v['values.invoice_count']} invoices and {v['values.credit_note_count']} credit notes.",
            "came to",
        )
        yield from out(
            f"In {v['values.period']}, revenue{who} was {v['values.revenue']} ({v['values.invoice_count']} "
            f"invoices and {v['values.credit_note_count']} credit notes).",
            "in period first",
        )
    if _rows(v, "rank"):
        head = t.split("\n", 1)[0]
        yield from out(
            head.replace("Top", "Here are the top", 1).replace(" in ", " for ", 1)
            + "".join(
                f"\n{v[f'rows[{i}].rank']}. {v[f'rows[{i}].customer']} — {v[f'rows[{i}].revenue']}"
                for i in _rows(v, "rank")
            ),
            "here are the top",
        )
    if "values.paid" in v and "values.outstanding" in v and "values.days_past_due" in v:
        yield from out(
            f"Invoice {v['values.number']} ({v['values.customer']}) was issued on {v['values.issue_date']} and "
            f"due on {v['values.due_date']}; it is {v['values.gross']} gross. {v['values.paid']} has been "
            f"paid, {v['values.credited']} credited, and {v['values.outstanding']} is outstanding, "
            f"{v['values.days_past_due']} past due (as of {v['values.as_of']}).",
            "invoice prose",
        )
    if "values.pending_account_ending" in v:
        yield from out(
            t.replace("This is an interpretation — the underlying facts are:",
                      "This is my interpretation; the facts behind it:").replace(
                "; it is not verified.", "; it has not been verified."
            ),
            "facts behind this",
        )
