-- footnote-pg: catalog operations people ask for beyond one figure: a customer's payments and profile,
-- rankings across customers, revenue by month, credit notes, items below their reorder level, one
-- purchase order, customers by account owner or country.
--
-- Same contract as every operation: arguments validated (FN001 naming the argument), names resolved
-- (FN002 with real alternatives), named queries from footnote.queries, one result document through
-- footnote._finish (which appends it to the call log), SECURITY DEFINER with search_path pinned.

-- Payments received from one customer (all up to as_of, or those of a period): count, total, first and last,
-- and for the invoices they settled the average days from issue to payment and how many were paid late.
CREATE FUNCTION footnote._op_customer_payments(customer text, period text DEFAULT NULL, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    d       date := footnote._date_arg('as_of', as_of);
    c       footnote.entity := footnote._resolve('customer', 'customer', customer);
    p       footnote.period;
    r       record;
    cust    record;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    pay_ids text[] := '{}';
    inv_ids text[] := '{}';
    late_ids text[] := '{}';
    n       bigint := 0;
    total   numeric := 0.00;
    first_on date;
    last_on date;
    settled bigint := 0;
    avg_days numeric;
    late    bigint := 0;
    vals    jsonb;
BEGIN
    IF period IS NOT NULL THEN
        p := footnote._period_arg('period', period);
    END IF;
    SELECT * INTO cust FROM footnote._customer_evidence(c.id);
    PERFORM footnote._subject_again('customer_payments', c, 'customer', cust.facts);  -- read again: the same row
    FOR r IN EXECUTE footnote._query('customer_payments') USING c.id, d, p.starts, p.ends LOOP
        pay_ids := pay_ids || ('payment:' || r.id);
        ev := ev || footnote._row_evidence('payment', 'id', to_jsonb(r),
            ARRAY['invoice_id', 'invoice_number', 'paid_on', 'amount', 'method']);
        IF cardinality(rws) < 20 THEN  -- the latest twenty as rows; every payment counts and is cited
            rws := rws || (jsonb_build_object(  -- a payment on account settles no invoice: it has none
                'paid_on', footnote._value('date', r.paid_on::text, ARRAY['payment:' || r.id]),
                'amount', footnote._value('amount', r.amount::text, ARRAY['payment:' || r.id]),
                'method', footnote._value('text', r.method, ARRAY['payment:' || r.id]))
                || CASE WHEN r.invoice_number IS NULL THEN '{}'::jsonb ELSE jsonb_build_object(
                    'invoice', footnote._value('text', r.invoice_number, ARRAY['payment:' || r.id])) END);
        END IF;
        n := r.payment_count;
        total := r.total_paid;
        first_on := r.first_paid_on;
        last_on := r.last_paid_on;
    END LOOP;
    FOR r IN EXECUTE footnote._query('settled_invoices') USING c.id, d, p.starts, p.ends LOOP
        inv_ids := inv_ids || ('invoice:' || r.invoice_id);
        IF r.paid_late THEN
            late_ids := late_ids || ('invoice:' || r.invoice_id);
        END IF;
        ev := ev || footnote._row_evidence('invoice', 'invoice_id', to_jsonb(r),
            ARRAY['number', 'issue_date', 'due_date', 'gross', 'settled_on', 'days_to_pay', 'paid_late']);
        settled := r.settled_count;
        avg_days := r.average_days_to_pay;
        late := r.paid_late_count;
    END LOOP;
    vals := jsonb_build_object(
        'customer', footnote._value('text', c.name, ARRAY['customer:' || c.id]),
        'as_of', footnote._value('date', d::text, '{}'),
        'payment_count', footnote._value('count', n::text, pay_ids),
        'total_paid', footnote._value('amount', total::text, pay_ids),
        'settled_invoice_count', footnote._value('count', settled::text, inv_ids),
        'paid_late_count', footnote._value('count', late::text, late_ids));
    IF p.label IS NOT NULL THEN
        vals := vals || jsonb_build_object('period', footnote._value('period', p.label, '{}'));
    END IF;
    IF n > 0 THEN
        vals := vals || jsonb_build_object(
            'first_payment_on', footnote._value('date', first_on::text, pay_ids),
            'last_payment_on', footnote._value('date', last_on::text, pay_ids));
    END IF;
    IF settled > 0 THEN
        vals := vals || jsonb_build_object('average_days_to_pay', footnote._value('days', avg_days::text, inv_ids));
    END IF;
    RETURN footnote._finish('customer_payments',
        jsonb_build_object('customer', customer, 'period', period, 'as_of', as_of), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('customer', c.uri, 'period', btrim(period), 'as_of', d),
            'subject', jsonb_build_object('customer', jsonb_build_object('id', c.id::text, 'name', c.name, 'uri', c.uri)),
            'definition', 'days to pay: from an invoice''s issue date to the payment that settled it; paid late: '
                          || 'settled after its due date; over the invoices fully settled by payments in the scope',
            'values', vals,
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ARRAY[cust.evidence] || ev),
            'empty_reason', CASE WHEN n = 0 THEN 'no_payments' END,
            'queries', jsonb_build_array(cust.query,
                footnote._query_ref('customer_payments', jsonb_build_array(c.id, d, p.starts, p.ends)),
                footnote._query_ref('settled_invoices', jsonb_build_array(c.id, d, p.starts, p.ends)))));
