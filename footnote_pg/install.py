"""Install, upgrade and remove footnote-pg in a database, and load the sample ERP.

The schema goes in through Alembic (one transaction, statement by statement,
from SQL frozen per revision). The sample ERP is a separate step: installing
into a real ERP database never creates it.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
from alembic.config import Config
from alembic.script import ScriptDirectory

from alembic import command
from footnote_pg import errors, sqlfiles

log = logging.getLogger(__name__)

DEFAULT_SAMPLE_INVOICES = 2400
DEFAULT_SAMPLE_SEED = 42


def _config(url: str | None = None, output_buffer: Any = None) -> Config:
    cfg = Config(output_buffer=output_buffer) if output_buffer is not None else Config()
    cfg.set_main_option("script_location", str(sqlfiles.alembic_dir()))
    if url is not None:
        cfg.attributes["url"] = url
    return cfg


def head_revision() -> str:
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


# where the installed revision is: footnote_meta.alembic_version, or public.footnote_alembic_version in an
# install from before it moved (the next migration moves it)
VERSION_TABLE_FOUND = """SELECT coalesce(to_regclass('footnote_meta.alembic_version')::text,
                                         to_regclass('public.footnote_alembic_version')::text)"""


def revisions() -> list[str]:
    """Every revision, oldest first."""
    return [r.revision for r in reversed(list(ScriptDirectory.from_config(_config()).walk_revisions()))]


def current_revision(url: str) -> str | None:
    """The revision installed in the database, or None."""
    with psycopg.connect(url, autocommit=True) as conn:
        found = conn.execute(VERSION_TABLE_FOUND).fetchone()
        if not found or not found[0]:
            return None
        moved = found[0] == "footnote_meta.alembic_version"
        row = conn.execute("SELECT version_num FROM footnote_meta.alembic_version" if moved else
                           "SELECT version_num FROM public.footnote_alembic_version").fetchone()
        return row[0] if row else None


def installed(url: str) -> bool:
    """Whether any of footnote-pg is in the database: its version row or one of its schemas."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT to_regclass('public.footnote_alembic_version') IS NOT NULL OR EXISTS "
                           "(SELECT FROM pg_catalog.pg_namespace WHERE nspname IN ('footnote', 'footnote_src', "
                           "'footnote_meta'))").fetchone()
    return bool(row and row[0])


