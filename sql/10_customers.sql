-- footnote-pg: catalog operations about customers.
--
-- Each operation validates its arguments, resolves the customer, runs named
-- queries from footnote.queries, and returns one result document through
-- footnote._finish, which appends it to the call log. SECURITY DEFINER, owned
-- by footnote_owner, search_path pinned; EXECUTE is granted in 90_grants.sql.

-- Evidence row of one customer, and the query that fetched it.
CREATE FUNCTION footnote._customer_evidence(customer_id bigint, OUT evidence jsonb, OUT facts jsonb, OUT query jsonb)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    EXECUTE format('SELECT to_jsonb(c) FROM (%s) AS c', footnote._query('customer')) INTO facts USING customer_id;
    evidence := footnote._row_evidence('customer', 'id', facts,
        ARRAY['name', 'customer_number', 'country', 'city', 'payment_terms_days', 'account_owner', 'credit_limit']);
    query := footnote._query_ref('customer', jsonb_build_array(customer_id));
END
$$;

-- Customers by name (optionally those whose name contains name_contains, with account owner owner, in country
-- country), at most limit. An owner no customer has is FN002 listing the real ones.
CREATE FUNCTION footnote._op_list_customers(name_contains text DEFAULT NULL, "limit" integer DEFAULT NULL,
                                        owner text DEFAULT NULL, country text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    o       text := footnote._text_arg('owner', owner, false, 200);
    k       text := upper(footnote._text_arg('country', country, false, 40));
    known   text;
    filters jsonb := '{}';
BEGIN
    IF o IS NOT NULL AND NOT footnote._recorded('account_owner') THEN
        PERFORM footnote._not_recorded('account_owner', 'account owners are');
    END IF;
    IF o IS NOT NULL THEN
        EXECUTE format('SELECT q.name FROM (%s) AS q WHERE footnote._fold(q.name) = footnote._fold($1) LIMIT 1',
                       footnote._query('account_owners')) INTO known USING o;
        IF known IS NULL THEN
            RAISE EXCEPTION USING
                ERRCODE = 'FN002',
                MESSAGE = format('no customer has the account owner "%s"; the account owners are: %s', o,
                                 (SELECT string_agg(x.name, ', ' ORDER BY x.name)
                                  FROM footnote._account_owners() AS x)),
                DETAIL = jsonb_build_object('argument', 'owner', 'entity', 'account owner', 'value', o,
                    'alternatives', (SELECT coalesce(jsonb_agg(jsonb_build_object('name', x.name) ORDER BY x.name), '[]')
                                     FROM footnote._account_owners() AS x))::text;
        END IF;
        filters := filters || jsonb_build_object('owner', known);
    END IF;
    IF k IS NOT NULL THEN
        IF k !~ '^[A-Z]{2}$' THEN
            PERFORM footnote._invalid('country', format('%s is not a two-letter country code (DE, FR, ...)', country),
                                      country);
        END IF;
        filters := filters || jsonb_build_object('country', k);
    END IF;
    RETURN footnote._list('list_customers', CASE WHEN filters = '{}' THEN 'customers' ELSE 'customers_filtered' END,
        'customer', name_contains, "limit",
        '{"name": ["text", "name"], "customer_number": ["text", "customer_number"],
          "payment_terms": ["days", "payment_terms_days"], "account_owner": ["text", "account_owner"]}',
        ARRAY['name', 'customer_number', 'country', 'city', 'payment_terms_days', 'account_owner'],
        clock_timestamp(), filters);
END
$$;

-- The account owners of customers, by name.
CREATE FUNCTION footnote._account_owners()
RETURNS TABLE (name text)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY EXECUTE format('SELECT q.name FROM (%s) AS q ORDER BY q.name', footnote._query('account_owners'));
END
$$;

