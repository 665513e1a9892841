-- footnote-pg: the queries behind the catalog.
--
-- Every query a catalog operation runs is a row here, read by name and run
-- with EXECUTE ... USING (parameters are never spliced into the text). The
-- same text goes into each result as the SQL that reproduces it, and the
-- contract test parses every row: source views only, SELECT only, and every
-- list ordered by a unique key.

CREATE TABLE footnote.queries (
    name        text PRIMARY KEY,
    description text NOT NULL,
    params      text[] NOT NULL,
    sql         text NOT NULL
);
COMMENT ON TABLE footnote.queries IS 'named read-only queries over the source views, run by the catalog operations';

-- The text of a named query.
CREATE FUNCTION footnote._query(query_name text)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT q.sql FROM footnote.queries AS q WHERE q.name = query_name
$$;

-- A reference to a query as a result shows it: name, SQL and the parameter values it ran with.
CREATE FUNCTION footnote._query_ref(query_name text, param_values jsonb)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_build_object('name', q.name, 'sql', q.sql, 'params', param_values)
    FROM footnote.queries AS q WHERE q.name = query_name
$$;

INSERT INTO footnote.queries (name, description, params, sql) VALUES
('customers',
 'customers whose name contains $1 (ignoring case and accents; all when NULL), by folded name, name and id, at most $2',
 '{name_contains,limit}',
 $q$SELECT c.id, c.name, c.customer_number, c.country, c.city, c.payment_terms_days, c.account_owner, c.uri,
       count(*) OVER () AS matching
FROM footnote_src.customers_in_scope AS c
WHERE $1::text IS NULL OR strpos(footnote._fold(c.name), footnote._fold($1::text)) > 0
ORDER BY footnote._fold(c.name), c.name COLLATE "C", c.id
LIMIT $2$q$),

('suppliers',
 'suppliers whose name contains $1 (ignoring case and accents; all when NULL), by folded name, name and id, at most $2',
 '{name_contains,limit}',
 $q$SELECT s.id, s.name, s.supplier_number, s.country, s.uri, count(*) OVER () AS matching
FROM footnote_src.suppliers_in_scope AS s
WHERE $1::text IS NULL OR strpos(footnote._fold(s.name), footnote._fold($1::text)) > 0
ORDER BY footnote._fold(s.name), s.name COLLATE "C", s.id
LIMIT $2$q$),

('items',
 'items whose name or SKU contains $1 (ignoring case and accents; all when NULL), by folded name, name and id, at most $2',
 '{name_contains,limit}',
 $q$SELECT it.id, it.sku, it.name, it.unit, it.uri, count(*) OVER () AS matching
FROM footnote_src.items_in_scope AS it
WHERE $1::text IS NULL OR strpos(footnote._fold(it.name), footnote._fold($1::text)) > 0
   OR strpos(lower(it.sku), lower($1::text)) > 0
ORDER BY footnote._fold(it.name), it.name COLLATE "C", it.id
LIMIT $2$q$),

('source_record',
 'the record of type $1 with id $2, from its source view: what a deep link erp://<type>/<id> opens',
 '{type,id}',
 $q$SELECT 'customer'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.customers_in_scope AS x WHERE $1 = 'customer' AND x.id = $2
UNION ALL
SELECT 'invoice'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.invoices_in_scope AS x WHERE $1 = 'invoice' AND x.id = $2
UNION ALL
SELECT 'payment'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.payments_in_scope AS x WHERE $1 = 'payment' AND x.id = $2
UNION ALL
SELECT 'credit_note'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.credit_notes_in_scope AS x WHERE $1 = 'credit_note' AND x.id = $2
UNION ALL
SELECT 'ticket'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.tickets_in_scope AS x WHERE $1 = 'ticket' AND x.id = $2
UNION ALL
SELECT 'supplier'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.suppliers_in_scope AS x WHERE $1 = 'supplier' AND x.id = $2
UNION ALL
SELECT 'bank_account'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.supplier_bank_accounts_in_scope AS x WHERE $1 = 'bank_account' AND x.id = $2
UNION ALL
SELECT 'supplier_payment'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.supplier_payments_in_scope AS x WHERE $1 = 'supplier_payment' AND x.id = $2
UNION ALL
SELECT 'supplier_invoice'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.supplier_invoices_in_scope AS x WHERE $1 = 'supplier_invoice' AND x.id = $2
UNION ALL
SELECT 'bank_change_request'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.bank_change_requests_in_scope AS x WHERE $1 = 'bank_change_request' AND x.id = $2
UNION ALL
SELECT 'purchase_order'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.purchase_orders_in_scope AS x WHERE $1 = 'purchase_order' AND x.id = $2
UNION ALL
SELECT 'item'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.items_in_scope AS x WHERE $1 = 'item' AND x.id = $2
UNION ALL
SELECT 'stock'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.stock_in_scope AS x WHERE $1 = 'stock' AND x.id = $2
ORDER BY 1, 2$q$),

('customer',
 'one customer by id',
 '{customer_id}',
 $q$SELECT c.id, c.name, c.customer_number, c.country, c.city, c.payment_terms_days, c.account_owner, c.credit_limit, c.uri
FROM footnote_src.customers_in_scope AS c
WHERE c.id = $1
ORDER BY c.id$q$),

('overdue_invoices',
 'invoices of customer $1 with due lines past due and not settled as of $2 (overdue: their open part), oldest due first, with totals',
 '{customer_id,as_of}',
 $q$SELECT b.invoice_id, b.number, b.issue_date, b.due_date, b.gross, b.paid, b.credited, b.outstanding,
       b.days_past_due, b.uri, b.overdue, b.due_lines, b.next_due,
       sum(b.overdue) OVER () AS total_outstanding,
       count(*) OVER () AS invoice_count,
       max(b.days_past_due) OVER () AS oldest_days_past_due
FROM footnote_src.invoice_balances($2, $1) AS b
WHERE b.customer_id = $1 AND b.overdue > 0
ORDER BY b.next_due, b.invoice_id$q$),

