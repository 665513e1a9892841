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

-- Format a raw value (as text) of the given kind for a locale (default: the locale setting). A raw date is read in
-- ISO form (2026-05-02) whatever the session's date style: the function pins it, so that what the session (or the
-- mapping's code running in it) set before cannot change how a figure is read (docs/threat-model.md).
CREATE FUNCTION footnote.format(kind text, raw text, locale text DEFAULT NULL)
RETURNS text
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
SET DateStyle = 'ISO, YMD'
AS $$
DECLARE
    loc  text := coalesce(locale, footnote.setting('locale'), 'de-DE');
    de   boolean;
    n    numeric;
    d    date;
    sign text;
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
    CASE kind
    WHEN 'amount' THEN  -- the currency setting is read only for amounts
        sym := coalesce(footnote.setting('currency'), 'EUR');
        sym := CASE sym WHEN 'EUR' THEN '€' WHEN 'USD' THEN '$' WHEN 'GBP' THEN '£' ELSE sym END;
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
