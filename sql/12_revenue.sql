-- footnote-pg: catalog operations about revenue.
--
-- Revenue of a period = net amount of invoices issued in it minus net amount
-- of credit notes issued in it (by issue date, in the settings currency).

-- Revenue documents of a period (optionally one customer): total, counts, evidence and the query; beyond max_rows
-- evidence rows (max_evidence_rows when NULL) the documents are cited as one evidence set.
CREATE FUNCTION footnote._revenue(p footnote.period, customer_id bigint, max_rows integer DEFAULT NULL,
    OUT total numeric, OUT invoice_count bigint, OUT credit_note_count bigint,
    OUT ids text[], OUT evidence jsonb[], OUT query jsonb)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    pack jsonb;
    es   jsonb;
BEGIN
    -- one pass, aggregated in SQL (in the query's own order: issue date, type, id)
    EXECUTE format($f$
        WITH r AS (%s), ev AS (%s)
        SELECT coalesce((SELECT max(r.revenue) FROM r), 0.00), coalesce((SELECT max(r.invoice_count) FROM r), 0),
               coalesce((SELECT max(r.credit_note_count) FROM r), 0), %s$f$,
        footnote._query('revenue_documents'), footnote._evidence_query('revenue_documents'),
        footnote._evidence_pack('$4'))
    INTO total, invoice_count, credit_note_count, pack
    USING p.starts, p.ends, customer_id, coalesce(max_rows, footnote._evidence_limit());
    IF pack ? 'digest' THEN
        es := footnote._evidence_set('revenue_documents', jsonb_build_array(p.starts, p.ends, customer_id), pack);
        evidence := ARRAY[es];
    ELSE
        evidence := ARRAY(SELECT x.e FROM jsonb_array_elements(pack->'evidence') WITH ORDINALITY AS x(e, k)
                          ORDER BY x.k);
    END IF;
    ids := ARRAY(SELECT e->>'id' FROM unnest(evidence) WITH ORDINALITY AS x(e, k) ORDER BY x.k);
    query := footnote._query_ref('revenue_documents', jsonb_build_array(p.starts, p.ends, customer_id));
END
$$;

-- The ids of one type among a revenue figure's documents, or the evidence set that holds them.
CREATE FUNCTION footnote._documents_of(ids text[], type text)
RETURNS text[]
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT ARRAY(SELECT x FROM unnest(ids) WITH ORDINALITY AS u(x, k)
                 WHERE x LIKE type || ':%' OR x LIKE 'evidence_set:%' ORDER BY u.k)
$$;

-- Revenue for a period (month 2026-07, quarter 2026-Q2, fiscal year FY2026, year 2026), of all customers or one.
CREATE FUNCTION footnote._op_revenue(period text, customer text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    p       footnote.period := footnote._period_arg('period', period);
    c       footnote.entity;
    rv      record;
    vals    jsonb;
BEGIN
    IF customer IS NOT NULL THEN
        c := footnote._resolve('customer', 'customer', customer);
    END IF;
    SELECT * INTO rv FROM footnote._revenue(p, c.id);
    vals := jsonb_build_object(
        'period', footnote._value('period', p.label, '{}'),
        'revenue', footnote._value('amount', rv.total::text, rv.ids),
        'invoice_count', footnote._value('count', rv.invoice_count::text, footnote._documents_of(rv.ids, 'invoice')),
        'credit_note_count', footnote._value('count', rv.credit_note_count::text,
            footnote._documents_of(rv.ids, 'credit_note')));
    IF c.id IS NOT NULL THEN
        vals := vals || jsonb_build_object('customer', footnote._value('text', c.name, '{}'));
    END IF;
    RETURN footnote._finish('revenue',
        jsonb_build_object('period', period, 'customer', customer), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('period', btrim(period), 'customer', c.uri),
            'subject', jsonb_build_object('period', jsonb_build_object('label', p.label, 'kind', p.kind,
                                                                       'starts', p.starts, 'ends', p.ends))
                       || CASE WHEN c.id IS NOT NULL THEN jsonb_build_object('customer',
                              jsonb_build_object('id', c.id::text, 'name', c.name, 'uri', c.uri)) ELSE '{}' END,
            'values', vals,
            'evidence', to_jsonb(rv.evidence),
            'empty_reason', CASE WHEN cardinality(rv.ids) = 0 THEN 'no_documents_in_period' END,
            'queries', jsonb_build_array(rv.query)));
END
$$;

-- Revenue change between two periods (of all customers or one): both revenues, the absolute change and the change in percent.
CREATE FUNCTION footnote._op_revenue_change(period_from text, period_to text, customer text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    pa      footnote.period := footnote._period_arg('period_from', period_from);
    pb      footnote.period := footnote._period_arg('period_to', period_to);
    c       footnote.entity;
    ra      record;
    rb      record;
    chg     record;
    both_ids text[];
    vals    jsonb;
    evidence jsonb[];
BEGIN
    IF customer IS NOT NULL THEN
        c := footnote._resolve('customer', 'customer', customer);
    END IF;
    SELECT * INTO ra FROM footnote._revenue(pa, c.id, footnote._evidence_limit() / 2);  -- both within the limit
    SELECT * INTO rb FROM footnote._revenue(pb, c.id, footnote._evidence_limit() / 2);
    EXECUTE footnote._query('change') INTO chg USING ra.total, rb.total;
    both_ids := ra.ids || ARRAY(SELECT x FROM unnest(rb.ids) AS x WHERE NOT x = ANY (ra.ids));
    vals := jsonb_build_object(
        'period_from', footnote._value('period', pa.label, '{}'),
        'period_to', footnote._value('period', pb.label, '{}'),
        'revenue_from', footnote._value('amount', ra.total::text, ra.ids),
        'revenue_to', footnote._value('amount', rb.total::text, rb.ids),
        'change', footnote._value('amount', abs(chg.change)::text, both_ids,
                                  jsonb_build_object('signed_raw', chg.change::text)),
        'direction', footnote._value('text', CASE sign(chg.change) WHEN 1 THEN 'up' WHEN -1 THEN 'down'
                                                 ELSE 'unchanged' END, both_ids));
    IF chg.change_percent IS NOT NULL THEN
        vals := vals || jsonb_build_object('change_percent', footnote._value('percent', abs(chg.change_percent)::text,
            both_ids, jsonb_build_object('signed_raw', chg.change_percent::text)));
    END IF;
    IF c.id IS NOT NULL THEN
        vals := vals || jsonb_build_object('customer', footnote._value('text', c.name, '{}'));
    END IF;
    -- periods that share documents read them twice: the second period's figure cites the first read's rows, which
    -- must be the rows it read (footnote._read_again)
    IF EXISTS (SELECT FROM unnest(rb.evidence) AS e JOIN unnest(ra.evidence) AS f ON f->>'id' = e->>'id'
               WHERE f IS DISTINCT FROM e) THEN
        PERFORM footnote._read_again('revenue_change', format('%s documents of %s, then other rows for some of them '
            'in %s', cardinality(ra.ids), pa.label, pb.label));
    END IF;
    evidence := ra.evidence || ARRAY(SELECT e FROM unnest(rb.evidence) AS e WHERE NOT (e->>'id') = ANY (ra.ids));
    RETURN footnote._finish('revenue_change',  -- a simple expression: the call log checks who calls _finish
        jsonb_build_object('period_from', period_from, 'period_to', period_to, 'customer', customer), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('period_from', btrim(period_from), 'period_to', btrim(period_to), 'customer', c.uri),
            'values', vals,
            'evidence', to_jsonb(evidence),
            -- no change in percent of a base of zero (no revenue) or of a negative one (credit notes over invoices)
            'empty_reason', CASE WHEN ra.total = 0 THEN 'no_revenue_in_base_period'
                                 WHEN ra.total < 0 THEN 'base_not_positive' END,
            'queries', jsonb_build_array(ra.query, rb.query,
                footnote._query_ref('change', jsonb_build_array(ra.total::text, rb.total::text)))));
END
$$;

-- Evidence rows of invoices and credit notes named as "invoice:<id>" / "credit_note:<id>", and the query that read them.
CREATE FUNCTION footnote._document_evidence(documents text[], OUT evidence jsonb[], OUT query jsonb)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    inv_ids bigint[] := ARRAY(SELECT substring(x FROM 9)::bigint FROM unnest(documents) AS x WHERE x LIKE 'invoice:%');
    cn_ids  bigint[] := ARRAY(SELECT substring(x FROM 13)::bigint FROM unnest(documents) AS x WHERE x LIKE 'credit_note:%');
    r       record;
BEGIN
    evidence := '{}';
    FOR r IN EXECUTE footnote._query('documents_by_id') USING inv_ids, cn_ids LOOP
        evidence := evidence || footnote._row_evidence(r.type, 'id', to_jsonb(r),
            ARRAY['number', 'customer_id', 'issue_date', 'net', 'gross']);
    END LOOP;
    query := footnote._query_ref('documents_by_id', jsonb_build_array(to_jsonb(inv_ids), to_jsonb(cn_ids)));
END
$$;

-- FN105: the documents behind each listed customer's revenue, read again by id for their evidence
-- (footnote._document_evidence), must be the documents that gave its figures: each of them found, of that customer,
-- their net amounts (invoices less credit notes) adding up to the figures. listed: {"customer_id", "documents": the
-- ids, "to": revenue of the period [to_starts, to_ends) (of every document when to_starts is NULL), "from": revenue
-- of the others (when the figure has one)}.
CREATE FUNCTION footnote._documents_again(operation text, listed jsonb[], evidence jsonb[], to_starts date DEFAULT NULL,
                                          to_ends date DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bad text;
BEGIN
    WITH w AS (SELECT x->>'customer_id' AS customer_id, x FROM unnest(listed) AS u(x)),
         d AS (SELECT w.customer_id, i.id FROM w, jsonb_array_elements_text(w.x->'documents') AS i(id)),
         e AS (SELECT x->>'id' AS id, x->'fields' AS f FROM unnest(evidence) AS u(x)),
         g AS (SELECT d.customer_id, count(*) AS documents, count(e.id) AS found,
                      bool_and(e.f->>'customer_id' IS NOT DISTINCT FROM d.customer_id) AS theirs,
                      coalesce(sum(CASE WHEN e.id LIKE 'credit\_note:%' THEN -1 ELSE 1 END * (e.f->>'net')::numeric)
                               FILTER (WHERE to_starts IS NULL OR ((e.f->>'issue_date')::date >= to_starts
                                                                   AND (e.f->>'issue_date')::date < to_ends)), 0) AS rev_to,
                      coalesce(sum(CASE WHEN e.id LIKE 'credit\_note:%' THEN -1 ELSE 1 END * (e.f->>'net')::numeric)
                               FILTER (WHERE NOT (to_starts IS NULL OR ((e.f->>'issue_date')::date >= to_starts
                                                                        AND (e.f->>'issue_date')::date < to_ends))), 0) AS rev_from
               FROM d LEFT JOIN e ON e.id = d.id
               GROUP BY d.customer_id)
    SELECT format('customer %s: %s documents, revenue %s%s; then %s found, of it: %s, revenue %s%s', w.customer_id,
                  jsonb_array_length(w.x->'documents'), w.x->>'to', coalesce(' and ' || (w.x->>'from'), ''),
                  coalesce(g.found, 0), coalesce(g.theirs, true), coalesce(g.rev_to, 0),
                  CASE WHEN w.x ? 'from' THEN ' and ' || coalesce(g.rev_from, 0) ELSE '' END)
    INTO bad
    FROM w LEFT JOIN g ON g.customer_id = w.customer_id
    WHERE g.found IS DISTINCT FROM g.documents OR NOT g.theirs OR g.rev_to <> (w.x->>'to')::numeric
       OR (w.x ? 'from' AND g.rev_from <> (w.x->>'from')::numeric)
       OR (g.customer_id IS NULL AND jsonb_array_length(w.x->'documents') > 0)
    LIMIT 1;
    IF bad IS NOT NULL THEN
        PERFORM footnote._read_again(operation, bad);
    END IF;
END
$$;

-- Customers ranked by revenue in a period, at most limit (ties share a rank; order is revenue, then customer id).
CREATE FUNCTION footnote._op_top_customers(period text, "limit" integer DEFAULT NULL, direction text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    p       footnote.period := footnote._period_arg('period', period);
    lim     integer := footnote._int_arg('limit', "limit", 1, 100, 5);
    dir     text := footnote._choice_arg('direction', direction, ARRAY['desc', 'asc'], 'desc');
    r       record;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    all_ids text[] := '{}';
    docs    record;
    cid     text;
    listed  jsonb[] := '{}';  -- what each figure says, to compare with its documents read again
BEGIN
    FOR r IN EXECUTE footnote._query('top_customers') USING p.starts, p.ends, lim, dir LOOP
        cid := 'customer:' || r.customer_id;
        listed := listed || jsonb_build_object('customer_id', r.customer_id::text, 'documents', to_jsonb(r.documents),
                                               'to', r.revenue::text);
        ev := ev || footnote._evidence('customer', r.customer_id, r.uri, jsonb_build_object('name', r.name));
        all_ids := all_ids || cid || r.documents;
        rws := rws || jsonb_build_object(
            'rank', footnote._value('count', r.rank::text, r.documents),
            'customer', footnote._value('text', r.name, ARRAY[cid]),
            'revenue', footnote._value('amount', r.revenue::text, r.documents),
            'invoice_count', footnote._value('count', r.invoice_count::text,
                ARRAY(SELECT x FROM unnest(r.documents) AS x WHERE x LIKE 'invoice:%')));
    END LOOP;
    SELECT * INTO docs FROM footnote._document_evidence(all_ids);
    PERFORM footnote._documents_again('top_customers', listed, docs.evidence);  -- read again: the same documents
    ev := ev || docs.evidence;
    RETURN footnote._finish('top_customers',
        jsonb_build_object('period', period, 'limit', "limit", 'direction', direction), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('period', btrim(period), 'limit', lim, 'direction', dir),
            'values', jsonb_build_object(
                'period', footnote._value('period', p.label, '{}'),
                'listed', footnote._value('count', cardinality(rws)::text, all_ids),
                'direction', footnote._value('text', dir, '{}')),
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN cardinality(rws) = 0 THEN 'no_documents_in_period' END,
            'queries', jsonb_build_array(
                footnote._query_ref('top_customers', jsonb_build_array(p.starts, p.ends, lim, dir)),
                docs.query)));
END
$$;

-- Customers whose revenue changed most between two periods: revenue in each, the change (signed raw, unsigned text).
CREATE FUNCTION footnote._op_revenue_drivers(period_from text, period_to text, "limit" integer DEFAULT NULL,
                                         direction text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    pa      footnote.period := footnote._period_arg('period_from', period_from);
    pb      footnote.period := footnote._period_arg('period_to', period_to);
    lim     integer := footnote._int_arg('limit', "limit", 1, 100, 3);
    dir     text := footnote._choice_arg('direction', direction, ARRAY['up', 'down'], NULL);
    r       record;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    all_ids text[] := '{}';
    docs    record;
    cid     text;
    vals    jsonb;
    listed  jsonb[] := '{}';  -- what each figure says, to compare with its documents read again
BEGIN
    FOR r IN EXECUTE footnote._query('revenue_drivers') USING pa.starts, pa.ends, pb.starts, pb.ends, lim, dir LOOP
        cid := 'customer:' || r.customer_id;
        listed := listed || jsonb_build_object('customer_id', r.customer_id::text, 'documents', to_jsonb(r.documents),
                                               'to', r.revenue_to::text, 'from', r.revenue_from::text);
        ev := ev || footnote._evidence('customer', r.customer_id, r.uri, jsonb_build_object('name', r.name));
        all_ids := all_ids || cid || r.documents;
        rws := rws || jsonb_build_object(
            'customer', footnote._value('text', r.name, ARRAY[cid]),
            'revenue_from', footnote._value('amount', r.revenue_from::text, r.documents),
            'revenue_to', footnote._value('amount', r.revenue_to::text, r.documents),
            'change', footnote._value('amount', abs(r.change)::text, r.documents,
                                      jsonb_build_object('signed_raw', r.change::text)),
            'direction', footnote._value('text', CASE sign(r.change) WHEN 1 THEN 'up' WHEN -1 THEN 'down'
                                                     ELSE 'unchanged' END, r.documents));
    END LOOP;
    SELECT * INTO docs FROM footnote._document_evidence(all_ids);
    PERFORM footnote._documents_again('revenue_drivers', listed, docs.evidence, pb.starts, pb.ends);  -- the same
    ev := ev || docs.evidence;
    vals := jsonb_build_object(
        'period_from', footnote._value('period', pa.label, '{}'),
        'period_to', footnote._value('period', pb.label, '{}'),
        'listed', footnote._value('count', cardinality(rws)::text, all_ids));
    IF dir IS NOT NULL THEN
        vals := vals || jsonb_build_object('direction', footnote._value('text', dir, '{}'));
    END IF;
    RETURN footnote._finish('revenue_drivers',
        jsonb_build_object('period_from', period_from, 'period_to', period_to, 'limit', "limit")
            || CASE WHEN direction IS NOT NULL THEN jsonb_build_object('direction', direction) ELSE '{}' END, started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('period_from', btrim(period_from), 'period_to', btrim(period_to),
                                                      'limit', lim) || CASE WHEN dir IS NOT NULL
                                                      THEN jsonb_build_object('direction', dir) ELSE '{}' END,
            'values', vals,
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN cardinality(rws) = 0 THEN 'no_documents_in_period' END,
            'queries', jsonb_build_array(
                footnote._query_ref('revenue_drivers', jsonb_build_array(pa.starts, pa.ends, pb.starts, pb.ends, lim, dir)),
                docs.query)));
END
$$;
