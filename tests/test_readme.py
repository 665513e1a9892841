"""Every example in the README and in the pages of docs/ runs: its commands (in the order the page gives them,
with the output it shows), its SQL (as the role it names) and its Python. Blocks that start a server or need what
this machine lacks are listed, each with the test that runs it instead."""

from __future__ import annotations

import ast
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from footnote_pg import install
from footnote_pg.cli import app
from tests.conftest import TestDatabase

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
# the README first, then every page of the site
PAGES = {name: (ROOT / name).read_text(encoding="utf-8")
         for name in ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]}

# blocks run elsewhere, by the first words of the block: what runs them instead
ELSEWHERE = {
    "python3 -m venv": "the Quick start: .ci/run runs the second command on a clean clone; the first is the demo",
    "footnote-pg install --mapping tryton": "tests/test_tryton.py installs it into a real Tryton 8 database",
    "footnote-pg install --mapping ledgersmb": "tests/test_ledgersmb.py installs it into a LedgerSMB 1.6 company built by LedgerSMB's own code",
    "footnote-pg mcp": "tests/test_mcp.py (stdio and streamable HTTP) and tests/test_operable.py (SIGTERM)",
    "from footnote_pg.web import serve": "tests/test_web.py serves the page in-process",
    "from langchain_mcp_adapters": "langchain-mcp-adapters is not a dependency; tests/test_mcp.py is the same client",
    "from alembic import op": "tests/test_host_alembic.py runs it in a real host Alembic project",
    "from opentelemetry import trace": "tests/test_tracing.py sets a provider and records the spans in memory",
    "fn.check_answer(text, None, call_ids)": "a summary of signatures; tests/test_gate.py calls each of them",
    "footnote-pg verify --digest DIR/footnote-checkpoint": "tests/test_retention.py makes a prune with --export and "
                                                           "runs these three checks after it",
}


@dataclass(frozen=True)
class Block:
    """One fenced example: the page it is on, its language, its text, its line and the page's text before it."""

    page: str
    lang: str
    body: str
    line: int
    before: str

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(text: str | None = None) -> Iterator[Block]:
    """The fenced blocks of every page, in order, or of one part of a page."""
    for page, whole in PAGES.items():
        if text is not None and text not in whole:
            continue
        offset = whole.index(text) if text is not None else 0
        for m in FENCE.finditer(text if text is not None else whole):
            start = offset + m.start()
            yield Block(page, m.group(1), m.group(2), whole[:start].count("\n") + 1, whole[:start])


def _elsewhere(body: str) -> str | None:
    first = next((line.strip().lstrip("$ ") for line in body.splitlines()
                  if line.strip() and not line.strip().startswith("#")), "")
    return next((why for start, why in ELSEWHERE.items() if first.startswith(start)), None)


def section(page: str, heading: str | None = None) -> str:
    """A page, or the part of it from a heading to the next heading of the same or a higher level."""
    text = PAGES[page]
    if heading is None:
        return text
    start = text.index(heading + "\n")
    level = len(heading) - len(heading.lstrip("#"))
    following = re.search(rf"^#{{1,{level}}} ", text[start + len(heading):], re.M)
    return text[start:start + len(heading) + (following.start() if following else len(text))]


class Shell:
    """Runs the pages' command lines in-process, in a working directory, against one database."""

    def __init__(self, db: TestDatabase, cwd: Path) -> None:
        self.db, self.cwd = db, cwd
        self.runner = CliRunner(env={"DATABASE_URL": None, "PGHOST": None, "PGDATABASE": None, "PGSERVICE": None})
        self.ran: list[str] = []

    def argv(self, line: str) -> tuple[list[str], str | None, str]:
        text = line.strip().removeprefix("$ ")
        text, _, comment = re.split(r"(\s#\s)", text + " ", maxsplit=1) if " # " in text + " " else (text, "", "")
        text, _, redirect = text.partition(" > ")
        argv = shlex.split(text)[1:]  # without "footnote-pg"
        # the pages' placeholders: a database, a record, a revision, a big sample
        argv = [self.db.url if a in ("...", "postgresql://admin@db/erp") else a for a in argv]
        argv = ["1" if a == "42" else install.head_revision() if a == "REVISION" else a for a in argv]
        if "--database-url" not in argv and not _offline(argv):
            argv += ["--database-url", self.db.url]
        return argv, redirect.strip() or None, comment

    def run(self, line: str) -> tuple[int, str, str]:
        argv, redirect, comment = self.argv(line)
        import os

        here = os.getcwd()
        os.chdir(self.cwd)
        try:
            result = self.runner.invoke(app, argv)
        finally:
            os.chdir(here)
        assert result.exception is None or isinstance(result.exception, SystemExit), \
            f"{line}: {type(result.exception).__name__}: {result.exception}"
        expected = 2 if "refused" in comment else 0
        assert result.exit_code == expected, f"{line}: exit {result.exit_code}: {result.stderr[-500:]}"
        if redirect:
            (self.cwd / redirect).write_text(result.stdout, encoding="utf-8")
        self.ran.append(line.strip())
        return result.exit_code, result.stdout, result.stderr