END
$$;

-- One customer's profile as of a date: who they are, terms and owner, open balance and invoices, overdue, open tickets.
CREATE FUNCTION footnote._op_customer_profile(customer text, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    d       date := footnote._date_arg('as_of', as_of);
    c       footnote.entity := footnote._resolve('customer', 'customer', customer);
    cust    record;
    o       record;
    r       record;
    cid     text := 'customer:' || c.id;
    ev      jsonb[] := '{}';
    open_ids text[] := '{}';
    ticket_ids text[] := '{}';
    open_total numeric := 0.00;
    open_n  bigint := 0;
    k       record;
    credits jsonb := '{}';
BEGIN
    SELECT * INTO cust FROM footnote._customer_evidence(c.id);
    PERFORM footnote._subject_again('customer_profile', c, 'customer', cust.facts);  -- read again: the same row
    SELECT * INTO o FROM footnote._overdue(c.id, d);
    FOR r IN EXECUTE footnote._query('open_invoices_aged') USING d, c.id LOOP
        open_ids := open_ids || ('invoice:' || r.invoice_id);
        ev := ev || footnote._row_evidence('invoice', 'invoice_id', to_jsonb(r),
            ARRAY['number', 'issue_date', 'due_date', 'gross', 'paid', 'credited', 'outstanding', 'days_past_due']);
        open_total := r.total_outstanding;
        open_n := r.invoice_count;
    END LOOP;
    -- the overdue figures (their read) cite the open invoices' evidence rows (this read): each overdue invoice must
    -- be among them, saying what the overdue read said of it (footnote._read_again)
    IF EXISTS (SELECT FROM unnest(o.evidence) AS e
               WHERE NOT EXISTS (SELECT FROM unnest(ev) AS f
                                 WHERE f->>'id' = e->>'id' AND f->>'uri' IS NOT DISTINCT FROM e->>'uri'
                                   AND f->'fields' = (e->'fields') - ARRAY['overdue', 'due_lines', 'next_due'])) THEN
        PERFORM footnote._read_again('customer_profile', format('%s overdue invoices, then %s of them as the open '
            'invoices', o.n, (SELECT count(*) FROM unnest(o.evidence) AS e
                              WHERE EXISTS (SELECT FROM unnest(ev) AS f
                                            WHERE f->>'id' = e->>'id' AND f->>'uri' IS NOT DISTINCT FROM e->>'uri'
                                              AND f->'fields' = (e->'fields') - ARRAY['overdue', 'due_lines', 'next_due']))));
    END IF;
    FOR r IN EXECUTE footnote._query('open_tickets') USING c.id, d LOOP
        ticket_ids := ticket_ids || ('ticket:' || r.id);
        ev := ev || footnote._row_evidence('ticket', 'id', to_jsonb(r), ARRAY['subject', 'severity', 'status', 'opened_on']);
    END LOOP;
    SELECT * INTO k FROM footnote._account_credits(d, c.id);
    IF cardinality(k.ids) > 0 THEN  -- payments on account and unapplied credit notes lower what the customer owes
        credits := jsonb_build_object(
            'invoices_open', footnote._value('amount', open_total::text, open_ids),
            'unapplied_credits', footnote._value('amount', k.total::text, k.ids),
            'credit_count', footnote._value('count', cardinality(k.ids)::text, k.ids));
        open_total := open_total - k.total;
        open_ids := open_ids || k.ids;
        ev := ev || k.evidence;
    END IF;
    RETURN footnote._finish('customer_profile',
        jsonb_build_object('customer', customer, 'as_of', as_of), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('customer', c.uri, 'as_of', d),
            'subject', jsonb_build_object('customer', jsonb_build_object('id', c.id::text, 'name', c.name, 'uri', c.uri)),
            'values', jsonb_build_object(
                'customer', footnote._value('text', c.name, ARRAY[cid]),
                'customer_number', footnote._value('text', cust.facts->>'customer_number', ARRAY[cid]),
                'country', footnote._value('text', cust.facts->>'country', ARRAY[cid]),
                'city', footnote._value('text', cust.facts->>'city', ARRAY[cid]),
                'payment_terms', footnote._fact('payment_terms', 'days', cust.facts->>'payment_terms_days', ARRAY[cid]),
                'account_owner', footnote._fact('account_owner', 'text', cust.facts->>'account_owner', ARRAY[cid]),
                'credit_limit', footnote._fact('credit_limit', 'amount', cust.facts->>'credit_limit', ARRAY[cid]),
                'as_of', footnote._value('date', d::text, '{}'),
                'open_balance', footnote._value('amount', open_total::text, open_ids),
                'open_invoice_count', footnote._value('count', open_n::text, open_ids),
                'overdue_total', footnote._value('amount', o.total::text, o.ids),
                'open_ticket_count', footnote._fact('tickets', 'count', cardinality(ticket_ids)::text, ticket_ids))
                || credits,
            'evidence', to_jsonb(ARRAY[cust.evidence] || ev),
            'queries', jsonb_build_array(cust.query, o.query,
                footnote._query_ref('open_invoices_aged', jsonb_build_array(d, c.id)),
                footnote._query_ref('open_tickets', jsonb_build_array(c.id, d)), k.query)));
