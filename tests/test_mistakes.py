"""The small mistakes a newcomer makes, each answered with one line that says what to do: the wrong role, another
database's URL, a directory or a missing folder for an export, Ctrl-C, serve without an actor."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from footnote_pg import errors
from footnote_pg.cli import app
from tests.conftest import TestDatabase


def run(*args: str, env: dict[str, str | None] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "400", **(env or {})})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def one_line(err: str) -> str:
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize(("role", "command", "denied", "remedy"), [
    ("auditor", ["ask", "How much does Bergmann Logistik owe?"], "permission denied for function router_names",
     "grants EXECUTE on it to footnote_service (asking questions and calling the catalog): connect as a member of "
     "that role"),
    ("auditor", ["call", "customer_overdue", "customer=Bergmann Logistik"], "permission denied for function call",
     "footnote_service"),
    ("service", ["export", "bundle.jsonl"], "permission denied for table ledger",
     "grants SELECT on it to footnote_auditor (reading and verifying the ledger)"),
    ("outsider", ["verify"], "permission denied for schema footnote",
     "footnote_service (asking questions and calling the catalog) and footnote_auditor (reading and verifying "
     "the ledger)"),
], ids=["ask-as-auditor", "call-as-auditor", "export-as-service", "verify-as-outsider"])
def test_a_permission_error_names_the_object_once_and_the_role_to_use(
        db: TestDatabase, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, role: str, command: list[str],
        denied: str, remedy: str) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(*command, "--database-url", db.url_as(role))
    assert code == 2
    assert one_line(err).startswith(f"error: {denied}; footnote-pg ") and remedy in err
    assert err.count("permission denied") == 1
    assert not list(tmp_path.iterdir())  # the export wrote nothing


def test_a_permission_error_from_the_client_says_the_same(db: TestDatabase) -> None:
    fn = db.client("auditor")
    with pytest.raises(errors.PermissionDenied) as raised:
        fn.call("customer_overdue", customer="Bergmann Logistik")
    assert str(raised.value).startswith("permission denied for function call; footnote-pg grants EXECUTE on it to "
                                        "footnote_service")


def test_an_erp_table_gets_no_advice_about_our_roles() -> None:
    from footnote_pg import privileges

    assert privileges.remedy("permission denied for table sale_invoice") is None
    assert privileges.remedy("must be owner of table ledger") is None
    assert "footnote_auditor" in (privileges.remedy("permission denied for view answers") or "")


@pytest.mark.parametrize("url", ["mysql://root:s3cret@db.example.com/erp", "sqlite:///erp.db",
                                 "jdbc:postgresql://db.example.com/erp", "db.example.com:5432"])
def test_a_url_of_another_database_gets_one_line_with_the_accepted_forms(url: str) -> None:
    for how in (["--database-url", url], []):
        code, _, err = run("ask", "How much does Bergmann owe?", *how, env={"DATABASE_URL": url})
        assert code == 2
        assert "not PostgreSQL" in one_line(err) or "not a PostgreSQL URL" in err
        assert "postgresql://USER:PASSWORD@HOST:5432/DATABASE" in err and "host=HOST dbname=DATABASE" in err
        assert 'missing "="' not in err and "s3cret" not in err and "connection info string" not in err
    with pytest.raises(errors.InvalidArgument, match="postgresql://USER:PASSWORD@HOST:5432/DATABASE"):
        from footnote_pg import Footnote

        Footnote(url)


def test_a_bad_key_in_a_connection_string_is_named() -> None:
    code, _, err = run("verify", "--database-url", "host=localhost databse=erp")
    assert code == 2 and 'invalid connection option "databse"' in one_line(err) and "dbname=DATABASE" in err


def test_export_into_a_directory_writes_a_bundle_there(db: TestDatabase, tmp_path: Path) -> None:
    from footnote_pg import ledger

    db.client().ask("How much does Bergmann Logistik owe?")
    code, out, err = run("export", str(tmp_path), "--database-url", db.url_as("auditor"))
    assert code == 0, err
    written = list(tmp_path.iterdir())
    assert len(written) == 1 and written[0].name.startswith("footnote-bundle-") and written[0].suffix == ".jsonl"
    assert f"to {written[0]};" in out
    assert ledger.verify_bundle(written[0]).ok


def test_export_to_a_missing_folder_names_the_users_path(db: TestDatabase, tmp_path: Path) -> None:
    target = tmp_path / "no-such-folder" / "bundle.jsonl"
    code, _, err = run("export", str(target), "--database-url", db.url_as("auditor"))
    assert code == 2
    assert one_line(err) == f"error: cannot write the bundle to {target}: the folder {target.parent} does not exist\n"
    assert ".footnote-export" not in err and not (tmp_path / "no-such-folder").exists()


def _interrupt(*_args: Any, **_kwargs: Any) -> Any:
    raise KeyboardInterrupt


@pytest.mark.parametrize(("command", "target"), [
    (["ask", "How much does Bergmann Logistik owe?"], "footnote_pg.client.Footnote.ask"),
    (["demo"], "footnote_pg.web.serve"),  # while the server starts, before it serves
    (["serve", "--actor", "desk:analyst"], "footnote_pg.web.serve"),
    (["verify"], "footnote_pg.ledger.verify_database"),
    (["catalog"], "footnote_pg.client.check_database_url"),  # while the options are read
], ids=["ask", "demo", "serve", "verify", "parsing"])
def test_ctrl_c_in_a_command_is_one_line_and_exit_130(db: TestDatabase, monkeypatch: pytest.MonkeyPatch,
                                                      command: list[str], target: str) -> None:
    monkeypatch.setattr(target, _interrupt)
    code, out, err = run(*command, "--database-url", db.url_as("auditor" if command == ["verify"] else "service"))
    assert (code, err) == (130, "interrupted\n"), out


def test_ctrl_c_while_the_command_line_loads_is_one_line_and_exit_130() -> None:
    # a real SIGINT, delivered while cli.py imports its libraries (seconds on a busy machine)
    script = """
