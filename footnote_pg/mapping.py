"""The mapping of an ERP onto the source views: check it, test it against the ERP's own figures, and take it out
of the way of the ERP's own migrations and back.

``check`` reads every source view as ``footnote_owner`` (what the catalog reads through): views it cannot read,
views with no rows, the rules in ``mapping_checks.sql`` (unique ids, references that line up, values in range,
deep links, amounts that add up) and every operation's time and plan at the current data size, all in one
transaction that is rolled back. A partial mapping is a report, not a failure: a view left at the contract's
empty placeholder is "not mapped", and an operation that needs records of one (an item to ask about, a purchase
order) or whose subject is one is "unavailable" (not run, not failed). ``drop`` saves the mapped views to a
file and puts the contract's empty placeholders in their place (an ERP migration may then ``ALTER`` the tables
they read); ``apply`` runs the file again.
"""

from __future__ import annotations

import datetime as dt
import re
import time
import tomllib
from dataclasses import asdict, dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cache
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from footnote_pg import errors, sqlfiles

_CHECK = re.compile(r"^-- name: (?P<name>\w+)\n-- (?P<rule>[^\n]*)\n-- (?P<severity>fail|warn)\n"
                    r"(?P<body>.*?)(?=^-- name: |\Z)", re.M | re.S)
SLOW_MS = 1000.0  # an operation slower than this at the current data size is worth a look
BIG_SCAN = 10_000  # a sequential scan over more rows than this in a per-record operation wants an index
SAVED_HEADER = "-- footnote-pg mapping saved by `footnote-pg mapping drop`"


@dataclass
class Finding:
    check: str
    rule: str
    severity: str  # fail, warn, ok
    count: int = 0
    examples: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@cache
def _checks() -> list[tuple[str, str, str, str]]:
    text = (Path(__file__).parent / "mapping_checks.sql").read_text(encoding="utf-8")
    return [(m["name"], m["rule"], m["severity"], m["body"].strip()) for m in _CHECK.finditer(text)]


@cache
def _placeholders() -> dict[str, str]:
    """Each source view's empty placeholder, as sql/04_sources.sql (the contract) defines it."""
    text = (sqlfiles.sql_dir() / "04_sources.sql").read_text(encoding="utf-8")
    found = {}
    for statement in sqlfiles.split_statements(text):
        m = re.search(r"^CREATE VIEW footnote_src\.(\w+) AS", statement, re.M)
        if m:
            found[m.group(1)] = statement[m.start():].replace("CREATE VIEW", "CREATE OR REPLACE VIEW", 1).strip()
    return found


def views() -> list[str]:
    return list(_placeholders())


# -- key columns of any integer type ----------------------------------------------------------------------------
# A key column (id, *_id) of a source view may be smallint, integer or bigint: a mapping maps the ERP's own key
# column as it is, and a lookup by it (customer_id = $1, a bigint) uses the ERP's index, which a cast of the column
# would hide from the planner (integer = bigint is an operator of the btree integer_ops family; (id)::bigint = $1 is
# an expression no index holds). CREATE OR REPLACE VIEW keeps each column's type, so a mapping's statement that
# replaces a source view runs through footnote_src.map_view (sql/04_sources.sql), which creates a view whose key
# columns change integer type anew, with the views that read it.
_REPLACE_VIEW = re.compile(r"\A(?:\s*--[^\n]*\n)*\s*CREATE\s+OR\s+REPLACE\s+VIEW\s+footnote_src\.(\w+)\s+AS\s+"
                           r"(.*?);?\s*\Z", re.I | re.S)


def is_key(column: str) -> bool:
    return column == "id" or column.endswith("_id")


def _columns(conn: psycopg.Connection[Any], query: str) -> list[tuple[str, str]]:
    """The columns a query returns, (name, type), without running it."""
    described = conn.execute(sql.SQL("SELECT * FROM ({}) AS x LIMIT 0").format(sql.SQL(query))).description or []
    names = dict(conn.execute("SELECT oid::integer, format_type(oid, NULL) FROM pg_catalog.pg_type "
                              "WHERE oid = ANY (%s)", ([d.type_code for d in described],)).fetchall())
    return [(d.name, names.get(d.type_code, str(d.type_code))) for d in described]


