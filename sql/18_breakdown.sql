-- footnote-pg: one operation for figures across customers or suppliers: a measure, grouped by a dimension, over a
-- period, with filters (breakdown). "Revenue by country in 2026", "cash collected in Q2", "tickets opened by
-- severity", "purchase volume per supplier", "average invoice value by account owner".
--
-- Each measure is defined once, in the query breakdown_records: the records it adds up (or counts), read through
-- the scoped views, each with the day that places it in a period, its amount and its customer or supplier.
-- Revenue is the revenue operation's (sql/12_revenue.sql): net amounts of the invoices issued in the period minus
-- the net amounts of the credit notes issued in it.

-- The measures: what each figure is, over whose records (customers or suppliers), how it is aggregated, the
-- records it is made of (one, many), the source view it needs mapped, and the dimensions it may be grouped by.
CREATE FUNCTION footnote._breakdown_measures()
RETURNS TABLE (name text, party text, kind text, aggregate text, label text, record_one text, record_many text,
               source text, dimensions text[])
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    VALUES
    ('revenue', 'customers', 'amount', 'sum', 'Revenue', 'invoice or credit note', 'invoices and credit notes',
     'invoices', ARRAY['customer', 'country', 'account_owner', 'month', 'quarter']),
    ('invoiced', 'customers', 'amount', 'sum', 'Invoiced (gross)', 'invoice', 'invoices',
     'invoices', ARRAY['customer', 'country', 'account_owner', 'month', 'quarter']),
    ('invoice_count', 'customers', 'count', 'count', 'Invoices issued', 'invoice', 'invoices',
     'invoices', ARRAY['customer', 'country', 'account_owner', 'month', 'quarter']),
    ('average_invoice', 'customers', 'amount', 'average', 'Average invoice value (net)', 'invoice', 'invoices',
     'invoices', ARRAY['customer', 'country', 'account_owner', 'month', 'quarter']),
    ('cash_collected', 'customers', 'amount', 'sum', 'Cash collected', 'payment', 'payments',
     'payments', ARRAY['customer', 'country', 'account_owner', 'month', 'quarter']),
    ('credit_notes', 'customers', 'amount', 'sum', 'Credit notes (net)', 'credit note', 'credit notes',
     'credit_notes', ARRAY['customer', 'country', 'account_owner', 'month', 'quarter']),
    ('tickets_opened', 'customers', 'count', 'count', 'Support tickets opened', 'ticket', 'tickets',
     'tickets', ARRAY['customer', 'country', 'account_owner', 'month', 'quarter', 'severity']),
    ('purchase_volume', 'suppliers', 'amount', 'sum', 'Purchase volume (supplier invoices, gross)',
     'supplier invoice', 'supplier invoices', 'supplier_invoices',
     ARRAY['supplier', 'supplier_country', 'month', 'quarter']),
    ('supplier_payments', 'suppliers', 'amount', 'sum', 'Payments to suppliers', 'supplier payment',
     'supplier payments', 'supplier_payments', ARRAY['supplier', 'supplier_country', 'month', 'quarter'])
$$;

-- How many groups of a dimension there are, as a template says it: {value} {value|country|countries}.
CREATE FUNCTION footnote._breakdown_groups(dim text, value text)
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT format('{%s} {%s|%s|%s}', value, value, n.one, n.many)
    FROM (VALUES ('customer', 'customer', 'customers'), ('country', 'country', 'countries'),
                 ('account_owner', 'account owner', 'account owners'), ('month', 'month', 'months'),
                 ('quarter', 'quarter', 'quarters'), ('severity', 'severity', 'severities'),
                 ('supplier', 'supplier', 'suppliers'), ('supplier_country', 'country', 'countries')) AS n(dim, one, many)
    WHERE n.dim = _breakdown_groups.dim
$$;