('open_invoices_aged',
 'open invoices as of $1 (of customer $2, or all when NULL) in aging buckets by days past due, with bucket totals',
 '{as_of,customer_id}',
 $q$SELECT a.invoice_id, a.number, a.customer_id, a.customer_name, a.issue_date, a.due_date, a.gross, a.paid,
       a.credited, a.outstanding, a.days_past_due, a.uri, a.bucket,
       sum(a.outstanding) OVER (PARTITION BY a.bucket) AS bucket_total,
       count(*) OVER (PARTITION BY a.bucket) AS bucket_count,
       sum(a.outstanding) OVER () AS total_outstanding,
       count(*) OVER () AS invoice_count
FROM (
    -- balances first, then customers: a planner that joins customers into the balance lookups misjudges them
    WITH b AS MATERIALIZED (
        SELECT * FROM footnote_src.invoice_balances($1, $2) AS b
        WHERE b.outstanding > 0 AND ($2::bigint IS NULL OR b.customer_id = $2))
    SELECT b.invoice_id, b.number, b.customer_id, c.name AS customer_name, b.issue_date, b.due_date, b.gross,
           b.paid, b.credited, b.outstanding, b.days_past_due, b.uri, b.next_due,
           CASE WHEN b.days_past_due <= 0 THEN 'current'
                WHEN b.days_past_due <= 30 THEN '1-30'
                WHEN b.days_past_due <= 60 THEN '31-60'
                WHEN b.days_past_due <= 90 THEN '61-90'
                ELSE 'over_90' END AS bucket
    FROM b JOIN footnote_src.customers_in_scope AS c ON c.id = b.customer_id AND ($2::bigint IS NULL OR c.id = $2)
) AS a
ORDER BY a.next_due, a.invoice_id$q$),

('open_due_lines_aged',
 'open due lines of invoices as of $1 (of customer $2, or all when NULL) in aging buckets by days past due, with bucket totals',
 '{as_of,customer_id}',
 $q$SELECT a.line_id, a.invoice_id, a.number, a.customer_id, a.customer_name, a.issue_date, a.due_date, a.amount,
       a.open, a.days_past_due, a.instalment, a.due_lines, a.invoice_due_date, a.gross, a.paid, a.credited,
       a.outstanding, a.uri, a.bucket,
       sum(a.open) OVER (PARTITION BY a.bucket) AS bucket_total,
       sum(a.open) OVER () AS total_outstanding
FROM (
    -- open lines first, then customers (as open_invoices_aged)
    WITH l AS MATERIALIZED (
        SELECT * FROM footnote_src.due_line_balances($1, $2) AS l
        WHERE $2::bigint IS NULL OR l.customer_id = $2)
    SELECT l.*, c.name AS customer_name,
           CASE WHEN l.days_past_due <= 0 THEN 'current'
                WHEN l.days_past_due <= 30 THEN '1-30'
                WHEN l.days_past_due <= 60 THEN '31-60'
                WHEN l.days_past_due <= 90 THEN '61-90'
                ELSE 'over_90' END AS bucket
    FROM l JOIN footnote_src.customers_in_scope AS c ON c.id = l.customer_id AND ($2::bigint IS NULL OR c.id = $2)
) AS a
ORDER BY a.due_date, a.invoice_id, a.line_id$q$),

('account_credits',
 'credits on the account of customer $2 (or all when NULL) as of $1: payments on account and unapplied credit notes, with the total',
 '{as_of,customer_id}',
 $q$SELECT k.type, k.id, k.number, k.customer_id, k.on_date, k.amount, k.uri,
       sum(k.amount) OVER () AS total_credit,
       count(*) OVER () AS credit_count
FROM footnote_src.account_credits($1, $2) AS k
WHERE $2::bigint IS NULL OR k.customer_id = $2
ORDER BY k.on_date, k.type, k.id$q$),

('open_tickets',
 'tickets of customer $1 open as of $2, most severe first, with counts',
 '{customer_id,as_of}',
 $q$SELECT t.id, t.subject, t.severity, t.status, t.opened_on, t.uri,
       $2 - t.opened_on AS age_days,
       count(*) OVER () AS open_count,
       count(*) FILTER (WHERE t.severity IN ('high', 'critical')) OVER () AS high_count
FROM footnote_src.tickets_in_scope AS t
WHERE t.customer_id = $1 AND t.opened_on <= $2 AND (t.closed_on IS NULL OR t.closed_on > $2)
ORDER BY CASE t.severity WHEN 'critical' THEN 1 WHEN 'high' THEN 2 WHEN 'medium' THEN 3 ELSE 4 END,
         t.opened_on, t.id$q$),

('revenue_documents',
 'invoices (net) and credit notes (minus net) issued in [$1, $2), of customer $3 or all when NULL, with totals',
 '{starts,ends,customer_id}',
 $q$SELECT d.type, d.id, d.number, d.customer_id, d.issue_date, d.amount, d.uri,
       sum(d.amount) OVER () AS revenue,
       count(*) FILTER (WHERE d.type = 'invoice') OVER () AS invoice_count,
       count(*) FILTER (WHERE d.type = 'credit_note') OVER () AS credit_note_count
FROM (
    SELECT 'invoice'::text AS type, i.id, i.number, i.customer_id, i.issue_date, i.net AS amount, i.uri
    FROM footnote_src.invoices_in_scope AS i
    WHERE i.issue_date >= $1 AND i.issue_date < $2 AND ($3::bigint IS NULL OR i.customer_id = $3)
    UNION ALL
    SELECT 'credit_note', n.id, n.number, n.customer_id, n.issue_date, -n.net, n.uri
    FROM footnote_src.credit_notes_in_scope AS n
    WHERE n.issue_date >= $1 AND n.issue_date < $2 AND ($3::bigint IS NULL OR n.customer_id = $3)
) AS d
ORDER BY d.issue_date, d.type, d.id$q$),

('change',
 'absolute change from $1 to $2 and the change in percent of $1 (NULL when $1 is 0 or less: a percentage of no base, or of a negative one, says nothing)',
 '{from_value,to_value}',
 $q$SELECT $2::numeric - $1::numeric AS change,
       CASE WHEN $1::numeric <= 0 THEN NULL
            ELSE round(($2::numeric - $1::numeric) / abs($1::numeric) * 100, 2) END AS change_percent$q$),

