"""Fixtures: a real PostgreSQL per backend, a template database per backend, a fresh clone per test."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from footnote_pg import install
from tests import pgservers

LOGIN_ROLES = {
    "service": ("fn_test_service", "footnote_service"),
    "auditor": ("fn_test_auditor", "footnote_auditor"),
    "outsider": ("fn_test_outsider", None),
    "owner": ("fn_test_owner", "footnote_owner"),  # a login of the DBA's mapping role (tests/test_attacks.py)
    "redactor": ("fn_test_redactor", "footnote_redactor"),  # erasure requests (tests/test_erasure.py)
}
TEST_PASSWORD = "fn-test-password"


REPORTS = pytest.StashKey[list[str]]()  # tables tests print at the end of the run (the adversarial suite)
# per-class counts that several tests (the parts of one suite, on any worker) add to one table: dicts of
# {"file", "title", "classes", "what", "rows": {class: [items, hits]}}, printed and written to test-output/<file>.txt
TALLIES = pytest.StashKey[list[dict[str, Any]]]()


def tally(config: pytest.Config, file: str, title: str, classes: tuple[str, ...], what: str,
          rows: dict[str, list[int]]) -> None:
    config.stash.setdefault(TALLIES, []).append(
        {"file": file, "title": title, "classes": list(classes), "what": what, "rows": rows})


def _tally_table(title: str, rows: dict[str, list[int]], classes: list[str], what: str) -> str:
    out = [title, f"  {'class':<20} {'items':>6} {what:>8} {'rate':>7}"]
    total = [0, 0]
    for cls in classes:
        n, hit = rows.get(cls, [0, 0])
        total[0] += n
        total[1] += hit
        out.append(f"  {cls:<20} {n:>6} {hit:>8} {100 * hit / n if n else 0:>6.1f}%")
    out.append(f"  {'all':<20} {total[0]:>6} {total[1]:>8} {100 * total[1] / max(total[0], 1):>6.1f}%")
    return "\n".join(out)


def _merged_tallies(config: pytest.Config) -> dict[str, list[str]]:
    """file -> its tables, each the sum of every part's counts."""
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for t in config.stash.get(TALLIES, []):
        m = merged.setdefault((t["file"], t["title"]), {**t, "rows": {}})
        for cls, (n, hit) in t["rows"].items():
            row = m["rows"].setdefault(cls, [0, 0])
            row[0] += n
            row[1] += hit
    files: dict[str, list[str]] = {}
    for (file, _), m in sorted(merged.items()):
        files.setdefault(file, []).append(_tally_table(m["title"], m["rows"], m["classes"], m["what"]))
    return files


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    for text in config.stash.get(REPORTS, []):
        terminalreporter.write_line(text)
    files = _merged_tallies(config)
    if files:
        out = Path("test-output")
        out.mkdir(exist_ok=True)
    for file, tables in files.items():
        text = "\n".join(tables)
        terminalreporter.write_line(f"[{file}]\n{text}")
        (out / f"{file}.txt").write_text(text + "\n", encoding="utf-8")


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker hands its reports and tallies to the controller, which prints them."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["footnote_reports"] = list(session.config.stash.get(REPORTS, []))
        workeroutput["footnote_tallies"] = list(session.config.stash.get(TALLIES, []))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    output = getattr(node, "workeroutput", {})
    node.config.stash.setdefault(REPORTS, []).extend(output.get("footnote_reports", []))
    node.config.stash.setdefault(TALLIES, []).extend(output.get("footnote_tallies", []))