def _schema_without_revision(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT to_regnamespace('footnote') IS NOT NULL").fetchone()
    return bool(row and row[0]) and current_revision(url) is None


# The roles an installer that is not a superuser acts as while it installs (it grants itself membership, which
# PostgreSQL 16+ allows only with the ADMIN option: the creator of a role has it, a role created by another has not)
ACTED_AS = ("footnote_owner", "footnote_ledger")
ROLES = ("footnote_ledger", "footnote_owner", "footnote_service", "footnote_auditor", "footnote_gateway",
         "footnote_redactor")
ROLES_WITHOUT_ADMIN = """
    SELECT r.rolname, r.rolname = ANY(%(acted)s) AND NOT pg_catalog.pg_has_role(current_user, r.oid,
               CASE WHEN pg_catalog.current_setting('server_version_num')::int >= 160000 THEN 'SET' ELSE 'MEMBER' END),
           pg_catalog.quote_ident(current_user)
    FROM pg_catalog.pg_roles AS r
    WHERE r.rolname = ANY(%(roles)s)
      AND pg_catalog.current_setting('server_version_num')::int >= 160000
      AND NOT (SELECT u.rolsuper FROM pg_catalog.pg_roles AS u WHERE u.rolname = current_user)
      AND NOT pg_catalog.pg_has_role(current_user, r.oid, 'MEMBER WITH ADMIN OPTION')
    ORDER BY array_position(%(roles)s, r.rolname::text)"""


def admin_grant_needed(url: str) -> tuple[str | None, bool]:
    """(The GRANT a superuser runs so that this installer holds the ADMIN option on every footnote role that
    exists without it, or None; whether installing needs it). On PostgreSQL 16+ a CREATEROLE installer has ADMIN
    only on the roles it created itself: roles created by another installer, or by a DBA beforehand, it can neither
    act as while installing nor grant to login roles (CREATE ROLE ... IN ROLE footnote_service)."""
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(ROLES_WITHOUT_ADMIN, {"acted": list(ACTED_AS), "roles": list(ROLES)}).fetchall()
    if not rows:
        return None, False
    return (f"GRANT {', '.join(name for name, _, _ in rows)} TO {rows[0][2]} WITH ADMIN OPTION, INHERIT FALSE, "
            "SET FALSE", any(needed for _, needed, _ in rows))


def _refuse_without_admin(url: str) -> None:
    grant, needed = admin_grant_needed(url)
    if needed:
        raise errors.PermissionDenied(
            f"permission denied: the footnote roles exist already (created by another role) and this installer "
            f"holds no ADMIN option on {' and '.join(ACTED_AS)}, which it needs to act as them while it installs "
            f"(PostgreSQL 16+); a superuser runs: {grant}; then run footnote-pg install again")


def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database to ``revision``; a no-op when it is there already."""
    _refuse_without_admin(url)
    if _schema_without_revision(url):
        raise errors.Protected(
            "schema footnote exists but no footnote-pg revision is recorded (footnote_meta.alembic_version is "
            "missing or empty): it was not installed by footnote-pg install, or its version row was removed. "
            "Record the revision it is at (footnote-pg install --stamp REVISION), or drop the schema first")
    with _mapped_errors(), _host_run_kept():
        command.upgrade(_config(url), revision)


def _listed(known: list[str]) -> str:
    """The revisions for an error line a person reads: all of them, or the first, the last and how many."""
    listed = ", ".join(known)
    if len(listed) > 400:
        listed = f"{known[0]} to {known[-1]}, {len(known)} revisions numbered in order"
    return listed


def stamp(url: str, revision: str) -> None:
    """Record ``revision`` as installed without running anything (for a schema installed from the SQL script)."""
    known = revisions()
    if revision not in known:
        raise errors.InvalidArgument(f"invalid argument stamp: {revision[:60]!r} is not a revision; "
                                     f"they are {_listed(known)}", {"argument": "stamp"})
    with _mapped_errors(), _host_run_kept():
        command.stamp(_config(url), revision)


def downgrade(url: str, revision: str = "base", *, drop_ledger: bool = False) -> None:
    """Go back to ``revision``; ``base`` removes every object of ours and no ERP object, and refuses (FN107)
    while the ledger or the call log hold rows unless ``drop_ledger``."""
    cfg = _config(url)
    cfg.attributes["drop_ledger"] = drop_ledger
    for attempt in range(DEADLOCK_ATTEMPTS):
        try:
            with _mapped_errors(), _host_run_kept():
                command.downgrade(cfg, revision)
            return
        except Exception as exc:  # a deadlock is PostgreSQL ending our side: its transaction undid nothing of note
            cause = getattr(exc, "orig", exc)
            if getattr(cause, "sqlstate", None) != "40P01" or attempt == DEADLOCK_ATTEMPTS - 1:
                raise


# REASSIGN OWNED and DROP OWNED on the way down lock shared catalogs, so DDL of other sessions on the same server
# (another database's install, say) can deadlock with them; PostgreSQL then rolls one side back, and the downgrade
# is tried again from the revision the database is at.
DEADLOCK_ATTEMPTS = 3


@contextmanager
def _host_run_kept() -> Iterator[None]:
    """Our revisions run inside a host application's Alembic migration (``install.upgrade(url)`` from one of its
    revisions) without ending the host's run. Alembic keeps the running migration's environment and operations in
    module-level proxies (``alembic.context``, ``alembic.op``); a nested command installs its own and removes them
    when it ends, which leaves the host's ``op`` None and makes the host's own exit fail (KeyError). The host's
    proxies are put back when ours end, however they end."""
    from alembic import context as environment
    from alembic import op

    host = [proxy for proxy in (getattr(environment, "_proxy", None), getattr(op, "_proxy", None))
            if proxy is not None]
    try:
        yield
    finally:
        for proxy in host:
            proxy._install_proxy()


@contextmanager
def _mapped_errors() -> Iterator[None]:
    """A migration that PostgreSQL refuses (a permission, a dependent object, the ledger's guard) is a footnote-pg
    error with the server's reason, not SQLAlchemy's trace."""
    try:
        yield
    except Exception as exc:
        mapped = errors.from_psycopg(getattr(exc, "orig", exc))
        if mapped is None:
            raise
        raise mapped from exc


def held_records(url: str) -> tuple[int, int]:
    """(ledger records sealed or queued, call log rows); (0, 0) when footnote-pg is not installed."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT to_regclass('footnote.ledger') IS NOT NULL").fetchone()
        if not row or not row[0]:
            return 0, 0
        counts = conn.execute("SELECT (SELECT count(*) FROM footnote.ledger) + (SELECT count(*) FROM "
                              "footnote.ledger_queue), (SELECT count(*) FROM footnote.call_log)").fetchone()
        assert counts is not None
        return int(counts[0]), int(counts[1])