-- The overdue invoices of a customer as of a date: total, count, oldest days past due (and which invoice),
-- their ids, evidence rows and value rows.
CREATE FUNCTION footnote._overdue(customer_id bigint, as_of date,
    OUT total numeric, OUT n bigint, OUT oldest integer, OUT oldest_id text,
    OUT ids text[], OUT evidence jsonb[], OUT rws jsonb[], OUT query jsonb)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r record;
BEGIN
    total := 0.00;
    n := 0;
    ids := '{}';
    evidence := '{}';
    rws := '{}';
    FOR r IN EXECUTE footnote._query('overdue_invoices') USING customer_id, as_of LOOP
        ids := ids || ('invoice:' || r.invoice_id);
        -- an invoice in instalments: its evidence says how much of what is outstanding is overdue
        evidence := evidence || footnote._row_evidence('invoice', 'invoice_id', to_jsonb(r),
            ARRAY['number', 'issue_date', 'due_date', 'gross', 'paid', 'credited', 'outstanding', 'days_past_due']
            || CASE WHEN r.due_lines > 1 THEN ARRAY['overdue', 'due_lines', 'next_due'] ELSE '{}' END);
        rws := rws || jsonb_build_object(  -- due: when its earliest open part fell due
            'number', footnote._value('text', r.number, ARRAY['invoice:' || r.invoice_id]),
            'due_date', footnote._value('date', r.next_due::text, ARRAY['invoice:' || r.invoice_id]),
            'outstanding', footnote._value('amount', r.overdue::text, ARRAY['invoice:' || r.invoice_id]),
            'days_past_due', footnote._value('days', r.days_past_due::text, ARRAY['invoice:' || r.invoice_id]));
        total := r.total_outstanding;
        n := r.invoice_count;
        IF oldest IS NULL THEN  -- oldest due first: the first row is the oldest
            oldest := r.oldest_days_past_due;
            oldest_id := 'invoice:' || r.invoice_id;
        END IF;
    END LOOP;
    query := footnote._query_ref('overdue_invoices', jsonb_build_array(customer_id, as_of));
END
$$;

-- Credits on the account of a customer (or of all, customer_id NULL) as of a date: payments on account and what
-- credit notes have not yet set off against an invoice; their total, ids, evidence rows and the query.
CREATE FUNCTION footnote._account_credits(as_of date, customer_id bigint,
    OUT total numeric, OUT ids text[], OUT evidence jsonb[], OUT query jsonb)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    EXECUTE format($f$
        WITH k AS (%s)
        SELECT coalesce(sum(k.amount), 0.00),
               coalesce(array_agg(k.type || ':' || k.id ORDER BY k.on_date, k.type, k.id), '{}'),
               coalesce(array_agg(footnote._row_evidence(k.type, 'id',
                                      jsonb_strip_nulls(to_jsonb(k)) || jsonb_build_object('open_credit', k.amount),
                                      ARRAY['number', 'customer_id', 'on_date', 'open_credit'])
                                  ORDER BY k.on_date, k.type, k.id), '{}')
        FROM k$f$, footnote._query('account_credits'))
    INTO total, ids, evidence USING as_of, customer_id;
    query := footnote._query_ref('account_credits', jsonb_build_array(as_of, customer_id));
END
$$;

-- Overdue invoices of one customer as of a date: the open part of their due lines past due, count, oldest days
-- past due, one row per invoice (its overdue part).
CREATE FUNCTION footnote._op_customer_overdue(customer text, as_of date DEFAULT NULL)
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
    vals    jsonb;
