-- footnote-pg: settings and errors.
--
-- Settings live in one table the DBA edits with plain SQL. A session may
-- override the display locale with SET footnote.locale = 'en-US'; nothing else
-- is read from the session.
--
-- Errors raised by footnote-pg carry SQLSTATEs of class FN:
--   FN001 invalid argument       FN002 unknown entity      FN003 ambiguous entity
--   FN004 unknown operation      FN005 evidence limit      FN006 source not mapped
--   FN007 node behind the ERP
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

-- What max_evidence_rows does since evidence sets (the INSERT above keeps its first wording: changing it would make
-- an upgrade reload the settings a DBA has set).
UPDATE footnote.settings
SET description = 'most evidence rows one call inlines; beyond it portfolio operations and listings cite one '
                  'evidence set of them, other operations fail with FN005'
WHERE key = 'max_evidence_rows';

-- Optional concepts a mapping may declare this ERP does not record; operations then say "not recorded in
-- this ERP" for them (never "no", "0" or "nothing argues against").
INSERT INTO footnote.settings (key, value, description) VALUES
    ('not_recorded', NULL, 'concepts this ERP does not record, comma-separated, from: account_owner, payment_terms, '
     || 'credit_limit, tickets, ticket_severity, reorder_level, bank_change_requests, phone_verification; '
     || 'operations say "not recorded in this ERP" for them');

-- Links into the ERP's own user interface, next to the erp:// deep links: a JSON object of record type to a URL
-- with {id} for the record's id, e.g. {"invoice": "https://erp.example/#tryton/model/account.invoice/{id}"}.
-- Presentation only: a call returns them beside its hashed document (ui_links), never inside it.
INSERT INTO footnote.settings (key, value, description) VALUES
    ('ui_links', NULL, 'links into the ERP''s UI per record type, a JSON object such as '
     || '{"invoice": "https://erp.example/#tryton/model/account.invoice/{id}"}');

-- Retention (footnote-pg prune, sql/25_erasure.sql): how many days each kind of record is kept whole; beyond them
-- a prune removes its contents behind a checkpoint. NULL (the default): kept for ever.
INSERT INTO footnote.settings (key, value, description) VALUES
    ('retention_days.answers', NULL, 'days an answer (any status but refused) is kept whole; beyond them footnote-pg '
     || 'prune replaces its parts by their commitments; NULL: for ever'),
    ('retention_days.refusals', NULL, 'days a refused answer is kept whole before footnote-pg prune may remove its '
     || 'contents; NULL: for ever'),
    ('retention_days.decisions', NULL, 'days a decision is kept whole before footnote-pg prune may remove its '
     || 'contents (redaction and prune records are always kept); NULL: for ever'),
    ('retention_days.calls', NULL, 'days a catalog call that no record cites is kept whole before footnote-pg prune '
     || 'may remove its arguments and result (a cited call goes with its records); NULL: for ever');

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

-- A text as an error message shows it: one line (control characters as their Unicode pictures, a line feed
-- as ␊), at most max_len characters (cut with …).
CREATE FUNCTION footnote._shown(value text, max_len integer DEFAULT 80)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN length(v) > max_len THEN left(v, max_len - 1) || '…' ELSE v END
    FROM (SELECT translate(value,
                           E'\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10'
                           || E'\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f',
                           '␁␂␃␄␅␆␇␈␉␊␋␌␍␎␏␐' || '␑␒␓␔␕␖␗␘␙␚␛␜␝␞␟␡') AS v) AS x
$$;

-- Names for an error message: as many as fit in budget characters, joined by commas, then "and N more"
-- (of total).
CREATE FUNCTION footnote._listed(names text[], total bigint, budget integer DEFAULT 250)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(string_agg(x.name, ', ' ORDER BY x.n), '')
           || CASE WHEN total > count(x.name) THEN format(' and %s more', total - count(x.name)) ELSE '' END
    FROM (SELECT footnote._shown(u.name, 80) AS name, u.n,
                 sum(length(footnote._shown(u.name, 80)) + 2) OVER (ORDER BY u.n) AS upto
          FROM unnest(names) WITH ORDINALITY AS u(name, n)) AS x
    WHERE x.upto <= budget + 2
$$;

