-- footnote-pg: the catalog of operations and the one entry point clients use.
--
-- footnote.catalog lists every operation with its arguments, types and
-- descriptions (written for a model to read), so the Python client and the MCP
-- server build typed tool schemas from the database itself. footnote.call
-- checks a JSON object of arguments against it and calls the operation; a
-- drift test keeps these rows equal to the functions' real signatures.

CREATE TABLE footnote.operations (
    name        text PRIMARY KEY,
    title       text NOT NULL,
    description text NOT NULL,
    returns     text NOT NULL
);

CREATE TABLE footnote.operation_arguments (
    operation   text NOT NULL REFERENCES footnote.operations (name),
    position    integer NOT NULL CHECK (position > 0),
    name        text NOT NULL,
    type        text NOT NULL CHECK (type IN ('text', 'date', 'integer', 'period')),
    required    boolean NOT NULL,
    description text NOT NULL,
    example     text,
    PRIMARY KEY (operation, position),
    UNIQUE (operation, name)
);

INSERT INTO footnote.operations (name, title, description, returns) VALUES
('list_customers', 'List customers',
 'Lists customers by name (then id), optionally only those whose name contains a text. Use it to find the exact name of a customer.',
 'values: listed, matching (counts); rows: name, customer_number, payment_terms, account_owner'),
('list_suppliers', 'List suppliers',
 'Lists suppliers by name (then id), optionally only those whose name contains a text. Use it to find the exact name of a supplier.',
 'values: listed, matching (counts); rows: name, supplier_number, country'),
('list_items', 'List items',
 'Lists items (products, materials) by name (then id), optionally only those whose name or SKU contains a text. Use it to find an item''s exact name or SKU.',
 'values: listed, matching (counts); rows: name, sku, unit'),
('customer_overdue', 'Overdue invoices of a customer',
 'Invoices of one customer that are past their due date and not fully settled as of a date: the overdue total, how many invoices, the oldest days past due, and one row per invoice (oldest due first). Answers "how much does X owe", "what is overdue for X".',
 'values: customer, as_of, overdue_total, invoice_count, oldest_days_past_due; rows: number, due_date, outstanding, days_past_due'),
('ar_aging', 'Accounts-receivable aging',
 'Open receivables as of a date, of all customers or one, in aging buckets by days past due: current (not yet due), 1-30, 31-60, 61-90 and over 90 days.',
 'values: as_of, total_outstanding, invoice_count; rows (one per bucket, in that order): bucket, outstanding, invoice_count'),
('customer_risk', 'Customer risk facts',
 'The facts behind a customer''s risk as of a date: overdue balance and invoices, oldest days past due, open support tickets and how many are high or critical severity, agreed payment terms and the account owner. It states facts, not a conclusion.',
 'values: customer, as_of, overdue_total, overdue_invoice_count, oldest_days_past_due, open_ticket_count, high_severity_ticket_count, payment_terms, account_owner'),
('open_tickets', 'Open support tickets of a customer',
 'Support tickets of one customer that are open as of a date, most severe first, with the number open and the number of high or critical severity.',
 'values: customer, as_of, open_count, high_severity_count; rows: subject, severity, opened_on, age'),
('revenue', 'Revenue for a period',
 'Revenue of a month, quarter, fiscal year or calendar year, of all customers or one: net amount of invoices issued in the period minus net amount of credit notes issued in it.',
 'values: period, revenue, invoice_count, credit_note_count'),
('revenue_change', 'Revenue change between two periods',
 'Revenue of two periods and the change between them, absolute and in percent of the first period, computed in the database; of all customers or one.',
 'values: period_from, period_to, revenue_from, revenue_to, change (absolute, unsigned), direction (up, down, unchanged), change_percent (unsigned; absent when the first period''s revenue is zero or negative: no percentage of such a base is stated)'),
('revenue_drivers', 'What drove a revenue change',
 'The customers whose revenue changed most between two periods (largest absolute change first), with each one''s revenue in both periods and the change: the facts behind "why did revenue fall/rise".',
 'values: period_from, period_to, listed; rows: customer, revenue_from, revenue_to, change (unsigned), direction'),
('top_customers', 'Top customers by revenue',
 'Customers ranked by revenue in a period (net invoices minus net credit notes), highest first; ties share a rank.',
 'values: period, listed; rows: rank, customer, revenue, invoice_count'),
