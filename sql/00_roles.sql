-- footnote-pg: roles.
--
-- Four group roles, all NOLOGIN. Roles are cluster-wide, so creating them is
-- idempotent: a second database on the same server reuses them.
--   footnote_ledger   owns schema footnote, the evidence (call log, ledger, queue, call use, chain lock,
--                     Merkle nodes), the gate and everything the ledger runs; no login is ever its member
--                     (an installer that is not a superuser is one only while it installs)
--   footnote_owner    owns the source views (the mapping onto the ERP), reads the ERP through them, and owns
--                     the catalog's computations and the reference data they read; writes no evidence
--   footnote_service  executes catalog operations and the gate, nothing else
--   footnote_auditor  reads the call log, the ledger and the auditor views
--   footnote_gateway  may assert a verified end user (subject and scope) for its transaction
--                     (footnote.assert_identity, sql/03_verified.sql): the logins of a web or MCP server that
--                     validates bearer tokens, members of footnote_service too
-- Login roles are made members of a group, e.g.
--   CREATE ROLE assistant LOGIN PASSWORD '...' IN ROLE footnote_service;
-- Who owns what is set by sql/90_grants.sql, at the end of every install and upgrade.

DO $roles$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'footnote_owner') THEN
        CREATE ROLE footnote_owner NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'footnote_service') THEN
        CREATE ROLE footnote_service NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'footnote_auditor') THEN
        CREATE ROLE footnote_auditor NOLOGIN;
    END IF;
    -- A non-superuser installer must be able to act as the owner while installing
    -- (PostgreSQL 16+ gives a CREATEROLE creator ADMIN on its roles, not SET ROLE).
    IF NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user)
       AND NOT pg_catalog.pg_has_role(current_user, 'footnote_owner',
                                      CASE WHEN pg_catalog.current_setting('server_version_num')::int >= 160000
                                           THEN 'SET' ELSE 'MEMBER' END) THEN
        EXECUTE pg_catalog.format('GRANT footnote_owner TO %I', current_user);
    END IF;
END
$roles$;

-- The role that owns the evidence: NOLOGIN, and no login is its member once installed. An installer that is
-- not a superuser acts as it while installing (footnote_pg/migration.py grants and revokes that membership
-- around every revision).
DO $ledger_role$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'footnote_ledger') THEN
        CREATE ROLE footnote_ledger NOLOGIN;
    END IF;
    IF NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user)
       AND NOT pg_catalog.pg_has_role(current_user, 'footnote_ledger',
                                      CASE WHEN pg_catalog.current_setting('server_version_num')::int >= 160000
                                           THEN 'SET' ELSE 'MEMBER' END) THEN
        EXECUTE pg_catalog.format('GRANT footnote_ledger TO %I', current_user);
    END IF;
END
$ledger_role$;

DO $gateway_role$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'footnote_gateway') THEN
        CREATE ROLE footnote_gateway NOLOGIN;
    END IF;
END
$gateway_role$;

-- footnote_redactor: may redact a data subject from the ledger and the call log (footnote.redact,
-- sql/25_erasure.sql); a login of footnote_service or footnote_owner is refused even when also its member.
DO $redactor_role$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'footnote_redactor') THEN
        CREATE ROLE footnote_redactor NOLOGIN;
    END IF;
END
$redactor_role$;

-- Everything below is created by footnote_owner; sql/90_grants.sql gives each object its owner.
CREATE SCHEMA footnote AUTHORIZATION footnote_owner;
COMMENT ON SCHEMA footnote IS 'footnote-pg: catalog operations, call log, ledger, auditor views';

CREATE SCHEMA footnote_src AUTHORIZATION footnote_owner;
COMMENT ON SCHEMA footnote_src IS 'footnote-pg: source views mapping the ERP onto the columns the catalog reads';

REVOKE ALL ON SCHEMA footnote FROM PUBLIC;
REVOKE ALL ON SCHEMA footnote_src FROM PUBLIC;
GRANT USAGE ON SCHEMA footnote TO footnote_service, footnote_auditor;
GRANT USAGE ON SCHEMA footnote TO footnote_redactor;

SET ROLE footnote_owner;
