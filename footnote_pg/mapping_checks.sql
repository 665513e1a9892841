-- The checks of `footnote-pg mapping check`, run as footnote_owner (what the catalog reads through).
-- Each query returns one row per problem, one text column naming the record; the first comment line
-- says what must hold, the second its severity (fail: answers would be wrong or refused; warn: worth a look).

-- name: customers_ids
-- every customer has an id of its own
-- fail
SELECT coalesce(id::text, '(no id)') || ' (' || count(*) || ' rows)' FROM footnote_src.customers
GROUP BY id HAVING id IS NULL OR count(*) > 1

-- name: invoices_ids
-- every invoice has an id of its own
-- fail
SELECT coalesce(id::text, '(no id)') || ' (' || count(*) || ' rows)' FROM footnote_src.invoices
GROUP BY id HAVING id IS NULL OR count(*) > 1

-- name: payments_ids
-- every payment has an id of its own
-- fail
SELECT coalesce(id::text, '(no id)') || ' (' || count(*) || ' rows)' FROM footnote_src.payments
GROUP BY id HAVING id IS NULL OR count(*) > 1

-- name: credit_notes_ids
-- every credit note has an id of its own
-- fail
SELECT coalesce(id::text, '(no id)') || ' (' || count(*) || ' rows)' FROM footnote_src.credit_notes
GROUP BY id HAVING id IS NULL OR count(*) > 1

-- name: suppliers_ids
-- every supplier has an id of its own
-- fail
SELECT coalesce(id::text, '(no id)') || ' (' || count(*) || ' rows)' FROM footnote_src.suppliers
GROUP BY id HAVING id IS NULL OR count(*) > 1

-- name: items_ids
-- every item has an id of its own
-- fail
SELECT coalesce(id::text, '(no id)') || ' (' || count(*) || ' rows)' FROM footnote_src.items
GROUP BY id HAVING id IS NULL OR count(*) > 1

-- name: invoice_numbers
-- invoice numbers are there and unique (people ask by number)
-- fail
SELECT coalesce(number, '(no number) id ' || min(id)) || ' (' || count(*) || ' invoices)'
FROM footnote_src.invoices GROUP BY number HAVING number IS NULL OR count(*) > 1

-- name: customer_names
-- every customer has a name (people ask by name)
-- fail
SELECT 'customer ' || id FROM footnote_src.customers WHERE name IS NULL OR btrim(name) = ''

-- name: invoice_customers
-- every invoice belongs to a customer that exists
-- fail
SELECT 'invoice ' || i.id || ' -> customer ' || coalesce(i.customer_id::text, '(none)')
FROM footnote_src.invoices AS i LEFT JOIN footnote_src.customers AS c ON c.id = i.customer_id
WHERE c.id IS NULL

-- name: invoice_required
-- every invoice has issue and due dates and net, tax and gross amounts
-- fail
SELECT 'invoice ' || id || ': ' || concat_ws(', ',
    CASE WHEN issue_date IS NULL THEN 'no issue_date' END, CASE WHEN due_date IS NULL THEN 'no due_date' END,
    CASE WHEN net IS NULL THEN 'no net' END, CASE WHEN tax IS NULL THEN 'no tax' END,
    CASE WHEN gross IS NULL THEN 'no gross' END)
FROM footnote_src.invoices
WHERE issue_date IS NULL OR due_date IS NULL OR net IS NULL OR tax IS NULL OR gross IS NULL

-- name: invoice_amounts
-- net + tax = gross on every invoice
-- fail
SELECT 'invoice ' || id || ': ' || net || ' + ' || tax || ' <> ' || gross
FROM footnote_src.invoices WHERE net + tax <> gross

-- name: invoice_dates
-- no invoice falls due before it was issued
-- fail
SELECT 'invoice ' || id || ': due ' || due_date || ', issued ' || issue_date
FROM footnote_src.invoices WHERE due_date < issue_date