('days_sales_outstanding', 'Days sales outstanding',
 'Days sales outstanding (DSO) as of a date: receivables outstanding on that day divided by gross sales invoiced in the window ending that day, times the days in the window (default 90). Both inputs are returned and cited.',
 'values: as_of, window, receivables, gross_sales, dso'),
('invoice', 'One invoice',
 'One invoice by its number (INV-2026-8812), id or deep link, with amounts, due date, and its balance as of a date: paid, credited, outstanding, days past due, and the payments and credit notes that settled it.',
 'values: number, customer, issue_date, due_date, net, tax, gross, paid, credited, outstanding, days_past_due; rows: type, date, amount'),
('source_record', 'Open a deep link',
 'The record behind a deep link such as erp://invoice/8812 (types: customer, invoice, payment, credit_note, ticket, supplier, bank_account, supplier_payment, supplier_invoice, bank_change_request, purchase_order, item, stock), with every field of its source view.',
 'values: type, uri; evidence: the record with its fields'),
('open_purchase_orders', 'Open purchase orders',
 'Purchase orders that are open or partially received, of all suppliers or one, by expected delivery date, with their count and net total.',
 'values: open_count, open_total; rows: number, supplier, expected_on, status, net'),
('stock_on_hand', 'Stock on hand of an item',
 'Stock of one item (by name or SKU) per warehouse and in total, and whether it is below its reorder level.',
 'values: item, sku, unit, quantity, reorder_level, below_reorder_level, warehouse_count; rows: warehouse, quantity, counted_on'),
('supplier_payment_facts', 'Supplier payment facts',
 'Facts for deciding whether to pay a supplier: payment history (count, total, first and last payment), bank accounts on file and paid, pending requests to change bank details (channel, requested account, age of the sender''s domain), and the phone number on file. Every fact says whether it was verified and how.',
 'values: supplier, payment_count, total_paid, first_payment_on, last_payment_on, paid_account_ending, pending_change_count, pending_account_ending, pending_channel, pending_domain_age, phone, phone_unchanged_since; rows: bank accounts and change requests, each with verified');

