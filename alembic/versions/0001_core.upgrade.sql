-- ==== sql/00_roles.sql ================================================

-- footnote-pg: roles.
--
-- Three group roles, all NOLOGIN. Roles are cluster-wide, so creating them is
-- idempotent: a second database on the same server reuses them.
--   footnote_owner    owns every object of ours and reads the source views
--   footnote_service  executes catalog operations and the gate, nothing else
--   footnote_auditor  reads the call log, the ledger and the auditor views
-- Login roles are made members of a group, e.g.
--   CREATE ROLE assistant LOGIN PASSWORD '...' IN ROLE footnote_service;

DO $roles$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'footnote_owner') THEN
        CREATE ROLE footnote_owner NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'footnote_service') THEN
        CREATE ROLE footnote_service NOLOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'footnote_auditor') THEN
        CREATE ROLE footnote_auditor NOLOGIN;
    END IF;
    -- A non-superuser installer must be able to act as the owner while installing
    -- (PostgreSQL 16+ gives a CREATEROLE creator ADMIN on its roles, not SET ROLE).
    IF NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user)
       AND NOT pg_catalog.pg_has_role(current_user, 'footnote_owner',
                                      CASE WHEN pg_catalog.current_setting('server_version_num')::int >= 160000
                                           THEN 'SET' ELSE 'MEMBER' END) THEN
        EXECUTE pg_catalog.format('GRANT footnote_owner TO %I', current_user);
    END IF;
END
$roles$;

-- Everything below is created by, and so owned by, footnote_owner.
CREATE SCHEMA footnote AUTHORIZATION footnote_owner;
COMMENT ON SCHEMA footnote IS 'footnote-pg: catalog operations, call log, ledger, auditor views';

CREATE SCHEMA footnote_src AUTHORIZATION footnote_owner;
COMMENT ON SCHEMA footnote_src IS 'footnote-pg: source views mapping the ERP onto the columns the catalog reads';

REVOKE ALL ON SCHEMA footnote FROM PUBLIC;
REVOKE ALL ON SCHEMA footnote_src FROM PUBLIC;
GRANT USAGE ON SCHEMA footnote TO footnote_service, footnote_auditor;

SET ROLE footnote_owner;

-- ==== sql/01_settings.sql =============================================

-- footnote-pg: settings and errors.
--
-- Settings live in one table the DBA edits with plain SQL. A session may
-- override the display locale with SET footnote.locale = 'en-US'; nothing else
-- is read from the session.
--
-- Errors raised by footnote-pg carry SQLSTATEs of class FN:
--   FN001 invalid argument       FN002 unknown entity      FN003 ambiguous entity
--   FN004 unknown operation      FN005 evidence limit
-- The DETAIL of each is a JSON object (argument, value, alternatives, ...) so
-- clients can act on it; the MESSAGE is one line for a person.

CREATE TABLE footnote.settings (
    key         text PRIMARY KEY,
    value       text,
    description text NOT NULL
);
COMMENT ON TABLE footnote.settings IS 'footnote-pg settings; edit with UPDATE as the installer or footnote_owner';

INSERT INTO footnote.settings (key, value, description) VALUES
    ('locale', 'de-DE', 'number and date format of every figure: de-DE (43.805,00 €) or en-US (€43,805.00)'),
    ('currency', 'EUR', 'ISO 4217 code of the amounts in the source views'),
    ('as_of', NULL, 'date used when an operation is called without as_of; NULL means the current date'),
    ('fiscal_year_start_month', '1', 'month (1-12) in which the fiscal year starts; FY2026 is the fiscal year that ends in 2026'),
    ('max_evidence_rows', '10000', 'most evidence rows one call returns; beyond it the call fails with FN005'),
    ('dso_window_days', '90', 'default window, in days, of days sales outstanding');

-- The value of a setting: the session's footnote.locale for 'locale' if set, else the table.
CREATE FUNCTION footnote.setting(setting_key text)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE
        WHEN setting_key = 'locale'
             AND coalesce(pg_catalog.current_setting('footnote.locale', true), '') <> ''
            THEN pg_catalog.current_setting('footnote.locale', true)
        ELSE (SELECT s.value FROM footnote.settings s WHERE s.key = setting_key)
    END
$$;