def _offline(argv: list[str]) -> bool:
    return "--sql" in argv or "--bundle" in argv or "--receipt" in argv or argv.count("--digest") == 2


def command_lines(text: str) -> Iterator[str]:
    """Each command of the sh blocks in a part of a page; an optional [--sign-key FILE] part gives the
    command without it and, where it names a file, with it."""
    for m in FENCE.finditer(text):
        lang, body = m.group(1), m.group(2)
        if lang != "sh" or _elsewhere(body):
            continue
        for line in body.splitlines():
            if not line.strip().startswith("footnote-pg "):
                continue
            yield re.sub(r"\s*\[[^\]]*\]", "", line)
            optional = re.findall(r"\[([^\]|]*)\]", line.split(" # ")[0])
            if optional and all(re.fullmatch(r"--[a-z-]+ [a-z0-9.]+", o) for o in optional):
                yield line.replace("[", "").replace("]", "")


def _keys(cwd: Path) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ed25519

    key = ed25519.Ed25519PrivateKey.generate()
    (cwd / "ed25519.pem").write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                        serialization.NoEncryption()))
    (cwd / "pub.pem").write_bytes(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                                serialization.PublicFormat.SubjectPublicKeyInfo))


def _record_answers(db: TestDatabase, n: int = 2) -> None:
    with db.client("service", actor="readme") as fn:
        for _ in range(n):
            assert fn.ask("How much does Bergmann Logistik owe?").ok


def test_the_install_commands_run(db: TestDatabase, tmp_path: Path) -> None:
    _record_answers(db, 1)
    shell = Shell(db, tmp_path)
    lines = list(command_lines(section("docs/install.md")))
    assert len(lines) >= 6
    for line in lines:
        shell.run(line)
    assert "CREATE SCHEMA footnote " in (tmp_path / "footnote-pg.sql").read_text(encoding="utf-8")
    assert "Running upgrade 0015_privileges -> 0016_reading" in (tmp_path / "up.sql").read_text(encoding="utf-8")
    assert db.scalar("SELECT to_regnamespace('footnote')") is None  # the last example removed it, after exporting
    assert list((tmp_path / "kept").glob("ledger-*.jsonl"))


def test_the_ledger_and_receipt_commands_run_in_order(db: TestDatabase, tmp_path: Path) -> None:
    _record_answers(db, 2)
    _keys(tmp_path)
    shell = Shell(db, tmp_path)
    lines = list(command_lines(section("docs/auditors.md")))
    assert len(lines) >= 14, lines
    for line in lines:
        if line.strip().startswith("footnote-pg digest --extends"):
            _record_answers(db, 1)  # the ledger grows between the two digests, as it would
        shell.run(line)
    assert {p.name for p in tmp_path.iterdir()} >= {"head.json", "head2.json", "ledger.jsonl", "r42.json"}


def test_the_shown_outputs_are_what_the_commands_print(db: TestDatabase, tmp_path: Path) -> None:
    shell = Shell(db, tmp_path)
    shown = [b.body for b in blocks() if b.lang == "" and b.body.startswith("$ footnote-pg")]
    assert len(shown) == 2
    for body in shown:
        command, *printed = body.splitlines()
        _, out, _ = shell.run(command)
        for line in printed:
            tokens = [t.rstrip(",") for t in line.split() if "…" not in t]
            missing = [t for t in tokens if t not in out]
            assert not missing, f"{command}: {line!r}: {missing} not in\n{out}"


def test_the_mapping_commands_run(db: TestDatabase, tmp_path: Path) -> None:
    part = section("docs/mapping.md", "## Check, test and keep a mapping")
    (toml,) = [b.body for b in blocks(part) if b.lang == "toml"]
    (tmp_path / "figures.toml").write_text(toml, encoding="utf-8")
    shell = Shell(db, tmp_path)
    lines = list(command_lines(part))
    assert [line.split()[2] for line in lines] == ["check", "test", "drop", "apply"]
    for line in lines:
        shell.run(line)
    assert (tmp_path / "mapping.sql").read_text(encoding="utf-8").startswith("-- footnote-pg mapping saved")
    assert db.scalar("SELECT count(*) FROM footnote_src.invoices") > 0  # applied again


def test_the_sample_command_runs(empty_db: TestDatabase, tmp_path: Path) -> None:
    install.upgrade(empty_db.url)
    (line,) = [line for text in PAGES.values() for line in command_lines(text) if line.startswith("footnote-pg sample")]
    shell = Shell(empty_db, tmp_path)
    shell.run(line.replace("1000000", "300"))  # the same command, smaller
    assert empty_db.scalar("SELECT count(*) FROM erp.invoices") == 300