# Test files whose tests share a costly module fixture (the Tryton build, the 1,000,000-invoice sample): each is
# run whole by one xdist worker, so the fixture is not built again by the other.
ONE_WORKER = ("tests/test_tryton.py::", "tests/test_explain.py::", "tests/test_ledgersmb.py::")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Every test is its own unit of work, as with ``--dist load``, except the files of ONE_WORKER, one unit each.
    The largest units are handed out first. (``xdist_group`` marks would say this, but pytest-xdist 3.8 cannot
    rename pytest 9's node ids, so ``--dist loadgroup`` does not group.)"""
    from xdist.scheduler import LoadScopeScheduling

    class OneWorkerFiles(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return next((prefix for prefix in ONE_WORKER if nodeid.startswith(prefix)), nodeid)

    return OneWorkerFiles(config, log)


# The question files end to end and through the router: every question on the first backend; on the others one
# question in SAMPLE_EVERY (the same SQL and Python again), so that a second PostgreSQL version still answers every
# family while the suite stays within its time (deselected, not skipped).
SAMPLE_EVERY = 4
SAMPLED = {("test_answers.py", "test_question_file_end_to_end"): "q", ("test_router.py", "test_question"): "entry"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    backends = pgservers.available_backends()
    first = backends[0] if backends else None
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        spec = getattr(item, "callspec", None)
        name = SAMPLED.get((item.path.name, getattr(item, "originalname", item.name)))
        if (spec is not None and name is not None and spec.params.get("server", first) != first
                and spec.indices.get(name, 0) % SAMPLE_EVERY):
            dropped.append(item)
        else:
            kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_report_header(config: pytest.Config) -> str:
    ok, why = pgservers.docker_reachable()
    return f"footnote-pg backends: {', '.join(pgservers.available_backends())}; docker: {why}"


class TestDatabase:
    """A database cloned from the template: footnote-pg installed, sample ERP loaded."""

    __test__ = False

    def __init__(self, server: pgservers.Server, name: str) -> None:
        self.server = server
        self.name = name
        self.url = server.url_for(name)
        self._clients: list[Any] = []

    def url_as(self, role: str) -> str:
        user, _group = LOGIN_ROLES[role]
        return self.server.url_for(self.name, user=user, password=TEST_PASSWORD)

    @contextmanager
    def connect(self, role: str | None = None, autocommit: bool = True) -> Iterator[psycopg.Connection[Any]]:
        with psycopg.connect(self.url_as(role) if role else self.url, autocommit=autocommit) as conn:
            yield conn

    def scalar(self, query: str, params: Any = None, role: str | None = None) -> Any:
        with self.connect(role) as conn:
            row = conn.execute(query, params).fetchone()  # type: ignore[arg-type]
        return None if row is None else row[0]

    def rows(self, query: str, params: Any = None, role: str | None = None) -> list[tuple[Any, ...]]:
        with self.connect(role) as conn:
            return conn.execute(query, params).fetchall()  # type: ignore[arg-type]

    def client(self, role: str | None = "service", **kwargs: Any) -> Any:
        from footnote_pg import Footnote

        fn = Footnote(self.url_as(role) if role else self.url, min_size=1, max_size=2, **kwargs)
        self._clients.append(fn)
        return fn

    def close(self) -> None:
        for fn in self._clients:
            fn.close()


def _create_database(server: pgservers.Server, name: str, template: str | None = None) -> None:
    with psycopg.connect(server.url, autocommit=True) as conn:
        if template:
            conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {} STRATEGY FILE_COPY").format(
                sql.Identifier(name), sql.Identifier(template)))
        else:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def _drop_database(server: pgservers.Server, name: str) -> None:
    with psycopg.connect(server.url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def _ensure_login_roles(server: pgservers.Server) -> None:
    with psycopg.connect(server.url, autocommit=True) as conn:
        for user, group in LOGIN_ROLES.values():
            exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (user,)).fetchone()
            if not exists:
                conn.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(
                    sql.Identifier(user), sql.Literal(TEST_PASSWORD)))
            group_exists = group and conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (group,)).fetchone()
            if group_exists:
                conn.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(group), sql.Identifier(user)))


@pytest.fixture(scope="session", params=pgservers.available_backends())
def server(request: pytest.FixtureRequest) -> Iterator[pgservers.Server]:
    with pgservers.start(request.param) as srv:
        yield srv


@pytest.fixture(scope="session")
def template_db(server: pgservers.Server) -> Iterator[str]:
    name = f"fn_tpl_{uuid.uuid4().hex[:8]}"
    _create_database(server, name)
    url = server.url_for(name)
    install.upgrade(url)
    install.load_sample(url)
    _ensure_login_roles(server)
    with psycopg.connect(server.url, autocommit=True) as conn:
        conn.execute(sql.SQL("ALTER DATABASE {} WITH IS_TEMPLATE true").format(sql.Identifier(name)))
    yield name
    with psycopg.connect(server.url, autocommit=True) as conn:
        conn.execute(sql.SQL("ALTER DATABASE {} WITH IS_TEMPLATE false").format(sql.Identifier(name)))
    _drop_database(server, name)


@pytest.fixture
def db(server: pgservers.Server, template_db: str) -> Iterator[TestDatabase]:
    """A fresh database with footnote-pg and the sample ERP, dropped after the test."""
    name = f"fn_t_{uuid.uuid4().hex[:10]}"
    _create_database(server, name, template=template_db)
    database = TestDatabase(server, name)
    try:
        yield database
    finally:
        database.close()
        _drop_database(server, name)


@pytest.fixture
def empty_db(server: pgservers.Server) -> Iterator[TestDatabase]:
    """A fresh, empty database (nothing of ours in it), dropped after the test."""
    name = f"fn_e_{uuid.uuid4().hex[:10]}"
    _create_database(server, name)
    _ensure_login_roles(server)
    database = TestDatabase(server, name)
    try:
        yield database
    finally:
        database.close()
        _drop_database(server, name)


@pytest.fixture(scope="module")
def module_db(server: pgservers.Server, template_db: str) -> Iterator[TestDatabase]:
    """One database for a whole module (tests in it must not depend on each other's writes)."""
    name = f"fn_m_{uuid.uuid4().hex[:10]}"
    _create_database(server, name, template=template_db)
    database = TestDatabase(server, name)
    try:
        yield database
    finally:
        database.close()
        _drop_database(server, name)