def replace_view(conn: psycopg.Connection[Any], statement: str) -> None:
    """Run one statement of a mapping; one that replaces a source view through footnote_src.map_view."""
    m = _REPLACE_VIEW.match(statement)
    if m and m.group(1) in _placeholders():
        conn.execute("SELECT footnote_src.map_view(%s, %s)", (m.group(1), m.group(2)))
    else:
        conn.execute(statement)


def _connect(url: str) -> psycopg.Connection[Any]:
    try:
        return psycopg.connect(url)
    except psycopg.OperationalError as exc:
        raise errors.connection_failed(exc) from exc


def _as_owner(conn: psycopg.Connection[Any]) -> None:
    try:
        conn.execute("SET LOCAL ROLE footnote_owner")
    except psycopg.errors.InsufficientPrivilege:
        raise errors.PermissionDenied("permission denied: mapping commands run as a role that may act as "
                                      "footnote_owner (the installer)") from None
    except psycopg.errors.InvalidParameterValue:
        raise errors.NotInstalled("footnote-pg is not installed here (no role footnote_owner); run footnote-pg "
                                  "install") from None


def check(url: str, *, operations: bool = True) -> list[Finding]:
    """Every finding about the mapping, worst first; nothing is written (one transaction, rolled back)."""
    findings: list[Finding] = []
    with _connect(url) as conn:
        _as_owner(conn)
        if conn.execute("SELECT to_regnamespace('footnote_src')").fetchone() == (None,):
            raise errors.NotInstalled("footnote-pg is not installed here (no schema footnote_src); run "
                                      "footnote-pg install")
        mapped = mapped_views(conn)
        readable = _views(conn, findings, mapped)
        for name, rule, severity, body in _checks():
            findings.append(_run_check(conn, name, rule, severity, body, readable))
        if operations and all(readable.values()):
            findings += _operations(conn, mapped)
        findings.append(_key_lookups(conn, mapped, readable))
        conn.rollback()
    return sorted(findings, key=lambda f: SEVERITIES.index(f.severity))


SEVERITIES = ("fail", "warn", "unavailable", "ok")  # worst first

# The views whose id no query looks up (their rows are read by invoice, credit note or supplier invoice): an id
# computed from two of the ERP's keys is fine there.
UNLOOKED_IDS = ("due_lines", "credit_applications", "supplier_invoice_payments")
KEY_RULE = "a lookup by a key column (id, *_id) can use an index: it is the ERP's column, not a cast or a computation"


def _key_lookups(conn: psycopg.Connection[Any], mapped: dict[str, bool], readable: dict[str, bool]) -> Finding:
    """Every key column of every mapped source view, looked up by one of its values with sequential scans
    discouraged: a column the lookup filters row by row as an expression over the ERP's columns (a cast, a
    computation), which no index of the ERP holds, is named. (A plain column the ERP does not index is the plans'
    business: `mapping check` names big sequential scans of the operations.)"""
    bad = []
    seqscan = conn.execute("SELECT current_setting('enable_seqscan')").fetchone()[0]  # type: ignore[index]
    for view in views():
        if view.startswith("scoped_") or view.endswith("_in_scope") or not (mapped.get(view) and readable.get(view)):
            continue
        try:
            with conn.transaction():
                columns = _columns(conn, f"SELECT * FROM footnote_src.{view}")  # noqa: S608 - a contract view
        except psycopg.Error:
            continue
        for column, _type in columns:
            if not is_key(column) or (column == "id" and view in UNLOOKED_IDS):
                continue
            target = sql.SQL("footnote_src.{}").format(sql.Identifier(view))
            try:
                with conn.transaction():
                    value = conn.execute(sql.SQL("SELECT max({}) FROM {}").format(sql.Identifier(column), target)
                                         ).fetchone()[0]  # type: ignore[index]
                    if value is None:
                        continue
                    conn.execute("SELECT set_config('enable_seqscan', 'off', true)")
                    plan = conn.execute(sql.SQL("EXPLAIN (FORMAT JSON) SELECT 1 FROM {} WHERE {} = {}").format(
                        target, sql.Identifier(column), sql.Literal(value))).fetchone()[0][0]["Plan"]  # type: ignore[index]
                    conn.execute("SELECT set_config('enable_seqscan', %s, true)", (seqscan,))
            except psycopg.Error:
                continue
            said = re.compile(rf"(?<![\w.]){re.escape(str(value))}(?![\w.])")
            plain = re.compile(rf"\((?:\w+\.)?\"?\w+\"? = '?{re.escape(str(value))}(?![\w.])")
            filters = [n[k] for n in _nodes(plan) for k in ("Filter", "Join Filter") if said.search(n.get(k) or "")]
            if filters and not any(plain.search(f) for f in filters):  # the column compared is an expression
                bad.append(f"footnote_src.{view}.{column}: a lookup by it reads every row and filters "
                           f"{filters[0][:160]}; map the ERP's column itself (no cast, no computation) and index it")
    return Finding("key_lookups", KEY_RULE, "warn" if bad else "ok", len(bad), bad)


