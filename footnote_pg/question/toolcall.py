"""Requests in the style of a tool call, read as the English question that asks the same (tools.toml).

``read_call(text)`` recognises an operation and its arguments written the way agents and people used to
command lines type them: ``ar_aging as_of=2026-06-30``, ``revenue(period: Q2-2026)``, ``{"op": "dso",
"as_of": "2026-06-30"}``, ``get_stock SKU-10001``, ``overdue --customer Steiner``. An operation named by
its catalog name or one of its other names is rewritten into the question its ``ask`` line gives, so names,
periods and days are read by the same rules as any question. An argument key the operation does not take is
asked back, naming the keys it takes. A request whose name is no operation is read as words ("delete_invoice"
-> "delete invoice"), and then refused or answered as such.
"""

from __future__ import annotations

import json
import re
import shlex
import tomllib
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_DATA = tomllib.loads((Path(__file__).with_name("tools.toml")).read_text(encoding="utf-8"))
_KEYS: dict[str, str] = dict(_DATA["keys"])
_GENERIC: dict[str, str] = dict(_DATA["generic"])
_PREFIX = re.compile(r"^(?:get|list|show|fetch|query|read|find|lookup|run|call)_(?=\w)")
_SLOT = re.compile(r"\{(\w+)\}")
_OPTIONAL = re.compile(r"\[([^\[\]]*)\]")


@dataclass(frozen=True)
class Operation:
    name: str
    ask: str
    keys: tuple[str, ...]
    positional: str | None
    values: dict[str, str]
    defaults: dict[str, str]


def _operation(name: str, entry: dict[str, Any]) -> Operation:
    return Operation(name, entry["ask"], tuple(_SLOT.findall(entry["ask"])), entry.get("positional"),
                     dict(entry.get("values", {})), dict(entry.get("defaults", {})))


OPERATIONS: dict[str, Operation] = {name: _operation(name, e) for name, e in _DATA["operations"].items()}
_NAMES: dict[str, Operation] = {}
for _op in OPERATIONS.values():
    for _name in _DATA["operations"][_op.name].get("names", "").split():
        _NAMES.setdefault(_name, _op)
for _op in OPERATIONS.values():
    _NAMES[_op.name] = _op          # a catalog name always means its own operation
_BY_NAME: dict[str, dict[str, str]] = {n: dict(a) for e in _DATA["operations"].values()
                                       for n, a in e.get("by_name", {}).items()}


@dataclass(frozen=True)
class Call:
    """A request read as a tool call: the operation (None: a name that is no operation), its arguments, and
    what was given without a key."""

    head: str
    operation: Operation | None
    arguments: dict[str, str]
    free: str


_CUE = re.compile(r"[=({]|--|^\s*(?:call|run|invoke|exec|execute)\s+\w|\b[a-z]+_[a-z_]+\b|^\s*\w+\s*:\s*\S|^\s*/|(?-i:\b[a-z]+[A-Z]\w*\b)",
                  re.IGNORECASE)
_JSON = re.compile(r"^\s*\{.*\}\s*$", re.DOTALL)
_FUNCTION = re.compile(r"^\s*(?:(?:call|run|invoke|use|exec|execute)\s+|tool\s*:\s*)?([A-Za-z][\w.-]*)\s*\((.*)\)\s*;?\s*$",
                       re.DOTALL | re.IGNORECASE)
_COMMAND = re.compile(r"^\s*(?:(?:call|run|invoke|use|exec|execute)\s+|tool\s*:\s*)?/?([A-Za-z][\w-]*):?(?=\s|$)(.*)$",
                      re.DOTALL | re.IGNORECASE)
_VERB = re.compile(r"^\s*(?:(?:call|run|invoke|use|exec|execute)\s+|tool\s*:\s*)", re.IGNORECASE)
# An operation's name inside a question ("use the ar_aging tool for X"): read as its words.
_NAMED = re.compile(r"\b[A-Za-z]+_[A-Za-z_]+\b")
_PAIR = re.compile(r"""\s*([A-Za-z][\w-]*)\s*[=:]\s*("[^"]*"|'[^']*'|[^,]*?)\s*(?:,|$)""")
_KEY_TOKEN = re.compile(r"^(?:--([A-Za-z][\w-]*)(?:=(.*))?|([A-Za-z][\w-]*)=(.*)|([A-Za-z][\w-]*):)$", re.DOTALL)
_OP_KEYS = ("op", "tool", "operation", "name", "function", "method", "action", "call", "tool_name", "function_name",
            "endpoint", "intent", "query", "question", "request", "task", "prompt", "recipient_name", "tool_id")