-- Raise FN001 naming the argument; detail carries argument, value and reason as JSON.
CREATE FUNCTION footnote._invalid(argument text, reason text, value text DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RAISE EXCEPTION USING
        ERRCODE = 'FN001',
        MESSAGE = pg_catalog.format('invalid argument %s: %s', argument, reason),
        DETAIL = pg_catalog.jsonb_build_object(
            'argument', argument, 'reason', reason,
            'value', pg_catalog.left(value, 200))::text;
END
$$;

-- What clients may know of the settings: locale, currency, the default as-of date, the fiscal year start.
CREATE FUNCTION footnote.client_settings()
RETURNS TABLE (locale text, currency text, as_of date, fiscal_year_start_month integer)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote.setting('locale'), footnote.setting('currency'),
           coalesce(footnote.setting('as_of')::date, current_date),
           coalesce(footnote.setting('fiscal_year_start_month')::integer, 1)
$$;

-- ==== sql/02_format.sql ===============================================

-- footnote-pg: the one formatter.
--
-- Every figure a catalog operation returns is formatted here and nowhere else,
-- so the gate can compare a claim's text with the returned text exactly.
-- Kinds: amount, count, days, percent, date, quantity, text, period.
-- Locales: de-DE (43.805,00 €, 02.05.2026, 12,5 %) and en-US (€43,805.00,
-- May 2, 2026, 12.5%). The words around figures are English in both.

-- Digits of a non-negative numeric with a group separator and fixed decimals.
CREATE FUNCTION footnote._group_digits(v numeric, decimals integer, group_sep text, decimal_sep text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT pg_catalog.regexp_replace(pg_catalog.split_part(t, '.', 1), '(\d)(?=(\d{3})+$)', '\1' || group_sep, 'g')
        || CASE WHEN decimals > 0 THEN decimal_sep || pg_catalog.split_part(t, '.', 2) ELSE '' END
    FROM (SELECT pg_catalog.round(pg_catalog.abs(v), decimals)::text AS t) s
$$;

-- Format a raw value (as text) of the given kind for a locale (default: the locale setting).
CREATE FUNCTION footnote.format(kind text, raw text, locale text DEFAULT NULL)
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    loc  text := coalesce(locale, footnote.setting('locale'), 'de-DE');
    de   boolean;
    n    numeric;
    d    date;
    sign text;
    cur  text := coalesce(footnote.setting('currency'), 'EUR');
    sym  text;
BEGIN
    IF raw IS NULL THEN
        RETURN NULL;
    END IF;
    IF loc NOT IN ('de-DE', 'en-US') THEN
        RAISE EXCEPTION USING ERRCODE = 'FN001',
            MESSAGE = format('invalid argument locale: %s is not supported (use de-DE or en-US)', loc),
            DETAIL = jsonb_build_object('argument', 'locale', 'value', loc,
                                        'reason', 'unsupported locale')::text;
    END IF;
    de := loc = 'de-DE';
    IF kind IN ('text', 'period') THEN
        RETURN raw;
    ELSIF kind = 'date' THEN
        d := raw::date;
        RETURN CASE WHEN de THEN to_char(d, 'DD.MM.YYYY') ELSE to_char(d, 'FMMonth FMDD, YYYY') END;
    END IF;

    n := raw::numeric;
    sign := CASE WHEN n < 0 THEN '-' ELSE '' END;
    sym := CASE cur WHEN 'EUR' THEN '€' WHEN 'USD' THEN '$' WHEN 'GBP' THEN '£' ELSE cur END;
    CASE kind
    WHEN 'amount' THEN
        RETURN CASE WHEN de
            THEN sign || footnote._group_digits(n, 2, '.', ',') || ' ' || sym
            ELSE sign || sym || footnote._group_digits(n, 2, ',', '.') END;
    WHEN 'count' THEN
        RETURN sign || CASE WHEN de THEN footnote._group_digits(n, 0, '.', ',')
                            ELSE footnote._group_digits(n, 0, ',', '.') END;
    WHEN 'days' THEN
        -- whole days as integers, fractional days (days sales outstanding) with one decimal
        RETURN sign || CASE WHEN de THEN footnote._group_digits(n, CASE WHEN n = trunc(n) THEN 0 ELSE 1 END, '.', ',')
                            ELSE footnote._group_digits(n, CASE WHEN n = trunc(n) THEN 0 ELSE 1 END, ',', '.') END
            || CASE WHEN abs(n) = 1 THEN ' day' ELSE ' days' END;
    WHEN 'percent' THEN
        RETURN CASE WHEN de
            THEN sign || footnote._group_digits(n, 1, '.', ',') || ' %'
            ELSE sign || footnote._group_digits(n, 1, ',', '.') || '%' END;
    WHEN 'quantity' THEN
        RETURN sign || rtrim(rtrim(CASE WHEN de
            THEN footnote._group_digits(n, 3, '.', ',')
            ELSE footnote._group_digits(n, 3, ',', '.') END, '0'), ',.');
    ELSE
        RAISE EXCEPTION USING ERRCODE = 'FN001',
            MESSAGE = format('invalid argument kind: unknown value kind %s', kind),
            DETAIL = jsonb_build_object('argument', 'kind', 'value', kind,
                                        'reason', 'unknown value kind')::text;
    END CASE;
END
$$;

-- ==== sql/03_canonical.sql ============================================

-- footnote-pg: canonical JSON and hashing (see docs/hash-spec.md).
--
-- jsonb::text is not a stable serialisation, so anything we hash is first
-- written in this canonical form: object keys sorted by code point, no
-- whitespace, strings escaped as JSON requires, numbers as their exact decimal
-- text. Amounts are stored as strings, so no binary float ever enters a hash.

-- Canonical JSON text of a jsonb value. Scalars are written by jsonb's own output (a JSON string
-- escaped as the spec says, a number as numeric_out's exact decimal text, true/false/null); containers
-- are rebuilt here with keys in code-point order and no whitespace. PL/pgSQL with one cached statement
-- per container kind is several times faster than a recursive SQL function.
CREATE FUNCTION footnote.canonical_json(j jsonb)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    CASE jsonb_typeof(j)
    WHEN 'object' THEN
        RETURN '{' || coalesce((
            SELECT string_agg(to_json(e.key)::text || ':' ||
                              CASE WHEN jsonb_typeof(e.value) IN ('object', 'array')
                                   THEN footnote.canonical_json(e.value) ELSE e.value::text END,
                              ',' ORDER BY e.key COLLATE "C")
            FROM jsonb_each(j) AS e), '') || '}';
    WHEN 'array' THEN
        RETURN '[' || coalesce((
            SELECT string_agg(CASE WHEN jsonb_typeof(a.value) IN ('object', 'array')
                                   THEN footnote.canonical_json(a.value) ELSE a.value::text END,
                              ',' ORDER BY a.n)
            FROM jsonb_array_elements(j) WITH ORDINALITY AS a(value, n)), '') || ']';
    ELSE
        RETURN j::text;
    END CASE;
END
$$;

-- Lower-case hex SHA-256 of the UTF-8 bytes of a text.
CREATE FUNCTION footnote.sha256_hex(t text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(t, 'UTF8')), 'hex')
$$;

-- ==== sql/04_sources.sql ==============================================

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

-- ==== sql/05_arguments.sql ============================================

-- footnote-pg: argument validation and entity resolution.
--
-- Every catalog operation validates each argument here before it reads any
-- data, and resolves names to records before querying: an unknown name is an
-- error (FN002) listing the closest real names, a name that fits several
-- records is an error (FN003) listing them. Nothing is guessed.

-- A resolved entity.
CREATE TYPE footnote.entity AS (id bigint, name text, uri text);

-- A resolved period: [starts, ends) and the label answers show.
CREATE TYPE footnote.period AS (label text, kind text, starts date, ends date);

-- A required or optional text argument: not empty, at most max_len characters, no control characters
-- (multiline text may contain line feeds and tabs).
CREATE FUNCTION footnote._text_arg(argument text, value text, required boolean, max_len integer DEFAULT 200,
                                   multiline boolean DEFAULT false)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF value IS NULL THEN
        IF required THEN
            PERFORM footnote._invalid(argument, 'is required');
        END IF;
        RETURN NULL;
    END IF;
    IF length(value) > max_len THEN
        PERFORM footnote._invalid(argument,
            format('is too long (%s characters; at most %s)', length(value), max_len), value);
    END IF;
    IF (NOT multiline AND value ~ '[\x01-\x1f\x7f]') OR (multiline AND value ~ '[\x01-\x08\x0b-\x1f\x7f]') THEN
        PERFORM footnote._invalid(argument, 'contains control characters', value);
    END IF;
    IF btrim(value) = '' THEN
        PERFORM footnote._invalid(argument, 'must not be empty', value);
    END IF;
    RETURN btrim(value);
END
$$;

-- A date argument within 1900-01-01 .. 2199-12-31; NULL means the as_of setting, or today.
CREATE FUNCTION footnote._date_arg(argument text, value date)
RETURNS date
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF value IS NULL THEN
        RETURN coalesce(footnote.setting('as_of')::date, current_date);
    END IF;
    IF value < date '1900-01-01' OR value > date '2199-12-31' THEN
        PERFORM footnote._invalid(argument,
            format('%s is outside the supported range 1900-01-01 to 2199-12-31', value), value::text);
    END IF;
    RETURN value;
END
$$;

-- An integer argument within [min_value, max_value]; NULL means default_value.
CREATE FUNCTION footnote._int_arg(argument text, value integer, min_value integer, max_value integer, default_value integer)
RETURNS integer
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF value IS NULL THEN
        RETURN default_value;
    END IF;
    IF value < min_value OR value > max_value THEN
        PERFORM footnote._invalid(argument,
            format('%s is out of range (%s to %s)', value, min_value, max_value), value::text);
    END IF;
    RETURN value;
END
$$;

-- A period within the supported range 1900 to 2199, or FN001.
CREATE FUNCTION footnote._period_range(argument text, value text, p footnote.period)
RETURNS footnote.period
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF p.starts < date '1900-01-01' OR p.ends > date '2200-01-01' THEN
        PERFORM footnote._invalid(argument, format('%s is outside the supported range 1900 to 2199', value), value);
    END IF;
    RETURN p;
END
$$;

-- A period argument: 2026-07 (month), 2026-Q2 or Q2 2026 (calendar quarter), FY2026 (fiscal year), 2026 (calendar year).
CREATE FUNCTION footnote._period_arg(argument text, value text)
RETURNS footnote.period
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v   text := upper(regexp_replace(footnote._text_arg(argument, value, true, 40), '\s+', ' ', 'g'));
    m   text[];
    y   integer;
    fsm integer := coalesce(footnote.setting('fiscal_year_start_month')::integer, 1);
    p   footnote.period;
BEGIN
    y := substring(v FROM '(\d{4})')::integer;
    IF y NOT BETWEEN 1900 AND 2199 THEN
        PERFORM footnote._invalid(argument, format('%s is outside the supported range 1900 to 2199', value), value);
    END IF;
    m := regexp_match(v, '^(\d{4})-(\d{2})$');
    IF m IS NOT NULL THEN
        IF m[2]::integer NOT BETWEEN 1 AND 12 THEN
            PERFORM footnote._invalid(argument, format('%s has no month %s', value, m[2]), value);
        END IF;
        p.kind := 'month';
        p.starts := make_date(m[1]::integer, m[2]::integer, 1);
        p.ends := (p.starts + interval '1 month')::date;
        p.label := to_char(p.starts, 'FMMonth YYYY');
        RETURN footnote._period_range(argument, value, p);
    END IF;
    m := coalesce(regexp_match(v, '^(\d{4})-?Q([1-4])$'),
                  (SELECT ARRAY[x[2], x[1]] FROM regexp_match(v, '^Q([1-4]) (\d{4})$') AS x WHERE x IS NOT NULL));
    IF m IS NOT NULL THEN
        p.kind := 'quarter';
        p.starts := make_date(m[1]::integer, (m[2]::integer - 1) * 3 + 1, 1);
        p.ends := (p.starts + interval '3 months')::date;
        p.label := format('Q%s %s', m[2], m[1]);
        RETURN footnote._period_range(argument, value, p);
    END IF;
    m := regexp_match(v, '^FY ?(\d{4})$');
    IF m IS NOT NULL THEN
        y := m[1]::integer;
        p.kind := 'fiscal_year';
        p.starts := make_date(CASE WHEN fsm = 1 THEN y ELSE y - 1 END, fsm, 1);
        p.ends := (p.starts + interval '1 year')::date;
        p.label := format('FY%s', y);
        RETURN footnote._period_range(argument, value, p);
    END IF;
    m := regexp_match(v, '^(\d{4})$');
    IF m IS NOT NULL THEN
        p.kind := 'year';
        p.starts := make_date(m[1]::integer, 1, 1);
        p.ends := (p.starts + interval '1 year')::date;
        p.label := m[1];
        RETURN footnote._period_range(argument, value, p);
    END IF;
    PERFORM footnote._invalid(argument,
        format('%s is not a period; use 2026-07, 2026-Q2, FY2026 or 2026', value), value);
    RETURN NULL;
END
$$;

-- The accented letters names are folded from, and the letters they fold to (one to one).
CREATE FUNCTION footnote._fold_map(OUT accented text, OUT plain text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT 'äöüáàâãåāçčćđéèêëēěíìîïłñńňóòôõōřšśşťúùûůūýÿžźżÄÖÜÁÀÂÃÅĀÇČĆĐÉÈÊËĒĚÍÌÎÏŁÑŃŇÓÒÔÕŌŘŠŚŞŤÚÙÛŮŪÝŸŽŹŻ'::text,
           'aouaaaaaacccdeeeeeeiiiilnnnooooorssstuuuuuyyzzzAOUAAAAAACCCDEEEEEEIIIILNNNOOOOORSSSTUUUUUYYZZZ'::text
$$;

-- Lower case, accents folded, punctuation to spaces: the form names are compared in.
-- Accents are folded before lower() so the result does not depend on the database's LC_CTYPE.
CREATE FUNCTION footnote._fold(s text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT btrim(regexp_replace(lower(
        translate(replace(replace(replace(replace(replace(replace(replace(s,
                      'ß', 'ss'), 'æ', 'ae'), 'Æ', 'AE'), 'œ', 'oe'), 'Œ', 'OE'), 'ø', 'o'), 'Ø', 'O'),
                  m.accented, m.plain)),
        '[^a-z0-9]+', ' ', 'g'))
    FROM footnote._fold_map() AS m
$$;

-- A regular expression matching the folded ASCII text t in a lower-cased name with its accents
-- (the prefilter of name resolution); t holds only [a-z0-9 ] so nothing in it is a regex operator.
CREATE FUNCTION footnote._accent_pattern(t text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT string_agg(CASE WHEN c ~ '^[a-z]$' THEN
                           '[' || c || coalesce((
                               SELECT string_agg(DISTINCT lower(substr(m.accented, i, 1)), '')
                               FROM generate_series(1, length(m.accented)) AS i
                               WHERE substr(m.plain, i, 1) IN (c, upper(c))), '')
                           || CASE c WHEN 's' THEN 'ß' WHEN 'o' THEN 'øœ' WHEN 'a' THEN 'æ' WHEN 'e' THEN 'æœ' ELSE '' END
                           || ']'
                       WHEN c = ' ' THEN '[^a-z0-9]+'
                       ELSE c END, '' ORDER BY n)
    FROM regexp_split_to_table(t, '') WITH ORDINALITY AS x(c, n), footnote._fold_map() AS m
$$;

-- The folded name without legal-form words (GmbH, AG, Ltd, ...), for matching what people type.
CREATE FUNCTION footnote._core_name(s text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(string_agg(w, ' ' ORDER BY n), '')
    FROM regexp_split_to_table(footnote._fold(s), ' ') WITH ORDINALITY AS t(w, n)
    WHERE w <> '' AND w NOT IN ('gmbh', 'ag', 'kg', 'se', 'sa', 'sas', 'sarl', 'srl', 'spa', 'bv', 'nv',
                                'ab', 'as', 'asa', 'oy', 'oyj', 'ltd', 'plc', 'llc', 'inc', 'corp', 'co',
                                'kft', 'sro', 'sp', 'z', 'o', 'doo', 'aps', 'the')
$$;

-- Trigram similarity of two strings in [0, 1] (plain SQL, no extension needed).
CREATE FUNCTION footnote._similarity(a text, b text)
RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH x AS (SELECT DISTINCT substr(s, g, 3) AS t
               FROM (SELECT '  ' || a || ' ' AS s) AS p, generate_series(1, length(a) + 1) AS g),
         y AS (SELECT DISTINCT substr(s, g, 3) AS t
               FROM (SELECT '  ' || b || ' ' AS s) AS p, generate_series(1, length(b) + 1) AS g)
    SELECT CASE WHEN count(*) = 0 THEN 0
                ELSE round(count(*) FILTER (WHERE x.t IS NOT NULL AND y.t IS NOT NULL)::numeric / count(*), 4) END
    FROM x FULL JOIN y ON x.t = y.t
$$;

-- Names the resolver knows: customers, suppliers and items, with the code people also use.
CREATE VIEW footnote._entity_names AS
    SELECT 'customer'::text AS entity, c.id, c.name, c.customer_number AS code, c.uri FROM footnote_src.customers AS c
    UNION ALL
    SELECT 'supplier', s.id, s.name, s.supplier_number, s.uri FROM footnote_src.suppliers AS s
    UNION ALL
    SELECT 'item', i.id, i.name, i.sku, i.uri FROM footnote_src.items AS i;

-- A candidate of name resolution: the entity with its folded name and code.
CREATE TYPE footnote._named AS (id bigint, name text, uri text, code text, folded text);

-- Resolve a name, code, id or erp:// link to exactly one entity, or raise FN002 / FN003.
-- Names are read through a prefilter (the first letters of the longest word typed, accents allowed),
-- so resolution costs milliseconds even with tens of thousands of customers.
CREATE FUNCTION footnote._resolve(entity text, argument text, value text)
RETURNS footnote.entity
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v      text := footnote._text_arg(argument, value, true);
    v_folded text := footnote._fold(v);
    v_core   text := footnote._core_name(v);
    v_words  text[] := regexp_split_to_array(CASE WHEN v_core <> '' THEN v_core ELSE v_folded END, ' ');
    v_key    text;
    v_prefix text;
    v_starts text;
    v_total  bigint;
    cands  footnote._named[];
    hits   footnote.entity[];
    alts   jsonb;
BEGIN
    -- 1. id, or its deep link
    IF v ~ '^\d{1,18}$' OR v ~ ('^erp://' || entity || '/\d{1,18}$') THEN
        SELECT array_agg(ROW(e.id, e.name, e.uri)::footnote.entity ORDER BY e.id) INTO hits
        FROM footnote._entity_names AS e
        WHERE e.entity = $1 AND e.id = substring(v FROM '(\d+)$')::bigint;
        IF hits IS NOT NULL THEN
            RETURN hits[1];
        END IF;
    END IF;
    SELECT w INTO v_key FROM unnest(v_words) AS w WHERE w <> '' ORDER BY length(w) DESC, w LIMIT 1;
    v_prefix := footnote._accent_pattern(v_key);  -- every match below contains the longest word typed
    SELECT array_agg(ROW(e.id, e.name, e.uri, e.code, footnote._fold(e.name))::footnote._named) INTO cands
    FROM footnote._entity_names AS e
    WHERE e.entity = $1 AND (lower(e.code) = lower(v) OR lower(e.name) ~ v_prefix);
    -- 2. exact name or code, ignoring case and accents
    SELECT array_agg(ROW(c.id, c.name, c.uri)::footnote.entity ORDER BY c.name, c.id) INTO hits
    FROM unnest(cands) AS c
    WHERE c.folded = v_folded OR lower(c.code) = lower(v);
    -- 3. the name without its legal form
    IF hits IS NULL AND v_core <> '' THEN
        SELECT array_agg(ROW(c.id, c.name, c.uri)::footnote.entity ORDER BY c.name, c.id) INTO hits
        FROM unnest(cands) AS c
        WHERE footnote._core_name(c.name) = v_core;
    END IF;
    -- 4. every word typed starts a word of the name ("Bergmann", "bergmann log")
    IF hits IS NULL AND v_core <> '' THEN
        SELECT array_agg(ROW(c.id, c.name, c.uri)::footnote.entity ORDER BY c.name, c.id) INTO hits
        FROM unnest(cands) AS c
        WHERE NOT EXISTS (
            SELECT FROM unnest(v_words) AS q(w)
            WHERE NOT (' ' || c.folded) LIKE ('% ' || q.w || '%'));
    END IF;

    IF cardinality(hits) = 1 THEN
        RETURN hits[1];
    ELSIF cardinality(hits) > 1 THEN
        RAISE EXCEPTION USING
            ERRCODE = 'FN003',
            MESSAGE = format('%s "%s" is ambiguous: it matches %s', argument, v,
                             (SELECT string_agg(h.name, ', ' ORDER BY ord) FROM unnest(hits) WITH ORDINALITY AS h(id, name, uri, ord))),
            DETAIL = jsonb_build_object(
                'argument', argument, 'entity', entity, 'value', v,
                'candidates', (SELECT jsonb_agg(jsonb_build_object('id', h.id::text, 'name', h.name, 'uri', h.uri) ORDER BY ord)
                               FROM unnest(hits) WITH ORDINALITY AS h(id, name, uri, ord)))::text;
    END IF;

    -- unknown: the closest names by trigram similarity, among names sharing the start of a word typed
    -- (all names when there are few)
    SELECT count(*) INTO v_total FROM footnote._entity_names AS x WHERE x.entity = $1;
    SELECT string_agg(footnote._accent_pattern(left(w, 3)), '|') INTO v_starts
    FROM unnest(v_words) AS w WHERE length(w) >= 3;
    SELECT jsonb_agg(jsonb_build_object('id', a.id::text, 'name', a.name, 'uri', a.uri) ORDER BY a.sim DESC, a.name, a.id)
    INTO alts
    FROM (SELECT e.id, e.name, e.uri, footnote._similarity(v_folded, footnote._fold(e.name)) AS sim
          FROM footnote._entity_names AS e
          WHERE e.entity = $1
            AND (v_total <= 5000 OR lower(e.name) ~ v_starts)
          ORDER BY sim DESC, e.name, e.id
          LIMIT 5) AS a;
    RAISE EXCEPTION USING
        ERRCODE = 'FN002',
        MESSAGE = format('unknown %s "%s"%s', entity, v,
                         coalesce('; closest: ' || (SELECT string_agg(x->>'name', ', ') FROM jsonb_array_elements(alts) AS x), '')),
        DETAIL = jsonb_build_object('argument', argument, 'entity', entity, 'value', v,
                                    'alternatives', coalesce(alts, '[]'::jsonb))::text;
END
$$;

-- ==== sql/06_calls.sql ================================================

-- footnote-pg: the call log and the result document.
--
-- Every successful catalog call appends one row here before it returns. The
-- gate later checks claims against these rows, never against what a caller
-- says a call returned. Only footnote_owner writes it (through the catalog
-- functions); footnote_auditor reads it.

CREATE TABLE footnote.call_log (
    call_id      uuid PRIMARY KEY,
    called_at    timestamptz NOT NULL,
    db_role      text NOT NULL,
    backend_pid  integer NOT NULL,
    actor_id     text,
    actor_role   text,
    operation    text NOT NULL,
    arguments    jsonb NOT NULL,
    evidence_ids text[] NOT NULL,
    result       jsonb NOT NULL,
    result_hash  text NOT NULL CHECK (result_hash ~ '^[0-9a-f]{64}$'),
    duration_ms  numeric NOT NULL
);
CREATE INDEX call_log_called_at_idx ON footnote.call_log (called_at);
COMMENT ON TABLE footnote.call_log IS 'one row per catalog call: who called what with which arguments, and exactly what it returned';

-- The call log is append-only for every role: UPDATE, DELETE and TRUNCATE raise FN101.
CREATE FUNCTION footnote._append_only()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RAISE EXCEPTION USING
        ERRCODE = 'FN101',
        MESSAGE = format('%s.%s is append-only: %s is not allowed', TG_TABLE_SCHEMA, TG_TABLE_NAME, TG_OP);
END
$$;

CREATE TRIGGER call_log_append_only BEFORE UPDATE OR DELETE ON footnote.call_log
    FOR EACH ROW EXECUTE FUNCTION footnote._append_only();
CREATE TRIGGER call_log_no_truncate BEFORE TRUNCATE ON footnote.call_log
    FOR EACH STATEMENT EXECUTE FUNCTION footnote._append_only();

-- The application actor of this session: footnote.actor and footnote.actor_role, checked.
CREATE FUNCTION footnote._actor()
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    a text := nullif(btrim(coalesce(current_setting('footnote.actor', true), '')), '');
    r text := nullif(btrim(coalesce(current_setting('footnote.actor_role', true), '')), '');
BEGIN
    IF length(a) > 100 OR a ~ '[\x01-\x1f\x7f]' THEN
        PERFORM footnote._invalid('footnote.actor', 'must be at most 100 printable characters', a);
    END IF;
    IF length(r) > 100 OR r ~ '[\x01-\x1f\x7f]' THEN
        PERFORM footnote._invalid('footnote.actor_role', 'must be at most 100 printable characters', r);
    END IF;
    RETURN jsonb_build_object('id', a, 'role', r);
END
$$;

-- One figure of a result: raw value (as text), formatted text, kind and the evidence ids behind it.
CREATE FUNCTION footnote._value(kind text, raw text, evidence text[], extra jsonb DEFAULT '{}')
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_build_object('kind', kind, 'raw', raw, 'text', footnote.format(kind, raw),
                              'evidence', to_jsonb(coalesce(evidence, '{}'::text[]))) || coalesce(extra, '{}')
$$;

-- One evidence row: id "type:record_id", type, record id, deep link and the field values that stand alone.
CREATE FUNCTION footnote._evidence(type text, record_id bigint, uri text, fields jsonb, verified boolean DEFAULT true)
RETURNS jsonb
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_build_object('id', type || ':' || record_id, 'type', type, 'record_id', record_id::text,
                              'uri', uri, 'verified', verified, 'fields', fields)
$$;

-- Finish a call: stamp call id, arguments, timing, locale; check the evidence limit; append to the call log; return the document.
CREATE FUNCTION footnote._finish(operation text, arguments jsonb, started timestamptz, body jsonb)
RETURNS jsonb
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    call_id  uuid := gen_random_uuid();
    actor    jsonb := footnote._actor();
    ev       jsonb := coalesce(body->'evidence', '[]');
    ev_ids   text[];
    lim      integer := coalesce(footnote.setting('max_evidence_rows')::integer, 10000);
    doc      jsonb;
    hash     text;
    now_ts   timestamptz := clock_timestamp();
    ms       numeric := round((extract(epoch FROM now_ts - started) * 1000)::numeric, 3);
BEGIN
    IF jsonb_array_length(ev) > lim THEN
        RAISE EXCEPTION USING
            ERRCODE = 'FN005',
            MESSAGE = format('%s would cite %s evidence rows, more than max_evidence_rows (%s); narrow the arguments',
                             operation, jsonb_array_length(ev), lim),
            DETAIL = jsonb_build_object('operation', operation, 'evidence_rows', jsonb_array_length(ev),
                                        'max_evidence_rows', lim)::text;
    END IF;
    SELECT coalesce(array_agg(e->>'id' ORDER BY n), '{}') INTO ev_ids
    FROM jsonb_array_elements(ev) WITH ORDINALITY AS x(e, n);

    doc := jsonb_build_object(
        'operation', operation,
        'call_id', call_id::text,
        'called_at', to_char(started AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        'arguments', arguments,
        'actor', actor,
        'locale', footnote.setting('locale'),
        'values', '{}'::jsonb,
        'rows', '[]'::jsonb,
        'evidence', '[]'::jsonb,
        'empty_reason', NULL,
        'duration_ms', ms::text) || body;

    hash := footnote.sha256_hex(footnote.canonical_json(doc));
    INSERT INTO footnote.call_log (call_id, called_at, db_role, backend_pid, actor_id, actor_role, operation,
                                   arguments, evidence_ids, result, result_hash, duration_ms)
    VALUES (call_id, started, session_user, pg_backend_pid(), actor->>'id', actor->>'role', operation,
            arguments, ev_ids, doc, hash, ms);
    -- the caller also gets the hash the log keeps: SHA-256 of the canonical document without this member
    RETURN doc || jsonb_build_object('result_hash', hash);
END
$$;

-- psql form of a result: one row per figure (top-level values, then each row's values).
CREATE FUNCTION footnote.result_values(result jsonb)
RETURNS TABLE (name text, text text, raw text, kind text, evidence text[])
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT v.key, v.value->>'text', v.value->>'raw', v.value->>'kind',
           ARRAY(SELECT jsonb_array_elements_text(v.value->'evidence'))
    FROM jsonb_each(result->'values') AS v
    UNION ALL
    SELECT format('rows[%s].%s', r.n, v.key), v.value->>'text', v.value->>'raw', v.value->>'kind',
           ARRAY(SELECT jsonb_array_elements_text(v.value->'evidence'))
    FROM jsonb_array_elements(result->'rows') WITH ORDINALITY AS r(row, n), jsonb_each(r.row) AS v
$$;

-- psql form of a result's evidence: one row per record cited.
CREATE FUNCTION footnote.result_evidence(result jsonb)
RETURNS TABLE (id text, type text, record_id text, uri text, verified boolean, fields jsonb)
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT e->>'id', e->>'type', e->>'record_id', e->>'uri', (e->>'verified')::boolean, e->'fields'
    FROM jsonb_array_elements(result->'evidence') WITH ORDINALITY AS x(e, n)
    ORDER BY x.n
$$;

-- Evidence from a query row (as jsonb): the listed fields, numbers written as strings.
CREATE FUNCTION footnote._row_evidence(type text, id_key text, r jsonb, fields text[], verified boolean DEFAULT true)
RETURNS jsonb
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._evidence(type, (r->>id_key)::bigint, r->>'uri',
        (SELECT coalesce(jsonb_object_agg(f.name,
                    CASE jsonb_typeof(r->f.name) WHEN 'number' THEN to_jsonb(r->>f.name) ELSE r->f.name END
                    ORDER BY f.n), '{}'::jsonb)
         FROM unnest(fields) WITH ORDINALITY AS f(name, n)
         WHERE r ? f.name),
        verified)
$$;

-- A name list (customers, suppliers, items): run the named query, one row of values and one evidence row per
-- record, counts listed and matching. columns: {"value name": ["kind", "query column"], ...}, in row order.
CREATE FUNCTION footnote._list(operation text, query_name text, type text, name_contains text, "limit" integer,
                               columns jsonb, evidence_fields text[], started timestamptz)
RETURNS jsonb
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    filter   text := footnote._text_arg('name_contains', name_contains, false);
    lim      integer := footnote._int_arg('limit', "limit", 1, 1000, 100);
    r        record;
    j        jsonb;
    eid      text;
    ev       jsonb[] := '{}';
    rws      jsonb[] := '{}';
    ids      text[] := '{}';
    matching bigint := 0;
BEGIN
    FOR r IN EXECUTE footnote._query(query_name) USING filter, lim LOOP
        j := to_jsonb(r);
        eid := type || ':' || r.id;
        ids := ids || eid;
        ev := ev || footnote._row_evidence(type, 'id', j, evidence_fields);
        rws := rws || (SELECT jsonb_object_agg(c.key, footnote._value(c.value->>0, j->>(c.value->>1), ARRAY[eid]))
                       FROM jsonb_each(columns) AS c);
        matching := r.matching;
    END LOOP;
    RETURN footnote._finish(operation, jsonb_build_object('name_contains', name_contains, 'limit', "limit"), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('name_contains', filter, 'limit', lim),
            'values', jsonb_build_object(
                'listed', footnote._value('count', cardinality(ids)::text, ids),
                'matching', footnote._value('count', matching::text, ids)),
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN cardinality(ids) = 0 THEN 'no_matching_' || type || 's' END,
            'queries', jsonb_build_array(footnote._query_ref(query_name, jsonb_build_array(filter, lim)))));
END
$$;

-- ==== sql/07_queries.sql ==============================================

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
FROM footnote_src.customers AS c
WHERE $1::text IS NULL OR strpos(footnote._fold(c.name), footnote._fold($1::text)) > 0
ORDER BY footnote._fold(c.name), c.name COLLATE "C", c.id
LIMIT $2$q$),

('suppliers',
 'suppliers whose name contains $1 (ignoring case and accents; all when NULL), by folded name, name and id, at most $2',
 '{name_contains,limit}',
 $q$SELECT s.id, s.name, s.supplier_number, s.country, s.uri, count(*) OVER () AS matching
FROM footnote_src.suppliers AS s
WHERE $1::text IS NULL OR strpos(footnote._fold(s.name), footnote._fold($1::text)) > 0
ORDER BY footnote._fold(s.name), s.name COLLATE "C", s.id
LIMIT $2$q$),

('items',
 'items whose name or SKU contains $1 (ignoring case and accents; all when NULL), by folded name, name and id, at most $2',
 '{name_contains,limit}',
 $q$SELECT it.id, it.sku, it.name, it.unit, it.uri, count(*) OVER () AS matching
FROM footnote_src.items AS it
WHERE $1::text IS NULL OR strpos(footnote._fold(it.name), footnote._fold($1::text)) > 0
   OR strpos(lower(it.sku), lower($1::text)) > 0
ORDER BY footnote._fold(it.name), it.name COLLATE "C", it.id
LIMIT $2$q$),

('source_record',
 'the record of type $1 with id $2, from its source view: what a deep link erp://<type>/<id> opens',
 '{type,id}',
 $q$SELECT 'customer'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.customers AS x WHERE $1 = 'customer' AND x.id = $2
UNION ALL
SELECT 'invoice'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.invoices AS x WHERE $1 = 'invoice' AND x.id = $2
UNION ALL
SELECT 'payment'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.payments AS x WHERE $1 = 'payment' AND x.id = $2
UNION ALL
SELECT 'credit_note'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.credit_notes AS x WHERE $1 = 'credit_note' AND x.id = $2
UNION ALL
SELECT 'ticket'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.tickets AS x WHERE $1 = 'ticket' AND x.id = $2
UNION ALL
SELECT 'supplier'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.suppliers AS x WHERE $1 = 'supplier' AND x.id = $2
UNION ALL
SELECT 'bank_account'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.supplier_bank_accounts AS x WHERE $1 = 'bank_account' AND x.id = $2
UNION ALL
SELECT 'supplier_payment'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.supplier_payments AS x WHERE $1 = 'supplier_payment' AND x.id = $2
UNION ALL
SELECT 'bank_change_request'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.bank_change_requests AS x WHERE $1 = 'bank_change_request' AND x.id = $2
UNION ALL
SELECT 'purchase_order'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.purchase_orders AS x WHERE $1 = 'purchase_order' AND x.id = $2
UNION ALL
SELECT 'item'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.items AS x WHERE $1 = 'item' AND x.id = $2
UNION ALL
SELECT 'stock'::text AS type, x.id, x.uri, to_jsonb(x) - 'uri' AS fields FROM footnote_src.stock AS x WHERE $1 = 'stock' AND x.id = $2
ORDER BY 1, 2$q$),

('customer',
 'one customer by id',
 '{customer_id}',
 $q$SELECT c.id, c.name, c.customer_number, c.country, c.city, c.payment_terms_days, c.account_owner, c.credit_limit, c.uri
FROM footnote_src.customers AS c
WHERE c.id = $1
ORDER BY c.id$q$),

('overdue_invoices',
 'invoices of customer $1 past due and not settled as of $2, oldest due first, with totals',
 '{customer_id,as_of}',
 $q$SELECT b.invoice_id, b.number, b.issue_date, b.due_date, b.gross, b.paid, b.credited, b.outstanding,
       b.days_past_due, b.uri,
       sum(b.outstanding) OVER () AS total_outstanding,
       count(*) OVER () AS invoice_count,
       max(b.days_past_due) OVER () AS oldest_days_past_due
FROM footnote_src.invoice_balances($2) AS b
WHERE b.customer_id = $1 AND b.due_date < $2 AND b.outstanding > 0
ORDER BY b.due_date, b.invoice_id$q$),

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
    SELECT b.invoice_id, b.number, b.customer_id, c.name AS customer_name, b.issue_date, b.due_date, b.gross,
           b.paid, b.credited, b.outstanding, b.days_past_due, b.uri,
           CASE WHEN b.days_past_due <= 0 THEN 'current'
                WHEN b.days_past_due <= 30 THEN '1-30'
                WHEN b.days_past_due <= 60 THEN '31-60'
                WHEN b.days_past_due <= 90 THEN '61-90'
                ELSE 'over_90' END AS bucket
    FROM footnote_src.invoice_balances($1) AS b
    JOIN footnote_src.customers AS c ON c.id = b.customer_id
    WHERE b.outstanding > 0 AND ($2::bigint IS NULL OR b.customer_id = $2)
) AS a
ORDER BY a.due_date, a.invoice_id$q$),

('open_tickets',
 'tickets of customer $1 open as of $2, most severe first, with counts',
 '{customer_id,as_of}',
 $q$SELECT t.id, t.subject, t.severity, t.status, t.opened_on, t.uri,
       $2 - t.opened_on AS age_days,
       count(*) OVER () AS open_count,
       count(*) FILTER (WHERE t.severity IN ('high', 'critical')) OVER () AS high_count
FROM footnote_src.tickets AS t
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
    FROM footnote_src.invoices AS i
    WHERE i.issue_date >= $1 AND i.issue_date < $2 AND ($3::bigint IS NULL OR i.customer_id = $3)
    UNION ALL
    SELECT 'credit_note', n.id, n.number, n.customer_id, n.issue_date, -n.net, n.uri
    FROM footnote_src.credit_notes AS n
    WHERE n.issue_date >= $1 AND n.issue_date < $2 AND ($3::bigint IS NULL OR n.customer_id = $3)
) AS d
ORDER BY d.issue_date, d.type, d.id$q$),

('change',
 'absolute change from $1 to $2 and the change in percent of |$1| (NULL when $1 is 0)',
 '{from_value,to_value}',
 $q$SELECT $2::numeric - $1::numeric AS change,
       CASE WHEN $1::numeric = 0 THEN NULL
            ELSE round(($2::numeric - $1::numeric) / abs($1::numeric) * 100, 2) END AS change_percent$q$),

('top_customers',
 'customers ranked by revenue (net invoices minus net credit notes) issued in [$1, $2), at most $3',
 '{starts,ends,limit}',
 $q$SELECT r.customer_id, c.name, c.uri, r.revenue, r.invoice_count, r.documents,
       rank() OVER (ORDER BY r.revenue DESC) AS rank
FROM (
    SELECT d.customer_id, sum(d.amount) AS revenue, count(*) FILTER (WHERE d.type = 'invoice') AS invoice_count,
           array_agg(d.type || ':' || d.id ORDER BY d.type, d.id) AS documents
    FROM (
        SELECT 'invoice'::text AS type, i.id, i.customer_id, i.net AS amount
        FROM footnote_src.invoices AS i WHERE i.issue_date >= $1 AND i.issue_date < $2
        UNION ALL
        SELECT 'credit_note', n.id, n.customer_id, -n.net
        FROM footnote_src.credit_notes AS n WHERE n.issue_date >= $1 AND n.issue_date < $2
    ) AS d
    GROUP BY d.customer_id
) AS r
JOIN footnote_src.customers AS c ON c.id = r.customer_id
ORDER BY r.revenue DESC, r.customer_id
LIMIT $3$q$),

('revenue_drivers',
 'customers whose revenue changed most between [$1, $2) and [$3, $4), by absolute change, at most $5',
 '{from_starts,from_ends,to_starts,to_ends,limit}',
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
        FROM footnote_src.invoices AS i
        WHERE (i.issue_date >= $1 AND i.issue_date < $2) OR (i.issue_date >= $3 AND i.issue_date < $4)
        UNION ALL
        SELECT CASE WHEN n.issue_date >= $3 AND n.issue_date < $4 THEN 'to' ELSE 'from' END,
               'credit_note', n.id, n.customer_id, -n.net
        FROM footnote_src.credit_notes AS n
        WHERE (n.issue_date >= $1 AND n.issue_date < $2) OR (n.issue_date >= $3 AND n.issue_date < $4)
    ) AS d
    GROUP BY d.customer_id
) AS r
JOIN footnote_src.customers AS c ON c.id = r.customer_id
ORDER BY abs(r.revenue_to - r.revenue_from) DESC, r.customer_id
LIMIT $5$q$),

