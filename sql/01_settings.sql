-- footnote-pg: settings and errors.
--
-- Settings live in one table the DBA edits with plain SQL. A session may
-- override the display locale with SET footnote.locale = 'en-US'; nothing else
-- is read from the session.
--
-- Errors raised by footnote-pg carry SQLSTATEs of class FN:
--   FN001 invalid argument       FN002 unknown entity      FN003 ambiguous entity
--   FN004 unknown operation      FN005 evidence limit      FN006 source not mapped
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
