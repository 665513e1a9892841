-- footnote-pg: the call log and the result document.
--
-- Every successful catalog call appends one row here before it returns. The
-- gate later checks claims against these rows, never against what a caller
-- says a call returned. It belongs to footnote_ledger, the role no login is a
-- member of; only the catalog's entry points (sql/51_entry.sql) write it;
-- footnote_auditor reads it.

CREATE TABLE footnote.call_log (
    call_id      uuid PRIMARY KEY,
    called_at    timestamptz NOT NULL,
    db_role      text NOT NULL,
    backend_pid  integer NOT NULL,
    actor_id     text,
    actor_role   text,
    operation    text NOT NULL,
    arguments    jsonb NOT NULL,
    evidence_ids text[] NOT NULL,
    result       jsonb NOT NULL,
    result_hash  text NOT NULL CHECK (result_hash ~ '^[0-9a-f]{64}$'),
    duration_ms  numeric NOT NULL
);
CREATE INDEX call_log_called_at_idx ON footnote.call_log (called_at);
COMMENT ON TABLE footnote.call_log IS 'one row per catalog call: who called what with which arguments, and exactly what it returned';

-- The call log is append-only for every role: UPDATE, DELETE and TRUNCATE raise FN101.
CREATE FUNCTION footnote._append_only()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND footnote._redaction_allowed(TG_TABLE_NAME, to_jsonb(OLD), to_jsonb(NEW)) THEN
        RETURN NEW;  -- footnote.redact replacing parts by their commitments (sql/25_erasure.sql)
    END IF;
    RAISE EXCEPTION USING
        ERRCODE = 'FN101',
        MESSAGE = format('%s.%s is append-only: %s is not allowed', TG_TABLE_SCHEMA, TG_TABLE_NAME, TG_OP);
END
$$;

CREATE TRIGGER call_log_append_only BEFORE UPDATE OR DELETE ON footnote.call_log
    FOR EACH ROW EXECUTE FUNCTION footnote._append_only();
CREATE TRIGGER call_log_no_truncate BEFORE TRUNCATE ON footnote.call_log
    FOR EACH STATEMENT EXECUTE FUNCTION footnote._append_only();

-- Refuse a write that does not come from where it must: FN105 naming the table and the way in.
CREATE FUNCTION footnote._not_from(tbl text, way text)
RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'FN105',
        MESSAGE = format('footnote.%s takes rows only %s', tbl, way),
        DETAIL = jsonb_build_object('table', 'footnote.' || tbl, 'role', current_user)::text;
END
$$;

-- The application actor of this session: footnote.actor and footnote.actor_role, checked; the verified subject
-- instead of footnote.actor while a gateway's verified identity holds (sql/03_verified.sql).
CREATE FUNCTION footnote._actor()
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    a text := nullif(btrim(coalesce(current_setting('footnote.actor', true), '')), '');
    r text := nullif(btrim(coalesce(current_setting('footnote.actor_role', true), '')), '');
BEGIN
    IF length(a) > 100 OR a ~ '[\x01-\x1f\x7f]' THEN
        PERFORM footnote._invalid('footnote.actor', 'must be at most 100 printable characters', a);
    END IF;
    IF length(r) > 100 OR r ~ '[\x01-\x1f\x7f]' THEN
        PERFORM footnote._invalid('footnote.actor_role', 'must be at most 100 printable characters', r);
    END IF;
    RETURN jsonb_build_object('id', coalesce((SELECT v.subject FROM footnote._verified_identity() AS v), a), 'role', r);
END
$$;

