-- footnote-pg: catalog operations about purchasing, stock and supplier payments.

-- Suppliers by name (optionally those whose name contains name_contains), at most limit.
CREATE FUNCTION footnote._op_list_suppliers(name_contains text DEFAULT NULL, "limit" integer DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._list('list_suppliers', 'suppliers', 'supplier', name_contains, "limit",
        '{"name": ["text", "name"], "supplier_number": ["text", "supplier_number"], "country": ["text", "country"]}',
        ARRAY['name', 'supplier_number', 'country'], clock_timestamp())
$$;

-- Items by name (optionally those whose name or SKU contains name_contains), at most limit.
CREATE FUNCTION footnote._op_list_items(name_contains text DEFAULT NULL, "limit" integer DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._list('list_items', 'items', 'item', name_contains, "limit",
        '{"name": ["text", "name"], "sku": ["text", "sku"], "unit": ["text", "unit"]}',
        ARRAY['sku', 'name', 'unit'], clock_timestamp())
$$;

-- Purchase orders open or partially received, of all suppliers or one, by expected date; with expected_in, only
-- those expected in that period.
CREATE FUNCTION footnote._op_open_purchase_orders(supplier text DEFAULT NULL, expected_in text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    s       footnote.entity;
    p       footnote.period;
    total   numeric;
    pack    jsonb;
    head    jsonb;
    l       record;
    rws     jsonb;
    vals    jsonb;
BEGIN
    IF expected_in IS NOT NULL THEN
        p := footnote._period_arg('expected_in', expected_in);
    END IF;
    IF supplier IS NOT NULL THEN
        s := footnote._resolve('supplier', 'supplier', supplier);
    END IF;
    EXECUTE footnote._listing_sql('open_purchase_orders', 'net') INTO total, pack, head
        USING s.id, p.starts, p.ends, footnote._evidence_limit(), footnote._listing_shown();
    l := footnote._listing('open_purchase_orders', jsonb_build_array(s.id, p.starts, p.ends), pack, head);
    vals := jsonb_build_object(
        'open_count', footnote._value('count', pack->>'rows', l.cited),
        'open_total', footnote._value('amount', total::text, l.cited));
    IF s.id IS NOT NULL THEN
        vals := vals || jsonb_build_object('supplier', footnote._value('text', s.name, '{}'));
    END IF;
    IF p.label IS NOT NULL THEN
        vals := vals || jsonb_build_object('expected_in', footnote._value('period', p.label, '{}'));
    END IF;
    SELECT coalesce(jsonb_agg(jsonb_build_object(
             'number', footnote._value('text', x.e->'fields'->>'number', ARRAY[x.e->>'id']),
             'supplier', footnote._value('text', x.e->'fields'->>'supplier_name', ARRAY[x.e->>'id']),
             'expected_on', footnote._value('date', x.e->'fields'->>'expected_on', ARRAY[x.e->>'id']),
             'status', footnote._value('text', replace(x.e->'fields'->>'status', '_', ' '), ARRAY[x.e->>'id']),
             'net', footnote._value('amount', x.e->'fields'->>'net', ARRAY[x.e->>'id']))
           ORDER BY x.k), '[]') INTO rws
    FROM jsonb_array_elements(l.shown) WITH ORDINALITY AS x(e, k);
    RETURN footnote._finish('open_purchase_orders',
        jsonb_build_object('supplier', supplier, 'expected_in', expected_in), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('supplier', s.uri, 'expected_in', p.label),
            'subject', CASE WHEN s.id IS NOT NULL THEN jsonb_build_object('supplier',
                jsonb_build_object('id', s.id::text, 'name', s.name, 'uri', s.uri)) END,
            'values', vals,
            'rows', rws,
            'evidence', to_jsonb(l.evidence),
            'empty_reason', CASE WHEN pack->>'rows' = '0' THEN 'no_open_purchase_orders' END,
            'queries', jsonb_build_array(
                footnote._query_ref('open_purchase_orders', jsonb_build_array(s.id, p.starts, p.ends)))));
END
$$;

-- Stock on hand of one item (by name or SKU), per warehouse and in total, against its reorder level.
CREATE FUNCTION footnote._op_stock_on_hand(item text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    i       footnote.entity := footnote._resolve('item', 'item', item);
    it      jsonb;
    iid     text := 'item:' || i.id;
    r       record;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    ids     text[] := '{}';
    total   numeric := 0;
    n       bigint := 0;
BEGIN
    EXECUTE format('SELECT to_jsonb(x) FROM (%s) AS x', footnote._query('item')) INTO it USING i.id;
    PERFORM footnote._subject_again('stock_on_hand', i, 'item', it);  -- read again: the row the resolver read
    ev := ev || footnote._row_evidence('item', 'id', it, ARRAY['sku', 'name', 'unit', 'reorder_level']);
    FOR r IN EXECUTE footnote._query('stock_of_item') USING i.id LOOP
        ids := ids || ('stock:' || r.id);
        ev := ev || footnote._row_evidence('stock', 'id', to_jsonb(r), ARRAY['warehouse', 'quantity', 'counted_on']);
        rws := rws || jsonb_build_object(
            'warehouse', footnote._value('text', r.warehouse, ARRAY['stock:' || r.id]),
            'quantity', footnote._value('quantity', r.quantity::text, ARRAY['stock:' || r.id]),
            'counted_on', footnote._value('date', r.counted_on::text, ARRAY['stock:' || r.id]));
        total := r.total_quantity;
        n := r.warehouse_count;
    END LOOP;
    RETURN footnote._finish('stock_on_hand',
        jsonb_build_object('item', item), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('item', i.uri),
            'subject', jsonb_build_object('item', jsonb_build_object('id', i.id::text, 'name', i.name, 'uri', i.uri)),
            'values', jsonb_build_object(
                'item', footnote._value('text', i.name, ARRAY[iid]),
                'sku', footnote._value('text', it->>'sku', ARRAY[iid]),
                'unit', footnote._value('text', it->>'unit', ARRAY[iid]),
                'quantity', footnote._value('quantity', total::text, ids),
                'reorder_level', footnote._fact('reorder_level', 'quantity', it->>'reorder_level', ARRAY[iid]),
                'below_reorder_level', footnote._fact('reorder_level', 'text',
                    CASE WHEN total < (it->>'reorder_level')::numeric THEN 'yes'
                         WHEN total >= (it->>'reorder_level')::numeric THEN 'no' END, ids || iid),
                'warehouse_count', footnote._value('count', n::text, ids)),
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN n = 0 THEN 'no_stock_records' END,
            'queries', jsonb_build_array(footnote._query_ref('item', jsonb_build_array(i.id)),
                                         footnote._query_ref('stock_of_item', jsonb_build_array(i.id)))));
END
$$;

-- A supplier's payment facts as of a date: payment history, bank accounts used, pending bank-detail
-- changes and the phone on file, each fact with how it was verified.
CREATE FUNCTION footnote._op_supplier_payment_facts(supplier text, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    d       date := footnote._date_arg('as_of', as_of);
    s       footnote.entity := footnote._resolve('supplier', 'supplier', supplier);
    sup     jsonb;
    sid     text := 'supplier:' || s.id;
    r       record;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    pay_ids text[] := '{}';
    acc_ids text[] := '{}';
    req_ids text[] := '{}';
    pend_ids text[] := '{}';
    n_pay   bigint := 0;
    paid    numeric := 0.00;
    first_on date;
    last_on date;
    endings text[] := '{}';
    pend    record;
    have_pend boolean := false;
    vals    jsonb;
    v_ok    boolean;
BEGIN
    EXECUTE format('SELECT to_jsonb(x) FROM (%s) AS x', footnote._query('supplier')) INTO sup USING s.id;
    PERFORM footnote._subject_again('supplier_payment_facts', s, 'supplier', sup);  -- read again: the same row
    ev := ev || footnote._row_evidence('supplier', 'id', sup,
        ARRAY['name', 'supplier_number', 'country', 'phone', 'phone_since', 'phone_verified', 'phone_verification'],
        coalesce((sup->>'phone_verified')::boolean, false));
    FOR r IN EXECUTE footnote._query('supplier_payments') USING s.id, d LOOP
        pay_ids := pay_ids || ('supplier_payment:' || r.id);
        ev := ev || footnote._row_evidence('supplier_payment', 'id', to_jsonb(r),
            ARRAY['paid_on', 'amount', 'reference', 'bank_account_id']);
        n_pay := r.payment_count;
        paid := r.total_paid;
        first_on := r.first_paid_on;
        last_on := r.last_paid_on;
    END LOOP;
    FOR r IN EXECUTE footnote._query('supplier_bank_accounts') USING s.id, d LOOP
        acc_ids := acc_ids || ('bank_account:' || r.id);
        IF r.payments > 0 THEN
            endings := endings || r.account_ending;
        END IF;
        ev := ev || footnote._row_evidence('bank_account', 'id', to_jsonb(r),
            ARRAY['iban_masked', 'account_ending', 'added_on', 'verified', 'verification', 'payments'],
            coalesce(r.verified, false));
        rws := rws || jsonb_build_object(
            'fact', footnote._value('text', 'bank account on file', ARRAY['bank_account:' || r.id]),
            'account_ending', footnote._value('text', r.account_ending, ARRAY['bank_account:' || r.id],
                jsonb_build_object('verified', coalesce(r.verified, false), 'verification', r.verification)),
            'payments', footnote._value('count', r.payments::text, ARRAY['bank_account:' || r.id]),
            'added_on', footnote._value('date', r.added_on::text, ARRAY['bank_account:' || r.id]));
    END LOOP;
    FOR r IN EXECUTE footnote._query('bank_change_requests') USING s.id, d LOOP
        EXIT WHEN NOT footnote._recorded('bank_change_requests');  -- declared not recorded: not read
        req_ids := req_ids || ('bank_change_request:' || r.id);
        v_ok := coalesce(r.verified, false);
        IF r.status = 'pending' THEN
            pend_ids := pend_ids || ('bank_change_request:' || r.id);
            IF NOT have_pend THEN
                pend := r;
                have_pend := true;
            END IF;
        END IF;
        ev := ev || footnote._row_evidence('bank_change_request', 'id', to_jsonb(r),
            ARRAY['requested_on', 'channel', 'sender', 'sender_domain', 'domain_registered_on', 'domain_age_days',
                  'requested_iban_masked', 'requested_account_ending', 'status', 'verified', 'verification'], v_ok);
        rws := rws || jsonb_build_object(
            'fact', footnote._value('text', 'bank detail change request', ARRAY['bank_change_request:' || r.id]),
            'account_ending', footnote._value('text', r.requested_account_ending, ARRAY['bank_change_request:' || r.id],
                jsonb_build_object('verified', v_ok, 'verification', r.verification)),
            'status', footnote._value('text', r.status, ARRAY['bank_change_request:' || r.id]),
            'requested_on', footnote._value('date', r.requested_on::text, ARRAY['bank_change_request:' || r.id]),
            'channel', footnote._value('text', r.channel, ARRAY['bank_change_request:' || r.id]),
            'domain_age', footnote._value('days', r.domain_age_days::text, ARRAY['bank_change_request:' || r.id],
                jsonb_build_object('verified', v_ok, 'verification', r.verification)));
    END LOOP;
    vals := jsonb_build_object(
        'supplier', footnote._value('text', s.name, ARRAY[sid]),
        'as_of', footnote._value('date', d::text, '{}'),
        'payment_count', footnote._value('count', n_pay::text, pay_ids, jsonb_build_object('verified', true, 'verification', 'payment records')),
        'total_paid', footnote._value('amount', paid::text, pay_ids, jsonb_build_object('verified', true, 'verification', 'payment records')),
        'accounts_paid_count', footnote._value('count', cardinality(endings)::text, acc_ids),
        'accounts_on_file', footnote._value('count', cardinality(acc_ids)::text, acc_ids),
        'pending_change_count', footnote._fact('bank_change_requests', 'count', cardinality(pend_ids)::text, pend_ids),
        'phone', footnote._value('text', sup->>'phone', ARRAY[sid],
            jsonb_build_object('verified', footnote._recorded('phone_verification')
                                           AND coalesce((sup->>'phone_verified')::boolean, false),
                               'verification', CASE WHEN footnote._recorded('phone_verification')
                                                    THEN sup->>'phone_verification'
                                                    ELSE 'not recorded in this ERP' END)),
        'phone_unchanged_since', footnote._value('date', sup->>'phone_since', ARRAY[sid],
            jsonb_build_object('verified', coalesce((sup->>'phone_verified')::boolean, false),
                               'verification', sup->>'phone_verification')));
    IF n_pay > 0 THEN
        vals := vals || jsonb_build_object(
            'first_payment_on', footnote._value('date', first_on::text, pay_ids),
            'last_payment_on', footnote._value('date', last_on::text, pay_ids));
    END IF;
    IF cardinality(endings) = 1 THEN
        vals := vals || jsonb_build_object('paid_account_ending', footnote._value('text', endings[1], acc_ids || pay_ids,
            jsonb_build_object('verified', true, 'verification', 'every payment went to this account')));
    END IF;
    IF have_pend THEN
        vals := vals || jsonb_build_object(
            'pending_account_ending', footnote._value('text', pend.requested_account_ending,
                ARRAY['bank_change_request:' || pend.id],
                jsonb_build_object('verified', coalesce(pend.verified, false), 'verification', pend.verification)),
            'pending_requested_on', footnote._value('date', pend.requested_on::text, ARRAY['bank_change_request:' || pend.id]),
            'pending_channel', footnote._value('text', pend.channel, ARRAY['bank_change_request:' || pend.id]),
            'pending_domain_age', footnote._value('days', pend.domain_age_days::text, ARRAY['bank_change_request:' || pend.id],
                jsonb_build_object('verified', coalesce(pend.verified, false), 'verification', pend.verification)));
    END IF;
    RETURN footnote._finish('supplier_payment_facts',
        jsonb_build_object('supplier', supplier, 'as_of', as_of), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('supplier', s.uri, 'as_of', d),
            'subject', jsonb_build_object('supplier', jsonb_build_object('id', s.id::text, 'name', s.name, 'uri', s.uri)),
            'values', vals,
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN n_pay = 0 THEN 'no_payments' END,
            'queries', jsonb_build_array(
                footnote._query_ref('supplier', jsonb_build_array(s.id)),
                footnote._query_ref('supplier_payments', jsonb_build_array(s.id, d)),
                footnote._query_ref('supplier_bank_accounts', jsonb_build_array(s.id, d)),
                footnote._query_ref('bank_change_requests', jsonb_build_array(s.id, d)))));
END
$$;

-- Accounts payable as of a date: the supplier invoices received and not yet paid in full, of all suppliers or one:
-- what is open of each (its gross less what its payments settled by then), the overdue part and the open amounts
-- by days past due (current, 1-30, 31-60, 61-90, over 90).
CREATE FUNCTION footnote._op_accounts_payable(supplier text DEFAULT NULL, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    d       date := footnote._date_arg('as_of', as_of);
    s       footnote.entity;
    r       record;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    ids     text[] := '{}';
    b_ids   jsonb := '{}';
    b_total jsonb := '{}';
    b       text;
    eid     text;
    total   numeric := 0.00;
    n       bigint := 0;
    vals    jsonb;
BEGIN
    IF NOT EXISTS (SELECT FROM footnote_src.supplier_invoices) THEN   -- an unmapped view is no "nothing open"
        RAISE EXCEPTION USING ERRCODE = 'FN006',
            MESSAGE = 'no supplier invoices are recorded: the source view footnote_src.supplier_invoices is not mapped',
            DETAIL = jsonb_build_object('view', 'footnote_src.supplier_invoices')::text;
    END IF;
    IF supplier IS NOT NULL THEN
        s := footnote._resolve('supplier', 'supplier', supplier);
    END IF;
    FOR r IN EXECUTE footnote._query('supplier_invoices_open') USING s.id, d LOOP
        eid := 'supplier_invoice:' || r.id;
        ids := ids || eid;
        b_ids := jsonb_set(b_ids, ARRAY[r.bucket], coalesce(b_ids->r.bucket, '[]') || to_jsonb(eid));
        b_total := b_total || jsonb_build_object(r.bucket, (coalesce((b_total->>r.bucket)::numeric, 0) + r.open)::text);
        ev := ev || footnote._row_evidence('supplier_invoice', 'id', to_jsonb(r),
            ARRAY['number', 'supplier_id', 'supplier_name', 'invoice_date', 'due_date', 'gross', 'paid', 'open',
                  'days_past_due', 'bucket']);
        rws := rws || jsonb_build_object(
            'number', footnote._value('text', r.number, ARRAY[eid]),
            'supplier', footnote._value('text', r.supplier_name, ARRAY[eid]),
            'due_date', footnote._value('date', r.due_date::text, ARRAY[eid]),
            'gross', footnote._value('amount', r.gross::text, ARRAY[eid]),
            'paid', footnote._value('amount', r.paid::text, ARRAY[eid]),
            'open', footnote._value('amount', r.open::text, ARRAY[eid]),
            'days_past_due', footnote._value('days', r.days_past_due::text, ARRAY[eid]));
        total := r.open_total;
        n := r.open_count;
    END LOOP;
    vals := jsonb_build_object(
        'as_of', footnote._value('date', d::text, '{}'),
        'open_total', footnote._value('amount', total::text, ids),
        'open_count', footnote._value('count', n::text, ids),
        'overdue_total', footnote._value('amount', (total - coalesce((b_total->>'current')::numeric, 0))::text,
            ARRAY(SELECT x FROM unnest(ids) AS x EXCEPT SELECT jsonb_array_elements_text(coalesce(b_ids->'current', '[]')))),
        'overdue_count', footnote._value('count',
            (n - coalesce(jsonb_array_length(b_ids->'current'), 0))::text,
            ARRAY(SELECT x FROM unnest(ids) AS x EXCEPT SELECT jsonb_array_elements_text(coalesce(b_ids->'current', '[]')))));
    FOREACH b IN ARRAY ARRAY['current', '1-30', '31-60', '61-90', 'over_90'] LOOP
        vals := vals || jsonb_build_object(CASE b WHEN 'current' THEN 'current' WHEN 'over_90' THEN 'over_90'
                                                  ELSE 'days_' || replace(b, '-', '_') END,
            footnote._value('amount', coalesce(b_total->>b, '0.00'),
                ARRAY(SELECT jsonb_array_elements_text(coalesce(b_ids->b, '[]')))));
    END LOOP;
    IF s.id IS NOT NULL THEN
        vals := vals || jsonb_build_object('supplier', footnote._value('text', s.name, '{}'));
    END IF;
    RETURN footnote._finish('accounts_payable',
        jsonb_build_object('supplier', supplier, 'as_of', as_of), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('supplier', s.uri, 'as_of', d),
            'subject', CASE WHEN s.id IS NOT NULL THEN jsonb_build_object('supplier',
                jsonb_build_object('id', s.id::text, 'name', s.name, 'uri', s.uri)) END,
            'values', vals,
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN n = 0 THEN 'no_open_supplier_invoices' END,
            'queries', jsonb_build_array(footnote._query_ref('supplier_invoices_open', jsonb_build_array(s.id, d)))));
END
$$;