def mapped_views(conn: psycopg.Connection[Any]) -> dict[str, bool]:
    """Each source view: whether it is mapped. A view that reads no relation is the contract's empty placeholder;
    one that reads only other source views (the defaults of due_lines and credit_applications) is mapped when they
    all are."""
    rows = conn.execute("""
        SELECT v.relname, coalesce(array_agg(DISTINCT n.nspname || '.' || r.relname)
                                   FILTER (WHERE r.oid IS NOT NULL AND r.oid <> v.oid), '{}')
        FROM pg_catalog.pg_class AS v
        JOIN pg_catalog.pg_namespace AS vn ON vn.oid = v.relnamespace AND vn.nspname = 'footnote_src'
        LEFT JOIN pg_catalog.pg_rewrite AS w ON w.ev_class = v.oid
        LEFT JOIN pg_catalog.pg_depend AS d ON d.classid = 'pg_catalog.pg_rewrite'::regclass AND d.objid = w.oid
                                           AND d.refclassid = 'pg_catalog.pg_class'::regclass
        LEFT JOIN pg_catalog.pg_class AS r ON r.oid = d.refobjid
        LEFT JOIN pg_catalog.pg_namespace AS n ON n.oid = r.relnamespace
        WHERE v.relkind = 'v' GROUP BY v.relname""").fetchall()
    reads = {view: set(relations) for view, relations in rows}
    found: dict[str, bool] = {}

    def is_mapped(view: str, seen: frozenset[str] = frozenset()) -> bool:
        if view not in found:
            sources = reads.get(view, set())
            inner = {r.split(".", 1)[1] for r in sources if r.startswith("footnote_src.")}
            found[view] = bool(sources) and all(v not in seen and is_mapped(v, seen | {view}) for v in inner)
        return found[view]

    return {view: is_mapped(view) for view in views()}


def _views(conn: psycopg.Connection[Any], findings: list[Finding], mapped: dict[str, bool]) -> dict[str, bool]:
    readable = {}
    for view in views():
        try:
            with conn.transaction():
                row = conn.execute(sql.SQL("SELECT count(*) FROM footnote_src.{}").format(sql.Identifier(view)))
                count = row.fetchone()[0]  # type: ignore[index]
        except psycopg.Error as exc:
            readable[view] = False
            reason = (exc.diag.message_primary or str(exc)).splitlines()[0]
            hint = " (GRANT SELECT on it TO footnote_owner)" if exc.sqlstate == "42501" else ""
            findings.append(Finding(f"{view}_readable", f"footnote_owner reads footnote_src.{view}", "fail", 1,
                                    [reason + hint]))
            continue
        readable[view] = True
        if view.startswith("scoped_"):  # the ids a bound session's scope sees: none without a binding
            continue
        required = view in REQUIRED_VIEWS
        if not mapped.get(view, True) and not required:
            findings.append(Finding(f"{view}_rows", f"footnote_src.{view} is mapped", "unavailable", 1,
                                    ["not mapped (the contract's empty placeholder)"]))
        elif count == 0:
            findings.append(Finding(f"{view}_rows", f"footnote_src.{view} holds rows", "fail" if required else "warn",
                                    1, ["no rows: operations that read it answer that the source is not mapped"]))
    return readable


REQUIRED_VIEWS = ("customers", "invoices")  # every mapping maps these; the rest as far as the ERP records them