('top_customers',
 'customers with documents issued in [$1, $2), ranked by revenue (net invoices minus net credit notes), the most first ($4 = desc) or the least ($4 = asc), at most $3',
 '{starts,ends,limit,direction}',
 $q$SELECT r.customer_id, c.name, c.uri, r.revenue, r.invoice_count, r.documents,
       rank() OVER (ORDER BY CASE WHEN $4::text = 'asc' THEN r.revenue ELSE -r.revenue END) AS rank
FROM (
    SELECT d.customer_id, sum(d.amount) AS revenue, count(*) FILTER (WHERE d.type = 'invoice') AS invoice_count,
           array_agg(d.type || ':' || d.id ORDER BY d.type, d.id) AS documents
    FROM (
        SELECT 'invoice'::text AS type, i.id, i.customer_id, i.net AS amount
        FROM footnote_src.invoices_in_scope AS i WHERE i.issue_date >= $1 AND i.issue_date < $2
        UNION ALL
        SELECT 'credit_note', n.id, n.customer_id, -n.net
        FROM footnote_src.credit_notes_in_scope AS n WHERE n.issue_date >= $1 AND n.issue_date < $2
    ) AS d
    GROUP BY d.customer_id
) AS r
JOIN footnote_src.customers_in_scope AS c ON c.id = r.customer_id
ORDER BY CASE WHEN $4::text = 'asc' THEN r.revenue ELSE -r.revenue END, r.customer_id
LIMIT $3$q$),

('revenue_drivers',
 'customers whose revenue changed most between [$1, $2) and [$3, $4) (only those whose revenue rose when $6 = up, fell when $6 = down), by absolute change, at most $5',
 '{from_starts,from_ends,to_starts,to_ends,limit,direction}',
 $q$SELECT r.customer_id, c.name, c.uri, r.revenue_from, r.revenue_to, r.revenue_to - r.revenue_from AS change,
       r.documents
FROM (
    SELECT d.customer_id,
           coalesce(sum(d.amount) FILTER (WHERE d.period = 'from'), 0.00) AS revenue_from,
           coalesce(sum(d.amount) FILTER (WHERE d.period = 'to'), 0.00) AS revenue_to,
           array_agg(d.type || ':' || d.id ORDER BY d.type, d.id) AS documents
    FROM (
        SELECT CASE WHEN i.issue_date >= $3 AND i.issue_date < $4 THEN 'to' ELSE 'from' END AS period,
               'invoice'::text AS type, i.id, i.customer_id, i.net AS amount
        FROM footnote_src.invoices_in_scope AS i
        WHERE (i.issue_date >= $1 AND i.issue_date < $2) OR (i.issue_date >= $3 AND i.issue_date < $4)
        UNION ALL
        SELECT CASE WHEN n.issue_date >= $3 AND n.issue_date < $4 THEN 'to' ELSE 'from' END,
               'credit_note', n.id, n.customer_id, -n.net
        FROM footnote_src.credit_notes_in_scope AS n
        WHERE (n.issue_date >= $1 AND n.issue_date < $2) OR (n.issue_date >= $3 AND n.issue_date < $4)
    ) AS d
    GROUP BY d.customer_id
) AS r
JOIN footnote_src.customers_in_scope AS c ON c.id = r.customer_id
WHERE $6::text IS NULL OR CASE WHEN $6::text = 'up' THEN r.revenue_to > r.revenue_from
                           ELSE r.revenue_to < r.revenue_from END
ORDER BY abs(r.revenue_to - r.revenue_from) DESC, r.customer_id
LIMIT $5$q$),

('documents_by_id',
 'invoices $1 and credit notes $2 by id, for evidence',
 '{invoice_ids,credit_note_ids}',
 $q$SELECT 'invoice'::text AS type, i.id, i.number, i.customer_id, i.issue_date, i.net, i.gross, i.uri
FROM footnote_src.invoices_in_scope AS i WHERE i.id = ANY ($1::bigint[])
UNION ALL
SELECT 'credit_note', n.id, n.number, n.customer_id, n.issue_date, n.net, n.gross, n.uri
FROM footnote_src.credit_notes_in_scope AS n WHERE n.id = ANY ($2::bigint[])
ORDER BY 1, 2$q$),

('sales_in_window',
 'invoices issued in ($1 - $2 days, $1], gross, with the total: the sales input of days sales outstanding',
 '{as_of,window_days}',
 $q$SELECT i.id, i.number, i.customer_id, i.issue_date, i.gross, i.uri,
       sum(i.gross) OVER () AS gross_sales,
       count(*) OVER () AS invoice_count
FROM footnote_src.invoices_in_scope AS i
WHERE i.issue_date > $1::date - $2::integer AND i.issue_date <= $1
ORDER BY i.issue_date, i.id$q$),

('dso',
 'days sales outstanding: receivables $1 divided by gross sales $2 of the window, times the window $3 in days (NULL when no sales, or less)',
 '{receivables,gross_sales,window_days}',
 $q$SELECT CASE WHEN $2::numeric <= 0 THEN NULL
            ELSE round($1::numeric / $2::numeric * $3::integer, 1) END AS dso$q$),

('invoice_by_number',
 'the invoice whose number is $1, or whose id is $2',
 '{number,invoice_id}',
 $q$SELECT i.id, i.number, i.customer_id, c.name AS customer_name, i.issue_date, i.due_date, i.net, i.tax,
       i.gross, i.uri, c.uri AS customer_uri
FROM footnote_src.invoices_in_scope AS i
JOIN footnote_src.customers_in_scope AS c ON c.id = i.customer_id
WHERE i.number = $1::text OR i.id = $2::bigint
ORDER BY i.id$q$),

('invoice_balance',
 'balance of invoice $1 as of $2',
 '{invoice_id,as_of}',
 $q$SELECT b.invoice_id, b.gross, b.paid, b.credited, b.outstanding, b.days_past_due, b.overdue, b.due_lines
FROM footnote_src.invoice_balances($2) AS b
WHERE b.invoice_id = $1
ORDER BY b.invoice_id$q$),

('invoice_due_lines',
 'the due lines (instalments) of invoice $1 of customer $3 as of $2: each due date, amount and what is open of it',
 '{invoice_id,as_of,customer_id}',
 $q$SELECT s.instalment, s.due_date, s.amount, s.open
FROM footnote_src.settled_due_lines($2, $3) AS s
WHERE s.invoice_id = $1
ORDER BY s.instalment, s.line_id$q$),

('invoice_settlements',
 'payments and credit notes against invoice $1 on or before $2',
 '{invoice_id,as_of}',
 $q$SELECT 'payment'::text AS type, p.id, p.paid_on AS on_date, p.amount, p.method AS detail, p.uri
FROM footnote_src.payments_in_scope AS p WHERE p.invoice_id = $1 AND p.paid_on <= $2
UNION ALL
SELECT 'credit_note', n.id, a.applied_on, a.amount, n.number, n.uri
FROM footnote_src.credit_applications_in_scope AS a
JOIN footnote_src.credit_notes_in_scope AS n ON n.id = a.credit_note_id
WHERE a.invoice_id = $1 AND a.applied_on <= $2
ORDER BY 3, 1, 2$q$),