('documents_by_id',
 'invoices $1 and credit notes $2 by id, for evidence',
 '{invoice_ids,credit_note_ids}',
 $q$SELECT 'invoice'::text AS type, i.id, i.number, i.customer_id, i.issue_date, i.net, i.gross, i.uri
FROM footnote_src.invoices AS i WHERE i.id = ANY ($1::bigint[])
UNION ALL
SELECT 'credit_note', n.id, n.number, n.customer_id, n.issue_date, n.net, n.gross, n.uri
FROM footnote_src.credit_notes AS n WHERE n.id = ANY ($2::bigint[])
ORDER BY 1, 2$q$),

('sales_in_window',
 'invoices issued in ($1 - $2 days, $1], gross, with the total: the sales input of days sales outstanding',
 '{as_of,window_days}',
 $q$SELECT i.id, i.number, i.customer_id, i.issue_date, i.gross, i.uri,
       sum(i.gross) OVER () AS gross_sales,
       count(*) OVER () AS invoice_count
FROM footnote_src.invoices AS i
WHERE i.issue_date > $1::date - $2::integer AND i.issue_date <= $1
ORDER BY i.issue_date, i.id$q$),

('dso',
 'days sales outstanding: receivables $1 divided by gross sales $2 of the window, times the window $3 in days',
 '{receivables,gross_sales,window_days}',
 $q$SELECT CASE WHEN $2::numeric = 0 THEN NULL
            ELSE round($1::numeric / $2::numeric * $3::integer, 1) END AS dso$q$),

('invoice_by_number',
 'the invoice whose number is $1, or whose id is $2',
 '{number,invoice_id}',
 $q$SELECT i.id, i.number, i.customer_id, c.name AS customer_name, i.issue_date, i.due_date, i.net, i.tax,
       i.gross, i.uri, c.uri AS customer_uri
FROM footnote_src.invoices AS i
JOIN footnote_src.customers AS c ON c.id = i.customer_id
WHERE i.number = $1::text OR i.id = $2::bigint
ORDER BY i.id$q$),

('invoice_balance',
 'balance of invoice $1 as of $2',
 '{invoice_id,as_of}',
 $q$SELECT b.invoice_id, b.gross, b.paid, b.credited, b.outstanding, b.days_past_due
FROM footnote_src.invoice_balances($2) AS b
WHERE b.invoice_id = $1
ORDER BY b.invoice_id$q$),

('invoice_settlements',
 'payments and credit notes against invoice $1 on or before $2',
 '{invoice_id,as_of}',
 $q$SELECT 'payment'::text AS type, p.id, p.paid_on AS on_date, p.amount, p.method AS detail, p.uri
FROM footnote_src.payments AS p WHERE p.invoice_id = $1 AND p.paid_on <= $2
UNION ALL
SELECT 'credit_note', n.id, n.issue_date, n.gross, n.number, n.uri
FROM footnote_src.credit_notes AS n WHERE n.invoice_id = $1 AND n.issue_date <= $2
ORDER BY 3, 1, 2$q$),

('nearest_invoices',
 'up to five invoices whose id is nearest to $1: alternatives for an unknown invoice number',
 '{invoice_id}',
 $q$SELECT n.id, n.number, n.uri
FROM (
    (SELECT i.id, i.number, i.uri FROM footnote_src.invoices AS i WHERE i.id >= $1 ORDER BY i.id LIMIT 3)
    UNION ALL
    (SELECT i.id, i.number, i.uri FROM footnote_src.invoices AS i WHERE i.id < $1 ORDER BY i.id DESC LIMIT 3)
) AS n
ORDER BY abs(n.id - $1), n.id
LIMIT 5$q$),

('open_purchase_orders',
 'purchase orders open or partially received (of supplier $1, or all when NULL), by expected date, with totals',
 '{supplier_id}',
 $q$SELECT po.id, po.number, po.supplier_id, s.name AS supplier_name, po.ordered_on, po.expected_on, po.status,
       po.net, po.uri,
       sum(po.net) OVER () AS open_total,
       count(*) OVER () AS open_count
FROM footnote_src.purchase_orders AS po
JOIN footnote_src.suppliers AS s ON s.id = po.supplier_id
WHERE po.status IN ('open', 'partially_received') AND ($1::bigint IS NULL OR po.supplier_id = $1)
ORDER BY po.expected_on, po.id$q$),

('item',
 'one item by id',
 '{item_id}',
 $q$SELECT it.id, it.sku, it.name, it.unit, it.reorder_level, it.uri
FROM footnote_src.items AS it
WHERE it.id = $1
ORDER BY it.id$q$),

('stock_of_item',
 'stock of item $1 per warehouse, with the total',
 '{item_id}',
 $q$SELECT st.id, st.warehouse, st.quantity, st.counted_on, st.uri,
       sum(st.quantity) OVER () AS total_quantity,
       count(*) OVER () AS warehouse_count
FROM footnote_src.stock AS st
WHERE st.item_id = $1
ORDER BY st.warehouse, st.id$q$),

('supplier',
 'one supplier by id, with the phone number on file',
 '{supplier_id}',
 $q$SELECT s.id, s.name, s.supplier_number, s.country, s.phone, s.phone_since, s.phone_verified,
       s.phone_verification, s.uri
FROM footnote_src.suppliers AS s
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
FROM footnote_src.supplier_payments AS sp
WHERE sp.supplier_id = $1 AND sp.paid_on <= $2
ORDER BY sp.paid_on, sp.id$q$),

('supplier_bank_accounts',
 'bank accounts of supplier $1 added on or before $2, with the payments made to each',
 '{supplier_id,as_of}',
 $q$SELECT ba.id, ba.iban_masked, ba.account_ending, ba.added_on, ba.verified, ba.verification, ba.uri,
       (SELECT count(*) FROM footnote_src.supplier_payments AS sp
        WHERE sp.bank_account_id = ba.id AND sp.paid_on <= $2) AS payments
FROM footnote_src.supplier_bank_accounts AS ba
WHERE ba.supplier_id = $1 AND ba.added_on <= $2
ORDER BY ba.added_on, ba.id$q$),

('bank_change_requests',
 'requests to change the bank details of supplier $1 made on or before $2, newest first',
 '{supplier_id,as_of}',
 $q$SELECT r.id, r.requested_on, r.channel, r.sender, r.sender_domain, r.domain_registered_on,
       r.requested_on - r.domain_registered_on AS domain_age_days,
       r.requested_iban_masked, r.requested_account_ending, r.status, r.verified, r.verification, r.uri
FROM footnote_src.bank_change_requests AS r
WHERE r.supplier_id = $1 AND r.requested_on <= $2
ORDER BY r.requested_on DESC, r.id DESC$q$);

-- ==== sql/10_customers.sql ============================================

-- footnote-pg: catalog operations about customers.
--
-- Each operation validates its arguments, resolves the customer, runs named
-- queries from footnote.queries, and returns one result document through
-- footnote._finish, which appends it to the call log. SECURITY DEFINER, owned
-- by footnote_owner, search_path pinned; EXECUTE is granted in 90_grants.sql.

-- Evidence row of one customer, and the query that fetched it.
CREATE FUNCTION footnote._customer_evidence(customer_id bigint, OUT evidence jsonb, OUT facts jsonb, OUT query jsonb)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    EXECUTE format('SELECT to_jsonb(c) FROM (%s) AS c', footnote._query('customer')) INTO facts USING customer_id;
    evidence := footnote._row_evidence('customer', 'id', facts,
        ARRAY['name', 'customer_number', 'country', 'city', 'payment_terms_days', 'account_owner', 'credit_limit']);
    query := footnote._query_ref('customer', jsonb_build_array(customer_id));
END
$$;

-- Customers by name (optionally those whose name contains name_contains), at most limit.
CREATE FUNCTION footnote.list_customers(name_contains text DEFAULT NULL, "limit" integer DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._list('list_customers', 'customers', 'customer', name_contains, "limit",
        '{"name": ["text", "name"], "customer_number": ["text", "customer_number"],
          "payment_terms": ["days", "payment_terms_days"], "account_owner": ["text", "account_owner"]}',
        ARRAY['name', 'customer_number', 'country', 'city', 'payment_terms_days', 'account_owner'],
        clock_timestamp())
$$;

-- The overdue invoices of a customer as of a date: total, count, oldest days past due (and which invoice),
-- their ids, evidence rows and value rows.
CREATE FUNCTION footnote._overdue(customer_id bigint, as_of date,
    OUT total numeric, OUT n bigint, OUT oldest integer, OUT oldest_id text,
    OUT ids text[], OUT evidence jsonb[], OUT rws jsonb[], OUT query jsonb)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r record;