_ARG_KEYS = ("arguments", "args", "params", "parameters", "input", "action_input", "tool_input", "kwargs")
_ENVELOPE = ("type", "id", "call_id", "tool_call_id", "index", "jsonrpc")


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _snake(name: str) -> str:
    """``getArAging`` -> ``get_ar_aging``, ``ar-aging`` -> ``ar_aging``."""
    return _CAMEL.sub("_", name).casefold().replace("-", "_").replace(".", "_")


def _lookup(head: str) -> Operation | None:
    name = _snake(head.rsplit(".", 1)[-1])          # tools.customer_overdue, api.getRevenue: the last part
    return _NAMES.get(name) or _NAMES.get(_PREFIX.sub("", name))


def _value(v: Any) -> str:
    return str(v).strip().strip(" ,;'\"").strip()


def _key(k: str) -> str:
    k = _snake(k)
    return _KEYS.get(k, k)


def _from_json(text: str) -> Call | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    data = {str(k).casefold(): v for k, v in data.items()}
    if isinstance(data.get("params"), dict) and isinstance(data["params"].get("name"), str) \
            and str(data.get("method", "")).casefold() in ("tools/call", "call_tool", "tool_call", "call"):
        data = {str(k).casefold(): v for k, v in data["params"].items()}     # an MCP request: tools/call
    calls = data.get("tool_calls") or data.get("toolcalls") or data.get("calls")
    if isinstance(calls, list) and len(calls) == 1 and isinstance(calls[0], dict):   # {"tool_calls": [{...}]}
        data = {str(k).casefold(): v for k, v in calls[0].items()}
    for wrapper in ("function", "functioncall", "function_call", "tool_call", "toolcall", "tool_use"):
        if isinstance(data.get(wrapper), dict):      # {"function": {"name": ..., "arguments": "{...}"}}
            data = {str(k).casefold(): v for k, v in data[wrapper].items()}
            break
    for k in _ENVELOPE:                             # {"type": "tool_use", "id": ..., "name": ..., "input": {...}}
        if k in data and not isinstance(data[k], dict) and any(a in data for a in _ARG_KEYS):
            del data[k]
    for k in _ARG_KEYS:
        if isinstance(data.get(k), str) and data[k].lstrip().startswith("{"):
            try:
                data = {**data, k: json.loads(data[k])}
            except ValueError:
                return None
    head = next((str(data[k]) for k in _OP_KEYS if isinstance(data.get(k), str)), None)
    if head is None:
        return None
    args: dict[str, str] = {}
    for k, v in data.items():
        if k in _OP_KEYS and str(v) == head:
            continue
        if k in _ARG_KEYS and isinstance(v, dict):
            args.update({_key(str(a)): _value(b) for a, b in v.items()})
        else:
            args[_key(str(k))] = _value(v)
    return _call(head, args, "")


def _call(head: str, args: dict[str, str], free: str) -> Call:
    op = _lookup(head)
    return Call(head, op, _composed(op, args) if op is not None else args, free)


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_PARTS = ("year", "fiscal_year", "fy", "quarter", "month", "week", "calendar_week", "kw", "half", "half_year")
_STARTS = ("period_from", "start", "start_date", "from_date", "date_from", "since", "begin", "begin_date", "von")
_ENDS = ("period_to", "end", "end_date", "to_date", "date_to", "until", "till", "bis")