def _run_check(conn: psycopg.Connection[Any], name: str, rule: str, severity: str, body: str,
               readable: dict[str, bool]) -> Finding:
    needs = set(re.findall(r"footnote_src\.(\w+)", body))
    if not all(readable.get(v, True) for v in needs):
        return Finding(name, rule, "warn", 0, ["not checked: a view it reads cannot be read"])
    query = sql.SQL("SELECT count(*), (array_agg(e ORDER BY e))[1:5] FROM ({}) AS bad(e)").format(sql.SQL(body))
    try:
        with conn.transaction():
            count, examples = conn.execute(query).fetchone()  # type: ignore[misc]
    except psycopg.Error as exc:
        return Finding(name, rule, "fail", 1, [(exc.diag.message_primary or str(exc)).splitlines()[0]])
    return Finding(name, rule, severity if count else "ok", int(count), list(examples or []))


def _operations(conn: psycopg.Connection[Any], mapped: dict[str, bool]) -> list[Finding]:
    """Each operation with real arguments from this ERP's data (the rest from the catalog's examples): its time,
    big sequential scans in its queries and the views it read that are not mapped; an operation whose required
    record cannot be picked, or whose subject is not mapped (FN006), is unavailable, not failed."""
    rows = conn.execute("""SELECT o.name, coalesce(jsonb_object_agg(a.name, a.example)
                                   FILTER (WHERE a.required), '{}')
                           FROM footnote.operations AS o LEFT JOIN footnote.operation_arguments AS a
                             ON a.operation = o.name
                           GROUP BY o.name ORDER BY o.name""").fetchall()
    picked: dict[str, Any] = {}
    found = []
    for operation, example in rows:
        rule = "answers at this data size"
        arguments, missing = {}, []
        for name, value in example.items():
            source = RECORD_ARGUMENTS.get((operation, name)) or RECORD_ARGUMENTS.get(name)
            if source is None:
                arguments[name] = value
                continue
            view, query = source
            if query not in picked:
                picked[query] = _pick(conn, query) if mapped.get(view) else None
            if picked[query] is None:
                missing.append(f"its argument {name} names a record of footnote_src.{view}, which "
                               + ("holds no rows" if mapped.get(view) else "is not mapped"))
            arguments[name] = picked[query]
        if missing:
            found.append(Finding(f"operation_{operation}", rule, "unavailable", 0, ["; ".join(missing)]))
            continue
        try:
            with conn.transaction():
                started = time.perf_counter()
                doc = conn.execute("SELECT footnote.call(%s, %s)", (operation, psycopg.types.json.Jsonb(arguments))
                                   ).fetchone()[0]  # type: ignore[index]
                elapsed = (time.perf_counter() - started) * 1000
                queries = (doc.get("queries") or []) if isinstance(doc, dict) else []
                scans = _big_scans(conn, queries)
        except psycopg.Error as exc:
            message = (exc.diag.message_primary or str(exc)).splitlines()[0]
            severity = ("unavailable" if exc.sqlstate == "FN006" else
                        "warn" if exc.sqlstate in ("FN002", "FN003") else "fail")
            found.append(Finding(f"operation_{operation}", rule, severity, int(severity != "unavailable"),
                                 [message[:300]]))
            continue
        notes = [f"{elapsed:,.0f} ms for {_arguments_text(arguments)}"] + scans
        unmapped = sorted(v for v in _read_views(conn, " ".join(q.get("sql") or "" for q in queries))
                          if not mapped.get(v, True))
        if unmapped:
            notes.append(f"read {', '.join(f'footnote_src.{v}' for v in unmapped)} (not mapped): its answers leave "
                         "out what they would hold")
        slow = elapsed > SLOW_MS or scans
        found.append(Finding(f"operation_{operation}", rule, "warn" if slow else "ok", int(bool(slow)), notes))
    return found


def _read_views(conn: psycopg.Connection[Any], text: str) -> set[str]:
    """The source views a query text reads, directly or through the functions of schema footnote_src it calls."""
    bodies = dict(conn.execute("SELECT p.proname, p.prosrc FROM pg_catalog.pg_proc AS p JOIN pg_catalog.pg_namespace "
                               "AS n ON n.oid = p.pronamespace WHERE n.nspname = 'footnote_src'").fetchall())
    names, todo = set(), [text]
    while todo:
        for name in re.findall(r"footnote_src\.(\w+)", todo.pop()):
            if name not in names:
                names.add(name)
                if name in bodies:
                    todo.append(bodies[name])
    return names & set(views())


