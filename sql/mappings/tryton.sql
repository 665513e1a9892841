-- footnote-pg: the mapping of the footnote_src views onto Tryton 8 (trytond 8.x on PostgreSQL).
--
-- Applied by `footnote-pg install --mapping tryton` in the Tryton database, after footnote-pg is installed,
-- as a role that may grant SELECT on Tryton's tables (their owner or a superuser). Needs the account_invoice
-- module; sale, purchase, stock, sale_complaint and account_credit_limit are mapped when they are activated.
-- Tryton's tables are read in schema public, for the first company (the lowest company_company id); amounts
-- are in that company's currency, taken from the account move lines (debit - credit), so an invoice in
-- another currency counts at the rate it was posted with. Every column is cast to the contract's type but keys,
-- which are Tryton's own integer columns (so its indexes serve lookups by them) or a bigint made of two; deep
-- links are erp://<type>/<id> with Tryton's own ids. Views read only Tryton's tables (no helper objects), so
-- `footnote-pg mapping drop` frees every table for trytond-admin's migrations.
--
-- What maps to what:
--   customers       parties with a customer invoice or credit note, a sale or a complaint (not the company's
--                   own party); payment_terms_days from the customer payment term when it is one fixed delay
--                   (else NULL), credit_limit from account_credit_limit; Tryton has no account owner
--   invoices        posted or paid customer invoices (type out, positive total), and those cancelled by a
--                   credit note; due_date is the earliest maturity date of the invoice's receivable lines
--   due_lines       the receivable move lines of each invoice (one per instalment), by maturity date
--   credit_notes    negative customer invoices, against the invoice their lines credit (the line's origin);
--                   credit_applications: applied to that invoice once reconciled, else open on the account
--   payments        what settled each invoice: its payment lines, and the other lines reconciled with it
--                   (receipts booked by hand, write-offs), a line reconciled with several invoices shared in
--                   invoice-date order; id = move line id * 10^10 + invoice id; receivable credits of a
--                   party reconciled with nothing are money on account (invoice_id NULL, id = line id * 10^10)
--   tickets         sale complaints (sale_complaint); severity is not recorded, closed_on is the day a closed
--                   complaint was last written (Tryton keeps no closing date)
--   suppliers       parties with a supplier invoice or a purchase; phone from their first phone contact
--   supplier_invoices / supplier_payments  supplier invoices (type in) and the lines that paid them;
--                   supplier_invoice_payments: what each line paid of which invoice, partial payments too
--                   (id = move line id * 10^10 + invoice id)
--   purchase_orders purchases (purchase); received when the shipments are
--   items / stock   goods (product); stock is the sum of done stock moves into and out of each warehouse's
--                   storage zone; id = product id * 10^10 + warehouse id; reorder levels are not recorded
--   supplier_bank_accounts, bank_change_requests  not mapped (Tryton records no verification of either)

DO $$
BEGIN
    IF to_regclass('public.ir_module') IS NULL OR NOT EXISTS (
            SELECT FROM public.ir_module WHERE name = 'account_invoice' AND state = 'activated') THEN
        RAISE EXCEPTION 'this database has no Tryton with the account_invoice module activated';
    END IF;
END
$$;

-- footnote_owner reads exactly the tables the views read, and nothing else of Tryton (not res_user).
DO $$
DECLARE
    t text;
BEGIN
    EXECUTE 'GRANT USAGE ON SCHEMA public TO footnote_owner';
    FOREACH t IN ARRAY ARRAY['ir_module', 'company_company', 'currency_currency', 'party_party', 'party_address',
            'country_country', 'party_contact_mechanism', 'party_party_payment_term',
            'account_invoice_payment_term_line', 'account_invoice_payment_term_line_delta', 'account_invoice',
            'account_invoice_line', 'account_invoice-account_move_line', 'account_invoice-additional-account_move',
            'account_move', 'account_move_line', 'account_move_reconciliation', 'account_journal',
            'currency_currency_rate', 'product_product', 'product_template', 'product_uom',
            'party_party_credit_limit_amount', 'sale_sale', 'purchase_purchase', 'purchase_line',
            'sale_complaint', 'sale_complaint_type', 'stock_move', 'stock_location'] LOOP
        IF to_regclass(format('public.%I', t)) IS NOT NULL THEN
            EXECUTE format('GRANT SELECT ON public.%I TO footnote_owner', t);
        END IF;
    END LOOP;
END
$$;

SET ROLE footnote_owner;

CREATE OR REPLACE VIEW footnote_src.invoices AS
WITH co AS (SELECT c.id FROM public.company_company AS c ORDER BY c.id LIMIT 1),
doc AS (
    SELECT i.id, i.number, i.party, i.invoice_date,
           (SELECT sum(l.debit - l.credit) FROM public.account_move_line AS l
            WHERE l.move = i.move AND l.account = i.account) AS gross,
           (SELECT coalesce(sum(l.credit - l.debit), 0) FROM public.account_move_line AS l
            WHERE l.move = i.move AND l.origin LIKE 'account.invoice.tax,%') AS tax,
           (SELECT min(l.maturity_date) FROM public.account_move_line AS l
            WHERE l.move = i.move AND l.account = i.account) AS due_date
    FROM public.account_invoice AS i JOIN co ON co.id = i.company
    WHERE i.type = 'out' AND i.move IS NOT NULL AND i.number IS NOT NULL
      AND (i.state IN ('posted', 'paid')
           OR (i.state = 'cancelled' AND EXISTS (SELECT FROM public.account_invoice AS n WHERE n.move = i.cancel_move))))
SELECT
    d.id                                           AS id,
    d.number::text                                 AS number,
    d.party                                        AS customer_id,
    d.invoice_date::date                           AS issue_date,
    coalesce(d.due_date, d.invoice_date)::date     AS due_date,
    (d.gross - d.tax)::numeric                     AS net,
    d.tax::numeric                                 AS tax,
    d.gross::numeric                               AS gross,
    ('erp://invoice/' || d.id)::text               AS uri
FROM doc AS d
WHERE d.gross > 0;

CREATE OR REPLACE VIEW footnote_src.credit_notes AS
WITH co AS (SELECT c.id FROM public.company_company AS c ORDER BY c.id LIMIT 1),
doc AS (
    SELECT i.id, i.number, i.party, i.invoice_date,
           (SELECT sum(l.credit - l.debit) FROM public.account_move_line AS l
            WHERE l.move = i.move AND l.account = i.account) AS gross,
           (SELECT coalesce(sum(l.debit - l.credit), 0) FROM public.account_move_line AS l
            WHERE l.move = i.move AND l.origin LIKE 'account.invoice.tax,%') AS tax,
           (SELECT min(ol.invoice) FROM public.account_invoice_line AS cl
            JOIN public.account_invoice_line AS ol ON ol.id = split_part(cl.origin, ',', 2)::integer
            WHERE cl.invoice = i.id AND cl.origin LIKE 'account.invoice.line,%') AS credited
    FROM public.account_invoice AS i JOIN co ON co.id = i.company
    WHERE i.type = 'out' AND i.move IS NOT NULL AND i.number IS NOT NULL AND i.state IN ('posted', 'paid'))
SELECT
    d.id                                           AS id,
    d.number::text                                 AS number,
    d.credited                                     AS invoice_id,
    d.party                                        AS customer_id,
    d.invoice_date::date                           AS issue_date,
    (d.gross - d.tax)::numeric                     AS net,
    d.tax::numeric                                 AS tax,
    d.gross::numeric                               AS gross,
    ('erp://credit_note/' || d.id)::text           AS uri
FROM doc AS d
WHERE d.gross > 0;

-- An invoice's payments: the lines added to it as payments (Tryton's Pay wizard), and the lines reconciled
-- with its receivable lines that belong to no invoice (a receipt booked by hand, a write-off), the latter
-- shared among the invoices of the reconciliation in invoice-date order, each up to what its own payment lines
-- and reconciled credit notes leave.
CREATE OR REPLACE VIEW footnote_src.payments AS
WITH co AS (SELECT c.id FROM public.company_company AS c ORDER BY c.id LIMIT 1),
doc AS (  -- customer invoices and credit notes: what the invoices and credit_notes views read
    SELECT i.id, i.party, i.account, i.move, i.invoice_date,
           (SELECT sum(l.debit - l.credit) FROM public.account_move_line AS l
            WHERE l.move = i.move AND l.account = i.account) AS gross,
           (i.state IN ('posted', 'paid')
            OR (i.state = 'cancelled' AND EXISTS (SELECT FROM public.account_invoice AS n WHERE n.move = i.cancel_move)))
               AS mapped
    FROM public.account_invoice AS i JOIN co ON co.id = i.company
    WHERE i.type = 'out' AND i.move IS NOT NULL AND i.number IS NOT NULL),
