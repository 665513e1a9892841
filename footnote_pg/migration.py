"""Apply a revision's frozen SQL from inside an Alembic migration, statement by statement.

``op.execute`` treats ``:name`` as a bind parameter (and renders it as NULL in
``--sql`` mode) and ``exec_driver_sql`` chokes on ``%``; both are common in
PL/pgSQL. So statements go to the driver untouched online, and verbatim to the
script offline.
"""

from __future__ import annotations

from pathlib import Path

from alembic import op
from footnote_pg.sqlfiles import split_statements

# An installer that is not a superuser acts as footnote_ledger only while a revision runs: it is made a member
# before and is no member after (PostgreSQL 16+ leaves the CREATEROLE creator of a role its ADMIN option, which
# lets it grant the role again but not act as it; install says so).
ACT_AS_LEDGER = """
DO $act$
BEGIN
    IF pg_catalog.to_regrole('footnote_ledger') IS NOT NULL
       AND NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user)
       AND NOT pg_catalog.pg_has_role(current_user, 'footnote_ledger',
                                      CASE WHEN pg_catalog.current_setting('server_version_num')::int >= 160000
                                           THEN 'SET' ELSE 'MEMBER' END) THEN
        EXECUTE pg_catalog.format('GRANT footnote_ledger TO %I', current_user);
    END IF;
END
$act$;"""
LEAVE_LEDGER = """
DO $leave$
BEGIN
    IF pg_catalog.to_regrole('footnote_ledger') IS NOT NULL
       AND NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user)
       AND EXISTS (SELECT FROM pg_catalog.pg_auth_members AS m
                   JOIN pg_catalog.pg_roles AS r ON r.oid = m.roleid AND r.rolname = 'footnote_ledger'
                   JOIN pg_catalog.pg_roles AS u ON u.oid = m.member AND u.rolname = current_user
                   WHERE m.grantor = u.oid) THEN
        EXECUTE pg_catalog.format('REVOKE footnote_ledger FROM %I', current_user);
    END IF;
END
$leave$;"""


ALLOW_DDL = "SELECT pg_catalog.set_config('footnote.allow_ddl', 'on', true);"


def apply_frozen_sql(revision_file: str, direction: str) -> None:
    """Run ``<revision>.<direction>.sql`` beside the revision module."""
    path = Path(revision_file).with_suffix(f".{direction}.sql")
    # our own DDL passes the event trigger of sql/95_protect.sql, for this transaction only
    _run(ALLOW_DDL)
    _run(ACT_AS_LEDGER.strip())
    for statement in split_statements(path.read_text(encoding="utf-8")):
        _run(statement)
    _run(LEAVE_LEDGER.strip())


def _run(statement: str) -> None:
    """One statement: to the driver untouched online, verbatim into the script offline."""
    context = op.get_context()
    if context.as_sql:
        context.impl.static_output(statement + "\n")
    else:
        op.get_bind().exec_driver_sql(statement, execution_options={"no_parameters": True})


# Run first by the downgrade that drops the ledger (0001_core): refuses while the ledger, its queue or the call
# log hold rows, unless this transaction says footnote.drop_ledger = yes (footnote-pg uninstall --drop-ledger,
# after writing its export; or ``alembic -x drop_ledger=yes downgrade base`` after the DBA's own).
KEEP_RECORDS = """
DO $keep$
DECLARE
    records bigint := (SELECT count(*) FROM footnote.ledger) + (SELECT count(*) FROM footnote.ledger_queue);
    calls   bigint := (SELECT count(*) FROM footnote.call_log);
BEGIN
    IF (records > 0 OR calls > 0)
       AND coalesce(pg_catalog.current_setting('footnote.drop_ledger', true), '') <> 'yes' THEN
        RAISE EXCEPTION USING ERRCODE = 'FN107',
            MESSAGE = pg_catalog.format('the ledger holds %s records and the call log %s calls: removing footnote-pg '
                'would lose them; run footnote-pg uninstall --drop-ledger --export DIR (writes a verified bundle, '
                'the call log and a digest there first)', records, calls),
            DETAIL = pg_catalog.jsonb_build_object('records', records, 'calls', calls)::text;
    END IF;
END
$keep$"""


def refuse_losing_records() -> None:
    """The KEEP_RECORDS check, with drop_ledger taken from footnote-pg (attributes) or ``-x drop_ledger=yes``."""
    from alembic import context as environment

    allowed = bool(environment.config.attributes.get("drop_ledger")) or \
        environment.get_x_argument(as_dictionary=True).get("drop_ledger") == "yes"
    if allowed and not op.get_context().as_sql:  # the reviewed script asks the DBA: SET footnote.drop_ledger = yes
        _run("SELECT pg_catalog.set_config('footnote.drop_ledger', 'yes', true)")
    _run(KEEP_RECORDS.strip() + ";")
