-- footnote-pg: catalog operations about receivables: aging, days sales outstanding, one invoice.

-- Accounts-receivable aging as of a date (all customers, or one): the open due lines in current, 1-30, 31-60, 61-90
-- and over 90 days past due, and the credits on account that lower the net receivable.
CREATE FUNCTION footnote._op_ar_aging(as_of date DEFAULT NULL, customer text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    d       date := footnote._date_arg('as_of', as_of);
    c       footnote.entity;
    rws     jsonb[] := '{}';
    ev      jsonb;
    pack    jsonb;
    es      jsonb;  -- the evidence set, when the invoices are too many to inline
    nk      bigint; -- credits on account
    ids     text[];
    b_ids   jsonb;
    b_total jsonb;
    b_count jsonb;
    b       text;
    total   numeric;
    n       bigint;
    vals    jsonb;
    n_late  bigint;
    late_ids text[];  -- NULL (as b_ids) when the invoices are a set
    n_lines bigint;   -- open due lines: an invoice in instalments has one per part, each aged by its own due date
    n_late_lines bigint;
    k       record;
BEGIN
    IF customer IS NOT NULL THEN
        c := footnote._resolve('customer', 'customer', customer);
    END IF;
    -- one pass over the open due lines, aggregated in SQL (a row-by-row loop grows its lists quadratically); an
    -- invoice in instalments may have lines in several buckets, and is cited once, with its lines (evidence query
    -- aging_invoices); beyond max_evidence_rows the invoices are cited as one evidence set, and the lists of
    -- which invoice is in which bucket (b_ids, late_ids) are not built: every figure cites the set
    EXECUTE format($f$
        WITH r AS (%s), ev AS (%s),
        ib AS (SELECT r.bucket, r.invoice_id, min(r.due_date) AS due_date, sum(r.open) AS open, count(*) AS lines
               FROM r GROUP BY r.bucket, r.invoice_id),
        b AS (SELECT ib.bucket, sum(ib.open)::text AS total, count(*)::text AS n, sum(ib.lines)::text AS lines
              FROM ib GROUP BY ib.bucket),
        late AS (SELECT ib.invoice_id, min(ib.due_date) AS due_date FROM ib WHERE ib.bucket <> 'current'
                 GROUP BY ib.invoice_id)
        SELECT coalesce((SELECT sum(r.open) FROM r), 0.00),
               %s,
               CASE WHEN (SELECT count(*) FROM ev) <= $3 THEN coalesce((
                   SELECT jsonb_object_agg(x.bucket, x.ids)
                   FROM (SELECT ib.bucket, jsonb_agg('invoice:' || ib.invoice_id ORDER BY ib.due_date, ib.invoice_id)
                                           AS ids
                         FROM ib GROUP BY ib.bucket) AS x), '{}') END,
               coalesce((SELECT jsonb_object_agg(b.bucket, b.total) FROM b), '{}'),
               coalesce((SELECT jsonb_object_agg(b.bucket, jsonb_build_array(b.n, b.lines)) FROM b), '{}'),
               (SELECT count(*) FROM late),
               CASE WHEN (SELECT count(*) FROM ev) <= $3 THEN coalesce((
                   SELECT array_agg('invoice:' || late.invoice_id ORDER BY late.due_date, late.invoice_id)
                   FROM late), '{}') END$f$,
        footnote._query('open_due_lines_aged'), footnote._evidence_query('aging_invoices'), footnote._evidence_pack('$3'))
    INTO total, pack, b_ids, b_total, b_count, n_late, late_ids USING d, c.id, footnote._evidence_limit();
    n := (pack->>'rows')::bigint;
    SELECT * INTO k FROM footnote._account_credits(d, c.id);
    SELECT coalesce(sum((x.value->>1)::bigint), 0), coalesce(sum((x.value->>1)::bigint) FILTER (WHERE x.key <> 'current'), 0)
    INTO n_lines, n_late_lines FROM jsonb_each(b_count) AS x;
    IF pack ? 'digest' OR n + cardinality(k.ids) > footnote._evidence_limit() THEN  -- with the credits, inline
        es := footnote._evidence_set('aging_invoices', jsonb_build_array(d, c.id), pack);
        ev := jsonb_build_array(es);
    ELSE
        ev := pack->'evidence';
    END IF;
    ids := ARRAY(SELECT e->>'id' FROM jsonb_array_elements(ev) AS e);
    vals := jsonb_build_object(
        'as_of', footnote._value('date', d::text, '{}'),
        'total_outstanding', footnote._value('amount', total::text, ids),
        'invoice_count', footnote._value('count', n::text, ids),
        'overdue_total', footnote._value('amount', (total - coalesce((b_total->>'current')::numeric, 0))::text,
                                         footnote._cited(late_ids, es, n_late)),
        'overdue_invoice_count', footnote._value('count', n_late::text, footnote._cited(late_ids, es, n_late)),
        'due_line_count', footnote._value('count', n_lines::text, ids),
        'overdue_due_line_count', footnote._value('count', n_late_lines::text, footnote._cited(late_ids, es, n_late)));
    nk := cardinality(k.ids);
    IF nk > 0 AND es IS NOT NULL AND nk + 1 > footnote._evidence_limit() THEN
        -- the credits too many to inline beside the invoices' set: a set of their own
        EXECUTE format('WITH r AS (%s), ev AS (%s) SELECT %s', footnote._query('account_credits'),
                       footnote._evidence_query('account_credits'), footnote._evidence_pack('0'))
        INTO pack USING d, c.id;
        k.evidence := ARRAY[footnote._evidence_set('account_credits', jsonb_build_array(d, c.id), pack)];
        k.ids := ARRAY[k.evidence[1]->>'id'];
    END IF;
    IF cardinality(k.ids) > 0 THEN  -- payments on account and unapplied credit notes lower what is owed
        vals := vals || jsonb_build_object(
            'unapplied_credits', footnote._value('amount', k.total::text, k.ids),
            'credit_count', footnote._value('count', nk::text, k.ids),
            'net_outstanding', footnote._value('amount', (total - k.total)::text, ids || k.ids));
        ev := ev || to_jsonb(k.evidence);
    END IF;
    IF c.id IS NOT NULL THEN
        vals := vals || jsonb_build_object('customer', footnote._value('text', c.name, '{}'));
    END IF;
    FOREACH b IN ARRAY ARRAY['current', '1-30', '31-60', '61-90', 'over_90'] LOOP
        rws := rws || jsonb_build_object(
            'bucket', footnote._value('text', CASE b WHEN 'current' THEN 'current' WHEN 'over_90' THEN 'over 90 days'
                                                     ELSE b || ' days' END, '{}'),
            'outstanding', footnote._value('amount', coalesce(b_total->>b, '0.00'),
                footnote._cited(ARRAY(SELECT jsonb_array_elements_text(b_ids->b)), es,
                                coalesce(b_count->b->>0, '0')::bigint)),
            'invoice_count', footnote._value('count', coalesce(b_count->b->>0, '0'),
                footnote._cited(ARRAY(SELECT jsonb_array_elements_text(b_ids->b)), es,
                                coalesce(b_count->b->>0, '0')::bigint)),
            'due_line_count', footnote._value('count', coalesce(b_count->b->>1, '0'),
                footnote._cited(ARRAY(SELECT jsonb_array_elements_text(b_ids->b)), es,
                                coalesce(b_count->b->>0, '0')::bigint)));
    END LOOP;
    RETURN footnote._finish('ar_aging',
        jsonb_build_object('as_of', as_of, 'customer', customer), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('as_of', d, 'customer', c.uri),
            'subject', CASE WHEN c.id IS NOT NULL THEN jsonb_build_object('customer',
                jsonb_build_object('id', c.id::text, 'name', c.name, 'uri', c.uri)) END,
            'values', vals,
            'rows', to_jsonb(rws),
            'evidence', ev,
            'empty_reason', CASE WHEN n = 0 THEN 'no_open_invoices' END,
            'queries', jsonb_build_array(footnote._query_ref('open_due_lines_aged', jsonb_build_array(d, c.id)),
                                         k.query)));
