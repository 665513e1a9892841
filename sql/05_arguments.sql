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

-- One of a fixed set of words (a measure, a direction, an outcome), or FN001 listing them; NULL means
-- default_value.
CREATE FUNCTION footnote._choice_arg(argument text, value text, choices text[], default_value text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v text := lower(btrim(footnote._text_arg(argument, value, false, 40)));
BEGIN
    IF v IS NULL THEN
        RETURN default_value;
    END IF;
    IF NOT v = ANY (choices) THEN
        PERFORM footnote._invalid(argument, format('%s is not one of %s', value, array_to_string(choices, ', ')), value);
    END IF;
    RETURN v;
END
$$;

-- A ledger sequence number (1 or more), required.
CREATE FUNCTION footnote._seq_arg(argument text, value bigint)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF value IS NULL THEN
        PERFORM footnote._invalid(argument, 'is required');
    END IF;
    IF value < 1 THEN
        PERFORM footnote._invalid(argument, format('there is no ledger record %s; sequence numbers start at 1', value),
                                  value::text);
    END IF;
    RETURN value;
END
$$;

-- A SHA-256 hash written as 64 hexadecimal digits (either case), required; returned in lower case.
CREATE FUNCTION footnote._hash_arg(argument text, value text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF value IS NULL THEN
        PERFORM footnote._invalid(argument, 'is required');
    END IF;
    IF value !~ '^[0-9a-fA-F]{64}$' THEN
        PERFORM footnote._invalid(argument, 'must be a SHA-256 hash written as 64 hexadecimal digits', value);
    END IF;
    RETURN lower(value);
END
$$;

-- A JSON argument: SQL NULL stays NULL; otherwise of the container kind given ('object', 'array', or NULL
-- for any), at most max_chars characters as text (NULL: no limit) and nested at most max_depth levels, so
-- that what reads it (and the canonical form that hashes it) never runs out of stack.
CREATE FUNCTION footnote._json_arg(argument text, value jsonb, container text, max_chars integer DEFAULT 100000,
                                   max_depth integer DEFAULT 32)
RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF value IS NULL THEN
        RETURN NULL;
    END IF;
    IF jsonb_typeof(value) IS DISTINCT FROM coalesce(container, jsonb_typeof(value)) THEN
        PERFORM footnote._invalid(argument, format('must be a JSON %s, not %s', container, jsonb_typeof(value)),
                                  left(value::text, 200));
    END IF;
    IF length(value::text) > max_chars THEN
        PERFORM footnote._invalid(argument,
                                  format('is larger than %s characters', to_char(max_chars, 'FM999,999,999')));
    END IF;
    IF jsonb_typeof(value) IN ('object', 'array')
       AND jsonb_path_exists(value, format('strict $.**{%s}', max_depth)::jsonpath) THEN
        PERFORM footnote._invalid(argument, format('is nested more than %s levels deep', max_depth));
    END IF;
    RETURN value;
END
$$;

-- A JSON array argument of at most max_items elements (and the limits of footnote._json_arg); NULL or JSON
-- null is the empty array.
CREATE FUNCTION footnote._array_arg(argument text, value jsonb, max_items integer)
RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF value IS NULL OR jsonb_typeof(value) = 'null' THEN
        RETURN '[]'::jsonb;
    END IF;
    IF jsonb_typeof(value) = 'array' AND jsonb_array_length(value) > max_items THEN
        PERFORM footnote._invalid(argument, format('has %s elements; at most %s', jsonb_array_length(value), max_items));
    END IF;
    RETURN footnote._json_arg(argument, value, 'array', NULL);
END
$$;

-- Call ids an answer or decision stands on: a one-dimensional array of at most max_items ids, none NULL;
-- required: at least one.
CREATE FUNCTION footnote._uuids_arg(argument text, value uuid[], required boolean, max_items integer DEFAULT 100)
RETURNS uuid[]
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF coalesce(cardinality(value), 0) = 0 THEN
        IF required THEN
            PERFORM footnote._invalid(argument, 'names no call');
        END IF;
        RETURN '{}';
    END IF;
    IF array_ndims(value) > 1 THEN
        PERFORM footnote._invalid(argument, format('must be a one-dimensional array, not %s-dimensional',
                                                   array_ndims(value)));
    END IF;
    IF cardinality(value) > max_items THEN
        PERFORM footnote._invalid(argument, format('has %s calls; at most %s', cardinality(value), max_items));
    END IF;
    IF array_position(value, NULL) IS NOT NULL THEN
        PERFORM footnote._invalid(argument, format('element %s is NULL, not a call id', array_position(value, NULL)));
    END IF;
    RETURN value;
END
$$;

-- A JSON value given for a catalog argument of the type named (text, period, date, integer), checked and
-- written as the text the operation's function takes.
CREATE FUNCTION footnote._json_scalar_arg(argument text, type text, value jsonb)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    t text := value #>> '{}';
BEGIN
    IF type IN ('text', 'period') THEN
        IF jsonb_typeof(value) <> 'string' THEN
            PERFORM footnote._invalid(argument, format('must be a string, not %s', jsonb_typeof(value)),
                                      left(value::text, 200));
        END IF;
    ELSIF type = 'date' THEN
        IF jsonb_typeof(value) <> 'string' OR t !~ '^\d{4}-\d{2}-\d{2}$' THEN
            PERFORM footnote._invalid(argument, 'must be a date written YYYY-MM-DD', left(value::text, 200));
        END IF;
        BEGIN
            PERFORM t::date;
        EXCEPTION WHEN data_exception THEN
            PERFORM footnote._invalid(argument, format('%s is not a valid date', t), t);
        END;
    ELSIF type = 'integer' THEN
        IF jsonb_typeof(value) NOT IN ('number', 'string') OR t !~ '^-?[0-9]+$' THEN
            PERFORM footnote._invalid(argument, 'must be a whole number', left(value::text, 200));
        END IF;
        IF length(t) > 11 OR t::numeric NOT BETWEEN -2147483648 AND 2147483647 THEN
            PERFORM footnote._invalid(argument, format('%s is out of range', left(t, 30)), left(t, 200));
        END IF;
    END IF;
    RETURN t;
END
$$;

-- True when a JSON value is a figure of a result: an object whose evidence, if any, is an array of scalars.
CREATE FUNCTION footnote._is_figure(v jsonb)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_typeof(v) = 'object'
           AND (NOT v ? 'evidence' OR jsonb_typeof(v->'evidence') = 'null'
                OR (jsonb_typeof(v->'evidence') = 'array'
                    AND NOT jsonb_path_exists(v->'evidence',
                                              'strict $[*] ? (@.type() == "object" || @.type() == "array")')))
$$;

-- A catalog result document for the psql helpers (footnote.result_values, result_evidence): a JSON object
-- whose values map names to figures {kind, raw, text, evidence}, whose rows are objects of such figures and
-- whose evidence is an array of records; NULL stays NULL.
CREATE FUNCTION footnote._result_arg(argument text, value jsonb)
RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bad text;
BEGIN
    IF value IS NULL THEN
        RETURN NULL;
    END IF;
    IF jsonb_typeof(value) <> 'object' THEN
        PERFORM footnote._invalid(argument,
                                  format('must be a catalog result (a JSON object), not %s', jsonb_typeof(value)),
                                  left(value::text, 200));
    END IF;
    IF value ? 'values' AND jsonb_typeof(value->'values') <> 'object' THEN
        bad := 'values must be an object';
    ELSIF EXISTS (SELECT FROM jsonb_each(value->'values') AS v WHERE NOT footnote._is_figure(v.value)) THEN
        bad := 'each of values must be a figure {kind, raw, text, evidence: [id, ...]}';
    ELSIF value ? 'rows' AND jsonb_typeof(value->'rows') <> 'array' THEN
        bad := 'rows must be an array';
    ELSIF EXISTS (SELECT FROM jsonb_array_elements(value->'rows') AS r WHERE jsonb_typeof(r) <> 'object') THEN
        bad := 'each row must be an object';
    ELSIF EXISTS (SELECT FROM jsonb_array_elements(value->'rows') AS r, jsonb_each(r) AS v
                  WHERE NOT footnote._is_figure(v.value)) THEN
        bad := 'each value of a row must be a figure {kind, raw, text, evidence: [id, ...]}';
    ELSIF value ? 'evidence' AND jsonb_typeof(value->'evidence') <> 'array' THEN
        bad := 'evidence must be an array';
    ELSIF EXISTS (SELECT FROM jsonb_array_elements(value->'evidence') AS e
                  WHERE jsonb_typeof(e) <> 'object'
                     OR coalesce(jsonb_typeof(e->'verified'), 'null') NOT IN ('boolean', 'null')) THEN
        bad := 'each evidence record must be an object whose verified is true, false or null';
    END IF;
    IF bad IS NOT NULL THEN
        PERFORM footnote._invalid(argument, 'is not a catalog result: ' || bad, left(value::text, 200));
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

-- A period argument: 2026-07 (month), 2026-Q2 or Q2 2026 (calendar quarter), 2026-H1 or H1 2026 (half year),
-- FY2026 (fiscal year), 2026 (calendar year), 2026-01-01..2026-08-14 (the days from one to the other, both included).
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
    m := coalesce(regexp_match(v, '^(\d{4})-?H([12])$'),
                  (SELECT ARRAY[x[2], x[1]] FROM regexp_match(v, '^H([12]) (\d{4})$') AS x WHERE x IS NOT NULL));
    IF m IS NOT NULL THEN
        p.kind := 'half';
        p.starts := make_date(m[1]::integer, (m[2]::integer - 1) * 6 + 1, 1);
        p.ends := (p.starts + interval '6 months')::date;
        p.label := format('H%s %s', m[2], m[1]);
        RETURN footnote._period_range(argument, value, p);
    END IF;
    m := regexp_match(v, '^(\d{4}-\d{2}-\d{2}) ?\.\. ?(\d{4}-\d{2}-\d{2})$');
    IF m IS NOT NULL THEN
        BEGIN
            p.starts := m[1]::date;
            p.ends := m[2]::date + 1;
        EXCEPTION WHEN datetime_field_overflow OR invalid_datetime_format THEN
            PERFORM footnote._invalid(argument, format('%s holds a day that does not exist', value), value);
        END;
        IF p.ends <= p.starts THEN
            PERFORM footnote._invalid(argument, format('%s ends before it starts', value), value);
        END IF;
        p.kind := 'range';
        p.label := footnote.format('date', to_char(p.starts, 'YYYY-MM-DD')) || '–'
            || footnote.format('date', to_char(p.ends - 1, 'YYYY-MM-DD'));
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
        format('%s is not a period; use 2026-07, 2026-Q2, 2026-H1, FY2026, 2026 or 2026-01-01..2026-08-14', value), value);
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
-- Each letter becomes a bracket of itself and the accented letters that fold to it, read from the fold map
-- in one pass (not once per letter typed).
CREATE FUNCTION footnote._accent_pattern(t text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH accents AS (
        SELECT lower(u.p) AS c, string_agg(DISTINCT lower(u.a), '') AS letters
        FROM footnote._fold_map() AS m,
             unnest(regexp_split_to_array(m.accented, ''), regexp_split_to_array(m.plain, '')) AS u(a, p)
        GROUP BY lower(u.p))
    SELECT string_agg(CASE WHEN x.c ~ '^[a-z]$' THEN
                           '[' || x.c || coalesce(a.letters, '')
                           || CASE x.c WHEN 's' THEN 'ß' WHEN 'o' THEN 'øœ' WHEN 'a' THEN 'æ' WHEN 'e' THEN 'æœ' ELSE '' END
                           || ']'
                       WHEN x.c = ' ' THEN '[^a-z0-9]+'
                       ELSE x.c END, '' ORDER BY x.n)
    FROM regexp_split_to_table(t, '') WITH ORDINALITY AS x(c, n) LEFT JOIN accents AS a ON a.c = x.c
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

-- Names the resolver knows: customers, suppliers and items, with the code people also use. In footnote_src, beside
-- the scoped views it reads, so that a mapping that changes the integer type of a key column may create it anew.
CREATE VIEW footnote_src.entity_names AS
    SELECT 'customer'::text AS entity, c.id, c.name, c.customer_number AS code, c.uri FROM footnote_src.customers_in_scope AS c
    UNION ALL
    SELECT 'supplier', s.id, s.name, s.supplier_number, s.uri FROM footnote_src.suppliers_in_scope AS s
    UNION ALL
    SELECT 'item', i.id, i.name, i.sku, i.uri FROM footnote_src.items_in_scope AS i;

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
    cands  footnote._named[];
    hits   footnote.entity[];
    alts   jsonb;
BEGIN
    -- 1. id, or its deep link
    IF v ~ '^\d{1,18}$' OR v ~ ('^erp://' || entity || '/\d{1,18}$') THEN
        SELECT array_agg(ROW(e.id, e.name, e.uri)::footnote.entity ORDER BY e.id) INTO hits
        FROM footnote_src.entity_names AS e
        WHERE e.entity = $1 AND e.id = substring(v FROM '(\d+)$')::bigint;
        IF hits IS NOT NULL THEN
            RETURN hits[1];
        END IF;
    END IF;
    SELECT w INTO v_key FROM unnest(v_words) AS w WHERE w <> '' ORDER BY length(w) DESC, w LIMIT 1;
    v_prefix := footnote._accent_pattern(v_key);  -- every match below contains the longest word typed
    SELECT array_agg(ROW(e.id, e.name, e.uri, e.code, footnote._fold(e.name))::footnote._named) INTO cands
    FROM footnote_src.entity_names AS e
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
    ELSIF cardinality(hits) > 1 THEN  -- the first 20 candidates, and how many more (a short name may fit thousands)
        RAISE EXCEPTION USING
            ERRCODE = 'FN003',
            MESSAGE = format('%s "%s" is ambiguous: it matches %s', argument, footnote._shown(v, 80),
                             footnote._listed(ARRAY(SELECT h.name
                                                    FROM unnest(hits[1:20]) WITH ORDINALITY AS h(id, name, uri, ord)
                                                    ORDER BY ord), cardinality(hits))),
            DETAIL = jsonb_build_object(
                'argument', argument, 'entity', entity, 'value', v, 'matching', cardinality(hits),
                'candidates', (SELECT jsonb_agg(jsonb_build_object('id', h.id::text, 'name', h.name, 'uri', h.uri) ORDER BY ord)
                               FROM unnest(hits[1:20]) WITH ORDINALITY AS h(id, name, uri, ord)))::text;
    END IF;

    -- unknown: the names that are actually close, among names sharing the first letters of a word typed: a word
    -- of the name (without its legal form) has at least half its trigrams in common with a word typed. Best first:
    -- by how well each word typed is matched, on average. None close: say so, and how to list the real ones.
    IF NOT EXISTS (SELECT FROM footnote_src.entity_names AS x WHERE x.entity = $1) THEN  -- no names at all: not mapped
        PERFORM footnote._require_source(entity);
    END IF;
    SELECT string_agg(footnote._accent_pattern(left(w, 3)), '|') INTO v_starts
    FROM unnest(v_words) AS w WHERE length(w) >= 3;
    SELECT jsonb_agg(jsonb_build_object('id', a.id::text, 'name', a.name, 'uri', a.uri) ORDER BY a.sim DESC, a.name, a.id)
    INTO alts
    FROM (SELECT e.id, e.name, e.uri, k.sim
          FROM footnote_src.entity_names AS e
          CROSS JOIN LATERAL (
              SELECT avg(b.best) AS sim, max(b.best) AS best
              FROM (SELECT max(footnote._similarity(q.w, n.w)) AS best
                    FROM unnest(v_words) AS q(w),
                         regexp_split_to_table(coalesce(nullif(footnote._core_name(e.name), ''), footnote._fold(e.name)),
                                               ' ') AS n(w)
                    WHERE length(q.w) >= 3 AND n.w <> ''
                    GROUP BY q.w) AS b) AS k
          WHERE e.entity = $1 AND lower(e.name) ~ v_starts AND k.best >= 0.5
          ORDER BY k.sim DESC, e.name, e.id
          LIMIT 5) AS a;
    RAISE EXCEPTION USING
        ERRCODE = 'FN002',
        MESSAGE = format('unknown %s "%s"; %s', entity, footnote._shown(v, 80),
                         CASE WHEN jsonb_array_length(alts) > 0 THEN 'closest: ' || footnote._listed(
                             ARRAY(SELECT x->>'name' FROM jsonb_array_elements(alts) WITH ORDINALITY AS y(x, n)
                                   ORDER BY n), jsonb_array_length(alts))
                         ELSE format('no %s name is close to it (the list_%ss operation lists the real ones)',
                                     entity, entity) END),
        DETAIL = jsonb_build_object('argument', argument, 'entity', entity, 'value', v,
                                    'alternatives', coalesce(alts, '[]'::jsonb))::text;
END
$$;