('invoices_ending_in',
 'invoices whose id is $1, or whose number ends in the digits $1 (leading zeros aside): what bare digits name',
 '{digits}',
 $q$SELECT i.id, i.number, i.uri
FROM footnote_src.invoices_in_scope AS i
WHERE i.id = ($1::text)::bigint OR ltrim(substring(i.number FROM '(\d+)\D*$'), '0') = ltrim($1::text, '0')
ORDER BY i.id
LIMIT 21$q$),

('credit_note_by_number',
 'the credit note whose number is $1, with its customer, issue date and the invoice it credits',
 '{number}',
 $q$SELECT n.id, n.number, n.uri, n.invoice_id, i.number AS invoice_number, i.uri AS invoice_uri, n.issue_date,
       c.name AS customer_name, c.uri AS customer_uri
FROM footnote_src.credit_notes_in_scope AS n
LEFT JOIN footnote_src.invoices_in_scope AS i ON i.id = n.invoice_id
LEFT JOIN footnote_src.customers_in_scope AS c ON c.id = n.customer_id
WHERE upper(n.number) = $1::text  -- or written with other separators (CN/2026/5012 for CN-2026-5012)
   OR regexp_replace(upper(n.number), '[^A-Z0-9]', '', 'g') = regexp_replace($1::text, '[^A-Z0-9]', '', 'g')
ORDER BY upper(n.number) = $1::text DESC, n.id$q$),

('nearest_invoices',
 'up to five invoices whose id is nearest to $1: alternatives for an unknown invoice number',
 '{invoice_id}',
 $q$SELECT n.id, n.number, n.uri
FROM (
    (SELECT i.id, i.number, i.uri FROM footnote_src.invoices_in_scope AS i WHERE i.id >= $1 ORDER BY i.id LIMIT 3)
    UNION ALL
    (SELECT i.id, i.number, i.uri FROM footnote_src.invoices_in_scope AS i WHERE i.id < $1 ORDER BY i.id DESC LIMIT 3)
) AS n
ORDER BY abs(n.id - $1), n.id
LIMIT 5$q$),

('open_purchase_orders',
 'purchase orders open or partially received (of supplier $1, or all when NULL; expected from $2 to $3 when given), by expected date',
 '{supplier_id,expected_from,expected_to}',
 $q$SELECT po.id, po.number, po.supplier_id, s.name AS supplier_name, po.ordered_on, po.expected_on, po.status,
       po.net, po.uri
FROM footnote_src.purchase_orders_in_scope AS po
JOIN footnote_src.suppliers_in_scope AS s ON s.id = po.supplier_id
WHERE po.status IN ('open', 'partially_received') AND ($1::bigint IS NULL OR po.supplier_id = $1)
  AND ($2::date IS NULL OR po.expected_on BETWEEN $2::date AND $3::date)
ORDER BY po.expected_on, po.id$q$),

('item',
 'one item by id',
 '{item_id}',
 $q$SELECT it.id, it.sku, it.name, it.unit, it.reorder_level, it.uri
FROM footnote_src.items_in_scope AS it
WHERE it.id = $1
ORDER BY it.id$q$),

('stock_of_item',
 'stock of item $1 per warehouse, with the total',
 '{item_id}',
 $q$SELECT st.id, st.warehouse, st.quantity, st.counted_on, st.uri,
       sum(st.quantity) OVER () AS total_quantity,
       count(*) OVER () AS warehouse_count
FROM footnote_src.stock_in_scope AS st
WHERE st.item_id = $1
ORDER BY st.warehouse, st.id$q$),

('supplier',
 'one supplier by id, with the phone number on file',
 '{supplier_id}',
 $q$SELECT s.id, s.name, s.supplier_number, s.country, s.phone, s.phone_since, s.phone_verified,
       s.phone_verification, s.uri
FROM footnote_src.suppliers_in_scope AS s
WHERE s.id = $1
ORDER BY s.id$q$),

('supplier_payments',
 'payments to supplier $1 on or before $2, oldest first, with totals',
 '{supplier_id,as_of}',
 $q$SELECT sp.id, sp.paid_on, sp.amount, sp.reference, sp.bank_account_id, sp.uri,
       count(*) OVER () AS payment_count,
       sum(sp.amount) OVER () AS total_paid,
       min(sp.paid_on) OVER () AS first_paid_on,
       max(sp.paid_on) OVER () AS last_paid_on
FROM footnote_src.supplier_payments_in_scope AS sp
WHERE sp.supplier_id = $1 AND sp.paid_on <= $2
ORDER BY sp.paid_on, sp.id$q$),

('supplier_bank_accounts',
 'bank accounts of supplier $1 added on or before $2, with the payments made to each',
 '{supplier_id,as_of}',
 $q$SELECT ba.id, ba.iban_masked, ba.account_ending, ba.added_on, ba.verified, ba.verification, ba.uri,
       (SELECT count(*) FROM footnote_src.supplier_payments_in_scope AS sp
        WHERE sp.bank_account_id = ba.id AND sp.paid_on <= $2) AS payments
FROM footnote_src.supplier_bank_accounts_in_scope AS ba
WHERE ba.supplier_id = $1 AND ba.added_on <= $2
ORDER BY ba.added_on, ba.id$q$),

('bank_change_requests',
 'requests to change the bank details of supplier $1 made on or before $2, newest first',
 '{supplier_id,as_of}',
 $q$SELECT r.id, r.requested_on, r.channel, r.sender, r.sender_domain, r.domain_registered_on,
       r.requested_on - r.domain_registered_on AS domain_age_days,
       r.requested_iban_masked, r.requested_account_ending, r.status, r.verified, r.verification, r.uri
FROM footnote_src.bank_change_requests_in_scope AS r
WHERE r.supplier_id = $1 AND r.requested_on <= $2
ORDER BY r.requested_on DESC, r.id DESC$q$);

-- The queries of sql/17_portfolio.sql and of list_customers' filters.
INSERT INTO footnote.queries (name, description, params, sql) VALUES
('customer_payments',
 'payments of customer $1 on or before $2 (and in [$3, $4) when given), latest first, with totals',
 '{customer_id,as_of,starts,ends}',
 $q$SELECT p.id, p.invoice_id, i.number AS invoice_number, p.paid_on, p.amount, p.method, p.uri,
       count(*) OVER () AS payment_count, sum(p.amount) OVER () AS total_paid,
       min(p.paid_on) OVER () AS first_paid_on, max(p.paid_on) OVER () AS last_paid_on
FROM footnote_src.payments_in_scope AS p
LEFT JOIN footnote_src.invoices_in_scope AS i ON i.id = p.invoice_id
WHERE p.customer_id = $1 AND p.paid_on <= $2 AND ($3::date IS NULL OR p.paid_on >= $3)
  AND ($4::date IS NULL OR p.paid_on < $4)
ORDER BY p.paid_on DESC, p.id DESC$q$),

