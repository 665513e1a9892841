-- footnote-pg sample ERP: the tables of a small European B2B wholesaler.
--
-- For the demo and the tests only. The catalog never reads these tables
-- directly; sql/sample/30_mapping.sql maps them onto the footnote_src views.
-- Amounts are numeric(14,2) in EUR, quantities numeric(14,3). Fill the tables
-- with erp.generate_sample() (sql/sample/20_generate.sql).

CREATE SCHEMA erp;
COMMENT ON SCHEMA erp IS 'footnote-pg sample ERP (demo and tests only)';

-- Staff who own customer accounts.
CREATE TABLE erp.employees (
    id    integer PRIMARY KEY,
    name  text NOT NULL UNIQUE,
    email text NOT NULL UNIQUE CHECK (email ~ '^[a-z0-9.-]+@[a-z0-9.-]+$'),
    title text NOT NULL
);

-- Customers (debtors), each with payment terms and an account owner.
CREATE TABLE erp.customers (
    id                 bigint PRIMARY KEY,
    customer_number    text NOT NULL UNIQUE CHECK (customer_number ~ '^C-[0-9]+$'),
    name               text NOT NULL UNIQUE CHECK (btrim(name) <> ''),
    country            text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
    city               text NOT NULL,
    payment_terms_days integer NOT NULL CHECK (payment_terms_days IN (14, 30, 45, 60)),
    account_owner_id   integer NOT NULL REFERENCES erp.employees (id),
    credit_limit       numeric(14,2) NOT NULL CHECK (credit_limit >= 0)
);
CREATE INDEX customers_account_owner_id_idx ON erp.customers (account_owner_id);
-- What name resolution reads (footnote._resolve, "Map your ERP" in the README): a customer number typed in any
-- case, and names containing the longest word typed, a regular expression a pg_trgm index serves. Without them
-- every name lookup reads all customers (30 ms at 22,222). pg_trgm is a trusted extension: whoever may create in
-- this database may add it; where it is missing or not allowed, the sample goes without that index.
CREATE INDEX customers_number_lower_idx ON erp.customers (lower(customer_number));
DO $$
DECLARE
    trgm name;