END
$$;

-- Days sales outstanding as of a date: receivables / gross sales of the window * window days.
CREATE FUNCTION footnote._op_days_sales_outstanding(as_of date DEFAULT NULL, window_days integer DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    d       date := footnote._date_arg('as_of', as_of);
    w       integer := footnote._int_arg('window_days', window_days, 1, 3660,
                                         coalesce(footnote.setting('dso_window_days')::integer, 90));
    ev      jsonb;
    pack    jsonb;
    pack_s  jsonb;
    ar_ids  text[];
    s_ids   text[];
    ar      numeric;
    sales   numeric;
    dso     numeric;
    vals    jsonb;
BEGIN
    -- each input in one pass, aggregated in SQL; a sold invoice that is also open is cited once; beyond
    -- max_evidence_rows the open invoices and the sales are cited as two evidence sets
    EXECUTE format($f$
        WITH r AS (%s), ev AS (%s)
        SELECT coalesce((SELECT max(r.total_outstanding) FROM r), 0.00), %s$f$,
        footnote._query('open_invoices_aged'), footnote._evidence_query('receivable_invoices'),
        footnote._evidence_pack('$3'))
    INTO ar, pack USING d, NULL::bigint, footnote._evidence_limit();
    EXECUTE format($f$
        WITH r AS (%s), ev AS (%s)
        SELECT coalesce((SELECT max(r.gross_sales) FROM r), 0.00), %s$f$,
        footnote._query('sales_in_window'), footnote._evidence_query('sales_invoices'),
        footnote._evidence_pack('$3'))
    INTO sales, pack_s USING d, w, footnote._evidence_limit();
    IF NOT (pack ? 'digest' OR pack_s ? 'digest') THEN
        ev := pack->'evidence';
        ar_ids := ARRAY(SELECT e->>'id' FROM jsonb_array_elements(ev) AS e);
        s_ids := ARRAY(SELECT e->>'id' FROM jsonb_array_elements(pack_s->'evidence') AS e);
        ev := ev || coalesce((SELECT jsonb_agg(e ORDER BY k) FROM jsonb_array_elements(pack_s->'evidence')
                                                               WITH ORDINALITY AS x(e, k)
                              WHERE NOT (e->>'id') = ANY (ar_ids)), '[]');
    END IF;
    IF pack ? 'digest' OR pack_s ? 'digest' OR jsonb_array_length(ev) > footnote._evidence_limit() THEN
        ev := '[]';  -- each input that has rows cites its set (an invoice both open and sold may be in both)
        IF (pack->>'rows')::bigint > 0 THEN
            ev := ev || footnote._evidence_set('receivable_invoices', jsonb_build_array(d, NULL), pack);
        END IF;
        ar_ids := ARRAY(SELECT e->>'id' FROM jsonb_array_elements(ev) AS e);
        IF (pack_s->>'rows')::bigint > 0 THEN
            ev := ev || footnote._evidence_set('sales_invoices', jsonb_build_array(d, w), pack_s);
        END IF;
        s_ids := ARRAY(SELECT e->>'id' FROM jsonb_array_elements(ev) AS e WHERE NOT (e->>'id') = ANY (ar_ids));
    END IF;
    EXECUTE footnote._query('dso') INTO dso USING ar, sales, w;
    vals := jsonb_build_object(
        'as_of', footnote._value('date', d::text, '{}'),
        'window', footnote._value('days', w::text, '{}'),
        'receivables', footnote._value('amount', ar::text, ar_ids),
        'gross_sales', footnote._value('amount', sales::text, s_ids));
    IF dso IS NOT NULL THEN
        vals := vals || jsonb_build_object('dso', footnote._value('days', dso::text, ar_ids || s_ids));
    END IF;
    RETURN footnote._finish('days_sales_outstanding',
        jsonb_build_object('as_of', as_of, 'window_days', window_days), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('as_of', d, 'window_days', w),
            'formula', 'DSO = receivables outstanding as of the date / gross sales invoiced in the window ending that day * days in the window',
            'values', vals,
            'evidence', ev,
            'empty_reason', CASE WHEN dso IS NULL THEN 'no_sales_in_window' END,
            'queries', jsonb_build_array(
                footnote._query_ref('open_invoices_aged', jsonb_build_array(d, NULL)),
                footnote._query_ref('sales_in_window', jsonb_build_array(d, w)),
                footnote._query_ref('dso', jsonb_build_array(ar::text, sales::text, w)))));