('settled_invoices',
 'invoices of customer $1 fully settled as of $2 whose last payment is in [$3, $4) (any when NULL): days from issue to settlement, late or not, with the average',
 '{customer_id,as_of,starts,ends}',
 $q$SELECT b.invoice_id, b.number, b.issue_date, b.due_date, b.gross, b.uri, s.settled_on,
       s.settled_on - b.issue_date AS days_to_pay, s.settled_on > b.due_date AS paid_late,
       count(*) OVER () AS settled_count,
       round(avg(s.settled_on - b.issue_date) OVER (), 1) AS average_days_to_pay,
       count(*) FILTER (WHERE s.settled_on > b.due_date) OVER () AS paid_late_count
FROM footnote_src.invoice_balances($2, $1) AS b
JOIN LATERAL (SELECT max(p.paid_on) AS settled_on FROM footnote_src.payments_in_scope AS p
              WHERE p.invoice_id = b.invoice_id AND p.paid_on <= $2) AS s ON true
WHERE b.customer_id = $1 AND b.outstanding <= 0 AND s.settled_on IS NOT NULL
  AND ($3::date IS NULL OR s.settled_on >= $3) AND ($4::date IS NULL OR s.settled_on < $4)
ORDER BY s.settled_on, b.invoice_id$q$),

('customer_rankings',
 'per customer as of $1: what it owes of measure $2 (overdue, outstanding: the amount; oldest_overdue: days past due of its oldest overdue invoice), only customers with some, and how many those are',
 '{as_of,measure}',
 $q$SELECT c.id AS customer_id, c.name, c.customer_number, c.uri, x.value, x.invoice_count,
       count(*) OVER () AS ranked
FROM (
    SELECT b.customer_id,
           CASE WHEN $2::text = 'oldest_overdue' THEN max(b.days_past_due)::numeric
                WHEN $2::text = 'overdue' THEN sum(b.overdue) ELSE sum(b.outstanding) END AS value,
           count(*) AS invoice_count
    FROM footnote_src.invoice_balances($1) AS b
    WHERE b.outstanding > 0 AND ($2::text = 'outstanding' OR b.overdue > 0)
    GROUP BY b.customer_id
) AS x
JOIN footnote_src.customers_in_scope AS c ON c.id = x.customer_id
ORDER BY c.id$q$),

('credit_notes_in_period',
 'credit notes issued in [$1, $2), of customer $3 or all when NULL, by issue date',
 '{starts,ends,customer_id}',
 $q$SELECT n.id, n.number, n.customer_id, c.name AS customer_name, n.issue_date, n.net, n.gross,
       i.number AS invoice_number, n.uri
FROM footnote_src.credit_notes_in_scope AS n
JOIN footnote_src.customers_in_scope AS c ON c.id = n.customer_id
LEFT JOIN footnote_src.invoices_in_scope AS i ON i.id = n.invoice_id
WHERE n.issue_date >= $1 AND n.issue_date < $2 AND ($3::bigint IS NULL OR n.customer_id = $3)
ORDER BY n.issue_date, n.id$q$),

('items_below_reorder',
 'items whose stock on hand in all warehouses is below their reorder level, by name',
 '{}',
 $q$SELECT it.id, it.sku, it.name, it.unit, it.reorder_level, it.uri, s.quantity
FROM footnote_src.items_in_scope AS it
JOIN LATERAL (SELECT coalesce(sum(st.quantity), 0) AS quantity FROM footnote_src.stock_in_scope AS st
              WHERE st.item_id = it.id) AS s ON true
WHERE it.reorder_level IS NOT NULL AND s.quantity < it.reorder_level
ORDER BY it.name, it.id$q$),

('purchase_order_by_number',
 'one purchase order by number $1 (the caller upper-cases it) or id $2, with its supplier',
 '{number,purchase_order_id}',
 $q$SELECT po.id, po.number, po.supplier_id, s.name AS supplier_name, po.ordered_on, po.expected_on, po.status,
       po.net, po.uri
FROM footnote_src.purchase_orders_in_scope AS po
JOIN footnote_src.suppliers_in_scope AS s ON s.id = po.supplier_id
WHERE po.number = $1::text OR po.id = $2::bigint
ORDER BY po.id$q$),

('supplier_invoices_open',
 'supplier invoices received on or before $2 with some of their gross not settled by then (of supplier $1, or all when NULL): gross, what their payments settled by $2 and what is open, by due date, with days past due, bucket and totals of the open amounts',
 '{supplier_id,as_of}',
 $q$SELECT si.id, si.number, si.supplier_id, s.name AS supplier_name, si.invoice_date, si.due_date, si.gross,
       coalesce(p.paid, 0.00) AS paid, si.gross - coalesce(p.paid, 0.00) AS open, p.payment_count, si.uri,
       greatest($2::date - si.due_date, 0) AS days_past_due,
       CASE WHEN si.due_date >= $2::date THEN 'current' WHEN $2::date - si.due_date <= 30 THEN '1-30'
            WHEN $2::date - si.due_date <= 60 THEN '31-60' WHEN $2::date - si.due_date <= 90 THEN '61-90'
            ELSE 'over_90' END AS bucket,
       sum(si.gross - coalesce(p.paid, 0.00)) OVER () AS open_total, count(*) OVER () AS open_count
FROM footnote_src.supplier_invoices_in_scope AS si
JOIN footnote_src.suppliers_in_scope AS s ON s.id = si.supplier_id
LEFT JOIN (SELECT sp.supplier_invoice_id, sum(sp.amount) AS paid, count(*) AS payment_count
           FROM footnote_src.supplier_invoice_payments_in_scope AS sp
           WHERE sp.paid_on <= $2::date AND ($1::bigint IS NULL OR sp.supplier_id = $1)
           GROUP BY sp.supplier_invoice_id) AS p ON p.supplier_invoice_id = si.id
WHERE ($1::bigint IS NULL OR si.supplier_id = $1) AND si.invoice_date <= $2::date
  AND si.gross - coalesce(p.paid, 0.00) > 0
ORDER BY si.due_date, si.id$q$),