inv AS (SELECT d.* FROM doc AS d WHERE d.mapped AND d.gross > 0),
credited AS (  -- credit note -> the invoice it credits
    SELECT cl.invoice AS note, min(ol.invoice) AS invoice
    FROM public.account_invoice_line AS cl
    JOIN public.account_invoice_line AS ol ON ol.id = split_part(cl.origin, ',', 2)::integer
    WHERE cl.origin LIKE 'account.invoice.line,%' AND cl.invoice IN (SELECT d.id FROM doc AS d WHERE d.gross < 0)
    GROUP BY cl.invoice),
to_pay AS (  -- receivable lines of every document: of its move and of its additional (rescheduling) moves
    SELECT d.id AS doc, l.id AS line, l.reconciliation, l.debit - l.credit AS amount
    FROM doc AS d JOIN public.account_move_line AS l ON l.account = d.account
     AND (l.move = d.move OR l.move IN (SELECT am.move FROM public."account_invoice-additional-account_move" AS am
                                         WHERE am.invoice = d.id))),
line AS (
    SELECT l.id, l.reconciliation, l.credit - l.debit AS amount, m.date, j.name AS journal
    FROM public.account_move_line AS l
    JOIN public.account_move AS m ON m.id = l.move
    LEFT JOIN public.account_journal AS j ON j.id = m.journal),