BEGIN
    IF EXISTS (SELECT FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
        CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA erp;
        SELECT n.nspname INTO trgm FROM pg_extension AS x JOIN pg_namespace AS n ON n.oid = x.extnamespace
        WHERE x.extname = 'pg_trgm';
        EXECUTE format('CREATE INDEX customers_name_trgm_idx ON erp.customers USING gin (lower(name) %I.gin_trgm_ops)',
                       trgm);
    END IF;
EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'sample ERP without a trigram index on customer names: %', SQLERRM;
END
$$;

-- Sales invoices; gross = net + tax.
CREATE TABLE erp.invoices (
    id          bigint PRIMARY KEY,
    number      text NOT NULL UNIQUE CHECK (number ~ '^INV-[0-9]{4}-[0-9]+$'),
    customer_id bigint NOT NULL REFERENCES erp.customers (id),
    issue_date  date NOT NULL,
    due_date    date NOT NULL,
    net         numeric(14,2) NOT NULL CHECK (net >= 0),
    tax         numeric(14,2) NOT NULL CHECK (tax >= 0),
    gross       numeric(14,2) NOT NULL,
    CONSTRAINT invoices_gross_check CHECK (gross = net + tax),
    CONSTRAINT invoices_due_date_check CHECK (due_date >= issue_date),
    CONSTRAINT invoices_id_customer_id_key UNIQUE (id, customer_id)
);
CREATE INDEX invoices_customer_id_idx ON erp.invoices (customer_id, issue_date);
CREATE INDEX invoices_issue_date_idx ON erp.invoices (issue_date);

-- Payment schedules: an invoice on an instalment term falls due in parts (together its gross); an invoice
-- with no rows here falls due in full on its due date.
CREATE TABLE erp.invoice_instalments (
    invoice_id bigint NOT NULL REFERENCES erp.invoices (id),
    instalment smallint NOT NULL CHECK (instalment > 0),
    due_date   date NOT NULL,
    amount     numeric(14,2) NOT NULL CHECK (amount > 0),
    PRIMARY KEY (invoice_id, instalment)
);

-- Incoming payments, each allocated to one invoice of the same customer, or received on account (no invoice).
CREATE TABLE erp.payments (
    id          bigint PRIMARY KEY,
    invoice_id  bigint,
    customer_id bigint NOT NULL REFERENCES erp.customers (id),
    paid_on     date NOT NULL,
    amount      numeric(14,2) NOT NULL CHECK (amount > 0),
    method      text NOT NULL CHECK (method IN ('bank transfer', 'SEPA direct debit', 'card')),
    CONSTRAINT payments_invoice_fkey FOREIGN KEY (invoice_id, customer_id)
        REFERENCES erp.invoices (id, customer_id)
);
CREATE INDEX payments_invoice_id_idx ON erp.payments (invoice_id, paid_on);
CREATE INDEX payments_customer_id_idx ON erp.payments (customer_id, paid_on);

-- Credit notes, each against one invoice of the same customer, or against none (invoice_id NULL: a goodwill
-- credit, a rebate on the year); gross = net + tax. applied_on is the day the credit note was set off against its
-- invoice (NULL while it is open on the customer's account; always NULL for one that names no invoice).
CREATE TABLE erp.credit_notes (
    id          bigint PRIMARY KEY,
    number      text NOT NULL UNIQUE CHECK (number ~ '^CN-[0-9]{4}-[0-9]+$'),
    invoice_id  bigint,
    customer_id bigint NOT NULL,
    issue_date  date NOT NULL,
    net         numeric(14,2) NOT NULL CHECK (net > 0),
    tax         numeric(14,2) NOT NULL CHECK (tax >= 0),
    gross       numeric(14,2) NOT NULL,
    reason      text NOT NULL,
    applied_on  date CHECK (applied_on >= issue_date),
    CONSTRAINT credit_notes_applied_check CHECK (applied_on IS NULL OR invoice_id IS NOT NULL),
    CONSTRAINT credit_notes_gross_check CHECK (gross = net + tax),
    CONSTRAINT credit_notes_invoice_fkey FOREIGN KEY (invoice_id, customer_id)
        REFERENCES erp.invoices (id, customer_id)
);
CREATE INDEX credit_notes_invoice_id_idx ON erp.credit_notes (invoice_id, issue_date);
CREATE INDEX credit_notes_customer_id_idx ON erp.credit_notes (customer_id);

-- Customer support tickets; closed_on is set exactly when status is closed.
CREATE TABLE erp.tickets (
    id          bigint PRIMARY KEY,
    customer_id bigint NOT NULL REFERENCES erp.customers (id),
    subject     text NOT NULL,
    severity    text NOT NULL CHECK (severity IN ('low', 'medium', 'high', 'critical')),
    status      text NOT NULL CHECK (status IN ('open', 'in_progress', 'closed')),
    opened_on   date NOT NULL,
    closed_on   date,
    CONSTRAINT tickets_closed_check CHECK ((status = 'closed') = (closed_on IS NOT NULL)),
    CONSTRAINT tickets_closed_on_check CHECK (closed_on >= opened_on)
);
CREATE INDEX tickets_customer_id_idx ON erp.tickets (customer_id, opened_on);

-- Suppliers (creditors), with the phone number on file and how it was verified.
CREATE TABLE erp.suppliers (
    id                 bigint PRIMARY KEY,
    supplier_number    text NOT NULL UNIQUE CHECK (supplier_number ~ '^S-[0-9]+$'),
    name               text NOT NULL UNIQUE CHECK (btrim(name) <> ''),
    country            text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
    city               text NOT NULL,
    phone              text NOT NULL CHECK (phone ~ '^\+[0-9][0-9 ]+$'),
    phone_since        date NOT NULL,
    phone_verified     boolean NOT NULL,
    phone_verification text NOT NULL
);

-- Bank accounts on file for suppliers; only the masked IBAN and its last four digits are stored.
CREATE TABLE erp.supplier_bank_accounts (
    id             bigint PRIMARY KEY,
    supplier_id    bigint NOT NULL REFERENCES erp.suppliers (id),
    iban_masked    text NOT NULL CHECK (iban_masked ~ '^[A-Z]{2}[0-9]{2}[ *0-9]+$'),
    account_ending text NOT NULL CHECK (account_ending ~ '^[0-9]{4}$'),
    added_on       date NOT NULL,
    verified       boolean NOT NULL,
    verification   text NOT NULL,
    CONSTRAINT supplier_bank_accounts_ending_check
        CHECK (replace(iban_masked, ' ', '') LIKE '%' || account_ending),
    CONSTRAINT supplier_bank_accounts_id_supplier_id_key UNIQUE (id, supplier_id)
);
CREATE INDEX supplier_bank_accounts_supplier_id_idx ON erp.supplier_bank_accounts (supplier_id);

-- Outgoing payments to suppliers, each to one of that supplier's bank accounts.
CREATE TABLE erp.supplier_payments (
    id              bigint PRIMARY KEY,
    supplier_id     bigint NOT NULL,
    bank_account_id bigint NOT NULL,
    paid_on         date NOT NULL,
    amount          numeric(14,2) NOT NULL CHECK (amount > 0),
    reference       text NOT NULL,
    CONSTRAINT supplier_payments_bank_account_fkey FOREIGN KEY (bank_account_id, supplier_id)
        REFERENCES erp.supplier_bank_accounts (id, supplier_id)
);
CREATE INDEX supplier_payments_supplier_id_idx ON erp.supplier_payments (supplier_id, paid_on);
CREATE INDEX supplier_payments_bank_account_id_idx ON erp.supplier_payments (bank_account_id);

-- Invoices received from suppliers (accounts payable); paid by the supplier payments allocated to them.
CREATE TABLE erp.supplier_invoices (
    id           bigint PRIMARY KEY,
    number       text NOT NULL,
    supplier_id  bigint NOT NULL REFERENCES erp.suppliers (id),
    invoice_date date NOT NULL,
    due_date     date NOT NULL,
    gross        numeric(14,2) NOT NULL CHECK (gross > 0),
    CONSTRAINT supplier_invoices_number_key UNIQUE (supplier_id, number),
    CONSTRAINT supplier_invoices_due_check CHECK (due_date >= invoice_date)
);
CREATE INDEX supplier_invoices_supplier_id_idx ON erp.supplier_invoices (supplier_id, invoice_date);
CREATE INDEX supplier_invoices_due_date_idx ON erp.supplier_invoices (due_date);

-- What each supplier payment pays of which supplier invoice: a payment run settles several invoices, a part
-- payment some of one; an invoice is paid once its allocations add up to its gross.
CREATE TABLE erp.supplier_payment_allocations (
    id                  bigint PRIMARY KEY,
    payment_id          bigint NOT NULL REFERENCES erp.supplier_payments (id) ON DELETE CASCADE,
    supplier_invoice_id bigint NOT NULL REFERENCES erp.supplier_invoices (id) ON DELETE CASCADE,
    amount              numeric(14,2) NOT NULL CHECK (amount > 0),
    CONSTRAINT supplier_payment_allocations_key UNIQUE (payment_id, supplier_invoice_id)
);
CREATE INDEX supplier_payment_allocations_invoice_idx ON erp.supplier_payment_allocations (supplier_invoice_id);

-- Requests to change a supplier's bank details, and how (whether) they were verified.
CREATE TABLE erp.bank_change_requests (
    id                       bigint PRIMARY KEY,
    supplier_id              bigint NOT NULL REFERENCES erp.suppliers (id),
    requested_on             date NOT NULL,
    channel                  text NOT NULL CHECK (channel IN ('email', 'letter', 'phone', 'supplier portal')),
    sender                   text NOT NULL,
    sender_domain            text,
    domain_registered_on     date,
    requested_iban_masked    text NOT NULL CHECK (requested_iban_masked ~ '^[A-Z]{2}[0-9]{2}[ *0-9]+$'),
    requested_account_ending text NOT NULL CHECK (requested_account_ending ~ '^[0-9]{4}$'),
    status                   text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
    verified                 boolean NOT NULL,
    verification             text NOT NULL,
    CONSTRAINT bank_change_requests_ending_check
        CHECK (replace(requested_iban_masked, ' ', '') LIKE '%' || requested_account_ending),
    CONSTRAINT bank_change_requests_approved_check CHECK (status <> 'approved' OR verified)
);
CREATE INDEX bank_change_requests_supplier_id_idx ON erp.bank_change_requests (supplier_id, requested_on);

-- Purchase orders to suppliers; open while status is open or partially_received.
CREATE TABLE erp.purchase_orders (
    id          bigint PRIMARY KEY,
    number      text NOT NULL UNIQUE CHECK (number ~ '^PO-[0-9]{4}-[0-9]+$'),
    supplier_id bigint NOT NULL REFERENCES erp.suppliers (id),
    ordered_on  date NOT NULL,
    expected_on date NOT NULL,
    status      text NOT NULL CHECK (status IN ('open', 'partially_received', 'received', 'cancelled')),
    net         numeric(14,2) NOT NULL CHECK (net >= 0),
    CONSTRAINT purchase_orders_expected_on_check CHECK (expected_on >= ordered_on)
);
CREATE INDEX purchase_orders_supplier_id_idx ON erp.purchase_orders (supplier_id, ordered_on);
CREATE INDEX purchase_orders_open_idx ON erp.purchase_orders (expected_on)
    WHERE status IN ('open', 'partially_received');

-- Items (products and materials) kept in stock.
CREATE TABLE erp.items (
    id            bigint PRIMARY KEY,
    sku           text NOT NULL UNIQUE CHECK (sku ~ '^SKU-[0-9]+$'),
    name          text NOT NULL UNIQUE CHECK (btrim(name) <> ''),
    unit          text NOT NULL CHECK (unit IN ('pcs', 'box', 'pack', 'kg', 'm', 'l', 'roll', 'pair', 'set')),
    reorder_level numeric(14,3) NOT NULL CHECK (reorder_level >= 0)
);

-- Stock of an item in one warehouse, as last counted.
CREATE TABLE erp.stock (
    id         bigint PRIMARY KEY,
    item_id    bigint NOT NULL REFERENCES erp.items (id),
    warehouse  text NOT NULL CHECK (warehouse IN ('Hamburg', 'Rotterdam', 'Wrocław')),
    quantity   numeric(14,3) NOT NULL CHECK (quantity >= 0),
    counted_on date NOT NULL,
    CONSTRAINT stock_item_id_warehouse_key UNIQUE (item_id, warehouse)
);