('nearest_purchase_orders',
 'up to five purchase orders whose id is nearest to $1: alternatives for an unknown number',
 '{purchase_order_id}',
 $q$SELECT n.id, n.number, n.uri
FROM (
    (SELECT po.id, po.number, po.uri FROM footnote_src.purchase_orders_in_scope AS po WHERE po.id >= $1 ORDER BY po.id LIMIT 3)
    UNION ALL
    (SELECT po.id, po.number, po.uri FROM footnote_src.purchase_orders_in_scope AS po WHERE po.id < $1 ORDER BY po.id DESC LIMIT 3)
) AS n
ORDER BY abs(n.id - $1), n.id
LIMIT 5$q$),

('customers_filtered',
 'customers whose name contains $1, whose account owner is $3 and whose country is $4 (each ignored when NULL), by folded name, name and id, at most $2',
 '{name_contains,limit,owner,country}',
 $q$SELECT c.id, c.name, c.customer_number, c.country, c.city, c.payment_terms_days, c.account_owner, c.uri,
       count(*) OVER () AS matching
FROM footnote_src.customers_in_scope AS c
WHERE ($1::text IS NULL OR strpos(footnote._fold(c.name), footnote._fold($1::text)) > 0)
  AND ($3::text IS NULL OR footnote._fold(c.account_owner) = footnote._fold($3::text))
  AND ($4::text IS NULL OR c.country = upper($4::text))
ORDER BY footnote._fold(c.name), c.name COLLATE "C", c.id
LIMIT $2$q$),

('account_owners',
 'the account owners of customers, with how many customers each has, by name',
 '{}',
 $q$SELECT c.account_owner AS name, count(*) AS customers, min(c.id) AS first_customer_id
FROM footnote_src.customers_in_scope AS c
WHERE c.account_owner IS NOT NULL
GROUP BY c.account_owner
ORDER BY c.account_owner, first_customer_id$q$);


-- Evidence sets. An operation that may cite very many rows reads its evidence through an evidence query: SQL over
-- the rows of its base query (the CTE r) that gives each evidence row e with its place n in citation order. Up to
-- max_evidence_rows of them are inlined in the result; beyond that, the result cites a single evidence row of type
-- evidence_set instead: the evidence query, the base query's parameters, the number of rows and their digest.
-- footnote.evidence_rows reads the rows of a set again, a page at a time. The contract test parses every row
-- here: SELECT only, reading nothing but r, ordered by n.
CREATE TABLE footnote.evidence_queries (
    name        text PRIMARY KEY,
    base_query  text NOT NULL REFERENCES footnote.queries (name),
    row_type    text NOT NULL,
    param_types text[] NOT NULL,  -- of the base query's $1, $2, ... (the set records their values)
    description text NOT NULL,
    sql         text NOT NULL
);
COMMENT ON TABLE footnote.evidence_queries IS 'evidence rows of the catalog operations that may cite many, over their base queries';

INSERT INTO footnote.evidence_queries (name, base_query, row_type, param_types, description, sql) VALUES
('aging_invoices', 'open_due_lines_aged', 'invoice', '{date,bigint}',
 'the open invoices of the aging, each once (one in instalments with its open lines), by next due date and id',
 $q$SELECT row_number() OVER (ORDER BY inv.due_date, inv.invoice_id) AS n,
       jsonb_build_object('id', 'invoice:' || inv.invoice_id, 'type', 'invoice', 'record_id', inv.invoice_id::text,
           'uri', inv.uri, 'verified', true, 'fields', jsonb_build_object(
               'number', inv.number, 'customer_id', inv.customer_id::text, 'customer_name', inv.customer_name,
               'issue_date', inv.issue_date, 'due_date', inv.invoice_due_date, 'gross', inv.gross::text,
               'paid', inv.paid::text, 'credited', inv.credited::text, 'outstanding', inv.outstanding::text,
               'days_past_due', inv.days_past_due::text, 'bucket', inv.bucket)
           || CASE WHEN inv.due_lines > 1 THEN jsonb_build_object('next_due', inv.due_date,
                                                                  'instalments', inv.instalments)
                   ELSE '{}'::jsonb END) AS e
FROM (SELECT DISTINCT ON (r.invoice_id) r.*, p.instalments
      FROM r LEFT JOIN (SELECT r.invoice_id,
                               jsonb_agg(jsonb_build_object('due_date', r.due_date, 'amount', r.amount::text,
                                                            'open', r.open::text, 'bucket', r.bucket)
                                         ORDER BY r.due_date, r.line_id) AS instalments
                        FROM r WHERE r.due_lines > 1 GROUP BY r.invoice_id) AS p ON p.invoice_id = r.invoice_id
      ORDER BY r.invoice_id, r.due_date, r.line_id) AS inv
ORDER BY n$q$),

('receivable_invoices', 'open_invoices_aged', 'invoice', '{date,bigint}',
 'the open invoices behind the receivables of days sales outstanding, by due date and id',
 $q$SELECT row_number() OVER (ORDER BY r.due_date, r.invoice_id) AS n,
       jsonb_build_object('id', 'invoice:' || r.invoice_id, 'type', 'invoice', 'record_id', r.invoice_id::text,
           'uri', r.uri, 'verified', true, 'fields', jsonb_build_object(
               'number', r.number, 'customer_id', r.customer_id::text, 'issue_date', r.issue_date,
               'due_date', r.due_date, 'gross', r.gross::text, 'paid', r.paid::text, 'credited', r.credited::text,
               'outstanding', r.outstanding::text)) AS e
FROM r
ORDER BY n$q$),

('sales_invoices', 'sales_in_window', 'invoice', '{date,integer}',
 'the invoices behind the gross sales of days sales outstanding, by issue date and id',
 $q$SELECT row_number() OVER (ORDER BY r.issue_date, r.id) AS n,
       jsonb_build_object('id', 'invoice:' || r.id, 'type', 'invoice', 'record_id', r.id::text, 'uri', r.uri,
           'verified', true, 'fields', jsonb_build_object(
               'number', r.number, 'customer_id', r.customer_id::text, 'issue_date', r.issue_date,
               'gross', r.gross::text)) AS e
FROM r
ORDER BY n$q$),

('account_credits', 'account_credits', 'payment or credit_note', '{date,bigint}',
 'the credits on account (payments on account, credit notes not applied) that lower the net receivable, by date, type and id',
 $q$SELECT row_number() OVER (ORDER BY r.on_date, r.type, r.id) AS n,
       jsonb_build_object('id', r.type || ':' || r.id, 'type', r.type, 'record_id', r.id::text, 'uri', r.uri,
           'verified', true, 'fields', jsonb_strip_nulls(jsonb_build_object(
               'number', r.number, 'customer_id', r.customer_id::text, 'on_date', r.on_date,
               'open_credit', r.amount::text))) AS e
FROM r
ORDER BY n$q$),