-- name: invoice_future
-- no invoice is issued after the as-of day (the as_of setting, else today)
-- warn
SELECT 'invoice ' || id || ' issued ' || issue_date
FROM footnote_src.invoices WHERE issue_date > coalesce(footnote.setting('as_of')::date, current_date)

-- name: payment_invoices
-- every payment settles an invoice that exists, of the same customer, or is on account (no invoice) of a customer that exists
-- fail
SELECT 'payment ' || p.id || ' -> ' || CASE WHEN p.invoice_id IS NULL THEN 'on account of customer '
       || coalesce(p.customer_id::text, '(none)') ELSE 'invoice ' || p.invoice_id END
       || CASE WHEN i.id IS NOT NULL THEN ' of customer ' || i.customer_id || ', not ' || p.customer_id ELSE '' END
FROM footnote_src.payments AS p
LEFT JOIN footnote_src.invoices AS i ON i.id = p.invoice_id
LEFT JOIN footnote_src.customers AS c ON c.id = p.customer_id
WHERE CASE WHEN p.invoice_id IS NULL THEN c.id IS NULL ELSE i.id IS NULL OR i.customer_id IS DISTINCT FROM p.customer_id END

-- name: payment_amounts
-- every payment has a date and a positive amount
-- fail
SELECT 'payment ' || id || ': ' || coalesce(amount::text, 'no amount') || ' on ' || coalesce(paid_on::text, 'no date')
FROM footnote_src.payments WHERE amount IS NULL OR amount <= 0 OR paid_on IS NULL

-- name: credit_note_invoices
-- every credit note that names the invoice it credits names one that exists, of the same customer
-- fail
SELECT 'credit note ' || n.id || ' -> invoice ' || n.invoice_id
FROM footnote_src.credit_notes AS n LEFT JOIN footnote_src.invoices AS i ON i.id = n.invoice_id
WHERE n.invoice_id IS NOT NULL AND (i.id IS NULL OR i.customer_id IS DISTINCT FROM n.customer_id)

-- name: due_lines_ids
-- every due line has an id of its own
-- fail
SELECT coalesce(id::text, '(no id)') || ' (' || count(*) || ' rows)' FROM footnote_src.due_lines
GROUP BY id HAVING id IS NULL OR count(*) > 1

-- name: due_line_invoices
-- every due line belongs to an invoice that exists, of the same customer, and has a due date and a positive amount
-- fail
SELECT 'due line ' || l.id || ' -> invoice ' || coalesce(l.invoice_id::text, '(none)')
       || CASE WHEN l.due_date IS NULL THEN ', no due date' ELSE '' END
       || CASE WHEN l.amount IS NULL OR l.amount <= 0 THEN ', amount ' || coalesce(l.amount::text, 'none') ELSE '' END
FROM footnote_src.due_lines AS l LEFT JOIN footnote_src.invoices AS i ON i.id = l.invoice_id
WHERE i.id IS NULL OR i.customer_id IS DISTINCT FROM l.customer_id OR l.due_date IS NULL OR l.amount IS NULL
   OR l.amount <= 0

-- name: due_line_totals
-- the due lines of every invoice add up to its gross amount
-- fail
SELECT 'invoice ' || i.id || ': gross ' || i.gross || ', due lines ' || coalesce(l.total::text, 'none')
FROM footnote_src.invoices AS i
LEFT JOIN (SELECT invoice_id, sum(amount) AS total FROM footnote_src.due_lines GROUP BY invoice_id) AS l
       ON l.invoice_id = i.id
WHERE l.total IS DISTINCT FROM i.gross

-- name: credit_applications
-- every credit application sets off a credit note that exists against an invoice of its customer, on or after its issue date, for no more than the credit note
-- fail
SELECT 'credit application ' || a.id || ': credit note ' || coalesce(a.credit_note_id::text, '(none)')
       || ' -> invoice ' || coalesce(a.invoice_id::text, '(none)') || ', ' || coalesce(a.amount::text, 'no amount')
       || ' on ' || coalesce(a.applied_on::text, 'no date')