BEGIN
    SELECT * INTO cust FROM footnote._customer_evidence(c.id);
    PERFORM footnote._subject_again('customer_overdue', c, 'customer', cust.facts);  -- read again: the same row
    SELECT * INTO o FROM footnote._overdue(c.id, d);
    vals := jsonb_build_object(
        'customer', footnote._value('text', c.name, ARRAY['customer:' || c.id]),
        'as_of', footnote._value('date', d::text, '{}'),
        'overdue_total', footnote._value('amount', o.total::text, o.ids),
        'invoice_count', footnote._value('count', o.n::text, o.ids));
    IF o.n > 0 THEN
        vals := vals || jsonb_build_object('oldest_days_past_due', footnote._value('days', o.oldest::text, ARRAY[o.oldest_id]));
    END IF;
    RETURN footnote._finish('customer_overdue',
        jsonb_build_object('customer', customer, 'as_of', as_of), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('customer', c.uri, 'as_of', d),
            'subject', jsonb_build_object('customer', jsonb_build_object('id', c.id::text, 'name', c.name, 'uri', c.uri)),
            'values', vals,
            'rows', to_jsonb(o.rws),
            'evidence', to_jsonb(ARRAY[cust.evidence] || o.evidence),
            'empty_reason', CASE WHEN o.n = 0 THEN 'no_overdue_invoices' END,
            'queries', jsonb_build_array(cust.query, o.query)));
END
$$;

-- Open support tickets of one customer as of a date, most severe first, with counts.
CREATE FUNCTION footnote._op_open_tickets(customer text, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    d       date := footnote._date_arg('as_of', as_of);
    c       footnote.entity := footnote._resolve('customer', 'customer', customer);
    r       record;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    ids     text[] := '{}';
    high_ids text[] := '{}';
    n       bigint := 0;
BEGIN
    IF NOT footnote._recorded('tickets') THEN
        PERFORM footnote._not_recorded('tickets', 'support tickets are');
    END IF;
    FOR r IN EXECUTE footnote._query('open_tickets') USING c.id, d LOOP
        ids := ids || ('ticket:' || r.id);
        IF r.severity IN ('high', 'critical') THEN
            high_ids := high_ids || ('ticket:' || r.id);
        END IF;
        ev := ev || footnote._row_evidence('ticket', 'id', to_jsonb(r),
            ARRAY['subject', 'severity', 'status', 'opened_on', 'age_days']);
        rws := rws || jsonb_build_object(
            'subject', footnote._value('text', r.subject, ARRAY['ticket:' || r.id]),
            'severity', footnote._fact('ticket_severity', 'text', r.severity, ARRAY['ticket:' || r.id]),
            'opened_on', footnote._value('date', r.opened_on::text, ARRAY['ticket:' || r.id]),
            'age', footnote._value('days', r.age_days::text, ARRAY['ticket:' || r.id]));
        n := r.open_count;
    END LOOP;
    RETURN footnote._finish('open_tickets',
        jsonb_build_object('customer', customer, 'as_of', as_of), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('customer', c.uri, 'as_of', d),
            'subject', jsonb_build_object('customer', jsonb_build_object('id', c.id::text, 'name', c.name, 'uri', c.uri)),
            'values', jsonb_build_object(
                'customer', footnote._value('text', c.name, '{}'),
                'as_of', footnote._value('date', d::text, '{}'),
                'open_count', footnote._value('count', n::text, ids),
                'high_severity_count', footnote._fact('ticket_severity', 'count', cardinality(high_ids)::text, high_ids)),
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN n = 0 THEN 'no_open_tickets' END,
            'queries', jsonb_build_array(footnote._query_ref('open_tickets', jsonb_build_array(c.id, d)))));
END
$$;

-- The facts behind a customer's risk as of a date: overdue balance, open tickets and their severity, payment terms, account owner.
CREATE FUNCTION footnote._op_customer_risk(customer text, as_of date DEFAULT NULL)
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
    ev      jsonb[] := '{}';
    inv_ids text[] := '{}';
    tk_ids  text[] := '{}';
    high_ids text[] := '{}';
    total   numeric := 0.00;
    n_inv   bigint := 0;
    n_tk    bigint := 0;
    oldest  integer;
    oldest_id text;
    cid     text;
    vals    jsonb;
