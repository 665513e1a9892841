-- footnote-pg sample ERP: the mapping of the footnote_src views onto erp.
--
-- Run after sql/04_sources.sql and the sample tables, as the installer. Every
-- column is cast to exactly the contract's type, because CREATE OR REPLACE VIEW
-- refuses any change of a column's name, type or typmod. Deep links are
-- erp://<type>/<id>. The sample's "today" is 2026-08-14, so as_of is set to it.

GRANT USAGE ON SCHEMA erp TO footnote_owner;
GRANT SELECT ON ALL TABLES IN SCHEMA erp TO footnote_owner;

SET ROLE footnote_owner;

CREATE OR REPLACE VIEW footnote_src.customers AS SELECT
    c.id::bigint                           AS id,
    c.name::text                           AS name,
    c.customer_number::text                AS customer_number,
    c.country::text                        AS country,
    c.city::text                           AS city,
    c.payment_terms_days::integer          AS payment_terms_days,
    e.name::text                           AS account_owner,
    c.credit_limit::numeric                AS credit_limit,
    ('erp://customer/' || c.id)::text      AS uri
FROM erp.customers AS c
JOIN erp.employees AS e ON e.id = c.account_owner_id;

CREATE OR REPLACE VIEW footnote_src.invoices AS SELECT
    i.id::bigint                           AS id,
    i.number::text                         AS number,
    i.customer_id::bigint                  AS customer_id,
    i.issue_date::date                     AS issue_date,
    i.due_date::date                       AS due_date,
    i.net::numeric                         AS net,
    i.tax::numeric                         AS tax,
    i.gross::numeric                       AS gross,
    ('erp://invoice/' || i.id)::text       AS uri
FROM erp.invoices AS i;

CREATE OR REPLACE VIEW footnote_src.payments AS SELECT
    p.id::bigint                           AS id,
    p.invoice_id::bigint                   AS invoice_id,
    p.customer_id::bigint                  AS customer_id,
    p.paid_on::date                        AS paid_on,
    p.amount::numeric                      AS amount,
    p.method::text                         AS method,
    ('erp://payment/' || p.id)::text       AS uri
FROM erp.payments AS p;

CREATE OR REPLACE VIEW footnote_src.credit_notes AS SELECT
    n.id::bigint                           AS id,
    n.number::text                         AS number,
    n.invoice_id::bigint                   AS invoice_id,
    n.customer_id::bigint                  AS customer_id,
    n.issue_date::date                     AS issue_date,
    n.net::numeric                         AS net,
    n.tax::numeric                         AS tax,
    n.gross::numeric                       AS gross,
    ('erp://credit_note/' || n.id)::text   AS uri
FROM erp.credit_notes AS n;

-- Due lines: an invoice's instalments where it has a schedule, else the whole gross on its due date;
-- id = invoice id * 1000 + instalment.
CREATE OR REPLACE VIEW footnote_src.due_lines AS SELECT
    (i.id * 1000 + coalesce(s.instalment, 1))::bigint AS id,
    i.id::bigint                           AS invoice_id,
    i.customer_id::bigint                  AS customer_id,
    coalesce(s.due_date, i.due_date)::date AS due_date,
    coalesce(s.amount, i.gross)::numeric   AS amount,
    ('erp://invoice/' || i.id)::text       AS uri
FROM erp.invoices AS i
LEFT JOIN erp.invoice_instalments AS s ON s.invoice_id = i.id;

-- A credit note settles its invoice from the day it was applied; until then it is open on the account.
CREATE OR REPLACE VIEW footnote_src.credit_applications AS SELECT
    n.id::bigint                           AS id,
    n.id::bigint                           AS credit_note_id,
    n.invoice_id::bigint                   AS invoice_id,
    n.customer_id::bigint                  AS customer_id,
    n.applied_on::date                     AS applied_on,
    n.gross::numeric                       AS amount,
    ('erp://credit_note/' || n.id)::text   AS uri
FROM erp.credit_notes AS n
WHERE n.applied_on IS NOT NULL AND n.invoice_id IS NOT NULL;

CREATE OR REPLACE VIEW footnote_src.tickets AS SELECT
    t.id::bigint                           AS id,
    t.customer_id::bigint                  AS customer_id,
    t.subject::text                        AS subject,
    t.severity::text                       AS severity,
    t.status::text                         AS status,
    t.opened_on::date                      AS opened_on,
    t.closed_on::date                      AS closed_on,
    ('erp://ticket/' || t.id)::text        AS uri
FROM erp.tickets AS t;

CREATE OR REPLACE VIEW footnote_src.suppliers AS SELECT
    s.id::bigint                           AS id,
    s.name::text                           AS name,
    s.supplier_number::text                AS supplier_number,
    s.country::text                        AS country,
    s.phone::text                          AS phone,
    s.phone_since::date                    AS phone_since,
    s.phone_verified::boolean              AS phone_verified,
    s.phone_verification::text             AS phone_verification,
    ('erp://supplier/' || s.id)::text      AS uri
