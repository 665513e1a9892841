-- footnote-pg 0001_core downgrade: remove every object of ours, no ERP object.
-- Refuses when an object outside our schemas depends on one of ours (a view of
-- the ERP over footnote.catalog, say), instead of dropping it by CASCADE.

DO $check$
DECLARE
    dependents text;
BEGIN
    WITH ours AS (
        SELECT oid FROM pg_catalog.pg_namespace WHERE nspname IN ('footnote', 'footnote_src')
    ), refs AS (
        SELECT d.classid, d.objid, d.objsubid
        FROM pg_catalog.pg_depend AS d
        WHERE d.deptype = 'n' AND (
               (d.refclassid = 'pg_catalog.pg_class'::regclass
                AND d.refobjid IN (SELECT c.oid FROM pg_catalog.pg_class AS c WHERE c.relnamespace IN (SELECT oid FROM ours)))
            OR (d.refclassid = 'pg_catalog.pg_proc'::regclass
                AND d.refobjid IN (SELECT p.oid FROM pg_catalog.pg_proc AS p WHERE p.pronamespace IN (SELECT oid FROM ours)))
            OR (d.refclassid = 'pg_catalog.pg_type'::regclass
                AND d.refobjid IN (SELECT t.oid FROM pg_catalog.pg_type AS t WHERE t.typnamespace IN (SELECT oid FROM ours))))
    ), placed AS (
        SELECT r.*, CASE r.classid
            WHEN 'pg_catalog.pg_rewrite'::regclass THEN
                (SELECT c.relnamespace FROM pg_catalog.pg_rewrite AS w JOIN pg_catalog.pg_class AS c ON c.oid = w.ev_class
                 WHERE w.oid = r.objid)
            WHEN 'pg_catalog.pg_trigger'::regclass THEN
                (SELECT c.relnamespace FROM pg_catalog.pg_trigger AS g JOIN pg_catalog.pg_class AS c ON c.oid = g.tgrelid
                 WHERE g.oid = r.objid)
            WHEN 'pg_catalog.pg_attrdef'::regclass THEN
                (SELECT c.relnamespace FROM pg_catalog.pg_attrdef AS a JOIN pg_catalog.pg_class AS c ON c.oid = a.adrelid
                 WHERE a.oid = r.objid)
            ELSE
                (SELECT n.oid FROM pg_catalog.pg_namespace AS n
                 WHERE n.nspname = (pg_catalog.pg_identify_object(r.classid, r.objid, r.objsubid)).schema)
            END AS nsp
        FROM refs AS r
    )
    SELECT string_agg(DISTINCT pg_catalog.pg_describe_object(p.classid, p.objid, p.objsubid), ', ')
    INTO dependents
    FROM placed AS p
    WHERE p.nsp IS NULL OR p.nsp NOT IN (SELECT oid FROM ours);
    IF dependents IS NOT NULL THEN
        RAISE EXCEPTION USING
            ERRCODE = 'dependent_objects_still_exist',
            MESSAGE = 'footnote-pg cannot be removed: objects outside its schemas depend on it: ' || dependents,
            HINT = 'drop or change those objects first';
    END IF;
END
$check$;

DROP SCHEMA footnote CASCADE;
DROP SCHEMA footnote_src CASCADE;

-- Roles are cluster-wide: drop them only where no other database still uses them.
-- DROP OWNED needs the privileges of the role: an installer with CREATEROLE (not a
-- superuser) holds ADMIN on the roles it created, so it joins each one for the
-- drop and leaves again where the role is kept.
DO $roles$
DECLARE
    r text;
    joined boolean;
BEGIN
    FOREACH r IN ARRAY ARRAY['footnote_service', 'footnote_auditor', 'footnote_owner'] LOOP
        IF EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = r) THEN
            joined := NOT pg_catalog.pg_has_role(current_user, r, 'USAGE');
            IF joined THEN
                EXECUTE pg_catalog.format('GRANT %I TO %I', r, current_user);
            END IF;
            EXECUTE pg_catalog.format('DROP OWNED BY %I', r);
            BEGIN
                EXECUTE pg_catalog.format('DROP ROLE %I', r);
            EXCEPTION WHEN dependent_objects_still_exist THEN
                RAISE NOTICE 'role % is still used in another database; kept', r;
                IF joined THEN
                    EXECUTE pg_catalog.format('REVOKE %I FROM %I', r, current_user);
                END IF;
            END;
        END IF;
    END LOOP;
END
$roles$;