def export_before_uninstall(url: str, directory: Path) -> dict[str, Path]:
    """Seal what waits, then write the ledger bundle (verified offline after writing), the call log and a digest
    into ``directory``; refuses when the written bundle does not verify."""
    from footnote_pg import canonical, ledger

    directory.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    paths = {"bundle": directory / f"ledger-{stamp}.jsonl", "calls": directory / f"calls-{stamp}.jsonl",
             "digest": directory / f"digest-{stamp}.json"}
    with psycopg.connect(url, autocommit=True) as conn:  # the signed-tree-head digest `footnote-pg digest` writes
        conn.execute("SELECT footnote.seal()")
        head = ledger.tree_head(conn)
    with psycopg.connect(url) as conn:  # one snapshot for bundle and calls: it holds at least the digest's records
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        ledger.export_bundle(conn, paths["bundle"])
        with open(paths["calls"], "w", encoding="utf-8") as out, conn.cursor(name="footnote_calls") as cur:
            cur.execute("SELECT jsonb_build_object('call_id', call_id, 'called_at', called_at, 'db_role', db_role, "
                        "'actor', jsonb_build_object('id', actor_id, 'role', actor_role), 'operation', operation, "
                        "'result', result, 'result_hash', result_hash)::text FROM footnote.call_log ORDER BY called_at")
            for (line,) in cur:
                out.write(canonical.canonical_json(canonical.loads(line)) + "\n")
    verdict = ledger.verify_bundle(paths["bundle"])
    if not verdict.ok:
        raise errors.Protected(f"the export {paths['bundle']} does not verify ({verdict.line()}): nothing removed")
    if head is not None:
        paths["digest"].write_text(canonical.canonical_json(ledger.make_digest(head)) + "\n", encoding="utf-8")
    else:
        del paths["digest"]
    return paths


def uninstall(url: str, *, drop_ledger: bool = False) -> None:
    """Downgrade to base and drop Alembic's version table: nothing of ours is left. Refuses (FN107) while the
    ledger or the call log hold rows unless ``drop_ledger`` (export them first: ``export_before_uninstall``)."""
    downgrade(url, "base", drop_ledger=drop_ledger)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP SCHEMA IF EXISTS footnote_meta CASCADE")  # the version table, and nothing else
        conn.execute("DROP TABLE IF EXISTS public.footnote_alembic_version")  # where an older install kept it


def offline_script(revision: str = "head", from_revision: str | None = None) -> str:
    """The SQL script for review; never connects. For a fresh database: today's schema squashed into one script
    (``squashed_script``). With ``from_revision``: only the revisions after it (for change control of an upgrade),
    as Alembic runs them."""
    known = revisions()
    if from_revision is None:
        return squashed_script()
    if from_revision not in known:
        raise errors.InvalidArgument(f"invalid argument from: {from_revision[:60]!r} is not a revision; "
                                     f"they are {_listed(known)}", {"argument": "from"})
    buffer = io.StringIO()
    command.upgrade(_config(output_buffer=buffer), f"{from_revision}:{revision}", sql=True)
    return buffer.getvalue()


