"""Bad input to every CLI command, generated from the commands' own parameters: each mistake is one line on
stderr starting with "error:", a documented exit code (2), never a traceback, and nothing written."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import typer.core
import typer.main
from typer.testing import CliRunner

from footnote_pg.cli import app
from tests.conftest import TestDatabase
from tests.test_bad_input import BAD, VALID

COMMAND = typer.main.get_command(app)
assert isinstance(COMMAND, typer.core.TyperGroup)
NO_DATABASE = {"install --sql"}  # commands that never connect
WRITES = """SELECT (SELECT count(*) FROM footnote.call_log), (SELECT count(*) FROM footnote.ledger),
                   (SELECT coalesce(max(seq), 0) FROM footnote.ledger)"""
SUMMARY: Counter[str] = Counter()


def _files(tmp: Path) -> dict[str, Path]:
    """Files a user might hand to a command by mistake."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, rsa

    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    ec_key = ec.generate_private_key(ec.SECP256R1())
    pem = serialization.Encoding.PEM
    made = {
        "missing": tmp / "missing.json",
        "directory": tmp,
        "empty": tmp / "empty",
        "garbage": tmp / "garbage",
        "binary": tmp / "binary",
        "not-utf8": tmp / "latin1",
        "json-array": tmp / "array.json",
        "json-wrong-types": tmp / "types.json",
        "json-deep": tmp / "deep.json",
        "json-lines-broken": tmp / "broken.jsonl",
        "rsa-private": tmp / "rsa.pem",
        "rsa-public": tmp / "rsa.pub",
        "ec-private": tmp / "ec.pem",
        "truncated-pem": tmp / "truncated.pem",
    }
    made["empty"].write_bytes(b"")
    made["garbage"].write_text("this is not what you think it is\n", encoding="utf-8")
    made["binary"].write_bytes(bytes(range(256)) * 4)
    made["not-utf8"].write_bytes("{\"seq\": \"Müller\"}".encode("latin-1"))
    made["json-array"].write_text("[1, 2, 3]\n", encoding="utf-8")
    made["json-wrong-types"].write_text(json.dumps({"seq": "one", "hash": 5, "tree_size": [], "root": {},
                                                    "signature": 7, "record": "x", "proof": "y"}), encoding="utf-8")
    made["json-deep"].write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    made["json-lines-broken"].write_text('{"kind": "manifest"}\n{"seq": 1,\n', encoding="utf-8")
    made["rsa-private"].write_bytes(rsa_key.private_bytes(pem, serialization.PrivateFormat.PKCS8,
                                                          serialization.NoEncryption()))
    made["rsa-public"].write_bytes(rsa_key.public_key().public_bytes(
        pem, serialization.PublicFormat.SubjectPublicKeyInfo))
    made["ec-private"].write_bytes(ec_key.private_bytes(pem, serialization.PrivateFormat.PKCS8,
                                                        serialization.NoEncryption()))
    made["truncated-pem"].write_bytes(made["rsa-private"].read_bytes()[:120])
    return made


def _usage_cases(url: str) -> list[tuple[str, list[str]]]:
    """From every command's parameters: unknown options, missing values, values of the wrong type or range."""
    cases: list[tuple[str, list[str]]] = [("no such command", ["forecast"]), ("no such option", ["--colour"])]
    for name, command in COMMAND.commands.items():
        cases += [(label, [*argv, "--database-url", url] if _connects(command) else argv)
                  for label, argv in _command_usage_cases(name, command)]
    return cases


def _connects(command: Any) -> bool:
    return any(isinstance(p, typer.core.TyperOption) and "--database-url" in p.opts for p in command.params)