BEGIN
    SELECT * INTO cust FROM footnote._customer_evidence(c.id);
    PERFORM footnote._subject_again('customer_risk', c, 'customer', cust.facts);  -- read again: the same row
    cid := 'customer:' || c.id;
    ev := ev || cust.evidence;
    SELECT * INTO o FROM footnote._overdue(c.id, d);
    inv_ids := o.ids;
    ev := ev || o.evidence;
    total := o.total;
    n_inv := o.n;
    oldest := o.oldest;
    oldest_id := o.oldest_id;
    FOR r IN EXECUTE footnote._query('open_tickets') USING c.id, d LOOP
        tk_ids := tk_ids || ('ticket:' || r.id);
        IF r.severity IN ('high', 'critical') THEN
            high_ids := high_ids || ('ticket:' || r.id);
        END IF;
        ev := ev || footnote._row_evidence('ticket', 'id', to_jsonb(r),
            ARRAY['subject', 'severity', 'status', 'opened_on', 'age_days']);
        n_tk := r.open_count;
    END LOOP;
    vals := jsonb_build_object(
        'customer', footnote._value('text', c.name, ARRAY[cid]),
        'as_of', footnote._value('date', d::text, '{}'),
        'overdue_total', footnote._value('amount', total::text, inv_ids),
        'overdue_invoice_count', footnote._value('count', n_inv::text, inv_ids),
        'open_ticket_count', footnote._fact('tickets', 'count', n_tk::text, tk_ids),
        'high_severity_ticket_count', footnote._fact('ticket_severity', 'count', cardinality(high_ids)::text, high_ids),
        'payment_terms', footnote._fact('payment_terms', 'days', cust.facts->>'payment_terms_days', ARRAY[cid]),
        'account_owner', footnote._fact('account_owner', 'text', cust.facts->>'account_owner', ARRAY[cid]));
    IF n_inv > 0 THEN
        vals := vals || jsonb_build_object('oldest_days_past_due', footnote._value('days', oldest::text, ARRAY[oldest_id]));
    END IF;
    RETURN footnote._finish('customer_risk',
        jsonb_build_object('customer', customer, 'as_of', as_of), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('customer', c.uri, 'as_of', d),
            'subject', jsonb_build_object('customer', jsonb_build_object('id', c.id::text, 'name', c.name, 'uri', c.uri)),
            'values', vals,
            'evidence', to_jsonb(ev),
            'queries', jsonb_build_array(cust.query, o.query,
                footnote._query_ref('open_tickets', jsonb_build_array(c.id, d)))));
END
$$;

-- The names the question router matches (customers with their account owners, suppliers, items): not a
-- catalog operation and not logged, because a name list for routing is no evidence of anything; every figure
-- an answer shows still comes from a logged call. Read again by long-lived clients when it is stale. The mapping's
-- code it runs may not change what the session says (footnote._session_kept, FN105).
CREATE FUNCTION footnote.router_names()
RETURNS jsonb
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    said  jsonb := footnote._session_said();
    names jsonb;
BEGIN
    SELECT jsonb_build_object(
        'customers', (SELECT coalesce(jsonb_agg(c.name ORDER BY c.name, c.id), '[]') FROM footnote_src.customers_in_scope AS c
                      WHERE c.name IS NOT NULL),
        'owners', (SELECT coalesce(jsonb_agg(DISTINCT c.account_owner), '[]') FROM footnote_src.customers_in_scope AS c
                   WHERE c.account_owner IS NOT NULL),
        'suppliers', (SELECT coalesce(jsonb_agg(s.name ORDER BY s.name, s.id), '[]') FROM footnote_src.suppliers_in_scope AS s
                      WHERE s.name IS NOT NULL),
        'items', (SELECT coalesce(jsonb_agg(jsonb_build_array(coalesce(i.sku, ''), i.name) ORDER BY i.name, i.id), '[]')
                  FROM footnote_src.items_in_scope AS i WHERE i.name IS NOT NULL)) INTO names;
    -- the mapping's code it ran must leave the session's actor as it was
    PERFORM footnote._session_kept(said, 'router_names');
    RETURN names;
END
$$;