FROM footnote_src.credit_applications AS a
LEFT JOIN footnote_src.credit_notes AS n ON n.id = a.credit_note_id
LEFT JOIN footnote_src.invoices AS i ON i.id = a.invoice_id
LEFT JOIN (SELECT credit_note_id, sum(amount) AS applied FROM footnote_src.credit_applications
           GROUP BY credit_note_id) AS t ON t.credit_note_id = a.credit_note_id
WHERE n.id IS NULL OR i.id IS NULL OR i.customer_id IS DISTINCT FROM n.customer_id
   OR a.customer_id IS DISTINCT FROM n.customer_id OR a.amount IS NULL
   OR a.amount <= 0 OR a.applied_on IS NULL OR a.applied_on < n.issue_date OR t.applied > n.gross

-- name: overpaid_invoices
-- no invoice is paid and credited for more than its gross amount
-- fail
SELECT 'invoice ' || i.id || ': gross ' || i.gross || ', paid ' || coalesce(p.paid, 0) || ', credited '
       || coalesce(c.credited, 0)
FROM footnote_src.invoices AS i
LEFT JOIN (SELECT invoice_id, sum(amount) AS paid FROM footnote_src.payments GROUP BY invoice_id) AS p
       ON p.invoice_id = i.id
LEFT JOIN (SELECT invoice_id, sum(amount) AS credited FROM footnote_src.credit_applications GROUP BY invoice_id) AS c
       ON c.invoice_id = i.id
WHERE coalesce(p.paid, 0) + coalesce(c.credited, 0) > i.gross

-- name: supplier_invoice_payments
-- every row of supplier_invoice_payments pays a supplier invoice that exists, of the same supplier, a positive amount on a day
-- fail
SELECT 'supplier invoice payment ' || p.id || ' -> supplier invoice ' || coalesce(p.supplier_invoice_id::text, '(none)')
       || ', ' || coalesce(p.amount::text, 'no amount') || ' on ' || coalesce(p.paid_on::text, 'no date')
FROM footnote_src.supplier_invoice_payments AS p
LEFT JOIN footnote_src.supplier_invoices AS i ON i.id = p.supplier_invoice_id
WHERE i.id IS NULL OR i.supplier_id IS DISTINCT FROM p.supplier_id OR p.amount IS NULL OR p.amount <= 0
   OR p.paid_on IS NULL

-- name: overpaid_supplier_invoices
-- no supplier invoice is paid for more than its gross amount
-- fail
SELECT 'supplier invoice ' || i.id || ': gross ' || i.gross || ', paid ' || p.paid
FROM footnote_src.supplier_invoices AS i
JOIN (SELECT supplier_invoice_id, sum(amount) AS paid FROM footnote_src.supplier_invoice_payments
      GROUP BY supplier_invoice_id) AS p ON p.supplier_invoice_id = i.id
WHERE p.paid > i.gross

-- name: supplier_invoice_paid_on
-- a supplier invoice with a paid_on is paid in full by then (accounts payable counts what its payments settled)
-- warn
SELECT 'supplier invoice ' || i.id || ': paid_on ' || i.paid_on || ', payments by then ' || coalesce(p.paid, 0)
       || ' of ' || i.gross
FROM footnote_src.supplier_invoices AS i
LEFT JOIN LATERAL (SELECT sum(x.amount) AS paid FROM footnote_src.supplier_invoice_payments AS x
                   WHERE x.supplier_invoice_id = i.id AND x.paid_on <= i.paid_on) AS p ON true
WHERE i.paid_on IS NOT NULL AND coalesce(p.paid, 0) < i.gross

-- name: ticket_customers
-- every ticket belongs to a customer that exists
-- fail
SELECT 'ticket ' || t.id || ' -> customer ' || coalesce(t.customer_id::text, '(none)')
FROM footnote_src.tickets AS t LEFT JOIN footnote_src.customers AS c ON c.id = t.customer_id
WHERE c.id IS NULL