END
$$;

-- One invoice by number (INV-2026-8812), id or deep link, with its balance as of a date and what settled it.
CREATE FUNCTION footnote._op_invoice(number text, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    v       text := footnote._text_arg('number', number, true, 60);
    d       date := footnote._date_arg('as_of', as_of);
    wanted_id bigint := CASE WHEN v ~ '^(erp://invoice/)?\d{1,18}$' THEN substring(v FROM '(\d+)$')::bigint END;
    inv     record;
    bal     record;
    r       record;
    iid     text;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    alts    jsonb;
    vals    jsonb;
    q_number text := upper(v);
    q_id    bigint := CASE WHEN v ~ '^erp://' THEN wanted_id END;
    cands   jsonb;
    credit  record;
    paid_again numeric := 0.00;  -- the settlements read again with their rows
    credited_again numeric := 0.00;
    lines_again bigint := 0;
BEGIN
    -- the number as the ERP writes it (stored upper case; people type any case), or the id of a deep link
    EXECUTE footnote._query('invoice_by_number') INTO inv USING q_number, q_id;
    -- bare digits are an id, or the digits a number ends with (INV/2026/0032 is not id 32): one invoice,
    -- or FN003 naming each, never the first of them
    IF inv.id IS NULL AND v ~ '^\d{1,18}$' THEN
        EXECUTE format('SELECT jsonb_agg(jsonb_build_object(''id'', c.id::text, ''name'', c.number, ''uri'', c.uri) '
                       'ORDER BY c.id) FROM (%s) AS c', footnote._query('invoices_ending_in')) INTO cands USING v;
        IF jsonb_array_length(coalesce(cands, '[]')) > 1 THEN
            RAISE EXCEPTION USING
                ERRCODE = 'FN003',
                MESSAGE = format('number "%s" is ambiguous: it matches %s', v, footnote._listed(
                    ARRAY(SELECT x->>'name' FROM jsonb_array_elements(cands) AS x), jsonb_array_length(cands))),
                DETAIL = jsonb_build_object('argument', 'number', 'entity', 'invoice', 'value', v,
                                            'matching', jsonb_array_length(cands), 'candidates', cands)::text;
        ELSIF jsonb_array_length(coalesce(cands, '[]')) = 1 THEN
            q_number := NULL;
            q_id := (cands->0->>'id')::bigint;
            EXECUTE footnote._query('invoice_by_number') INTO inv USING q_number, q_id;
        END IF;
    END IF;
    IF inv.id IS NULL THEN
        PERFORM footnote._require_source('invoice');
        EXECUTE footnote._query('credit_note_by_number') INTO credit USING upper(v);
        IF credit.id IS NOT NULL THEN  -- a credit note is no invoice: say which it is, and what it credits
            RAISE EXCEPTION USING
                ERRCODE = 'FN002',
                MESSAGE = format('%s is a credit note, not an invoice%s; credit notes are listed by credit_notes',
                                 credit.number, coalesce(' (it credits ' || credit.invoice_number || ')', '')),
                DETAIL = jsonb_build_object('argument', 'number', 'entity', 'invoice', 'value', v,
                    'credit_note', jsonb_build_object('id', credit.id::text, 'name', credit.number, 'uri', credit.uri,
                                                      'issue_date', credit.issue_date, 'customer', credit.customer_name,
                                                      'customer_uri', credit.customer_uri),
                    'alternatives', CASE WHEN credit.invoice_number IS NOT NULL THEN jsonb_build_array(
                        jsonb_build_object('id', credit.invoice_id::text, 'name', credit.invoice_number,
                                           'uri', credit.invoice_uri)) ELSE '[]'::jsonb END)::text;
        END IF;
        EXECUTE format('SELECT jsonb_agg(jsonb_build_object(''id'', n.id::text, ''name'', n.number, ''uri'', n.uri)) FROM (%s) AS n',
                       footnote._query('nearest_invoices'))
            INTO alts USING coalesce(wanted_id, substring(v FROM '(\d{1,18})\D*$')::bigint, 0);
        RAISE EXCEPTION USING
            ERRCODE = 'FN002',
            MESSAGE = format('unknown invoice "%s"%s', v,
                coalesce('; closest: ' || (SELECT string_agg(x->>'name', ', ') FROM jsonb_array_elements(alts) AS x), '')),
            DETAIL = jsonb_build_object('argument', 'number', 'entity', 'invoice', 'value', v,
                                        'alternatives', coalesce(alts, '[]'::jsonb))::text;
    END IF;
    iid := 'invoice:' || inv.id;
    EXECUTE footnote._query('invoice_balance') INTO bal USING inv.id, d;
    ev := ev || footnote._row_evidence('invoice', 'id',
        to_jsonb(inv) || jsonb_build_object('paid', bal.paid, 'credited', bal.credited,
                                            'outstanding', bal.outstanding, 'days_past_due', bal.days_past_due,
                                            'overdue', bal.overdue, 'due_lines', bal.due_lines),
        ARRAY['number', 'customer_id', 'customer_name', 'issue_date', 'due_date', 'net', 'tax', 'gross',
              'paid', 'credited', 'outstanding', 'days_past_due']
        || CASE WHEN bal.due_lines > 1 THEN ARRAY['overdue', 'due_lines'] ELSE '{}' END);
    FOR r IN EXECUTE footnote._query('invoice_settlements') USING inv.id, d LOOP
        IF r.type = 'payment' THEN
            paid_again := paid_again + r.amount;
        ELSE
            credited_again := credited_again + r.amount;
        END IF;
        ev := ev || footnote._row_evidence(r.type, 'id', to_jsonb(r), ARRAY['on_date', 'amount', 'detail']);
        rws := rws || jsonb_build_object(
            'type', footnote._value('text', replace(r.type, '_', ' '), ARRAY[r.type || ':' || r.id]),
            'date', footnote._value('date', r.on_date::text, ARRAY[r.type || ':' || r.id]),
            'amount', footnote._value('amount', r.amount::text, ARRAY[r.type || ':' || r.id]));
    END LOOP;
    -- the balance (one read: its gross, paid and credited) and the invoice and settlements beside it (others) must
    -- say the same; a balance without due lines settles nothing (footnote_src.invoice_balances)
    IF bal.invoice_id IS NOT NULL AND (bal.gross IS DISTINCT FROM inv.gross
                                       OR (bal.due_lines > 0 AND (bal.paid <> paid_again OR bal.credited <> credited_again))) THEN
        PERFORM footnote._read_again('invoice', format('invoice %s: gross %s, paid %s, credited %s; then gross %s, '
            'payments %s, credit notes %s', inv.id, bal.gross, bal.paid, bal.credited, inv.gross, paid_again, credited_again));
    END IF;
    vals := jsonb_build_object(
        'number', footnote._value('text', inv.number, ARRAY[iid]),
        'customer', footnote._value('text', inv.customer_name, ARRAY[iid]),
        'as_of', footnote._value('date', d::text, '{}'),
        'issue_date', footnote._value('date', inv.issue_date::text, ARRAY[iid]),
        'due_date', footnote._value('date', inv.due_date::text, ARRAY[iid]),
        'net', footnote._value('amount', inv.net::text, ARRAY[iid]),
        'tax', footnote._value('amount', inv.tax::text, ARRAY[iid]),
        'gross', footnote._value('amount', inv.gross::text, ARRAY[iid]));
    IF bal.invoice_id IS NOT NULL THEN
        vals := vals || jsonb_build_object(
            'paid', footnote._value('amount', bal.paid::text, ARRAY[iid]),
            'credited', footnote._value('amount', bal.credited::text, ARRAY[iid]),
            'outstanding', footnote._value('amount', bal.outstanding::text, ARRAY[iid]));
        IF bal.outstanding > 0 AND bal.days_past_due > 0 THEN
            vals := vals || jsonb_build_object('days_past_due', footnote._value('days', bal.days_past_due::text, ARRAY[iid]));
        END IF;
        IF bal.due_lines > 1 THEN  -- in instalments: how many, and how much of what is open is past due
            vals := vals || jsonb_build_object(
                'instalments', footnote._value('count', bal.due_lines::text, ARRAY[iid]),
                'overdue', footnote._value('amount', bal.overdue::text, ARRAY[iid]));
            -- and each instalment's due date and amount (instalment_1_due, instalment_1_amount, ...)
            FOR r IN EXECUTE footnote._query('invoice_due_lines') USING inv.id, d, inv.customer_id LOOP
                lines_again := lines_again + 1;
                vals := vals || jsonb_build_object(
                    format('instalment_%s_due', r.instalment), footnote._value('date', r.due_date::text, ARRAY[iid]),
                    format('instalment_%s_amount', r.instalment), footnote._value('amount', r.amount::text, ARRAY[iid]));
            END LOOP;
            IF lines_again <> bal.due_lines THEN  -- the instalments, read again: as many as the balance counted
                PERFORM footnote._read_again('invoice', format('invoice %s: %s due lines, then %s', inv.id,
                                                               bal.due_lines, lines_again));
            END IF;
        END IF;
    END IF;
    RETURN footnote._finish('invoice',
        jsonb_build_object('number', number, 'as_of', as_of), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('number', inv.number, 'as_of', d),
            'subject', jsonb_build_object('invoice', jsonb_build_object('id', inv.id::text, 'name', inv.number, 'uri', inv.uri),
                                          'customer', jsonb_build_object('id', inv.customer_id::text, 'name', inv.customer_name,
                                                                         'uri', inv.customer_uri)),
            'values', vals,
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN bal.invoice_id IS NULL THEN 'not_issued_as_of' END,
            'queries', jsonb_build_array(
                footnote._query_ref('invoice_by_number', jsonb_build_array(q_number, q_id)),
                footnote._query_ref('invoice_balance', jsonb_build_array(inv.id, d)),
                footnote._query_ref('invoice_settlements', jsonb_build_array(inv.id, d)))
                || CASE WHEN bal.due_lines > 1 THEN jsonb_build_array(footnote._query_ref('invoice_due_lines',
                                                        jsonb_build_array(inv.id, d, inv.customer_id))) ELSE '[]' END));