-- Raise FN001 naming the argument; detail carries argument, value and reason as JSON. The message is one
-- line of under 400 characters, whatever the argument's name (a caller's JSON key) and the reason hold.
CREATE FUNCTION footnote._invalid(argument text, reason text, value text DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RAISE EXCEPTION USING
        ERRCODE = 'FN001',
        MESSAGE = pg_catalog.format('invalid argument %s: %s', footnote._shown(argument, 90),
                                    footnote._shown(reason, 280)),
        DETAIL = pg_catalog.jsonb_build_object(
            'argument', argument, 'reason', reason,
            'value', pg_catalog.left(value, 200))::text;
END
$$;

-- A setting the catalog cannot use is refused when it is written (FN001 naming the setting), not when every
-- later call fails: dates, months, counts, locale, currency, the sealing waits and the retention days are checked here.
CREATE FUNCTION footnote._check_setting()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v      text := NEW.value;
    reason text;
BEGIN
    IF v IS NULL THEN
        reason := CASE WHEN NEW.key IN ('locale', 'currency', 'fiscal_year_start_month', 'max_evidence_rows',
                                        'dso_window_days', 'node_max_lag') THEN 'must not be NULL' END;
    ELSIF NEW.key = 'locale' AND v NOT IN ('de-DE', 'en-US') THEN
        reason := 'must be de-DE or en-US';
    ELSIF NEW.key = 'currency' AND v !~ '^[A-Z]{3}$' THEN
        reason := 'must be an ISO 4217 code such as EUR';
    ELSIF NEW.key = 'as_of' THEN
        BEGIN
            IF v !~ '^\d{4}-\d{2}-\d{2}$' OR to_char(v::date, 'YYYY-MM-DD') <> v THEN
                reason := 'must be a date written YYYY-MM-DD, or NULL for today';
            END IF;
        EXCEPTION WHEN data_exception THEN
            reason := 'must be a date written YYYY-MM-DD, or NULL for today';
        END;
    ELSIF NEW.key = 'fiscal_year_start_month' AND (v !~ '^\d{1,2}$' OR v::integer NOT BETWEEN 1 AND 12) THEN
        reason := 'must be a month number from 1 to 12';
    ELSIF NEW.key = 'max_evidence_rows' AND (v !~ '^\d{1,7}$' OR v::integer NOT BETWEEN 1 AND 1000000) THEN
        reason := 'must be a whole number from 1 to 1000000';
    ELSIF NEW.key = 'dso_window_days' AND (v !~ '^\d{1,4}$' OR v::integer NOT BETWEEN 1 AND 3660) THEN
        reason := 'must be a whole number of days from 1 to 3660';
    ELSIF NEW.key = 'not_recorded' AND EXISTS (
            SELECT FROM unnest(string_to_array(v, ',')) AS c(concept)
            WHERE btrim(c.concept) NOT IN ('account_owner', 'payment_terms', 'credit_limit', 'tickets',
                                           'ticket_severity', 'reorder_level', 'bank_change_requests',
                                           'phone_verification')) THEN
        reason := 'must list concepts from account_owner, payment_terms, credit_limit, tickets, ticket_severity, '
                  || 'reorder_level, bank_change_requests, phone_verification, separated by commas';
    ELSIF NEW.key = 'ui_links' THEN
        BEGIN
            IF jsonb_typeof(v::jsonb) <> 'object' OR EXISTS (
                    SELECT FROM jsonb_each(v::jsonb) AS t(type, url)
                    WHERE jsonb_typeof(t.url) <> 'string' OR t.url->>0 !~ '^[a-z][a-z0-9+.-]*://[^[:space:]]*\{id\}'
                       OR t.type !~ '^[a-z_]{1,40}$') THEN
                reason := 'must be a JSON object of record type to a URL with {id}, such as '
                          || '{"invoice": "https://ui.example/invoice/{id}"}';
            END IF;
        EXCEPTION WHEN data_exception OR invalid_text_representation THEN
            reason := 'must be a JSON object of record type to a URL with {id}, such as '
                      || '{"invoice": "https://ui.example/invoice/{id}"}';
        END;
    ELSIF NEW.key = 'node_max_lag' THEN
        BEGIN
            IF v !~ '^\d+(\.\d+)?\s*(ms|s|min|h)$' OR v::interval > interval '1 day' THEN
                reason := 'must be a duration such as 30s, 5min or 1h, at most 1 day';
            END IF;
        EXCEPTION WHEN data_exception THEN
            reason := 'must be a duration such as 30s, 5min or 1h, at most 1 day';
        END;
    ELSIF NEW.key LIKE 'retention\_days.%' AND v !~ '^\s*[0-9]{1,6}(\.[0-9]{1,6})?\s*$' THEN
        reason := 'must be a number of days (0 or more), or NULL to keep every record';
    ELSIF NEW.key = 'node_subscription' AND v !~ '^[a-z_][a-z0-9_]{0,62}$' THEN
        reason := 'must be a subscription name (lower-case letters, digits, _)';
    ELSIF NEW.key IN ('seal_lock_timeout', 'seal_commit_wait') THEN
        BEGIN
            IF v !~ '^\d+(\.\d+)?\s*(ms|s|min)$' OR v::interval > interval '10 minutes' THEN
                reason := 'must be a duration such as 200ms, 5s or 1min, at most 10 minutes';
            END IF;
        EXCEPTION WHEN data_exception THEN
            reason := 'must be a duration such as 200ms, 5s or 1min, at most 10 minutes';
        END;
    END IF;
    IF reason IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'FN001',
            MESSAGE = pg_catalog.format('invalid setting %s: %s (not %s)', NEW.key, reason,
                                        coalesce(pg_catalog.quote_literal(pg_catalog.left(v, 60)), 'NULL')),
            DETAIL = pg_catalog.jsonb_build_object('argument', NEW.key, 'reason', reason,
                                                   'value', pg_catalog.left(v, 200))::text;
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER settings_checked BEFORE INSERT OR UPDATE ON footnote.settings
    FOR EACH ROW EXECUTE FUNCTION footnote._check_setting();

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
