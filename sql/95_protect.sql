-- footnote-pg: DDL on our objects only through an explicit path.
--
-- Run by the installer itself (after 90_grants.sql's RESET ROLE), because only a
-- superuser may create event triggers: they refuse, for every role including
-- footnote_owner, any DDL on an object in schema footnote — ALTER TABLE (and so
-- DISABLE TRIGGER), DROP, CREATE TRIGGER or RULE on our tables, CREATE OR
-- REPLACE of our functions — unless the session says footnote.allow_ddl = on,
-- which only our migrations (footnote-pg install / uninstall, Alembic) set.
-- TRUNCATE is refused by the tables' own triggers. The function lives in schema
-- footnote_guard, which belongs to the installing superuser, so footnote_owner
-- can neither replace nor drop it (dropping schema footnote leaves it). Without a
-- superuser installer nothing is created and a NOTICE says so; the ledger is
-- then protected against the owner's DDL by detection only
-- (docs/threat-model.md). Event triggers do not fire with
-- session_replication_role = replica, which only a superuser can set.

DO $protect$
BEGIN
    IF NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN
        RAISE NOTICE 'footnote-pg: installed without a superuser, so DDL on footnote.* is not refused by an event '
                     'trigger (docs/threat-model.md)';
        RETURN;
    END IF;
    CREATE SCHEMA footnote_guard;
    REVOKE ALL ON SCHEMA footnote_guard FROM PUBLIC;
    COMMENT ON SCHEMA footnote_guard IS 'footnote-pg: the event trigger refusing DDL on schema footnote';
    CREATE FUNCTION footnote_guard.refuse_ddl()
    RETURNS event_trigger
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
    AS $guard$
    DECLARE
        o record;
    BEGIN
        IF coalesce(current_setting('footnote.allow_ddl', true), '') = 'on' THEN
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
        IF o.name IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = 'FN107',
                MESSAGE = format('%s on %s %s is refused: the ledger, the call log and the gate change only through '
                                 'footnote-pg install / uninstall (or Alembic)', TG_TAG, o.kind, o.name),
                DETAIL = jsonb_build_object('command', TG_TAG, 'object_type', o.kind, 'object', o.name)::text;
        END IF;
    END
    $guard$;
    REVOKE ALL ON FUNCTION footnote_guard.refuse_ddl() FROM PUBLIC;
    CREATE EVENT TRIGGER footnote_guard_ddl ON ddl_command_end EXECUTE FUNCTION footnote_guard.refuse_ddl();
    CREATE EVENT TRIGGER footnote_guard_drop ON sql_drop EXECUTE FUNCTION footnote_guard.refuse_ddl();
END
$protect$;