def _command_usage_cases(name: str, command: Any) -> list[tuple[str, list[str]]]:
    cases: list[tuple[str, list[str]]] = []
    cases.append((f"{name}: unknown option", [name, "--colour=red"]))
    cases.append((f"{name}: stray argument", [name, *_required_arguments(command), "one", "two", "three"]))
    for param in command.params:
        if isinstance(param, typer.core.TyperOption) and not param.is_flag:
            cases.append((f"{name} {param.opts[0]}: no value", [name, *_required_arguments(command), param.opts[0]]))
        if isinstance(param, typer.core.TyperOption) and param.is_flag:
            cases.append((f"{name} {param.opts[0]}: a value for a flag",
                          [name, *_required_arguments(command), f"{param.opts[0]}=yes"]))
        if param.type_descriptor.annotation is int:
            for bad in ("abc", "1.5", "", "-1", "0", "99999999999999999999999", "1e3", "٣"):
                argv = _with(command, name, param, bad)
                if argv is not None:
                    cases.append((f"{name} {param.name}={bad!r}", argv))
    if any(isinstance(p, typer.core.TyperArgument) and p.required for p in command.params):
        cases.append((f"{name}: missing argument", [name]))
    return cases


def _required_arguments(command: Any) -> list[str]:
    values = {"operation": "ar_aging", "question": "How much does Bergmann Logistik owe?", "seq": "1",
              "output": "/nonexistent-dir/out.jsonl", "call_id": "00000000-0000-0000-0000-000000000007",
              "evidence_set": "evidence_set:1"}
    return [values[p.name or ""] for p in command.params if isinstance(p, typer.core.TyperArgument) and p.required]


def _with(command: Any, name: str, param: Any, value: str) -> list[str] | None:
    if isinstance(param, typer.core.TyperArgument):
        rest = [v if p is not param else value for p, v in zip(
            [p for p in command.params if isinstance(p, typer.core.TyperArgument) and p.required],
            _required_arguments(command), strict=True)]
        return [name, *rest]
    if isinstance(param, typer.core.TyperOption):
        # the valid value for an integer option that has one must be bad in a range check: skip those that are valid
        if value in ("0", "-1") and getattr(param, "min", None) is None:
            return None
        return [name, *_required_arguments(command), f"{param.opts[0]}={value}"]
    return None


def _database_cases(db: TestDatabase, tmp: Path) -> list[tuple[str, list[str]]]:
    """Every command that connects, against databases it cannot use."""
    unreachable = f"postgresql://nobody@/x?host={tmp}&connect_timeout=2"
    urls = {
        "malformed URL": "postgresql://[::1",
        "not a URL": "this is not a database",
        "unknown URL option": "postgresql:///x?colour=red",
        "unreachable server": unreachable,
        "refused port": "postgresql://nobody@127.0.0.1:1/x?connect_timeout=2",
        "unknown database": db.server.url_for("no_such_database_here"),
        "unknown role": db.server.url_for(db.name, user="no_such_role", password="x"),
        "footnote-pg not installed": db.server.url_for("postgres"),
    }
    commands = {
        "call": ["call", "ar_aging"], "catalog": ["catalog"], "ask": ["ask", "What is the DSO?"],
        "verify": ["verify"], "export": ["export", str(tmp / "out.jsonl")], "digest": ["digest"],
        "receipt": ["receipt", "1"], "reattest": ["reattest", "1"], "uninstall": ["uninstall", "--yes"],
        "sample": ["sample"], "demo --once": ["demo", "--once"],
        "evidence": ["evidence", "00000000-0000-0000-0000-000000000007", "evidence_set:1"],
    }
    cases = []
    for label, url in urls.items():
        for name, argv in commands.items():
            if label == "footnote-pg not installed" and name == "sample":
                continue  # the sample loads into any database: not a mistake
            cases.append((f"{name}: {label}", [*argv, "--database-url", url]))
    return cases