def squashed_script() -> str:
    """Today's schema as one reviewable transaction: the files of sql/ in order (what the revisions add up to,
    as the drift test proves), between the statements every revision runs first and last, then Alembic's stamp
    of the head revision, so a later ``install`` continues from it. Never connects."""
    from footnote_pg import migration

    buffer = io.StringIO()
    command.stamp(_config(output_buffer=buffer), "head", sql=True)
    stamp_sql = buffer.getvalue()
    cut = stamp_sql.index("-- Running stamp_revision")
    parts = [f"-- footnote-pg {head_revision()}: today's schema in one transaction, for a database without it:\n"
             "-- the files of sql/ in order, then the stamp of the revision they make (for an upgrade:\n"
             "-- footnote-pg install --sql --from REVISION).\n\n", stamp_sql[:cut],
             "-- our own DDL passes the event trigger of sql/95_protect.sql, for this transaction only\n",
             migration.ALLOW_DDL + "\n", migration.ACT_AS_LEDGER.strip() + "\n\n"]
    for path in sqlfiles.schema_files():
        parts.append(f"-- ==== sql/{path.name} {'=' * max(3, 64 - len(path.name))}\n\n")
        parts.append(path.read_text(encoding="utf-8").strip() + "\n\n")
    parts += [migration.LEAVE_LEDGER.strip() + "\n\n", stamp_sql[cut:]]
    return "".join(parts)


# ERP mappings shipped in sql/mappings/: name -> (the ERP's name, a query that is true when its tables are there)
MAPPINGS = {
    "tryton": ("Tryton", "SELECT to_regclass('public.ir_module') IS NOT NULL "
                         "AND to_regclass('public.account_invoice') IS NOT NULL"),
    "ledgersmb": ("LedgerSMB", "SELECT to_regclass('public.entity_credit_account') IS NOT NULL "
                               "AND to_regclass('public.acc_trans') IS NOT NULL"),
}


# The ERP's own model of each record type whose deep-link id is the ERP's id, for links into its UI
# (payments and stock combine two ids in theirs, so they have no page of their own)
UI_MODELS = {
    "tryton": {"customer": "party.party", "supplier": "party.party", "invoice": "account.invoice",
               "credit_note": "account.invoice", "supplier_invoice": "account.invoice",
               "purchase_order": "purchase.purchase", "ticket": "sale.complaint", "item": "product.product"},
}


def protection(url: str) -> list[str]:
    """What keeps the evidence safe in this database, one line each: the ledger role's members, the event
    trigger, whether sealing can take its lock over (docs/threat-model.md)."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("""
            SELECT (SELECT string_agg(u.rolname || CASE WHEN m.admin_option AND NOT pg_has_role(u.oid, r.oid, 'USAGE')
                                                        THEN ' (ADMIN only)' ELSE '' END, ', ' ORDER BY u.rolname)
                    FROM pg_auth_members AS m JOIN pg_roles AS u ON u.oid = m.member WHERE m.roleid = r.oid),
                   EXISTS (SELECT FROM pg_event_trigger WHERE evtname = 'footnote_guard_ddl' AND evtenabled <> 'D'),
                   pg_has_role(r.oid, 'pg_signal_backend', 'USAGE') AND pg_has_role(r.oid, 'pg_read_all_stats', 'USAGE')
            FROM pg_roles AS r WHERE r.rolname = 'footnote_ledger'""").fetchone()
    if row is None:
        return []
    members, guarded, takes_over = row
    lines = [f"footnote_ledger (owns the evidence) has members: {members}; revoke them" if members and
             "ADMIN only" not in members else
             "footnote_ledger (owns the evidence) has no member" + (
                 f" ({members}: PostgreSQL 16+ leaves the CREATEROLE role that created it ADMIN, to grant it, not to "
                 "act as it)" if members else "")]
    lines.append("DDL guard on: DDL on schema footnote is refused by the event trigger footnote_guard_ddl" if guarded
                 else "DDL guard off: no event trigger: installed without a superuser, so DDL by footnote_owner's "
                 "members on what it owns (the computations, the mapping) is not refused; a superuser adds it by "
                 "running sql/95_protect.sql in this database (docs/install.md, docs/threat-model.md)")
    if not takes_over:
        lines.append("sealing cannot end a session that holds the chain's lock: a superuser runs GRANT "
                     "pg_signal_backend, pg_read_all_stats TO footnote_ledger")
    return lines


def set_ui_links(url: str, name: str, base: str) -> dict[str, str]:
    """Point the ui_links setting at the ERP's own UI: BASE/model/<model>/{id} for each record type (Tryton's
    web client: https://host/#database; its desktop client: tryton://host/database)."""
    check_ui_url(base)
    if name not in UI_MODELS:
        raise errors.InvalidArgument(f"invalid argument ui-url: the {name} mapping has no links into "
                                     f"{MAPPINGS[name][0]}'s screens", {"argument": "ui-url"})
    links = {kind: f"{base.rstrip('/')}/model/{model}/{{id}}" for kind, model in UI_MODELS[name].items()}
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE footnote.settings SET value = %s WHERE key = 'ui_links'", (json.dumps(links),))
    return links


