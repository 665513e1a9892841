"""The command line, run in-process: output, JSON, exit codes, one-line errors."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from footnote_pg.cli import app
from tests.conftest import TestDatabase

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_call_prints_figures_and_evidence(db: TestDatabase) -> None:
    code, out, _ = run("call", "customer_overdue", "customer=Bergmann Logistik", "--database-url", db.url_as("service"))
    assert code == 0
    assert "43.805,00 €" in out and "104 days" in out and "erp://invoice/8812" in out


def test_call_json_is_the_result_document(db: TestDatabase) -> None:
    code, out, _ = run("call", "invoice", "number=INV-2026-8812", "--json", "--database-url", db.url_as("service"))
    assert code == 0
    doc = json.loads(out)
    assert doc["operation"] == "invoice"
    assert doc["values"]["outstanding"]["text"] == "18.450,00 €"
    assert db.scalar("SELECT count(*) FROM footnote.call_log WHERE call_id = %s", (doc["call_id"],)) == 1


@pytest.mark.parametrize("args,expected", [
    (["call", "customer_overdue", "customer=Acme Corporation"], 'unknown customer "Acme Corporation"; no customer '
                                                                 'name is close to it'),
    (["call", "customer_overdue", "customer=Bergman Logistics"], 'unknown customer "Bergman Logistics"; closest: '
                                                                 'Bergmann Logistik GmbH'),
    (["call", "customer_overdue", "customer=Bergmann"], 'customer "Bergmann" is ambiguous'),
    (["call", "revenue", "period=next year"], "invalid argument period: next year is not a period"),
    (["call", "revenue", "period"], "invalid argument 'period': write name=value"),
    (["call", "forecast"], "unknown operation forecast"),
])
def test_user_mistakes_are_one_line_and_exit_2(db: TestDatabase, args: list[str], expected: str) -> None:
    code, out, err = run(*args, "--database-url", db.url_as("service"))
    assert code == 2
    assert err.startswith("error: ") and expected in err
    assert err.count("\n") == 1 and "Traceback" not in err + out


def test_unreachable_database_is_one_line_and_exit_2(tmp_path) -> None:
    code, _, err = run("call", "ar_aging", "--database-url", f"postgresql://nobody@/x?host={tmp_path}&connect_timeout=2")
    assert code == 2
    assert err.startswith("error: cannot connect to the database") and err.count("\n") == 1


def test_catalog_json_has_typed_schemas(db: TestDatabase) -> None:
    code, out, _ = run("catalog", "--json", "--database-url", db.url_as("service"))
    assert code == 0
    ops = {o["name"]: o for o in json.loads(out)}
    assert len(ops) == 26
    schema = ops["customer_overdue"]["input_schema"]
    assert schema["required"] == ["customer"]
    assert schema["properties"]["as_of"]["format"] == "date"
    assert ops["top_customers"]["input_schema"]["properties"]["limit"]["type"] == "integer"


def test_install_sql_prints_the_script(db: TestDatabase) -> None:
    code, out, _ = run("install", "--sql")
    assert code == 0 and "CREATE FUNCTION footnote.call" in out


def test_install_is_a_no_op_when_up_to_date(db: TestDatabase) -> None:
    code, out, _ = run("install", "--database-url", db.url)
    assert code == 0 and "up to date" in out


def test_demo_once_answers_the_demo_questions(db: TestDatabase) -> None:
    code, out, _ = run("demo", "--once", "--database-url", db.url_as("service"))
    assert code == 0
    assert "Is Bergmann Logistik at risk?" in out and "43.805,00 €" in out
    assert "status: ambiguous" in out and "status: refused" in out and "status: verified" in out


def test_demo_serves_the_page_and_stops_on_ctrl_c(db: TestDatabase) -> None:
    import os
    import signal
    import socket
    import subprocess
    import sys
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # SIGINT as a terminal delivers it: a run started in the background by a shell (``.ci/run &``) inherits it
    # ignored, and Python keeps an ignored SIGINT ignored
    proc = subprocess.Popen([sys.executable, "-m", "footnote_pg.cli", "demo", "--port", str(port),
                             "--database-url", db.url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "200"},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}" in line, line + (proc.stderr.read() if proc.stderr else "")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/suggestions", timeout=10) as response:
            assert "How much does Bergmann owe?" in response.read().decode()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
        assert proc.returncode == 0, err
        assert "stopped" in out and "Traceback" not in err
    finally:
        if proc.poll() is None:  # reap it, so a failure here leaves no running process behind
            proc.kill()
            proc.communicate()


def test_a_refused_connection_keeps_the_reason() -> None:
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, _, err = run("call", "ar_aging", "--database-url", f"postgresql://nobody@127.0.0.1:{port}/x?connect_timeout=2")
    assert code == 2 and err.count("\n") == 1
    assert "Connection refused" in err and "Is the server running" in err, err