INSERT INTO footnote.operation_arguments (operation, position, name, type, required, description, example) VALUES
('list_customers', 1, 'name_contains', 'text', false, 'only customers whose name contains this text, ignoring case', 'Bergmann'),
('list_customers', 2, 'limit', 'integer', false, 'at most this many customers, 1 to 1000 (default 100)', '20'),
('list_suppliers', 1, 'name_contains', 'text', false, 'only suppliers whose name contains this text, ignoring case', 'Northwind'),
('list_suppliers', 2, 'limit', 'integer', false, 'at most this many suppliers, 1 to 1000 (default 100)', '20'),
('list_items', 1, 'name_contains', 'text', false, 'only items whose name or SKU contains this text, ignoring case', NULL),
('list_items', 2, 'limit', 'integer', false, 'at most this many items, 1 to 1000 (default 100)', '20'),
('customer_overdue', 1, 'customer', 'text', true, 'customer name (or the start of each word of it), customer number, id or erp://customer/<id>', 'Bergmann Logistik'),
('customer_overdue', 2, 'as_of', 'date', false, 'the day to evaluate, YYYY-MM-DD (default: the as_of setting, else today)', '2026-08-14'),
('ar_aging', 1, 'as_of', 'date', false, 'the day to evaluate, YYYY-MM-DD (default: the as_of setting, else today)', '2026-08-14'),
('ar_aging', 2, 'customer', 'text', false, 'only this customer (name, number, id or erp:// link)', NULL),
('customer_risk', 1, 'customer', 'text', true, 'customer name (or the start of each word of it), customer number, id or erp://customer/<id>', 'Bergmann Logistik'),
('customer_risk', 2, 'as_of', 'date', false, 'the day to evaluate, YYYY-MM-DD (default: the as_of setting, else today)', '2026-08-14'),
('open_tickets', 1, 'customer', 'text', true, 'customer name (or the start of each word of it), customer number, id or erp://customer/<id>', 'Bergmann Logistik'),
('open_tickets', 2, 'as_of', 'date', false, 'the day to evaluate, YYYY-MM-DD (default: the as_of setting, else today)', '2026-08-14'),
('revenue', 1, 'period', 'period', true, 'a month 2026-07, a quarter 2026-Q2, a fiscal year FY2026 or a calendar year 2026', '2026-Q2'),
('revenue', 2, 'customer', 'text', false, 'only this customer (name, number, id or erp:// link)', NULL),
('revenue_change', 1, 'period_from', 'period', true, 'the earlier period: 2026-07, 2026-Q2, FY2026 or 2026', '2026-Q1'),
('revenue_change', 2, 'period_to', 'period', true, 'the later period: 2026-07, 2026-Q2, FY2026 or 2026', '2026-Q2'),
('revenue_change', 3, 'customer', 'text', false, 'only this customer (name, number, id or erp:// link)', NULL),
('revenue_drivers', 1, 'period_from', 'period', true, 'the earlier period: 2026-07, 2026-Q2, FY2026 or 2026', '2026-Q1'),
('revenue_drivers', 2, 'period_to', 'period', true, 'the later period: 2026-07, 2026-Q2, FY2026 or 2026', '2026-Q2'),
('revenue_drivers', 3, 'limit', 'integer', false, 'how many customers, 1 to 100 (default 3)', '3'),
('top_customers', 1, 'period', 'period', true, 'a month 2026-07, a quarter 2026-Q2, a fiscal year FY2026 or a calendar year 2026', 'FY2025'),
('top_customers', 2, 'limit', 'integer', false, 'how many customers, 1 to 100 (default 5)', '5'),
('days_sales_outstanding', 1, 'as_of', 'date', false, 'the day to evaluate, YYYY-MM-DD (default: the as_of setting, else today)', '2026-08-14'),
('days_sales_outstanding', 2, 'window_days', 'integer', false, 'days of sales in the denominator, 1 to 3660 (default: the dso_window_days setting, 90)', '90'),
('invoice', 1, 'number', 'text', true, 'invoice number such as INV-2026-8812, its id, or erp://invoice/<id>', 'INV-2026-8812'),
('invoice', 2, 'as_of', 'date', false, 'the day the balance is evaluated, YYYY-MM-DD (default: the as_of setting, else today)', '2026-08-14'),
('source_record', 1, 'uri', 'text', true, 'a deep link erp://<type>/<id>, as evidence rows cite them', 'erp://invoice/8812'),
('open_purchase_orders', 1, 'supplier', 'text', false, 'only this supplier (name, supplier number, id or erp:// link)', 'Northwind Supply'),
('stock_on_hand', 1, 'item', 'text', true, 'item name (or the start of each word of it), SKU, id or erp://item/<id>', NULL),
('supplier_payment_facts', 1, 'supplier', 'text', true, 'supplier name (or the start of each word of it), supplier number, id or erp://supplier/<id>', 'Northwind Supply'),
('supplier_payment_facts', 2, 'as_of', 'date', false, 'the day to evaluate, YYYY-MM-DD (default: the as_of setting, else today)', '2026-08-14');

-- Operations added with sql/17_portfolio.sql, and the filters of list_customers.
INSERT INTO footnote.operations (name, title, description, returns) VALUES
('customer_payments', 'Payments received from a customer',
 'Payments one customer made up to a date, or in a period: how many, the total, the first and last payment, and for the invoices those payments settled the average days from issue to payment and how many were paid after their due date. Answers "how much has X paid us", "when did X last pay", "how long does X take to pay", "does X pay late".',
 'values: customer, as_of, period, payment_count, total_paid, first_payment_on, last_payment_on, settled_invoice_count, average_days_to_pay, paid_late_count; rows (latest first, at most 20): paid_on, amount, invoice, method'),
('customer_profile', 'Customer profile',
 'One customer at a glance as of a date: customer number, city, country, payment terms, account owner, credit limit, open balance and open invoices, the overdue part of it, open support tickets.',
 'values: customer, customer_number, city, country, payment_terms, account_owner, credit_limit, as_of, open_balance, open_invoice_count, overdue_total, open_ticket_count'),
('rank_customers', 'Customers ranked by what they owe',
 'Customers ranked as of a date by overdue amount, outstanding amount (all open invoices) or oldest overdue invoice (days past due), largest first (desc) or smallest first (asc); only customers with something of that measure are ranked, ties share a rank. Answers "who owes us the most", "which customers have the oldest overdue invoices", "smallest overdue balances".',
 'values: as_of, measure, direction, listed, ranked; rows: rank, customer, value, invoice_count'),