END
$$;

-- Customers ranked by what they owe as of a date: overdue, outstanding (all open invoices) or oldest overdue
-- (days past due of their oldest overdue invoice); largest first (desc) or smallest first (asc). Only customers
-- with something of that measure are ranked; ties share a rank.
CREATE FUNCTION footnote._op_rank_customers(measure text, direction text DEFAULT NULL, "limit" integer DEFAULT NULL,
                                        as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    m       text := footnote._choice_arg('measure', measure, ARRAY['overdue', 'outstanding', 'oldest_overdue'], NULL);
    dir     text := footnote._choice_arg('direction', direction, ARRAY['desc', 'asc'], 'desc');
    lim     integer := footnote._int_arg('limit', "limit", 1, 100, 5);
    d       date := footnote._date_arg('as_of', as_of);
    r       record;
    x       record;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    ids     text[];
    listed  text[] := '{}';
    ranked  bigint := 0;
    again   numeric;  -- the figure read again with its evidence
    pack    jsonb;
    es      jsonb;
    kind    text := CASE WHEN m = 'oldest_overdue' THEN 'days' ELSE 'amount' END;
BEGIN
    IF m IS NULL THEN
        PERFORM footnote._invalid('measure', 'is required: overdue, outstanding or oldest_overdue');
    END IF;
    FOR r IN EXECUTE format('SELECT q.*, rank() OVER (ORDER BY q.value %s) AS rnk FROM (%s) AS q ORDER BY q.value %s, q.name, q.customer_id LIMIT $3',
                            dir, footnote._query('customer_rankings'), dir) USING d, m, lim LOOP
        ranked := r.ranked;
        ids := '{}';
        again := CASE WHEN m = 'overdue' THEN 0 END;
        IF m = 'outstanding' THEN
            again := 0;
            FOR x IN EXECUTE footnote._query('open_invoices_aged') USING d, r.customer_id LOOP
                again := again + x.outstanding;
                ids := ids || ('invoice:' || x.invoice_id);
                ev := ev || footnote._row_evidence('invoice', 'invoice_id', to_jsonb(x), ARRAY['number', 'customer_id',
                    'issue_date', 'due_date', 'gross', 'paid', 'credited', 'outstanding', 'days_past_due']);
            END LOOP;
        ELSE  -- overdue invoices, oldest due first: the first is the one an "oldest overdue" ranking cites
            FOR x IN EXECUTE footnote._query('overdue_invoices') USING r.customer_id, d LOOP
                again := CASE WHEN m = 'overdue' THEN again + x.overdue ELSE greatest(again, x.days_past_due) END;
                ids := ids || ('invoice:' || x.invoice_id);
                ev := ev || footnote._row_evidence('invoice', 'invoice_id',
                    to_jsonb(x) || jsonb_build_object('customer_id', r.customer_id), ARRAY['number', 'customer_id',
                    'issue_date', 'due_date', 'gross', 'paid', 'credited', 'outstanding', 'days_past_due']);
            END LOOP;
        END IF;
        -- the figure (from the ranking's read) and its evidence (from this one) must say the same: a mapping that
        -- gives other rows on a second read gives no figure (footnote._read_again)
        IF again IS DISTINCT FROM r.value OR cardinality(ids) <> r.invoice_count THEN
            PERFORM footnote._read_again('rank_customers', format('customer %s: %s %s of %s invoices, then %s of %s',
                r.customer_id, m, r.value, r.invoice_count, again, cardinality(ids)));
        END IF;
        ev := ev || footnote._row_evidence('customer', 'customer_id', to_jsonb(r), ARRAY['name', 'customer_number']);
        listed := listed || ('customer:' || r.customer_id);
        rws := rws || jsonb_build_object(
            'rank', footnote._value('count', r.rnk::text, ids),
            'customer', footnote._value('text', r.name, ARRAY['customer:' || r.customer_id]),
            'value', footnote._value(kind, r.value::text, CASE WHEN m = 'oldest_overdue' THEN ids[1:1] ELSE ids END),
            'invoice_count', footnote._value('count', r.invoice_count::text, ids));
    END LOOP;
    -- how many are ranked cites them all: the set of every customer ranked (the listed ones cite their own rows)
    IF ranked > 0 THEN
        EXECUTE format('WITH r AS (%s), ev AS (%s) SELECT %s', footnote._query('customer_rankings'),
                       footnote._evidence_query('ranked_customers'), footnote._evidence_pack('$3'))
        INTO pack USING d, m, 0;
        IF (pack->>'rows')::bigint IS DISTINCT FROM ranked THEN
            PERFORM footnote._read_again('rank_customers', format('%s customers ranked, then %s', ranked,
                                                                  pack->>'rows'));
        END IF;
        es := footnote._evidence_set('ranked_customers', jsonb_build_array(d, m), pack);
        ev := ev || es;
    END IF;
    RETURN footnote._finish('rank_customers',
        jsonb_build_object('measure', measure, 'direction', direction, 'limit', "limit", 'as_of', as_of), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('measure', m, 'direction', dir, 'limit', lim, 'as_of', d),
            'values', jsonb_build_object(
                'as_of', footnote._value('date', d::text, '{}'),
                'measure', footnote._value('text', replace(m, '_', ' '), '{}'),
                'direction', footnote._value('text', dir, '{}'),
                'listed', footnote._value('count', cardinality(rws)::text, listed),
                'ranked', footnote._value('count', ranked::text, footnote._cited(NULL, es, ranked))),
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN cardinality(rws) = 0 THEN 'no_customer_owes' END,
            'queries', jsonb_build_array(footnote._query_ref('customer_rankings', jsonb_build_array(d, m)))));
END
$$;

-- Revenue of a period month by month (a quarter, a half, a year or a range; of all customers or one).
CREATE FUNCTION footnote._op_revenue_by_month(period text, customer text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    p       footnote.period := footnote._period_arg('period', period);
    c       footnote.entity;
    mp      footnote.period;
    m       date;
    rv      record;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    all_ids text[] := '{}';
    total   numeric := 0.00;
    queries jsonb := '[]';
    months  integer;
BEGIN
    IF customer IS NOT NULL THEN
        c := footnote._resolve('customer', 'customer', customer);
    END IF;
    IF p.ends - p.starts > 3700 THEN
        PERFORM footnote._invalid('period', format('%s spans more than ten years of months', period), period);
    END IF;
    m := date_trunc('month', p.starts)::date;
    months := (extract(year FROM age(p.ends - 1, m)) * 12 + extract(month FROM age(p.ends - 1, m)))::integer + 1;
    WHILE m < p.ends LOOP
        mp := ROW(to_char(m, 'FMMonth YYYY'), 'month', greatest(m, p.starts),
                  least((m + interval '1 month')::date, p.ends))::footnote.period;
        -- every month within its share of the limit (a month over it cites its documents as a set)
        SELECT * INTO rv FROM footnote._revenue(mp, c.id, greatest(footnote._evidence_limit() / months, 1));
        ev := ev || rv.evidence;
        all_ids := all_ids || rv.ids;
        total := total + rv.total;
        queries := queries || jsonb_build_array(rv.query);
        rws := rws || jsonb_build_object(
            'month', footnote._value('period', mp.label, '{}'),
            'revenue', footnote._value('amount', rv.total::text, rv.ids),
            'invoice_count', footnote._value('count', rv.invoice_count::text, footnote._documents_of(rv.ids, 'invoice')),
            'credit_note_count', footnote._value('count', rv.credit_note_count::text,
                footnote._documents_of(rv.ids, 'credit_note')));
        m := (m + interval '1 month')::date;
    END LOOP;
    RETURN footnote._finish('revenue_by_month',
        jsonb_build_object('period', period, 'customer', customer), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('period', btrim(period), 'customer', c.uri),
            'values', jsonb_build_object(
                'period', footnote._value('period', p.label, '{}'),
                'revenue', footnote._value('amount', total::text, all_ids),
                'months', footnote._value('count', cardinality(rws)::text, '{}'))
                || CASE WHEN c.id IS NOT NULL THEN jsonb_build_object('customer', footnote._value('text', c.name, '{}'))
                        ELSE '{}' END,
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN cardinality(all_ids) = 0 THEN 'no_documents_in_period' END,
            'queries', queries));
END
$$;

-- Credit notes issued in a period (of all customers or one): count, net total, one row per credit note.
CREATE FUNCTION footnote._op_credit_notes(period text, customer text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    p       footnote.period := footnote._period_arg('period', period);
    c       footnote.entity;
    total   numeric;
    pack    jsonb;
    head    jsonb;
    l       record;
    rws     jsonb;
    vals    jsonb;
BEGIN
    IF customer IS NOT NULL THEN
        c := footnote._resolve('customer', 'customer', customer);
    END IF;
    EXECUTE footnote._listing_sql('period_credit_notes', 'net') INTO total, pack, head
        USING p.starts, p.ends, c.id, footnote._evidence_limit(), footnote._listing_shown();
    l := footnote._listing('period_credit_notes', jsonb_build_array(p.starts, p.ends, c.id), pack, head);
    vals := jsonb_build_object(
        'period', footnote._value('period', p.label, '{}'),
        'credit_note_count', footnote._value('count', pack->>'rows', l.cited),
        'total_net', footnote._value('amount', total::text, l.cited));
    IF c.id IS NOT NULL THEN
        vals := vals || jsonb_build_object('customer', footnote._value('text', c.name, '{}'));
    END IF;
    SELECT coalesce(jsonb_agg(jsonb_build_object(
             'number', footnote._value('text', x.e->'fields'->>'number', ARRAY[x.e->>'id']),
             'customer', footnote._value('text', x.e->'fields'->>'customer_name', ARRAY[x.e->>'id']),
             'issue_date', footnote._value('date', x.e->'fields'->>'issue_date', ARRAY[x.e->>'id']),
             'net', footnote._value('amount', x.e->'fields'->>'net', ARRAY[x.e->>'id']),
             'invoice', footnote._value('text', x.e->'fields'->>'invoice_number', ARRAY[x.e->>'id']))
           ORDER BY x.k), '[]') INTO rws
    FROM jsonb_array_elements(l.shown) WITH ORDINALITY AS x(e, k);
    RETURN footnote._finish('credit_notes',
        jsonb_build_object('period', period, 'customer', customer), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('period', btrim(period), 'customer', c.uri),
            'values', vals,
            'rows', rws,
            'evidence', to_jsonb(l.evidence),
            'empty_reason', CASE WHEN pack->>'rows' = '0' THEN 'no_credit_notes' END,
            'queries', jsonb_build_array(footnote._query_ref('credit_notes_in_period', jsonb_build_array(p.starts, p.ends, c.id)))));
END
$$;

-- Items whose stock on hand (all warehouses) is below their reorder level.
CREATE FUNCTION footnote._op_items_below_reorder()
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    r       record;
    s       record;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    ids     text[];
    all_ids text[] := '{}';
    again   numeric;  -- the item's stock read again with its evidence
BEGIN
    IF NOT footnote._recorded('reorder_level') THEN
        PERFORM footnote._not_recorded('reorder_level', 'reorder levels are');
    END IF;
    FOR r IN EXECUTE footnote._query('items_below_reorder') LOOP
        ids := ARRAY['item:' || r.id];
        ev := ev || footnote._row_evidence('item', 'id', to_jsonb(r), ARRAY['sku', 'name', 'unit', 'reorder_level']);
        again := 0;
        FOR s IN EXECUTE footnote._query('stock_of_item') USING r.id LOOP
            again := again + s.quantity;
            ids := ids || ('stock:' || s.id);
            ev := ev || footnote._row_evidence('stock', 'id', to_jsonb(s) || jsonb_build_object('item_id', r.id),
                ARRAY['item_id', 'warehouse', 'quantity', 'counted_on']);
        END LOOP;
        -- the quantity (from the first read) and the stock rows cited for it (from this one) must say the same
        IF again IS DISTINCT FROM r.quantity THEN
            PERFORM footnote._read_again('items_below_reorder', format('item %s: %s on hand, then %s in %s stock rows',
                r.id, r.quantity, again, cardinality(ids) - 1));
        END IF;
        all_ids := all_ids || ids;
        rws := rws || jsonb_build_object(
            'item', footnote._value('text', r.name, ARRAY['item:' || r.id]),
            'sku', footnote._value('text', r.sku, ARRAY['item:' || r.id]),
            'quantity', footnote._value('quantity', r.quantity::text, ids),
            'unit', footnote._value('text', r.unit, ARRAY['item:' || r.id]),
            'reorder_level', footnote._value('quantity', r.reorder_level::text, ARRAY['item:' || r.id]));
    END LOOP;
    RETURN footnote._finish('items_below_reorder', '{}', started,
        jsonb_build_object(
            'effective_arguments', '{}'::jsonb,
            'values', jsonb_build_object('item_count', footnote._value('count', cardinality(rws)::text, all_ids)),
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN cardinality(rws) = 0 THEN 'no_item_below_reorder_level' END,
            'queries', jsonb_build_array(footnote._query_ref('items_below_reorder', '[]'))));
END
$$;

-- One purchase order by its number (PO-2025-3043), id or deep link.
CREATE FUNCTION footnote._op_purchase_order(number text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    v       text := footnote._text_arg('number', number, true, 60);
    wanted  bigint := CASE WHEN v ~ '^(erp://purchase_order/)?\d{1,18}$' THEN substring(v FROM '(\d+)$')::bigint END;
    po      record;
    alts    jsonb;
    pid     text;
BEGIN
    EXECUTE footnote._query('purchase_order_by_number') INTO po USING upper(v), wanted;
    IF po.id IS NULL THEN
        EXECUTE format('SELECT jsonb_agg(jsonb_build_object(''id'', n.id::text, ''name'', n.number, ''uri'', n.uri)) FROM (%s) AS n',
                       footnote._query('nearest_purchase_orders'))
            INTO alts USING coalesce(wanted, substring(v FROM '(\d{1,18})\D*$')::bigint, 0);
        RAISE EXCEPTION USING
            ERRCODE = 'FN002',
            MESSAGE = format('unknown purchase order "%s"%s', v,
                coalesce('; closest: ' || (SELECT string_agg(x->>'name', ', ') FROM jsonb_array_elements(alts) AS x), '')),
            DETAIL = jsonb_build_object('argument', 'number', 'entity', 'purchase order', 'value', v,
                                        'alternatives', coalesce(alts, '[]'::jsonb))::text;
    END IF;
    pid := 'purchase_order:' || po.id;
    RETURN footnote._finish('purchase_order', jsonb_build_object('number', number), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('number', po.uri),
            'values', jsonb_build_object(
                'number', footnote._value('text', po.number, ARRAY[pid]),
                'supplier', footnote._value('text', po.supplier_name, ARRAY[pid]),
                'ordered_on', footnote._value('date', po.ordered_on::text, ARRAY[pid]),
                'expected_on', footnote._value('date', po.expected_on::text, ARRAY[pid]),
                'status', footnote._value('text', replace(po.status, '_', ' '), ARRAY[pid]),
                'net', footnote._value('amount', po.net::text, ARRAY[pid])),
            'evidence', jsonb_build_array(footnote._row_evidence('purchase_order', 'id', to_jsonb(po),
                ARRAY['number', 'supplier_id', 'supplier_name', 'ordered_on', 'expected_on', 'status', 'net'])),
            'queries', jsonb_build_array(footnote._query_ref('purchase_order_by_number', jsonb_build_array(upper(v), wanted)))));
END
$$;