def check_ui_url(base: str) -> None:
    """Refuse, in one line, a base that cannot start a link (the ui_links setting's own rule)."""
    if not re.fullmatch(r"[a-z][a-z0-9+.-]*://[^\s{}]+", base):
        raise errors.InvalidArgument(f"invalid argument ui-url: {base[:80]!r} is not a link such as "
                                     "https://tryton.example/#tryton", {"argument": "ui-url"})


def mapping_path(name: str) -> Path:
    """The shipped mapping ``sql/mappings/<name>.sql``; refuses a name that is not one."""
    if name not in MAPPINGS:
        raise errors.InvalidArgument(f"invalid argument mapping: {name[:60]!r} is not a shipped mapping; "
                                     f"they are {', '.join(MAPPINGS)}", {"argument": "mapping"})
    return sqlfiles.sql_dir() / "mappings" / f"{name}.sql"


def require_erp(url: str, name: str) -> None:
    """Refuse with one line when the database holds none of the tables of the ERP that mapping ``name`` reads."""
    mapping_path(name)
    erp, present = MAPPINGS[name]
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            row = conn.execute(present).fetchone()
    except psycopg.OperationalError as exc:
        raise errors.connection_failed(exc) from exc
    if not (row and row[0]):
        raise errors.InvalidArgument(f"invalid argument mapping: this database has no {erp} tables; run "
                                     f"footnote-pg install --mapping {name} in the {erp} database itself",
                                     {"argument": "mapping"})


def apply_mapping(url: str, name: str) -> int:
    """Map the source views onto the ERP's own tables with a shipped mapping, in one transaction; the statements
    run. Refuses with one line when the database holds none of that ERP's tables."""
    from footnote_pg import mapping

    require_erp(url, name)
    path = mapping_path(name)
    try:
        return mapping.apply(url, path)
    except errors.InvalidArgument as exc:  # the script failed: say so of the mapping asked for
        raise errors.InvalidArgument(str(exc).replace("invalid argument file:", "invalid argument mapping:", 1),
                                     {"argument": "mapping"}) from None


def sample_installed(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT to_regnamespace('erp') IS NOT NULL").fetchone()
        return bool(row and row[0])


def load_sample(url: str, invoices: int = DEFAULT_SAMPLE_INVOICES, seed: int = DEFAULT_SAMPLE_SEED) -> dict[str, int]:
    """Create the sample ERP (schema erp), map the source views onto it and fill it.

    Returns row counts per table. Requires footnote-pg installed; refuses when
    schema erp exists already.
    """
    with psycopg.connect(url) as conn:
        for statement in sqlfiles.iter_statements(sqlfiles.sample_files()):
            conn.execute(statement, prepare=False)
        row = conn.execute("SELECT erp.generate_sample(%s, %s)", (invoices, seed)).fetchone()
        conn.commit()
    assert row is not None
    counts: dict[str, int] = row[0]
    log.info("sample ERP loaded: %s", counts)
    return counts


def ensure_installed(url: str, sample: bool = False, invoices: int = DEFAULT_SAMPLE_INVOICES) -> bool:
    """Install or upgrade, and load the sample when asked and absent. True when anything changed."""
    changed = current_revision(url) != head_revision()
    if changed:
        upgrade(url)
    if sample and not sample_installed(url):
        load_sample(url, invoices=invoices)
        changed = True
    return changed