('revenue_by_month', 'Revenue by month',
 'Revenue of each month of a period (a quarter, a half year, a year, a fiscal year or a date range), of all customers or one: net invoices minus net credit notes issued in the month.',
 'values: period, revenue, months, customer; rows: month, revenue, invoice_count, credit_note_count'),
('credit_notes', 'Credit notes of a period',
 'Credit notes issued in a period, of all customers or one, by issue date: how many, the net total, and each with its customer, date, net amount and the invoice it credits.',
 'values: period, credit_note_count, total_net, customer; rows: number, customer, issue_date, net, invoice'),
('accounts_payable', 'Accounts payable',
 'Supplier invoices received and not yet paid in full as of a date, of all suppliers or one: what we owe (each invoice''s gross less what its payments settled by then), how much of it is overdue, the amounts by days past due (current, 1-30, 31-60, 61-90, over 90) and each invoice with its due date. Answers "what do we owe Northwind", "open supplier invoices", "AP aging".',
 'values: as_of, open_total, open_count, overdue_total, overdue_count, current, days_1_30, days_31_60, days_61_90, over_90, supplier; rows (by due date): number, supplier, due_date, gross, paid, open, days_past_due'),
('items_below_reorder', 'Items below their reorder level',
 'Items whose stock on hand in all warehouses is below their reorder level, with the quantity and the level.',
 'values: item_count; rows: item, sku, quantity, unit, reorder_level'),
('purchase_order', 'One purchase order',
 'One purchase order by its number (PO-2025-3043), id or deep link: supplier, order and expected dates, status, net amount.',
 'values: number, supplier, ordered_on, expected_on, status, net');

INSERT INTO footnote.operation_arguments (operation, position, name, type, required, description, example) VALUES
('list_customers', 3, 'owner', 'text', false, 'only customers with this account owner (a person''s name, exactly)', NULL),
('list_customers', 4, 'country', 'text', false, 'only customers in this country, as a two-letter code (DE, FR, ...)', NULL),
('customer_payments', 1, 'customer', 'text', true, 'customer name (or the start of each word of it), customer number, id or erp://customer/<id>', 'Bergmann Logistik'),
('customer_payments', 2, 'period', 'period', false, 'only payments in this period: 2026-07, 2026-Q2, 2026-H1, FY2026, 2026 or 2026-01-01..2026-08-14', NULL),
('customer_payments', 3, 'as_of', 'date', false, 'payments up to this day, YYYY-MM-DD (default: the as_of setting, else today)', NULL),
('customer_profile', 1, 'customer', 'text', true, 'customer name (or the start of each word of it), customer number, id or erp://customer/<id>', 'Bergmann Logistik'),
('customer_profile', 2, 'as_of', 'date', false, 'the day to evaluate, YYYY-MM-DD (default: the as_of setting, else today)', NULL),
('rank_customers', 1, 'measure', 'text', true, 'overdue, outstanding or oldest_overdue', 'overdue'),
('rank_customers', 2, 'direction', 'text', false, 'desc (largest first, the default) or asc (smallest first)', 'desc'),
('rank_customers', 3, 'limit', 'integer', false, 'how many customers, 1 to 100 (default 5)', '5'),
('rank_customers', 4, 'as_of', 'date', false, 'the day to evaluate, YYYY-MM-DD (default: the as_of setting, else today)', NULL),
('revenue_by_month', 1, 'period', 'period', true, 'a quarter 2026-Q2, a half 2026-H1, a year 2026, FY2026 or 2026-01-01..2026-08-14', '2026-Q2'),
('revenue_by_month', 2, 'customer', 'text', false, 'only this customer (name, number, id or erp:// link)', NULL),
('credit_notes', 1, 'period', 'period', true, 'a month 2026-07, a quarter 2026-Q2, a half 2026-H1, FY2026, 2026 or a date range', '2026-Q2'),
('credit_notes', 2, 'customer', 'text', false, 'only this customer (name, number, id or erp:// link)', NULL),
('accounts_payable', 1, 'supplier', 'text', false, 'only this supplier (name, supplier number, id or erp:// link)', 'Northwind Supply'),
('accounts_payable', 2, 'as_of', 'date', false, 'the day to evaluate, YYYY-MM-DD (default: the as_of setting, else today)', '2026-08-14'),
('purchase_order', 1, 'number', 'text', true, 'purchase order number such as PO-2025-3043, its id, or erp://purchase_order/<id>', 'PO-2025-3043'),
('revenue_drivers', 4, 'direction', 'text', false, 'only customers whose revenue rose (up) or fell (down); default both, by the size of the change', NULL);