def _arguments_text(arguments: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in arguments.items()) or "no arguments"


# Required arguments that name a record of this ERP, by (operation, argument) or argument: the source view it comes
# from and the query that picks a real one (the customer with the most invoices, the supplier with the most
# supplier invoices, the first item, the latest invoice and purchase order)
RECORD_ARGUMENTS: dict[Any, tuple[str, str]] = {
    "customer": ("customers", """SELECT c.name FROM footnote_src.customers AS c LEFT JOIN footnote_src.invoices AS i
                                 ON i.customer_id = c.id GROUP BY c.id, c.name ORDER BY count(i.id) DESC, c.id
                                 LIMIT 1"""),
    "supplier": ("suppliers", """SELECT s.name FROM footnote_src.suppliers AS s LEFT JOIN footnote_src.supplier_invoices
                                 AS i ON i.supplier_id = s.id GROUP BY s.id, s.name ORDER BY count(i.id) DESC, s.id
                                 LIMIT 1"""),
    "item": ("items", "SELECT sku FROM footnote_src.items ORDER BY id LIMIT 1"),
    ("invoice", "number"): ("invoices", "SELECT number FROM footnote_src.invoices ORDER BY issue_date DESC, id DESC "
                                        "LIMIT 1"),
    ("source_record", "uri"): ("invoices", "SELECT uri FROM footnote_src.invoices ORDER BY issue_date DESC, id DESC "
                                           "LIMIT 1"),
    ("purchase_order", "number"): ("purchase_orders", "SELECT number FROM footnote_src.purchase_orders "
                                                      "ORDER BY id DESC LIMIT 1"),
}


def _pick(conn: psycopg.Connection[Any], query: str) -> Any:
    """The first value of a picking query, or None (no row, or a view it reads cannot be read)."""
    try:
        with conn.transaction():
            row = conn.execute(query).fetchone()
    except psycopg.Error:
        return None
    return row[0] if row else None


def _big_scans(conn: psycopg.Connection[Any], queries: list[dict[str, Any]]) -> list[str]:
    notes = []
    for n, q in enumerate(queries):
        params = q.get("params") or []
        statement = sql.SQL("PREPARE footnote_mapping_check_{} AS {}").format(sql.SQL(str(n)), sql.SQL(q["sql"]))
        execute = sql.SQL("EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE footnote_mapping_check_{}{}").format(
            sql.SQL(str(n)), sql.SQL("({})").format(sql.SQL(", ").join(sql.Literal(p) for p in params))
            if params else sql.SQL(""))
        try:
            with conn.transaction():
                conn.execute(statement)
                plan = conn.execute(execute).fetchone()[0][0]["Plan"]  # type: ignore[index]
                conn.execute(sql.SQL("DEALLOCATE footnote_mapping_check_{}").format(sql.SQL(str(n))))
        except psycopg.Error:
            continue  # a query that needs its operation's context: its time is counted above
        for node in _nodes(plan):
            if node.get("Node Type") == "Seq Scan" and node.get("Actual Rows", 0) * node.get("Actual Loops", 1) \
                    + node.get("Rows Removed by Filter", 0) > BIG_SCAN and node.get("Filter"):
                notes.append(f"{q.get('name')}: sequential scan of {node.get('Relation Name')} filtering "
                             f"{node.get('Filter')}: an index on that column would serve it")
    return notes


def _nodes(plan: dict[str, Any]) -> list[dict[str, Any]]:
    out = [plan]
    for child in plan.get("Plans", []):
        out += _nodes(child)
    return out


# -- mapping test: the DBA's own figures from the ERP ---------------------------------------------------------

