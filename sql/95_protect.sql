-- footnote-pg: DDL on our objects only through an explicit path.
--
-- Run by the installer itself (after 90_grants.sql's RESET ROLE), because only a
-- superuser may create event triggers: they refuse, for every role including
-- footnote_owner, any DDL on an object in schema footnote — ALTER TABLE (and so
-- DISABLE TRIGGER), DROP, CREATE TRIGGER or RULE on our tables, CREATE OR
-- REPLACE of our functions — unless the session says footnote.allow_ddl = on,
-- which only our migrations (footnote-pg install / uninstall, Alembic) set, and
-- its login acts as footnote_ledger (a superuser, or the installer while it
-- installs): a member of footnote_owner saying it is refused all the same.
-- TRUNCATE is refused by the tables' own triggers. The function lives in schema
-- footnote_guard, which belongs to the installing superuser, so footnote_owner
-- can neither replace nor drop it (dropping schema footnote leaves it). Without a
-- superuser installer nothing is created and a NOTICE says so; the ledger is
-- then protected against the owner's DDL by detection only
-- (docs/threat-model.md). Event triggers do not fire with
-- session_replication_role = replica, which only a superuser can set.

DO $protect$
BEGIN
    -- Sealing and the Merkle tree take their lock over from a session that keeps it (footnote._take_over): the
    -- ledger's role may end other non-superuser sessions and see their state.
    BEGIN
        GRANT pg_signal_backend, pg_read_all_stats TO footnote_ledger;
    EXCEPTION WHEN insufficient_privilege THEN
        RAISE NOTICE 'footnote-pg: a session that holds the ledger''s lock cannot be ended by sealing; a superuser '
                     'runs: GRANT pg_signal_backend, pg_read_all_stats TO footnote_ledger';
    END;
    IF NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
        RAISE NOTICE 'footnote-pg: installed without a superuser, so DDL on footnote.* is not refused by an event '
                     'trigger (docs/threat-model.md)';
        RETURN;
    END IF;
    CREATE SCHEMA footnote_guard;
    REVOKE ALL ON SCHEMA footnote_guard FROM PUBLIC;
    COMMENT ON SCHEMA footnote_guard IS 'footnote-pg: the event trigger refusing DDL on schema footnote';
    -- A digest of the privileges on everything in schema footnote, taken before and after GRANT and REVOKE.
    CREATE FUNCTION footnote_guard.acl_digest()
    RETURNS text
    LANGUAGE sql STABLE
    SET search_path = pg_catalog, pg_temp
    AS $acl$
        SELECT md5(concat_ws('|', (SELECT string_agg(c.oid::text || coalesce(c.relacl::text, ''), ',' ORDER BY c.oid)
                                   FROM pg_class AS c WHERE c.relnamespace = 'footnote'::regnamespace),
                              (SELECT string_agg(f.oid::text || coalesce(f.proacl::text, ''), ',' ORDER BY f.oid)
                               FROM pg_proc AS f WHERE f.pronamespace = 'footnote'::regnamespace),
                              (SELECT coalesce(n.nspacl::text, '') FROM pg_namespace AS n WHERE n.nspname = 'footnote'),
                              -- and what our objects would be created with: default privileges in schema footnote,
                              -- or of the roles that create them
                              (SELECT string_agg(d.oid::text || d.defaclacl::text, ',' ORDER BY d.oid)
                               FROM pg_default_acl AS d
                               WHERE d.defaclnamespace = 'footnote'::regnamespace
                                  OR d.defaclrole IN (SELECT r.oid FROM pg_roles AS r
                                                      WHERE r.rolname IN ('footnote_owner', 'footnote_ledger')))))
    $acl$;
    CREATE FUNCTION footnote_guard.note_acl()
    RETURNS event_trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $note$
    BEGIN
        PERFORM set_config('footnote.acl_before', footnote_guard.acl_digest(), true);
    END
    $note$;
    CREATE FUNCTION footnote_guard.refuse_ddl()
    RETURNS event_trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $guard$
    DECLARE
        o record;
    BEGIN
        -- a migration says footnote.allow_ddl = on; any login may set a custom setting, so it counts only for
        -- one that acts as the ledger's role (a superuser, or the installer while it installs), never for a
        -- member of footnote_owner
        IF coalesce(current_setting('footnote.allow_ddl', true), '') = 'on'
           AND (pg_catalog.to_regrole('footnote_ledger') IS NULL
                OR pg_catalog.pg_has_role(session_user, 'footnote_ledger', 'MEMBER')) THEN
            RETURN;
        END IF;
        IF TG_EVENT = 'sql_drop' THEN
            SELECT d.object_type AS kind, d.object_identity AS name INTO o
            FROM pg_event_trigger_dropped_objects() AS d
            WHERE d.schema_name = 'footnote' OR d.object_identity LIKE '% on footnote.%' LIMIT 1;
        ELSE
            SELECT c.object_type AS kind, c.object_identity AS name INTO o
            FROM pg_event_trigger_ddl_commands() AS c
            WHERE c.schema_name = 'footnote' OR c.object_identity LIKE '% on footnote.%' LIMIT 1;
        END IF;
        IF o.name IS NULL AND TG_EVENT = 'ddl_command_end' THEN
            -- what a command elsewhere may do to our tables: a child table, a publication that exposes them,
            -- a change of their privileges
            SELECT 'table' AS kind, i.inhrelid::regclass::text || ' inheriting from ' || i.inhparent::regclass::text AS name
            INTO o FROM pg_inherits AS i JOIN pg_class AS c ON c.oid = i.inhparent
            WHERE c.relnamespace = 'footnote'::regnamespace LIMIT 1;
            IF o.name IS NULL THEN
                SELECT 'publication' AS kind, p.pubname || ' exposing footnote.*' AS name INTO o
                FROM pg_publication AS p
                WHERE p.puballtables
                   OR EXISTS (SELECT FROM pg_publication_rel AS r JOIN pg_class AS c ON c.oid = r.prrelid
                              WHERE r.prpubid = p.oid AND c.relnamespace = 'footnote'::regnamespace)
                LIMIT 1;
            END IF;
            IF o.name IS NULL AND TG_TAG IN ('GRANT', 'REVOKE', 'ALTER DEFAULT PRIVILEGES')
               AND current_setting('footnote.acl_before', true) IS DISTINCT FROM footnote_guard.acl_digest() THEN
                SELECT 'privileges' AS kind, 'of objects in schema footnote or created by its roles' AS name INTO o;
            END IF;
        END IF;
        IF o.name IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = 'FN107',
                MESSAGE = format('%s on %s %s is refused: the ledger, the call log and the gate change only through '
                                 'footnote-pg install / uninstall (or Alembic)', TG_TAG, o.kind, o.name),
                DETAIL = jsonb_build_object('command', TG_TAG, 'object_type', o.kind, 'object', o.name)::text;
        END IF;
    END
    $guard$;
    REVOKE ALL ON FUNCTION footnote_guard.refuse_ddl(), footnote_guard.note_acl(), footnote_guard.acl_digest() FROM PUBLIC;
    GRANT USAGE ON SCHEMA footnote_guard TO PUBLIC;  -- event triggers run as whoever runs the command
    GRANT EXECUTE ON FUNCTION footnote_guard.acl_digest() TO PUBLIC;
    CREATE EVENT TRIGGER footnote_guard_acl ON ddl_command_start WHEN TAG IN ('GRANT', 'REVOKE', 'ALTER DEFAULT PRIVILEGES')
        EXECUTE FUNCTION footnote_guard.note_acl();
    CREATE EVENT TRIGGER footnote_guard_ddl ON ddl_command_end EXECUTE FUNCTION footnote_guard.refuse_ddl();
    CREATE EVENT TRIGGER footnote_guard_drop ON sql_drop EXECUTE FUNCTION footnote_guard.refuse_ddl();
END
$protect$;