-- One figure of a result: raw value (as text), formatted text, kind and the evidence ids behind it. A date's raw
-- value is written in ISO form (2026-05-02): a computation writes it as date::text, in the session's date style,
-- which is read back here in that same style; what the call logs does not depend on the session's settings.
CREATE FUNCTION footnote._value(kind text, raw text, evidence text[], extra jsonb DEFAULT '{}')
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_build_object('kind', kind, 'raw', r.raw, 'text', footnote.format(kind, r.raw),
                              'evidence', to_jsonb(coalesce(evidence, '{}'::text[]))) || coalesce(extra, '{}')
    FROM (SELECT CASE WHEN kind = 'date' AND raw IS NOT NULL THEN to_char(raw::date, 'YYYY-MM-DD') ELSE raw END
                 AS raw) AS r
$$;

-- Whether this ERP records a concept: not when the not_recorded setting names it, nor, for a concept that is a
-- source view of its own (tickets, bank_change_requests), when that view holds no rows at all.
CREATE FUNCTION footnote._recorded(concept text)
RETURNS boolean
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF concept = ANY (SELECT btrim(c) FROM unnest(string_to_array(footnote.setting('not_recorded'), ',')) AS c) THEN
        RETURN false;
    END IF;
    RETURN CASE concept
        WHEN 'tickets' THEN EXISTS (SELECT FROM footnote_src.tickets)
        WHEN 'ticket_severity' THEN footnote._recorded('tickets')
        WHEN 'bank_change_requests' THEN EXISTS (SELECT FROM footnote_src.bank_change_requests)
        ELSE true END;
END
$$;