def _file_cases(db: TestDatabase, tmp: Path) -> list[tuple[str, list[str]]]:
    files = _files(tmp)
    service = db.url_as("service")
    options = {
        "verify --bundle": ["verify", "--bundle"],
        "verify --receipt": ["verify", "--receipt"],
        "verify --digest": ["verify", "--database-url", service, "--digest"],
        "verify --bundle --digest": ["verify", "--bundle", str(files["json-lines-broken"]), "--digest"],
        "verify --public-key": ["verify", "--database-url", service, "--digest", str(files["garbage"]),
                                "--public-key"],
        "digest --sign-key": ["digest", "--database-url", service, "--sign-key"],
        "digest --extends": ["digest", "--database-url", service, "--extends"],
        "receipt --sign-key": ["receipt", "1", "--database-url", service, "--sign-key"],
    }
    cases = [(f"{name} {kind}", [*argv, str(path)]) for name, argv in options.items() for kind, path in files.items()]
    cases += [(f"verify --digest {a} --digest {b}", ["verify", "--digest", str(files[a]), "--digest", str(files[b])])
              for a in ("missing", "garbage", "json-array", "json-wrong-types") for b in ("missing", "empty", "binary")]
    outputs = {"missing directory": tmp / "no" / "such" / "dir" / "x", "a directory": tmp,
               "under a file": files["garbage"] / "x", "proc": Path("/proc/version/x")}
    for where, path in outputs.items():
        cases.append((f"export into {where}", ["export", str(path), "--database-url", service]))
        cases.append((f"digest -o into {where}", ["digest", "-o", str(path), "--database-url", service]))
        cases.append((f"receipt -o into {where}", ["receipt", "1", "-o", str(path), "--database-url", service]))
        if where in ("a directory", "missing directory"):
            continue  # uninstall --export writes into a directory, made if missing: not a mistake
        cases.append((f"uninstall --export into {where}", ["uninstall", "--yes", "--drop-ledger", "--export",
                                                           str(path), "--database-url", db.url]))
    return cases


def _value_cases(db: TestDatabase) -> list[tuple[str, list[str]]]:
    """Values a command accepts as text but must refuse: operation arguments, questions, times, actors, seqs."""
    service = db.url_as("service")
    cases = []
    for kind, values in BAD.items():
        argument = {"text": "customer", "date": "as_of", "integer": "limit", "period": "period"}[kind]
        operation = {"text": "customer_overdue", "date": "customer_overdue", "integer": "top_customers",
                     "period": "revenue"}[kind]
        base = {"customer_overdue": [f"customer={VALID['customer']}"], "top_customers": ["period=2026-Q2"],
                "revenue": []}[operation]
        for value in values:
            if not isinstance(value, str) or "\x00" in value:
                continue  # a command line holds strings without NUL
            cases.append((f"call {operation} {argument}={value!r:.30}",
                          ["call", operation, *base, f"{argument}={value}", "--database-url", service]))
    cases += [(f"call {pair!r}", ["call", "revenue", pair, "--database-url", service])
              for pair in ("period", "=2026-Q2", "period==2026-Q2", "colour=red", " =x", "period=2026-Q2=x")]
    cases += [(f"call operation {op!r}", ["call", op, "--database-url", service])
              for op in ("forecast", "AR_AGING", "ar aging", "'; DROP TABLE erp.invoices; --", "x" * 5000, "ar_agin")]
    for question in ("", "   ", "\t\n", "x" * 20_000, "a\x01b", "a\u202eb", "\u2066x\u2069"):
        cases.append((f"ask {question!r:.30}", ["ask", question, "--database-url", service]))
    for actor in ("", ":", "a:b:c", "x" * 500, ":auditor", "alice:", "a\x01", "a\nb"):
        cases.append((f"ask --actor {actor!r:.30}", ["ask", "What is the DSO?", "--actor", actor,
                                                     "--database-url", service]))
    for moment in ("yesterday", "2026-13-01", "2026-02-30T00:00", "", "10000-01-01", "2026-08-14T25:00"):
        for option in ("--since", "--until"):
            cases.append((f"export {option} {moment!r}", ["export", "/tmp/never-written.jsonl", option, moment,
                                                           "--database-url", service]))
    for seq in ("999999", "9223372036854775807", "9223372036854775808", "-5"):
        for name in ("receipt", "reattest"):
            cases.append((f"{name} {seq}", [name, seq, "--database-url", service]))
    for call_id, the_set in (("x", "evidence_set:1"), ("00000000-0000-0000-0000-000000000007", "evidence_set:1"),
                             ("00000000-0000-0000-0000-000000000007", "'; DROP TABLE erp.invoices; --"),
                             ("00000000-0000-0000-0000-000000000007", "x" * 5000)):
        cases.append((f"evidence {call_id[:8]} {the_set[:20]!r}", ["evidence", call_id, the_set,
                                                                   "--database-url", service]))
    cases.append(("export --from-seq after --to-seq", ["export", "/tmp/never-written.jsonl", "--from-seq", "9",
                                                       "--to-seq", "2", "--database-url", service]))
    cases.append(("verify --receipt with --bundle", ["verify", "--receipt", "a", "--bundle", "b"]))
    cases.append(("verify --jobs without --regrade", ["verify", "--jobs", "2", "--database-url", service]))
    cases.append(("verify --regrade --jobs 0", ["verify", "--regrade", "--jobs", "0", "--database-url", service]))
    cases.append(("verify three digests", ["verify", "--digest", "a", "--digest", "b", "--digest", "c"]))
    cases.append(("uninstall as the service role", ["uninstall", "--yes", "--database-url", service]))
    cases.append(("uninstall as the auditor", ["uninstall", "--yes", "--database-url", db.url_as("auditor")]))
    cases.append(("uninstall with records", ["uninstall", "--yes", "--database-url", db.url]))
    cases.append(("install as the service role", ["install", "--database-url", service]))
    cases.append(("sample twice", ["sample", "--database-url", db.url]))
    cases.append(("install --sql --from an unknown revision", ["install", "--sql", "--from", "0004_nope"]))
    cases.append(("install --from without --sql", ["install", "--from", "0001_core", "--database-url", db.url]))
    for revision in ("0004_nope", "", "head", "'; DROP SCHEMA footnote CASCADE; --"):
        cases.append((f"install --stamp {revision!r}", ["install", "--stamp", revision, "--database-url", db.url]))
    return cases