def _composed(op: Operation, args: dict[str, str]) -> dict[str, str]:
    """Arguments of a period given in parts ("quarter": "Q2", "year": 2026; "start_date" and "end_date";
    "fiscal_year": 2025) as the one period the operation takes, written as a question would name it."""
    if "period" not in op.keys or "period" in args:
        return args
    out = dict(args)
    parts = {k: out.pop(k) for k in _PARTS if k in out and out[k]}
    start = next((out.pop(k) for k in _STARTS if k in out and "period_from" not in op.keys), None)
    end = next((out.pop(k) for k in _ENDS if k in out and "period_to" not in op.keys), None)
    words: list[str] = []
    year = parts.get("year") or ""
    if fy := parts.get("fiscal_year") or parts.get("fy"):
        words.append(f"FY{fy}" if fy.isdigit() else fy)
    if quarter := parts.get("quarter"):
        words.append(f"Q{quarter}" if quarter.isdigit() else quarter)
    if half := parts.get("half") or parts.get("half_year"):
        words.append(f"H{half}" if half.isdigit() else half)
    if month := parts.get("month"):
        words.append(_MONTHS[int(month) - 1] if month.isdigit() and 1 <= int(month) <= 12 else month)
    if week := parts.get("week") or parts.get("calendar_week") or parts.get("kw"):
        words.append(f"calendar week {week}/{year}" if year else f"calendar week {week}")
        year = ""
    if year and not (words and any(c.isdigit() for c in words[-1][-4:]) and not words[-1].startswith("Q")
                     and not words[-1].startswith("H")):
        words.append(year)
    if start and end:
        words.append(f"from {start} to {end}")
    elif start:
        words.append(f"since {start}")
    elif end:
        words.append(f"until {end}")
    if not words:
        return args
    out["period"] = " ".join(words)
    return out


_INVOKER = frozenset({"call", "call_tool", "calltool", "invoke", "run", "run_tool", "execute", "exec", "tool", "use"})
_FIRST_NAME = re.compile(r"""^\s*(?:name\s*=\s*)?["']([A-Za-z][\w.-]*)["']\s*(?:,\s*|$)""")


_PY_DATE = re.compile(r"\b(?:datetime\.)?date\(\s*(\d{4})\s*,\s*(\d{1,2})\s*,\s*(\d{1,2})\s*\)")
_POSITIONAL = re.compile(r"""\s*("[^"]*"|'[^']*'|[^,]+?)\s*(?:,|$)""")
_DAY_VALUE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_PERIOD_VALUE = re.compile(r"^(?:fy\s*\d{2,4}|\d{4}(?:-(?:q[1-4]|h[12]|\d{2}))?|q[1-4](?:[\s/-]\d{2,4})?|h[12](?:[\s/-]\d{2,4})?"
                           r"|ytd|mtd|qtd|\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2})$", re.IGNORECASE)


def _positional(op: Operation, values: list[str]) -> dict[str, str] | None:
    """Several values given without keys ("top_customers('FY2025', 10, 'asc')"), each assigned to the one key its kind
    fits (a period, a day, a count, a direction, a value the operation names), the rest to its positional key; None
    when a value fits no key or two values fit the same one."""
    args: dict[str, str] = {}
    for v in values:
        low = v.casefold()
        if low in ("asc", "desc", "ascending", "descending") and "direction" in op.keys:
            key = "direction"
            v = low[:3] if low.startswith("asc") else "desc"
        elif "measure" in op.keys and low in op.values:
            key = "measure"
        elif v.isdigit() and len(v) <= 3 and "limit" in op.keys:
            key = "limit"
        elif _DAY_VALUE.match(v) and "as_of" in op.keys:
            key = "as_of"
        elif _PERIOD_VALUE.match(v) and "period" in op.keys:
            key = "period"
        elif _PERIOD_VALUE.match(v) and "period_from" in op.keys:      # revenue_change("2026-Q1", "2026-Q2")
            key = "period_to" if "period_from" in args else "period_from"
        elif op.positional:
            key = op.positional
        else:
            return None
        if key in args:
            return None
        args[key] = v
    return args


