-- footnote-pg: roles.
--
-- Three group roles, all NOLOGIN. Roles are cluster-wide, so creating them is
-- idempotent: a second database on the same server reuses them.
--   footnote_owner    owns every object of ours and reads the source views
--   footnote_service  executes catalog operations and the gate, nothing else
--   footnote_auditor  reads the call log, the ledger and the auditor views
-- Login roles are made members of a group, e.g.
--   CREATE ROLE assistant LOGIN PASSWORD '...' IN ROLE footnote_service;

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

-- Everything below is created by, and so owned by, footnote_owner.
CREATE SCHEMA footnote AUTHORIZATION footnote_owner;
COMMENT ON SCHEMA footnote IS 'footnote-pg: catalog operations, call log, ledger, auditor views';

CREATE SCHEMA footnote_src AUTHORIZATION footnote_owner;
COMMENT ON SCHEMA footnote_src IS 'footnote-pg: source views mapping the ERP onto the columns the catalog reads';

REVOKE ALL ON SCHEMA footnote FROM PUBLIC;
REVOKE ALL ON SCHEMA footnote_src FROM PUBLIC;
GRANT USAGE ON SCHEMA footnote TO footnote_service, footnote_auditor;

SET ROLE footnote_owner;