def test_every_cli_mistake_is_one_line_exit_2_and_writes_nothing(db: TestDatabase, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # a ledger with records, so that receipts, reattest and uninstall meet a real chain
    with db.client("service", actor="cli-suite") as fn:
        assert fn.ask("How much does Bergmann Logistik owe?").ok
    cases = (_usage_cases(db.url_as("service")) + _database_cases(db, tmp_path) + _file_cases(db, tmp_path)
             + _value_cases(db))
    runner = CliRunner(env={"DATABASE_URL": None, "PGHOST": None, "PGDATABASE": None, "PGSERVICE": None,
                            "PGUSER": None, "PGPORT": None, "PROVENANCE_ACTOR": None, "FOOTNOTE_DATA_DIR": None})
    failures = []
    before = db.rows(WRITES)[0]
    for label, argv in cases:
        result = runner.invoke(app, argv)
        problem = None
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            problem = f"traceback: {type(result.exception).__name__}: {result.exception}"
        elif result.exit_code != 2:
            problem = f"exit {result.exit_code}"
        elif not result.stderr.startswith("error: ") or result.stderr.count("\n") != 1:
            problem = f"stderr not one error line: {result.stderr[:300]!r}"
        elif len(result.stderr) > 600:
            problem = f"error line of {len(result.stderr)} characters"
        elif result.stdout.strip():
            problem = f"stdout: {result.stdout[:200]!r}"
        if problem:
            failures.append(f"{label}: {problem}")
        SUMMARY[label.split(":")[0].split(" ")[0]] += 1
        assert db.scalar("SELECT to_regclass('footnote.ledger') IS NOT NULL"), f"{label} removed footnote-pg"
    after = db.rows(WRITES)[0]
    with capsys.disabled():
        print(f"\nCLI bad input: {len(cases)} cases over {len(SUMMARY)} commands, {len(failures)} failures")
    assert not failures, f"{len(failures)} of {len(cases)}:\n" + "\n".join(failures[:60])
    assert len(cases) >= 450
    assert after == before, "a failed command wrote to the call log or the ledger"
    assert Path("/tmp/never-written.jsonl").exists() is False