explicit AS (
    SELECT p.invoice, l.id AS line, l.reconciliation, l.amount, l.date, l.journal
    FROM public."account_invoice-account_move_line" AS p
    JOIN inv ON inv.id = p.invoice
    JOIN line AS l ON l.id = p.line),
need AS (  -- per reconciliation and invoice: what lines of no invoice settle
    SELECT t.reconciliation, t.doc AS invoice, inv.invoice_date,
           sum(t.amount)
           - coalesce((SELECT sum(e.amount) FROM explicit AS e
                       WHERE e.invoice = t.doc AND e.reconciliation = t.reconciliation), 0)
           - coalesce((SELECT sum(-n.amount) FROM to_pay AS n JOIN credited AS c ON c.note = n.doc
                       WHERE c.invoice = t.doc AND n.reconciliation = t.reconciliation), 0) AS amount
    FROM to_pay AS t JOIN inv ON inv.id = t.doc
    WHERE t.reconciliation IS NOT NULL
    GROUP BY t.reconciliation, t.doc, inv.invoice_date),
needs AS (
    SELECT n.*, sum(n.amount) OVER w - n.amount AS lo, sum(n.amount) OVER w AS hi
    FROM need AS n WHERE n.amount > 0
    WINDOW w AS (PARTITION BY n.reconciliation ORDER BY n.invoice_date, n.invoice)),
free AS (  -- reconciled lines of no invoice that are no invoice's payment line
    SELECT l.*, sum(l.amount) OVER w - l.amount AS lo, sum(l.amount) OVER w AS hi
    FROM line AS l
    WHERE l.reconciliation IN (SELECT n.reconciliation FROM needs AS n) AND l.amount > 0
      AND NOT EXISTS (SELECT FROM to_pay AS t WHERE t.line = l.id)
      AND NOT EXISTS (SELECT FROM public."account_invoice-account_move_line" AS p WHERE p.line = l.id)
    WINDOW w AS (PARTITION BY l.reconciliation ORDER BY l.date, l.id)),
allocated AS (
    SELECT e.invoice, e.line, e.amount, e.date, e.journal FROM explicit AS e WHERE e.amount > 0
    UNION ALL
    SELECT n.invoice, f.id, least(n.hi, f.hi) - greatest(n.lo, f.lo), f.date, f.journal
    FROM needs AS n JOIN free AS f ON f.reconciliation = n.reconciliation
    WHERE least(n.hi, f.hi) > greatest(n.lo, f.lo))
SELECT
    (a.line::bigint * 10000000000 + a.invoice)::bigint AS id,
    a.invoice                                      AS invoice_id,
    inv.party                                      AS customer_id,
    a.date::date                                   AS paid_on,
    a.amount::numeric                              AS amount,
    a.journal::text                                AS method,
    ('erp://payment/' || (a.line::bigint * 10000000000 + a.invoice))::text AS uri
