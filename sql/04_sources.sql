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
-- does not match the contract fails at once. sql/sample/30_mapping.sql maps
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

-- Incoming payments, each allocated to one invoice.
CREATE VIEW footnote_src.payments AS SELECT
    NULL::bigint  AS id,
    NULL::bigint  AS invoice_id,
    NULL::bigint  AS customer_id,
    NULL::date    AS paid_on,
    NULL::numeric AS amount,
    NULL::text    AS method,
    NULL::text    AS uri
WHERE false;

-- Credit notes, each against one invoice; they reduce revenue and the balance.
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

-- Invoices received from suppliers (accounts payable); paid_on is the day a payment settled one (NULL while
-- it is open).
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

-- Balance of every invoice issued on or before as_of: paid, credited and outstanding as of that day.
-- Derived from the views above only; a plain SQL function so the planner inlines it.
CREATE FUNCTION footnote_src.invoice_balances(as_of date)
RETURNS TABLE (
    invoice_id bigint, number text, customer_id bigint, issue_date date, due_date date,
    net numeric, gross numeric, paid numeric, credited numeric, outstanding numeric,
    days_past_due integer, uri text)
LANGUAGE sql STABLE
AS $$
    SELECT i.id, i.number, i.customer_id, i.issue_date, i.due_date, i.net, i.gross,
           coalesce(p.paid, 0.00), coalesce(c.credited, 0.00),
           i.gross - coalesce(p.paid, 0.00) - coalesce(c.credited, 0.00),
           as_of - i.due_date, i.uri
    FROM footnote_src.invoices AS i
    LEFT JOIN LATERAL (
        SELECT sum(p.amount) AS paid FROM footnote_src.payments AS p
        WHERE p.invoice_id = i.id AND p.paid_on <= as_of) AS p ON true
    LEFT JOIN LATERAL (
        SELECT sum(c.gross) AS credited FROM footnote_src.credit_notes AS c
        WHERE c.invoice_id = i.id AND c.issue_date <= as_of) AS c ON true
    WHERE i.issue_date <= as_of
$$;