('revenue_documents', 'revenue_documents', 'invoice or credit_note', '{date,date,bigint}',
 'the invoices and credit notes behind a revenue figure, by issue date, type and id',
 $q$SELECT row_number() OVER (ORDER BY r.issue_date, r.type, r.id) AS n,
       jsonb_build_object('id', r.type || ':' || r.id, 'type', r.type, 'record_id', r.id::text, 'uri', r.uri,
           'verified', true, 'fields', jsonb_build_object(
               'number', r.number, 'customer_id', r.customer_id::text, 'issue_date', r.issue_date,
               'amount', r.amount::text)) AS e
FROM r
ORDER BY n$q$),

('period_credit_notes', 'credit_notes_in_period', 'credit_note', '{date,date,bigint}',
 'the credit notes issued in a period, by issue date and id',
 $q$SELECT row_number() OVER (ORDER BY r.issue_date, r.id) AS n,
       jsonb_build_object('id', 'credit_note:' || r.id, 'type', 'credit_note', 'record_id', r.id::text, 'uri', r.uri,
           'verified', true, 'fields', jsonb_build_object(
               'number', r.number, 'customer_id', r.customer_id::text, 'customer_name', r.customer_name,
               'invoice_number', r.invoice_number, 'issue_date', r.issue_date, 'net', r.net::text,
               'gross', r.gross::text)) AS e
FROM r
ORDER BY n$q$),

('ranked_customers', 'customer_rankings', 'customer', '{date,text}',
 'the customers a ranking ranks (each with some of its measure), by id',
 $q$SELECT row_number() OVER (ORDER BY r.customer_id) AS n,
       jsonb_build_object('id', 'customer:' || r.customer_id, 'type', 'customer', 'record_id', r.customer_id::text,
           'uri', r.uri, 'verified', true, 'fields', jsonb_build_object(
               'name', r.name, 'customer_number', r.customer_number, 'value', r.value::text,
               'invoice_count', r.invoice_count::text)) AS e
FROM r
ORDER BY n$q$),

('open_purchase_orders', 'open_purchase_orders', 'purchase_order', '{bigint,date,date}',
 'the open or partially received purchase orders, by expected date and id',
 $q$SELECT row_number() OVER (ORDER BY r.expected_on, r.id) AS n,
       jsonb_build_object('id', 'purchase_order:' || r.id, 'type', 'purchase_order', 'record_id', r.id::text,
           'uri', r.uri, 'verified', true, 'fields', jsonb_build_object(
               'number', r.number, 'supplier_id', r.supplier_id::text, 'supplier_name', r.supplier_name,
               'ordered_on', r.ordered_on, 'expected_on', r.expected_on, 'status', r.status,
               'net', r.net::text)) AS e
FROM r
ORDER BY n$q$);

-- The text of an evidence query (to follow its base query as the CTE ev).
CREATE FUNCTION footnote._evidence_query(query_name text)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT q.sql FROM footnote.evidence_queries AS q WHERE q.name = query_name
$$;

-- The SQL an operation appends to its statement (after WITH r AS (base), ev AS (evidence query)) to read its
-- evidence in one pass: {"rows": count, "evidence": [rows]} up to the limit (the parameter named), else
-- {"rows": count, "digest": hex}. The digest of a set is SHA-256 (hex) over the SHA-256 (hex) of each row's jsonb
-- text (UTF-8), each followed by a line feed, in citation order: what footnote.evidence_rows gives again and
-- an offline verifier recomputes from an export's rows.
CREATE FUNCTION footnote._evidence_pack(limit_param text)
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT format($f$(SELECT jsonb_strip_nulls(jsonb_build_object('rows', k.rows,
        'evidence', CASE WHEN k.rows <= %1$s THEN (SELECT coalesce(jsonb_agg(ev.e ORDER BY ev.n), '[]'::jsonb) FROM ev) END,
        'digest', CASE WHEN k.rows > %1$s THEN (
            SELECT encode(sha256(convert_to(coalesce(string_agg(encode(sha256(convert_to(ev.e::text, 'UTF8')), 'hex')
                                                               || E'\n', '' ORDER BY ev.n), ''), 'UTF8')), 'hex')
            FROM ev) END))
        FROM (SELECT count(*) AS rows FROM ev) AS k)$f$, limit_param)
$$;

-- The digest of an evidence set's rows, given as their jsonb texts in order (see footnote._evidence_pack).
CREATE FUNCTION footnote._rows_digest(texts text[])
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote.sha256_hex(coalesce(string_agg(footnote.sha256_hex(t.x) || E'\n', '' ORDER BY t.k), ''))
    FROM unnest(texts) WITH ORDINALITY AS t(x, k)
$$;