BEGIN
    total := 0.00;
    n := 0;
    ids := '{}';
    evidence := '{}';
    rws := '{}';
    FOR r IN EXECUTE footnote._query('overdue_invoices') USING customer_id, as_of LOOP
        ids := ids || ('invoice:' || r.invoice_id);
        evidence := evidence || footnote._row_evidence('invoice', 'invoice_id', to_jsonb(r),
            ARRAY['number', 'issue_date', 'due_date', 'gross', 'paid', 'credited', 'outstanding', 'days_past_due']);
        rws := rws || jsonb_build_object(
            'number', footnote._value('text', r.number, ARRAY['invoice:' || r.invoice_id]),
            'due_date', footnote._value('date', r.due_date::text, ARRAY['invoice:' || r.invoice_id]),
            'outstanding', footnote._value('amount', r.outstanding::text, ARRAY['invoice:' || r.invoice_id]),
            'days_past_due', footnote._value('days', r.days_past_due::text, ARRAY['invoice:' || r.invoice_id]));
        total := r.total_outstanding;
        n := r.invoice_count;
        IF oldest IS NULL THEN  -- oldest due first: the first row is the oldest
            oldest := r.oldest_days_past_due;
            oldest_id := 'invoice:' || r.invoice_id;
        END IF;
    END LOOP;
    query := footnote._query_ref('overdue_invoices', jsonb_build_array(customer_id, as_of));
END
$$;

-- Overdue invoices of one customer as of a date: total outstanding, count, oldest days past due, one row per invoice.
CREATE FUNCTION footnote.customer_overdue(customer text, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    d       date := footnote._date_arg('as_of', as_of);
    c       footnote.entity := footnote._resolve('customer', 'customer', customer);
    cust    record;
    o       record;
    vals    jsonb;
BEGIN
    SELECT * INTO cust FROM footnote._customer_evidence(c.id);
    SELECT * INTO o FROM footnote._overdue(c.id, d);
    vals := jsonb_build_object(
        'customer', footnote._value('text', c.name, ARRAY['customer:' || c.id]),
        'as_of', footnote._value('date', d::text, '{}'),
        'overdue_total', footnote._value('amount', o.total::text, o.ids),
        'invoice_count', footnote._value('count', o.n::text, o.ids));
    IF o.n > 0 THEN
        vals := vals || jsonb_build_object('oldest_days_past_due', footnote._value('days', o.oldest::text, ARRAY[o.oldest_id]));
    END IF;
    RETURN footnote._finish('customer_overdue',
        jsonb_build_object('customer', customer, 'as_of', as_of), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('customer', c.uri, 'as_of', d),
            'subject', jsonb_build_object('customer', jsonb_build_object('id', c.id::text, 'name', c.name, 'uri', c.uri)),
            'values', vals,
            'rows', to_jsonb(o.rws),
            'evidence', to_jsonb(ARRAY[cust.evidence] || o.evidence),
            'empty_reason', CASE WHEN o.n = 0 THEN 'no_overdue_invoices' END,
            'queries', jsonb_build_array(cust.query, o.query)));
END
$$;

-- Open support tickets of one customer as of a date, most severe first, with counts.
CREATE FUNCTION footnote.open_tickets(customer text, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    d       date := footnote._date_arg('as_of', as_of);
    c       footnote.entity := footnote._resolve('customer', 'customer', customer);
    r       record;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    ids     text[] := '{}';
    high_ids text[] := '{}';
    n       bigint := 0;
BEGIN
    FOR r IN EXECUTE footnote._query('open_tickets') USING c.id, d LOOP
        ids := ids || ('ticket:' || r.id);
        IF r.severity IN ('high', 'critical') THEN
            high_ids := high_ids || ('ticket:' || r.id);
        END IF;
        ev := ev || footnote._row_evidence('ticket', 'id', to_jsonb(r),
            ARRAY['subject', 'severity', 'status', 'opened_on', 'age_days']);
        rws := rws || jsonb_build_object(
            'subject', footnote._value('text', r.subject, ARRAY['ticket:' || r.id]),
            'severity', footnote._value('text', r.severity, ARRAY['ticket:' || r.id]),
            'opened_on', footnote._value('date', r.opened_on::text, ARRAY['ticket:' || r.id]),
            'age', footnote._value('days', r.age_days::text, ARRAY['ticket:' || r.id]));
        n := r.open_count;
    END LOOP;
    RETURN footnote._finish('open_tickets',
        jsonb_build_object('customer', customer, 'as_of', as_of), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('customer', c.uri, 'as_of', d),
            'subject', jsonb_build_object('customer', jsonb_build_object('id', c.id::text, 'name', c.name, 'uri', c.uri)),
            'values', jsonb_build_object(
                'customer', footnote._value('text', c.name, '{}'),
                'as_of', footnote._value('date', d::text, '{}'),
                'open_count', footnote._value('count', n::text, ids),
                'high_severity_count', footnote._value('count', cardinality(high_ids)::text, high_ids)),
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN n = 0 THEN 'no_open_tickets' END,
            'queries', jsonb_build_array(footnote._query_ref('open_tickets', jsonb_build_array(c.id, d)))));
END
$$;

-- The facts behind a customer's risk as of a date: overdue balance, open tickets and their severity, payment terms, account owner.
CREATE FUNCTION footnote.customer_risk(customer text, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    d       date := footnote._date_arg('as_of', as_of);
    c       footnote.entity := footnote._resolve('customer', 'customer', customer);
    cust    record;
    o       record;
    r       record;
    ev      jsonb[] := '{}';
    inv_ids text[] := '{}';
    tk_ids  text[] := '{}';
    high_ids text[] := '{}';
    total   numeric := 0.00;
    n_inv   bigint := 0;
    n_tk    bigint := 0;
    oldest  integer;
    oldest_id text;
    cid     text;
    vals    jsonb;
BEGIN
    SELECT * INTO cust FROM footnote._customer_evidence(c.id);
    cid := 'customer:' || c.id;
    ev := ev || cust.evidence;
    SELECT * INTO o FROM footnote._overdue(c.id, d);
    inv_ids := o.ids;
    ev := ev || o.evidence;
    total := o.total;
    n_inv := o.n;
    oldest := o.oldest;
    oldest_id := o.oldest_id;
    FOR r IN EXECUTE footnote._query('open_tickets') USING c.id, d LOOP
        tk_ids := tk_ids || ('ticket:' || r.id);
        IF r.severity IN ('high', 'critical') THEN
            high_ids := high_ids || ('ticket:' || r.id);
        END IF;
        ev := ev || footnote._row_evidence('ticket', 'id', to_jsonb(r),
            ARRAY['subject', 'severity', 'status', 'opened_on', 'age_days']);
        n_tk := r.open_count;
    END LOOP;
    vals := jsonb_build_object(
        'customer', footnote._value('text', c.name, ARRAY[cid]),
        'as_of', footnote._value('date', d::text, '{}'),
        'overdue_total', footnote._value('amount', total::text, inv_ids),
        'overdue_invoice_count', footnote._value('count', n_inv::text, inv_ids),
        'open_ticket_count', footnote._value('count', n_tk::text, tk_ids),
        'high_severity_ticket_count', footnote._value('count', cardinality(high_ids)::text, high_ids),
        'payment_terms', footnote._value('days', cust.facts->>'payment_terms_days', ARRAY[cid]),
        'account_owner', footnote._value('text', cust.facts->>'account_owner', ARRAY[cid]));
    IF n_inv > 0 THEN
        vals := vals || jsonb_build_object('oldest_days_past_due', footnote._value('days', oldest::text, ARRAY[oldest_id]));
    END IF;
    RETURN footnote._finish('customer_risk',
        jsonb_build_object('customer', customer, 'as_of', as_of), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('customer', c.uri, 'as_of', d),
            'subject', jsonb_build_object('customer', jsonb_build_object('id', c.id::text, 'name', c.name, 'uri', c.uri)),
            'values', vals,
            'evidence', to_jsonb(ev),
            'queries', jsonb_build_array(cust.query, o.query,
                footnote._query_ref('open_tickets', jsonb_build_array(c.id, d)))));
END
$$;

-- ==== sql/11_receivables.sql ==========================================

-- footnote-pg: catalog operations about receivables: aging, days sales outstanding, one invoice.

-- Accounts-receivable aging as of a date (all customers, or one): current, 1-30, 31-60, 61-90 and over 90 days past due.
CREATE FUNCTION footnote.ar_aging(as_of date DEFAULT NULL, customer text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    d       date := footnote._date_arg('as_of', as_of);
    c       footnote.entity;
    r       record;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    ids     text[] := '{}';
    b_ids   jsonb := '{}';
    b_total jsonb := '{}';
    b_count jsonb := '{}';
    b       text;
    total   numeric := 0.00;
    n       bigint := 0;
    vals    jsonb;
BEGIN
    IF customer IS NOT NULL THEN
        c := footnote._resolve('customer', 'customer', customer);
    END IF;
    FOR r IN EXECUTE footnote._query('open_invoices_aged') USING d, c.id LOOP
        ids := ids || ('invoice:' || r.invoice_id);
        b_ids := jsonb_set(b_ids, ARRAY[r.bucket], coalesce(b_ids->r.bucket, '[]') || to_jsonb('invoice:' || r.invoice_id));
        b_total := b_total || jsonb_build_object(r.bucket, r.bucket_total::text);
        b_count := b_count || jsonb_build_object(r.bucket, r.bucket_count::text);
        ev := ev || footnote._row_evidence('invoice', 'invoice_id', to_jsonb(r),
            ARRAY['number', 'customer_id', 'customer_name', 'issue_date', 'due_date', 'gross', 'paid', 'credited',
                  'outstanding', 'days_past_due', 'bucket']);
        total := r.total_outstanding;
        n := r.invoice_count;
    END LOOP;
    vals := jsonb_build_object(
        'as_of', footnote._value('date', d::text, '{}'),
        'total_outstanding', footnote._value('amount', total::text, ids),
        'invoice_count', footnote._value('count', n::text, ids));
    IF c.id IS NOT NULL THEN
        vals := vals || jsonb_build_object('customer', footnote._value('text', c.name, '{}'));
    END IF;
    FOREACH b IN ARRAY ARRAY['current', '1-30', '31-60', '61-90', 'over_90'] LOOP
        rws := rws || jsonb_build_object(
            'bucket', footnote._value('text', CASE b WHEN 'current' THEN 'current' WHEN 'over_90' THEN 'over 90 days'
                                                     ELSE b || ' days' END, '{}'),
            'outstanding', footnote._value('amount', coalesce(b_total->>b, '0.00'),
                ARRAY(SELECT jsonb_array_elements_text(coalesce(b_ids->b, '[]')))),
            'invoice_count', footnote._value('count', coalesce(b_count->>b, '0'),
                ARRAY(SELECT jsonb_array_elements_text(coalesce(b_ids->b, '[]')))));
    END LOOP;
    RETURN footnote._finish('ar_aging',
        jsonb_build_object('as_of', as_of, 'customer', customer), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('as_of', d, 'customer', c.uri),
            'subject', CASE WHEN c.id IS NOT NULL THEN jsonb_build_object('customer',
                jsonb_build_object('id', c.id::text, 'name', c.name, 'uri', c.uri)) END,
            'values', vals,
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN n = 0 THEN 'no_open_invoices' END,
            'queries', jsonb_build_array(footnote._query_ref('open_invoices_aged', jsonb_build_array(d, c.id)))));
END
$$;

-- Days sales outstanding as of a date: receivables / gross sales of the window * window days.
CREATE FUNCTION footnote.days_sales_outstanding(as_of date DEFAULT NULL, window_days integer DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    d       date := footnote._date_arg('as_of', as_of);
    w       integer := footnote._int_arg('window_days', window_days, 1, 3660,
                                         coalesce(footnote.setting('dso_window_days')::integer, 90));
    r       record;
    ev      jsonb[] := '{}';
    ar_ids  text[] := '{}';
    s_ids   text[] := '{}';
    ar      numeric := 0.00;
    sales   numeric := 0.00;
    dso     numeric;
    vals    jsonb;
BEGIN
    FOR r IN EXECUTE footnote._query('open_invoices_aged') USING d, NULL::bigint LOOP
        ar_ids := ar_ids || ('invoice:' || r.invoice_id);
        ev := ev || footnote._row_evidence('invoice', 'invoice_id', to_jsonb(r),
            ARRAY['number', 'customer_id', 'issue_date', 'due_date', 'gross', 'paid', 'credited', 'outstanding']);
        ar := r.total_outstanding;
    END LOOP;
    FOR r IN EXECUTE footnote._query('sales_in_window') USING d, w LOOP
        s_ids := s_ids || ('invoice:' || r.id);
        IF NOT ('invoice:' || r.id) = ANY (ar_ids) THEN
            ev := ev || footnote._row_evidence('invoice', 'id', to_jsonb(r),
                ARRAY['number', 'customer_id', 'issue_date', 'gross']);
        END IF;
        sales := r.gross_sales;
    END LOOP;
    EXECUTE footnote._query('dso') INTO dso USING ar, sales, w;
    vals := jsonb_build_object(
        'as_of', footnote._value('date', d::text, '{}'),
        'window', footnote._value('days', w::text, '{}'),
        'receivables', footnote._value('amount', ar::text, ar_ids),
        'gross_sales', footnote._value('amount', sales::text, s_ids));
    IF dso IS NOT NULL THEN
        vals := vals || jsonb_build_object('dso', footnote._value('days', dso::text, ar_ids || s_ids));
    END IF;
    RETURN footnote._finish('days_sales_outstanding',
        jsonb_build_object('as_of', as_of, 'window_days', window_days), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('as_of', d, 'window_days', w),
            'formula', 'DSO = receivables outstanding as of the date / gross sales invoiced in the window ending that day * days in the window',
            'values', vals,
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN dso IS NULL THEN 'no_sales_in_window' END,
            'queries', jsonb_build_array(
                footnote._query_ref('open_invoices_aged', jsonb_build_array(d, NULL)),
                footnote._query_ref('sales_in_window', jsonb_build_array(d, w)),
                footnote._query_ref('dso', jsonb_build_array(ar::text, sales::text, w)))));
END
$$;

-- One invoice by number (INV-2026-8812), id or deep link, with its balance as of a date and what settled it.
CREATE FUNCTION footnote.invoice(number text, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    v       text := footnote._text_arg('number', number, true, 60);
    d       date := footnote._date_arg('as_of', as_of);
    wanted_id bigint := CASE WHEN v ~ '^(erp://invoice/)?\d{1,18}$' THEN substring(v FROM '(\d+)$')::bigint END;
    inv     record;
    bal     record;
    r       record;
    iid     text;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    alts    jsonb;
    vals    jsonb;
BEGIN
    -- invoice numbers are stored upper case (INV-2026-8812); people type them in any case
    EXECUTE footnote._query('invoice_by_number') INTO inv USING upper(v), wanted_id;
    IF inv.id IS NULL THEN
        EXECUTE format('SELECT jsonb_agg(jsonb_build_object(''id'', n.id::text, ''name'', n.number, ''uri'', n.uri)) FROM (%s) AS n',
                       footnote._query('nearest_invoices'))
            INTO alts USING coalesce(wanted_id, substring(v FROM '(\d{1,18})\D*$')::bigint, 0);
        RAISE EXCEPTION USING
            ERRCODE = 'FN002',
            MESSAGE = format('unknown invoice "%s"%s', v,
                coalesce('; closest: ' || (SELECT string_agg(x->>'name', ', ') FROM jsonb_array_elements(alts) AS x), '')),
            DETAIL = jsonb_build_object('argument', 'number', 'entity', 'invoice', 'value', v,
                                        'alternatives', coalesce(alts, '[]'::jsonb))::text;
    END IF;
    iid := 'invoice:' || inv.id;
    EXECUTE footnote._query('invoice_balance') INTO bal USING inv.id, d;
    ev := ev || footnote._row_evidence('invoice', 'id',
        to_jsonb(inv) || jsonb_build_object('paid', bal.paid, 'credited', bal.credited,
                                            'outstanding', bal.outstanding, 'days_past_due', bal.days_past_due),
        ARRAY['number', 'customer_id', 'customer_name', 'issue_date', 'due_date', 'net', 'tax', 'gross',
              'paid', 'credited', 'outstanding', 'days_past_due']);
    FOR r IN EXECUTE footnote._query('invoice_settlements') USING inv.id, d LOOP
        ev := ev || footnote._row_evidence(r.type, 'id', to_jsonb(r), ARRAY['on_date', 'amount', 'detail']);
        rws := rws || jsonb_build_object(
            'type', footnote._value('text', replace(r.type, '_', ' '), ARRAY[r.type || ':' || r.id]),
            'date', footnote._value('date', r.on_date::text, ARRAY[r.type || ':' || r.id]),
            'amount', footnote._value('amount', r.amount::text, ARRAY[r.type || ':' || r.id]));
    END LOOP;
    vals := jsonb_build_object(
        'number', footnote._value('text', inv.number, ARRAY[iid]),
        'customer', footnote._value('text', inv.customer_name, ARRAY[iid]),
        'as_of', footnote._value('date', d::text, '{}'),
        'issue_date', footnote._value('date', inv.issue_date::text, ARRAY[iid]),
        'due_date', footnote._value('date', inv.due_date::text, ARRAY[iid]),
        'net', footnote._value('amount', inv.net::text, ARRAY[iid]),
        'tax', footnote._value('amount', inv.tax::text, ARRAY[iid]),
        'gross', footnote._value('amount', inv.gross::text, ARRAY[iid]));
    IF bal.invoice_id IS NOT NULL THEN
        vals := vals || jsonb_build_object(
            'paid', footnote._value('amount', bal.paid::text, ARRAY[iid]),
            'credited', footnote._value('amount', bal.credited::text, ARRAY[iid]),
            'outstanding', footnote._value('amount', bal.outstanding::text, ARRAY[iid]));
        IF bal.outstanding > 0 AND bal.days_past_due > 0 THEN
            vals := vals || jsonb_build_object('days_past_due', footnote._value('days', bal.days_past_due::text, ARRAY[iid]));
        END IF;
    END IF;
    RETURN footnote._finish('invoice',
        jsonb_build_object('number', number, 'as_of', as_of), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('number', inv.number, 'as_of', d),
            'subject', jsonb_build_object('invoice', jsonb_build_object('id', inv.id::text, 'name', inv.number, 'uri', inv.uri),
                                          'customer', jsonb_build_object('id', inv.customer_id::text, 'name', inv.customer_name,
                                                                         'uri', inv.customer_uri)),
            'values', vals,
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN bal.invoice_id IS NULL THEN 'not_issued_as_of' END,
            'queries', jsonb_build_array(
                footnote._query_ref('invoice_by_number', jsonb_build_array(upper(v), wanted_id)),
                footnote._query_ref('invoice_balance', jsonb_build_array(inv.id, d)),
                footnote._query_ref('invoice_settlements', jsonb_build_array(inv.id, d)))));