FROM allocated AS a JOIN inv ON inv.id = a.invoice
UNION ALL  -- money on account: a customer's receivable credit in no document's move, reconciled with nothing yet
SELECT
    (l.id::bigint * 10000000000)::bigint, NULL::integer, l.party, m.date::date, (l.credit - l.debit)::numeric,
    j.name::text, ('erp://payment/' || l.id::bigint * 10000000000)::text
FROM public.account_move_line AS l
JOIN public.account_move AS m ON m.id = l.move
JOIN co ON co.id = m.company
LEFT JOIN public.account_journal AS j ON j.id = m.journal
WHERE l.reconciliation IS NULL AND l.credit > l.debit AND l.party IS NOT NULL AND m.state = 'posted'
  AND l.account IN (SELECT d.account FROM doc AS d)
  AND NOT EXISTS (SELECT FROM doc AS d WHERE d.move = l.move)
  AND NOT EXISTS (SELECT FROM public."account_invoice-account_move_line" AS p WHERE p.line = l.id);

-- Due lines: the receivable lines of each mapped invoice's move, one per instalment of its payment term, due on
-- the line's maturity date (the invoice date where it has none); amounts in company currency.
CREATE OR REPLACE VIEW footnote_src.due_lines AS
SELECT
    l.id                                           AS id,
    i.id                                           AS invoice_id,
    i.customer_id                                  AS customer_id,
    coalesce(l.maturity_date, i.issue_date)::date  AS due_date,
    (l.debit - l.credit)::numeric                  AS amount,
    i.uri::text                                    AS uri
FROM footnote_src.invoices AS i
JOIN public.account_invoice AS ai ON ai.id = i.id
JOIN public.account_move_line AS l ON l.move = ai.move AND l.account = ai.account;