UPDATE footnote.operations
SET description = 'Lists customers by name (then id), optionally only those whose name contains a text, with a given account owner or in a given country. Use it to find the exact name of a customer, or "customers managed by X", "customers in Germany".'
WHERE name = 'list_customers';

UPDATE footnote.operations
SET returns = 'values: as_of, total_outstanding, invoice_count, overdue_total, overdue_invoice_count (the part past due), customer; rows (one per bucket, in that order): bucket, outstanding, invoice_count'
WHERE name = 'ar_aging';

-- Purchase orders expected in a period; customers with the least revenue.
INSERT INTO footnote.operation_arguments (operation, position, name, type, required, description, example) VALUES
('open_purchase_orders', 2, 'expected_in', 'period', false, 'only orders expected in this period: 2026-08, 2026-Q3, 2026-H2, FY2026, 2026 or 2026-08-01..2026-08-31', '2026-08'),
('top_customers', 3, 'direction', 'text', false, 'desc (default): the most revenue first; asc: the least revenue first, of the customers with documents in the period', NULL);

UPDATE footnote.operations
SET description = 'Purchase orders that are open or partially received, of all suppliers or one, optionally only those expected in a period, by expected delivery date, with their count and net total.',
    returns = 'values: open_count, open_total, supplier, expected_in; rows: number, supplier, expected_on, status, net'
WHERE name = 'open_purchase_orders';

UPDATE footnote.operations
SET description = description || ' With direction asc, the customers with the least revenue (of those with documents in the period) first.'
WHERE name = 'top_customers';

-- One operation for figures across customers or suppliers (sql/18_breakdown.sql).
INSERT INTO footnote.operations (name, title, description, returns) VALUES
('breakdown', 'A measure by a dimension over a period',
 'One figure of a period across customers or suppliers, in total and grouped: revenue (net invoices minus net credit notes, as the revenue operation), invoiced (gross), invoice_count, average_invoice (net), cash_collected (payments received), credit_notes (net), tickets_opened, purchase_volume (supplier invoices, gross) or supplier_payments; by customer, country, account_owner, month, quarter or severity (tickets) for the customers'' measures, by supplier, supplier_country, month or quarter for the suppliers''; of all or only a country, an account owner, one customer or one supplier; the top (or bottom) groups. Answers "revenue by country in 2026", "cash collected in Q2", "average invoice value by account owner", "tickets opened last month by severity", "purchase volume per supplier", "which suppliers did we buy the most from".',
 'values: measure, period, total, count (records), by, groups, listed, others and other_groups (the groups not listed), country, account_owner, customer, supplier; rows (month and quarter in time order, else largest first): <by>, value, count');

INSERT INTO footnote.operation_arguments (operation, position, name, type, required, description, example) VALUES
('breakdown', 1, 'measure', 'text', true, 'revenue, invoiced, invoice_count, average_invoice, cash_collected, credit_notes, tickets_opened, purchase_volume or supplier_payments', 'revenue'),
('breakdown', 2, 'period', 'period', true, 'a month 2026-07, a quarter 2026-Q2, a half 2026-H1, FY2026, 2026 or 2026-01-01..2026-08-14', '2026'),
('breakdown', 3, 'by', 'text', false, 'group by customer, country, account_owner, month, quarter or severity (tickets_opened); supplier, supplier_country, month or quarter (purchase_volume, supplier_payments); default: the total only', 'country'),
('breakdown', 4, 'country', 'text', false, 'only customers (suppliers) in this country, a two-letter code (DE, FR, ...)', NULL),
('breakdown', 5, 'owner', 'text', false, 'only customers with this account owner (a person''s name)', NULL),
('breakdown', 6, 'customer', 'text', false, 'only this customer (name, number, id or erp:// link)', NULL),
('breakdown', 7, 'supplier', 'text', false, 'only this supplier (name, supplier number, id or erp:// link)', NULL),
('breakdown', 8, 'limit', 'integer', false, 'how many groups to list, 1 to 100 (default 100); the rest are one figure', NULL),
('breakdown', 9, 'direction', 'text', false, 'desc: the largest groups first (the default except for month and quarter, listed in time order); asc: the smallest first', NULL);