END
$$;

-- The record behind a deep link (erp://invoice/8812): its type, id and every field of its source view.
CREATE FUNCTION footnote.source_record(uri text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    v       text := footnote._text_arg('uri', uri, true, 200);
    m       text[] := regexp_match(v, '^erp://([a-z_]+)/(\d{1,18})$');
    r       record;
    eid     text;
    types   text[] := ARRAY['customer', 'invoice', 'payment', 'credit_note', 'ticket', 'supplier', 'bank_account',
                            'supplier_payment', 'bank_change_request', 'purchase_order', 'item', 'stock'];
BEGIN
    IF m IS NULL OR NOT m[1] = ANY (types) THEN
        PERFORM footnote._invalid('uri', format('%s is not a deep link erp://<type>/<id> with type one of %s',
                                                v, array_to_string(types, ', ')), v);
    END IF;
    EXECUTE footnote._query('source_record') INTO r USING m[1], m[2]::bigint;
    IF r.id IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'FN002',
            MESSAGE = format('unknown %s %s: no such record', m[1], m[2]),
            DETAIL = jsonb_build_object('argument', 'uri', 'entity', m[1], 'value', v, 'alternatives', '[]'::jsonb)::text;
    END IF;
    eid := r.type || ':' || r.id;
    RETURN footnote._finish('source_record', jsonb_build_object('uri', uri), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('uri', r.uri),
            'values', jsonb_build_object('type', footnote._value('text', r.type, ARRAY[eid]),
                                         'uri', footnote._value('text', r.uri, ARRAY[eid])),
            'evidence', jsonb_build_array(footnote._row_evidence(r.type, 'id', r.fields || jsonb_build_object('uri', r.uri),
                (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(r.fields) AS k WHERE k <> 'id'),
                coalesce((r.fields->>'verified')::boolean, (r.fields->>'phone_verified')::boolean, true))),
            'queries', jsonb_build_array(footnote._query_ref('source_record', jsonb_build_array(m[1], m[2]::bigint)))));
END
$$;

-- ==== sql/12_revenue.sql ==============================================

-- footnote-pg: catalog operations about revenue.
--
-- Revenue of a period = net amount of invoices issued in it minus net amount
-- of credit notes issued in it (by issue date, in the settings currency).

-- Revenue documents of a period (optionally one customer): total, counts, evidence and the query.
CREATE FUNCTION footnote._revenue(p footnote.period, customer_id bigint,
    OUT total numeric, OUT invoice_count bigint, OUT credit_note_count bigint,
    OUT ids text[], OUT evidence jsonb[], OUT query jsonb)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r record;
BEGIN
    total := 0.00;
    invoice_count := 0;
    credit_note_count := 0;
    ids := '{}';
    evidence := '{}';
    FOR r IN EXECUTE footnote._query('revenue_documents') USING p.starts, p.ends, customer_id LOOP
        ids := ids || (r.type || ':' || r.id);
        evidence := evidence || footnote._row_evidence(r.type, 'id', to_jsonb(r),
            ARRAY['number', 'customer_id', 'issue_date', 'amount']);
        total := r.revenue;
        invoice_count := r.invoice_count;
        credit_note_count := r.credit_note_count;
    END LOOP;
    query := footnote._query_ref('revenue_documents', jsonb_build_array(p.starts, p.ends, customer_id));
END
$$;

-- Revenue for a period (month 2026-07, quarter 2026-Q2, fiscal year FY2026, year 2026), of all customers or one.
CREATE FUNCTION footnote.revenue(period text, customer text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    p       footnote.period := footnote._period_arg('period', period);
    c       footnote.entity;
    rv      record;
    vals    jsonb;
BEGIN
    IF customer IS NOT NULL THEN
        c := footnote._resolve('customer', 'customer', customer);
    END IF;
    SELECT * INTO rv FROM footnote._revenue(p, c.id);
    vals := jsonb_build_object(
        'period', footnote._value('period', p.label, '{}'),
        'revenue', footnote._value('amount', rv.total::text, rv.ids),
        'invoice_count', footnote._value('count', rv.invoice_count::text,
            ARRAY(SELECT x FROM unnest(rv.ids) AS x WHERE x LIKE 'invoice:%')),
        'credit_note_count', footnote._value('count', rv.credit_note_count::text,
            ARRAY(SELECT x FROM unnest(rv.ids) AS x WHERE x LIKE 'credit_note:%')));
    IF c.id IS NOT NULL THEN
        vals := vals || jsonb_build_object('customer', footnote._value('text', c.name, '{}'));
    END IF;
    RETURN footnote._finish('revenue',
        jsonb_build_object('period', period, 'customer', customer), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('period', btrim(period), 'customer', c.uri),
            'subject', jsonb_build_object('period', jsonb_build_object('label', p.label, 'kind', p.kind,
                                                                       'starts', p.starts, 'ends', p.ends))
                       || CASE WHEN c.id IS NOT NULL THEN jsonb_build_object('customer',
                              jsonb_build_object('id', c.id::text, 'name', c.name, 'uri', c.uri)) ELSE '{}' END,
            'values', vals,
            'evidence', to_jsonb(rv.evidence),
            'empty_reason', CASE WHEN cardinality(rv.ids) = 0 THEN 'no_documents_in_period' END,
            'queries', jsonb_build_array(rv.query)));
END
$$;

-- Revenue change between two periods (of all customers or one): both revenues, the absolute change and the change in percent.
CREATE FUNCTION footnote.revenue_change(period_from text, period_to text, customer text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    pa      footnote.period := footnote._period_arg('period_from', period_from);
    pb      footnote.period := footnote._period_arg('period_to', period_to);
    c       footnote.entity;
    ra      record;
    rb      record;
    chg     record;
    both_ids text[];
    vals    jsonb;
BEGIN
    IF customer IS NOT NULL THEN
        c := footnote._resolve('customer', 'customer', customer);
    END IF;
    SELECT * INTO ra FROM footnote._revenue(pa, c.id);
    SELECT * INTO rb FROM footnote._revenue(pb, c.id);
    EXECUTE footnote._query('change') INTO chg USING ra.total, rb.total;
    both_ids := ra.ids || ARRAY(SELECT x FROM unnest(rb.ids) AS x WHERE NOT x = ANY (ra.ids));
    vals := jsonb_build_object(
        'period_from', footnote._value('period', pa.label, '{}'),
        'period_to', footnote._value('period', pb.label, '{}'),
        'revenue_from', footnote._value('amount', ra.total::text, ra.ids),
        'revenue_to', footnote._value('amount', rb.total::text, rb.ids),
        'change', footnote._value('amount', abs(chg.change)::text, both_ids,
                                  jsonb_build_object('signed_raw', chg.change::text)),
        'direction', footnote._value('text', CASE sign(chg.change) WHEN 1 THEN 'up' WHEN -1 THEN 'down'
                                                 ELSE 'unchanged' END, both_ids));
    IF chg.change_percent IS NOT NULL THEN
        vals := vals || jsonb_build_object('change_percent', footnote._value('percent', abs(chg.change_percent)::text,
            both_ids, jsonb_build_object('signed_raw', chg.change_percent::text)));
    END IF;
    IF c.id IS NOT NULL THEN
        vals := vals || jsonb_build_object('customer', footnote._value('text', c.name, '{}'));
    END IF;
    RETURN footnote._finish('revenue_change',
        jsonb_build_object('period_from', period_from, 'period_to', period_to, 'customer', customer), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('period_from', btrim(period_from), 'period_to', btrim(period_to), 'customer', c.uri),
            'values', vals,
            'evidence', to_jsonb(ra.evidence || ARRAY(SELECT e FROM unnest(rb.evidence) AS e
                                                      WHERE NOT (e->>'id') = ANY (ra.ids))),
            'empty_reason', CASE WHEN chg.change_percent IS NULL THEN 'no_revenue_in_base_period' END,
            'queries', jsonb_build_array(ra.query, rb.query,
                footnote._query_ref('change', jsonb_build_array(ra.total::text, rb.total::text)))));
END
$$;

-- Evidence rows of invoices and credit notes named as "invoice:<id>" / "credit_note:<id>", and the query that read them.
CREATE FUNCTION footnote._document_evidence(documents text[], OUT evidence jsonb[], OUT query jsonb)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    inv_ids bigint[] := ARRAY(SELECT substring(x FROM 9)::bigint FROM unnest(documents) AS x WHERE x LIKE 'invoice:%');
    cn_ids  bigint[] := ARRAY(SELECT substring(x FROM 13)::bigint FROM unnest(documents) AS x WHERE x LIKE 'credit_note:%');
    r       record;
BEGIN
    evidence := '{}';
    FOR r IN EXECUTE footnote._query('documents_by_id') USING inv_ids, cn_ids LOOP
        evidence := evidence || footnote._row_evidence(r.type, 'id', to_jsonb(r),
            ARRAY['number', 'customer_id', 'issue_date', 'net', 'gross']);
    END LOOP;
    query := footnote._query_ref('documents_by_id', jsonb_build_array(to_jsonb(inv_ids), to_jsonb(cn_ids)));
END
$$;

-- Customers ranked by revenue in a period, at most limit (ties share a rank; order is revenue, then customer id).
CREATE FUNCTION footnote.top_customers(period text, "limit" integer DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    p       footnote.period := footnote._period_arg('period', period);
    lim     integer := footnote._int_arg('limit', "limit", 1, 100, 5);
    r       record;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    all_ids text[] := '{}';
    docs    record;
    cid     text;
BEGIN
    FOR r IN EXECUTE footnote._query('top_customers') USING p.starts, p.ends, lim LOOP
        cid := 'customer:' || r.customer_id;
        ev := ev || footnote._evidence('customer', r.customer_id, r.uri, jsonb_build_object('name', r.name));
        all_ids := all_ids || cid || r.documents;
        rws := rws || jsonb_build_object(
            'rank', footnote._value('count', r.rank::text, r.documents),
            'customer', footnote._value('text', r.name, ARRAY[cid]),
            'revenue', footnote._value('amount', r.revenue::text, r.documents),
            'invoice_count', footnote._value('count', r.invoice_count::text,
                ARRAY(SELECT x FROM unnest(r.documents) AS x WHERE x LIKE 'invoice:%')));
    END LOOP;
    SELECT * INTO docs FROM footnote._document_evidence(all_ids);
    ev := ev || docs.evidence;
    RETURN footnote._finish('top_customers',
        jsonb_build_object('period', period, 'limit', "limit"), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('period', btrim(period), 'limit', lim),
            'values', jsonb_build_object(
                'period', footnote._value('period', p.label, '{}'),
                'listed', footnote._value('count', cardinality(rws)::text, all_ids)),
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN cardinality(rws) = 0 THEN 'no_documents_in_period' END,
            'queries', jsonb_build_array(
                footnote._query_ref('top_customers', jsonb_build_array(p.starts, p.ends, lim)),
                docs.query)));
END
$$;

-- Customers whose revenue changed most between two periods: revenue in each, the change (signed raw, unsigned text).
CREATE FUNCTION footnote.revenue_drivers(period_from text, period_to text, "limit" integer DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    pa      footnote.period := footnote._period_arg('period_from', period_from);
    pb      footnote.period := footnote._period_arg('period_to', period_to);
    lim     integer := footnote._int_arg('limit', "limit", 1, 100, 3);
    r       record;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    all_ids text[] := '{}';
    docs    record;
    cid     text;
BEGIN
    FOR r IN EXECUTE footnote._query('revenue_drivers') USING pa.starts, pa.ends, pb.starts, pb.ends, lim LOOP
        cid := 'customer:' || r.customer_id;
        ev := ev || footnote._evidence('customer', r.customer_id, r.uri, jsonb_build_object('name', r.name));
        all_ids := all_ids || cid || r.documents;
        rws := rws || jsonb_build_object(
            'customer', footnote._value('text', r.name, ARRAY[cid]),
            'revenue_from', footnote._value('amount', r.revenue_from::text, r.documents),
            'revenue_to', footnote._value('amount', r.revenue_to::text, r.documents),
            'change', footnote._value('amount', abs(r.change)::text, r.documents,
                                      jsonb_build_object('signed_raw', r.change::text)),
            'direction', footnote._value('text', CASE sign(r.change) WHEN 1 THEN 'up' WHEN -1 THEN 'down'
                                                     ELSE 'unchanged' END, r.documents));
    END LOOP;
    SELECT * INTO docs FROM footnote._document_evidence(all_ids);
    ev := ev || docs.evidence;
    RETURN footnote._finish('revenue_drivers',
        jsonb_build_object('period_from', period_from, 'period_to', period_to, 'limit', "limit"), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('period_from', btrim(period_from), 'period_to', btrim(period_to),
                                                      'limit', lim),
            'values', jsonb_build_object(
                'period_from', footnote._value('period', pa.label, '{}'),
                'period_to', footnote._value('period', pb.label, '{}'),
                'listed', footnote._value('count', cardinality(rws)::text, all_ids)),
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN cardinality(rws) = 0 THEN 'no_documents_in_period' END,
            'queries', jsonb_build_array(
                footnote._query_ref('revenue_drivers', jsonb_build_array(pa.starts, pa.ends, pb.starts, pb.ends, lim)),
                docs.query)));
END
$$;

-- ==== sql/13_supply.sql ===============================================

-- footnote-pg: catalog operations about purchasing, stock and supplier payments.

-- Suppliers by name (optionally those whose name contains name_contains), at most limit.
CREATE FUNCTION footnote.list_suppliers(name_contains text DEFAULT NULL, "limit" integer DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._list('list_suppliers', 'suppliers', 'supplier', name_contains, "limit",
        '{"name": ["text", "name"], "supplier_number": ["text", "supplier_number"], "country": ["text", "country"]}',
        ARRAY['name', 'supplier_number', 'country'], clock_timestamp())
$$;

-- Items by name (optionally those whose name or SKU contains name_contains), at most limit.
CREATE FUNCTION footnote.list_items(name_contains text DEFAULT NULL, "limit" integer DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._list('list_items', 'items', 'item', name_contains, "limit",
        '{"name": ["text", "name"], "sku": ["text", "sku"], "unit": ["text", "unit"]}',
        ARRAY['sku', 'name', 'unit'], clock_timestamp())
$$;

-- Purchase orders open or partially received, of all suppliers or one, by expected date.
CREATE FUNCTION footnote.open_purchase_orders(supplier text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    s       footnote.entity;
    r       record;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    ids     text[] := '{}';
    total   numeric := 0.00;
    n       bigint := 0;
    vals    jsonb;
BEGIN
    IF supplier IS NOT NULL THEN
        s := footnote._resolve('supplier', 'supplier', supplier);
    END IF;
    FOR r IN EXECUTE footnote._query('open_purchase_orders') USING s.id LOOP
        ids := ids || ('purchase_order:' || r.id);
        ev := ev || footnote._row_evidence('purchase_order', 'id', to_jsonb(r),
            ARRAY['number', 'supplier_id', 'supplier_name', 'ordered_on', 'expected_on', 'status', 'net']);
        rws := rws || jsonb_build_object(
            'number', footnote._value('text', r.number, ARRAY['purchase_order:' || r.id]),
            'supplier', footnote._value('text', r.supplier_name, ARRAY['purchase_order:' || r.id]),
            'expected_on', footnote._value('date', r.expected_on::text, ARRAY['purchase_order:' || r.id]),
            'status', footnote._value('text', replace(r.status, '_', ' '), ARRAY['purchase_order:' || r.id]),
            'net', footnote._value('amount', r.net::text, ARRAY['purchase_order:' || r.id]));
        total := r.open_total;
        n := r.open_count;
    END LOOP;
    vals := jsonb_build_object(
        'open_count', footnote._value('count', n::text, ids),
        'open_total', footnote._value('amount', total::text, ids));
    IF s.id IS NOT NULL THEN
        vals := vals || jsonb_build_object('supplier', footnote._value('text', s.name, '{}'));
    END IF;
    RETURN footnote._finish('open_purchase_orders',
        jsonb_build_object('supplier', supplier), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('supplier', s.uri),
            'subject', CASE WHEN s.id IS NOT NULL THEN jsonb_build_object('supplier',
                jsonb_build_object('id', s.id::text, 'name', s.name, 'uri', s.uri)) END,
            'values', vals,
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN n = 0 THEN 'no_open_purchase_orders' END,
            'queries', jsonb_build_array(footnote._query_ref('open_purchase_orders', jsonb_build_array(s.id)))));
END
$$;

-- Stock on hand of one item (by name or SKU), per warehouse and in total, against its reorder level.
CREATE FUNCTION footnote.stock_on_hand(item text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    i       footnote.entity := footnote._resolve('item', 'item', item);
    it      jsonb;
    iid     text := 'item:' || i.id;
    r       record;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    ids     text[] := '{}';
    total   numeric := 0;
    n       bigint := 0;
BEGIN
    EXECUTE format('SELECT to_jsonb(x) FROM (%s) AS x', footnote._query('item')) INTO it USING i.id;
    ev := ev || footnote._row_evidence('item', 'id', it, ARRAY['sku', 'name', 'unit', 'reorder_level']);
    FOR r IN EXECUTE footnote._query('stock_of_item') USING i.id LOOP
        ids := ids || ('stock:' || r.id);
        ev := ev || footnote._row_evidence('stock', 'id', to_jsonb(r), ARRAY['warehouse', 'quantity', 'counted_on']);
        rws := rws || jsonb_build_object(
            'warehouse', footnote._value('text', r.warehouse, ARRAY['stock:' || r.id]),
            'quantity', footnote._value('quantity', r.quantity::text, ARRAY['stock:' || r.id]),
            'counted_on', footnote._value('date', r.counted_on::text, ARRAY['stock:' || r.id]));
        total := r.total_quantity;
        n := r.warehouse_count;
    END LOOP;
    RETURN footnote._finish('stock_on_hand',
        jsonb_build_object('item', item), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('item', i.uri),
            'subject', jsonb_build_object('item', jsonb_build_object('id', i.id::text, 'name', i.name, 'uri', i.uri)),
            'values', jsonb_build_object(
                'item', footnote._value('text', i.name, ARRAY[iid]),
                'sku', footnote._value('text', it->>'sku', ARRAY[iid]),
                'unit', footnote._value('text', it->>'unit', ARRAY[iid]),
                'quantity', footnote._value('quantity', total::text, ids),
                'reorder_level', footnote._value('quantity', it->>'reorder_level', ARRAY[iid]),
                'below_reorder_level', footnote._value('text',
                    CASE WHEN total < (it->>'reorder_level')::numeric THEN 'yes' ELSE 'no' END, ids || iid),
                'warehouse_count', footnote._value('count', n::text, ids)),
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN n = 0 THEN 'no_stock_records' END,
            'queries', jsonb_build_array(footnote._query_ref('item', jsonb_build_array(i.id)),
                                         footnote._query_ref('stock_of_item', jsonb_build_array(i.id)))));
END
$$;

-- A supplier's payment facts as of a date: payment history, bank accounts used, pending bank-detail
-- changes and the phone on file, each fact with how it was verified.
CREATE FUNCTION footnote.supplier_payment_facts(supplier text, as_of date DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started constant timestamptz := clock_timestamp();
    d       date := footnote._date_arg('as_of', as_of);
    s       footnote.entity := footnote._resolve('supplier', 'supplier', supplier);
    sup     jsonb;
    sid     text := 'supplier:' || s.id;
    r       record;
    ev      jsonb[] := '{}';
    rws     jsonb[] := '{}';
    pay_ids text[] := '{}';
    acc_ids text[] := '{}';
    req_ids text[] := '{}';
    pend_ids text[] := '{}';
    n_pay   bigint := 0;
    paid    numeric := 0.00;
    first_on date;
    last_on date;
    endings text[] := '{}';
    pend    record;
    have_pend boolean := false;
    vals    jsonb;
    v_ok    boolean;
BEGIN
    EXECUTE format('SELECT to_jsonb(x) FROM (%s) AS x', footnote._query('supplier')) INTO sup USING s.id;
    ev := ev || footnote._row_evidence('supplier', 'id', sup,
        ARRAY['name', 'supplier_number', 'country', 'phone', 'phone_since', 'phone_verified', 'phone_verification'],
        coalesce((sup->>'phone_verified')::boolean, false));
    FOR r IN EXECUTE footnote._query('supplier_payments') USING s.id, d LOOP
        pay_ids := pay_ids || ('supplier_payment:' || r.id);
        ev := ev || footnote._row_evidence('supplier_payment', 'id', to_jsonb(r),
            ARRAY['paid_on', 'amount', 'reference', 'bank_account_id']);
        n_pay := r.payment_count;
        paid := r.total_paid;
        first_on := r.first_paid_on;
        last_on := r.last_paid_on;
    END LOOP;
    FOR r IN EXECUTE footnote._query('supplier_bank_accounts') USING s.id, d LOOP
        acc_ids := acc_ids || ('bank_account:' || r.id);
        IF r.payments > 0 THEN
            endings := endings || r.account_ending;
        END IF;
        ev := ev || footnote._row_evidence('bank_account', 'id', to_jsonb(r),
            ARRAY['iban_masked', 'account_ending', 'added_on', 'verified', 'verification', 'payments'],
            coalesce(r.verified, false));
        rws := rws || jsonb_build_object(
            'fact', footnote._value('text', 'bank account on file', ARRAY['bank_account:' || r.id]),
            'account_ending', footnote._value('text', r.account_ending, ARRAY['bank_account:' || r.id],
                jsonb_build_object('verified', coalesce(r.verified, false), 'verification', r.verification)),
            'payments', footnote._value('count', r.payments::text, ARRAY['bank_account:' || r.id]),
            'added_on', footnote._value('date', r.added_on::text, ARRAY['bank_account:' || r.id]));
    END LOOP;
    FOR r IN EXECUTE footnote._query('bank_change_requests') USING s.id, d LOOP
        req_ids := req_ids || ('bank_change_request:' || r.id);
        v_ok := coalesce(r.verified, false);
        IF r.status = 'pending' THEN
            pend_ids := pend_ids || ('bank_change_request:' || r.id);
            IF NOT have_pend THEN
                pend := r;
                have_pend := true;
            END IF;
        END IF;
        ev := ev || footnote._row_evidence('bank_change_request', 'id', to_jsonb(r),
            ARRAY['requested_on', 'channel', 'sender', 'sender_domain', 'domain_registered_on', 'domain_age_days',
                  'requested_iban_masked', 'requested_account_ending', 'status', 'verified', 'verification'], v_ok);
        rws := rws || jsonb_build_object(
            'fact', footnote._value('text', 'bank detail change request', ARRAY['bank_change_request:' || r.id]),
            'account_ending', footnote._value('text', r.requested_account_ending, ARRAY['bank_change_request:' || r.id],
                jsonb_build_object('verified', v_ok, 'verification', r.verification)),
            'status', footnote._value('text', r.status, ARRAY['bank_change_request:' || r.id]),
            'requested_on', footnote._value('date', r.requested_on::text, ARRAY['bank_change_request:' || r.id]),
            'channel', footnote._value('text', r.channel, ARRAY['bank_change_request:' || r.id]),
            'domain_age', footnote._value('days', r.domain_age_days::text, ARRAY['bank_change_request:' || r.id],
                jsonb_build_object('verified', v_ok, 'verification', r.verification)));
    END LOOP;
    vals := jsonb_build_object(
        'supplier', footnote._value('text', s.name, ARRAY[sid]),
        'as_of', footnote._value('date', d::text, '{}'),
        'payment_count', footnote._value('count', n_pay::text, pay_ids, jsonb_build_object('verified', true, 'verification', 'payment records')),
        'total_paid', footnote._value('amount', paid::text, pay_ids, jsonb_build_object('verified', true, 'verification', 'payment records')),
        'accounts_paid_count', footnote._value('count', cardinality(endings)::text, acc_ids),
        'pending_change_count', footnote._value('count', cardinality(pend_ids)::text, pend_ids),
        'phone', footnote._value('text', sup->>'phone', ARRAY[sid],
            jsonb_build_object('verified', coalesce((sup->>'phone_verified')::boolean, false),
                               'verification', sup->>'phone_verification')),
        'phone_unchanged_since', footnote._value('date', sup->>'phone_since', ARRAY[sid],
            jsonb_build_object('verified', coalesce((sup->>'phone_verified')::boolean, false),
                               'verification', sup->>'phone_verification')));
    IF n_pay > 0 THEN
        vals := vals || jsonb_build_object(
            'first_payment_on', footnote._value('date', first_on::text, pay_ids),
            'last_payment_on', footnote._value('date', last_on::text, pay_ids));
    END IF;
    IF cardinality(endings) = 1 THEN
        vals := vals || jsonb_build_object('paid_account_ending', footnote._value('text', endings[1], acc_ids || pay_ids,
            jsonb_build_object('verified', true, 'verification', 'every payment went to this account')));
    END IF;
    IF have_pend THEN
        vals := vals || jsonb_build_object(
            'pending_account_ending', footnote._value('text', pend.requested_account_ending,
                ARRAY['bank_change_request:' || pend.id],
                jsonb_build_object('verified', coalesce(pend.verified, false), 'verification', pend.verification)),
            'pending_requested_on', footnote._value('date', pend.requested_on::text, ARRAY['bank_change_request:' || pend.id]),
            'pending_channel', footnote._value('text', pend.channel, ARRAY['bank_change_request:' || pend.id]),
            'pending_domain_age', footnote._value('days', pend.domain_age_days::text, ARRAY['bank_change_request:' || pend.id],
                jsonb_build_object('verified', coalesce(pend.verified, false), 'verification', pend.verification)));
    END IF;
    RETURN footnote._finish('supplier_payment_facts',
        jsonb_build_object('supplier', supplier, 'as_of', as_of), started,
        jsonb_build_object(
            'effective_arguments', jsonb_build_object('supplier', s.uri, 'as_of', d),
            'subject', jsonb_build_object('supplier', jsonb_build_object('id', s.id::text, 'name', s.name, 'uri', s.uri)),
            'values', vals,
            'rows', to_jsonb(rws),
            'evidence', to_jsonb(ev),
            'empty_reason', CASE WHEN n_pay = 0 THEN 'no_payments' END,
            'queries', jsonb_build_array(
                footnote._query_ref('supplier', jsonb_build_array(s.id)),
                footnote._query_ref('supplier_payments', jsonb_build_array(s.id, d)),
                footnote._query_ref('supplier_bank_accounts', jsonb_build_array(s.id, d)),
                footnote._query_ref('bank_change_requests', jsonb_build_array(s.id, d)))));
END
$$;

-- ==== sql/20_ledger.sql ===============================================

-- footnote-pg: the provenance ledger.
--
-- One append-only, hash-chained table. Records enter only through the gate
-- (footnote.record_answer / footnote.record_decision), which writes them to
-- footnote.ledger_queue. They are sealed into footnote.ledger at COMMIT by a
-- deferred constraint trigger: under an advisory lock held only while sealing,
-- the ledger's BEFORE INSERT trigger assigns the next sequence number (from
-- the committed head, read under that lock), the previous record's hash, the
-- time (clock_timestamp(), never before the previous record's), the canonical
-- text (docs/hash-spec.md) and its SHA-256.
--
-- Why it cannot fork or leave a gap:
--  * the head is read under the lock, in a READ COMMITTED statement, so it is
--    the latest committed head; a writer in REPEATABLE READ or SERIALIZABLE
--    (whose snapshot may be older) does not seal at all: its records wait in
--    the queue and the next READ COMMITTED seal (any commit, or footnote.seal())
--    takes them;
--  * sequence numbers come from the head, not a SEQUENCE, so a rollback
--    consumes none; sealing happens inside the committing transaction, so a
--    failed commit leaves neither record nor number;
--  * UNIQUE (seq) and UNIQUE (prev_hash) make any fork fail loudly;
--  * a long transaction holds no lock until its own commit.
-- UPDATE, DELETE and TRUNCATE raise FN101 for every role. A superuser can
-- disable triggers; footnote.verify_chain() and the digest catch what follows.

-- Sealed records: the chain.
CREATE TABLE footnote.ledger (
    id           uuid PRIMARY KEY,
    seq          bigint NOT NULL UNIQUE CHECK (seq > 0),
    recorded_at  timestamptz NOT NULL,
    db_role      text NOT NULL,
    actor_id     text,
    actor_role   text,
    kind         text NOT NULL CHECK (kind IN ('answer', 'decision')),
    question     text,
    answer       text,
    status       text NOT NULL,
    claims       jsonb NOT NULL,
    operations   jsonb NOT NULL,
    evidence     jsonb NOT NULL,
    findings     jsonb NOT NULL,
    decision     jsonb,
    details      jsonb,
    prev_hash    text NOT NULL UNIQUE CHECK (prev_hash ~ '^[0-9a-f]{64}$'),
    canonical    text NOT NULL,
    hash         text NOT NULL UNIQUE CHECK (hash ~ '^[0-9a-f]{64}$'),
    CHECK ((kind = 'decision') = (decision IS NOT NULL)),
    CHECK (status IN ('verified', 'partially_verified', 'ambiguous', 'insufficient_evidence', 'refused',
                      'grounded', 'unverified', 'fabricated', 'unsupported'))
);
CREATE INDEX ledger_recorded_at_idx ON footnote.ledger (recorded_at);
COMMENT ON TABLE footnote.ledger IS 'the provenance ledger: append-only, hash-chained records of answers and decisions';

-- Records written by the gate and not yet sealed (sealed at commit, or by footnote.seal()).
CREATE TABLE footnote.ledger_queue (
    id          uuid PRIMARY KEY,
    queued_at   timestamptz NOT NULL,
    db_role     text NOT NULL,
    actor_id    text,
    actor_role  text,
    kind        text NOT NULL,
    question    text,
    answer      text,
    status      text NOT NULL,
    claims      jsonb NOT NULL,
    operations  jsonb NOT NULL,
    evidence    jsonb NOT NULL,
    findings    jsonb NOT NULL,
    decision    jsonb,
    details     jsonb
);
COMMENT ON TABLE footnote.ledger_queue IS 'gate output awaiting its seal into footnote.ledger';

-- Each catalog call may back one record: using it twice is a replay.
CREATE TABLE footnote.call_use (
    call_id   uuid PRIMARY KEY REFERENCES footnote.call_log (call_id),
    record_id uuid NOT NULL
);

-- The JSON object a record's hash covers (docs/hash-spec.md), built from its columns.
CREATE FUNCTION footnote._record_object(l footnote.ledger)
RETURNS jsonb
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_build_object(
        'version', 1,
        'id', l.id::text,
        'seq', l.seq,
        'recorded_at', to_char(l.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        'db_role', l.db_role,
        'actor', jsonb_build_object('id', l.actor_id, 'role', l.actor_role),
        'kind', l.kind,
        'question', l.question,
        'answer', l.answer,
        'status', l.status,
        'claims', l.claims,
        'operations', l.operations,
        'evidence', l.evidence,
        'findings', l.findings,
        'decision', l.decision,
        'details', l.details,
        'prev_hash', l.prev_hash)
$$;

-- BEFORE INSERT on the ledger: take the chain lock, link to the committed head, stamp time, canonical text and hash.
CREATE FUNCTION footnote._ledger_link()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    head footnote.ledger;
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION USING ERRCODE = 'FN102',
            MESSAGE = 'the ledger is sealed only in READ COMMITTED transactions (the head must be the latest committed one)';
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('footnote.ledger'));
    SELECT * INTO head FROM footnote.ledger ORDER BY seq DESC LIMIT 1;
    NEW.seq := coalesce(head.seq, 0) + 1;
    NEW.prev_hash := coalesce(head.hash, repeat('0', 64));
    NEW.recorded_at := greatest(clock_timestamp(), head.recorded_at);
    NEW.canonical := footnote.canonical_json(footnote._record_object(NEW));
    NEW.hash := footnote.sha256_hex(NEW.canonical);
    RETURN NEW;
END
$$;

CREATE TRIGGER ledger_link BEFORE INSERT ON footnote.ledger
    FOR EACH ROW EXECUTE FUNCTION footnote._ledger_link();
CREATE TRIGGER ledger_append_only BEFORE UPDATE OR DELETE ON footnote.ledger
    FOR EACH ROW EXECUTE FUNCTION footnote._append_only();
CREATE TRIGGER ledger_no_truncate BEFORE TRUNCATE ON footnote.ledger
    FOR EACH STATEMENT EXECUTE FUNCTION footnote._append_only();
CREATE TRIGGER call_use_append_only BEFORE UPDATE OR DELETE ON footnote.call_use
    FOR EACH ROW EXECUTE FUNCTION footnote._append_only();
CREATE TRIGGER call_use_no_truncate BEFORE TRUNCATE ON footnote.call_use
    FOR EACH STATEMENT EXECUTE FUNCTION footnote._append_only();

-- Seal every committed (or own) queued record into the ledger, oldest first; a no-op outside READ COMMITTED.
CREATE FUNCTION footnote._seal_queue()
RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    q footnote.ledger_queue;
    n integer := 0;
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RETURN 0;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('footnote.ledger'));
    FOR q IN SELECT * FROM footnote.ledger_queue ORDER BY queued_at, id FOR UPDATE SKIP LOCKED LOOP
        INSERT INTO footnote.ledger (id, seq, recorded_at, db_role, actor_id, actor_role, kind, question, answer,
                                     status, claims, operations, evidence, findings, decision, details,
                                     prev_hash, canonical, hash)
        VALUES (q.id, 0 + 1, clock_timestamp(), q.db_role, q.actor_id, q.actor_role, q.kind, q.question, q.answer,
                q.status, q.claims, q.operations, q.evidence, q.findings, q.decision, q.details,
                repeat('0', 64), '', repeat('0', 64));
        DELETE FROM footnote.ledger_queue WHERE id = q.id;
        n := n + 1;
    END LOOP;
    RETURN n;
END
$$;

-- Deferred to COMMIT: seal what this transaction queued (and anything committed before it).
-- SECURITY DEFINER: at COMMIT the current user is the caller again, who may not write the ledger.
CREATE FUNCTION footnote._seal_at_commit()
RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM footnote._seal_queue();
    RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER ledger_queue_seal AFTER INSERT ON footnote.ledger_queue
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION footnote._seal_at_commit();

-- Seal waiting records now (run in READ COMMITTED); returns how many were sealed.
CREATE FUNCTION footnote.seal()
RETURNS integer
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION USING ERRCODE = 'FN102',
            MESSAGE = 'footnote.seal() must run in a READ COMMITTED transaction';
    END IF;
    RETURN footnote._seal_queue();
END
$$;

-- Sequence, time and hash of a record after its commit (sealing waiting records first); NULL while it is not committed.
CREATE FUNCTION footnote.receipt(record_id uuid)
RETURNS TABLE (id uuid, seq bigint, recorded_at timestamptz, status text, prev_hash text, hash text)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM footnote._seal_queue();
    RETURN QUERY SELECT l.id, l.seq, l.recorded_at, l.status, l.prev_hash, l.hash
                 FROM footnote.ledger AS l WHERE l.id = record_id;
END
$$;

-- ==== sql/21_gate.sql =================================================

-- footnote-pg: the gate. Deterministic, inside PostgreSQL, no model.
--
-- A claim is a piece of the answer text that states a figure:
--   {"text": "43.805,00 €", "span": {"start": 41, "end": 52}, "call_id": "<uuid>",
--    "evidence": ["invoice:8812", ...], "origin": "structured" | "generated"}
-- with answer[start:end] == text (0-based code points, end exclusive). Verdicts:
--   grounded    the text equals a formatted value returned by the cited call, the call is one of
--               this answer's calls (made by the same database role and actor), the span matches,
--               and every evidence id was read by that call;
--   unverified  call and evidence were read but the value does not match or the span is wrong
--               (blocking), or the evidence is flagged unverified in the source (advisory);
--   fabricated  it cites a call that was not made, not listed, or evidence the call never read.
-- Any digit of the answer outside a grounded claim (or a claim whose only fault is an unverified
-- source fact) is a blocking finding (unsupported_digits).
-- Answer status: refused, ambiguous (a clarification), insufficient_evidence (any blocking
-- finding), partially_verified (advisory findings only), verified.
-- Calls named in call_ids must belong to the caller (FN103) and back at most one record (FN104).

-- A required JSON array argument of at most max_items elements.
CREATE FUNCTION footnote._array_arg(argument text, value jsonb, max_items integer)
RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
        RETURN '[]'::jsonb;
    END IF;
    IF jsonb_typeof(value) <> 'array' THEN
        PERFORM footnote._invalid(argument, format('must be a JSON array, not %s', jsonb_typeof(value)));
    END IF;
    IF jsonb_array_length(value) > max_items THEN
        PERFORM footnote._invalid(argument, format('has %s elements; at most %s', jsonb_array_length(value), max_items));
    END IF;
    RETURN value;
END
$$;

-- The calls an answer relies on, checked: each made by this session's role and actor, and, when the
-- answer is to be recorded, none used by a record before.
CREATE FUNCTION footnote._answer_calls(call_ids uuid[], recording boolean)
RETURNS TABLE (call_id uuid, made boolean, operation jsonb, result jsonb)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    actor jsonb := footnote._actor();
    c     record;
    wanted uuid;
BEGIN
    IF cardinality(call_ids) > 100 THEN
        PERFORM footnote._invalid('call_ids', format('has %s calls; at most 100', cardinality(call_ids)));
    END IF;
    FOR wanted IN SELECT DISTINCT ON (x) x FROM unnest(coalesce(call_ids, '{}')) WITH ORDINALITY AS u(x, n)
                  WHERE x IS NOT NULL ORDER BY x, n LOOP
        SELECT * INTO c FROM footnote.call_log AS l WHERE l.call_id = wanted;
        IF c.call_id IS NULL THEN
            call_id := wanted; made := false; operation := NULL; result := NULL;
            RETURN NEXT;
            CONTINUE;
        END IF;
        IF c.db_role IS DISTINCT FROM session_user::text OR c.actor_id IS DISTINCT FROM actor->>'id'
           OR c.actor_role IS DISTINCT FROM actor->>'role' THEN
            RAISE EXCEPTION USING ERRCODE = 'FN103',
                MESSAGE = format('call %s was made by another role or actor (%s / %s), not by %s / %s',
                                 wanted, c.db_role, coalesce(c.actor_id, '-'), session_user,
                                 coalesce(actor->>'id', '-')),
                DETAIL = jsonb_build_object('argument', 'call_ids', 'call_id', wanted)::text;
        END IF;
        IF recording AND EXISTS (SELECT FROM footnote.call_use AS u WHERE u.call_id = wanted) THEN
            RAISE EXCEPTION USING ERRCODE = 'FN104',
                MESSAGE = format('call %s already backs a ledger record; make a new call', wanted),
                DETAIL = jsonb_build_object('argument', 'call_ids', 'call_id', wanted,
                    'record_id', (SELECT u.record_id FROM footnote.call_use AS u WHERE u.call_id = wanted))::text;
        END IF;
        call_id := wanted;
        made := true;
        operation := jsonb_build_object(
            'call_id', c.call_id::text,
            'operation', c.operation,
            'called_at', c.result->'called_at',
            'arguments', c.arguments,
            'effective_arguments', c.result->'effective_arguments',
            'queries', c.result->'queries',
            'duration_ms', c.result->'duration_ms',
            'result_hash', c.result_hash);
        result := c.result;
        RETURN NEXT;
    END LOOP;
END
$$;

-- Every formatted value of a result with its path: values.<name> and rows[<n>].<name> (n from 1).
CREATE FUNCTION footnote._result_texts(result jsonb)
RETURNS TABLE (path text, text text, evidence jsonb)
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT 'values.' || v.key, v.value->>'text', v.value->'evidence'
    FROM jsonb_each(coalesce(result->'values', '{}')) AS v
    UNION ALL
    SELECT format('rows[%s].%s', r.n, v.key), v.value->>'text', v.value->'evidence'
    FROM jsonb_array_elements(coalesce(result->'rows', '[]')) WITH ORDINALITY AS r(row, n),
         jsonb_each(r.row) AS v
$$;

-- The calls an answer or decision relies on, indexed once: per call id whether it was made, its evidence rows
-- by id, and its formatted values by text (-> the value's path, values before rows); plus the operations to
-- record and the ids of calls never made.
CREATE FUNCTION footnote._call_index(call_ids uuid[], recording boolean)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_build_object(
        'calls', coalesce(jsonb_object_agg(c.call_id::text, jsonb_build_object(
            'made', c.made,
            'evidence', coalesce((SELECT jsonb_object_agg(e->>'id', e)
                                  FROM jsonb_array_elements(c.result->'evidence') AS e), '{}'),
            'texts', coalesce((SELECT jsonb_object_agg(t.text, t.path)
                               FROM (SELECT DISTINCT ON (x.text) x.text, x.path
                                     FROM footnote._result_texts(c.result) AS x WHERE x.text IS NOT NULL
                                     ORDER BY x.text, (x.path LIKE 'values.%') DESC, x.path) AS t), '{}'))), '{}'),
        'operations', coalesce(jsonb_agg(c.operation ORDER BY c.n) FILTER (WHERE c.made), '[]'),
        'unknown', coalesce(jsonb_agg(c.call_id::text ORDER BY c.n) FILTER (WHERE NOT c.made), '[]'))
    FROM footnote._answer_calls(call_ids, recording) WITH ORDINALITY AS c(call_id, made, operation, result, n)
$$;

-- Grade an answer: claims with verdicts, findings, status, and the operations and evidence to record. Writes nothing.
CREATE FUNCTION footnote._grade_answer(answer text, claims jsonb, call_ids uuid[], outcome text, recording boolean)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    idx       jsonb := footnote._call_index(call_ids, recording);
    calls     jsonb := idx->'calls';
    claim     jsonb;
    i         integer := 0;
    graded    jsonb := '[]';
    findings  jsonb := '[]';
    verdict   text;
    reason    text;
    path      text;
    cid       text;
    span_s    integer;
    span_e    integer;
    ev_ids    text[];
    call_ev   jsonb;
    cited     text[] := '{}';
    mask      text := answer;
    digits    jsonb;
    evidence  jsonb;
    status    text;
BEGIN
    IF outcome NOT IN ('answer', 'clarification', 'refusal') THEN
        PERFORM footnote._invalid('outcome', format('%s is not one of answer, clarification, refusal', outcome), outcome);
    END IF;
    PERFORM footnote._text_arg('answer', answer, true, 20000, true);
    claims := footnote._array_arg('claims', claims, 500);

    SELECT coalesce(jsonb_agg(jsonb_build_object(
               'code', 'unknown_call', 'severity', 'blocking', 'call_id', u.id,
               'message', format('call %s was never made', u.id))), '[]')
    INTO findings
    FROM jsonb_array_elements_text(idx->'unknown') AS u(id);

    FOR claim IN SELECT value FROM jsonb_array_elements(claims) LOOP
        i := i + 1;
        IF jsonb_typeof(claim) <> 'object' OR jsonb_typeof(claim->'text') IS DISTINCT FROM 'string'
           OR jsonb_typeof(claim->'span') IS DISTINCT FROM 'object'
           OR jsonb_typeof(claim->'span'->'start') IS DISTINCT FROM 'number'
           OR jsonb_typeof(claim->'span'->'end') IS DISTINCT FROM 'number'
           OR (claim->'span'->>'start') !~ '^\d{1,9}$' OR (claim->'span'->>'end') !~ '^\d{1,9}$'
           OR jsonb_typeof(claim->'call_id') IS DISTINCT FROM 'string'
           OR coalesce(jsonb_typeof(claim->'evidence'), 'array') <> 'array'
           OR coalesce(claim->>'origin', 'structured') NOT IN ('structured', 'generated') THEN
            PERFORM footnote._invalid(format('claims[%s]', i - 1),
                'must be {"text": string, "span": {"start": int, "end": int}, "call_id": string, '
                || '"evidence": [string], "origin": "structured" | "generated"}', left(claim::text, 200));
        END IF;
        span_s := (claim->'span'->>'start')::integer;
        span_e := (claim->'span'->>'end')::integer;
        cid := claim->>'call_id';
        call_ev := calls->cid->'evidence';  -- extracted once per claim, not once per evidence id
        ev_ids := ARRAY(SELECT jsonb_array_elements_text(coalesce(claim->'evidence', '[]')));
        verdict := 'grounded';
        reason := NULL;
        path := NULL;

        IF NOT calls ? cid THEN
            verdict := 'fabricated';
            reason := 'call_not_listed';
        ELSIF NOT (calls->cid->>'made')::boolean THEN
            verdict := 'fabricated';
            reason := 'call_not_made';
        ELSIF EXISTS (SELECT FROM unnest(ev_ids) AS e(id) WHERE NOT call_ev ? e.id) THEN
            verdict := 'fabricated';
            reason := 'evidence_not_read';
        ELSIF span_e < span_s OR span_e > length(answer)
              OR substr(answer, span_s + 1, span_e - span_s) IS DISTINCT FROM claim->>'text' THEN
            verdict := 'unverified';
            reason := 'span_mismatch';
        ELSE
            path := calls->cid->'texts'->>(claim->>'text');
            IF path IS NULL THEN
                verdict := 'unverified';
                reason := 'value_mismatch';
            ELSIF EXISTS (SELECT FROM unnest(ev_ids) AS e(id) WHERE (call_ev->e.id->>'verified')::boolean IS FALSE) THEN
                verdict := 'unverified';
                reason := 'source_unverified';
            END IF;
        END IF;

        -- a figure read faithfully from an unverified source fact covers its digits; the finding is advisory
        IF verdict = 'grounded' OR reason = 'source_unverified' THEN
            mask := overlay(mask PLACING repeat(' ', span_e - span_s) FROM span_s + 1 FOR span_e - span_s);
        END IF;
        IF verdict <> 'fabricated' THEN
            cited := cited || ARRAY(SELECT x FROM unnest(ev_ids) AS x WHERE NOT x = ANY (cited));
        END IF;
        IF reason IS NOT NULL THEN
            findings := findings || jsonb_build_array(jsonb_build_object(
                'code', reason, 'claim', i - 1,
                'severity', CASE WHEN reason = 'source_unverified' THEN 'advisory' ELSE 'blocking' END,
                'message', format('claim %s (%s): %s', i - 1, left(claim->>'text', 60), replace(reason, '_', ' '))));
        END IF;
        graded := graded || jsonb_build_array(jsonb_build_object(
            'text', claim->>'text',
            'span', jsonb_build_object('start', span_s, 'end', span_e),
            'call_id', cid,
            'evidence', to_jsonb(ev_ids),
            'origin', coalesce(claim->>'origin', 'structured'),
            'verdict', verdict,
            'reason', reason,
            'value', path));
    END LOOP;

    SELECT jsonb_agg(jsonb_build_object('position', m.pos - 1, 'character', substr(answer, m.pos, 1)) ORDER BY m.pos)
    INTO digits
    FROM generate_series(1, length(mask)) AS m(pos)
    WHERE substr(mask, m.pos, 1) ~ '[0-9]';
    IF digits IS NOT NULL THEN
        findings := findings || jsonb_build_array(jsonb_build_object(
            'code', 'unsupported_digits', 'severity', 'blocking', 'positions', digits,
            'message', format('%s digit(s) of the answer are outside any grounded claim, first at position %s',
                              jsonb_array_length(digits), digits->0->>'position')));
    END IF;

    SELECT coalesce(jsonb_agg(x.row ORDER BY array_position(cited, x.id)), '[]') INTO evidence
    FROM (SELECT DISTINCT ON (e.key) e.key AS id, e.value AS row
          FROM jsonb_each(calls) AS k, jsonb_each(k.value->'evidence') AS e
          WHERE e.key = ANY (cited)
          ORDER BY e.key) AS x;

    status := CASE
        WHEN outcome = 'refusal' THEN 'refused'
        WHEN outcome = 'clarification' THEN 'ambiguous'
        WHEN EXISTS (SELECT FROM jsonb_array_elements(findings) AS f WHERE f->>'severity' = 'blocking')
            THEN 'insufficient_evidence'
        WHEN jsonb_array_length(findings) > 0 THEN 'partially_verified'
        ELSE 'verified' END;
    RETURN jsonb_build_object('status', status, 'claims', graded, 'findings', findings,
                              'operations', idx->'operations', 'evidence', evidence);
END
$$;

-- Check an answer without recording it: what record_answer would decide (calls already used by a record
-- may be checked again: nothing is written).
CREATE FUNCTION footnote.check_answer(answer text, claims jsonb, call_ids uuid[], outcome text DEFAULT 'answer')
RETURNS jsonb
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    g jsonb := footnote._grade_answer(answer, claims, call_ids, outcome, false);
BEGIN
    RETURN jsonb_build_object('status', g->'status', 'claims', g->'claims', 'findings', g->'findings');
END
$$;

-- Queue a graded record (sealed at commit) and mark its calls used; returns the record id.
CREATE FUNCTION footnote._queue_record(kind text, question text, answer text, g jsonb, call_ids uuid[],
                                       decision jsonb, details jsonb)
RETURNS uuid
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    record_id uuid := gen_random_uuid();
    actor     jsonb := footnote._actor();
BEGIN
    INSERT INTO footnote.ledger_queue (id, queued_at, db_role, actor_id, actor_role, kind, question, answer, status,
                                       claims, operations, evidence, findings, decision, details)
    VALUES (record_id, clock_timestamp(), session_user, actor->>'id', actor->>'role', kind, question, answer,
            g->>'status', g->'claims', g->'operations', g->'evidence', g->'findings', decision, details);
    INSERT INTO footnote.call_use (call_id, record_id)
    SELECT (o->>'call_id')::uuid, record_id FROM jsonb_array_elements(g->'operations') AS o;
    RETURN record_id;
END
$$;

-- The gate for answers (and clarifications and refusals): grade, then append to the ledger at commit.
CREATE FUNCTION footnote.record_answer(question text, answer text, claims jsonb, call_ids uuid[],
                                       outcome text DEFAULT 'answer', details jsonb DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    g         jsonb;
    record_id uuid;
BEGIN
    PERFORM footnote._text_arg('question', question, false, 2000);
    IF details IS NOT NULL AND jsonb_typeof(details) <> 'object' THEN
        PERFORM footnote._invalid('details', 'must be a JSON object');
    END IF;
    IF length(details::text) > 100000 THEN
        PERFORM footnote._invalid('details', 'is larger than 100,000 characters');
    END IF;
    g := footnote._grade_answer(answer, claims, call_ids, outcome, true);
    record_id := footnote._queue_record('answer', question, answer, g, call_ids, NULL,
                                        coalesce(details, '{}') || jsonb_build_object('outcome', outcome));
    RETURN jsonb_build_object('record_id', record_id, 'status', g->'status', 'claims', g->'claims',
                              'findings', g->'findings');
END
$$;

-- The gate for agent decisions: grade each cited fact, then append to the ledger at commit.
-- citations: [{"evidence": "bank_change_request:2", "call_id": "<uuid>", "fact": "pending_account_ending"}]
-- outcome precedence: unsupported (nothing cited) > fabricated > unverified > grounded.
CREATE FUNCTION footnote.record_decision(action text, subject text, rationale text, citations jsonb, call_ids uuid[])
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    idx       jsonb;
    calls     jsonb;
    cit       jsonb;
    i         integer := 0;
    graded    jsonb := '[]';
    findings  jsonb := '[]';
    verdict   text;
    reason    text;
    cid       text;
    ev_row    jsonb;
    evidence  jsonb := '[]';
    outcome   text;
    g         jsonb;
    record_id uuid;
BEGIN
    action := footnote._text_arg('action', action, true, 60);
    PERFORM footnote._text_arg('subject', subject, true, 500);
    PERFORM footnote._text_arg('rationale', rationale, false, 5000, true);
    citations := footnote._array_arg('citations', citations, 200);

    idx := footnote._call_index(call_ids, true);
    calls := idx->'calls';

    FOR cit IN SELECT value FROM jsonb_array_elements(citations) LOOP
        i := i + 1;
        IF jsonb_typeof(cit) <> 'object' OR jsonb_typeof(cit->'evidence') IS DISTINCT FROM 'string'
           OR jsonb_typeof(cit->'call_id') IS DISTINCT FROM 'string'
           OR coalesce(jsonb_typeof(cit->'fact'), 'string') <> 'string' THEN
            PERFORM footnote._invalid(format('citations[%s]', i - 1),
                'must be {"evidence": string, "call_id": string, "fact": string}', left(cit::text, 200));
        END IF;
        cid := cit->>'call_id';
        ev_row := NULL;
        IF NOT calls ? cid OR NOT (calls->cid->>'made')::boolean THEN
            verdict := 'fabricated';
            reason := CASE WHEN calls ? cid THEN 'call_not_made' ELSE 'call_not_listed' END;
        ELSIF NOT (calls->cid->'evidence') ? (cit->>'evidence') THEN
            verdict := 'fabricated';
            reason := 'evidence_not_read';
        ELSE
            ev_row := calls->cid->'evidence'->(cit->>'evidence');
            IF (ev_row->>'verified')::boolean IS FALSE THEN
                verdict := 'unverified';
                reason := 'source_unverified';
            ELSE
                verdict := 'grounded';
                reason := NULL;
            END IF;
        END IF;
        IF ev_row IS NOT NULL AND NOT EXISTS (SELECT FROM jsonb_array_elements(evidence) AS x
                                              WHERE x->>'id' = ev_row->>'id') THEN
            evidence := evidence || jsonb_build_array(ev_row);
        END IF;
        IF reason IS NOT NULL THEN
            findings := findings || jsonb_build_array(jsonb_build_object(
                'code', reason, 'citation', i - 1, 'severity', 'blocking',
                'message', format('citation %s (%s): %s', i - 1, cit->>'evidence', replace(reason, '_', ' '))));
        END IF;
        graded := graded || jsonb_build_array(jsonb_build_object(
            'evidence', cit->>'evidence', 'call_id', cid, 'fact', cit->>'fact',
            'verdict', verdict, 'reason', reason,
            'verification', ev_row->'fields'->>'verification'));
    END LOOP;

    outcome := CASE
        WHEN jsonb_array_length(graded) = 0 THEN 'unsupported'
        WHEN EXISTS (SELECT FROM jsonb_array_elements(graded) AS x WHERE x->>'verdict' = 'fabricated') THEN 'fabricated'
        WHEN EXISTS (SELECT FROM jsonb_array_elements(graded) AS x WHERE x->>'verdict' = 'unverified') THEN 'unverified'
        ELSE 'grounded' END;
    IF outcome = 'unsupported' THEN
        findings := findings || jsonb_build_array(jsonb_build_object(
            'code', 'nothing_cited', 'severity', 'blocking', 'message', 'the decision cites no evidence'));
    END IF;
    g := jsonb_build_object('status', outcome, 'claims', '[]'::jsonb, 'operations', idx->'operations',
                            'evidence', evidence, 'findings', findings);
    record_id := footnote._queue_record('decision', subject, rationale, g, call_ids,
        jsonb_build_object('action', action, 'subject', subject, 'outcome', outcome, 'citations', graded), NULL);
    RETURN jsonb_build_object('record_id', record_id, 'outcome', outcome, 'citations', graded, 'findings', findings,
                              'evidence', evidence);
END
$$;

-- ==== sql/22_verify.sql ===============================================

-- footnote-pg: verification, digests and re-attestation.
--
-- verify_chain() walks the ledger in sequence order and names the first bad
-- record: sequence_gap (a record is missing), reordered (a record sits at
-- another place than the one it was sealed at, or its time runs backwards),
-- content_changed (a column differs from what was sealed, or the sealed text
-- differs from its hash), link_broken (prev_hash is not the previous hash).
-- A history rewritten consistently (every hash recomputed) passes it; only a
-- digest kept outside the database catches that, with verify_digest().

-- Walk the chain; one row: ok, counts, head, and the first bad record with the problem.
CREATE FUNCTION footnote.verify_chain()
RETURNS TABLE (ok boolean, records bigint, head_seq bigint, head_hash text, first_bad_seq bigint,
               problem text, detail text, pending bigint)
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r         footnote.ledger;
    expected  bigint := 1;
    prev      text := repeat('0', 64);
    prev_time timestamptz;
    sealed    jsonb;
BEGIN
    ok := true;
    records := 0;
    SELECT count(*) INTO pending FROM footnote.ledger_queue;
    FOR r IN SELECT * FROM footnote.ledger ORDER BY seq LOOP
        records := records + 1;
        sealed := r.canonical::jsonb;
        IF (sealed->>'seq')::bigint IS DISTINCT FROM r.seq OR r.recorded_at < prev_time THEN
            problem := 'reordered';
            detail := format('record %s was sealed as record %s', r.seq, coalesce(sealed->>'seq', '?'));
        ELSIF r.seq > expected THEN
            problem := 'sequence_gap';
            detail := CASE WHEN r.seq = expected + 1 THEN format('record %s is missing', expected)
                           ELSE format('records %s to %s are missing', expected, r.seq - 1) END;
            r.seq := expected;
        ELSIF sealed IS DISTINCT FROM footnote._record_object(r) THEN
            problem := 'content_changed';
            detail := format('record %s differs from what was sealed in: %s', r.seq,
                (SELECT string_agg(k.key, ', ' ORDER BY k.key) FROM jsonb_each(footnote._record_object(r)) AS k
                 WHERE k.value IS DISTINCT FROM sealed->k.key));
        ELSIF footnote.sha256_hex(r.canonical) <> r.hash THEN
            problem := 'content_changed';
            detail := format('record %s: the sealed text does not hash to its hash', r.seq);
        ELSIF r.prev_hash <> prev THEN
            problem := 'link_broken';
            detail := format('record %s points to %s…, but record %s has hash %s…', r.seq, left(r.prev_hash, 12),
                             r.seq - 1, left(prev, 12));
        END IF;
        IF problem IS NOT NULL THEN
            ok := false;
            first_bad_seq := r.seq;
            SELECT l.seq, l.hash INTO head_seq, head_hash FROM footnote.ledger AS l ORDER BY l.seq DESC LIMIT 1;
            RETURN NEXT;
            RETURN;
        END IF;
        expected := r.seq + 1;
        prev := r.hash;
        prev_time := r.recorded_at;
        head_seq := r.seq;
        head_hash := r.hash;
    END LOOP;
    RETURN NEXT;
END
$$;

-- The chain head: what a digest records (sequence, hash, time).
CREATE FUNCTION footnote.chain_head()
RETURNS TABLE (seq bigint, hash text, recorded_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT l.seq, l.hash, l.recorded_at FROM footnote.ledger AS l ORDER BY l.seq DESC LIMIT 1
$$;

-- Does the chain still extend a digest taken earlier? ok, truncated (shorter now) or rewritten (another hash at that place).
CREATE FUNCTION footnote.verify_digest(digest_seq bigint, digest_hash text)
RETURNS TABLE (ok boolean, problem text, detail text)
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    found_hash text;
    head bigint;
BEGIN
    SELECT l.hash INTO found_hash FROM footnote.ledger AS l WHERE l.seq = digest_seq;
    SELECT max(l.seq) INTO head FROM footnote.ledger AS l;
    IF found_hash IS NULL THEN
        RETURN QUERY SELECT false, 'truncated',
            format('the digest names record %s, but the chain ends at %s', digest_seq, coalesce(head, 0));
    ELSIF found_hash <> digest_hash THEN
        RETURN QUERY SELECT false, 'rewritten',
            format('record %s has hash %s…, the digest says %s…', digest_seq, left(found_hash, 12), left(digest_hash, 12));
    ELSE
        RETURN QUERY SELECT true, NULL::text, format('record %s matches the digest; the chain is now at %s', digest_seq, head);
    END IF;
END
$$;

-- Re-run the operations of a record with the arguments they ran with; per claim (or cited fact): still_holds or changed.
CREATE FUNCTION footnote.reattest(record_seq bigint)
RETURNS TABLE (item integer, kind text, text text, value_path text, verdict text, old_text text, new_text text,
               operation text, new_call_id uuid)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    rec      footnote.ledger;
    op       jsonb;
    fresh    jsonb := '{}';
    res      jsonb;
    claim    jsonb;
    cit      jsonb;
    n        integer := 0;
    args     jsonb;
    old_ev   jsonb;
    new_ev   jsonb;
BEGIN
    SELECT * INTO rec FROM footnote.ledger AS l WHERE l.seq = record_seq;
    IF rec.id IS NULL THEN
        PERFORM footnote._invalid('seq', format('there is no ledger record %s', record_seq), record_seq::text);
    END IF;
    FOR op IN SELECT value FROM jsonb_array_elements(rec.operations) LOOP
        SELECT coalesce(jsonb_object_agg(a.key, CASE jsonb_typeof(a.value) WHEN 'number' THEN to_jsonb(a.value #>> '{}')
                                                 ELSE a.value END), '{}')
        INTO args
        FROM jsonb_each(coalesce(op->'effective_arguments', op->'arguments')) AS a
        WHERE jsonb_typeof(a.value) <> 'null';
        res := footnote.call(op->>'operation', args);
        fresh := fresh || jsonb_build_object(op->>'call_id', res);
    END LOOP;
    FOR claim IN SELECT value FROM jsonb_array_elements(rec.claims) LOOP
        n := n + 1;
        item := n;
        kind := 'claim';
        text := claim->>'text';
        value_path := claim->>'value';
        old_text := claim->>'text';
        res := fresh->(claim->>'call_id');
        operation := res->>'operation';
        new_call_id := (res->>'call_id')::uuid;
        SELECT t.text INTO new_text FROM footnote._result_texts(res) AS t WHERE t.path = claim->>'value';
        verdict := CASE WHEN value_path IS NULL THEN 'not_grounded'
                        WHEN new_text IS NULL THEN 'changed'
                        WHEN new_text = old_text THEN 'still_holds' ELSE 'changed' END;
        RETURN NEXT;
    END LOOP;
    FOR cit IN SELECT value FROM jsonb_array_elements(coalesce(rec.decision->'citations', '[]')) LOOP
        n := n + 1;
        item := n;
        kind := 'citation';
        text := cit->>'evidence';
        value_path := cit->>'fact';
        res := fresh->(cit->>'call_id');
        operation := res->>'operation';
        new_call_id := (res->>'call_id')::uuid;
        SELECT e INTO old_ev FROM jsonb_array_elements(rec.evidence) AS e WHERE e->>'id' = cit->>'evidence';
        SELECT e INTO new_ev FROM jsonb_array_elements(res->'evidence') AS e WHERE e->>'id' = cit->>'evidence';
        old_text := old_ev->>'fields';
        new_text := new_ev->>'fields';
        verdict := CASE WHEN old_ev IS NULL THEN 'not_grounded'
                        WHEN new_ev IS NULL THEN 'changed'
                        WHEN old_ev = new_ev THEN 'still_holds' ELSE 'changed' END;
        RETURN NEXT;
    END LOOP;
END
$$;

-- ==== sql/23_audit.sql ================================================

-- footnote-pg: views for auditors in psql.

-- Answers (and clarifications and refusals), one row each.
CREATE VIEW footnote.answers AS
SELECT l.seq, l.recorded_at, l.db_role, l.actor_id, l.actor_role, l.question, l.answer, l.status,
       l.details->>'outcome' AS outcome, jsonb_array_length(l.claims) AS claims,
       (SELECT count(*) FROM jsonb_array_elements(l.claims) AS c WHERE c->>'verdict' = 'grounded') AS grounded_claims,
       l.hash
FROM footnote.ledger AS l
WHERE l.kind = 'answer';

-- Claims, one row per claim, with verdict and evidence.
CREATE VIEW footnote.claims AS
SELECT l.seq, c.n - 1 AS claim_no, c.claim->>'text' AS text, c.claim->>'verdict' AS verdict,
       c.claim->>'reason' AS reason, (c.claim->'span'->>'start')::integer AS span_start,
       (c.claim->'span'->>'end')::integer AS span_end, (c.claim->>'call_id') AS call_id,
       ARRAY(SELECT jsonb_array_elements_text(c.claim->'evidence')) AS evidence,
       c.claim->>'origin' AS origin, c.claim->>'value' AS value_path
FROM footnote.ledger AS l, jsonb_array_elements(l.claims) WITH ORDINALITY AS c(claim, n);

-- Evidence records kept with each ledger record, with the field values they had.
CREATE VIEW footnote.evidence AS
SELECT l.seq, e.value->>'id' AS evidence_id, e.value->>'type' AS type, e.value->>'record_id' AS record_id,
       e.value->>'uri' AS uri, (e.value->>'verified')::boolean AS verified, e.value->'fields' AS fields
FROM footnote.ledger AS l, jsonb_array_elements(l.evidence) AS e;

-- Agent decisions with their outcome and graded citations.
CREATE VIEW footnote.decisions AS
SELECT l.seq, l.recorded_at, l.db_role, l.actor_id, l.actor_role, l.decision->>'action' AS action,
       l.decision->>'subject' AS subject, l.status AS outcome, l.answer AS rationale,
       l.decision->'citations' AS citations, l.hash
FROM footnote.ledger AS l
WHERE l.kind = 'decision';

-- The result of footnote.verify_chain(), as a view.
CREATE VIEW footnote.chain_status AS SELECT * FROM footnote.verify_chain();

-- ==== sql/50_catalog.sql ==============================================

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
 'values: period_from, period_to, revenue_from, revenue_to, change (absolute, unsigned), direction (up, down, unchanged), change_percent (unsigned)'),
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
 'The record behind a deep link such as erp://invoice/8812 (types: customer, invoice, payment, credit_note, ticket, supplier, bank_account, supplier_payment, bank_change_request, purchase_order, item, stock), with every field of its source view.',
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
    t      text;
    vals   text[] := '{}';
    parts  text[] := '{}';
    result jsonb;
BEGIN
    SELECT * INTO op FROM footnote.operations AS o WHERE o.name = operation;
    IF op.name IS NULL THEN
        RAISE EXCEPTION USING
            ERRCODE = 'FN004',
            MESSAGE = format('unknown operation %s; available: %s', coalesce(operation, 'NULL'),
                             (SELECT string_agg(o.name, ', ' ORDER BY o.name) FROM footnote.operations AS o)),
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
        t := v #>> '{}';
        IF a.type IN ('text', 'period') THEN
            IF jsonb_typeof(v) <> 'string' THEN
                PERFORM footnote._invalid(a.name, format('must be a string, not %s', jsonb_typeof(v)), left(v::text, 200));
            END IF;
        ELSIF a.type = 'date' THEN
            IF jsonb_typeof(v) <> 'string' OR t !~ '^\d{4}-\d{2}-\d{2}$' THEN
                PERFORM footnote._invalid(a.name, 'must be a date written YYYY-MM-DD', left(v::text, 200));
            END IF;
            BEGIN
                PERFORM t::date;
            EXCEPTION WHEN datetime_field_overflow OR invalid_datetime_format THEN
                PERFORM footnote._invalid(a.name, format('%s is not a valid date', t), t);
            END;
        ELSIF a.type = 'integer' THEN
            IF jsonb_typeof(v) NOT IN ('number', 'string') OR t !~ '^\s*-?\d+\s*$' THEN
                PERFORM footnote._invalid(a.name, 'must be a whole number', left(v::text, 200));
            END IF;
            IF length(btrim(t)) > 11 OR btrim(t)::numeric NOT BETWEEN -2147483648 AND 2147483647 THEN
                PERFORM footnote._invalid(a.name, format('%s is out of range', left(btrim(t), 30)), left(t, 200));
            END IF;
        END IF;
        vals := vals || t;
        parts := parts || format('%I => $1[%s]::%s', a.name, cardinality(vals),
                                 CASE a.type WHEN 'period' THEN 'text' ELSE a.type END);
    END LOOP;
    EXECUTE format('SELECT footnote.%I(%s)', op.name, array_to_string(parts, ', ')) INTO result USING vals;
    RETURN result;
END
$$;

-- ==== sql/90_grants.sql ===============================================

-- footnote-pg: privileges. Nothing of ours is reachable by PUBLIC; each group gets exactly what it needs.

REVOKE ALL ON ALL TABLES IN SCHEMA footnote FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA footnote_src FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA footnote FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA footnote_src FROM PUBLIC;
REVOKE ALL ON TYPE footnote.entity, footnote.period, footnote._named FROM PUBLIC;

-- footnote_service: the catalog operations and the entry point, nothing else.
GRANT SELECT ON footnote.catalog TO footnote_service, footnote_auditor;
GRANT EXECUTE ON FUNCTION
    footnote.call(text, jsonb),
    footnote.list_customers(text, integer),
    footnote.list_suppliers(text, integer),
    footnote.list_items(text, integer),
    footnote.customer_overdue(text, date),
    footnote.ar_aging(date, text),
    footnote.customer_risk(text, date),
    footnote.open_tickets(text, date),
    footnote.revenue(text, text),
    footnote.revenue_change(text, text, text),
    footnote.top_customers(text, integer),
    footnote.revenue_drivers(text, text, integer),
    footnote.days_sales_outstanding(date, integer),
    footnote.invoice(text, date),
    footnote.source_record(text),
    footnote.open_purchase_orders(text),
    footnote.stock_on_hand(text),
    footnote.supplier_payment_facts(text, date)
TO footnote_service;

-- the gate, sealing and receipts
GRANT EXECUTE ON FUNCTION
    footnote.record_answer(text, text, jsonb, uuid[], text, jsonb),
    footnote.record_decision(text, text, text, jsonb, uuid[]),
    footnote.check_answer(text, jsonb, uuid[], text)
TO footnote_service;
GRANT EXECUTE ON FUNCTION
    footnote.seal(),
    footnote.receipt(uuid),
    footnote.reattest(bigint),
    footnote.verify_chain(),
    footnote.chain_head(),
    footnote.verify_digest(bigint, text)
TO footnote_service, footnote_auditor;

-- Pure helpers anyone of ours may use to read results and settings.
GRANT EXECUTE ON FUNCTION
    footnote.client_settings(),
    footnote.result_values(jsonb),
    footnote.result_evidence(jsonb),
    footnote.canonical_json(jsonb),
    footnote.sha256_hex(text)
TO footnote_service, footnote_auditor;

-- footnote_auditor: reads the call log, the settings, the queries, the catalog and the ledger.
GRANT SELECT ON footnote.call_log, footnote.settings, footnote.queries, footnote.operations,
                footnote.operation_arguments TO footnote_auditor;
-- and the ledger with its views
GRANT SELECT ON footnote.ledger, footnote.ledger_queue, footnote.call_use, footnote.answers, footnote.claims,
                footnote.evidence, footnote.decisions, footnote.chain_status TO footnote_auditor;

RESET ROLE;