-- A credit note settles the invoice it credits once Tryton has reconciled all its receivable lines (with that
-- invoice's lines, or both with a payment), from the day of that reconciliation; until then it is a credit on
-- the customer's account.
CREATE OR REPLACE VIEW footnote_src.credit_applications AS
SELECT
    n.id                                           AS id,
    n.id                                           AS credit_note_id,
    n.invoice_id                                   AS invoice_id,
    n.customer_id                                  AS customer_id,
    r.applied_on::date                             AS applied_on,
    n.gross::numeric                               AS amount,
    n.uri::text                                    AS uri
FROM footnote_src.credit_notes AS n
JOIN public.account_invoice AS ai ON ai.id = n.id
JOIN LATERAL (
    SELECT max(mr.date) AS applied_on, bool_and(l.reconciliation IS NOT NULL) AS settled
    FROM public.account_move_line AS l
    LEFT JOIN public.account_move_reconciliation AS mr ON mr.id = l.reconciliation
    WHERE l.move = ai.move AND l.account = ai.account) AS r ON r.settled
WHERE n.invoice_id IS NOT NULL;

CREATE OR REPLACE VIEW footnote_src.supplier_invoices AS
WITH co AS (SELECT c.id FROM public.company_company AS c ORDER BY c.id LIMIT 1),
doc AS (
    SELECT i.id, i.number, i.party, i.invoice_date, i.state,
           (SELECT sum(l.credit - l.debit) FROM public.account_move_line AS l
            WHERE l.move = i.move AND l.account = i.account) AS gross,
           (SELECT min(l.maturity_date) FROM public.account_move_line AS l
            WHERE l.move = i.move AND l.account = i.account) AS due_date,
           (SELECT max(coalesce(m.date, r.date)) FROM public.account_move_line AS l  -- the day of the payment
            JOIN public.account_move_reconciliation AS r ON r.id = l.reconciliation
            LEFT JOIN public.account_move_line AS o ON o.reconciliation = l.reconciliation AND o.move <> i.move
            LEFT JOIN public.account_move AS m ON m.id = o.move
            WHERE l.move = i.move AND l.account = i.account) AS reconciled_on
    FROM public.account_invoice AS i JOIN co ON co.id = i.company
    WHERE i.type = 'in' AND i.move IS NOT NULL AND i.number IS NOT NULL AND i.state IN ('posted', 'paid'))
SELECT
    d.id                                           AS id,
    d.number::text                                 AS number,
    d.party                                        AS supplier_id,
    d.invoice_date::date                           AS invoice_date,
    coalesce(d.due_date, d.invoice_date)::date     AS due_date,
    d.gross::numeric                               AS gross,
    (CASE WHEN d.state = 'paid' THEN d.reconciled_on END)::date AS paid_on,
    ('erp://supplier_invoice/' || d.id)::text      AS uri
FROM doc AS d
WHERE d.gross > 0;

-- What settled each supplier invoice, written like the payments of customer invoices: its payment lines (a
-- partial payment stays one until the invoice is reconciled), and the other lines reconciled with its payable lines
-- (payments booked by hand, write-offs), a line reconciled with several invoices shared in invoice-date order;
-- id = move line id * 10^10 + invoice id, the deep link the paying line's.
CREATE OR REPLACE VIEW footnote_src.supplier_invoice_payments AS
WITH co AS (SELECT c.id FROM public.company_company AS c ORDER BY c.id LIMIT 1),
inv AS (
    SELECT i.id, i.party, i.invoice_date, i.move, i.account
    FROM public.account_invoice AS i JOIN co ON co.id = i.company
    WHERE i.type = 'in' AND i.move IS NOT NULL AND i.number IS NOT NULL AND i.state IN ('posted', 'paid')),
to_pay AS (  -- payable lines of every supplier invoice: of its move and of its additional (rescheduling) moves
    SELECT d.id AS doc, l.id AS line, l.reconciliation, l.credit - l.debit AS amount
    FROM inv AS d JOIN public.account_move_line AS l ON l.account = d.account
     AND (l.move = d.move OR l.move IN (SELECT am.move FROM public."account_invoice-additional-account_move" AS am
                                         WHERE am.invoice = d.id))),
line AS (
    SELECT l.id, l.move, l.reconciliation, l.debit - l.credit AS amount, m.date
    FROM public.account_move_line AS l
    JOIN public.account_move AS m ON m.id = l.move),
explicit AS (
    SELECT p.invoice, l.id AS line, l.reconciliation, l.amount, l.date
    FROM public."account_invoice-account_move_line" AS p
    JOIN inv ON inv.id = p.invoice
    JOIN line AS l ON l.id = p.line),
need AS (  -- per reconciliation and invoice: what lines of no invoice settle
    SELECT t.reconciliation, t.doc AS invoice, inv.invoice_date,
           sum(t.amount)
           - coalesce((SELECT sum(e.amount) FROM explicit AS e
                       WHERE e.invoice = t.doc AND e.reconciliation = t.reconciliation), 0) AS amount
    FROM to_pay AS t JOIN inv ON inv.id = t.doc
    WHERE t.reconciliation IS NOT NULL
    GROUP BY t.reconciliation, t.doc, inv.invoice_date),
needs AS (
    SELECT n.*, sum(n.amount) OVER w - n.amount AS lo, sum(n.amount) OVER w AS hi
    FROM need AS n WHERE n.amount > 0
    WINDOW w AS (PARTITION BY n.reconciliation ORDER BY n.invoice_date, n.invoice)),
free AS (  -- reconciled lines of no invoice that are no invoice's payment line
    SELECT l.*, sum(l.amount) OVER w - l.amount AS lo, sum(l.amount) OVER w AS hi
    FROM line AS l
    WHERE l.reconciliation IN (SELECT n.reconciliation FROM needs AS n) AND l.amount > 0
      AND NOT EXISTS (SELECT FROM to_pay AS t WHERE t.line = l.id)
      AND NOT EXISTS (SELECT FROM public.account_invoice AS i WHERE i.move = l.move)  -- a supplier credit note's
      AND NOT EXISTS (SELECT FROM public."account_invoice-account_move_line" AS p WHERE p.line = l.id)
    WINDOW w AS (PARTITION BY l.reconciliation ORDER BY l.date, l.id)),
allocated AS (
    SELECT e.invoice, e.line, e.amount, e.date FROM explicit AS e WHERE e.amount > 0
    UNION ALL
    SELECT n.invoice, f.id, least(n.hi, f.hi) - greatest(n.lo, f.lo), f.date
    FROM needs AS n JOIN free AS f ON f.reconciliation = n.reconciliation
    WHERE least(n.hi, f.hi) > greatest(n.lo, f.lo))
SELECT
    (a.line::bigint * 10000000000 + a.invoice)::bigint AS id,
    si.id                                         AS supplier_invoice_id,
    si.supplier_id                                AS supplier_id,
    a.date::date                                   AS paid_on,
    a.amount::numeric                              AS amount,
    ('erp://supplier_payment/' || a.line)::text    AS uri
FROM allocated AS a JOIN footnote_src.supplier_invoices AS si ON si.id = a.invoice;

-- Payments to suppliers: lines that paid a supplier invoice (its payment lines, or reconciled with it).
CREATE OR REPLACE VIEW footnote_src.supplier_payments AS
WITH co AS (SELECT c.id FROM public.company_company AS c ORDER BY c.id LIMIT 1),
doc AS (
    SELECT i.id, i.account, i.move
    FROM public.account_invoice AS i JOIN co ON co.id = i.company
    WHERE i.type = 'in' AND i.move IS NOT NULL AND i.number IS NOT NULL AND i.state IN ('posted', 'paid')),
paying AS (
    SELECT p.line FROM public."account_invoice-account_move_line" AS p JOIN doc AS d ON d.id = p.invoice
    UNION
    SELECT o.id FROM doc AS d
    JOIN public.account_move_line AS l ON l.move = d.move AND l.account = d.account
    JOIN public.account_move_line AS o ON o.reconciliation = l.reconciliation
    WHERE NOT EXISTS (SELECT FROM public.account_invoice AS i WHERE i.move = o.move))
SELECT
    l.id                                           AS id,
    l.party                                        AS supplier_id,
    NULL::bigint                                   AS bank_account_id,
    m.date::date                                   AS paid_on,
    (l.debit - l.credit)::numeric                  AS amount,
    coalesce(m.number, m.description)::text        AS reference,
    ('erp://supplier_payment/' || l.id)::text      AS uri
FROM paying AS p
JOIN public.account_move_line AS l ON l.id = p.line
JOIN public.account_move AS m ON m.id = l.move
WHERE l.debit > l.credit AND l.party IS NOT NULL;

CREATE OR REPLACE VIEW footnote_src.items AS SELECT
    p.id                                           AS id,
    coalesce(p.code, t.code)::text                 AS sku,
    t.name::text                                   AS name,
    coalesce(u.symbol, u.name)::text               AS unit,
    NULL::numeric                                  AS reorder_level,
    ('erp://item/' || p.id)::text                  AS uri
FROM public.product_product AS p
JOIN public.product_template AS t ON t.id = p.template
LEFT JOIN public.product_uom AS u ON u.id = t.default_uom
WHERE t.type = 'goods';

-- Views that read optional modules, built when those are activated (through footnote_src.map_view, which takes
-- Tryton's integer keys where the contract's placeholders have bigint).
DO $$
DECLARE
    active text[] := ARRAY(SELECT m.name FROM public.ir_module AS m WHERE m.state = 'activated');
    has_sale boolean := 'sale' = ANY (active);
    has_purchase boolean := 'purchase' = ANY (active);
    has_complaint boolean := 'sale_complaint' = ANY (active);
    has_limit boolean := 'account_credit_limit' = ANY (active);
    has_stock boolean := 'stock' = ANY (active);
BEGIN
    PERFORM footnote_src.map_view('customers', format($v$
    WITH co AS (SELECT c.id, c.party FROM public.company_company AS c ORDER BY c.id LIMIT 1)
    SELECT
        p.id                                       AS id,
        p.name::text                               AS name,
        p.code::text                               AS customer_number,
        a.country::text                            AS country,
        a.city::text                               AS city,
        terms.days::integer                        AS payment_terms_days,
        NULL::text                                 AS account_owner,
        %s::numeric                                AS credit_limit,
        ('erp://customer/' || p.id)::text          AS uri
    FROM public.party_party AS p
    CROSS JOIN co
    LEFT JOIN LATERAL (
        SELECT ad.city, cn.code AS country FROM public.party_address AS ad
        LEFT JOIN public.country_country AS cn ON cn.id = ad.country
        WHERE ad.party = p.id AND ad.active ORDER BY ad.sequence NULLS LAST, ad.id LIMIT 1) AS a ON true
    LEFT JOIN LATERAL (  -- the customer payment term, when it is one fixed delay in days
        SELECT CASE WHEN count(DISTINCT tl.id) = 1 AND bool_and(tl.type = 'remainder')
                         AND bool_and(d.id IS NULL OR (d.day IS NULL AND d.month IS NULL AND d.weekday IS NULL
                                                       AND coalesce(d.months, 0) = 0))
                    THEN coalesce(sum(coalesce(d.days, 0) + 7 * coalesce(d.weeks, 0)), 0) END AS days
        FROM public.party_party_payment_term AS pt
        JOIN public.account_invoice_payment_term_line AS tl ON tl.payment = pt.customer_payment_term
        LEFT JOIN public.account_invoice_payment_term_line_delta AS d ON d.line = tl.id
        WHERE pt.party = p.id) AS terms ON true
    WHERE p.id <> co.party
      AND (EXISTS (SELECT FROM public.account_invoice AS i
                   WHERE i.party = p.id AND i.company = co.id AND i.type = 'out' AND i.number IS NOT NULL
                     AND i.move IS NOT NULL)
           %s %s)
    $v$,
        CASE WHEN has_limit THEN '(SELECT cl.credit_limit_amount FROM public.party_party_credit_limit_amount AS cl '
                                 'WHERE cl.party = p.id AND cl.company = co.id ORDER BY cl.id LIMIT 1)'
             ELSE 'NULL' END,
        CASE WHEN has_sale THEN 'OR EXISTS (SELECT FROM public.sale_sale AS s WHERE s.party = p.id AND '
                                's.company = co.id AND s.state IN (''confirmed'', ''processing'', ''done''))' END,
        CASE WHEN has_complaint THEN 'OR EXISTS (SELECT FROM public.sale_complaint AS k WHERE k.customer = p.id '
                                     'AND k.company = co.id)' END));

    PERFORM footnote_src.map_view('suppliers', format($v$
    WITH co AS (SELECT c.id, c.party FROM public.company_company AS c ORDER BY c.id LIMIT 1)
    SELECT
        p.id                                       AS id,
        p.name::text                               AS name,
        p.code::text                               AS supplier_number,
        a.country::text                            AS country,
        ph.value::text                             AS phone,
        ph.create_date::date                       AS phone_since,
        NULL::boolean                              AS phone_verified,
        NULL::text                                 AS phone_verification,
        ('erp://supplier/' || p.id)::text          AS uri
    FROM public.party_party AS p
    CROSS JOIN co
    LEFT JOIN LATERAL (
        SELECT cn.code AS country FROM public.party_address AS ad
        LEFT JOIN public.country_country AS cn ON cn.id = ad.country
        WHERE ad.party = p.id AND ad.active ORDER BY ad.sequence NULLS LAST, ad.id LIMIT 1) AS a ON true
    LEFT JOIN LATERAL (
        SELECT m.value, m.create_date FROM public.party_contact_mechanism AS m
        WHERE m.party = p.id AND m.active AND m.type IN ('phone', 'mobile')
        ORDER BY m.sequence NULLS LAST, m.id LIMIT 1) AS ph ON true
    WHERE p.id <> co.party
      AND (EXISTS (SELECT FROM public.account_invoice AS i
                   WHERE i.party = p.id AND i.company = co.id AND i.type = 'in' AND i.number IS NOT NULL
                     AND i.move IS NOT NULL)
           %s)
    $v$,
        CASE WHEN has_purchase THEN 'OR EXISTS (SELECT FROM public.purchase_purchase AS o WHERE o.party = p.id AND '
                                    'o.company = co.id AND o.state NOT IN (''draft'', ''quotation''))' END));

    IF has_purchase THEN
        PERFORM footnote_src.map_view('purchase_orders', $v$
        WITH co AS (SELECT c.id, c.currency FROM public.company_company AS c ORDER BY c.id LIMIT 1)
        SELECT
            o.id                                   AS id,
            coalesce(o.number, o.reference, o.id::text)::text AS number,
            o.party                                AS supplier_id,
            coalesce(o.purchase_date, o.create_date::date)::date AS ordered_on,
            coalesce(o.delivery_date,
                     (SELECT min(l.delivery_date_store) FROM public.purchase_line AS l WHERE l.purchase = o.id),
                     o.purchase_date, o.create_date::date)::date AS expected_on,
            (CASE WHEN o.state = 'cancelled' THEN 'cancelled'
                  WHEN o.state = 'done' OR o.shipment_state = 'received' THEN 'received'
                  WHEN o.shipment_state = 'partially shipped' THEN 'partially_received'
                  ELSE 'open' END)::text           AS status,
            (CASE WHEN o.currency = co.currency THEN n.amount
                  ELSE round(n.amount * (SELECT r.rate FROM public.currency_currency_rate AS r
                                         WHERE r.currency = co.currency AND r.date <= o.purchase_date
                                         ORDER BY r.date DESC LIMIT 1)
                             / (SELECT r.rate FROM public.currency_currency_rate AS r
                                WHERE r.currency = o.currency AND r.date <= o.purchase_date
                                ORDER BY r.date DESC LIMIT 1), 2) END)::numeric AS net,
            ('erp://purchase_order/' || o.id)::text AS uri
        FROM public.purchase_purchase AS o
        JOIN co ON co.id = o.company
        CROSS JOIN LATERAL (
            SELECT coalesce(o.untaxed_amount_cache,
                            (SELECT sum(round((l.quantity * l.unit_price)::numeric, 2))
                             FROM public.purchase_line AS l WHERE l.purchase = o.id AND l.type = 'line'), 0)
                       AS amount) AS n
        WHERE o.state NOT IN ('draft', 'quotation')
        $v$);
    END IF;

    IF has_complaint THEN
        PERFORM footnote_src.map_view('tickets', $v$
        WITH co AS (SELECT c.id FROM public.company_company AS c ORDER BY c.id LIMIT 1)
        SELECT
            k.id                                   AS id,
            k.customer                             AS customer_id,
            coalesce(nullif(btrim(split_part(k.description, E'\n', 1)), ''), t.name, k.number)::text AS subject,
            NULL::text                             AS severity,
            (CASE WHEN k.state = 'draft' THEN 'open'
                  WHEN k.state IN ('waiting', 'approved') THEN 'in_progress'
                  ELSE 'closed' END)::text         AS status,
            coalesce(k.date, k.create_date::date)::date AS opened_on,
            (CASE WHEN k.state IN ('rejected', 'done', 'cancelled')
                  THEN greatest(coalesce(k.write_date, k.create_date)::date, coalesce(k.date, k.create_date::date))
             END)::date                            AS closed_on,
            ('erp://ticket/' || k.id)::text        AS uri
        FROM public.sale_complaint AS k
        JOIN co ON co.id = k.company
        LEFT JOIN public.sale_complaint_type AS t ON t.id = k.type
        $v$);
    END IF;

    IF has_stock THEN
        PERFORM footnote_src.map_view('stock', $v$
        WITH co AS (SELECT c.id FROM public.company_company AS c ORDER BY c.id LIMIT 1),
        warehouse AS (
            SELECT w.id, w.name, s."left", s."right"
            FROM public.stock_location AS w JOIN public.stock_location AS s ON s.id = w.storage_location
            WHERE w.type = 'warehouse'),
        moved AS (
            SELECT m.product, m.internal_quantity AS quantity, m.effective_date, f."left" AS from_left,
                   t."left" AS to_left
            FROM public.stock_move AS m
            JOIN co ON co.id = m.company
            JOIN public.stock_location AS f ON f.id = m.from_location
            JOIN public.stock_location AS t ON t.id = m.to_location
            WHERE m.state = 'done')
        SELECT
            (m.product::bigint * 10000000000 + w.id)::bigint AS id,
            m.product                              AS item_id,
            w.name::text                           AS warehouse,
            round(sum(CASE WHEN m.to_left BETWEEN w."left" AND w."right" THEN m.quantity ELSE 0 END
                      - CASE WHEN m.from_left BETWEEN w."left" AND w."right" THEN m.quantity ELSE 0 END)::numeric,
                  coalesce(max(u.digits), 2))::numeric AS quantity,
            max(m.effective_date)::date            AS counted_on,
            ('erp://stock/' || (m.product::bigint * 10000000000 + w.id))::text AS uri
        FROM moved AS m
        JOIN warehouse AS w ON m.to_left BETWEEN w."left" AND w."right" OR m.from_left BETWEEN w."left" AND w."right"
        JOIN public.product_product AS p ON p.id = m.product
        JOIN public.product_template AS pt ON pt.id = p.template AND pt.type = 'goods'
        LEFT JOIN public.product_uom AS u ON u.id = pt.default_uom
        GROUP BY m.product, w.id, w.name
        $v$);
    END IF;

    -- what Tryton does not record, and the amounts' currency
    UPDATE footnote.settings SET value = concat_ws(',', 'account_owner', 'ticket_severity', 'reorder_level',
            'bank_change_requests', 'phone_verification',
            CASE WHEN NOT has_limit THEN 'credit_limit' END, CASE WHEN NOT has_complaint THEN 'tickets' END)
    WHERE key = 'not_recorded';
    UPDATE footnote.settings SET value = (
            SELECT cur.code FROM public.company_company AS c JOIN public.currency_currency AS cur ON cur.id = c.currency
            ORDER BY c.id LIMIT 1)
    WHERE key = 'currency';
END
$$;

RESET ROLE;