INSERT INTO footnote.queries (name, description, params, sql) VALUES
('breakdown_records',
 'the records of measure $1 dated in [$3, $4) (revenue: invoices net and credit notes minus net, by issue date; invoiced: invoices gross; invoice_count, average_invoice: invoices net; cash_collected: payments received; credit_notes: credit notes net; tickets_opened: tickets by opened day; purchase_volume: supplier invoices gross; supplier_payments: payments to suppliers), of customers (suppliers) in country $5, with account owner $6, customer $7, supplier $8 (all when NULL), with their group by dimension $2 (only group $9 when given), by group, day, type (byte order) and id',
 '{measure,by,starts,ends,country,owner,customer_id,supplier_id,group}',
 $q$SELECT d.type, d.id, d.number, d.party_id, d.party_name, d.party_uri, d.on_date, d.amount, d.uri, d.grp, d.label
FROM (
    SELECT x.*,
           CASE $2::text WHEN 'customer' THEN x.party_id::text WHEN 'supplier' THEN x.party_id::text
                WHEN 'country' THEN coalesce(x.country, '') WHEN 'supplier_country' THEN coalesce(x.country, '')
                WHEN 'account_owner' THEN coalesce(x.owner, '') WHEN 'severity' THEN coalesce(x.severity, '')
                WHEN 'month' THEN to_char(x.on_date, 'YYYY-MM') WHEN 'quarter' THEN to_char(x.on_date, 'YYYY-"Q"Q')
                ELSE '' END AS grp,
           CASE $2::text WHEN 'customer' THEN x.party_name WHEN 'supplier' THEN x.party_name
                WHEN 'country' THEN coalesce(x.country, 'no country') WHEN 'supplier_country' THEN coalesce(x.country, 'no country')
                WHEN 'account_owner' THEN coalesce(x.owner, 'no account owner')
                WHEN 'severity' THEN coalesce(x.severity, 'no severity')
                WHEN 'month' THEN to_char(x.on_date, 'FMMonth YYYY') WHEN 'quarter' THEN to_char(x.on_date, '"Q"Q YYYY')
                END AS label
    FROM (
        SELECT 'invoice'::text AS type, i.id, i.number, c.id AS party_id, c.name AS party_name, c.uri AS party_uri,
               c.country, c.account_owner AS owner, NULL::text AS severity, i.issue_date AS on_date,
               CASE WHEN $1::text = 'invoiced' THEN i.gross ELSE i.net END AS amount, i.uri
        FROM footnote_src.invoices_in_scope AS i JOIN footnote_src.customers_in_scope AS c ON c.id = i.customer_id
        WHERE $1::text IN ('revenue', 'invoiced', 'invoice_count', 'average_invoice')
          AND i.issue_date >= $3 AND i.issue_date < $4
        UNION ALL
        SELECT 'credit_note', n.id, n.number, c.id, c.name, c.uri, c.country, c.account_owner, NULL, n.issue_date,
               CASE WHEN $1::text = 'revenue' THEN -n.net ELSE n.net END, n.uri
        FROM footnote_src.credit_notes_in_scope AS n JOIN footnote_src.customers_in_scope AS c ON c.id = n.customer_id
        WHERE $1::text IN ('revenue', 'credit_notes') AND n.issue_date >= $3 AND n.issue_date < $4
        UNION ALL
        SELECT 'payment', p.id, NULL, c.id, c.name, c.uri, c.country, c.account_owner, NULL, p.paid_on, p.amount, p.uri
        FROM footnote_src.payments_in_scope AS p JOIN footnote_src.customers_in_scope AS c ON c.id = p.customer_id
        WHERE $1::text = 'cash_collected' AND p.paid_on >= $3 AND p.paid_on < $4
        UNION ALL
        SELECT 'ticket', t.id, NULL, c.id, c.name, c.uri, c.country, c.account_owner, t.severity, t.opened_on, NULL,
               t.uri
        FROM footnote_src.tickets_in_scope AS t JOIN footnote_src.customers_in_scope AS c ON c.id = t.customer_id
        WHERE $1::text = 'tickets_opened' AND t.opened_on >= $3 AND t.opened_on < $4
        UNION ALL
        SELECT 'supplier_invoice', si.id, si.number, s.id, s.name, s.uri, s.country, NULL, NULL, si.invoice_date,
               si.gross, si.uri
        FROM footnote_src.supplier_invoices_in_scope AS si JOIN footnote_src.suppliers_in_scope AS s ON s.id = si.supplier_id
        WHERE $1::text = 'purchase_volume' AND si.invoice_date >= $3 AND si.invoice_date < $4
        UNION ALL
        SELECT 'supplier_payment', sp.id, sp.reference, s.id, s.name, s.uri, s.country, NULL, NULL, sp.paid_on,
               sp.amount, sp.uri
        FROM footnote_src.supplier_payments_in_scope AS sp JOIN footnote_src.suppliers_in_scope AS s ON s.id = sp.supplier_id
        WHERE $1::text = 'supplier_payments' AND sp.paid_on >= $3 AND sp.paid_on < $4
    ) AS x
    WHERE ($5::text IS NULL OR x.country = $5) AND ($6::text IS NULL OR x.owner = $6)
      AND ($7::bigint IS NULL OR x.party_id = $7) AND ($8::bigint IS NULL OR x.party_id = $8)
) AS d
WHERE $9::text IS NULL OR d.grp = $9
ORDER BY d.grp COLLATE "C", d.on_date, d.type COLLATE "C", d.id$q$);