import builtins, os, runpy, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
real_import = builtins.__import__
def importing(name, *args, **kwargs):
    if name == "rich.table":
        os.kill(os.getpid(), signal.SIGINT)
    return real_import(name, *args, **kwargs)
builtins.__import__ = importing
sys.argv = ["footnote-pg", "catalog"]
runpy.run_module("footnote_pg.cli", run_name="__main__")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "DATABASE_URL": "postgresql://nobody@127.0.0.1:1/x"})
    assert (done.returncode, done.stderr) == (130, "interrupted\n")


def test_serve_against_a_database_needs_an_actor(db: TestDatabase) -> None:
    code, _, err = run("serve", "--database-url", db.url_as("service"), "--port", "1",
                       env={"PROVENANCE_ACTOR": None, "PROVENANCE_ACTOR_ROLE": None})
    assert code == 2
    assert "--actor ID[:ROLE]" in one_line(err) and "PROVENANCE_ACTOR=id:role" in err


def test_serve_asks_as_the_actor_given(db: TestDatabase, monkeypatch: pytest.MonkeyPatch) -> None:
    from footnote_pg.web import demo, server

    seen: dict[str, Any] = {}

    def ask_once(url: str, **kwargs: Any) -> None:  # the page's database side, asked once instead of served
        page = demo.DemoApp(url, kwargs["actor"], kwargs["actor_role"])
        try:
            seen.update(page.ask("How much does Bergmann Logistik owe?"))
        finally:
            page.close()

    monkeypatch.setattr(server, "serve", ask_once)
    monkeypatch.setattr("footnote_pg.web.serve", ask_once)
    code, _, err = run("serve", "--database-url", db.url_as("service"), "--actor", "web-desk", "--actor-role",
                       "controller", env={"PROVENANCE_ACTOR": None})
    assert code == 0, err
    assert db.rows("SELECT actor_id, actor_role FROM footnote.ledger WHERE id = %s",
                   (seen["ledger"]["record_id"],)) == [("web-desk", "controller")]


@pytest.mark.parametrize("question", ["Which customers owe the most overdue?",
                                      "Which customers have the largest open balance?",
                                      "Which customers have the oldest overdue invoice?"])
def test_every_count_of_a_ranking_cites_what_it_counts(db: TestDatabase, question: str) -> None:
    fn = db.client("service")
    answer = fn.ask(question)
    assert answer.status == "verified"
    evidence = {e.id: e for e in answer.evidence}
    counts = {c["value"]: c for c in answer.claims if c["value"] in ("values.listed", "values.ranked")}
    assert set(counts) == {"values.listed", "values.ranked"}, answer.answer
    listed = counts["values.listed"]  # "5 of ...": the five customers listed
    assert [evidence[e].type for e in listed["evidence"]] == ["customer"] * int(listed["text"])
    ranked = counts["values.ranked"]  # "... of 39 with anything overdue": all 39, as one set
    [the_set] = ranked["evidence"]
    assert evidence[the_set].is_set and evidence[the_set].fields["rows"] == ranked["text"]
    rows = fn.evidence_rows(ranked["call_id"], the_set, 0, 1000)
    assert len(rows) == int(ranked["text"]) and {r.evidence.type for r in rows} == {"customer"}
    assert {e for e in listed["evidence"]} <= {r.evidence.id for r in rows}
    for c in answer.claims:  # no number stands on nothing
        if c["kind"] in ("count", "amount", "days"):
            assert c["evidence"], c
