"""Operable by a stranger: libpq's environment, the embedded-sample notice, SIGTERM, fresh settings and names."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any

import psycopg
import pytest

from tests.conftest import TestDatabase


def _libpq_env(url: str) -> dict[str, str]:
    info = psycopg.conninfo.conninfo_to_dict(url)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG") and k != "DATABASE_URL"}
    env.update({"PGHOST": str(info.get("host") or ""), "PGPORT": str(info.get("port") or "5432"),
                "PGUSER": str(info.get("user") or ""), "PGPASSWORD": str(info.get("password") or ""),
                "PGDATABASE": str(info.get("dbname") or "")})
    return env


def test_libpq_environment_is_honoured_and_the_sample_is_not_used(db: TestDatabase) -> None:
    done = subprocess.run([sys.executable, "-m", "footnote_pg.cli", "ask", "How much does Bergmann Logistik owe?",
                           "--json"], env=_libpq_env(db.url_as("service")), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["embedded_sample"] is False and "embedded sample" not in done.stderr
    assert db.scalar("SELECT seq FROM footnote.ledger WHERE id = %s", (doc["ledger"]["record_id"],)) == \
        doc["ledger"]["seq"]


def test_the_embedded_sample_says_so(db: TestDatabase, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from footnote_pg import embedded
    from footnote_pg.cli import app

    for name in ("DATABASE_URL", "PGHOST", "PGHOSTADDR", "PGPORT", "PGDATABASE", "PGUSER", "PGSERVICE",
                 "PGSERVICEFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(embedded, "demo_url", lambda *a, **k: db.url_as("service"))  # the sample, started already
    result = CliRunner().invoke(app, ["ask", "How much does Bergmann Logistik owe?", "--json"])
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith("note: no --database-url, DATABASE_URL or PG* environment: using the embedded "
                                    "sample ERP")
    assert json.loads(result.stdout)["embedded_sample"] is True


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("command", [["demo"], ["mcp", "--http"]], ids=["demo", "mcp"])
def test_sigterm_stops_a_server_like_ctrl_c(db: TestDatabase, command: list[str]) -> None:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "footnote_pg.cli", *command, "--database-url",
                             db.url_as("service"), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # not in pytest's process group: only our signal reaches it
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        else:
            pytest.fail("the server did not listen")
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    if command == ["demo"]:
        assert out.rstrip().endswith("stopped")


@pytest.mark.parametrize(("key", "value", "reason"), [
    ("as_of", "2026-13-45", "must be a date written YYYY-MM-DD, or NULL for today"),
    ("as_of", "14.08.2026", "must be a date written YYYY-MM-DD, or NULL for today"),
    ("as_of", "2026-02-30", "must be a date written YYYY-MM-DD, or NULL for today"),
    ("locale", "fr-FR", "must be de-DE or en-US"),
    ("currency", "euro", "must be an ISO 4217 code such as EUR"),
    ("fiscal_year_start_month", "13", "must be a month number from 1 to 12"),
    ("max_evidence_rows", "-1", "must be a whole number from 1 to 1000000"),
    ("max_evidence_rows", None, "must not be NULL"),
    ("dso_window_days", "ninety", "must be a whole number of days from 1 to 3660"),
])
def test_a_setting_the_catalog_cannot_use_is_refused_when_written(db: TestDatabase, key: str, value: Any,
                                                                  reason: str) -> None:
    before = db.scalar("SELECT value FROM footnote.settings WHERE key = %s", (key,))
    with pytest.raises(psycopg.Error) as caught:
        db.scalar("UPDATE footnote.settings SET value = %s WHERE key = %s RETURNING 1", (value, key))
    assert caught.value.sqlstate == "FN001"
    assert str(caught.value.diag.message_primary).startswith(f"invalid setting {key}: {reason}")
    assert db.scalar("SELECT value FROM footnote.settings WHERE key = %s", (key,)) == before
    with pytest.raises(psycopg.Error):
        db.scalar("INSERT INTO footnote.settings VALUES ('seal_lock_timeout', 'forever', 'x') RETURNING 1")
    db.scalar("INSERT INTO footnote.settings VALUES ('seal_lock_timeout', '2s', 'x') RETURNING 1")


def test_a_long_lived_client_sees_the_new_as_of_date_and_a_new_customer(db: TestDatabase) -> None:
    from footnote_pg.answers import Answerer

    fn = db.client("service")
    first = fn.ask("What was revenue last quarter?")
    assert first.calls[0]["arguments"]["period"] == "2026-Q2"
    db.scalar("UPDATE footnote.settings SET value = '2026-11-20' WHERE key = 'as_of' RETURNING 1")
    assert fn.ask("What was revenue last quarter?").calls[0]["arguments"]["period"] == "2026-Q3"

    assert fn.ask("How much does Zebulon Quarz AG owe?").status != "verified"
    db.scalar("INSERT INTO erp.customers (id, customer_number, name, country, city, payment_terms_days, "
              "account_owner_id, credit_limit) SELECT 99001, 'C-99001', 'Zebulon Quarz AG', country, city, "
              "payment_terms_days, account_owner_id, credit_limit FROM erp.customers WHERE id = 4471 RETURNING 1")
    fn._answerer.names_ttl = 0.0  # the default, 30 s, is what a service waits at most
    later = fn.ask("How much does Zebulon Quarz AG owe?")
    assert later.calls and later.calls[0]["arguments"]["customer"] == "Zebulon Quarz AG", later.as_json()
    assert Answerer.names_ttl == 30.0


def test_asking_writes_no_name_lists_into_the_call_log(db: TestDatabase) -> None:
    fn = db.client("service")
    before = db.scalar("SELECT count(*) FROM footnote.call_log")
    answer = fn.ask("How much does Bergmann Logistik owe?")
    assert db.scalar("SELECT count(*) FROM footnote.call_log") - before == len(answer.calls) == 1
    assert db.scalar("SELECT count(*) FROM footnote.call_log WHERE operation LIKE 'list_%'") == 0


def test_an_ambiguous_short_name_lists_twenty_and_says_how_many_more(db: TestDatabase) -> None:
    db.scalar("INSERT INTO erp.customers (id, customer_number, name, country, city, payment_terms_days, "
              "account_owner_id, credit_limit) SELECT 99100 + g, 'C-' || (99100 + g), 'Testfirma ' || g || ' GmbH', "
              "country, city, payment_terms_days, account_owner_id, credit_limit "
              "FROM erp.customers, generate_series(1, 35) AS g WHERE id = 4471 RETURNING 1")
    fn = db.client("service")
    from footnote_pg import errors

    with pytest.raises(errors.AmbiguousEntity) as caught:
        fn.call("customer_overdue", customer="Testfirma")
    assert len(caught.value.candidates) == 20 and caught.value.detail["matching"] == 35
    message = str(caught.value)  # as many names as fit in one line of under 400 characters, then how many more
    names, more = message.split(" it matches ")[1].rsplit(" and ", 1)
    assert "\n" not in message and len(message) < 400 and more == f"{35 - len(names.split(', '))} more"
    answer = fn.ask("How much does Testfirma owe?")
    assert answer.status == "ambiguous" and len(answer.options) == 20
    assert "(the first 20 of 35; type more of the name to narrow it)" in answer.answer


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "footnote_pg.cli", *args], capture_output=True, text=True,
                          timeout=120, env=env)


def _one_line(done: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert done.returncode == code, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    return done.stderr


@pytest.mark.parametrize(("args", "reason"), [
    (["export", "/nonexistent/dir/x.jsonl"], "cannot write the bundle to /nonexistent/dir/x.jsonl: the folder "
                                             "/nonexistent/dir does not exist"),
    (["digest", "-o", "/nonexistent/dir/d.json"], "No such file or directory")], ids=["export", "digest"])
def test_a_file_that_cannot_be_written_is_one_line(db: TestDatabase, args: list[str], reason: str) -> None:
    # (a directory given to export gets a bundle written into it: tests/test_mistakes.py)
    with db.connect("service") as conn:  # a ledger with a record, so there is something to write
        conn.execute("SELECT footnote.record_answer('What will revenue be?', 'I can''t forecast.', '[]', '{}', "
                     "'refusal', '{\"reason\": \"forecast\"}')")
    line = _one_line(_cli(*args, "--database-url", db.url))
    assert line.startswith("error: ") and reason in line


@pytest.mark.parametrize("command", [["demo"], ["mcp", "--http"]], ids=["demo", "mcp"])
def test_a_taken_port_is_one_line(db: TestDatabase, command: list[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        line = _one_line(_cli(*command, "--port", port, "--database-url", db.url_as("service")))
    assert line == "error: Address already in use (the port is taken: choose another with --port)\n"


def test_a_statement_timeout_is_one_line(db: TestDatabase) -> None:
    env = {**os.environ, "PGOPTIONS": "-c statement_timeout=1"}
    line = _one_line(_cli("call", "ar_aging", "--database-url", db.url_as("service"), env=env))
    assert line.startswith("error: the database cancelled the statement (canceling statement due to statement "
                           "timeout)")


def test_version() -> None:
    from footnote_pg import __version__

    done = _cli("--version")
    assert done.returncode == 0 and done.stdout == f"footnote-pg {__version__}\n"


@pytest.mark.parametrize("value", ["%", "😀", "_", "  ", "--"])
def test_a_name_filter_without_letters_is_refused_not_everything(db: TestDatabase, value: str) -> None:
    from footnote_pg import errors

    fn = db.client("service")
    before = db.scalar("SELECT count(*) FROM footnote.call_log")
    for operation in ("list_customers", "list_suppliers", "list_items"):
        with pytest.raises(errors.InvalidArgument) as caught:
            fn.call(operation, name_contains=value)
        assert str(caught.value).startswith("invalid argument name_contains: ")
    assert db.scalar("SELECT count(*) FROM footnote.call_log") == before


@pytest.mark.parametrize(("manifest", "reason"), [
    ('{"manifest": {"format": "footnote-pg-bundle/1", "count": "x", "first_seq": [], "records_sha256": "a"}}',
     "the manifest's count must be int"),
    ('{"manifest": ' + "[" * 5000 + "]" * 5000 + "}",
     "line 1 is not a footnote-pg bundle manifest (nested too deeply)"),
], ids=["wrong_types", "deep_nesting"])
def test_a_malformed_bundle_manifest_is_one_line(tmp_path: Any, manifest: str, reason: str) -> None:
    bundle = tmp_path / "b.jsonl"
    bundle.write_text(manifest + "\n", encoding="utf-8")
    assert reason in _one_line(_cli("verify", "--bundle", str(bundle)))


def test_a_footnote_shows_its_first_records_and_how_many_more(db: TestDatabase) -> None:
    done = _cli("ask", "What is the DSO?", "--database-url", db.url_as("service"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) < 40, len(lines)  # was one line per invoice behind each figure: over 1,300
    more = [line for line in lines if "more records (--json lists them all)" in line or "more record (" in line]
    assert more and all(line.lstrip().startswith("… and ") for line in more)
    doc = json.loads(_cli("ask", "What is the DSO?", "--json", "--database-url", db.url_as("service")).stdout)
    shown = int(more[0].split("and ")[1].split(" more")[0].replace(",", "")) + 3
    assert shown in {len(c["evidence"]) for c in doc["claims"]}


def test_an_answer_recorded_while_the_chain_is_held_comes_back_queued_not_failed(db: TestDatabase) -> None:
    from footnote_pg.cli import render_answer

    db.scalar("INSERT INTO footnote.settings VALUES ('seal_lock_timeout', '300ms', 'test') RETURNING 1")
    fn = db.client("service", actor="queued")
    # a superuser's session holding the chain lock: sealing takes the lock over from any other login's session
    # (tests/test_attacks.py), not from a superuser's
    with db.connect(autocommit=False) as holder:
        holder.execute("SELECT FROM footnote.chain_lock FOR UPDATE")
        answer = fn.ask("How much does Bergmann Logistik owe?")
        holder.rollback()
    assert answer.ok and answer.receipt is None
    record_id = answer.notes["queued_record_id"]
    assert f"recorded, queued for sealing (record {record_id})" in render_answer(answer)
    # it was committed: the next receipt seals it into the chain
    assert fn.receipt(record_id).seq == 1
    assert db.scalar("SELECT count(*) FROM footnote.ledger_queue") == 0


def test_candidates_stay_capped_at_the_size_of_the_million_invoice_sample(db: TestDatabase) -> None:
    """The 1,000,000-invoice sample has 22,222 customers: a one-letter name matches most of them."""
    from footnote_pg import errors

    db.scalar("INSERT INTO erp.customers (id, customer_number, name, country, city, payment_terms_days, "
              "account_owner_id, credit_limit) SELECT 200000 + g, 'C-' || (200000 + g), 'Spedition ' || g || ' GmbH', "
              "country, city, payment_terms_days, account_owner_id, credit_limit "
              "FROM erp.customers, generate_series(1, 22222) AS g WHERE id = 4471 RETURNING 1")
    fn = db.client("service")
    with pytest.raises(errors.AmbiguousEntity) as caught:
        fn.call("customer_overdue", customer="s")
    message = str(caught.value)
    assert "\n" not in message and len(message) < 2_000 and message.endswith(" more")
    assert len(caught.value.candidates) == 20 and caught.value.detail["matching"] > 22_222
    assert len(json.dumps(caught.value.detail)) < 10_000
    answer = fn.ask("How much does s owe?")
    assert answer.status in ("ambiguous", "refused", "clarification") and len(answer.options) <= 20
    assert len(json.dumps(answer.as_json(), default=str)) < 100_000
    result = _cli("call", "customer_overdue", "customer=s", "--database-url", db.url_as("service"))
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and len(result.stderr) < 2_000
