-- footnote-pg: the mapping of the footnote_src views onto LedgerSMB 1.6 (ledgersmb 1.6.x on PostgreSQL).
--
-- Applied by `footnote-pg install --mapping ledgersmb` in the LedgerSMB company database, after footnote-pg is
-- installed, as a role that may grant SELECT on LedgerSMB's tables (their owner or a superuser). LedgerSMB's
-- tables are read in schema public; amounts are in the company's default currency (the first of the defaults'
-- curr setting) as LedgerSMB posts them: acc_trans amounts are credit-positive, so a customer's receivable line
-- is negative and a payment's line on it positive. Only approved transactions and lines count (drafts and
-- unapproved batches are not posted yet). Deep links are erp://<type>/<id> with LedgerSMB's own ids.
-- Views read only LedgerSMB's tables (no helper objects), so `footnote-pg mapping drop` frees them all (but for
-- supplier_invoice_payments until the contract has that view: mapping drop leaves it; DROP VIEW it by hand).
--
-- Keys: LedgerSMB's keys are integer. The contract's key columns are bigint today, so each key that is one of
-- LedgerSMB's own columns is selected as `<column>::bigint` (`a.id::bigint AS id`, `min(ac.entry_id)::bigint`):
-- the cast is only the contract's type, and a filter on a cast key cannot use LedgerSMB's index
-- (ar.entity_credit_account, the primary keys). Once the contract takes integer keys, delete those `::bigint` and
-- nothing else changes; the ids that combine two keys (x::bigint * 10000000000 + y: credit applications, stock)
-- stay bigint. Joins inside the views are
-- on LedgerSMB's own integer columns.
--
-- What maps to what:
--   customers       credit accounts of class 2 (entity_credit_account), named by their entity; customer number
--                   = meta_number, country and city from the entity's billing location, payment terms = terms
--                   (days), credit limit = creditlimit (0, LedgerSMB's "none", is not recorded), account owner =
--                   the salesperson (employee_id)
--   invoices        approved ar transactions with a positive amount; net = netamount, tax = amount - netamount,
--                   due_date = duedate
--   due_lines       the contract's default: LedgerSMB has one due date per invoice
--   credit_notes    approved ar transactions with a negative amount (AA.pm stores a credit note negated, reverse
--                   set); LedgerSMB does not record which invoice one credits: invoice_id NULL
--   payments        the AR lines of each payment (payment_links of type 1) on each invoice, less what the same
--                   payment's lines on credit notes set off against it (credit_applications); AR credits on an
--                   invoice with no payment link (paid when posted) are payments too; id = the AR line's
--                   entry_id; an overpayment (payment_post's money on account: its lines on an *_overpayment
--                   account, as LedgerSMB's overpayments view sums them) is a payment of no invoice
--   credit_applications  a payment that pays a credit note negatively and invoices positively applies the note
--                   to them, notes and invoices taken in date order; id = the note's AR line * 10^10 + invoice
--   suppliers, supplier_invoices, supplier_invoice_payments, supplier_payments  credit accounts of class 1, phone
--                   from their first phone contact; approved ap transactions; the AP lines of each payment on
--                   each of them (paid_on of an invoice: its last payment, once nothing is due); payments of
--                   class 1
--   purchase_orders oe of class 2 (not quotations): received when every item is, partially received when some
--                   is, cancelled when closed before that, else open
--   items / stock   parts with an inventory account (goods), reorder level = rop; stock per warehouse from
--                   warehouse_inventory (receipts and shipments), id = part * 10^10 + warehouse, and what of a
--                   part's on-hand quantity went through no warehouse as warehouse '(no warehouse)'
--   tickets, supplier_bank_accounts, bank_change_requests  not mapped (LedgerSMB has no tickets and records no
--                   verification of bank details or phone numbers)

DO $$
BEGIN
    IF to_regclass('public.entity_credit_account') IS NULL OR to_regclass('public.acc_trans') IS NULL
            OR to_regclass('public.payment_links') IS NULL THEN
        RAISE EXCEPTION 'this database has no LedgerSMB company (entity_credit_account, acc_trans, payment_links)';
    END IF;
    IF NOT EXISTS (SELECT FROM public.defaults WHERE setting_key = 'version' AND value LIKE '1.6%') THEN
        RAISE EXCEPTION 'this LedgerSMB company is version %, the mapping reads 1.6',
            (SELECT value FROM public.defaults WHERE setting_key = 'version');
    END IF;
END
$$;

-- footnote_owner reads exactly the tables the views read, and nothing else of LedgerSMB (not users, sessions).
DO $$
DECLARE
    t text;
BEGIN
    EXECUTE 'GRANT USAGE ON SCHEMA public TO footnote_owner';
    FOREACH t IN ARRAY ARRAY['defaults', 'entity', 'entity_credit_account', 'entity_to_location', 'location',
            'country', 'eca_to_contact', 'ar', 'ap', 'acc_trans', 'account', 'account_link', 'payment',
            'payment_links', 'oe', 'orderitems', 'parts', 'warehouse', 'warehouse_inventory'] LOOP
        EXECUTE format('GRANT SELECT ON public.%I TO footnote_owner', t);
    END LOOP;
END
$$;

SET ROLE footnote_owner;

CREATE OR REPLACE VIEW footnote_src.customers AS
SELECT
    c.id::bigint                                   AS id,
    e.name::text                                   AS name,
    c.meta_number::text                            AS customer_number,
    l.country::text                                AS country,
    l.city::text                                   AS city,
    c.terms::integer                               AS payment_terms_days,
    s.name::text                                   AS account_owner,
    nullif(c.creditlimit, 0)::numeric              AS credit_limit,
    ('erp://customer/' || c.id)::text              AS uri
FROM public.entity_credit_account AS c
JOIN public.entity AS e ON e.id = c.entity_id
LEFT JOIN public.entity AS s ON s.id = c.employee_id
LEFT JOIN LATERAL (
    SELECT lo.city, co.short_name AS country
    FROM public.entity_to_location AS el
    JOIN public.location AS lo ON lo.id = el.location_id
    LEFT JOIN public.country AS co ON co.id = lo.country_id
    WHERE el.entity_id = c.entity_id AND lo.active
    ORDER BY el.location_class, el.location_id LIMIT 1) AS l ON true
WHERE c.entity_class = 2;

CREATE OR REPLACE VIEW footnote_src.invoices AS
SELECT
    a.id::bigint                                   AS id,
    a.invnumber::text                              AS number,
    a.entity_credit_account::bigint                AS customer_id,
    a.transdate::date                              AS issue_date,
    coalesce(a.duedate, a.transdate)::date         AS due_date,
    a.netamount::numeric                           AS net,
    (a.amount - a.netamount)::numeric              AS tax,
    a.amount::numeric                              AS gross,
    ('erp://invoice/' || a.id)::text               AS uri
FROM public.ar AS a
WHERE a.approved AND a.amount > 0;

CREATE OR REPLACE VIEW footnote_src.credit_notes AS
SELECT
    a.id::bigint                                   AS id,
    a.invnumber::text                              AS number,
    NULL::bigint                                   AS invoice_id,
    a.entity_credit_account::bigint                AS customer_id,
    a.transdate::date                              AS issue_date,
    (-a.netamount)::numeric                        AS net,
    (a.netamount - a.amount)::numeric              AS tax,
    (-a.amount)::numeric                           AS gross,
    ('erp://credit_note/' || a.id)::text           AS uri
FROM public.ar AS a
WHERE a.approved AND a.amount < 0;

-- A payment puts its AR lines (payment_post links them to it, type 1) on each customer document it settles,
-- credit-positive: negative on a credit note (the payment pays the note), positive on an invoice. Within one
-- payment, the notes' total is set off against its invoices, notes and invoices each taken in date order. The views
-- start from LedgerSMB's documents (ar by id, acc_trans by trans_id): a filter on a customer or an invoice reaches
-- them before anything is aggregated. (payment_links has no index in LedgerSMB: it is hashed once.)
CREATE OR REPLACE VIEW footnote_src.credit_applications AS
WITH note AS (  -- what each payment takes off each credit note
    SELECT pl.payment_id, d.id AS note, d.entity_credit_account AS customer, d.transdate,
           min(ac.entry_id) AS entry_id, sum(-ac.amount) AS amount, max(ac.transdate) AS on_date
    FROM public.ar AS d
    CROSS JOIN LATERAL (  -- the note's AR lines, by its id (OFFSET 0: one index lookup per note)
        SELECT x.entry_id, x.amount, x.transdate FROM public.acc_trans AS x
        JOIN public.account_link AS k ON k.account_id = x.chart_id AND k.description = 'AR'
        WHERE x.trans_id = d.id AND x.approved OFFSET 0) AS ac
    JOIN public.payment_links AS pl ON pl.entry_id = ac.entry_id AND pl.type = 1
    WHERE d.approved AND d.amount < 0
    GROUP BY pl.payment_id, d.id, d.entity_credit_account, d.transdate
    HAVING sum(ac.amount) < 0),
inv AS (  -- what the same payments put on invoices
    SELECT pl.payment_id, a.id AS invoice, a.transdate, sum(ac.amount) AS amount, max(ac.transdate) AS on_date
    FROM public.payment_links AS pl
    JOIN public.acc_trans AS ac ON ac.entry_id = pl.entry_id AND ac.approved
    JOIN public.account_link AS k ON k.account_id = ac.chart_id AND k.description = 'AR'
    JOIN public.ar AS a ON a.id = ac.trans_id AND a.approved AND a.amount > 0
    WHERE pl.type = 1 AND pl.payment_id IN (SELECT n.payment_id FROM note AS n)
    GROUP BY pl.payment_id, a.id, a.transdate
    HAVING sum(ac.amount) > 0),
n AS (SELECT x.*, sum(x.amount) OVER w - x.amount AS lo, sum(x.amount) OVER w AS hi FROM note AS x
      WINDOW w AS (PARTITION BY x.payment_id ORDER BY x.transdate, x.note)),
i AS (SELECT x.*, sum(x.amount) OVER w - x.amount AS lo, sum(x.amount) OVER w AS hi FROM inv AS x
      WINDOW w AS (PARTITION BY x.payment_id ORDER BY x.transdate, x.invoice))
SELECT
    (n.entry_id::bigint * 10000000000 + i.invoice)::bigint AS id,
    n.note::bigint                                 AS credit_note_id,
    i.invoice::bigint                              AS invoice_id,
    n.customer::bigint                             AS customer_id,
    greatest(n.on_date, i.on_date)::date           AS applied_on,
    (least(n.hi, i.hi) - greatest(n.lo, i.lo))::numeric AS amount,
    ('erp://credit_note/' || n.note)::text         AS uri
FROM n JOIN i ON i.payment_id = n.payment_id AND least(n.hi, i.hi) > greatest(n.lo, i.lo);

-- An invoice's payments: what each payment puts on it, less what the same payment's credit notes set off
-- (credit_applications, computed the same way: no correlated subquery, whose cost estimate would set off JIT).
CREATE OR REPLACE VIEW footnote_src.payments AS
WITH applied AS (  -- per payment and invoice: what the payment's credit notes set off (as credit_applications)
    WITH note AS (  -- what each payment takes off each credit note
        SELECT pl.payment_id, d.id AS note, d.entity_credit_account AS customer, d.transdate,
               min(ac.entry_id) AS entry_id, sum(-ac.amount) AS amount, max(ac.transdate) AS on_date
        FROM public.ar AS d
        CROSS JOIN LATERAL (  -- the note's AR lines, by its id (OFFSET 0: one index lookup per note)
            SELECT x.entry_id, x.amount, x.transdate FROM public.acc_trans AS x
            JOIN public.account_link AS k ON k.account_id = x.chart_id AND k.description = 'AR'
            WHERE x.trans_id = d.id AND x.approved OFFSET 0) AS ac
        JOIN public.payment_links AS pl ON pl.entry_id = ac.entry_id AND pl.type = 1
        WHERE d.approved AND d.amount < 0
        GROUP BY pl.payment_id, d.id, d.entity_credit_account, d.transdate
        HAVING sum(ac.amount) < 0),
    inv AS (  -- what the same payments put on invoices
        SELECT pl.payment_id, a.id AS invoice, a.transdate, sum(ac.amount) AS amount, max(ac.transdate) AS on_date
        FROM public.payment_links AS pl
        JOIN public.acc_trans AS ac ON ac.entry_id = pl.entry_id AND ac.approved
        JOIN public.account_link AS k ON k.account_id = ac.chart_id AND k.description = 'AR'
        JOIN public.ar AS a ON a.id = ac.trans_id AND a.approved AND a.amount > 0
        WHERE pl.type = 1 AND pl.payment_id IN (SELECT n.payment_id FROM note AS n)
        GROUP BY pl.payment_id, a.id, a.transdate
        HAVING sum(ac.amount) > 0),
    n AS (SELECT x.*, sum(x.amount) OVER w - x.amount AS lo, sum(x.amount) OVER w AS hi FROM note AS x
          WINDOW w AS (PARTITION BY x.payment_id ORDER BY x.transdate, x.note)),
    i AS (SELECT x.*, sum(x.amount) OVER w - x.amount AS lo, sum(x.amount) OVER w AS hi FROM inv AS x
          WINDOW w AS (PARTITION BY x.payment_id ORDER BY x.transdate, x.invoice))
    SELECT n.payment_id, i.invoice, sum(least(n.hi, i.hi) - greatest(n.lo, i.lo)) AS amount
    FROM n JOIN i ON i.payment_id = n.payment_id AND least(n.hi, i.hi) > greatest(n.lo, i.lo)
    GROUP BY n.payment_id, i.invoice),
paid AS (  -- the payment's lines on each invoice's transaction: its AR lines, and the paying (cash) account
    SELECT pl.payment_id, a.id AS invoice, a.entity_credit_account AS customer, a.transdate,
           min(ac.entry_id) FILTER (WHERE k.account_id IS NOT NULL) AS entry_id,
           sum(ac.amount) FILTER (WHERE k.account_id IS NOT NULL) AS amount, max(ac.transdate) AS on_date,
           min(ac.chart_id) FILTER (WHERE k.account_id IS NULL) AS cash_account
    FROM public.ar AS a
    JOIN public.acc_trans AS ac ON ac.trans_id = a.id AND ac.approved AND ac.amount <> 0
    JOIN public.payment_links AS pl ON pl.entry_id = ac.entry_id AND pl.type = 1
    LEFT JOIN public.account_link AS k ON k.account_id = ac.chart_id AND k.description = 'AR'
    WHERE a.approved AND a.amount > 0
    GROUP BY pl.payment_id, a.id, a.entity_credit_account, a.transdate
    HAVING sum(ac.amount) FILTER (WHERE k.account_id IS NOT NULL) > 0),
settled AS (
    SELECT p.*, coalesce(o.amount, 0) AS set_off
    FROM paid AS p LEFT JOIN applied AS o ON o.payment_id = p.payment_id AND o.invoice = p.invoice)
SELECT
    s.entry_id::bigint                             AS id,
    s.invoice::bigint                              AS invoice_id,
    s.customer::bigint                             AS customer_id,
    s.on_date::date                                AS paid_on,
    (s.amount - s.set_off)::numeric                AS amount,
    c.description::text                            AS method,
    ('erp://payment/' || s.entry_id)::text         AS uri
FROM settled AS s
LEFT JOIN public.account AS c ON c.id = s.cash_account
WHERE s.amount > s.set_off
UNION ALL  -- receipts posted on the invoice itself: its AR credits linked to no payment
SELECT
    ac.entry_id::bigint, a.id::bigint, a.entity_credit_account::bigint, ac.transdate::date, ac.amount::numeric,
    NULL::text, ('erp://payment/' || ac.entry_id)::text
FROM public.ar AS a
CROSS JOIN LATERAL (  -- the invoice's AR credits, by its id (OFFSET 0: one index lookup per invoice)
    SELECT x.entry_id, x.amount, x.transdate FROM public.acc_trans AS x
    JOIN public.account_link AS k ON k.account_id = x.chart_id AND k.description = 'AR'
    WHERE x.trans_id = a.id AND x.approved AND x.amount > 0 OFFSET 0) AS ac
WHERE a.approved AND a.amount > 0
  AND NOT EXISTS (SELECT FROM public.payment_links AS pl WHERE pl.entry_id = ac.entry_id)
UNION ALL  -- money on account: an overpayment's lines on an overpayment account, as LedgerSMB's overpayments sums them
SELECT
    min(ac.entry_id)::bigint, NULL::bigint, p.entity_credit_id::bigint, p.payment_date::date, sum(ac.amount)::numeric,
    'overpayment'::text, ('erp://payment/' || min(ac.entry_id))::text
FROM public.account_link AS k
JOIN public.acc_trans AS ac ON ac.chart_id = k.account_id AND ac.approved
JOIN public.payment_links AS pl ON pl.entry_id = ac.entry_id AND pl.type IN (0, 2)
JOIN public.payment AS p ON p.id = pl.payment_id AND p.payment_class = 2 AND p.gl_id IS NOT NULL
WHERE k.description = 'AR_overpayment'
GROUP BY p.id, p.entity_credit_id, p.payment_date
HAVING sum(ac.amount) > 0;

CREATE OR REPLACE VIEW footnote_src.suppliers AS
SELECT
    c.id::bigint                                   AS id,
    e.name::text                                   AS name,
    c.meta_number::text                            AS supplier_number,
    l.country::text                                AS country,
    ph.contact::text                               AS phone,
    NULL::date                                     AS phone_since,
    NULL::boolean                                  AS phone_verified,
    NULL::text                                     AS phone_verification,
    ('erp://supplier/' || c.id)::text              AS uri
FROM public.entity_credit_account AS c
JOIN public.entity AS e ON e.id = c.entity_id
LEFT JOIN LATERAL (
    SELECT co.short_name AS country
    FROM public.entity_to_location AS el
    JOIN public.location AS lo ON lo.id = el.location_id
    LEFT JOIN public.country AS co ON co.id = lo.country_id
    WHERE el.entity_id = c.entity_id AND lo.active
    ORDER BY el.location_class, el.location_id LIMIT 1) AS l ON true
LEFT JOIN LATERAL (  -- primary, secondary or cell phone
    SELECT t.contact FROM public.eca_to_contact AS t
    WHERE t.credit_id = c.id AND t.contact_class_id IN (1, 2, 3)
    ORDER BY t.contact_class_id, t.contact LIMIT 1) AS ph ON true
WHERE c.entity_class = 1;

-- What each payment puts on each supplier invoice's payable (debit-negative: amount = -line).
CREATE OR REPLACE VIEW footnote_src.supplier_invoice_payments AS
SELECT
    min(ac.entry_id)::bigint                       AS id,
    a.id::bigint                                   AS supplier_invoice_id,
    a.entity_credit_account::bigint                AS supplier_id,
    max(ac.transdate)::date                        AS paid_on,
    (-sum(ac.amount))::numeric                     AS amount,
    ('erp://supplier_payment/' || pl.payment_id)::text AS uri
FROM public.ap AS a
JOIN public.acc_trans AS ac ON ac.trans_id = a.id AND ac.approved
JOIN public.account_link AS k ON k.account_id = ac.chart_id AND k.description = 'AP'
JOIN public.payment_links AS pl ON pl.entry_id = ac.entry_id AND pl.type = 1
WHERE a.approved AND a.amount > 0
GROUP BY a.id, a.entity_credit_account, pl.payment_id
HAVING sum(ac.amount) < 0;

CREATE OR REPLACE VIEW footnote_src.supplier_invoices AS
SELECT
    a.id::bigint                                   AS id,
    a.invnumber::text                              AS number,
    a.entity_credit_account::bigint                AS supplier_id,
    a.transdate::date                              AS invoice_date,
    coalesce(a.duedate, a.transdate)::date         AS due_date,
    a.amount::numeric                              AS gross,
    (CASE WHEN b.due = 0 THEN b.last_paid END)::date AS paid_on,
    ('erp://supplier_invoice/' || a.id)::text      AS uri
FROM public.ap AS a
CROSS JOIN LATERAL (
    SELECT sum(ac.amount) AS due, max(ac.transdate) FILTER (WHERE ac.amount < 0) AS last_paid
    FROM public.acc_trans AS ac
    JOIN public.account_link AS k ON k.account_id = ac.chart_id AND k.description = 'AP'
    WHERE ac.trans_id = a.id AND ac.approved) AS b
WHERE a.approved AND a.amount > 0;

CREATE OR REPLACE VIEW footnote_src.supplier_payments AS
SELECT
    p.id::bigint                                   AS id,
    p.entity_credit_id::bigint                     AS supplier_id,
    NULL::bigint                                   AS bank_account_id,
    p.payment_date::date                           AS paid_on,
    (-sum(ac.amount))::numeric                     AS amount,
    p.reference::text                              AS reference,
    ('erp://supplier_payment/' || p.id)::text      AS uri
FROM public.payment AS p
JOIN public.payment_links AS pl ON pl.payment_id = p.id AND pl.type = 1
JOIN public.acc_trans AS ac ON ac.entry_id = pl.entry_id AND ac.approved
JOIN public.account_link AS k ON k.account_id = ac.chart_id AND k.description = 'AP'
WHERE p.payment_class = 1
GROUP BY p.id, p.entity_credit_id, p.payment_date, p.reference
HAVING sum(ac.amount) < 0;

CREATE OR REPLACE VIEW footnote_src.purchase_orders AS
SELECT
    o.id::bigint                                   AS id,
    coalesce(o.ordnumber, o.id::text)::text        AS number,
    o.entity_credit_account::bigint                AS supplier_id,
    o.transdate::date                              AS ordered_on,
    coalesce(o.reqdate, o.transdate)::date         AS expected_on,
    (CASE WHEN r.all_received THEN 'received'
          WHEN o.closed THEN 'cancelled'
          WHEN r.any_received THEN 'partially_received'
          ELSE 'open' END)::text                   AS status,
    o.netamount::numeric                           AS net,
    ('erp://purchase_order/' || o.id)::text        AS uri
FROM public.oe AS o
CROSS JOIN LATERAL (
    SELECT coalesce(bool_and(coalesce(i.ship, 0) >= i.qty), false) AS all_received,
           coalesce(bool_or(coalesce(i.ship, 0) > 0), false) AS any_received
    FROM public.orderitems AS i WHERE i.trans_id = o.id) AS r
WHERE o.oe_class_id = 2 AND NOT o.quotation;

CREATE OR REPLACE VIEW footnote_src.items AS
SELECT
    p.id::bigint                                   AS id,
    p.partnumber::text                             AS sku,
    p.description::text                            AS name,
    p.unit::text                                   AS unit,
    p.rop::numeric                                 AS reorder_level,
    ('erp://item/' || p.id)::text                  AS uri
FROM public.parts AS p
WHERE p.inventory_accno_id IS NOT NULL AND NOT p.obsolete;

CREATE OR REPLACE VIEW footnote_src.stock AS
WITH moved AS (
    SELECT i.parts_id, i.warehouse_id, sum(i.qty) AS quantity, max(i.shippingdate) AS counted_on
    FROM public.warehouse_inventory AS i
    GROUP BY i.parts_id, i.warehouse_id)
SELECT
    (m.parts_id::bigint * 10000000000 + m.warehouse_id)::bigint AS id,
    m.parts_id::bigint                             AS item_id,
    w.description::text                            AS warehouse,
    m.quantity::numeric                            AS quantity,
    m.counted_on::date                             AS counted_on,
    ('erp://stock/' || (m.parts_id::bigint * 10000000000 + m.warehouse_id))::text AS uri
FROM moved AS m
JOIN public.warehouse AS w ON w.id = m.warehouse_id
JOIN public.parts AS p ON p.id = m.parts_id AND p.inventory_accno_id IS NOT NULL AND NOT p.obsolete
UNION ALL  -- on hand, not received into or shipped from any warehouse
SELECT
    (p.id::bigint * 10000000000)::bigint, p.id::bigint, '(no warehouse)'::text,
    (p.onhand - coalesce(s.quantity, 0))::numeric, NULL::date, ('erp://stock/' || p.id::bigint * 10000000000)::text
FROM public.parts AS p
LEFT JOIN (SELECT m.parts_id, sum(m.quantity) AS quantity FROM moved AS m GROUP BY m.parts_id) AS s
    ON s.parts_id = p.id
WHERE p.inventory_accno_id IS NOT NULL AND NOT p.obsolete AND p.onhand <> coalesce(s.quantity, 0);

-- what LedgerSMB does not record, and the amounts' currency
UPDATE footnote.settings SET value = 'tickets,ticket_severity,bank_change_requests,phone_verification'
WHERE key = 'not_recorded';
UPDATE footnote.settings SET value = (
        SELECT split_part(d.value, ':', 1) FROM public.defaults AS d WHERE d.setting_key = 'curr')
WHERE key = 'currency';

RESET ROLE;