FROM erp.suppliers AS s;

CREATE OR REPLACE VIEW footnote_src.supplier_bank_accounts AS SELECT
    a.id::bigint                           AS id,
    a.supplier_id::bigint                  AS supplier_id,
    a.iban_masked::text                    AS iban_masked,
    a.account_ending::text                 AS account_ending,
    a.added_on::date                       AS added_on,
    a.verified::boolean                    AS verified,
    a.verification::text                   AS verification,
    ('erp://bank_account/' || a.id)::text  AS uri
FROM erp.supplier_bank_accounts AS a;

CREATE OR REPLACE VIEW footnote_src.supplier_payments AS SELECT
    p.id::bigint                           AS id,
    p.supplier_id::bigint                  AS supplier_id,
    p.bank_account_id::bigint              AS bank_account_id,
    p.paid_on::date                        AS paid_on,
    p.amount::numeric                      AS amount,
    p.reference::text                      AS reference,
    ('erp://supplier_payment/' || p.id)::text AS uri
FROM erp.supplier_payments AS p;

CREATE OR REPLACE VIEW footnote_src.supplier_invoices AS SELECT
    i.id::bigint                           AS id,
    i.number::text                         AS number,
    i.supplier_id::bigint                  AS supplier_id,
    i.invoice_date::date                   AS invoice_date,
    i.due_date::date                       AS due_date,
    i.gross::numeric                       AS gross,
    p.paid_on::date                        AS paid_on,
    ('erp://supplier_invoice/' || i.id)::text AS uri
FROM erp.supplier_invoices AS i
LEFT JOIN LATERAL (  -- the day its allocations reached its gross: the last of them, once they add up to it
    SELECT max(sp.paid_on) AS paid_on
    FROM erp.supplier_payment_allocations AS a
    JOIN erp.supplier_payments AS sp ON sp.id = a.payment_id
    WHERE a.supplier_invoice_id = i.id
    HAVING sum(a.amount) >= i.gross) AS p ON true;

-- What settled each supplier invoice: the allocations of supplier payments to it, each from its payment's day.
CREATE OR REPLACE VIEW footnote_src.supplier_invoice_payments AS SELECT
    a.id::bigint                           AS id,
    a.supplier_invoice_id::bigint          AS supplier_invoice_id,
    sp.supplier_id::bigint                 AS supplier_id,
    sp.paid_on::date                       AS paid_on,
    a.amount::numeric                      AS amount,
    ('erp://supplier_payment/' || sp.id)::text AS uri
FROM erp.supplier_payment_allocations AS a
JOIN erp.supplier_payments AS sp ON sp.id = a.payment_id;

CREATE OR REPLACE VIEW footnote_src.bank_change_requests AS SELECT
    r.id::bigint                           AS id,
    r.supplier_id::bigint                  AS supplier_id,
    r.requested_on::date                   AS requested_on,
    r.channel::text                        AS channel,
    r.sender::text                         AS sender,
    r.sender_domain::text                  AS sender_domain,
    r.domain_registered_on::date           AS domain_registered_on,
    r.requested_iban_masked::text          AS requested_iban_masked,
    r.requested_account_ending::text       AS requested_account_ending,
    r.status::text                         AS status,
    r.verified::boolean                    AS verified,
    r.verification::text                   AS verification,
    ('erp://bank_change_request/' || r.id)::text AS uri
FROM erp.bank_change_requests AS r;

CREATE OR REPLACE VIEW footnote_src.purchase_orders AS SELECT
    o.id::bigint                           AS id,
    o.number::text                         AS number,
    o.supplier_id::bigint                  AS supplier_id,
    o.ordered_on::date                     AS ordered_on,
    o.expected_on::date                    AS expected_on,
    o.status::text                         AS status,
    o.net::numeric                         AS net,
    ('erp://purchase_order/' || o.id)::text AS uri
FROM erp.purchase_orders AS o;

CREATE OR REPLACE VIEW footnote_src.items AS SELECT
    i.id::bigint                           AS id,
    i.sku::text                            AS sku,
    i.name::text                           AS name,
    i.unit::text                           AS unit,
    i.reorder_level::numeric               AS reorder_level,
    ('erp://item/' || i.id)::text          AS uri
FROM erp.items AS i;

CREATE OR REPLACE VIEW footnote_src.stock AS SELECT
    s.id::bigint                           AS id,
    s.item_id::bigint                      AS item_id,
    s.warehouse::text                      AS warehouse,
    s.quantity::numeric                    AS quantity,
    s.counted_on::date                     AS counted_on,
    ('erp://stock/' || s.id)::text         AS uri
FROM erp.stock AS s;

UPDATE footnote.settings SET value = '2026-08-14' WHERE key = 'as_of';

RESET ROLE;