def _from_function(m: re.Match[str]) -> Call:
    head, body = m.group(1), _PY_DATE.sub(lambda d: f"{d.group(1)}-{int(d.group(2)):02d}-{int(d.group(3)):02d}",
                                          m.group(2).strip())
    first = _FIRST_NAME.match(body)
    if first and _snake(head.rsplit(".", 1)[-1]) in _INVOKER:   # fn.call("customer_overdue", customer="Roux")
        head, body = first.group(1), body[first.end():].strip()
    if body.startswith("{") and body.endswith("}"):      # getRevenue({period: 'QTD'}): an object of arguments
        try:
            data = json.loads(body)
        except ValueError:
            data = None
        if isinstance(data, dict):
            return _call(head, {_key(str(k)): _value(v) for k, v in data.items()}, "")
        body = body[1:-1].strip()
    args: dict[str, str] = {}
    free = ""
    op = _lookup(head)
    values = [_value(v.group(1)) for v in _POSITIONAL.finditer(body) if v.group(1).strip()]
    if body and not re.match(r"^\s*[A-Za-z][\w-]*\s*[=:]", body) and op is not None and len(values) > 1 \
            and (typed := _positional(op, values)) is not None:
        return _call(head, typed, "")               # top_customers('FY2025', 10, 'asc')
    if body and not re.match(r"^\s*[A-Za-z][\w-]*\s*[=:]", body):
        free = _value(body)                       # get_stock("SKU-10001")
    else:
        for pair in _PAIR.finditer(body):
            if pair.group(1):
                args[_key(pair.group(1))] = _value(pair.group(2))
    return _call(head, args, free)


def _from_command(head: str, rest: str) -> Call | None:
    try:
        tokens = shlex.split(rest)
    except ValueError:
        tokens = rest.split()
    args: dict[str, str] = {}
    free: list[str] = []
    key: str | None = None
    op = _lookup(head)
    for i, token in enumerate(tokens):
        m = _KEY_TOKEN.match(token)
        if m and (m.group(1) or m.group(3) or m.group(5)):
            key = _key(m.group(1) or m.group(3) or m.group(5))
            value = m.group(2) if m.group(1) else m.group(4)
            args[key] = _value(value) if value else ""
            continue
        if op is not None and i + 1 < len(tokens) and token.casefold() in op.keys:   # "limit 3 period FY2025"
            key = token.casefold()
            args[key] = ""
            continue
        if key is None:
            free.append(token)
        else:
            args[key] = f"{args[key]} {token}".strip()
    if not args and "_" not in _snake(head):
        return None
    return _call(head, args, " ".join(free))


_WRAPPER = re.compile(r"^\s*(?:```\w*\s*|<(?:tool_calls?|function_calls?|tool|call)>\s*)(.*?)\s*(?:```|</(?:tool_calls?|function_calls?|tool|call)>)\s*$",
                      re.DOTALL | re.IGNORECASE)
_CALL_PREFIX = re.compile(r"^\s*(?:tools/call|tool_call|call_tool|function_call)\s*:?\s+(?=[A-Za-z])", re.IGNORECASE)
_NAMED_JSON = re.compile(r"^\s*([A-Za-z][\w.-]*)\s*:?\s+(\{.*\})\s*$", re.DOTALL)
_REACT = re.compile(r"^\s*(?:thought\s*:.*?\n\s*)?action\s*:\s*([A-Za-z][\w.-]*)\s*\n\s*action[\s_]+input\s*:\s*(.*)$",
                    re.DOTALL | re.IGNORECASE)


_REST = re.compile(r"^\s*(?:GET|POST)\s+(?:https?://[^/\s]+)?/(?:api/)?(?:v\d+/)?(?:tools?/|operations?/|functions?/)?"
                   r"([A-Za-z][\w-]*)/?(?:\?(\S*))?\s*(\{.*\})?\s*$", re.IGNORECASE | re.DOTALL)
_YAML_LINE = re.compile(r"^\s*([A-Za-z][\w-]*)\s*:\s*(.+?)\s*$")
_YAML_HEAD = re.compile(r"^\s*([A-Za-z][\w-]*)\s*:\s*$")
_CURL = re.compile(r"""^\s*curl(?:\s+-[A-Za-z]+(?:\s+(?:GET|POST))?)*\s+(?:'(https?://[^'\s]+)'|"?(https?://[^"\s]+)"?)"""
                   r"""(?:\s+(?:-d|--data(?:-raw)?|--json)\s+(?:'(\{.*\})'|(\{.*\})))?\s*$""", re.DOTALL | re.IGNORECASE)