-- A fact of an optional concept: its value, or "not recorded in this ERP" when this ERP does not record the
-- concept, or "not recorded" when it does but not for this record. Never a "no" or a 0 that no record says.
CREATE FUNCTION footnote._fact(concept text, kind text, raw text, evidence text[], extra jsonb DEFAULT '{}')
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE
        WHEN NOT footnote._recorded(concept) THEN
            jsonb_build_object('kind', 'text', 'raw', NULL, 'text', 'not recorded in this ERP', 'evidence', '[]'::jsonb,
                               'not_recorded', concept)
        -- a figure the record leaves empty: payment terms in days are empty too when the ERP records terms that
        -- are no one number of days (Tryton's 50 % at 30 days, 50 % at 60), so they are not called unrecorded
        WHEN raw IS NULL THEN
            jsonb_build_object('kind', 'text', 'raw', NULL,
                               'text', CASE WHEN kind = 'days' THEN 'not recorded as one number of days'
                                            ELSE 'not recorded' END,
                               'evidence', to_jsonb(coalesce(evidence, '{}'::text[])), 'not_recorded', concept)
        ELSE footnote._value(kind, raw, evidence, extra) END
$$;

-- An operation that cannot answer because this ERP does not record what it is about.
CREATE FUNCTION footnote._not_recorded(concept text, what text)
RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'FN006',
        MESSAGE = what || ' not recorded in this ERP, so there is nothing to answer from',
        DETAIL = jsonb_build_object('concept', concept)::text;
END
$$;

-- FN006 when the source view an operation's empty answer (or a name lookup) stands on holds no rows at all: then
-- "no revenue", "nothing open" or "no customers" would be read as facts of an ERP that is only not mapped.
CREATE FUNCTION footnote._require_source(operation text)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    src   text := CASE
        WHEN operation IN ('ar_aging', 'revenue', 'revenue_change', 'revenue_by_month', 'revenue_drivers',
                           'top_customers', 'rank_customers', 'days_sales_outstanding', 'credit_notes', 'invoice')
            THEN 'invoices'
        WHEN operation IN ('list_customers', 'customer') THEN 'customers'
        WHEN operation IN ('list_suppliers', 'supplier') THEN 'suppliers'
        WHEN operation IN ('list_items', 'item') THEN 'items'
        WHEN operation = 'open_purchase_orders' THEN 'purchase_orders'
        -- a source view by its own name (a breakdown's measure names the one it reads)
        WHEN operation IN ('invoices', 'payments', 'credit_notes', 'tickets', 'supplier_invoices', 'supplier_payments')
            THEN operation END;
    found boolean;
BEGIN
    IF src IS NULL THEN
        RETURN;
    END IF;
    EXECUTE format('SELECT EXISTS (SELECT FROM footnote_src.%I)', src) INTO found;
    IF NOT found THEN
        RAISE EXCEPTION USING ERRCODE = 'FN006',
            MESSAGE = format('no %s are recorded: the source view footnote_src.%s is not mapped (it holds no rows)',
                             replace(src, '_', ' '), src),
            DETAIL = jsonb_build_object('view', 'footnote_src.' || src)::text;
    END IF;
END
$$;

-- FN105: a computation that read the source views twice (a figure from one read, its evidence from another) and got
-- other rows the second time: a view whose rows change within one computation (a volatile function, a table the
-- mapping's code writes) gives no figure. what: what was read, each time.
CREATE FUNCTION footnote._read_again(operation text, what text)
RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'FN105',
        MESSAGE = format('%s: the source views gave other rows on a second read within one computation (%s): refused '
                         '(a figure and its evidence must come from the same rows)', operation, what),
        DETAIL = jsonb_build_object('operation', operation, 'read', what)::text;
END
$$;

-- FN105: a subject's own evidence row (got: what its view gave, read after the name resolver read the subject from
-- footnote_src.entity_names) must be the subject resolved: the same id, name and link, else the figure that names the
-- subject and the row beside it came from two reads that differ. type: customer, supplier or item.
CREATE FUNCTION footnote._subject_again(operation text, subject footnote.entity, type text, got jsonb)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF got IS NULL OR got->>'id' IS DISTINCT FROM subject.id::text OR got->>'name' IS DISTINCT FROM subject.name
       OR got->>'uri' IS DISTINCT FROM subject.uri THEN
        PERFORM footnote._read_again(operation, format('%s %s: %s (%s), then %s', type, subject.id,
            footnote._shown(subject.name, 80), subject.uri,
            coalesce(format('%s (%s)', footnote._shown(got->>'name', 80), got->>'uri'), 'no row')));
    END IF;
END
$$;

-- One evidence row: id "type:record_id", type, record id, deep link and the field values that stand alone.
CREATE FUNCTION footnote._evidence(type text, record_id bigint, uri text, fields jsonb, verified boolean DEFAULT true)
RETURNS jsonb
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_build_object('id', type || ':' || record_id, 'type', type, 'record_id', record_id::text,
                              'uri', uri, 'verified', verified, 'fields', fields)
$$;

-- Links into the ERP's own UI for evidence rows, by the ui_links setting: {"invoice:8812": "https://…/8812"},
-- or NULL where the setting names none of their types.
CREATE FUNCTION footnote._ui_links(evidence jsonb)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_object_agg(e->>'id', replace(t.links->>(e->>'type'), '{id}', e->>'record_id'))
    FROM (SELECT footnote.setting('ui_links')::jsonb AS links) AS t
    CROSS JOIN jsonb_array_elements(CASE WHEN t.links IS NULL THEN '[]'::jsonb ELSE evidence END) AS e
    WHERE t.links ? (e->>'type')
$$;

-- The most evidence rows one call may cite (the max_evidence_rows setting).
CREATE FUNCTION footnote._evidence_limit()
RETURNS integer
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(footnote.setting('max_evidence_rows')::integer, 10000)
$$;

-- FN005: an operation that would cite more rows than max_evidence_rows; raised before the evidence is built
-- where the operation can count first.
CREATE FUNCTION footnote._too_much_evidence(operation text, rows_cited bigint)
RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RAISE EXCEPTION USING
        ERRCODE = 'FN005',
        MESSAGE = format('%s would cite %s evidence rows, more than max_evidence_rows (%s); narrow the arguments',
                         operation, rows_cited, footnote._evidence_limit()),
        DETAIL = jsonb_build_object('operation', operation, 'evidence_rows', rows_cited,
                                    'max_evidence_rows', footnote._evidence_limit())::text;
END
$$;

-- What the session says that the call log and the ledger record or read by: the application's actor and its role,
-- the display locale, the time zone and date style, and how it reads and writes SQL text and values (its
-- standard_conforming_strings, transform_null_equals, ...). footnote_owner's code (the mapping's views and functions,
-- run by a computation, the gate's name reader, the router's name list or an evidence page) runs in the caller's
-- session and could change them with set_config; footnote._session_kept refuses that (FN105). And since when it
-- says so ("since", the clock), with the statements prepared so far in this statement ("prepared"), for
-- footnote._session_kept to find what that code left in the caller's session.
CREATE FUNCTION footnote._session_said()
RETURNS jsonb
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_build_object('footnote.actor', current_setting('footnote.actor', true),
                              'footnote.actor_role', current_setting('footnote.actor_role', true),
                              'footnote.locale', current_setting('footnote.locale', true),
                              'TimeZone', current_setting('TimeZone'), 'DateStyle', current_setting('DateStyle'),
                              -- and how the session reads and writes the text of SQL and values: the gate's reading is
                              -- SQL of footnote_ledger's, parsed in this session (a backslash in a pattern, a NULL)
                              'standard_conforming_strings', current_setting('standard_conforming_strings'),
                              'backslash_quote', current_setting('backslash_quote'),
                              'transform_null_equals', current_setting('transform_null_equals'),
                              'array_nulls', current_setting('array_nulls'),
                              'IntervalStyle', current_setting('IntervalStyle'),
                              'extra_float_digits', current_setting('extra_float_digits'),
                              'bytea_output', current_setting('bytea_output'),
                              'lc_numeric', current_setting('lc_numeric'), 'lc_monetary', current_setting('lc_monetary'),
                              'lc_time', current_setting('lc_time'),
                              'since', clock_timestamp(),
                              'prepared', coalesce((SELECT jsonb_agg(p.name || ' ' || md5(p.statement))
                                                    FROM pg_catalog.pg_prepared_statements AS p
                                                    WHERE p.prepare_time >= statement_timestamp()), '[]'))
$$;

-- True when footnote_owner's function fn, which ran in the caller's session, left it as it was; else FN105, and the
-- statement's abort takes back what is transactional:
--  * the settings footnote._session_said names (the application's actor, ...): the mapping's code may not speak
--    for the application;
--  * calls: an entry point it ran would log a call in the caller's name (its role and actor) that the caller
--    never made, which both verifiers would accept; a call-log row of this backend stamped since fn began is one
--    (each entry point checks before it logs its own);
--  * prepared statements: one it prepared (or put in place of the caller's own, under the same name) would run
--    later as the caller, with the caller's privileges (a decision recorded in the service's name). They are not
--    transactional: each prepared since fn began is deallocated here before FN105;
--  * temporary tables, views and types of footnote_owner's: the caller's own SQL finds them first by an unqualified
--    name (pg_temp comes before pg_catalog where the search_path does not name it).
CREATE FUNCTION footnote._session_kept(said jsonb, fn text)
RETURNS boolean
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    now_said jsonb := footnote._session_said() - 'since' - 'prepared';
    changed  text;
    made     text;
    stmt     text;
BEGIN
    IF now_said IS DISTINCT FROM said - 'since' - 'prepared' THEN
        SELECT string_agg(k, ', ' ORDER BY k) INTO changed
        FROM jsonb_object_keys(now_said) AS k WHERE now_said->k IS DISTINCT FROM said->k;
        RAISE EXCEPTION USING ERRCODE = 'FN105',
            MESSAGE = format('footnote.%s changed the session''s %s: refused (the mapping''s code may not speak for '
                             'the application)', fn, changed),
            DETAIL = jsonb_build_object('function', 'footnote.' || fn, 'settings', changed)::text;
    END IF;
    FOR stmt IN SELECT p.name FROM pg_catalog.pg_prepared_statements AS p
                WHERE p.prepare_time >= statement_timestamp()
                  AND NOT coalesce(said->'prepared', '[]') ? (p.name || ' ' || md5(p.statement)) LOOP
        EXECUTE format('DEALLOCATE %I', stmt);
        made := concat_ws(', ', made, stmt);
    END LOOP;
    IF made IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'FN105',
            MESSAGE = format('footnote.%s prepared statements in the caller''s session (%s): deallocated and refused '
                             '(the mapping''s code leaves nothing for the caller to run)', fn, made),
            DETAIL = jsonb_build_object('function', 'footnote.' || fn, 'prepared', made)::text;
    END IF;
    IF pg_my_temp_schema() <> 0 THEN
        SELECT string_agg(x.name, ', ') INTO made FROM (
            SELECT c.relname::text AS name FROM pg_catalog.pg_class AS c
            WHERE c.relnamespace = pg_my_temp_schema() AND c.relowner = 'footnote_owner'::regrole
            UNION ALL
            SELECT t.typname::text FROM pg_catalog.pg_type AS t
            WHERE t.typnamespace = pg_my_temp_schema() AND t.typowner = 'footnote_owner'::regrole
              AND t.typrelid = 0) AS x;
        IF made IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = 'FN105',
                MESSAGE = format('footnote.%s created temporary objects in the caller''s session (%s): refused (the '
                                 'mapping''s code leaves nothing the caller''s own statements would find)', fn, made),
                DETAIL = jsonb_build_object('function', 'footnote.' || fn, 'objects', made)::text;
        END IF;
    END IF;
    SELECT c.operation INTO made FROM ONLY footnote.call_log AS c
    WHERE c.called_at >= (said->>'since')::timestamptz AND c.backend_pid = pg_backend_pid()
    LIMIT 1;
    IF made IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'FN105',
            MESSAGE = format('footnote.%s called the catalog (%s) in the caller''s name: refused (the mapping''s code '
                             'makes no calls of its own)', fn, made),
            DETAIL = jsonb_build_object('function', 'footnote.' || fn, 'operation', made)::text;
    END IF;
    RETURN true;
END
$$;

-- NULL when every figure of a computed result (its values and its rows' values) is what the one formatter writes for
-- its raw value in the session's locale and currency now, with a date's raw value in ISO form; else the first that
-- is not. The mapping's code runs inside a computation and could switch the locale (footnote.locale), the currency
-- or the locale setting (rows of footnote.settings) only while some figures are formatted, and put them back
-- before the computation returns: the session would say the same before and after (footnote._session_kept), and
-- the logged texts would be written under another locale or currency than the record states. Pinned like the
-- formatter, so that it reads the same whatever the session's settings.
CREATE FUNCTION footnote._misformatted(doc jsonb)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
SET DateStyle = 'ISO, YMD'
AS $$
    SELECT CASE WHEN doc->>'locale' IS DISTINCT FROM footnote.setting('locale')
                THEN format('locale %s, not the session''s %s', doc->>'locale', footnote.setting('locale'))
           ELSE (SELECT format('%s: %s', v.path, v.val->>'text')
                 FROM (SELECT x.key AS path, x.value AS val FROM jsonb_each(coalesce(doc->'values', '{}')) AS x
                       UNION ALL
                       SELECT format('rows[%s].%s', r.n - 1, x.key), x.value
                       FROM jsonb_array_elements(coalesce(doc->'rows', '[]')) WITH ORDINALITY AS r(row, n),
                            jsonb_each(CASE WHEN jsonb_typeof(r.row) = 'object' THEN r.row ELSE '{}' END) AS x) AS v
                 WHERE jsonb_typeof(v.val) = 'object' AND v.val->>'raw' IS NOT NULL
                   AND v.val->>'kind' NOT IN ('text', 'period')
                   AND (v.val->>'kind' = 'date' AND v.val->>'raw' !~ '^\d{4}-\d{2}-\d{2}$'
                        OR v.val->>'text' IS DISTINCT FROM footnote.format(v.val->>'kind', v.val->>'raw',
                                                                          doc->>'locale'))
                 LIMIT 1) END
$$;

-- Before the ledger's role runs code footnote_owner owns (a computation footnote._op_*, the gate's name reader
-- footnote._names_matching): checks that every function of that name is still as installed, SECURITY DEFINER,
-- owned by footnote_owner, with no setting but the pinned search_path, and for a computation that every other
-- function of footnote_owner's still has only that setting (else FN105 naming it, and nothing of it runs), and
-- returns what the session says (footnote._session_said), for footnote._session_kept after it ran.
-- Where no event trigger guards (an install by a CREATEROLE role), footnote_owner may ALTER its functions: one made
-- SECURITY INVOKER would run the mapping's code as the ledger's role, one given its own search_path (or any other
-- setting) would compute what the queries it records do not say.
-- It runs on every call, and reads pg_proc afresh each time (footnote_owner's code may ALTER a function between two
-- calls of one statement): by name, through pg_proc's index on (proname, proargtypes, pronamespace), never by a
-- scan of every function (0.09 ms a call instead of 0.5).
CREATE FUNCTION footnote._owner_code(fn text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bad text;
BEGIN
    -- two statements, each planned for its index: the function fn; for a computation, every function of
    -- footnote_owner's it may run (footnote._overdue, …): the computations and the readers the owners block of
    -- sql/90_grants.sql gives footnote_owner (tests/test_attacks.py alters each of them)
    IF fn LIKE '\_op\_%' THEN
        SELECT p.oid::regprocedure::text INTO bad
        FROM pg_catalog.pg_proc AS p
        WHERE (p.proname LIKE '\_op\_%' OR p.proname = ANY (ARRAY['evidence_rows', 'router_names',
               '_customer_evidence', '_document_evidence', '_overdue', '_names_matching']))
          AND p.pronamespace = 'footnote'::regnamespace
          AND (p.proconfig IS DISTINCT FROM ARRAY['search_path=pg_catalog, pg_temp']
               OR p.proowner IS DISTINCT FROM 'footnote_owner'::regrole OR (p.proname = fn AND NOT p.prosecdef))
        LIMIT 1;
    ELSE
        SELECT p.oid::regprocedure::text INTO bad
        FROM pg_catalog.pg_proc AS p
        WHERE p.proname = fn AND p.pronamespace = 'footnote'::regnamespace
          AND (p.proconfig IS DISTINCT FROM ARRAY['search_path=pg_catalog, pg_temp']
               OR p.proowner IS DISTINCT FROM 'footnote_owner'::regrole OR NOT p.prosecdef)
        LIMIT 1;
    END IF;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'FN105',
            MESSAGE = format('%s is not as installed (SECURITY DEFINER, owned by footnote_owner, search_path pinned): '
                             'the ledger''s role does not run it', bad),
            DETAIL = jsonb_build_object('function', bad, 'role', current_user)::text;
    END IF;
    RETURN footnote._session_said();
END
$$;

-- Finish a call: stamp call id, arguments, timing, locale; check the evidence limit; return the document (the
-- entry point logs it).
CREATE FUNCTION footnote._finish(operation text, arguments jsonb, started timestamptz, body jsonb)
RETURNS jsonb
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    call_id  uuid := gen_random_uuid();
    actor    jsonb := footnote._actor();
    ev       jsonb := coalesce(body->'evidence', '[]');
    lim      integer := footnote._evidence_limit();
    doc      jsonb;
    scope    jsonb;
    node     jsonb;
    now_ts   timestamptz := clock_timestamp();
    ms       numeric := round((extract(epoch FROM now_ts - started) * 1000)::numeric, 3);
BEGIN
    -- a computation runs as footnote_owner, which writes no evidence; one made to run as its caller (ALTER
    -- FUNCTION ... SECURITY INVOKER) would run the mapping's code as the ledger's role: refused
    IF current_user <> 'footnote_owner' THEN
        RAISE EXCEPTION USING ERRCODE = 'FN105',
            MESSAGE = format('the computation of %s must run as footnote_owner, not as %s', operation, current_user);
    END IF;
    IF body->>'empty_reason' IS NOT NULL THEN
        PERFORM footnote._require_source(operation);
    END IF;
    IF jsonb_array_length(ev) > lim THEN
        PERFORM footnote._too_much_evidence(operation, jsonb_array_length(ev));
    END IF;
    doc := jsonb_build_object(
        'operation', operation,
        'call_id', call_id::text,
        'called_at', to_char(started AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        'arguments', arguments,
        'actor', actor,
        'locale', footnote.setting('locale'),
        'values', '{}'::jsonb,
        'rows', '[]'::jsonb,
        'evidence', '[]'::jsonb,
        'empty_reason', NULL,
        'duration_ms', ms::text) || body;

    -- the access scope the call was computed under (sql/03_scopes.sql), when the login is bound to one: its id,
    -- description and the digest of its definition then, inside the document, so that the call log's result and
    -- result_hash, and every ledger record citing the call, carry it;
    -- a login with no binding gets no key; a figure over the customers (suppliers, items) of a scope that limits
    -- them (a portfolio operation, not one customer's or supplier's) also gets the value scope, which its answer
    -- states
    scope := footnote._scope_stamp();
    IF scope IS NOT NULL THEN
        doc := doc || jsonb_build_object('scope', scope);
        IF footnote._scope_limits(footnote._portfolio_of(operation)) AND NOT doc->'values' ? 'customer'
           AND NOT doc->'values' ? 'supplier' THEN
            doc := jsonb_set(doc, '{values,scope}', footnote._value('text', scope->>'id', '{}'));
        END IF;
    END IF;
    -- on a node (sql/04_node.sql), where the ERP's data stood: the subscription's received position, the ERP's
    -- clock at its newest message and the lag; beyond node_max_lag the call fails (FN007); a primary install gets
    -- no key
    node := footnote._node_stamp();
    IF node IS NOT NULL THEN
        doc := doc || jsonb_build_object('node', node);
    END IF;
    -- the entry point (footnote.<operation>, sql/51_entry.sql) appends the document to the call log and adds
    -- its hash; the links into the ERP's own UI, where the ui_links setting says how, are presentation
    RETURN doc || coalesce(jsonb_build_object('ui_links', footnote._ui_links(ev)), '{}');
END
$$;

-- psql form of a result: one row per figure (top-level values, then each row's values); a document that is
-- not a catalog result is FN001 (SECURITY DEFINER for its check, footnote._result_arg; it reads no table).
CREATE FUNCTION footnote.result_values(result jsonb)
RETURNS TABLE (name text, text text, raw text, kind text, evidence text[])
LANGUAGE sql IMMUTABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    WITH d AS (SELECT footnote._result_arg('result', result) AS doc)
    SELECT v.key, v.value->>'text', v.value->>'raw', v.value->>'kind',
           ARRAY(SELECT jsonb_array_elements_text(v.value->'evidence'))
    FROM d, jsonb_each(d.doc->'values') AS v
    UNION ALL
    SELECT format('rows[%s].%s', r.n, v.key), v.value->>'text', v.value->>'raw', v.value->>'kind',
           ARRAY(SELECT jsonb_array_elements_text(v.value->'evidence'))
    FROM d, jsonb_array_elements(d.doc->'rows') WITH ORDINALITY AS r(row, n), jsonb_each(r.row) AS v
$$;

-- psql form of a result's evidence: one row per record cited; a document that is not a catalog result is
-- FN001 (SECURITY DEFINER as footnote.result_values).
CREATE FUNCTION footnote.result_evidence(result jsonb)
RETURNS TABLE (id text, type text, record_id text, uri text, verified boolean, fields jsonb)
LANGUAGE sql IMMUTABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT e->>'id', e->>'type', e->>'record_id', e->>'uri', (e->>'verified')::boolean, e->'fields'
    FROM jsonb_array_elements(footnote._result_arg('result', result)->'evidence') WITH ORDINALITY AS x(e, n)
    ORDER BY x.n
$$;

-- Evidence from a query row (as jsonb): the listed fields, numbers written as strings.
CREATE FUNCTION footnote._row_evidence(type text, id_key text, r jsonb, fields text[], verified boolean DEFAULT true)
RETURNS jsonb
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._evidence(type, (r->>id_key)::bigint, r->>'uri',
        (SELECT coalesce(jsonb_object_agg(f.name,
                    CASE jsonb_typeof(r->f.name) WHEN 'number' THEN to_jsonb(r->>f.name) ELSE r->f.name END
                    ORDER BY f.n), '{}'::jsonb)
         FROM unnest(fields) WITH ORDINALITY AS f(name, n)
         WHERE r ? f.name),
        verified)
$$;

-- A name list (customers, suppliers, items): run the named query, one row of values and one evidence row per
-- record, counts listed and matching. columns: {"value name": ["kind", "query column"], ...}, in row order;
-- filters: further arguments the query takes as $3 and $4 (owner, country), shown as values.
CREATE FUNCTION footnote._list(operation text, query_name text, type text, name_contains text, "limit" integer,
                               columns jsonb, evidence_fields text[], started timestamptz,
                               filters jsonb DEFAULT '{}')
RETURNS jsonb
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    filter   text := footnote._text_arg('name_contains', name_contains, false);
    lim      integer := footnote._int_arg('limit', "limit", 1, 1000, 100);
    f3       text := filters->>'owner';
    f4       text := filters->>'country';
    r        record;
    j        jsonb;
    eid      text;
    ev       jsonb[] := '{}';
    rws      jsonb[] := '{}';
    ids      text[] := '{}';
    matching bigint := 0;
    vals     jsonb;
BEGIN
    IF filter IS NOT NULL AND footnote._fold(filter) = '' THEN  -- "%", an emoji: nothing to look for, not everything
        PERFORM footnote._invalid('name_contains', 'has no letter or digit to look for', filter);
    END IF;
    FOR r IN EXECUTE footnote._query(query_name) USING filter, lim, f3, f4 LOOP
        j := to_jsonb(r);
        eid := type || ':' || r.id;
        ids := ids || eid;
        ev := ev || footnote._row_evidence(type, 'id', j, evidence_fields);
        rws := rws || (SELECT jsonb_object_agg(c.key, footnote._value(c.value->>0, j->>(c.value->>1), ARRAY[eid]))
                       FROM jsonb_each(columns) AS c);
        matching := r.matching;
    END LOOP;
    vals := jsonb_build_object(
        'listed', footnote._value('count', cardinality(ids)::text, ids),
        'matching', footnote._value('count', matching::text, ids));
    IF f3 IS NOT NULL THEN
        vals := vals || jsonb_build_object('owner', footnote._value('text', f3, '{}'));
    END IF;
    IF f4 IS NOT NULL THEN
        vals := vals || jsonb_build_object('country', footnote._value('text', f4, '{}'));
    END IF;
    RETURN footnote._finish(operation, jsonb_build_object('name_contains', name_contains, 'limit', "limit") || filters,
        started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('name_contains', filter, 'limit', lim) || filters,
            'values', vals,
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN cardinality(ids) = 0 THEN 'no_matching_' || type || 's' END,
            'queries', jsonb_build_array(footnote._query_ref(query_name,
                CASE WHEN filters = '{}' THEN jsonb_build_array(filter, lim) ELSE jsonb_build_array(filter, lim, f3, f4) END))));
END
$$;