-- The evidence row that cites a set: of which records, how many, their digest, and the evidence query with the
-- base query's parameters that give them again. Its id is derived from all of these (the same set in two calls
-- is one evidence row; another set is another).
CREATE FUNCTION footnote._evidence_set(evidence_query text, parameters jsonb, pack jsonb)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH p AS (  -- a pack read inline (its rows fitted, the operation's whole evidence did not) gets its digest here
        SELECT coalesce(pack->>'digest',
                        footnote._rows_digest(ARRAY(SELECT x.e::text FROM jsonb_array_elements(pack->'evidence')
                                                                        WITH ORDINALITY AS x(e, k) ORDER BY x.k)))
               AS digest)
    SELECT footnote._evidence('evidence_set',
        ('x' || left(footnote.sha256_hex(q.name || E'\n' || parameters::text || E'\n' || p.digest), 15))::bit(60)::bigint,
        NULL, jsonb_build_object('of', q.row_type, 'rows', pack->>'rows', 'digest', p.digest,
                                 'evidence_query', q.name, 'query', q.base_query, 'parameters', parameters))
    FROM footnote.evidence_queries AS q, p
    WHERE q.name = evidence_query
$$;

-- A listing in one pass (credit_notes, open_purchase_orders): the statement to run with the base query's
-- parameters, then $4 = max_evidence_rows and $5 = how many rows to show beside a set; it gives the sum of
-- total_column over the base query's rows, the evidence pack (footnote._evidence_pack) and the first $5
-- evidence rows.
CREATE FUNCTION footnote._listing_sql(evidence_query text, total_column text)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT format($f$
        WITH r AS (%s), ev AS (%s)
        SELECT coalesce((SELECT sum(r.%I) FROM r), 0.00), %s,
               (SELECT coalesce(jsonb_agg(ev.e ORDER BY ev.n), '[]') FROM ev WHERE ev.n <= $5)$f$,
        footnote._query(q.base_query), q.sql, total_column, footnote._evidence_pack('$4'))
    FROM footnote.evidence_queries AS q WHERE q.name = evidence_query
$$;

-- What a listing cites, from footnote._listing_sql's pack and head: every row inline (up to max_evidence_rows),
-- or the set and its first rows inline (as many as fit beside it, at most 100: the rows an answer lists).
-- evidence: the call's evidence rows; shown: the inline rows, in order; cited: what the listing's totals cite.
CREATE FUNCTION footnote._listing(evidence_query text, parameters jsonb, pack jsonb, head jsonb,
    OUT evidence jsonb[], OUT shown jsonb, OUT cited text[])
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    es jsonb;
BEGIN
    IF pack ? 'digest' THEN
        es := footnote._evidence_set(evidence_query, parameters, pack);
        shown := head;
        cited := ARRAY[es->>'id'];
        evidence := ARRAY[es];
    ELSE
        shown := pack->'evidence';
        cited := ARRAY(SELECT x.e->>'id' FROM jsonb_array_elements(shown) WITH ORDINALITY AS x(e, k) ORDER BY x.k);
        evidence := '{}';
    END IF;
    evidence := evidence || ARRAY(SELECT x.e FROM jsonb_array_elements(shown) WITH ORDINALITY AS x(e, k) ORDER BY x.k);
END
$$;

-- The number of rows a listing shows beside its evidence set.
CREATE FUNCTION footnote._listing_shown()
RETURNS integer
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT greatest(least(100, footnote._evidence_limit() - 1), 0)
$$;

-- What a value over n rows cites: its own rows (ids), or the evidence set that holds them when they were too many
-- to inline (then ids need not be built); nothing when n is 0.
CREATE FUNCTION footnote._cited(ids text[], evidence_set jsonb, n bigint)
RETURNS text[]
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN n = 0 THEN '{}' WHEN evidence_set IS NULL THEN ids ELSE ARRAY[evidence_set->>'id'] END
$$;

-- The rows of an evidence set a call cites, a page at a time ("offset" rows skipped, at most "limit"), read again
-- from the source views by the set's evidence query with the parameters the call recorded; row_text is what the
-- digest hashes. The rows are the ERP's now: footnote.reattest (or hashing every page) shows they are the same.
CREATE FUNCTION footnote.evidence_rows(call_id uuid, evidence_set text, "offset" bigint DEFAULT 0,
                                       "limit" integer DEFAULT 100)
RETURNS TABLE (n bigint, id text, type text, record_id text, uri text, verified boolean, fields jsonb, row_text text)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    said  jsonb := footnote._session_said();
    lim   integer := footnote._int_arg('limit', "limit", 1, 10000, 100);
    doc   jsonb;
    s     jsonb;
    q     footnote.evidence_queries;
    vals  text;
    k     integer;
BEGIN
    IF call_id IS NULL THEN
        PERFORM footnote._invalid('call_id', 'is required: the call whose evidence set to read');
    END IF;
    evidence_set := footnote._text_arg('evidence_set', evidence_set, true, 60);
    IF "offset" IS NOT NULL AND "offset" < 0 THEN
        PERFORM footnote._invalid('offset', 'must be 0 or more', "offset"::text);
    END IF;
    SELECT c.result INTO doc FROM ONLY footnote.call_log AS c WHERE c.call_id = evidence_rows.call_id;
    -- a call made under another access scope than this session's is, to it, a call never made
    IF (SELECT s.id FROM footnote._session_scope() AS s) IS DISTINCT FROM doc->'scope'->>'id'
       AND (SELECT s.id FROM footnote._session_scope() AS s) IS NOT NULL THEN
        doc := NULL;
    END IF;
    IF doc IS NULL THEN
        PERFORM footnote._invalid('call_id', format('call %s was never made', evidence_rows.call_id),
                                  evidence_rows.call_id::text);
    END IF;
    SELECT e INTO s FROM jsonb_array_elements(doc->'evidence') AS e
    WHERE e->>'type' = 'evidence_set' AND e->>'id' = evidence_set;
    IF s IS NULL THEN
        PERFORM footnote._invalid('evidence_set', format('call %s cites no evidence set %s; %s', evidence_rows.call_id,
            evidence_set, coalesce((SELECT 'it cites ' || string_agg(e->>'id', ', ')
                                    FROM jsonb_array_elements(doc->'evidence') AS e
                                    WHERE e->>'type' = 'evidence_set'), 'its evidence is all inline')), evidence_set);
    END IF;
    SELECT * INTO q FROM footnote.evidence_queries AS x WHERE x.name = s->'fields'->>'evidence_query';
    SELECT string_agg(format('%L', p.v), ', ' ORDER BY p.k), count(*) INTO vals, k
    FROM jsonb_array_elements_text(s->'fields'->'parameters') WITH ORDINALITY AS p(v, k);
    -- typed as the base query declares them: a prepared statement, the values as quoted literals
    IF EXISTS (SELECT FROM pg_prepared_statements AS p WHERE p.name = 'footnote_evidence_rows') THEN
        DEALLOCATE footnote_evidence_rows;
    END IF;
    EXECUTE format('PREPARE footnote_evidence_rows (%s) AS WITH r AS (%s), ev AS (%s) '
                   'SELECT ev.n, ev.e->>''id'', ev.e->>''type'', ev.e->>''record_id'', ev.e->>''uri'', '
                   '(ev.e->>''verified'')::boolean, ev.e->''fields'', ev.e::text '
                   'FROM ev WHERE ev.n > $%s ORDER BY ev.n LIMIT $%s',
                   array_to_string(q.param_types || ARRAY['bigint', 'integer'], ', '),
                   footnote._query(q.base_query), q.sql, k + 1, k + 2);
    RETURN QUERY EXECUTE format('EXECUTE footnote_evidence_rows (%s)',
                                concat_ws(', ', vals, format('%L', coalesce("offset", 0)), format('%L', lim)));
    DEALLOCATE footnote_evidence_rows;
    -- the mapping's code it ran must leave the session's actor as it was
    PERFORM footnote._session_kept(said, 'evidence_rows');
END
$$;