def _role(body: str, text_before: str) -> str | None:
    if "as a member of footnote_service" in body:
        return "service"
    if "<!-- auditor-queries -->" in text_before[-300:]:
        return "auditor"
    return None


def test_every_sql_example_runs_as_the_role_it_names(db: TestDatabase) -> None:
    ran = 0
    for block in blocks():
        if block.lang != "sql":
            continue
        body = block.body
        role = _role(body, block.before)
        with db.connect(role, autocommit=False) as conn:
            if "sap." in body:  # the mapping example reads an SAP schema: make the tables it names
                conn.execute("CREATE SCHEMA sap")
                conn.execute("CREATE TABLE sap.vbrk (vbeln text, kunrg text, fkdat date, zterm integer, "
                             "netwr numeric, mwsbk numeric, fkart text)")
                conn.execute("CREATE TABLE sap.kna1 (kunnr text, name1 text)")
            if "gin_trgm_ops" in body:  # the sample ERP installed pg_trgm into its own schema
                conn.execute("SELECT set_config('search_path', current_setting('search_path') || ', erp', true)")
            for statement in _statements(body):
                conn.execute(statement)  # type: ignore[arg-type]
            conn.rollback()  # roles and views made by the examples go again
        ran += 1
    assert ran >= 4


def _statements(body: str) -> list[str]:
    from footnote_pg.sqlfiles import split_statements

    return [s for s in split_statements(body) if s.strip()]


def _python_lines(body: str) -> list[str]:
    """The runnable lines of an example: placeholders like [...] or … stay on the page only."""
    return [line for line in body.splitlines() if "[...]" not in line and "…\"" not in line]


def _check_comment(source_line: str, scope: dict[str, Any]) -> None:
    """``expr  # 'shown value'``: the expression has the value the comment shows (when it shows one exactly)."""
    code, _, comment = source_line.partition("#")
    comment = comment.strip()
    if not code.strip() or "…" in comment:
        return
    try:
        expected = ast.literal_eval(comment)
    except (ValueError, SyntaxError):
        return
    assert eval(code.strip(), scope) == expected, source_line  # noqa: S307 - the page's own example


def test_the_python_examples_run(db: TestDatabase, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", db.url_as("service"))
    ran = 0
    for block in blocks():
        body = block.body
        if block.lang != "python" or _elsewhere(body):
            continue
        source = "\n".join(_python_lines(body)).replace('"postgresql://assistant@db/erp"', "DATABASE_URL")
        installer = "from footnote_pg import install" in body  # runs migrations: the installer's URL
        scope: dict[str, Any] = {"DATABASE_URL": db.url if installer else db.url_as("service")}
        exec(compile(source, block.where, "exec"), scope)  # noqa: S102 - the page's own example
        if "def upgrade" in source:
            scope["upgrade"]()
            assert install.current_revision(db.url) == install.head_revision()
        ran += 1
    assert ran >= 2


def test_the_shown_python_values_are_what_the_client_returns(db: TestDatabase) -> None:
    (body,) = [b.body for b in blocks() if b.lang == "python" and 'fn.call("customer_overdue"' in b.body]
    with db.client("service", actor="zoran", actor_role="controller") as fn:
        scope: dict[str, Any] = {"fn": fn, "result": fn.call("customer_overdue", customer="Bergmann Logistik")}
        checked = 0
        for line in body.splitlines()[3:]:
            _check_comment(line.strip(), scope)
            checked += 1
    assert checked == 3


# the parts of the pages whose commands the tests above run, in order
RUN_HERE = [("docs/install.md", None), ("docs/mapping.md", "## Check, test and keep a mapping"),
            ("docs/auditors.md", None)]


def test_every_command_on_the_pages_is_run_here_or_elsewhere() -> None:
    covered = [section(page, heading) for page, heading in RUN_HERE]
    loose = []
    for block in blocks():
        if block.lang != "sh" or _elsewhere(block.body):
            continue
        for text in block.body.splitlines():
            if text.strip().startswith("footnote-pg ") and not any(block.body in part for part in covered) and \
                    not text.strip().startswith("footnote-pg sample"):
                loose.append(f"{block.where}: {text.strip()}")
    assert loose == [], "commands no test runs: " + "; ".join(loose)


def test_every_example_is_run_here_or_named_with_the_test_that_runs_it() -> None:
    languages = {"sh", "sql", "python", ""}
    unrun = []
    for block in blocks():
        if block.lang not in languages or _elsewhere(block.body):
            continue
        if block.lang == "" and not block.body.startswith("$ footnote-pg"):
            continue  # diagrams and output listings
        if block.lang == "sh" and not any(b.strip().startswith(("footnote-pg ", "python"))
                                          for b in block.body.splitlines()):
            unrun.append(block.where)
    assert unrun == [], f"blocks at {unrun} are neither run here nor listed in ELSEWHERE"