_KEY_VALUES = re.compile(r"^\s*[A-Za-z][\w-]*=\S.*$")
_XML_INVOKE = re.compile(r"^\s*<(invoke|tool_use|tool_call|function_call|function|tool|call)\s+(?:name|op|tool|operation)=[\"']([\w.-]+)[\"']\s*>(.*)"
                         r"</\1>\s*$", re.DOTALL | re.IGNORECASE)
_XML_PARAMETER = re.compile(r"<parameter\s+name=[\"']([\w.-]+)[\"']\s*>(.*?)</parameter>|<([A-Za-z][\w-]*)>([^<]*)</\3>",
                            re.DOTALL | re.IGNORECASE)
_SQL_CALL = re.compile(r"^\s*select\s+(?:\*\s+from\s+)?(?:footnote\.)?([a-z_]+)\s*\((.*)\)\s*;?\s*$", re.DOTALL | re.IGNORECASE)
_ASK = re.compile(r"^\s*footnote(?:-pg|_pg)?\s+ask\s+([\"'])(.+)\1\s*$", re.DOTALL | re.IGNORECASE)
_OUR_CLI = re.compile(r"^\s*footnote(?:-pg|_pg)?\s+(?:call|run|ask)?\s*(?=[A-Za-z])", re.IGNORECASE)


def _structured(text: str) -> str | None:
    """A REST path, YAML lines or an XML invoke as the JSON object of the same request, or None."""
    if (m := _REST.match(text)) is not None:         # GET /api/revenue?period=2026-Q1&customer=Lindqvist
        args: dict[str, Any] = dict(urllib.parse.parse_qsl(m.group(2) or ""))
        if m.group(3):                               # POST /tools/revenue {"period": "2026-Q1"}: the body's arguments
            try:
                body = json.loads(m.group(3))
            except ValueError:
                return None
            if not isinstance(body, dict):
                return None
            args.update(body.get("arguments", body) if isinstance(body.get("arguments", body), dict) else body)
        return json.dumps({"op": m.group(1), "arguments": args})
    if (m := _XML_INVOKE.match(text)) is not None:   # <invoke name="..."><parameter name="...">...</parameter>
        return json.dumps({"op": m.group(2), "arguments": {(a or c): (b or d).strip()
                                                            for a, b, c, d in _XML_PARAMETER.findall(m.group(3))}})
    if (m := _CURL.match(text)) is not None:         # curl -s 'https://host/api/v1/revenue?period=…' [-d '{…}']
        body = f" {m.group(3) or m.group(4)}" if (m.group(3) or m.group(4)) else ""
        return _structured(f"{'POST' if body else 'GET'} {m.group(1) or m.group(2)}{body}")
    if (pairs_line := _KEY_VALUES.match(text)) is not None:   # tool=breakdown measure=revenue period=2026-Q2
        try:
            tokens = shlex.split(pairs_line.group(0))
        except ValueError:
            tokens = []
        kv = [t.partition("=") for t in tokens]
        if tokens and all(sep and k for k, sep, _ in kv) and kv[0][0].casefold() in _OP_KEYS:
            return json.dumps({k: v for k, _, v in kv})
    lines = [line for line in text.splitlines() if line.strip()]
    data: dict[str, Any] = {}
    nested: dict[str, str] | None = None
    for line in lines:                                # op: ar_aging \n customer: X \n as_of: 2026-06-30
        if (head := _YAML_HEAD.match(line)) is not None and head.group(1).casefold() in _ARG_KEYS:
            nested = data[head.group(1)] = {}         # args:\n  supplier: X \n  expected_in: 2026-09
            continue
        pair = _YAML_LINE.match(line)
        if pair is None:
            return None
        value = pair.group(2).strip("'\"")
        if nested is not None and line[:1].isspace():
            nested[pair.group(1)] = value
        else:
            nested = None
            data[pair.group(1)] = value
    if len(lines) >= 2 and any(k.casefold() in _OP_KEYS for k in data):
        return json.dumps(data)
    return None


_GRAPHQL = re.compile(r"^\s*(?:query\s*(?:[A-Za-z]\w*)?\s*(?:\([^)]*\))?\s*)?\{\s*([A-Za-z]\w*)\s*(?:\(([^)]*)\))?\s*"
                      r"(?:\{\s*([A-Za-z]\w*)\s*(?:\(([^)]*)\))?[^{}]*(?:\{[^{}]*\}[^{}]*)*\}\s*)?\}\s*$", re.DOTALL)
