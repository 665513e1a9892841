-- footnote-pg: source views, the contract between an ERP and the catalog.
--
-- The catalog reads ERP data only through these views. Installed, they are
-- empty placeholders that fix each column's name and type; a DBA replaces each
-- with a mapping onto the ERP's own tables, as footnote_owner:
--
--   SET ROLE footnote_owner;
--   CREATE OR REPLACE VIEW footnote_src.customers AS
--       SELECT k.kunnr::bigint AS id, k.name1::text AS name, ... FROM sap.kna1 k;
--
-- CREATE OR REPLACE VIEW keeps the column list and types, so a mapping that
-- does not match the contract fails at once. Key columns (id, *_id) may be of
-- any integer type: a mapping maps the ERP's own key column uncast, so that its
-- index serves lookups by it, and `footnote-pg mapping apply` creates a view
-- whose key columns change integer type anew. sql/sample/30_mapping.sql maps
-- the sample ERP. Every view has a uri column: the deep link of the record
-- (erp://invoice/8812) that answers cite.

-- Customers (debtors).
CREATE VIEW footnote_src.customers AS SELECT
    NULL::bigint  AS id,
    NULL::text    AS name,
    NULL::text    AS customer_number,
    NULL::text    AS country,
    NULL::text    AS city,
    NULL::integer AS payment_terms_days,
    NULL::text    AS account_owner,
    NULL::numeric AS credit_limit,
    NULL::text    AS uri
WHERE false;

-- Sales invoices; amounts in the settings currency.
CREATE VIEW footnote_src.invoices AS SELECT
    NULL::bigint  AS id,
    NULL::text    AS number,
    NULL::bigint  AS customer_id,
    NULL::date    AS issue_date,
    NULL::date    AS due_date,
    NULL::numeric AS net,
    NULL::numeric AS tax,
    NULL::numeric AS gross,
    NULL::text    AS uri
WHERE false;

-- Incoming payments: one row per invoice a payment settles (a payment of several invoices is one row for each,
-- with what it allocates to that invoice), and one row with invoice_id NULL for money received on account that
-- settles no invoice yet (unallocated: a credit on the customer's account).
CREATE VIEW footnote_src.payments AS SELECT
    NULL::bigint  AS id,
    NULL::bigint  AS invoice_id,
    NULL::bigint  AS customer_id,
    NULL::date    AS paid_on,
    NULL::numeric AS amount,
    NULL::text    AS method,
    NULL::text    AS uri
WHERE false;

-- Credit notes, their own documents: they reduce revenue when issued; invoice_id is the invoice they credit
-- when the ERP knows it. How much of each settles that invoice, and from when, is credit_applications; the rest
-- is a credit on the customer's account.
CREATE VIEW footnote_src.credit_notes AS SELECT
    NULL::bigint  AS id,
    NULL::text    AS number,
    NULL::bigint  AS invoice_id,
    NULL::bigint  AS customer_id,
    NULL::date    AS issue_date,
    NULL::numeric AS net,
    NULL::numeric AS tax,
    NULL::numeric AS gross,
    NULL::text    AS uri
WHERE false;

-- Support tickets; open as of D when opened_on <= D and (closed_on IS NULL or closed_on > D).
-- severity is one of low, medium, high, critical.
CREATE VIEW footnote_src.tickets AS SELECT
    NULL::bigint  AS id,
    NULL::bigint  AS customer_id,
    NULL::text    AS subject,
    NULL::text    AS severity,
    NULL::text    AS status,
    NULL::date    AS opened_on,
    NULL::date    AS closed_on,
    NULL::text    AS uri
WHERE false;

-- Suppliers (creditors), with the phone number on file and how it was verified.
CREATE VIEW footnote_src.suppliers AS SELECT
    NULL::bigint  AS id,
    NULL::text    AS name,
    NULL::text    AS supplier_number,
    NULL::text    AS country,
    NULL::text    AS phone,
    NULL::date    AS phone_since,
    NULL::boolean AS phone_verified,
    NULL::text    AS phone_verification,
    NULL::text    AS uri
WHERE false;

-- Bank accounts on file for suppliers; account_ending is the last four digits.
CREATE VIEW footnote_src.supplier_bank_accounts AS SELECT
    NULL::bigint  AS id,
    NULL::bigint  AS supplier_id,
    NULL::text    AS iban_masked,
    NULL::text    AS account_ending,
    NULL::date    AS added_on,
    NULL::boolean AS verified,
    NULL::text    AS verification,
    NULL::text    AS uri
WHERE false;

-- Outgoing payments to suppliers.
CREATE VIEW footnote_src.supplier_payments AS SELECT
    NULL::bigint  AS id,
    NULL::bigint  AS supplier_id,
    NULL::bigint  AS bank_account_id,
    NULL::date    AS paid_on,
    NULL::numeric AS amount,
    NULL::text    AS reference,
    NULL::text    AS uri
WHERE false;

-- Invoices received from suppliers (accounts payable); paid_on is the day payments settled one in full (NULL
-- while any of it is open). What is open of one as of a day is its gross less what supplier_invoice_payments
-- settled by then.
CREATE VIEW footnote_src.supplier_invoices AS SELECT
    NULL::bigint  AS id,
    NULL::text    AS number,
    NULL::bigint  AS supplier_id,
    NULL::date    AS invoice_date,
    NULL::date    AS due_date,
    NULL::numeric AS gross,
    NULL::date    AS paid_on,
    NULL::text    AS uri
WHERE false;

-- What settled each supplier invoice: one row per payment (or part of one) that pays it, from paid_on. This
-- default settles each invoice with a paid_on in full on that day; a mapping of an ERP with partial payments
-- replaces it.
CREATE VIEW footnote_src.supplier_invoice_payments AS SELECT
    si.id          AS id,
    si.id          AS supplier_invoice_id,
    si.supplier_id AS supplier_id,
    si.paid_on     AS paid_on,
    si.gross       AS amount,
    si.uri         AS uri
FROM footnote_src.supplier_invoices AS si
WHERE si.paid_on IS NOT NULL;

-- Requests to change a supplier's bank details; status pending, approved or rejected.
CREATE VIEW footnote_src.bank_change_requests AS SELECT
    NULL::bigint  AS id,
    NULL::bigint  AS supplier_id,
    NULL::date    AS requested_on,
    NULL::text    AS channel,
    NULL::text    AS sender,
    NULL::text    AS sender_domain,
    NULL::date    AS domain_registered_on,
    NULL::text    AS requested_iban_masked,
    NULL::text    AS requested_account_ending,
    NULL::text    AS status,
    NULL::boolean AS verified,
    NULL::text    AS verification,
    NULL::text    AS uri
WHERE false;

-- Purchase orders; open when status is open or partially_received.
CREATE VIEW footnote_src.purchase_orders AS SELECT
    NULL::bigint  AS id,
    NULL::text    AS number,
    NULL::bigint  AS supplier_id,
    NULL::date    AS ordered_on,
    NULL::date    AS expected_on,
    NULL::text    AS status,
    NULL::numeric AS net,
    NULL::text    AS uri
WHERE false;

-- Items (products, materials).
CREATE VIEW footnote_src.items AS SELECT
    NULL::bigint  AS id,
    NULL::text    AS sku,
    NULL::text    AS name,
    NULL::text    AS unit,
    NULL::numeric AS reorder_level,
    NULL::text    AS uri
WHERE false;

-- Stock of an item in one warehouse.
CREATE VIEW footnote_src.stock AS SELECT
    NULL::bigint  AS id,
    NULL::bigint  AS item_id,
    NULL::text    AS warehouse,
    NULL::numeric AS quantity,
    NULL::date    AS counted_on,
    NULL::text    AS uri
WHERE false;

-- Due lines (instalments): an invoice falls due in one or more parts, each with its own due date and amount
-- (together the invoice's gross). Payments and applied credit notes settle an invoice's due lines in due-date
-- order, so the earliest open part is what is overdue first. This default is one line per invoice, its gross
-- due on its due date; a mapping of an ERP with payment schedules (Tryton's receivable move lines) replaces it.
CREATE VIEW footnote_src.due_lines AS SELECT
    i.id          AS id,
    i.id          AS invoice_id,
    i.customer_id AS customer_id,
    i.due_date    AS due_date,
    i.gross       AS amount,
    i.uri         AS uri
FROM footnote_src.invoices AS i;

-- Credit notes applied to (set off against) the invoice they credit: from applied_on, amount of the credit note
-- settles that invoice. This default applies each credit note that names an invoice in full on its issue date;
-- a mapping of an ERP where a credit note can stay open (Tryton: until it is reconciled) replaces it.
CREATE VIEW footnote_src.credit_applications AS SELECT
    n.id          AS id,
    n.id          AS credit_note_id,
    n.invoice_id  AS invoice_id,
    n.customer_id AS customer_id,
    n.issue_date  AS applied_on,
    n.gross       AS amount,
    n.uri         AS uri
FROM footnote_src.credit_notes AS n
WHERE n.invoice_id IS NOT NULL;

-- The scoped views (sql/03_scopes.sql): what everything that reads customers, suppliers, items and their records
-- reads. Each kind is written the same way: the ids a scope that limits the kind sees (scoped_*_ids, none when it
-- does not limit it), and views that are the source view unfiltered when the scope does not limit the kind (a
-- scalar subquery evaluated once), else its rows whose id is in that list (hashed once). The planner then counts on
-- about as many rows as the source view has, never on one, which would make it repeat a portfolio's aggregate for
-- each row.
-- The ids of the customers a bound session's scope sees (none without a binding).
CREATE VIEW footnote_src.scoped_customer_ids AS
    SELECT c.id
    FROM footnote_src.customers AS c, footnote._session_scope() AS s
    WHERE s.id IS NOT NULL
      AND (s.account_owners IS NULL OR c.account_owner = ANY (s.account_owners))
      AND (s.countries IS NULL OR c.country = ANY (s.countries))
      AND (s.customer_ids IS NULL OR c.id = ANY (s.customer_ids));

-- The customers of the session's scope, every customer without a binding. Written like the views below (a
-- scalar subquery evaluated once, else a hashed list of ids): the planner then counts on about as many customers
-- as the source view has, never on one, which would make it repeat a portfolio's aggregate for each customer.
CREATE VIEW footnote_src.customers_in_scope AS
    SELECT c.* FROM footnote_src.customers AS c
    WHERE (SELECT s.id IS NULL FROM footnote._session_scope() AS s)
       OR c.id IN (SELECT k.id FROM footnote_src.scoped_customer_ids AS k);

-- The records of those customers. Without a binding the rows are the source view's, unfiltered (the scalar
-- subquery is evaluated once); with one, a record is in scope when its customer is.
CREATE VIEW footnote_src.invoices_in_scope AS
    SELECT x.* FROM footnote_src.invoices AS x
    WHERE (SELECT s.id IS NULL FROM footnote._session_scope() AS s)
       OR x.customer_id IN (SELECT k.id FROM footnote_src.scoped_customer_ids AS k);

CREATE VIEW footnote_src.payments_in_scope AS
    SELECT x.* FROM footnote_src.payments AS x
    WHERE (SELECT s.id IS NULL FROM footnote._session_scope() AS s)
       OR x.customer_id IN (SELECT k.id FROM footnote_src.scoped_customer_ids AS k);

CREATE VIEW footnote_src.credit_notes_in_scope AS
    SELECT x.* FROM footnote_src.credit_notes AS x
    WHERE (SELECT s.id IS NULL FROM footnote._session_scope() AS s)
       OR x.customer_id IN (SELECT k.id FROM footnote_src.scoped_customer_ids AS k);

CREATE VIEW footnote_src.tickets_in_scope AS
    SELECT x.* FROM footnote_src.tickets AS x
    WHERE (SELECT s.id IS NULL FROM footnote._session_scope() AS s)
       OR x.customer_id IN (SELECT k.id FROM footnote_src.scoped_customer_ids AS k);

CREATE VIEW footnote_src.due_lines_in_scope AS
    SELECT x.* FROM footnote_src.due_lines AS x
    WHERE (SELECT s.id IS NULL FROM footnote._session_scope() AS s)
       OR x.customer_id IN (SELECT k.id FROM footnote_src.scoped_customer_ids AS k);

CREATE VIEW footnote_src.credit_applications_in_scope AS
    SELECT x.* FROM footnote_src.credit_applications AS x
    WHERE (SELECT s.id IS NULL FROM footnote._session_scope() AS s)
       OR x.customer_id IN (SELECT k.id FROM footnote_src.scoped_customer_ids AS k);

-- The ids of the suppliers a scope that limits suppliers sees (by supplier id and country).
CREATE VIEW footnote_src.scoped_supplier_ids AS
    SELECT x.id
    FROM footnote_src.suppliers AS x, footnote._session_scope_records() AS s
    WHERE num_nonnulls(s.supplier_ids, s.supplier_countries) > 0
      AND (s.supplier_ids IS NULL OR x.id = ANY (s.supplier_ids))
      AND (s.supplier_countries IS NULL OR x.country = ANY (s.supplier_countries));

-- The suppliers of the session's scope, every supplier when it does not limit suppliers; and their records.
CREATE VIEW footnote_src.suppliers_in_scope AS
    SELECT x.* FROM footnote_src.suppliers AS x
    WHERE (SELECT s.supplier_ids IS NULL AND s.supplier_countries IS NULL FROM footnote._session_scope_records() AS s)
       OR x.id IN (SELECT k.id FROM footnote_src.scoped_supplier_ids AS k);

CREATE VIEW footnote_src.supplier_invoices_in_scope AS
    SELECT x.* FROM footnote_src.supplier_invoices AS x
    WHERE (SELECT s.supplier_ids IS NULL AND s.supplier_countries IS NULL FROM footnote._session_scope_records() AS s)
       OR x.supplier_id IN (SELECT k.id FROM footnote_src.scoped_supplier_ids AS k);

CREATE VIEW footnote_src.supplier_invoice_payments_in_scope AS
    SELECT x.* FROM footnote_src.supplier_invoice_payments AS x
    WHERE (SELECT s.supplier_ids IS NULL AND s.supplier_countries IS NULL FROM footnote._session_scope_records() AS s)
       OR x.supplier_id IN (SELECT k.id FROM footnote_src.scoped_supplier_ids AS k);

CREATE VIEW footnote_src.supplier_payments_in_scope AS
    SELECT x.* FROM footnote_src.supplier_payments AS x
    WHERE (SELECT s.supplier_ids IS NULL AND s.supplier_countries IS NULL FROM footnote._session_scope_records() AS s)
       OR x.supplier_id IN (SELECT k.id FROM footnote_src.scoped_supplier_ids AS k);

CREATE VIEW footnote_src.supplier_bank_accounts_in_scope AS
    SELECT x.* FROM footnote_src.supplier_bank_accounts AS x
    WHERE (SELECT s.supplier_ids IS NULL AND s.supplier_countries IS NULL FROM footnote._session_scope_records() AS s)
       OR x.supplier_id IN (SELECT k.id FROM footnote_src.scoped_supplier_ids AS k);

CREATE VIEW footnote_src.bank_change_requests_in_scope AS
    SELECT x.* FROM footnote_src.bank_change_requests AS x
    WHERE (SELECT s.supplier_ids IS NULL AND s.supplier_countries IS NULL FROM footnote._session_scope_records() AS s)
       OR x.supplier_id IN (SELECT k.id FROM footnote_src.scoped_supplier_ids AS k);

CREATE VIEW footnote_src.purchase_orders_in_scope AS
    SELECT x.* FROM footnote_src.purchase_orders AS x
    WHERE (SELECT s.supplier_ids IS NULL AND s.supplier_countries IS NULL FROM footnote._session_scope_records() AS s)
       OR x.supplier_id IN (SELECT k.id FROM footnote_src.scoped_supplier_ids AS k);

-- The ids of the items a scope that limits items sees; the items of the session's scope (every item when it does
-- not limit them) and their stock.
CREATE VIEW footnote_src.scoped_item_ids AS
    SELECT x.id
    FROM footnote_src.items AS x, footnote._session_scope_records() AS s
    WHERE s.item_ids IS NOT NULL AND x.id = ANY (s.item_ids);

CREATE VIEW footnote_src.items_in_scope AS
    SELECT x.* FROM footnote_src.items AS x
    WHERE (SELECT s.item_ids IS NULL FROM footnote._session_scope_records() AS s)
       OR x.id IN (SELECT k.id FROM footnote_src.scoped_item_ids AS k);

CREATE VIEW footnote_src.stock_in_scope AS
    SELECT x.* FROM footnote_src.stock AS x
    WHERE (SELECT s.item_ids IS NULL FROM footnote._session_scope_records() AS s)
       OR x.item_id IN (SELECT k.id FROM footnote_src.scoped_item_ids AS k);

-- Every due line of the invoices issued on or before as_of (of one customer, or all when customer is NULL), with
-- what settles its invoice by then (payments, applied credit notes) applied to the invoice's lines in due-date
-- order: open is the line's part still to pay. Set-based, balances first: each source is aggregated once
-- (hash joins over the whole ledger for a portfolio question); a customer, or a filter on invoice_id, reaches
-- every source through its index. instalment is the line's place among its invoice's lines (1 of due_lines).
CREATE FUNCTION footnote_src.settled_due_lines(as_of date, customer bigint DEFAULT NULL)
RETURNS TABLE (
    line_id bigint, invoice_id bigint, due_date date, amount numeric, open numeric, instalment bigint,
    due_lines bigint, paid numeric, credited numeric)
LANGUAGE sql STABLE
AS $$
    SELECT l.id, l.invoice_id, l.due_date, l.amount,
           l.amount - least(l.amount, greatest(coalesce(p.paid, 0.00) + coalesce(c.credited, 0.00) - l.before, 0.00)),
           l.k, l.n, coalesce(p.paid, 0.00), coalesce(c.credited, 0.00)
    FROM (SELECT l.id, l.invoice_id, l.due_date, l.amount,
                 coalesce(sum(l.amount) OVER (PARTITION BY l.invoice_id ORDER BY l.due_date, l.id
                                              ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0.00) AS before,
                 row_number() OVER (PARTITION BY l.invoice_id ORDER BY l.due_date, l.id) AS k,
                 count(*) OVER (PARTITION BY l.invoice_id) AS n
          FROM footnote_src.due_lines_in_scope AS l
          WHERE customer IS NULL OR l.customer_id = customer) AS l
    LEFT JOIN (SELECT p.invoice_id, sum(p.amount) AS paid FROM footnote_src.payments_in_scope AS p
               WHERE p.paid_on <= as_of AND p.invoice_id IS NOT NULL AND (customer IS NULL OR p.customer_id = customer)
               GROUP BY p.invoice_id) AS p ON p.invoice_id = l.invoice_id
    LEFT JOIN (SELECT a.invoice_id, sum(a.amount) AS credited FROM footnote_src.credit_applications_in_scope AS a
               WHERE a.applied_on <= as_of
                 AND (customer IS NULL OR a.customer_id = customer)
               GROUP BY a.invoice_id) AS c ON c.invoice_id = l.invoice_id
$$;

-- Balance of every invoice issued on or before as_of (of one customer, or all): paid, credited (applied credit
-- notes) and outstanding as of that day; overdue is the open part of its due lines due before as_of, next_due
-- the due date of its earliest open due line (NULL once it is settled), days_past_due counted from it (else
-- from the invoice's due date), due_lines how many it has. Derived from the views above only; plain SQL
-- functions, so the planner inlines them.
CREATE FUNCTION footnote_src.invoice_balances(as_of date, customer bigint DEFAULT NULL)
RETURNS TABLE (
    invoice_id bigint, number text, customer_id bigint, issue_date date, due_date date,
    net numeric, gross numeric, paid numeric, credited numeric, outstanding numeric,
    days_past_due integer, uri text, overdue numeric, due_lines bigint, next_due date)
LANGUAGE sql STABLE
AS $$
    SELECT i.id, i.number, i.customer_id, i.issue_date, i.due_date, i.net, i.gross,
           coalesce(l.paid, 0.00), coalesce(l.credited, 0.00),
           i.gross - coalesce(l.paid, 0.00) - coalesce(l.credited, 0.00),
           as_of - coalesce(l.next_due, i.due_date), i.uri, coalesce(l.overdue, 0.00), coalesce(l.n, 0),
           l.next_due
    FROM footnote_src.invoices_in_scope AS i
    LEFT JOIN (SELECT s.invoice_id, max(s.paid) AS paid, max(s.credited) AS credited,
                      min(s.due_date) FILTER (WHERE s.open > 0) AS next_due,
                      sum(s.open) FILTER (WHERE s.due_date < as_of) AS overdue, count(*) AS n
               FROM footnote_src.settled_due_lines(as_of, customer) AS s
               GROUP BY s.invoice_id) AS l ON l.invoice_id = i.id
    WHERE i.issue_date <= as_of AND (customer IS NULL OR i.customer_id = customer)
$$;

-- The open due lines of every invoice issued on or before as_of (of one customer, or all): what an aging
-- report buckets, each line with its invoice's balance.
CREATE FUNCTION footnote_src.due_line_balances(as_of date, customer bigint DEFAULT NULL)
RETURNS TABLE (
    line_id bigint, invoice_id bigint, number text, customer_id bigint, issue_date date, due_date date,
    amount numeric, open numeric, days_past_due integer, instalment bigint, due_lines bigint,
    invoice_due_date date, gross numeric, paid numeric, credited numeric, outstanding numeric, uri text)
LANGUAGE sql STABLE
AS $$
    SELECT s.line_id, i.id, i.number, i.customer_id, i.issue_date, s.due_date, s.amount, s.open,
           as_of - s.due_date, s.instalment, s.due_lines, i.due_date, i.gross, s.paid, s.credited,
           i.gross - s.paid - s.credited, i.uri
    FROM footnote_src.invoices_in_scope AS i
    JOIN footnote_src.settled_due_lines(as_of, customer) AS s ON s.invoice_id = i.id
    WHERE i.issue_date <= as_of AND (customer IS NULL OR i.customer_id = customer) AND s.open > 0
$$;

-- Credits on customers' accounts (of one customer, or all) as of as_of: payments received on account (no invoice) and what of each credit
-- note issued by then no application has set off against an invoice yet. They lower what a customer owes, not
-- any one invoice.
CREATE FUNCTION footnote_src.account_credits(as_of date, customer bigint DEFAULT NULL)
RETURNS TABLE (type text, id bigint, number text, customer_id bigint, on_date date, amount numeric, uri text)
LANGUAGE sql STABLE
AS $$
    SELECT 'payment'::text, p.id, NULL::text, p.customer_id, p.paid_on, p.amount, p.uri
    FROM footnote_src.payments_in_scope AS p
    WHERE p.invoice_id IS NULL AND p.paid_on <= as_of AND (customer IS NULL OR p.customer_id = customer)
    UNION ALL
    SELECT 'credit_note', n.id, n.number, n.customer_id, n.issue_date, n.gross - coalesce(a.applied, 0.00), n.uri
    FROM footnote_src.credit_notes_in_scope AS n
    LEFT JOIN LATERAL (
        SELECT sum(a.amount) AS applied FROM footnote_src.credit_applications_in_scope AS a
        WHERE a.credit_note_id = n.id AND a.applied_on <= as_of) AS a ON true
    WHERE n.issue_date <= as_of AND n.gross - coalesce(a.applied, 0.00) > 0
      AND (customer IS NULL OR n.customer_id = customer)
$$;

-- Map a source view: CREATE OR REPLACE VIEW footnote_src.<view> AS <query>, as a mapping runs it (sql/mappings/,
-- `footnote-pg mapping apply` for each such statement). A key column (id, *_id) may change between smallint,
-- integer and bigint, which CREATE OR REPLACE VIEW refuses: the view is then created anew, and every view that
-- reads it (the scoped views, a default view, the names the resolver reads) again as it was. Any other change of
-- a column's name, place or type is refused as CREATE OR REPLACE VIEW refuses it.
CREATE FUNCTION footnote_src.map_view(view text, query text)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    target   constant text := format('footnote_src.%I', view);
    r        record;
    readers  text[] := '{}';
    bodies   text[] := '{}';
BEGIN
    BEGIN
        EXECUTE format('CREATE OR REPLACE VIEW %s AS %s', target, query);
        RETURN;
    EXCEPTION WHEN invalid_table_definition THEN
        EXECUTE format('CREATE TEMPORARY VIEW footnote_map_view_probe AS %s', query);
        IF EXISTS (  -- a difference other than a key column's integer type: refused as CREATE OR REPLACE refuses it
                SELECT
                FROM (SELECT a.attnum, a.attname, a.atttypid, a.atttypmod FROM pg_catalog.pg_attribute AS a
                      WHERE a.attrelid = to_regclass(target) AND a.attnum > 0 AND NOT a.attisdropped) AS o
                FULL JOIN (SELECT a.attnum, a.attname, a.atttypid, a.atttypmod FROM pg_catalog.pg_attribute AS a
                           WHERE a.attrelid = 'pg_temp.footnote_map_view_probe'::regclass AND a.attnum > 0) AS n
                       ON n.attnum = o.attnum
                WHERE o.attname IS DISTINCT FROM n.attname
                   OR (o.atttypid, o.atttypmod) IS DISTINCT FROM (n.atttypid, n.atttypmod)
                      AND NOT (o.attname ~ '^(id|\w+_id)$'
                               AND ARRAY[o.atttypid, n.atttypid] <@ ARRAY['int2'::regtype::oid, 'int4'::regtype::oid,
                                                                      'int8'::regtype::oid])) THEN
            DROP VIEW footnote_map_view_probe;
            RAISE;
        END IF;
        DROP VIEW footnote_map_view_probe;
    END;
    FOR r IN
        WITH RECURSIVE d(oid, depth) AS (
            SELECT to_regclass(target)::oid, 0
            UNION ALL
            SELECT w.ev_class, d.depth + 1
            FROM d JOIN pg_catalog.pg_depend AS p ON p.refobjid = d.oid
                    AND p.classid = 'pg_catalog.pg_rewrite'::regclass AND p.refclassid = 'pg_catalog.pg_class'::regclass
            JOIN pg_catalog.pg_rewrite AS w ON w.oid = p.objid AND w.ev_class <> d.oid)
        SELECT d.oid::regclass::text AS name, pg_catalog.pg_get_viewdef(d.oid) AS body
        FROM d WHERE d.depth > 0 GROUP BY d.oid ORDER BY max(d.depth), d.oid
    LOOP
        readers := readers || r.name;
        bodies := bodies || r.body;
    END LOOP;
    EXECUTE format('DROP VIEW %s CASCADE', target);
    EXECUTE format('CREATE VIEW %s AS %s', target, query);
    FOR i IN 1 .. coalesce(array_length(readers, 1), 0) LOOP
        EXECUTE format('CREATE VIEW %s AS %s', readers[i], bodies[i]);
    END LOOP;
END
$$;