-- Every operation with its arguments (in call order), for building typed tool schemas.
CREATE VIEW footnote.catalog AS
SELECT o.name AS operation, o.title, o.description, o.returns,
       coalesce((SELECT jsonb_agg(jsonb_build_object('name', a.name, 'type', a.type, 'required', a.required,
                                                     'description', a.description, 'example', a.example)
                                  ORDER BY a.position)
                 FROM footnote.operation_arguments AS a WHERE a.operation = o.name), '[]') AS arguments,
       ('footnote.' || o.name)::regproc::regprocedure::text AS signature
FROM footnote.operations AS o;
COMMENT ON VIEW footnote.catalog IS 'every catalog operation with its typed arguments and descriptions';

-- Call a catalog operation by name with a JSON object of arguments: checks names and types, then calls it.
CREATE FUNCTION footnote.call(operation text, arguments jsonb DEFAULT '{}')
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    op     footnote.operations;
    a      footnote.operation_arguments;
    k      text;
    v      jsonb;
    vals   text[] := '{}';
    parts  text[] := '{}';
    result jsonb;
BEGIN
    SELECT * INTO op FROM footnote.operations AS o WHERE o.name = operation;
    IF op.name IS NULL THEN
        RAISE EXCEPTION USING
            ERRCODE = 'FN004',
            MESSAGE = format('unknown operation %s; available: %s', coalesce(footnote._shown(operation, 60), 'NULL'),
                             footnote._listed(ARRAY(SELECT o.name FROM footnote.operations AS o ORDER BY o.name),
                                              (SELECT count(*) FROM footnote.operations), 280)),
            DETAIL = jsonb_build_object('operation', left(operation, 200),
                'available', (SELECT jsonb_agg(o.name ORDER BY o.name) FROM footnote.operations AS o))::text;
    END IF;
    arguments := coalesce(arguments, '{}');
    IF jsonb_typeof(arguments) <> 'object' THEN
        PERFORM footnote._invalid('arguments', 'must be a JSON object of argument names and values');
    END IF;
    FOR k IN SELECT jsonb_object_keys(arguments) LOOP
        IF NOT EXISTS (SELECT FROM footnote.operation_arguments AS x WHERE x.operation = op.name AND x.name = k) THEN
            PERFORM footnote._invalid(left(k, 100), format('is not an argument of %s; it takes %s', op.name,
                coalesce((SELECT string_agg(x.name, ', ' ORDER BY x.position)
                          FROM footnote.operation_arguments AS x WHERE x.operation = op.name), 'none')));
        END IF;
    END LOOP;
    FOR a IN SELECT * FROM footnote.operation_arguments AS x WHERE x.operation = op.name ORDER BY x.position LOOP
        v := arguments -> a.name;
        IF v IS NULL OR jsonb_typeof(v) = 'null' THEN
            IF a.required THEN
                PERFORM footnote._invalid(a.name, 'is required');
            END IF;
            CONTINUE;
        END IF;
        vals := vals || footnote._json_scalar_arg(a.name, a.type, v);
        parts := parts || format('%I => $1[%s]::%s', a.name, cardinality(vals),
                                 CASE a.type WHEN 'period' THEN 'text' ELSE a.type END);
    END LOOP;
    EXECUTE format('SELECT footnote.%I(%s)', op.name, array_to_string(parts, ', ')) INTO result USING vals;
    RETURN result;
END
$$;

-- The same call with its arguments as text, which is what an unadorned literal in psql resolves to
-- (footnote.call('invoice', '{"number": "INV-2026-8812"}')): JSON that PostgreSQL's own parser refuses (a
-- syntax error, \u0000, a lone surrogate, nesting too deep) is FN001 naming the arguments, not a parser error.
CREATE FUNCTION footnote.call(operation text, arguments text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    parsed jsonb;
BEGIN
    BEGIN
        parsed := arguments::jsonb;
    EXCEPTION WHEN data_exception OR program_limit_exceeded OR statement_too_complex THEN
        PERFORM footnote._invalid('arguments', 'is not valid JSON: ' || SQLERRM, left(arguments, 200));
    END;
    RETURN footnote.call(operation, parsed);
END
$$;