_ENTITY_KEYS = {"customer": "customer", "client": "customer", "supplier": "supplier", "vendor": "supplier",
                "item": "item", "product": "item", "invoice": "number", "purchase_order": "number"}
_GRAPHQL_NAME = ("name", "id", "number", "sku", "code")


def _from_graphql(m: re.Match[str]) -> Call | None:
    """A GraphQL query: ``{ arAging(asOf: "...") { bucket } }`` names the operation at the top; ``{ customer(name: "X")
    { overdue { total } } }`` names an entity at the top and the operation as its first field. The fields asked back
    are the shape of the answer, no part of the question."""
    top, top_args, field, field_args = m.group(1), m.group(2) or "", m.group(3), m.group(4) or ""
    entity = _snake(top)
    if entity in _ENTITY_KEYS and field is not None:
        for head in (field, f"{entity}_{_snake(field)}"):
            if _lookup(head) is None:
                continue
            named = {_ENTITY_KEYS[entity] if _snake(p.group(1)) in _GRAPHQL_NAME else _key(p.group(1)):
                     _value(p.group(2)) for p in _PAIR.finditer(top_args) if p.group(1)}
            named.update({_key(p.group(1)): _value(p.group(2)) for p in _PAIR.finditer(field_args) if p.group(1)})
            return _call(head, named, "")
    if _lookup(top) is not None:
        return _call(top, {_key(p.group(1)): _value(p.group(2)) for p in _PAIR.finditer(top_args) if p.group(1)}, "")
    return None


_SELECT = re.compile(r"^\s*select\s+(.+?)\s+from\s+([A-Za-z_][\w.]*)(?:\s+where\s+(.+?))?(?:\s+order\s+by\s+(.+?))?"
                     r"(?:\s+limit\s+(\d{1,4}))?\s*;?\s*$", re.DOTALL | re.IGNORECASE)
_UNSAFE_SQL = re.compile(r";\s*\S|--|/\*|\binto\b|\bpg_|\b(?:drop|delete|update|insert|alter|create|grant|truncate)\b",
                         re.IGNORECASE)
_CONDITION = re.compile(r"""([A-Za-z_][\w.]*)\s*(?:=|\blike\b|\bilike\b|\bin\b)\s*(\([^)]*\)|'[^']*'|"[^"]*"|[\w.-]+)""",
                        re.IGNORECASE)
_SQL_VALUE = re.compile(r"""'([^']*)'|"([^"]*)"|([\w.-]+)""")


def _words(name: str) -> str:
    return _snake(name.rsplit(".", 1)[-1]).replace("_", " ")


def _from_select(m: re.Match[str]) -> str | None:
    """A read-only SELECT written as the question it asks: the columns and the table as words, each condition's value
    as the customer, supplier or item it names ("SELECT overdue FROM customer WHERE name = 'X'" -> "overdue customer
    for X"). None when it is anything more than one plain SELECT."""
    if _UNSAFE_SQL.search(m.group(0)):
        return None
    words: list[str] = []
    for col in m.group(1).split(","):
        col = col.strip()
        if re.fullmatch(r"count\s*\(\s*(?:\*|1|[\w.]+)\s*\)", col, re.IGNORECASE):
            words.append("how many")
        elif col != "*" and _snake(col.rsplit(".", 1)[-1]) not in _GRAPHQL_NAME:
            words.append(_words(col))
    words.append(_words(m.group(2)))
    for cond in _CONDITION.finditer(m.group(3) or ""):
        column = _snake(cond.group(1).rsplit(".", 1)[-1])
        values = [a or b or c for a, b, c in _SQL_VALUE.findall(cond.group(2))]
        if not values:
            return None
        if column == "status":
            words.append(values[0].replace("_", " "))
        elif column in ("supplier", "supplier_name", "vendor"):
            words.append(f"with {values[0]}")
        elif _key(column) in _GENERIC:          # name = 'X': for X; period = 'Q2': in Q2; as_of: as of the day
            words.append(_GENERIC[_key(column)].format(values[0]))
        else:
            words.append(f"{_words(column)} {values[0]}")
    if m.group(4):
        words.append("by " + _words(re.sub(r"\s+(?:asc|desc)\b", "", m.group(4), flags=re.IGNORECASE)))
    if m.group(5):
        words.insert(0, f"top {m.group(5)}")
    return " ".join(w for w in words if w)