-- name: ticket_severities
-- ticket severity is one of low, medium, high, critical (NULL when the ERP does not record severities)
-- fail
SELECT 'ticket ' || id || ': severity ' || coalesce(quote_literal(severity), 'NULL')
FROM footnote_src.tickets
WHERE (severity IS NULL AND footnote._recorded('ticket_severity'))
   OR severity NOT IN ('low', 'medium', 'high', 'critical')

-- name: ticket_dates
-- no ticket is closed before it was opened
-- fail
SELECT 'ticket ' || id || ': opened ' || coalesce(opened_on::text, '(never)') || ', closed ' || closed_on
FROM footnote_src.tickets WHERE opened_on IS NULL OR closed_on < opened_on

-- name: supplier_references
-- bank accounts, payments, invoices and what paid them, bank-change requests and purchase orders belong to suppliers that exist
-- fail
SELECT kind || ' ' || id || ' -> supplier ' || coalesce(supplier_id::text, '(none)')
FROM (SELECT 'bank account' AS kind, id, supplier_id FROM footnote_src.supplier_bank_accounts
      UNION ALL SELECT 'supplier payment', id, supplier_id FROM footnote_src.supplier_payments
      UNION ALL SELECT 'supplier invoice', id, supplier_id FROM footnote_src.supplier_invoices
      UNION ALL SELECT 'supplier invoice payment', id, supplier_id FROM footnote_src.supplier_invoice_payments
      UNION ALL SELECT 'bank-change request', id, supplier_id FROM footnote_src.bank_change_requests
      UNION ALL SELECT 'purchase order', id, supplier_id FROM footnote_src.purchase_orders) AS r
WHERE NOT EXISTS (SELECT FROM footnote_src.suppliers AS s WHERE s.id = r.supplier_id)

-- name: request_statuses
-- a bank-change request's status is pending, approved or rejected
-- fail
SELECT 'bank-change request ' || id || ': status ' || coalesce(quote_literal(status), 'NULL')
FROM footnote_src.bank_change_requests WHERE status IS NULL OR status NOT IN ('pending', 'approved', 'rejected')

-- name: stock_items
-- every stock row is of an item that exists, with a quantity
-- fail
SELECT 'stock ' || s.id || ' -> item ' || coalesce(s.item_id::text, '(none)')
FROM footnote_src.stock AS s LEFT JOIN footnote_src.items AS i ON i.id = s.item_id
WHERE i.id IS NULL OR s.quantity IS NULL

-- name: deep_links
-- every record has a deep link erp://<type>/<id> of its own
-- fail
SELECT coalesce(uri, '(no uri) ' || kind || ' ' || id) || CASE WHEN n > 1 THEN ' (' || n || ' records)' ELSE '' END
FROM (SELECT kind, min(id) AS id, uri, count(*) AS n FROM (
          SELECT 'customer' AS kind, id, uri FROM footnote_src.customers
          UNION ALL SELECT 'invoice', id, uri FROM footnote_src.invoices
          UNION ALL SELECT 'payment', id, uri FROM footnote_src.payments
          UNION ALL SELECT 'credit note', id, uri FROM footnote_src.credit_notes
          UNION ALL SELECT 'ticket', id, uri FROM footnote_src.tickets
          UNION ALL SELECT 'supplier', id, uri FROM footnote_src.suppliers
          UNION ALL SELECT 'bank account', id, uri FROM footnote_src.supplier_bank_accounts
          UNION ALL SELECT 'supplier payment', id, uri FROM footnote_src.supplier_payments
          UNION ALL SELECT 'supplier invoice', id, uri FROM footnote_src.supplier_invoices
          UNION ALL SELECT 'bank-change request', id, uri FROM footnote_src.bank_change_requests
          UNION ALL SELECT 'purchase order', id, uri FROM footnote_src.purchase_orders
          UNION ALL SELECT 'item', id, uri FROM footnote_src.items
          UNION ALL SELECT 'stock', id, uri FROM footnote_src.stock) AS a
      GROUP BY kind, CASE WHEN uri IS NULL THEN id::text END, uri) AS g
WHERE uri IS NULL OR uri !~ '^erp://[a-z_]+/[^/[:space:]]+$' OR n > 1