INSERT INTO footnote.evidence_queries (name, base_query, row_type, param_types, description, sql) VALUES
('breakdown_records', 'breakdown_records', 'record of the measure', '{text,text,date,date,text,text,bigint,bigint,text}',
 'the records behind a breakdown figure (of every group, or of one), by group, day, type and id',
 $q$SELECT row_number() OVER (ORDER BY r.grp COLLATE "C", r.on_date, r.type COLLATE "C", r.id) AS n,
       jsonb_build_object('id', r.type || ':' || r.id, 'type', r.type, 'record_id', r.id::text, 'uri', r.uri,
           'verified', true, 'fields', jsonb_strip_nulls(jsonb_build_object(
               'number', r.number,
               CASE WHEN r.type LIKE 'supplier%' THEN 'supplier_id' ELSE 'customer_id' END, r.party_id::text,
               'on_date', r.on_date, 'amount', r.amount::text, 'group', r.grp))) AS e
FROM r
ORDER BY n$q$);

-- A measure of the customers' records (revenue, invoiced, invoice_count, average_invoice, cash_collected,
-- credit_notes, tickets_opened) or of the suppliers' (purchase_volume, supplier_payments) in a period, in total
-- and grouped by a dimension that applies to it, of all customers (suppliers) or those of a country, an account
-- owner, one customer or one supplier. Groups in time order for month and quarter, else by value (largest first),
-- or by value in the direction asked; at most limit of them listed, the rest in one figure. Every figure cites
-- its records: inline up to max_evidence_rows, else the total one evidence set and each listed group its own.
CREATE FUNCTION footnote._op_breakdown(measure text, period text, "by" text DEFAULT NULL, country text DEFAULT NULL,
                                   owner text DEFAULT NULL, customer text DEFAULT NULL, supplier text DEFAULT NULL,
                                   "limit" integer DEFAULT NULL, direction text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    want    text := lower(btrim(footnote._text_arg('measure', measure, true, 40)));
    dim     text := lower(btrim(footnote._text_arg('by', "by", false, 40)));
    k       text := upper(footnote._text_arg('country', country, false, 40));
    o       text := footnote._text_arg('owner', owner, false, 200);
    lim     integer := footnote._int_arg('limit', "limit", 1, 100, 100);
    dir     text := footnote._choice_arg('direction', direction, ARRAY['desc', 'asc'], NULL);
    m       record;
    p       footnote.period;
    c       footnote.entity;
    s       footnote.entity;
    known   text;
    agg     text;
    ordering text;
    res     record;
    g       jsonb;
    gs      jsonb;
    gids    text[];
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    all_ids text[];
    es      jsonb;
    listed_sum numeric := 0;
    vals    jsonb;
    party_type text;
    scope   jsonb;
BEGIN
    SELECT * INTO m FROM footnote._breakdown_measures() AS x WHERE x.name = want;
    IF m.name IS NULL THEN
        PERFORM footnote._invalid('measure', format('%s is not one of %s', measure,
            (SELECT string_agg(x.name, ', ') FROM footnote._breakdown_measures() AS x)), measure);
    END IF;
    p := footnote._period_arg('period', period);
    IF dim IS NOT NULL AND NOT dim = ANY (m.dimensions) THEN
        PERFORM footnote._invalid('by', format('%s does not apply to %s; it is grouped by %s', "by", want,
                                                array_to_string(m.dimensions, ', ')), "by");
    END IF;
    IF m.party = 'suppliers' AND (o IS NOT NULL OR customer IS NOT NULL) THEN
        PERFORM footnote._invalid(CASE WHEN o IS NOT NULL THEN 'owner' ELSE 'customer' END,
            format('filters customers; %s is a figure of suppliers (filter by supplier or country)', want));
    END IF;
    IF m.party = 'customers' AND supplier IS NOT NULL THEN
        PERFORM footnote._invalid('supplier', format('filters suppliers; %s is a figure of customers (filter by '
                                                      'customer, country or owner)', want));
    END IF;
    IF k IS NOT NULL AND k !~ '^[A-Z]{2}$' THEN
        PERFORM footnote._invalid('country', format('%s is not a two-letter country code (DE, FR, ...)', country),
                                  country);
    END IF;
    IF want = 'tickets_opened' AND NOT footnote._recorded('tickets') THEN
        PERFORM footnote._not_recorded('tickets', 'support tickets are');
    END IF;
    IF (o IS NOT NULL OR dim = 'account_owner') AND NOT footnote._recorded('account_owner') THEN
        PERFORM footnote._not_recorded('account_owner', 'account owners are');
    END IF;
    IF o IS NOT NULL THEN  -- an owner as people type it (case, accents), else FN002 with the real ones
        EXECUTE format('SELECT q.name FROM (%s) AS q WHERE footnote._fold(q.name) = footnote._fold($1) LIMIT 1',
                       footnote._query('account_owners')) INTO known USING o;
        IF known IS NULL THEN
            RAISE EXCEPTION USING
                ERRCODE = 'FN002',
                MESSAGE = format('no customer has the account owner "%s"; the account owners are: %s', o,
                                 (SELECT string_agg(x.name, ', ' ORDER BY x.name) FROM footnote._account_owners() AS x)),
                DETAIL = jsonb_build_object('argument', 'owner', 'entity', 'account owner', 'value', o,
                    'alternatives', (SELECT coalesce(jsonb_agg(jsonb_build_object('name', x.name) ORDER BY x.name), '[]')
                                     FROM footnote._account_owners() AS x))::text;
        END IF;
        o := known;
    END IF;
    IF customer IS NOT NULL THEN
        c := footnote._resolve('customer', 'customer', customer);
    END IF;
    IF supplier IS NOT NULL THEN
        s := footnote._resolve('supplier', 'supplier', supplier);
    END IF;
    -- the listed groups' sets (and their customers or suppliers) fit in max_evidence_rows beside the total's
    lim := least(lim, greatest((footnote._evidence_limit() - 1) / CASE WHEN dim IN ('customer', 'supplier') THEN 2
                                                                        ELSE 1 END, 1));
    agg := CASE m.aggregate WHEN 'count' THEN 'count(*)' WHEN 'average' THEN 'round(avg(r.amount), 2)'
                ELSE 'coalesce(sum(r.amount), 0.00)' END;
    ordering := CASE WHEN dir IS NULL AND dim IN ('month', 'quarter') THEN 'g.grp'
                     ELSE format('g.value %s, g.grp', coalesce(dir, 'desc')) END;
    -- one pass: the total, every group's figure, and each listed group's records (their ids up to the limit,
    -- else the digest of its set: a group's rows are a contiguous run of the whole, in the same order)
    EXECUTE format($f$
        WITH r AS (%1$s), ev AS (%2$s),
        k AS (SELECT count(*) AS rows FROM r),
        h AS (SELECT ev.n, ev.e, ev.e->'fields'->>'group' AS grp,
                     CASE WHEN k.rows > $10 THEN encode(sha256(convert_to(ev.e::text, 'UTF8')), 'hex') END AS hash
              FROM ev, k),
        g AS (SELECT r.grp, min(r.label) AS label, min(r.party_id) AS party_id, min(r.party_uri) AS party_uri,
                     count(*) AS records, (%3$s)::numeric AS value
              FROM r GROUP BY r.grp),
        o AS (SELECT g.*, row_number() OVER (ORDER BY %4$s) AS place FROM g),
        gh AS (SELECT h.grp,
                      CASE WHEN k.rows > $10 THEN encode(sha256(convert_to(string_agg(h.hash || E'\n', '' ORDER BY h.n),
                                                                           'UTF8')), 'hex') END AS digest,
                      CASE WHEN k.rows <= $10 THEN jsonb_agg(h.e->>'id' ORDER BY h.n) END AS ids
               FROM h, k WHERE h.grp IN (SELECT o.grp FROM o WHERE o.place <= $11) GROUP BY h.grp, k.rows)
        SELECT k.rows, (SELECT (%5$s)::numeric FROM r) AS total, (SELECT count(*) FROM g) AS groups,
               CASE WHEN k.rows <= $10 THEN (SELECT coalesce(jsonb_agg(h.e ORDER BY h.n), '[]') FROM h) END AS evidence,
               CASE WHEN k.rows > $10 THEN (
                   SELECT encode(sha256(convert_to(coalesce(string_agg(h.hash || E'\n', '' ORDER BY h.n), ''), 'UTF8')),
                                 'hex') FROM h) END AS digest,
               (SELECT coalesce(jsonb_agg(to_jsonb(o) || jsonb_build_object('digest', gh.digest, 'ids', gh.ids)
                                          ORDER BY o.place), '[]')
                FROM o JOIN gh ON gh.grp = o.grp WHERE o.place <= $11) AS listed
        FROM k$f$,
        footnote._query('breakdown_records'), footnote._evidence_query('breakdown_records'), agg, ordering, agg)
    INTO res
    USING want, coalesce(dim, ''), p.starts, p.ends, k, o, c.id, s.id, NULL::text,
          greatest(footnote._evidence_limit() - CASE WHEN dim IN ('customer', 'supplier') THEN lim ELSE 0 END, 0),
          CASE WHEN dim IS NULL THEN 0 ELSE lim END;
    IF res.digest IS NULL THEN
        ev := ARRAY(SELECT x.e FROM jsonb_array_elements(res.evidence) WITH ORDINALITY AS x(e, n) ORDER BY x.n);
        all_ids := ARRAY(SELECT x.e->>'id' FROM jsonb_array_elements(res.evidence) WITH ORDINALITY AS x(e, n)
                         ORDER BY x.n);
    ELSE
        es := footnote._evidence_set('breakdown_records', jsonb_build_array(want, coalesce(dim, ''), p.starts, p.ends,
            k, o, c.id, s.id, NULL), jsonb_build_object('rows', res.rows, 'digest', res.digest));
        ev := ARRAY[es];
        all_ids := ARRAY[es->>'id'];
    END IF;
    party_type := CASE dim WHEN 'customer' THEN 'customer' WHEN 'supplier' THEN 'supplier' END;
    FOR g IN SELECT x.e FROM jsonb_array_elements(res.listed) WITH ORDINALITY AS x(e, n) ORDER BY x.n LOOP
        IF res.digest IS NULL THEN
            gids := ARRAY(SELECT jsonb_array_elements_text(g->'ids'));
        ELSE
            gs := footnote._evidence_set('breakdown_records', jsonb_build_array(want, dim, p.starts, p.ends, k, o,
                c.id, s.id, g->>'grp'), jsonb_build_object('rows', g->>'records', 'digest', g->>'digest'));
            ev := ev || gs;
            gids := ARRAY[gs->>'id'];
        END IF;
        IF party_type IS NOT NULL THEN
            ev := ev || footnote._evidence(party_type, (g->>'party_id')::bigint, g->>'party_uri',
                                           jsonb_build_object('name', g->>'label'));
        END IF;
        listed_sum := listed_sum + (g->>'value')::numeric;
        rws := rws || jsonb_build_object(
            dim, footnote._value(CASE WHEN dim IN ('month', 'quarter') THEN 'period' ELSE 'text' END, g->>'label',
                                 CASE WHEN party_type IS NOT NULL THEN ARRAY[party_type || ':' || (g->>'party_id')]
                                      ELSE '{}' END),
            'value', footnote._value(m.kind, g->>'value', gids),
            'count', footnote._value('count', g->>'records', gids));
    END LOOP;
    vals := jsonb_build_object(
        'measure', footnote._value('text', replace(want, '_', ' '), '{}'),
        'period', footnote._value('period', p.label, '{}'),
        'count', footnote._value('count', res.rows::text, footnote._cited(all_ids, NULL, res.rows)));
    IF res.rows > 0 THEN
        vals := vals || jsonb_build_object('total', footnote._value(m.kind, res.total::text, all_ids));
    END IF;
    IF dim IS NOT NULL THEN
        vals := vals || jsonb_build_object(
            'by', footnote._value('text', replace(dim, '_', ' '), '{}'),
            'groups', footnote._value('count', res.groups::text, footnote._cited(all_ids, NULL, res.rows)),
            'listed', footnote._value('count', cardinality(rws)::text, '{}'));
        IF res.groups > cardinality(rws) AND m.aggregate <> 'average' THEN  -- the listed and the rest make the total
            vals := vals || jsonb_build_object(
                'others', footnote._value(m.kind, (res.total - listed_sum)::text, all_ids),
                'other_groups', footnote._value('count', (res.groups - cardinality(rws))::text, all_ids));
        END IF;
    END IF;
    IF k IS NOT NULL THEN
        vals := vals || jsonb_build_object('country', footnote._value('text', k, '{}'));
    END IF;
    IF o IS NOT NULL THEN
        vals := vals || jsonb_build_object('account_owner', footnote._value('text', o, '{}'));
    END IF;
    IF c.id IS NOT NULL THEN
        vals := vals || jsonb_build_object('customer', footnote._value('text', c.name, '{}'));
    END IF;
    IF s.id IS NOT NULL THEN
        vals := vals || jsonb_build_object('supplier', footnote._value('text', s.name, '{}'));
    END IF;
    -- a figure over the customers (suppliers) of a scope that limits them says so (as footnote._finish does for
    -- the operations that are always of customers or always of suppliers)
    scope := footnote._scope_stamp();
    IF scope IS NOT NULL AND footnote._scope_limits(m.party) AND c.id IS NULL AND s.id IS NULL THEN
        vals := vals || jsonb_build_object('scope', footnote._value('text', scope->>'id', '{}',
                                                                   jsonb_build_object('of', m.party)));
    END IF;
    IF res.rows = 0 THEN
        PERFORM footnote._require_source(m.source);
    END IF;
    RETURN footnote._finish('breakdown',
        jsonb_build_object('measure', measure, 'period', period, 'by', "by", 'country', country, 'owner', owner,
                           'customer', customer, 'supplier', supplier, 'limit', "limit", 'direction', direction),
        started,
        jsonb_build_object(
            'effective_arguments', jsonb_strip_nulls(jsonb_build_object('measure', want, 'period', btrim(period),
                'by', dim, 'country', k, 'owner', o, 'customer', c.uri, 'supplier', s.uri, 'limit', lim,
                'direction', dir)),
            'definition', lower(m.label) || ' of the ' || m.record_many || ' dated in the period',
            'values', vals,
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN res.rows = 0 THEN 'no_records_in_period' END,
            'queries', jsonb_build_array(footnote._query_ref('breakdown_records', jsonb_build_array(want,
                coalesce(dim, ''), p.starts, p.ends, k, o, c.id, s.id, NULL)))));
END
$$;