_WRITE_HEAD = re.compile(r"^(?:approve|update|delete|remove|create|insert|set|change|cancel|void|post|book|write_off|writeoff"
                         r"|modify|edit|add|mark|reset|close|credit|refund)_", re.IGNORECASE)


def is_write(text: str, call: Call | None) -> bool:
    """A request to change data: a GraphQL mutation, or a tool whose name is a verb that writes ("approve_invoice",
    "updateCustomer")."""
    if re.match(r"^\s*mutation\b", text):
        return True
    return call is not None and call.operation is None and _WRITE_HEAD.match(_snake(call.head)) is not None


_AGENT_PREFIX = re.compile(r"^\s*(?:\[TOOL_CALLS\]|<\|python_tag\|>|<\|tool_call\|>|tool_code\s*\n)\s*", re.IGNORECASE)
_PRINTED = re.compile(r"^\s*print\s*\((.*)\)\s*;?\s*$", re.DOTALL)
_METHOD_CALL = re.compile(r"^(\s*[A-Za-z][\w]*)\.(?:call|run|invoke|execute)\s*(?=\()", re.IGNORECASE)


def _unwrapped(text: str) -> str:
    """What agents put around a call, taken off: a Mistral ``[TOOL_CALLS]`` prefix and its list of one call, a Llama
    ``<|python_tag|>``, a Gemini ``tool_code`` block and its ``print(...)``, ``revenue.call(...)`` as ``revenue(...)``."""
    m = _AGENT_PREFIX.match(text)
    if m is None:
        return text
    text = text[m.end():].strip()
    if text.startswith("[") and text.endswith("]"):
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, list) and len(data) == 1 and isinstance(data[0], dict):
            text = json.dumps(data[0])
    if (printed := _PRINTED.match(text)) is not None:
        text = printed.group(1).strip()
    if (method := _METHOD_CALL.match(text)) is not None and _lookup(method.group(1).strip()) is not None:
        text = method.group(1) + text[method.end():]
    return text


def parse(text: str) -> Call | None:
    """The request as a tool call, or None when it is written as a question."""
    if (graphql := _GRAPHQL.match(text)) is not None and (read := _from_graphql(graphql)) is not None:
        return read
    if (select := _SELECT.match(text)) is not None and (asked := _from_select(select)) is not None:
        return Call(asked, None, {}, "")         # SELECT overdue FROM customer WHERE name = 'X': that question
    wrapped = _WRAPPER.match(text)            # <tool_call>{...}</tool_call>, a fenced block
    if wrapped:
        text = wrapped.group(1)
    text = _unwrapped(text)
    asked = _ASK.match(text)                  # footnote-pg ask "how much does X owe": that question
    if asked:
        return Call(asked.group(2).strip(), None, {}, "")
    sql = _SQL_CALL.match(text)               # select footnote.revenue('2026-Q2'): the catalog's own function
    if sql and _lookup(sql.group(1)) is not None:
        text = f"{sql.group(1)}({sql.group(2)})"
    text = _OUR_CLI.sub("", text, count=1)     # footnote-pg call customer_overdue --customer X
    structured = _structured(text)
    if structured is not None:
        text = structured
    text = _CALL_PREFIX.sub("", text, count=1)  # "tools/call ar_aging {...}"
    named_json = _NAMED_JSON.match(text)      # "ar_aging {"as_of": ...}": an operation and its JSON arguments
    if named_json:
        text = f"{named_json.group(1)}({named_json.group(2)})"
    react = _REACT.match(text)                # "Action: get_revenue\nAction Input: {...}"
    if react:
        body = react.group(2).strip()
        text = f"{react.group(1)}({body})" if body.startswith("{") or not body else f"{react.group(1)} {body}"
    if _CUE.search(text) is None:
        return None
    if _JSON.match(text):
        return _from_json(text)
    m = _FUNCTION.match(text)
    if m and (_lookup(m.group(1)) is not None or "_" in m.group(1)
              or (_snake(m.group(1).rsplit(".", 1)[-1]) in _INVOKER and _FIRST_NAME.match(m.group(2)))):
        return _from_function(m)
    m = _COMMAND.match(text)
    if m is None:
        return None
    if _lookup(m.group(1)) is None and "=" not in text and "--" not in text:
        return _named(text)
    call = _from_command(m.group(1), m.group(2))
    if call is None and _VERB.match(text) and _lookup(m.group(1)) is not None:   # "execute dso", "call revenue Q2"
        call = Call(m.group(1), _lookup(m.group(1)), {}, m.group(2).strip())
    if call is not None and call.operation is None and "_" not in call.head:
        words, _, rest = text.partition("--") if "--" in text else (text, "", "")
        return Call(words.strip(), None, call.arguments, "") if rest else None
    return call