END
$$;

-- The record behind a deep link (erp://invoice/8812): its type, id and every field of its source view.
CREATE FUNCTION footnote._op_source_record(uri text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    v       text := footnote._text_arg('uri', uri, true, 200);
    m       text[] := regexp_match(v, '^erp://([a-z_]+)/(\d{1,18})$');
    r       record;
    eid     text;
    fields  text[];
    types   text[] := ARRAY['customer', 'invoice', 'payment', 'credit_note', 'ticket', 'supplier', 'bank_account',
                            'supplier_payment', 'supplier_invoice', 'bank_change_request', 'purchase_order', 'item',
                            'stock'];
BEGIN
    IF m IS NULL OR NOT m[1] = ANY (types) THEN
        PERFORM footnote._invalid('uri', format('%s is not a deep link erp://<type>/<id> with type one of %s',
                                                v, array_to_string(types, ', ')), v);
    END IF;
    EXECUTE footnote._query('source_record') INTO r USING m[1], m[2]::bigint;
    IF r.id IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'FN002',
            MESSAGE = format('unknown %s %s: no such record', m[1], m[2]),
            DETAIL = jsonb_build_object('argument', 'uri', 'entity', m[1], 'value', v, 'alternatives', '[]'::jsonb)::text;
    END IF;
    eid := r.type || ':' || r.id;
    fields := ARRAY(SELECT k FROM jsonb_object_keys(r.fields) AS k WHERE k <> 'id' ORDER BY k);
    RETURN footnote._finish('source_record', jsonb_build_object('uri', uri), started,  -- a simple expression
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('uri', r.uri),
            'values', jsonb_build_object('type', footnote._value('text', r.type, ARRAY[eid]),
                                         'uri', footnote._value('text', r.uri, ARRAY[eid])),
            'evidence', jsonb_build_array(footnote._row_evidence(r.type, 'id', r.fields || jsonb_build_object('uri', r.uri),
                fields,
                coalesce((r.fields->>'verified')::boolean, (r.fields->>'phone_verified')::boolean, true))),
            'queries', jsonb_build_array(footnote._query_ref('source_record', jsonb_build_array(m[1], m[2]::bigint)))));
END
$$;