@dataclass
class Comparison:
    operation: str
    arguments: dict[str, Any]
    value: str
    expected: str
    found: str | None
    ok: bool

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def read_expectations(path: Path) -> list[dict[str, Any]]:
    """``[[figure]]`` tables: operation, arguments, value, equals (the ERP's own figure, a plain number)."""
    try:
        doc = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise errors.InvalidArgument(f"invalid argument file: {path}: {getattr(exc, 'strerror', None) or exc}"
                                     ) from None
    except tomllib.TOMLDecodeError as exc:
        raise errors.InvalidArgument(f"invalid argument file: {path} is not TOML ({exc})") from None
    figures = doc.get("figure")
    if not isinstance(figures, list) or not figures:
        raise errors.InvalidArgument(f"invalid argument file: {path} has no [[figure]] tables")
    for n, f in enumerate(figures, start=1):
        problem = ("is not a table" if not isinstance(f, dict) else
                   "needs operation, value and equals" if not all(isinstance(f.get(k), str | int | float)
                                                                   for k in ("operation", "value", "equals")) else
                   "arguments must be a table" if not isinstance(f.get("arguments", {}), dict) else None)
        if problem:
            raise errors.InvalidArgument(f"invalid argument file: figure {n} in {path} {problem}")
    return figures


def test(url: str, path: Path) -> list[Comparison]:
    """footnote's figure against the ERP's for each expectation; nothing is written to the ledger."""
    from footnote_pg.client import Footnote

    figures = read_expectations(path)
    out = []
    with Footnote(url, min_size=1, max_size=1, actor="mapping-test") as fn:
        for f in figures:
            arguments = dict(f.get("arguments", {}))
            expected = str(f["equals"])
            try:
                result = fn.call(str(f["operation"]), **arguments)
            except errors.FootnoteError as exc:
                out.append(Comparison(str(f["operation"]), arguments, str(f["value"]), expected, f"error: {exc}",
                                      False))
                continue
            value = result.values.get(str(f["value"]))
            found = None if value is None else value.raw
            out.append(Comparison(str(f["operation"]), arguments, str(f["value"]), expected,
                                  None if found is None else str(found), _equal(found, expected)))
    return out


def _equal(found: Any, expected: str) -> bool:
    if found is None:
        return False
    try:
        return Decimal(str(found)) == Decimal(expected)
    except InvalidOperation:
        return str(found) == expected


# -- mapping drop / apply: around the ERP's own migrations -----------------------------------------------------

def drop(url: str, save: Path) -> list[str]:
    """Write the mapped views to ``save``, then put the contract's placeholders in their place; the views that
    were mapped, by name. Refuses to overwrite a file."""
    if save.exists():
        raise errors.InvalidArgument(f"invalid argument save: {save} exists; choose a new file (it is the only "
                                     "copy of the mapping until it is applied again)")
    with _connect(url) as conn:
        _as_owner(conn)
        mapped = []
        statements = []
        for view in views():
            row = conn.execute("SELECT pg_get_viewdef(to_regclass(%s), true)", (f"footnote_src.{view}",)).fetchone()
            if row is None or row[0] is None:
                raise errors.NotInstalled(f"footnote-pg is not installed here (no view footnote_src.{view})")
            definition = row[0].strip().rstrip(";")
            if not re.search(r"\bFROM\b", definition, re.IGNORECASE):
                continue  # a placeholder already: it reads no table
            mapped.append(view)
            statements.append(f"CREATE OR REPLACE VIEW footnote_src.{view} AS\n{definition};\n")
        stamp = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        save.write_text(f"{SAVED_HEADER} at {stamp}: apply it with `footnote-pg mapping apply {save.name}`\n"
                        "SET ROLE footnote_owner;\n\n" + "\n".join(statements) + "\nRESET ROLE;\n", encoding="utf-8")
        for view in mapped:
            replace_view(conn, _placeholders()[view])
        conn.commit()
    return mapped


def apply(url: str, path: Path) -> int:
    """Run a file written by ``drop`` (or any mapping script) in one transaction; the statements run."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise errors.InvalidArgument(f"invalid argument file: {path}: {getattr(exc, 'strerror', None) or exc}"
                                     ) from None
    statements = [s for s in sqlfiles.split_statements(text) if s.strip()]
    if not statements:
        raise errors.InvalidArgument(f"invalid argument file: {path} holds no SQL statements")
    with _connect(url) as conn:
        for statement in statements:
            try:
                replace_view(conn, statement)
            except psycopg.Error as exc:
                conn.rollback()
                first = (exc.diag.message_primary or str(exc)).splitlines()[0]
                raise errors.InvalidArgument(f"invalid argument file: {path}: {first} (in: "
                                             f"{' '.join(statement.split())[:120]}); nothing was applied") from None
        conn.commit()
    return len(statements)