def _named(text: str) -> Call | None:
    """A question that names operations by their catalog names: each name read as the words that ask it."""
    found = [(m, op) for m in _NAMED.finditer(text) if (op := _lookup(m.group(0))) is not None]
    if not found:
        return None
    for m, op in reversed(found):
        text = text[:m.start()] + _fill(op, {}) + text[m.end():]
    return Call(text, None, {}, "")


def _fill(op: Operation, args: dict[str, str]) -> str:
    values = {**op.defaults, **args}

    def say(key: str) -> str:
        v = values[key]
        return op.values.get(v.casefold(), v)

    def optional(m: re.Match[str]) -> str:
        keys = _SLOT.findall(m.group(1))
        return _SLOT.sub(lambda s: say(s.group(1)), m.group(1)) if all(values.get(k) for k in keys) else ""

    text = _OPTIONAL.sub(optional, op.ask)
    return _SLOT.sub(lambda s: say(s.group(1)) if values.get(s.group(1)) else "", text).strip()


_TIME_KEYS = frozenset({"period", "as_of", "period_from", "period_to", "expected_in"})


def question(call: Call) -> str:
    """The English question a request asks (its unknown keys left out)."""
    if call.operation is None and not call.arguments and not call.free:
        return call.head                # a question with operations named inside it
    if call.operation is None:
        words = call.head.replace("_", " ")
        if call.head and not call.free and all(k in _GENERIC for k in call.arguments) and "_" not in call.head:
            return " ".join([words, *(_GENERIC[k].format(v) for k, v in call.arguments.items() if v)])
        return " ".join([words, call.free, *(f"{k.replace('_', ' ')} {v}" for k, v in call.arguments.items())]).strip()
    op = call.operation
    name = _snake(call.head)
    implied = _BY_NAME.get(name) or _BY_NAME.get(_PREFIX.sub("", name), {})
    args = {**implied, **{k: v.replace("_", " ") if k in _TIME_KEYS else v       # period=last_quarter
                          for k, v in call.arguments.items() if k in op.keys}}
    free = call.free
    if free and op.positional and op.positional not in args:
        args[op.positional], free = free, ""
    if free and not args:           # "rank_customers by outstanding, top 3": the name and the rest, as words
        return f"{_snake(call.head).replace('_', ' ')} {free}"
    return " ".join(p for p in (_fill(op, args), free) if p)


def unknown_keys(call: Call) -> list[str]:
    if call.operation is None:
        return []
    return [k for k in call.arguments if k not in call.operation.keys]


def unknown_message(call: Call) -> str:
    assert call.operation is not None
    keys = list(call.operation.keys)
    takes = ", ".join(keys[:-1]) + (" and " if len(keys) > 1 else "") + keys[-1] if keys else "no arguments"
    named = [k for k in unknown_keys(call) if not any(c.isdigit() for c in k)]    # a message holds no digit
    unknown = f"argument {', '.join(f'“{k}”' for k in named)}" if named else "such argument"
    return f"The operation {call.operation.name} takes {takes}; it has no {unknown}. Which one did you mean?"


def guess(call: Call) -> str:
    """The best reading of a request with unknown keys: their values said as words after the rest."""
    extra = " ".join(_GENERIC[k].format(v) if k in _GENERIC else v
                     for k, v in call.arguments.items() if call.operation and k not in call.operation.keys)
    return f"{question(call)} {extra}".strip()
