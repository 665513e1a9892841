-- footnote-pg: the catalog's entry points, and the only way into the call log.
--
-- Each catalog operation is two functions. footnote._op_<name> computes the result: it reads the ERP through
-- the source views (code the DBA maps, footnote_src) and runs as footnote_owner, which can read the ERP but
-- write no evidence. footnote.<name>, the entry point the service calls, runs as footnote_ledger, the role
-- that owns the evidence and has no members: it calls the computation and appends exactly what it returned
-- to the call log (footnote._logged). So a call-log row can only say what a catalog computation returned
-- when asked: no login can write one by hand or hand one a doctored result, and the ledger's role never runs
-- code a login can change (docs/threat-model.md).

-- Each entry point first checks that its computation is as installed (footnote._owner_code, FN105 otherwise), so
-- that the ledger's role never runs it as anything but footnote_owner's code with the pinned search_path, and
-- then that the computation left the session's actor, locale and time zone as they were (footnote._session_kept).

-- Append a computed result to the call log and return it with the hash the log keeps. The result's
-- operation must be the entry point's, and its time this statement's; said: what the session said before the
-- computation ran.
CREATE FUNCTION footnote._logged(operation text, doc jsonb, said jsonb DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    links   jsonb := doc->'ui_links';
    called  timestamptz := (doc->>'called_at')::timestamptz;
    hash    text;
    bad     text;
BEGIN
    -- what the session said before the computation ran (footnote._owner_code): it must say the same now
    IF said IS NOT NULL THEN
        PERFORM footnote._session_kept(said, '_op_' || operation);
    END IF;
    -- and the document must name the actor the session speaks for: the mapping's code could have changed the actor
    -- only while the computation stamped it, and put it back before it returned
    IF doc->'actor' IS DISTINCT FROM footnote._actor() THEN
        RAISE EXCEPTION USING ERRCODE = 'FN105',
            MESSAGE = format('the result of %s names another actor than the session''s: refused (the mapping''s code '
                             'may not speak for the application)', operation),
            DETAIL = jsonb_build_object('operation', operation, 'result_actor', doc->'actor',
                                        'session_actor', footnote._actor())::text;
    END IF;
    -- and every figure must be written as the formatter writes it in the session's locale and currency now: the
    -- mapping's code could have switched them only while some were formatted (footnote._misformatted)
    IF said IS NOT NULL THEN
        bad := footnote._misformatted(doc);
        IF bad IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = 'FN105',
                MESSAGE = format('the result of %s has figures formatted under another locale or currency than the '
                                 'session''s (%s): refused (the mapping''s code may not change how figures are written)',
                                 operation, footnote._shown(bad)),
                DETAIL = jsonb_build_object('operation', operation, 'figure', bad)::text;
        END IF;
    END IF;
    doc := doc - 'ui_links';
    IF doc->>'operation' IS DISTINCT FROM operation OR called IS NULL OR called < statement_timestamp()
       OR called > clock_timestamp() THEN
        RAISE EXCEPTION USING ERRCODE = 'FN105',
            MESSAGE = format('footnote.call_log takes rows only from the catalog operation that computed them (%s)',
                             operation);
    END IF;
    -- the result hash is SHA-256 of the document's jsonb text, the form the call log keeps it in
    -- (docs/hash-spec.md, section 8): written by the server in one pass, not re-serialised member by member
    hash := footnote.sha256_hex(doc::text);
    INSERT INTO footnote.call_log (call_id, called_at, db_role, backend_pid, actor_id, actor_role, operation,
                                   arguments, evidence_ids, result, result_hash, duration_ms)
    VALUES ((doc->>'call_id')::uuid, called, session_user, pg_backend_pid(), doc->'actor'->>'id',
            doc->'actor'->>'role', operation, doc->'arguments',
            ARRAY(SELECT e->>'id' FROM jsonb_array_elements(coalesce(doc->'evidence', '[]')) WITH ORDINALITY AS x(e, n)
                  ORDER BY x.n),
            doc, hash, (doc->>'duration_ms')::numeric);
    -- the caller also gets the hash the log keeps: SHA-256 of the document without this member; and,
    -- where the ui_links setting says how, the links into the ERP's own UI (presentation, not logged)
    RETURN doc || jsonb_build_object('result_hash', hash) || coalesce(jsonb_build_object('ui_links', links), '{}');
END
$$;

CREATE FUNCTION footnote.customer_overdue(customer text, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('customer_overdue', footnote._op_customer_overdue(customer, as_of), said)
    FROM footnote._owner_code('_op_customer_overdue') AS said
$$;

CREATE FUNCTION footnote.ar_aging(as_of date DEFAULT NULL, customer text DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('ar_aging', footnote._op_ar_aging(as_of, customer), said)
    FROM footnote._owner_code('_op_ar_aging') AS said
$$;

CREATE FUNCTION footnote.customer_risk(customer text, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('customer_risk', footnote._op_customer_risk(customer, as_of), said)
    FROM footnote._owner_code('_op_customer_risk') AS said
$$;

CREATE FUNCTION footnote.open_tickets(customer text, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('open_tickets', footnote._op_open_tickets(customer, as_of), said)
    FROM footnote._owner_code('_op_open_tickets') AS said
$$;

CREATE FUNCTION footnote.invoice(number text, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('invoice', footnote._op_invoice(number, as_of), said)
    FROM footnote._owner_code('_op_invoice') AS said
$$;

CREATE FUNCTION footnote.source_record(uri text)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('source_record', footnote._op_source_record(uri), said)
    FROM footnote._owner_code('_op_source_record') AS said
$$;

CREATE FUNCTION footnote.days_sales_outstanding(as_of date DEFAULT NULL, window_days integer DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('days_sales_outstanding', footnote._op_days_sales_outstanding(as_of, window_days), said)
    FROM footnote._owner_code('_op_days_sales_outstanding') AS said
$$;

CREATE FUNCTION footnote.revenue(period text, customer text DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('revenue', footnote._op_revenue(period, customer), said)
    FROM footnote._owner_code('_op_revenue') AS said
$$;

CREATE FUNCTION footnote.revenue_change(period_from text, period_to text, customer text DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('revenue_change', footnote._op_revenue_change(period_from, period_to, customer), said)
    FROM footnote._owner_code('_op_revenue_change') AS said
$$;

CREATE FUNCTION footnote.top_customers(period text, "limit" integer DEFAULT NULL, direction text DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('top_customers', footnote._op_top_customers(period, "limit", direction), said)
    FROM footnote._owner_code('_op_top_customers') AS said
$$;

CREATE FUNCTION footnote.revenue_drivers(period_from text, period_to text, "limit" integer DEFAULT NULL, direction text DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('revenue_drivers', footnote._op_revenue_drivers(period_from, period_to, "limit", direction), said)
    FROM footnote._owner_code('_op_revenue_drivers') AS said
$$;

CREATE FUNCTION footnote.list_customers(name_contains text DEFAULT NULL, "limit" integer DEFAULT NULL, owner text DEFAULT NULL, country text DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('list_customers', footnote._op_list_customers(name_contains, "limit", owner, country), said)
    FROM footnote._owner_code('_op_list_customers') AS said
$$;

CREATE FUNCTION footnote.customer_payments(customer text, period text DEFAULT NULL, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('customer_payments', footnote._op_customer_payments(customer, period, as_of), said)
    FROM footnote._owner_code('_op_customer_payments') AS said
$$;

CREATE FUNCTION footnote.customer_profile(customer text, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('customer_profile', footnote._op_customer_profile(customer, as_of), said)
    FROM footnote._owner_code('_op_customer_profile') AS said
$$;

CREATE FUNCTION footnote.rank_customers(measure text, direction text DEFAULT NULL, "limit" integer DEFAULT NULL, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('rank_customers', footnote._op_rank_customers(measure, direction, "limit", as_of), said)
    FROM footnote._owner_code('_op_rank_customers') AS said
$$;

CREATE FUNCTION footnote.revenue_by_month(period text, customer text DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('revenue_by_month', footnote._op_revenue_by_month(period, customer), said)
    FROM footnote._owner_code('_op_revenue_by_month') AS said
$$;

CREATE FUNCTION footnote.credit_notes(period text, customer text DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('credit_notes', footnote._op_credit_notes(period, customer), said)
    FROM footnote._owner_code('_op_credit_notes') AS said
$$;

CREATE FUNCTION footnote.list_suppliers(name_contains text DEFAULT NULL, "limit" integer DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('list_suppliers', footnote._op_list_suppliers(name_contains, "limit"), said)
    FROM footnote._owner_code('_op_list_suppliers') AS said
$$;

CREATE FUNCTION footnote.list_items(name_contains text DEFAULT NULL, "limit" integer DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('list_items', footnote._op_list_items(name_contains, "limit"), said)
    FROM footnote._owner_code('_op_list_items') AS said
$$;

CREATE FUNCTION footnote.open_purchase_orders(supplier text DEFAULT NULL, expected_in text DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('open_purchase_orders', footnote._op_open_purchase_orders(supplier, expected_in), said)
    FROM footnote._owner_code('_op_open_purchase_orders') AS said
$$;

CREATE FUNCTION footnote.purchase_order(number text)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('purchase_order', footnote._op_purchase_order(number), said)
    FROM footnote._owner_code('_op_purchase_order') AS said
$$;

CREATE FUNCTION footnote.stock_on_hand(item text)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('stock_on_hand', footnote._op_stock_on_hand(item), said)
    FROM footnote._owner_code('_op_stock_on_hand') AS said
$$;

CREATE FUNCTION footnote.items_below_reorder()
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('items_below_reorder', footnote._op_items_below_reorder(), said)
    FROM footnote._owner_code('_op_items_below_reorder') AS said
$$;

CREATE FUNCTION footnote.supplier_payment_facts(supplier text, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('supplier_payment_facts', footnote._op_supplier_payment_facts(supplier, as_of), said)
    FROM footnote._owner_code('_op_supplier_payment_facts') AS said
$$;

CREATE FUNCTION footnote.accounts_payable(supplier text DEFAULT NULL, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._logged('accounts_payable', footnote._op_accounts_payable(supplier, as_of), said)
    FROM footnote._owner_code('_op_accounts_payable') AS said
$$;

-- In PL/pgSQL, as its computation (footnote_owner's) is created after it when a revision adds both.
CREATE FUNCTION footnote.breakdown(measure text, period text, "by" text DEFAULT NULL, country text DEFAULT NULL,
                                   owner text DEFAULT NULL, customer text DEFAULT NULL, supplier text DEFAULT NULL,
                                   "limit" integer DEFAULT NULL, direction text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    said jsonb := footnote._owner_code('_op_breakdown');
BEGIN
    RETURN footnote._logged('breakdown', footnote._op_breakdown(measure, period, "by", country, owner, customer,
                                                                supplier, "limit", direction), said);
END
$$;
