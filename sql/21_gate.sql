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

-- The calls an answer relies on (call ids checked by footnote._uuids_arg), in the order given (each once),
-- checked: each made by this session's role and actor, and, when the answer is to be recorded, none used by
-- a record before; recording NULL: neither (a sealed record graded again by verification).
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
    FOR wanted IN SELECT x FROM unnest(coalesce(call_ids, '{}')) WITH ORDINALITY AS u(x, n)
                  WHERE x IS NOT NULL GROUP BY x ORDER BY min(n) LOOP
        SELECT * INTO c FROM ONLY footnote.call_log AS l WHERE l.call_id = wanted;
        IF c.call_id IS NULL THEN
            call_id := wanted; made := false; operation := NULL; result := NULL;
            RETURN NEXT;
            CONTINUE;
        END IF;
        IF recording IS NOT NULL  -- NULL: a sealed record regraded (footnote._regrade), whoever verifies
           AND (c.db_role IS DISTINCT FROM session_user::text OR c.actor_id IS DISTINCT FROM actor->>'id'
                OR c.actor_role IS DISTINCT FROM actor->>'role') THEN
            RAISE EXCEPTION USING ERRCODE = 'FN103',
                MESSAGE = format('call %s was made by another role or actor (%s / %s), not by %s / %s',
                                 wanted, c.db_role, coalesce(c.actor_id, '-'), session_user,
                                 coalesce(actor->>'id', '-')),
                DETAIL = jsonb_build_object('argument', 'call_ids', 'call_id', wanted)::text;
        END IF;
        IF recording AND EXISTS (SELECT FROM ONLY footnote.call_use AS u WHERE u.call_id = wanted) THEN
            RAISE EXCEPTION USING ERRCODE = 'FN104',
                MESSAGE = format('call %s already backs an accepted ledger record; make a new call', wanted),
                DETAIL = jsonb_build_object('argument', 'call_ids', 'call_id', wanted,
                    'record_id', (SELECT u.record_id FROM ONLY footnote.call_use AS u WHERE u.call_id = wanted))::text;
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
                                     ORDER BY x.text, (x.path LIKE 'values.%') DESC, x.path) AS t), '{}'),
            -- the raw values of its rows, for superlatives and orderings (footnote._ordering_holds)
            'rows', coalesce((SELECT jsonb_agg((SELECT coalesce(jsonb_object_agg(v.key, v.value->'raw'), '{}')
                                                FROM jsonb_each(r.row) AS v WHERE jsonb_typeof(v.value) = 'object')
                                               ORDER BY r.n)
                              FROM jsonb_array_elements(coalesce(c.result->'rows', '[]')) WITH ORDINALITY AS r(row, n)), '[]'))), '{}'),
        'operations', coalesce(jsonb_agg(c.operation ORDER BY c.n) FILTER (WHERE c.made), '[]'),
        'unknown', coalesce(jsonb_agg(c.call_id::text ORDER BY c.n) FILTER (WHERE NOT c.made), '[]'))
    FROM footnote._answer_calls(call_ids, recording) WITH ORDINALITY AS c(call_id, made, operation, result, n)
$$;

-- True when the word is a legal form (GmbH, AG, S.L., Ltd, Oy, ...).
CREATE FUNCTION footnote._is_legal_form(word text)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT lower(regexp_replace(word, '[^A-Za-z]', '', 'g')) IN (
        'gmbh', 'ag', 'kg', 'kgaa', 'ohg', 'ug', 'se', 'sa', 'sas', 'sasu', 'sarl', 'srl', 'spa', 'sl', 'slu', 'bv',
        'nv', 'ab', 'as', 'asa', 'oy', 'oyj', 'ltd', 'plc', 'llc', 'inc', 'corp', 'co', 'kft', 'sro', 'doo', 'aps',
        'sp', 'zoo', 'lda', 'limited', 'gbr', 'ev', 'eg')
$$;

-- The short forms a name may be written in, folded: without its legal form ("bergmann logistik" for
-- Bergmann Logistik GmbH), then its leading words ("bergmann"). The gate accepts a short form only when
-- it names this entity and no other (footnote._names_matching).
CREATE FUNCTION footnote._short_forms(name text)
RETURNS text[]
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    w   text[] := regexp_split_to_array(btrim(name), '\s+');
    n   integer := cardinality(w);
    out text[] := '{}';
    i   integer;
BEGIN
    WHILE n > 1 AND (footnote._is_legal_form(w[n]) OR w[n] ~ '^[^A-Za-z0-9]*$' OR w[n] ~* '^&?co\.?$') LOOP
        n := n - 1;
    END LOOP;
    FOR i IN REVERSE n..1 LOOP
        CONTINUE WHEN w[i] ~ '^[^A-Za-z0-9]*$' OR length(regexp_replace(w[i], '[^[:alpha:]]', '', 'g')) < 3;
        out := out || footnote._fold1(rtrim(array_to_string(w[1:i], ' '), ',;:'));
    END LOOP;
    RETURN array_remove(out, footnote._fold1(name));
END
$$;

-- The later words of a name that may stand for it alone, folded ("rinaldi" for Meccanica Rinaldi S.p.A., "moreau"
-- for Ateliers Moreau Mécanique SA): a word of four letters or more written with a capital, not its first word and
-- not its legal form. Accepted as short forms are: written with a capital, naming this entity and no other.
CREATE FUNCTION footnote._tail_forms(name text)
RETURNS text[]
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(array_agg(DISTINCT footnote._fold1(rtrim(w, ',;:'))), '{}')
    FROM unnest(regexp_split_to_array(btrim(name), '\s+')) WITH ORDINALITY AS x(w, i)
    WHERE i > 1 AND w ~ '^[A-Z\u00C0-\u00DE][[:alpha:]-]{3,}[,;:]?$' AND NOT footnote._is_legal_form(w)
$$;

-- The names of customers, suppliers and items that a short form could mean: every word of it starts a
-- word of the name (accents and case ignored). The names read are those containing its longest word, by the
-- pattern name resolution uses; a scalar subquery gives it, so an index on lower(name) can serve it (a join
-- with the pattern could not: 41 ms -> 2.7 ms among 22,222 customers with the sample's trigram index).
-- SECURITY DEFINER, owned by footnote_owner: the names come through the source views, which the gate's role
-- does not read.
CREATE FUNCTION footnote._names_matching(short text)
RETURNS text[]
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    WITH q AS (SELECT regexp_split_to_array(footnote._fold(short), ' ') AS words)
    SELECT coalesce(array_agg(DISTINCT e.name ORDER BY e.name), '{}')
    FROM footnote_src.entity_names AS e, q
    WHERE lower(e.name) ~ (SELECT footnote._accent_pattern(w) FROM q, unnest(q.words) AS w
                           ORDER BY length(w) DESC, w LIMIT 1)
      AND NOT EXISTS (SELECT FROM unnest(q.words) AS x(w) WHERE NOT (' ' || footnote._fold(e.name)) LIKE ('% ' || x.w || '%'))
$$;

-- The gate's way to footnote._names_matching: only while it is as installed (footnote._owner_code), so that it
-- runs as footnote_owner and never the mapping's code as the gate's role; and it must leave the session's actor
-- as it was (footnote._session_kept).
CREATE FUNCTION footnote._names_of(short text)
RETURNS text[]
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    said  jsonb := footnote._owner_code('_names_matching');
    names text[] := footnote._names_matching(short);
BEGIN
    PERFORM footnote._session_kept(said, '_names_matching');
    RETURN names;
END
$$;

-- True when a figure may start at s and end at e of the plain text t: it does not begin or end inside a
-- word or a number ("4" inside "43.805,00 €", "2" inside "Q2", "12" inside "12,4").
CREATE FUNCTION footnote._edge_ok(t text, s integer, e integer)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT NOT (first ~ alnum AND before ~ alnum)
       AND NOT (first ~ '[0-9]' AND before ~ '[.,]' AND before2 ~ '[0-9]')
       AND NOT (last ~ alnum AND after ~ alnum)
       AND NOT (last ~ '[0-9]' AND after ~ '[.,]' AND after2 ~ '[0-9]')
    FROM (SELECT substr(t, s + 1, 1) AS first, CASE WHEN s > 0 THEN substr(t, s, 1) ELSE '' END AS before,
                 CASE WHEN s > 1 THEN substr(t, s - 1, 1) ELSE '' END AS before2,
                 substr(t, e, 1) AS last, substr(t, e + 1, 1) AS after, substr(t, e + 2, 1) AS after2,
                 '^(' || footnote._letters() || '|[0-9])$' AS alnum) AS x
$$;

-- The body cells of the markdown tables of a text, each with its column's header: (start, end) of the cell's
-- trimmed text (0-based, end exclusive), the text, the header cell above it and the first cell of its row
-- (the label of a key/value table: "| Days past due | 104 |").
CREATE FUNCTION footnote._table_cells(t text)
RETURNS TABLE (s integer, e integer, cell text, header text, label text)
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    lines   text[] := string_to_array(t, E'\n');
    starts  integer[] := '{}';
    pos     integer := 0;
    i       integer;
    j       integer;
    heads   text[];
    pipes   integer[];
    c       integer;
    raw     text;
    lead    integer;
BEGIN
    FOR i IN 1..coalesce(cardinality(lines), 0) LOOP
        starts := starts || pos;
        pos := pos + length(lines[i]) + 1;
    END LOOP;
    i := 2;
    WHILE i <= coalesce(cardinality(lines), 0) LOOP
        IF lines[i] ~ '^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$' AND lines[i - 1] ~ '^\s*\|' THEN
            heads := ARRAY(SELECT btrim(x) FROM unnest(string_to_array(btrim(btrim(lines[i - 1]), '|'), '|')) AS x);
            j := i + 1;
            WHILE j <= cardinality(lines) AND lines[j] ~ '^\s*\|' LOOP
                pipes := ARRAY(SELECT g - 1 FROM generate_series(1, length(lines[j])) AS g WHERE substr(lines[j], g, 1) = '|');
                FOR c IN 1..cardinality(pipes) - 1 LOOP
                    raw := substr(lines[j], pipes[c] + 2, pipes[c + 1] - pipes[c] - 1);
                    CONTINUE WHEN btrim(raw) = '' OR c > cardinality(heads);
                    -- bold or italic marks around a cell ("**43.805,00**") are not part of it
                    lead := length(raw) - length(ltrim(raw, E' \t*_'));
                    s := starts[j] + pipes[c] + 1 + lead;
                    cell := btrim(raw, E' \t*_');
                    e := s + length(cell);
                    header := heads[c];
                    label := CASE WHEN c > 1 THEN btrim(substr(lines[j], pipes[1] + 2, pipes[2] - pipes[1] - 1), E' \t*_') END;
                    RETURN NEXT;
                END LOOP;
                j := j + 1;
            END LOOP;
            i := j;
        ELSE
            i := i + 1;
        END IF;
    END LOOP;
END
$$;

-- The bare numbers of "key: value" pairs (YAML, JSON, a line "Oldest days past due: 37"): (start, end) of the
-- number (0-based, end exclusive), the number and its key. A number with a unit or a word after it is not bare.
CREATE FUNCTION footnote._key_values(t text)
RETURNS TABLE (s integer, e integer, cell text, label text)
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    re constant text := '(?:^|[ \t{,\[])["'']?([A-Za-z][A-Za-z_ ()/-]{0,60}?)["'']?[ \t]*[:=][ \t]*["'']?([0-9]+(?:[.,][0-9]+)*)["'']?'
                        || '(?=[ \t]*(?:[,}\]\n.;]|$))';
    n  integer := 1;
    p  integer;
BEGIN
    IF t !~ '[:=][ \t]*["'']?[0-9]' THEN
        RETURN;
    END IF;
    LOOP
        p := regexp_instr(t, re, 1, n, 0, 'n', 2);
        EXIT WHEN p = 0;
        cell := regexp_substr(t, re, 1, n, 'n', 2);
        label := regexp_substr(t, re, 1, n, 'n', 1);
        s := p - 1;
        e := s + length(cell);
        RETURN NEXT;
        n := n + 1;
    END LOOP;
END
$$;

-- The other spellings of a period a template prints ("Q2 2026", "H1 2026", "FY2026", "July 2026"), folded, as
-- people write them: Q2/2026, 2Q26, 2. Quartal 2026, second quarter of 2026; 1H26, first half of 2026; FY 2026,
-- FY26, GJ 2026; Jul 2026, Juli 2026, 07/2026, 2026-07; a Monday-to-Sunday range as KW 32 or week 32. Each names
-- that period and no other.
CREATE FUNCTION footnote._period_spellings(p text)
RETURNS text[]
LANGUAGE plpgsql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    m      text[];
    y      text;
    yy     text;
    k      integer;
    mon    text;
    ord    constant text[] := ARRAY['first', 'second', 'third', 'fourth'];
    nth    constant text[] := ARRAY['1st', '2nd', '3rd', '4th'];
    months constant text[] := ARRAY['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august',
                                    'september', 'october', 'november', 'december'];
    monate constant text[] := ARRAY['januar', 'februar', 'marz', 'april', 'mai', 'juni', 'juli', 'august',
                                    'september', 'oktober', 'november', 'dezember'];
BEGIN
    m := regexp_match(p, '^Q([1-4]) ([0-9]{4})$');
    IF m IS NOT NULL THEN
        k := m[1]::integer; y := m[2]; yy := right(y, 2);
        RETURN ARRAY['q' || k || '/' || y, 'q' || k || '-' || y, y || '-q' || k, y || ' q' || k, y || '/q' || k,
                     'q' || k || '/' || yy, 'q' || k || '-' || yy, 'q' || k || ' ''' || yy, 'q' || k || '''' || yy,
                     k || 'q' || yy, k || 'q ' || y, k || 'q' || y, k || '. quartal ' || y, k || '. quartals ' || y,
                     'q' || k || ' of ' || y, ord[k] || ' quarter of ' || y, ord[k] || ' quarter ' || y,
                     nth[k] || ' quarter of ' || y, nth[k] || ' quarter ' || y];
    END IF;
    m := regexp_match(p, '^H([12]) ([0-9]{4})$');
    IF m IS NOT NULL THEN
        k := m[1]::integer; y := m[2]; yy := right(y, 2);
        RETURN ARRAY['h' || k || '/' || y, 'h' || k || '-' || y, y || '-h' || k, y || ' h' || k, 'h' || k || '/' || yy,
                     'h' || k || ' ''' || yy, 'h' || k || '''' || yy, k || 'h' || yy, k || 'h ' || y, k || 'h' || y,
                     k || '. halbjahr ' || y, k || '. halbjahres ' || y, ord[k] || ' half of ' || y,
                     ord[k] || ' half ' || y, nth[k] || ' half of ' || y, nth[k] || ' half ' || y,
                     'hy' || k || ' ' || y, 'h' || k || ' of ' || y];
    END IF;
    m := regexp_match(p, '^FY([0-9]{4})$');
    IF m IS NOT NULL THEN
        y := m[1]; yy := right(y, 2);
        RETURN ARRAY['fy ' || y, 'fy-' || y, 'fy/' || y, 'fy' || yy, 'fy ''' || yy, 'fy''' || yy,
                     'gj ' || y, 'gj' || y, 'geschaftsjahr ' || y, 'fiscal year ' || y, 'fiscal ' || y,
                     'financial year ' || y];
    END IF;
    -- a Monday-to-Sunday range is an ISO week: KW 32, CW32, week 32 (of 2026), W32
    m := regexp_match(footnote._plain(p), '^([0-9]{2})\.([0-9]{2})\.([0-9]{4}) ?- ?([0-9]{2})\.([0-9]{2})\.([0-9]{4})$');
    IF m IS NOT NULL AND make_date(m[3]::integer, m[2]::integer, m[1]::integer) + 6
                         = make_date(m[6]::integer, m[5]::integer, m[4]::integer)
       AND extract(isodow FROM make_date(m[3]::integer, m[2]::integer, m[1]::integer)) = 1 THEN
        k := extract(week FROM make_date(m[3]::integer, m[2]::integer, m[1]::integer))::integer;
        y := extract(isoyear FROM make_date(m[3]::integer, m[2]::integer, m[1]::integer))::integer::text;
        RETURN ARRAY['kw ' || k, 'kw' || k, 'kw ' || k || '/' || y, 'kw' || k || '/' || y, 'kw ' || k || ' ' || y,
                     'cw ' || k, 'cw' || k, 'cw ' || k || '/' || y, 'week ' || k, 'week ' || k || ' of ' || y,
                     'week ' || k || ' ' || y, 'week ' || k || '/' || y, 'w' || k, 'w' || k || '/' || y,
                     y || '-w' || lpad(k::text, 2, '0'), 'kalenderwoche ' || k, 'kalenderwoche ' || k || ' ' || y];
    END IF;
    m := regexp_match(lower(p), '^([a-z]+) ([0-9]{4})$');
    k := array_position(months, m[1]);
    IF k IS NOT NULL THEN
        y := m[2]; yy := right(y, 2); mon := left(months[k], 3);
        RETURN ARRAY[mon || ' ' || y, mon || '. ' || y, mon || '-' || y, mon || ' ''' || yy, mon || '''' || yy,
                     mon || '-' || yy, monate[k] || ' ' || y, left(monate[k], 3) || ' ' || y,
                     left(monate[k], 3) || '. ' || y, lpad(k::text, 2, '0') || '/' || y, k || '/' || y,
                     y || '-' || lpad(k::text, 2, '0'), y || '/' || lpad(k::text, 2, '0'), months[k] || ' of ' || y,
                     months[k] || ', ' || y];
    END IF;
    RETURN '{}';
END
$$;

-- The other spellings of an aging bucket a template prints ("1-30 days", "over 90 days"), folded, as people
-- write them: 1 to 30 days, 1-30 d, 1-30 Tage; > 90 days, 90+ days, 90+, über 90 Tage, more than 90 days.
-- Each names that bucket and no other.
CREATE FUNCTION footnote._bucket_spellings(b text)
RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(array_agg(DISTINCT footnote._fold1(x.p || x.u)) FILTER (WHERE x.p || x.u <> b), '{}')
    FROM (SELECT p.p, u.u
          FROM (SELECT m[1] || sep || m[2] AS p
                FROM regexp_match(b, '^([0-9]+)-([0-9]+) days$') AS r(m),
                     unnest(ARRAY['-', ' - ', ' to ', ' bis ', ' until ', ' through ', ' thru ']) AS s(sep)
                WHERE m IS NOT NULL
                UNION ALL
                SELECT pre || m[1] || post
                FROM regexp_match(b, '^over ([0-9]+) days$') AS r(m),
                     (VALUES ('over ', ''), ('> ', ''), ('>', ''), ('über ', ''), ('more than ', ''), ('mehr als ', ''),
                             ('older than ', ''), ('', '+')) AS s(pre, post)
                WHERE m IS NOT NULL) AS p,
               unnest(ARRAY[' days', ' d', 'd', ' tage', ' dpd', ' days past due', ' days overdue']) AS u(u)
          UNION ALL
          -- "90+" and "> 90" need no unit
          SELECT pre || m[1] || post, ''
          FROM regexp_match(b, '^over ([0-9]+) days$') AS r(m), (VALUES ('', '+'), ('> ', ''), ('>', '')) AS s(pre, post)
          WHERE m IS NOT NULL) AS x
$$;

-- Where the values of a template occur in a text: [{"start", "end", "text" (the value's text), "form"}],
-- sorted and disjoint (the longest occurrence wins). Numbers compare exactly (after look-alike spaces and
-- dashes are made plain); texts with letters ignore case and accents; names may take a short form.
-- With numbered, a number opening a line as "1." or "2)" is a list marker, not a figure.
CREATE FUNCTION footnote._find_figures(t text, slots jsonb, numbered boolean)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    plain  text := footnote._plain(t);
    fold   text := footnote._fold1(t);
    sl     jsonb;
    vs     text[];
    fs     text[];
    k      integer;
    v      text;
    hay    text;
    p      integer;
    off    integer;
    occ    jsonb := '[]';
    acc    jsonb := '[]';
    o      jsonb;
BEGIN
    FOR sl IN SELECT x FROM jsonb_array_elements(slots) AS x LOOP
        IF (sl->>'text') ~ footnote._letters() THEN
            vs := ARRAY[footnote._fold1(sl->>'text')];
            fs := ARRAY['as_written'];
        ELSE
            vs := ARRAY[footnote._plain(sl->>'text')];
            fs := ARRAY['exact'];
        END IF;
        IF (sl->>'name')::boolean THEN
            vs := vs || footnote._short_forms(sl->>'text');
            fs := fs || array_fill('short'::text, ARRAY[cardinality(vs) - 1]);
            vs := vs || footnote._tail_forms(sl->>'text');
            fs := fs || array_fill('tail'::text, ARRAY[cardinality(vs) - cardinality(fs)]);
        END IF;
        -- a number with a unit or currency may take another spelling of it (footnote.lexicon canon):
        -- "104 days" as "104 Tage", "104 d" or "104d", "43.805,00 €" as "43.805,00 EUR"
        IF (sl->>'text') ~ '^[0-9][0-9.,]* \S+$' THEN
            SELECT vs || coalesce(array_agg(x.v), '{}'), fs || coalesce(array_agg('unit'::text), '{}') INTO vs, fs
            FROM (SELECT DISTINCT footnote._fold1(split_part(sl->>'text', ' ', 1) || g.sep || l.phrase) AS v
                  FROM footnote._unit_spellings() AS l, (VALUES (' '), ('')) AS g(sep)
                  WHERE l.canon = (SELECT l2.canon FROM footnote._unit_spellings() AS l2
                                   WHERE l2.phrase = lower(split_part(sl->>'text', ' ', 2)))
                    AND l.phrase <> lower(split_part(sl->>'text', ' ', 2))
                    AND (g.sep = ' ' OR l.phrase ~ '^[a-zäöüß]+$')) AS x;
            -- a number of days as an adjective ("30-day payment terms", "30-Tage-Ziel")
            IF (sl->>'text') ~ '^[0-9]+ days$' THEN
                vs := vs || ARRAY[split_part(sl->>'text', ' ', 1) || '-day', split_part(sl->>'text', ' ', 1) || '-tage'];
                fs := fs || ARRAY['unit', 'unit'];
            END IF;
            -- and a percentage its sign glued ("12,4%")
            IF (sl->>'text') ~ ' %$' THEN
                vs := vs || replace(sl->>'text', ' %', '%');
                fs := fs || 'unit'::text;
            END IF;
        END IF;
        -- a period may take its other spellings (footnote._period_spellings): "Q2 2026" as "Q2/2026" or "2. Quartal 2026"
        IF (sl->>'text') ~ '^(Q[1-4] |H[12] |FY)[0-9]{4}$' OR (sl->>'text') ~ '^[A-Z][a-z]+ [0-9]{4}$'
           OR footnote._plain(sl->>'text') ~ '^[0-9]{2}\.[0-9]{2}\.[0-9]{4} ?- ?[0-9]{2}\.[0-9]{2}\.[0-9]{4}$' THEN
            SELECT vs || coalesce(array_agg(x.p), '{}'), fs || coalesce(array_agg('period'::text), '{}') INTO vs, fs
            FROM (SELECT DISTINCT u.p FROM unnest(footnote._period_spellings(sl->>'text')) AS u(p)) AS x;
        END IF;
        -- an aging bucket may take its other spellings (footnote._bucket_spellings): "over 90 days" as "90+ days"
        IF (sl->>'text') ~ '^(over [0-9]+|[0-9]+-[0-9]+) days$' THEN
            SELECT vs || coalesce(array_agg(u.p), '{}'), fs || coalesce(array_agg('bucket'::text), '{}') INTO vs, fs
            FROM unnest(footnote._bucket_spellings(sl->>'text')) AS u(p);
        END IF;
        -- a range (a period, a bucket) may take its other spellings: "01.01.2026–14.08.2026" as "01.01.2026 to
        -- 14.08.2026", "01.01.2026 - 14.08.2026" or "01.01.2026 bis 14.08.2026", "31-60" as "31 to 60"
        IF footnote._plain(sl->>'text') ~ '^[0-9]([0-9.]*[0-9])? ?- ?[0-9]([0-9.]*[0-9])?$' THEN
            SELECT vs || array_agg(x.v), fs || array_agg('range'::text) INTO vs, fs
            FROM (SELECT DISTINCT m[1] || sep || m[2] AS v
                  FROM regexp_match(footnote._plain(sl->>'text'), '^([0-9](?:[0-9.]*[0-9])?) ?- ?([0-9](?:[0-9.]*[0-9])?)$') AS r(m),
                       unnest(ARRAY[' to ', ' - ', '-', ' until ', ' through ', ' bis ', ' thru ']) AS u(sep)
                  WHERE m[1] || sep || m[2] <> footnote._plain(sl->>'text')) AS x;
        END IF;
        FOR k IN 1..cardinality(vs) LOOP
            v := vs[k];
            CONTINUE WHEN coalesce(v, '') = '';
            hay := CASE WHEN fs[k] = 'exact' THEN plain ELSE fold END;
            off := 0;
            LOOP
                p := strpos(substr(hay, off + 1), v);
                EXIT WHEN p = 0;
                p := off + p - 1;
                IF footnote._edge_ok(plain, p, p + length(v))
                   AND (fs[k] <> 'tail' OR substr(t, p + 1, 1) ~ '[A-Z\u00C0-\u00DE]')
                   AND NOT (numbered AND v ~ '^[0-9]{1,2}$' AND substr(plain, p + length(v) + 1, 2) ~ '^[.)][ \t]'
                            AND substr(plain, 1, p) ~ '(^|\n)[ \t]*$') THEN
                    occ := occ || jsonb_build_array(jsonb_build_object(
                        'start', p, 'end', p + length(v), 'text', sl->>'text', 'form', fs[k],
                        'written', substr(t, p + 1, length(v))));
                END IF;
                off := p + 1;
            END LOOP;
        END LOOP;
    END LOOP;
    -- a table cell that holds a bare number whose unit its column's header names: "104" under "Days past due"
    -- is the figure "104 days"; so is the bare number of a key that names it ("oldest_days_past_due: 104")
    IF t ~ '\n\s*\|?\s*:?-{3,}' OR t ~ '[:=][ \t]*["'']?[0-9]' THEN
        SELECT occ || coalesce(jsonb_agg(jsonb_build_object('start', c.s, 'end', c.e, 'text', sl.x->>'text', 'form', 'cell',
                                                            'written', c.cell)), '[]')
        INTO occ
        FROM (SELECT tc.s, tc.e, tc.cell, tc.header, tc.label FROM footnote._table_cells(t) AS tc
              WHERE t ~ '\n\s*\|?\s*:?-{3,}'
              UNION ALL
              SELECT kv.s, kv.e, kv.cell, translate(kv.label, '_', ' '), NULL FROM footnote._key_values(t) AS kv) AS c,
             jsonb_array_elements(slots) AS sl(x)
        WHERE c.cell ~ '^[0-9][0-9.,]*$'
          AND sl.x->>'text' = c.cell || ' ' || split_part(sl.x->>'text', ' ', 2)
          AND split_part(sl.x->>'text', ' ', 3) = ''
          AND EXISTS (SELECT FROM (SELECT lower(split_part(sl.x->>'text', ' ', 2)) AS u
                                   UNION SELECT s2.phrase FROM footnote._unit_spellings() AS s2, footnote._unit_spellings() AS s1
                                   WHERE s1.phrase = lower(split_part(sl.x->>'text', ' ', 2)) AND s2.canon = s1.canon) AS y
                      WHERE lower(c.header || ' ' || coalesce(c.label, ''))
                            ~ ('(^|[^a-z])' || regexp_replace(y.u, '([.+*?()\[\]\\^$|{}])', '\\\1', 'g') || '([^a-z]|$)'));
    END IF;
    -- a quarter written without its year before a quarter that has it ("Q1→Q2 2026", "Q1-Q2 2026", "Q1 vs Q2 2026"):
    -- that year
    p := 1;
    LOOP
        p := regexp_instr(t, '\m[Qq][1-4]\s*(→|->|–|-|to|bis|vs\.?|/)\s*[Qq][1-4] (19|20)[0-9]{2}\M', p);
        EXIT WHEN p = 0;
        v := upper(substr(t, p, 2)) || ' ' || substring(substr(t, p + 2) FROM '^[^0-9]*[Qq][1-4] ((?:19|20)[0-9]{2})');
        IF EXISTS (SELECT FROM jsonb_array_elements(slots) AS x WHERE x->>'text' = v) THEN
            occ := occ || jsonb_build_array(jsonb_build_object('start', p - 1, 'end', p + 1, 'text', v, 'form', 'period',
                                                               'written', substr(t, p, 2)));
        END IF;
        p := p + 2;
    END LOOP;
    FOR o IN SELECT x FROM jsonb_array_elements(occ) AS x
             ORDER BY (x->>'end')::integer - (x->>'start')::integer DESC, (x->>'start')::integer, x->>'form' IN ('short', 'tail')
    LOOP
        IF NOT EXISTS (SELECT FROM jsonb_array_elements(acc) AS a
                       WHERE (a->>'start')::integer < (o->>'end')::integer
                         AND (o->>'start')::integer < (a->>'end')::integer) THEN
            acc := acc || jsonb_build_array(o);
        END IF;
    END LOOP;
    RETURN coalesce((SELECT jsonb_agg(x ORDER BY (x->>'start')::integer) FROM jsonb_array_elements(acc) AS x), '[]');
END
$$;

-- The canonical words that take a side: a direction, a party, a state, a comparison, a level or a period
-- (footnote._opposes pairs them; a refusal or clarification may say none of them).
CREATE FUNCTION footnote._stance_words()
RETURNS text[]
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT ARRAY['up', 'down', 'unchanged', 'owes', 'owed to', 'paid', 'paid out', 'overdue', 'current', 'on time',
                 'above', 'below', 'high', 'medium', 'low', 'largest', 'smallest', 'risk', 'at risk', 'verified']
$$;

-- The action a question asks advice on ("Should we sue Bergmann?": sue) that a sentence of a refusal does
-- anyway: named in a clause of its own that neither negates nor puts it as a question ("no formal advice,
-- but: sue Bergmann"). NULL when the question asks no advice or the sentence only declines it ("I don't
-- advise on whether to sue them").
CREATE FUNCTION footnote._advice_given(sentence text, question text)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH asked AS (  -- the question's content words, not the names in it nor the words of asking
        SELECT DISTINCT ltrim(w, '!') AS w
        FROM jsonb_array_elements(footnote._read(question, '[]', NULL)) AS q,
             jsonb_array_elements_text(q->'words') AS w
        WHERE question ~* '^\W*(should|shall|must|ought|do you (recommend|advise)|would you (recommend|advise)|is it (wise|worth|a good idea)|soll|sollen|sollten|müssen|lohnt|empfiehlst|empfehlen sie)\M'
          AND ltrim(w, '!') NOT IN (SELECT lower(c) FROM jsonb_array_elements_text(q->'capitalised') AS c)
          AND ltrim(w, '!') NOT IN ('sollen', 'sollten', 'soll', 'müssen', 'lohnt', 'empfiehlst', 'empfehlen',
                                    'recommend', 'advise', 'wise', 'worth', 'idea', 'ought')
    )
    SELECT min(w.w)
    FROM regexp_split_to_table(sentence, '[,;:()–—]|\s-\s|\m(but|aber|jedoch|doch)\M', 'i') AS c(clause),
         jsonb_array_elements(footnote._read(c.clause, '[]', NULL)) AS r,
         jsonb_array_elements_text(r->'words') AS w(w)
    WHERE btrim(sentence) !~ '\?$'
      AND c.clause !~* '\m(whether|ob)\M'
      AND NOT EXISTS (SELECT FROM jsonb_array_elements_text(r->'words') AS n WHERE n LIKE '!%')
      AND EXISTS (SELECT FROM asked AS a  -- the same word, or another form of a long one (verklagen, verklagt)
                  WHERE a.w = w.w OR least(length(a.w), length(w.w)) >= 5
                        AND left(a.w, greatest(5, least(length(a.w), length(w.w)) - 2))
                            = left(w.w, greatest(5, least(length(a.w), length(w.w)) - 2)))
$$;

-- True when a word says the opposite of one of the template's: another direction (rose / fell), party
-- (owes / is owed), state (overdue / current), comparison, level or period.
CREATE FUNCTION footnote._opposes(canon text, words jsonb)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT EXISTS (
        SELECT FROM (VALUES (ARRAY['up', 'down', 'unchanged']), (ARRAY['owes', 'owed to']), (ARRAY['paid', 'paid out']),
                            (ARRAY['overdue', 'current', 'on time']), (ARRAY['above', 'below']),
                            (ARRAY['high', 'medium', 'low']), (ARRAY['largest', 'smallest']),
                            (ARRAY['previous quarter', 'this quarter', 'previous year', 'this year', 'previous month',
                                   'this month', 'year to date', 'next', 'yesterday'])) AS g(members),
                    jsonb_array_elements_text(words) AS w
        WHERE canon = ANY (g.members) AND ltrim(w, '!') = ANY (g.members) AND ltrim(w, '!') <> canon)
$$;

-- True when a word says what one of the template's words says, in the other polarity's words: unchanged is not
-- changed, current is not overdue and not yet due ("phone on file unchanged since 03.07.2023" for "has not changed
-- since"; "1.381.262,10 € of that is not yet due" for the current part).
CREATE FUNCTION footnote._same_sense(canon text, words jsonb)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT EXISTS (
        SELECT FROM (VALUES ('unchanged', '!change'), ('current', '!overdue'), ('current', '!due')) AS p(a, b),
                    jsonb_array_elements_text(words) AS w
        WHERE (canon = p.a AND w = p.b) OR (canon = p.b AND w = p.a))
$$;

-- Figures of one kind that a text states in another order than the template unit, unless each is anchored
-- by a context word of its own (the word next to it in the template, used by no other figure of that kind):
-- "from X to Y" may become "to Y, from X", never "from Y to X". pairs: [{"c": claim, "f": figure summary}]
-- in text order.
CREATE FUNCTION footnote._order_offences(pairs jsonb, tc jsonb, tu jsonb, tinfo jsonb)
RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    off      jsonb := '[]';
    kind     text;
    seq      integer[];
    grp      jsonb;
    anchored boolean;
BEGIN
    FOR kind IN SELECT DISTINCT tc->((p->>'c')::integer)->>'kind' FROM jsonb_array_elements(pairs) AS p LOOP
        SELECT array_agg((p->>'c')::integer ORDER BY n), jsonb_agg(p ORDER BY n) INTO seq, grp
        FROM jsonb_array_elements(pairs) WITH ORDINALITY AS x(p, n)
        WHERE tc->((p->>'c')::integer)->>'kind' = kind;
        CONTINUE WHEN seq = (SELECT array_agg(y ORDER BY y) FROM unnest(seq) AS y);
        SELECT bool_and(EXISTS (
                   SELECT FROM (VALUES ('left'), ('right')) AS sd(side)
                   WHERE g->'f'->>sd.side IS NOT NULL AND g->'f'->>sd.side <> '#'
                     AND g->'f'->>sd.side = tinfo->'figures'->(g->>'c')->>sd.side
                     AND (SELECT count(*) FROM jsonb_array_elements_text(tu->'claims') AS o(c)
                          WHERE tc->(o.c::integer)->>'kind' = kind
                            AND tinfo->'figures'->(o.c)->>sd.side = g->'f'->>sd.side) = 1))
        INTO anchored
        FROM jsonb_array_elements(grp) AS g;
        -- or each figure is bound to its period or date, reordered with it ("2.962.843,74 € in Q2 2026, up from
        -- 2.636.388,74 € in Q1 2026"): of every two figures in another order, each has the period or date the
        -- template states it with (for a period: the figure before it), and those two come in the same order,
        -- and no figure has the word that introduces another one of its kind ("from" is the earlier one's)
        IF NOT anchored THEN
            anchored := NOT EXISTS (
                    SELECT FROM jsonb_array_elements(grp) WITH ORDINALITY AS a(g, i),
                                jsonb_array_elements(grp) WITH ORDINALITY AS b(g, j)
                    WHERE a.i < b.j AND (a.g->>'c')::integer > (b.g->>'c')::integer
                      AND NOT coalesce((
                          SELECT min(pa.n) < min(pb.n)
                          FROM jsonb_array_elements(pairs) WITH ORDINALITY AS pa(p, n),
                               jsonb_array_elements(pairs) WITH ORDINALITY AS pb(p, n)
                          WHERE (pa.p->>'c')::integer = (a.g->>'c')::integer + CASE WHEN kind IN ('period', 'date') THEN -1 ELSE 1 END
                            AND (pb.p->>'c')::integer = (b.g->>'c')::integer + CASE WHEN kind IN ('period', 'date') THEN -1 ELSE 1 END
                            AND tu->'claims' @> jsonb_build_array((pa.p->>'c')::integer)
                            AND tu->'claims' @> jsonb_build_array((pb.p->>'c')::integer)
                            AND (tc->((pa.p->>'c')::integer)->>'kind' IN ('period', 'date')) <> (kind IN ('period', 'date'))
                            AND (tc->((pb.p->>'c')::integer)->>'kind' IN ('period', 'date')) <> (kind IN ('period', 'date'))), false))
                AND NOT EXISTS (
                    SELECT FROM jsonb_array_elements(grp) AS g, jsonb_array_elements_text(tu->'claims') AS o(c)
                    WHERE tc->(o.c::integer)->>'kind' = kind AND o.c::integer <> (g->>'c')::integer
                      AND g->'f'->>'left' IS NOT NULL AND g->'f'->>'left' <> '#'
                      AND tinfo->'figures'->(o.c)->>'left' = g->'f'->>'left'
                      AND g->'f'->>'left' IS DISTINCT FROM tinfo->'figures'->(g->>'c')->>'left');
        END IF;
        IF NOT anchored THEN
            off := off || jsonb_build_array(jsonb_build_object('code', 'order', 'kind', kind,
                'text', (SELECT string_agg(g->>'written', ', ') FROM jsonb_array_elements(grp) AS g)));
        END IF;
    END LOOP;
    RETURN off;
END
$$;

-- What is wrong with reading sentence ns (of footnote._read) as template unit u: the offences, and the
-- template claim each figure of the sentence stands for (NULL where none of the unit's does).
--   figs: the figures of the text; tc: the template's claims; tu: the unit; tinfo: what the template
--   says in the unit ({"words", "marks", "negations", "figures": {claim index: {left, right, touch_*}}}).
CREATE FUNCTION footnote._judge(ns jsonb, figs jsonb, tc jsonb, tu jsonb, tinfo jsonb)
RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    off     jsonb := '[]';
    assign  jsonb := '[]';
    f       jsonb;
    fig     jsonb;
    c       integer;
    used    integer[] := '{}';
    w       text;
    extra   text[] := '{}';
    info    jsonb;
    agreed  text[] := '{}';  -- sign words that agree with the value they stand before
BEGIN
    -- which claim of the unit each figure stands for
    FOR f IN SELECT x FROM jsonb_array_elements(ns->'figures') AS x LOOP
        fig := figs->((f->>'figure')::integer);
        SELECT x.c INTO c
        FROM jsonb_array_elements_text(tu->'claims') WITH ORDINALITY AS k(c_text, o), LATERAL (SELECT k.c_text::integer AS c) AS x
        WHERE tc->(x.c)->>'text' = fig->>'text'
          AND (fig->>'call_id' IS NULL OR tc->(x.c)->>'call_id' = fig->>'call_id')
        ORDER BY x.c = ANY (used),
                 NOT (f->>'left' = tinfo->'figures'->(x.c::text)->>'left' OR f->>'right' = tinfo->'figures'->(x.c::text)->>'right'),
                 k.o
        LIMIT 1;
        assign := assign || coalesce(to_jsonb(c), 'null'::jsonb);
        IF c IS NULL THEN
            IF EXISTS (SELECT FROM jsonb_array_elements_text(tu->'claims') AS o(c2)
                       WHERE footnote._shared_period(fig->>'text', tc->(o.c2::integer), tc))
               -- (not where it stands as another date of the statement: "due 14.08.2026" for a due date)
               AND NOT EXISTS (SELECT FROM jsonb_array_elements_text(tu->'claims') AS o(c2)
                               WHERE tc->(o.c2::integer)->>'kind' = 'date' AND f->>'left' IS NOT NULL
                                 AND tinfo->'figures'->(o.c2)->>'left' = f->>'left') THEN
                NULL;  -- the statement's own as-of date or period, which the template states once for all
            ELSIF fig->>'text' !~ '[0-9]' AND fig->>'text' !~ '[A-Z\u00C0-\u00DE]' THEN
                -- a value written in plain words ("high", "open"): read it as those words
                extra := extra || ARRAY(SELECT CASE WHEN (f->>'negated')::boolean THEN '!' ELSE '' END || footnote._stem(x)
                                        FROM regexp_split_to_table(lower(fig->>'written'), '[^a-z]+') AS x WHERE x <> '');
            ELSE
                off := off || jsonb_build_array(jsonb_build_object('code', 'crosses_units', 'figure', f->'figure',
                    'text', fig->>'written'));
            END IF;
            CONTINUE;
        END IF;
        IF c = ANY (used) THEN
            -- a figure said twice where the statement says it once stands in for another one of the statement
            off := off || jsonb_build_array(jsonb_build_object('code', 'crosses_units', 'figure', f->'figure',
                'text', fig->>'written'));
        END IF;
        used := used || c;
        info := tinfo->'figures'->(c::text);
        IF (f->>'negated')::boolean THEN
            off := off || jsonb_build_array(jsonb_build_object('code', 'negated_figure', 'figure', f->'figure',
                'text', fig->>'written'));
        END IF;
        IF EXISTS (SELECT FROM jsonb_array_elements_text(tu->'claims') AS o(c2), LATERAL (VALUES ('left'), ('right')) AS sd(side)
                   WHERE o.c2::integer <> c AND tc->(o.c2::integer)->>'text' <> tc->c->>'text'
                     AND f->>sd.side IS NOT NULL AND left(f->>sd.side, 1) NOT IN ('~', '#')
                     AND f->>sd.side = tinfo->'figures'->(o.c2)->>sd.side
                     AND NOT coalesce(info->'near', '[]') ? (f->>sd.side)) THEN
            off := off || jsonb_build_array(jsonb_build_object('code', 'rebound', 'figure', f->'figure',
                'text', fig->>'written'));
        -- a figure alone in its segment of a list ("overdue 128.028,90 €, open 24.631,65 €") is what the words of
        -- that segment say: a word the statement says beside another of its figures of the same kind, and not
        -- beside this one, puts it in that figure's place
        ELSIF tc->c->>'kind' IN ('amount', 'count', 'days', 'percent', 'quantity')
              AND EXISTS (SELECT FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(f->'segment') = 'array' THEN f->'segment' ELSE '[]' END) AS sw(w)
                      WHERE NOT (coalesce(info->'near', '[]') ? sw.w OR info->>'left' = sw.w OR info->>'right' = sw.w)
                        AND NOT coalesce(tinfo->'lead', '[]') ? sw.w
                        AND EXISTS (SELECT FROM jsonb_array_elements_text(tu->'claims') AS o(c2)
                                    WHERE o.c2::integer <> c AND tc->(o.c2::integer)->>'text' <> tc->c->>'text'
                                      AND tc->(o.c2::integer)->>'kind' = tc->c->>'kind'
                                      AND (coalesce(tinfo->'figures'->(o.c2)->'near', '[]') ? sw.w
                                           OR tinfo->'figures'->(o.c2)->>'left' = sw.w
                                           OR tinfo->'figures'->(o.c2)->>'right' = sw.w))) THEN
            off := off || jsonb_build_array(jsonb_build_object('code', 'rebound', 'figure', f->'figure',
                'text', fig->>'written'));
        END IF;
        -- parentheses make a negative amount, not a name, period, date or number of days in brackets, nor the amount
        -- of the document just before them ("INV-2026-8812 (18.450,00 €)"; "Net (3.739,50 €)" stays negative)
        IF fig->>'text' ~ '[A-Za-z]' OR fig->>'text' ~ '^[0-9]{2}\.[0-9]{2}\.[0-9]{4}$' OR tc->c->>'kind' = 'count'
           OR substr(ns->>'text', 1, greatest((fig->>'start')::integer - (ns->>'start')::integer, 0))
              ~ '\m[A-Z]{2,}[-/]?[0-9][0-9/-]*\s*\(\s*$' THEN
            f := f || jsonb_build_object(
                'touch_left', CASE WHEN f->>'touch_left' = 'paren:()' THEN info->'touch_left' ELSE f->'touch_left' END,
                'touch_right', CASE WHEN f->>'touch_right' = 'paren:()' THEN info->'touch_right' ELSE f->'touch_right' END);
        END IF;
        -- a dash before a date joins it to the date before it (20.06.2025–07.08.2026): a range, not a sign
        IF fig->>'text' ~ '^[0-9]{2}\.[0-9]{2}\.[0-9]{4}$' AND f->>'touch_left' ~ '^sign:' THEN
            f := f || jsonb_build_object('touch_left', info->'touch_left');
        END IF;
        -- pieces counted ("43 Stück", "2 pcs" for 2 purchase orders): a count's own unit
        IF tc->c->>'kind' = 'count' AND f->>'touch_right' = 'unit:pcs' AND info->>'touch_right' IS DISTINCT FROM 'unit:pcs' THEN
            f := f || jsonb_build_object('touch_right', info->'touch_right');
        END IF;
        -- German "über" after a document says its amount ("Gutschriften über 16.287,28 €", "Rechnung über
        -- 8.258,35 €"), not more than it
        IF f->>'touch_left' = 'modifier:über' AND info->>'touch_left' IS NULL AND tc->c->>'kind' = 'amount'
           AND substr(ns->>'text', 1, greatest((fig->>'start')::integer - (ns->>'start')::integer, 0))
               ~* '\m(rechnung|rechnungen|gutschrift|gutschriften|guthaben|zahlung|zahlungen|betrag|beträge|posten|lieferantenrechnung|lieferantenrechnungen|bestellung|bestellungen)\M([^[:alnum:]]+[[:alnum:]/-]+){0,2}[^[:alnum:]]+über\s*$' THEN
            agreed := agreed || (f->>'touch_left');
            f := f || '{"touch_left": null}';
        END IF;
        -- "only", "exactly" before a figure say it is that figure ("the oldest only 18 days past due")
        IF f->>'touch_left' IN ('modifier:only', 'modifier:exactly', 'modifier:precisely', 'modifier:merely', 'modifier:nur',
                                'modifier:genau')
           AND info->>'touch_left' IS NULL THEN
            agreed := agreed || (f->>'touch_left');
            f := f || '{"touch_left": null}';
        END IF;
        -- a sign that agrees with the value's own ("+326.455,00 €" for a rise, "−85.726,17 €" for a fall)
        IF f->>'touch_left' ~ '^sign:' AND (info->>'touch_left' IS NULL OR info->>'touch_left' = 'paren:()')
           AND tc->c->>'value' ~ '\.(change|change_percent)$'
           AND ((f->>'touch_left' IN ('sign:+', 'sign:plus') AND tinfo->'words' ? 'up' AND NOT tinfo->'words' ? 'down')
                OR (f->>'touch_left' IN ('sign:-', 'sign:−', 'sign:–', 'sign:minus') AND tinfo->'words' ? 'down'
                    AND NOT tinfo->'words' ? 'up')) THEN
            agreed := agreed || (f->>'touch_left');
            f := f || '{"touch_left": null}';
        END IF;
        IF (f->>'touch_left' IS NOT NULL AND f->>'touch_left' IS DISTINCT FROM info->>'touch_left')
           OR (f->>'touch_right' IS NOT NULL AND f->>'touch_right' IS DISTINCT FROM info->>'touch_right') THEN
            off := off || jsonb_build_array(jsonb_build_object('code', 'figure_modifier', 'figure', f->'figure',
                'text', fig->>'written',
                'modifier', split_part(coalesce(nullif(f->>'touch_left', info->>'touch_left'),
                                                f->>'touch_right'), ':', 2)));
        END IF;
    END LOOP;

    -- figures of one kind must keep the template's order, unless each is anchored by its own context word
    off := off || footnote._order_offences(
        (SELECT coalesce(jsonb_agg(jsonb_build_object('c', x::integer, 'f', ns->'figures'->(o::integer - 1),
                                                      'written', figs->((ns->'figures'->(o::integer - 1)->>'figure')::integer)->>'written')
                                   ORDER BY o), '[]')
         FROM jsonb_array_elements_text(assign) WITH ORDINALITY AS a(x, o) WHERE x IS NOT NULL), tc, tu, tinfo);

    -- words: each must be one the unit says, with the same polarity
    FOR w IN SELECT x FROM jsonb_array_elements_text(ns->'words') AS x
             UNION ALL SELECT x FROM unnest(extra) AS x LOOP
        CONTINUE WHEN tinfo->'words' ? w OR footnote._same_sense(w, tinfo->'words');
        -- "seit 104 Tagen fällig": a number of days past due
        CONTINUE WHEN w = 'since' AND ns->>'text' ~* '\mseit\s+[0-9]+(\s+|-)tag';
        -- "all of it overdue" where the statement's part is its whole (43.805,00 € open, 43.805,00 € of it overdue)
        CONTINUE WHEN w IN ('all', 'all of') AND EXISTS (
            SELECT FROM jsonb_array_elements_text(tu->'claims') AS a(c1), jsonb_array_elements_text(tu->'claims') AS b(c2)
            WHERE a.c1::integer < b.c2::integer AND tc->(a.c1::integer)->>'kind' = 'amount'
              AND tc->(a.c1::integer)->>'text' = tc->(b.c2::integer)->>'text');
        -- "no open tickets", "kein Artikel" where the statement counts 0 of them: none is the count it states
        -- (in place of the 0, or beside it as "no ... (0)": "0 support tickets are not open" says something else)
        CONTINUE WHEN left(w, 1) = '!' AND tinfo->'words' ? substr(w, 2) AND EXISTS (
            SELECT FROM jsonb_array_elements_text(tu->'claims') AS o(c2)
            WHERE tc->(o.c2::integer)->>'kind' = 'count' AND tc->(o.c2::integer)->>'text' = '0'
              AND (NOT EXISTS (SELECT FROM jsonb_array_elements(assign) AS a WHERE a = to_jsonb(o.c2::integer))
                   OR (ns->>'text' ~* '\m(no|none|kein[emnrs]?)\M' AND ns->>'text' !~* '\m(not|nicht)\M|n[''’]t\M'))
              AND (tinfo->'figures'->(o.c2)->>'left' = substr(w, 2) OR tinfo->'figures'->(o.c2)->>'right' = substr(w, 2)
                   OR coalesce(tinfo->'figures'->(o.c2)->'near', '[]') ? substr(w, 2)));
        -- a noun that names the kind of the statement's subject ("the customer", "our largest customer",
        -- "Kunde", "the supplier") refers to the subject the figures name, and says nothing more
        CONTINUE WHEN left(w, 1) <> '!' AND (split_part(tu->>'subject', ':', 1) = replace(w, ' ', '_')
                                             -- (a customer is an account, a debtor, a client)
                                             OR (split_part(tu->>'subject', ':', 1) = 'customer'
                                                 AND w IN ('account', 'debtor', 'client')));
        -- "Yes —" opening a statement whose negation is the statement's own ("Yes — X is at risk of not paying")
        CONTINUE WHEN w = 'yes' AND (coalesce((tinfo->>'negations')::integer, 0) > 0
                                     OR EXISTS (SELECT FROM jsonb_array_elements_text(tinfo->'words') AS x WHERE left(x, 1) = '!'));
        off := off || jsonb_build_array(jsonb_build_object(
            'code', CASE WHEN tinfo->'words' ? (CASE WHEN left(w, 1) = '!' THEN substr(w, 2) ELSE '!' || w END)
                           OR footnote._opposes(ltrim(w, '!'), tinfo->'words') THEN 'contradicts'
                         ELSE 'unsupported_words' END,
            'text', w));
    END LOOP;
    SELECT string_agg(substr(x, 8), ' ') INTO w FROM jsonb_array_elements_text(ns->'marks') AS x
    WHERE x LIKE 'digits:%' AND NOT tinfo->'marks' ? x;
    IF w IS NOT NULL THEN
        off := off || jsonb_build_array(jsonb_build_object('code', 'unsupported_digits', 'text', w));
    END IF;
    FOR w IN SELECT x FROM jsonb_array_elements_text(ns->'marks') AS x WHERE x NOT LIKE 'digits:%' LOOP
        CONTINUE WHEN tinfo->'marks' ? w OR w = ANY (agreed);
        -- the unit of a figure of the sentence named again ("| Days past due | 104 |", "Overdue (EUR) 43.805,00")
        CONTINUE WHEN split_part(w, ':', 1) IN ('unit', 'currency') AND EXISTS (
            SELECT FROM jsonb_array_elements(ns->'figures') AS f2
            WHERE right(figs->((f2->>'figure')::integer)->>'text', length(substr(w, strpos(w, ':') + 1)) + 1)
                  = ' ' || substr(w, strpos(w, ':') + 1));
        -- "both" where the answer makes two statements of one kind, in a sentence that states only what they
        -- share ("Both as of 14.08.2026.")
        CONTINUE WHEN w IN ('numeral:both', 'numeral:beide', 'numeral:beiden') AND coalesce((tinfo->>'pair')::boolean, false)
                      AND NOT EXISTS (SELECT FROM jsonb_array_elements(ns->'figures') AS f2
                                      WHERE footnote._is_value(figs->((f2->>'figure')::integer)->>'text'));
        -- the kind of period a period of the sentence is ("Month: July 2026", "Geschäftsjahr FY2025")
        CONTINUE WHEN w IN ('unit:month', 'unit:monat') AND EXISTS (
            SELECT FROM jsonb_array_elements(ns->'figures') AS f2
            WHERE figs->((f2->>'figure')::integer)->>'text' ~ '^[A-Z][[:alpha:]]+ [0-9]{4}$');
        CONTINUE WHEN w IN ('unit:year', 'unit:jahr') AND EXISTS (
            SELECT FROM jsonb_array_elements(ns->'figures') AS f2
            WHERE figs->((f2->>'figure')::integer)->>'text' ~ '^(FY ?)?[0-9]{4}$');
        CONTINUE WHEN w = 'unit:pcs' AND EXISTS (
            SELECT FROM jsonb_array_elements_text(assign) AS a(c3)
            WHERE a.c3 IS NOT NULL AND a.c3 <> 'null' AND tc->(a.c3::integer)->>'kind' = 'count');
        off := off || jsonb_build_array(jsonb_build_object(
            'code', CASE split_part(w, ':', 1) WHEN 'numeral' THEN 'number_words' WHEN 'scale' THEN 'number_words' ELSE 'unit_words' END,
            'text', substr(w, strpos(w, ':') + 1)));
    END LOOP;
    IF (ns->>'negations')::integer > coalesce((tinfo->>'negations')::integer, 0) THEN
        off := off || jsonb_build_array(jsonb_build_object('code', 'negation', 'text', 'a negation'));
    END IF;
    RETURN jsonb_build_object('offences', off, 'claims', assign);
END
$$;

-- How bad an offence is: fabricated (a number no call returned), unverified (a value bound wrongly: another
-- unit, order, modifier, polarity), unsupported (words no call supports).
CREATE FUNCTION footnote._offence_verdict(code text)
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN code IN ('unsupported_digits', 'number_words') THEN 'fabricated'
                WHEN code IN ('unsupported_words', 'other_entity', 'unsupported_statement') THEN 'unsupported'
                ELSE 'unverified' END
$$;

-- One line for a person about an offence.
CREATE FUNCTION footnote._offence_message(o jsonb)
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE o->>'code'
        WHEN 'crosses_units' THEN format('%s belongs to another statement of the answer', o->>'text')
        WHEN 'negated_figure' THEN format('%s is negated', o->>'text')
        WHEN 'figure_modifier' THEN format('“%s” next to %s changes what it says', o->>'modifier', o->>'text')
        WHEN 'order' THEN format('the %s figures %s are in another order than their statement', o->>'kind', o->>'text')
        WHEN 'rebound' THEN format('%s is stated next to the words of another figure', o->>'text')
        WHEN 'contradicts' THEN format('“%s” is not what the call supports here', replace(o->>'text', '!', 'not '))
        WHEN 'unsupported_words' THEN format('“%s” is not supported by the calls', replace(o->>'text', '!', 'not '))
        WHEN 'unsupported_digits' THEN format('the number %s was not returned by any call', o->>'text')
        WHEN 'number_words' THEN format('“%s” states a number no call returned', o->>'text')
        WHEN 'unit_words' THEN format('“%s” is not part of this statement', o->>'text')
        WHEN 'negation' THEN 'a negation the calls do not support'
        WHEN 'other_entity' THEN format('it names %s, which this statement is not about', o->>'text')
        WHEN 'ambiguous_name' THEN format('“%s” could mean %s', o->>'text', o->>'names')
        WHEN 'unsupported_statement' THEN 'it states something without any figure the calls returned'
        ELSE o->>'code' END
$$;

-- Whether a figure written as text p is the period or as-of date of the statement of template claim t, stated
-- with it though the template states it once for all of them ("Nieminen Tekniikka Oy: 177.101,04 € overdue as
-- of 14.08.2026" under "Customers by overdue amount as of 14.08.2026"): a date or period figure of the same call.
CREATE FUNCTION footnote._shared_period(p text, t jsonb, tc jsonb)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT t->'statement'->>'period' = p
           AND EXISTS (SELECT FROM jsonb_array_elements(tc) AS d
                       WHERE d->>'text' = p AND d->>'kind' IN ('date', 'period') AND d->>'call_id' = t->>'call_id')
$$;

-- The units of the template that hold every figure of figs listed in fids (only those written with a digit or
-- a capital letter, when there are any), as {unit: subject}.
CREATE FUNCTION footnote._holding(fids integer[], figs jsonb, tc jsonb)
RETURNS jsonb
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH f AS (SELECT figs->i AS g FROM unnest(fids) AS i),
         h AS (SELECT g FROM f WHERE g->>'text' ~ '[0-9A-Z\u00C0-\u00DE]'),
         w AS (SELECT g FROM h UNION ALL SELECT g FROM f WHERE NOT EXISTS (SELECT FROM h))
    SELECT coalesce(jsonb_object_agg(units.u, units.subject), '{}')
    FROM (SELECT t->>'unit' AS u, min(t->'statement'->>'subject') AS subject,
                 bool_or(t->>'text' ~ '[A-Z\u00C0-\u00DE]') AS named
          FROM jsonb_array_elements(tc) AS t GROUP BY t->>'unit') AS units
    WHERE NOT EXISTS (SELECT FROM w WHERE NOT EXISTS (
              SELECT FROM jsonb_array_elements(tc) AS t
              WHERE t->>'unit' = units.u AND (w.g->>'call_id' IS NULL OR t->>'call_id' = w.g->>'call_id')
                AND (t->>'text' = w.g->>'text' OR footnote._shared_period(w.g->>'text', t, tc))))
$$;

-- Whether one unit of the template holds every figure of figs listed in fids: a sentence read as one statement.
CREATE FUNCTION footnote._fits(fids integer[], figs jsonb, tc jsonb)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._holding(fids, figs, tc) <> '{}'
$$;

-- A text's sentences (footnote._read) with every sentence that merges statements ("X owes A, while Y owes B";
-- "1 supplier matches: Hansa Stahlhandel GmbH") read again clause by clause: cut at commas, semicolons,
-- colons, dashes, parentheses, "and / while / whereas / but / vs" (German "und / sowie / während / aber") and before
-- "as of", then joined again from the left as long as
-- one unit holds the figures of the joined clauses. A clause that fits no unit stays what it is (and blocks).
CREATE FUNCTION footnote._clauses(t text, figs jsonb, nread jsonb, tc jsonb)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ns     jsonb;
    out    jsonb := '[]';
    txt    text;
    s0     integer;
    p      integer;
    cuts   integer[];
    spans  jsonb;
    gs     integer;
    ge     integer;
    gfig   integer[];
    pfig   integer[];
    i      integer;
    pe     integer;
    part   jsonb;
    ok     boolean;
    hold   jsonb;
    prev   jsonb;
    seen   jsonb;
BEGIN
    FOR ns IN SELECT x FROM jsonb_array_elements(nread) AS x ORDER BY (x->>'sentence')::integer LOOP
        IF jsonb_array_length(ns->'figures') < 2 OR footnote._fits(
               ARRAY(SELECT (f->>'figure')::integer FROM jsonb_array_elements(ns->'figures') AS f), figs, tc) THEN
            out := out || jsonb_build_array(ns);
            CONTINUE;
        END IF;
        txt := ns->>'text';
        s0 := (ns->>'start')::integer;
        cuts := '{}';
        p := 1;
        LOOP
            p := regexp_instr(txt, '(, |; |: | [-—–] |\(| and | while | whereas | but | as of | vs\.? | versus | und | sowie | während | aber )', p);
            EXIT WHEN p = 0;
            cuts := cuts || (s0 + p - 1);
            p := p + 1;
        END LOOP;
        cuts := cuts || (s0 + length(txt));
        spans := '[]';
        gs := s0;
        gfig := '{}';
        ge := s0;
        FOR i IN 1..cardinality(cuts) LOOP
            pe := cuts[i];
            SELECT coalesce(array_agg((f->>'figure')::integer), '{}') INTO pfig FROM jsonb_array_elements(ns->'figures') AS f
            WHERE (figs->((f->>'figure')::integer)->>'start')::integer >= ge
              AND (figs->((f->>'figure')::integer)->>'start')::integer < pe;
            IF cardinality(gfig) > 0 AND cardinality(pfig) > 0 AND NOT footnote._fits(gfig || pfig, figs, tc) THEN
                spans := spans || jsonb_build_array(jsonb_build_object('start', gs, 'end', ge));
                gs := ge;
                gfig := pfig;
            ELSE
                gfig := gfig || pfig;
            END IF;
            ge := pe;
        END LOOP;
        spans := spans || jsonb_build_array(jsonb_build_object('start', gs, 'end', ge));
        -- each clause names what it is about (a name, a number such as INV-2026-8812, a period such as Q2 2026),
        -- or is a statement that names none (a heading such as "4 customers match", a fact going on about the
        -- subject of the clause before it: "X is at high risk: 43.805,00 € is overdue"): a figure cut off from
        -- its subject could be read as any statement's
        ok := jsonb_array_length(spans) > 1;
        prev := NULL;
        seen := '{}';
        FOR part IN SELECT x FROM jsonb_array_elements(spans) AS x LOOP
            pfig := ARRAY(SELECT (f->>'figure')::integer FROM jsonb_array_elements(ns->'figures') AS f
                          WHERE (figs->((f->>'figure')::integer)->>'start')::integer >= (part->>'start')::integer
                            AND (figs->((f->>'figure')::integer)->>'start')::integer < (part->>'end')::integer);
            hold := footnote._holding(pfig, figs, tc);
            IF NOT EXISTS (SELECT FROM unnest(pfig) AS q(fi) WHERE figs->q.fi->>'text' ~ '[A-Z\u00C0-\u00DE]')
               AND NOT EXISTS (SELECT FROM jsonb_each_text(hold) AS h
                               WHERE (prev IS NULL OR h.value IN (SELECT value FROM jsonb_each_text(prev)))
                                 AND NOT EXISTS (SELECT FROM jsonb_array_elements(tc) AS tq
                                                 WHERE tq->>'unit' = h.key AND tq->>'text' ~ '[A-Z\u00C0-\u00DE]'))
               -- an as-of date alone goes back to a statement a clause before it made ("…, none of it overdue as
               -- of 14.08.2026")
               AND NOT (cardinality(pfig) > 0
                        AND NOT EXISTS (SELECT FROM unnest(pfig) AS q(fi) WHERE figs->q.fi->>'text' !~ '^[0-9]{2}\.[0-9]{2}\.[0-9]{4}$')
                        AND EXISTS (SELECT FROM jsonb_each_text(hold) AS h WHERE seen ? h.key)) THEN
                ok := false;
            END IF;
            -- and each clause states its statement whole (an as-of date, period or party may be shared, a rank
            -- left out): a part of one statement next to a part of another is a swap, not a merge
            IF NOT EXISTS (SELECT FROM jsonb_each_text(hold) AS h
                           WHERE NOT EXISTS (SELECT FROM jsonb_array_elements(tc) AS tq
                                             WHERE tq->>'unit' = h.key AND tq->>'kind' NOT IN ('date', 'period')
                                               AND tq->>'value' !~ '\.(customer|supplier|rank)$'
                                               AND NOT EXISTS (SELECT FROM unnest(pfig) AS q(fi)
                                                               WHERE figs->q.fi->>'text' = tq->>'text'))) THEN
                ok := false;
            END IF;
            prev := hold;
            seen := seen || hold;
        END LOOP;
        IF NOT ok THEN
            out := out || jsonb_build_array(ns);
            CONTINUE;
        END IF;
        FOR part IN SELECT x FROM jsonb_array_elements(footnote._read(t, figs, spans)) AS x ORDER BY (x->>'sentence')::integer LOOP
            out := out || jsonb_build_array(part);
        END LOOP;
    END LOOP;
    RETURN (SELECT coalesce(jsonb_agg(x || jsonb_build_object('sentence', n - 1) ORDER BY n), '[]')
            FROM jsonb_array_elements(out) WITH ORDINALITY AS y(x, n));
END
$$;

-- Whether template claim t is the as-of date or period of its unit alone (no other unit has it): it names the
-- statement as a name would ("66,8 Tage am 31.12.2025, jetzt 70,3 Tage (14.08.2026)": a DSO on each of two dates).
CREATE FUNCTION footnote._own_date(t jsonb, tc jsonb)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(t->>'value', '') ~ '\.(as_of|period)$'
           AND NOT EXISTS (SELECT FROM jsonb_array_elements(tc) AS o
                           WHERE o->>'unit' <> t->>'unit' AND o->>'text' = t->>'text'
                             AND coalesce(o->>'value', '') ~ '\.(as_of|period|period_from|period_to)$')
$$;

-- A text's sentences (footnote._clauses) with every sentence that still merges statements read again by binding:
-- each figure written with a digit or a capital letter belongs to the one unit of the template that holds its
-- value ("Bergmann Logistik GmbH owes 43.805,00 € overdue across 4 invoices, and the largest, INV-2026-8812, has
-- 18.450,00 € outstanding": the headline's figures, then the row's); a value two units hold goes with the figures
-- next to it (the run before it, else the one after) when their unit holds it. The sentence is cut between two
-- figures of different units at the first clause boundary (as footnote._clauses cuts) after the earlier one; each
-- clause then is read as a sentence of its own. It is read so only when every clause
--   - holds a value of its unit, a figure other than a name, label, as-of date or period (a date or a name
--     alone is no clause: it would move a date or a name to another statement, "- Bergmann Bau AG (Sjöberg
--     Bygg AB)"),
--   - names its subject with a name or label of its own unit (a customer, an invoice number, a bucket such as
--     "over 90 days"), when that unit has one (a figure cut off from its name could be anyone's: "INV-2026-8812,
--     11.200,00 €" or "Over 90 days: 96.743,72 €" is a swap, not a merge),
--   - states its unit whole (an as-of date, period or party aside) unless the unit is a detail (a row, a fact
--     under an interpretation) a summary may state in part, or has a name or label the clause states,
-- and the figures of one kind of units without a name or label (a DSO as of two dates, revenue of two quarters)
-- come in the template's order across the clauses (named rows may come in any order: each names its own).
-- Otherwise the sentence is left as it was (its figures cross statements).
CREATE FUNCTION footnote._bound_clauses(t text, figs jsonb, nread jsonb, tc jsonb, tus jsonb)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ns     jsonb;
    out    jsonb := '[]';
    txt    text;
    s0     integer;
    fl     integer[];        -- the sentence's hard figures, in text order
    fu     integer[];        -- the unit each is bound to
    hold   jsonb;
    i      integer;
    n      integer;
    p      integer;
    q      integer;
    cut    integer;
    spans  jsonb;
    gs     integer;
    ok     boolean;
    part   jsonb;
    pu     integer;
    pfig   integer[];
    kinds  jsonb;
    named  jsonb;
    prevfig integer[];
    lastgs integer;
BEGIN
    FOR ns IN SELECT x FROM jsonb_array_elements(nread) AS x ORDER BY (x->>'sentence')::integer LOOP
        ok := jsonb_array_length(ns->'figures') >= 2 AND NOT footnote._fits(
                  ARRAY(SELECT (f->>'figure')::integer FROM jsonb_array_elements(ns->'figures') AS f), figs, tc);
        IF ok THEN
            fl := ARRAY(SELECT (f->>'figure')::integer FROM jsonb_array_elements(ns->'figures') AS f
                        WHERE figs->((f->>'figure')::integer)->>'text' ~ '[0-9A-Z\u00C0-\u00DE]'
                        ORDER BY (figs->((f->>'figure')::integer)->>'start')::integer);
            n := cardinality(fl);
            fu := array_fill(NULL::integer, ARRAY[greatest(n, 1)]);
            -- the figures one unit holds
            FOR i IN 1..n LOOP
                hold := footnote._holding(ARRAY[fl[i]], figs, tc);
                IF (SELECT count(*) FROM jsonb_object_keys(hold)) = 1 THEN
                    fu[i] := (SELECT k::integer FROM jsonb_object_keys(hold) AS k);
                ELSIF hold = '{}' THEN
                    ok := false;
                END IF;
            END LOOP;
            -- a value several units hold: the unit of the figure before it, else after it, when that holds it
            FOR i IN 1..n LOOP
                EXIT WHEN NOT ok;
                CONTINUE WHEN fu[i] IS NOT NULL;
                hold := footnote._holding(ARRAY[fl[i]], figs, tc);
                pu := (SELECT fu[j] FROM generate_series(i - 1, 1, -1) AS j WHERE fu[j] IS NOT NULL LIMIT 1);
                IF pu IS NULL OR NOT hold ? pu::text THEN
                    pu := (SELECT fu[j] FROM generate_series(i + 1, n) AS j WHERE fu[j] IS NOT NULL LIMIT 1);
                END IF;
                IF pu IS NULL OR NOT hold ? pu::text THEN
                    ok := false;
                ELSE
                    fu[i] := pu;
                END IF;
            END LOOP;
            ok := ok AND n >= 2 AND EXISTS (SELECT FROM generate_series(2, n) AS j WHERE fu[j] <> fu[j - 1]);
        END IF;
        IF NOT ok THEN
            out := out || jsonb_build_array(ns);
            CONTINUE;
        END IF;
        -- cut between figures of different units, at the first clause boundary after the earlier one
        txt := ns->>'text';
        s0 := (ns->>'start')::integer;
        spans := '[]';
        gs := s0;
        FOR i IN 2..n LOOP
            CONTINUE WHEN fu[i] = fu[i - 1];
            p := (figs->fl[i - 1]->>'end')::integer - s0;
            q := (figs->fl[i]->>'start')::integer - s0;
            cut := regexp_instr(substr(txt, p + 1, q - p),
                                '(, |; |: | [-—–] |\(| / | and | while | whereas | but | as of | vs\.? | versus | und | sowie | während | aber )');
            IF cut = 0 THEN
                ok := false;
                EXIT;
            END IF;
            spans := spans || jsonb_build_array(jsonb_build_object('start', gs, 'end', s0 + p + cut - 1, 'unit', fu[i - 1]));
            gs := s0 + p + cut - 1;
        END LOOP;
        spans := spans || jsonb_build_array(jsonb_build_object('start', gs, 'end', s0 + length(txt), 'unit', fu[n]));
        IF ok THEN
            -- the units that have a name or label of their own
            SELECT coalesce(jsonb_object_agg(tq->>'unit', true), '{}') INTO named
            FROM jsonb_array_elements(tc) AS tq
            WHERE tq->>'kind' = 'text' OR (tq->>'text' ~ '[A-Z\u00C0-\u00DE]' AND tq->>'kind' NOT IN ('date', 'period'))
               OR footnote._own_date(tq, tc);
            prevfig := '{}';
            FOR part IN SELECT x FROM jsonb_array_elements(spans) AS x LOOP
                pu := (part->>'unit')::integer;
                pfig := ARRAY(SELECT fl[j] FROM generate_series(1, n) AS j
                              WHERE (figs->fl[j]->>'start')::integer >= (part->>'start')::integer
                                AND (figs->fl[j]->>'start')::integer < (part->>'end')::integer);
                -- a clause that goes on about the row whose value the clause before it said (a list of one:
                -- "25.480,00 € on 1 supplier invoice, due 30.08.2026"; "oldest 266 days (INV-2025-8206)") is read
                -- with that clause's figures
                IF EXISTS (SELECT FROM unnest(prevfig) AS q2(fi), jsonb_array_elements(tc) AS tq
                           WHERE tq->>'unit' = pu::text AND tq->>'text' = figs->q2.fi->>'text'
                             AND tq->>'kind' NOT IN ('text', 'date', 'period')) THEN
                    prevfig := pfig;
                    pfig := pfig || ARRAY(SELECT fl[j] FROM generate_series(1, n) AS j
                                          WHERE fl[j] <> ALL (pfig) AND (figs->fl[j]->>'start')::integer < (part->>'start')::integer
                                            AND (figs->fl[j]->>'start')::integer >= coalesce(lastgs, 0));
                ELSE
                    prevfig := pfig;
                END IF;
                lastgs := (part->>'start')::integer;
                -- a value: a figure other than a name, label, as-of date or period
                IF NOT EXISTS (SELECT FROM unnest(pfig) AS q2(fi), jsonb_array_elements(tc) AS tq
                               WHERE tq->>'unit' = pu::text AND tq->>'text' = figs->q2.fi->>'text'
                                 AND tq->>'kind' NOT IN ('text', 'date', 'period')) THEN
                    ok := false;
                END IF;
                -- its subject named by a name or label of its own unit
                IF named ? pu::text
                   AND NOT EXISTS (SELECT FROM unnest(pfig) AS q2(fi), jsonb_array_elements(tc) AS tq
                                   WHERE tq->>'unit' = pu::text AND tq->>'text' = figs->q2.fi->>'text'
                                     AND (tq->>'kind' = 'text' OR (tq->>'text' ~ '[A-Z\u00C0-\u00DE]' AND tq->>'kind' NOT IN ('date', 'period'))
                                          OR footnote._own_date(tq, tc))) THEN
                    ok := false;
                END IF;
                -- stated whole, unless a detail or named (its other figures may stand in other sentences)
                IF (tus->pu->>'required')::boolean AND NOT (named ? pu::text) AND tus->pu->>'row' IS NULL AND tus->pu->>'role' <> 'fact'
                   AND EXISTS (SELECT FROM jsonb_array_elements(tc) AS tq
                               WHERE tq->>'unit' = pu::text AND tq->>'kind' NOT IN ('date', 'period')
                                 AND tq->>'value' !~ '\.(customer|supplier|rank)$'
                                 AND NOT EXISTS (SELECT FROM unnest(pfig) AS q2(fi) WHERE figs->q2.fi->>'text' = tq->>'text')) THEN
                    ok := false;
                END IF;
            END LOOP;
            -- figures of one kind in the template's order across the clauses
            SELECT jsonb_agg(c ORDER BY j) INTO kinds
            FROM (SELECT j, (SELECT min(d.n) FROM jsonb_array_elements(tc) WITH ORDINALITY AS d(tq, n)
                             WHERE d.tq->>'unit' = fu[j]::text AND d.tq->>'text' = figs->fl[j]->>'text') AS c
                  FROM generate_series(1, n) AS j) AS x;
            IF EXISTS (SELECT FROM generate_series(1, n) AS a, generate_series(1, n) AS b
                       WHERE a < b AND fu[a] <> fu[b] AND NOT (named ? fu[a]::text AND named ? fu[b]::text)
                         AND tc->((kinds->>(a - 1))::integer - 1)->>'kind' = tc->((kinds->>(b - 1))::integer - 1)->>'kind'
                         AND (kinds->>(a - 1))::integer > (kinds->>(b - 1))::integer) THEN
                ok := false;
            END IF;
        END IF;
        IF NOT ok THEN
            out := out || jsonb_build_array(ns);
            CONTINUE;
        END IF;
        FOR part IN SELECT x FROM jsonb_array_elements(footnote._read(t, figs,
                        (SELECT jsonb_agg(s - 'unit') FROM jsonb_array_elements(spans) AS s))) AS x
                    ORDER BY (x->>'sentence')::integer LOOP
            out := out || jsonb_build_array(part);
        END LOOP;
    END LOOP;
    RETURN (SELECT coalesce(jsonb_agg(x || jsonb_build_object('sentence', n2 - 1) ORDER BY n2), '[]')
            FROM jsonb_array_elements(out) WITH ORDINALITY AS y(x, n2));
END
$$;

-- Whether a superlative or an ordering that a sentence read as row unit u says holds among all the rows its
-- call returned (not only those the answer shows): "the largest is INV-2026-8812", "the oldest", "the
-- strongest month", "X, just ahead of Y" (prev: the unit the clause before was read as). The column compared
-- is the one of the sentence's figures (assign: the claim of each), else the row's amount or age. NULL when
-- it cannot be told: the word then stays unsupported.
CREATE FUNCTION footnote._ordering_holds(word text, u jsonb, prev jsonb, assign jsonb, tc jsonb, idx jsonb)
RETURNS boolean
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r      integer := (u->>'row')::integer;
    rows   jsonb := idx->'calls'->(u->>'call_id')->'rows';
    cols   text[];
    col    text;
    dated  boolean;
    mine   text;
    other  text;
    best   text;
    worst  text;
    holds  boolean;
BEGIN
    IF r IS NULL OR rows IS NULL OR jsonb_array_length(rows) < 2 THEN
        RETURN NULL;
    END IF;
    -- the columns: the figures of the sentence in this row (ages or dates for oldest and newest, amounts and counts
    -- for the others); the superlative must hold for each of them ("June had the most invoices (130)" is about the
    -- count, "the strongest month, 1.069.726,00 € (130 invoices)" about both)
    cols := ARRAY(
        SELECT DISTINCT x.name
        FROM (SELECT substring(tc->(a.c::integer)->>'value' FROM '\]\.(.*)$') AS name
              FROM jsonb_array_elements_text(assign) AS a(c)
              WHERE a.c IS NOT NULL AND tc->(a.c::integer)->>'value' LIKE format('rows[%s].%%', r)) AS x
        WHERE rows->(r - 1)->>x.name ~ '^-?[0-9]+(\.[0-9]+)?$|^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
          AND CASE WHEN word IN ('oldest', 'newest') THEN x.name ~ 'days|age|date' ELSE x.name !~ 'days|age|date|rank' END);
    IF cardinality(cols) = 0 THEN
        SELECT c2 INTO col FROM unnest(CASE WHEN word IN ('oldest', 'newest')
                                            THEN ARRAY['days_past_due', 'age', 'due_date', 'issue_date', 'date']
                                            ELSE ARRAY['outstanding', 'revenue', 'amount', 'net', 'gross', 'overdue',
                                                       'quantity', 'on_hand', 'change'] END) WITH ORDINALITY AS y(c2, o)
        WHERE rows->(r - 1) ? c2 ORDER BY o LIMIT 1;
        cols := CASE WHEN col IS NULL THEN '{}' ELSE ARRAY[col] END;
    END IF;
    FOREACH col IN ARRAY cols LOOP
        mine := rows->(r - 1)->>col;
        CONTINUE WHEN mine IS NULL;
        dated := mine ~ '^[0-9]{4}-';
        IF word IN ('ahead of', 'behind') THEN
            IF prev IS NULL OR prev->>'call_id' IS DISTINCT FROM u->>'call_id' OR prev->>'row' IS NULL THEN
                RETURN NULL;
            END IF;
            other := rows->((prev->>'row')::integer - 1)->>col;
            IF other IS NULL OR dated THEN
                RETURN NULL;
            END IF;
            holds := CASE word WHEN 'ahead of' THEN other::numeric > mine::numeric ELSE other::numeric < mine::numeric END;
        ELSIF dated THEN
            SELECT max(x->>col), min(x->>col) INTO best, worst FROM jsonb_array_elements(rows) AS x WHERE x->>col ~ '^[0-9]{4}-';
            holds := CASE word WHEN 'oldest' THEN mine = worst WHEN 'newest' THEN mine = best
                               WHEN 'largest' THEN mine = best ELSE mine = worst END;
        ELSE
            SELECT max((x->>col)::numeric)::text, min((x->>col)::numeric)::text INTO best, worst
            FROM jsonb_array_elements(rows) AS x WHERE x->>col ~ '^-?[0-9]+(\.[0-9]+)?$';
            holds := CASE WHEN word IN ('largest', 'oldest') THEN mine::numeric = best::numeric
                          ELSE mine::numeric = worst::numeric END;
        END IF;
        IF NOT holds THEN
            RETURN false;
        END IF;
    END LOOP;
    RETURN CASE WHEN holds THEN true END;
END
$$;

-- The opening of a salutation line ("Hi Anna,", "Dear Mr Weber,", "Sehr geehrte Damen und Herren,").
CREATE FUNCTION footnote._salutation_re()
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT '^\W*(hi|hello|hey|dear|good (morning|afternoon|evening)|guten (tag|morgen|abend)|hola|hallo|liebe[rs]?|sehr geehrte[rs]?|'
           || 'estimad[oa]s?|gentile|ciao|moin|servus|grüezi|grüß gott|hei|hej|moi|hallå|god morgen|goddag|'
           || 'dag|beste|goedemorgen|goedemiddag|bonjour|salut|chère?|cher|buongiorno|buonasera|caro|cara|'
           || 'buenos días|buenas|olá|bom dia|ahoj|dobrý den|dzień dobry|cześć|szanown[ay]|tere|sveiki|labas)\M[^\n]{0,60}[,:!]?\s*$'
$$;

-- A sign-off line ("Best regards,", "Thanks,", "Viele Grüße"): the lines under it are a signature.
CREATE FUNCTION footnote._signoff_re()
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT '^\W*(best|best regards|kind regards|warm regards|regards|thanks|thank you|many thanks|thanks and regards|'
           || 'thanks and best|thanks again|best wishes|all the best|br|brgds|rgds|thx|ciao|lg|vg|mfg|gruß|grüße|viele grüsse|'
           || 'cheers|yours faithfully|yours sincerely|sincerely|have a (good|nice|great) day|talk soon|'
           || 'viele grüße|beste grüße|liebe grüße|mit freundlichen grüßen|freundliche grüße|un saludo|saludos|'
           || 'cordiali saluti|distinti saluti|un caro saluto|med vennlig hilsen|med venlig hilsen|vennlig hilsen|'
           || 'venlig hilsen|mvh|hilsen|med vänliga hälsningar|vänliga hälsningar|hälsningar|mvh|ystävällisin terveisin|'
           || 'terveisin|met vriendelijke groet|met vriendelijke groeten|vriendelijke groet|groeten|groetjes|'
           || 'cordialement|bien cordialement|bien à vous|salutations|saludos cordiales|atentamente|un abrazo|'
           || 'cumprimentos|atenciosamente|pozdrawiam|z poważaniem|s pozdravem|s pozdravom|lp|bg|gruss|grüsse|'
           || 'liebe grüsse|mit besten grüßen|beste grüsse|herzliche grüße|mit freundlichem gruß|freundliche grüsse|'
           || 'best wishes|with best regards|regards from|speak soon|thanks a lot|thanks so much|ta|dzięki|dziękuję|'
           || 'tack|tusen takk|takk|tak|kiitos|danke|danke schön|vielen dank|merci|merci beaucoup|grazie|grazie mille|'
           || 'gracias|muchas gracias|obrigado|obrigada|dank je|dank u|bedankt|díky|děkuji|köszönöm)\W*$'
$$;

-- Whether a line is a sign-off with the name of who signs ("Gruß Julia", "Thanks, M.", "Best, Eva Lind"): the name
-- written with capitals ("Thanks for asking." is no sign-off).
CREATE FUNCTION footnote._signoff_named(t text)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT t ~* (left(footnote._signoff_re(), -4) || '[\s,]+\S+( \S+)?\W*$')
       AND t ~ '[\s,][[:upper:]][[:alpha:].-]*( [[:upper:]][[:alpha:].-]*)?\W*$'
$$;

-- The line of text t that position pos (0-based) stands in.
CREATE FUNCTION footnote._line_at(t text, pos integer)
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT split_part(reverse(split_part(reverse(left(t, pos)), E'\n', 1)) || substr(t, pos + 1), E'\n', 1)
$$;

-- Whether a line of a signature says who wrote it and nothing else: once the words of a team, a role or a region
-- are taken out ("Accounts Receivable", "Credit Controller, Nordics", "AP team"), no word the vocabulary knows is
-- left ("Disputed" under a sign-off is a claim, not a name).
CREATE FUNCTION footnote._names_only(line text)
RETURNS boolean
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT NOT EXISTS (
        SELECT FROM jsonb_array_elements(footnote._read(regexp_replace(line,
            '\m(accounts?|receivables?|payables?|credit|control|controller|controlling|collections?|finance|financial|'
            || 'treasury|team|ap|ar|sales|purchasing|procurement|billing|accounting|bookkeeping|buchhaltung|debitoren|'
            || 'kreditoren|debitorenbuchhaltung|kreditorenbuchhaltung|management|manager|operations|customer|service|'
            || 'services|support|kundenservice|einkauf|vertrieb|finanzen|rechnungswesen|fp&a|cfo|office|head|of|senior|'
            || 'junior|lead|analyst|specialist|clerk|assistant|department|dept|abteilung|group|region|nordics|dach|'
            || 'benelux|emea|europe|planning|warehouse|logistics|lager|and|und|&)\M', ' ', 'gi'), '[]', NULL)) AS r,
             jsonb_array_elements_text(r->'words') AS w
        WHERE NOT r->'unknown' ? w)
$$;

-- Whether a line is a name alone: one to four words, each capitalised (particles such as van, de, von aside).
CREATE FUNCTION footnote._name_line(t text)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT t ~ '^\s*[[:upper:]][[:alpha:].''’-]*(\s+((van|von|de|der|den|la|le|da|di|del|af|zu)\s+)?[[:upper:]][[:alpha:].''’-]*){0,3}\s*$'
$$;

-- Whether a line that holds no figure is a mail header or a signature's contact line, which states nothing: a
-- header line (From/Sent/To/Cc/Date, Von/Gesendet/An/Datum: names, addresses, the mail's own date and time) or,
-- under a sign-off (signature), a line of names with a phone, fax or extension number, a postal code, a street
-- number, an e-mail or web address. Read by shape and position: what is left once those are taken out must be
-- capitalised words and separators only, no digit; an amount, a count, a percentage or a number of days is
-- none of these shapes and stays a number no call returned. A Subject/Betreff line is read as any other.
CREATE FUNCTION footnote._contact_line(t text, signature boolean)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce((SELECT rest !~ '[0-9]' AND rest !~ '[€$£%]'
       AND rest ~ '^[[:alpha:]&.,;:|/·•–—()<>''’ -]*$'
       AND NOT EXISTS (SELECT FROM regexp_split_to_table(rest, '[^[:alpha:]]+') AS w
                       WHERE w <> '' AND w !~ '^[[:upper:]]'
                         AND lower(w) NOT IN ('on', 'behalf', 'of', 'via', 'and', 'und', 'im', 'auftrag', 'i', 'a', 'v',
                                              'de', 'van', 'von', 'der', 'den', 'la', 'le', 'y', 'e', 'mail'))
    FROM (SELECT CASE
        WHEN head IS NOT NULL THEN regexp_replace(regexp_replace(regexp_replace(regexp_replace(body,
                 -- e-mail addresses, times, dates with a month or a weekday, numeric dates
                 '<?[[:alnum:]._%+-]+@[[:alnum:].-]+>?', ' ', 'g'),
                 '\m[0-9]{1,2}:[0-9]{2}(:[0-9]{2})?(\s*[AaPp]\.?[Mm]\.?)?(\s*(Uhr|h|CET|CEST|UTC|GMT([+-][0-9]{1,2})?))?', ' ', 'g'),
                 '\m[0-9]{1,2}\.?\s+(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|Januar|Februar|März|Mai|Juni|Juli|Okt|Dez)[[:alpha:]]*\.?,?\s+[0-9]{4}'
                 || '|(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|Januar|Februar|März|Mai|Juni|Juli|Okt|Dez)[[:alpha:]]*\.?\s+[0-9]{1,2},?\s+[0-9]{4}', ' ', 'gi'),
                 '\m([0-9]{1,2}[./][0-9]{1,2}[./][0-9]{2,4}|[0-9]{4}-[0-9]{2}-[0-9]{2})\M', ' ', 'g')
        WHEN signature THEN regexp_replace(regexp_replace(regexp_replace(regexp_replace(regexp_replace(t,
                 -- e-mail and web addresses
                 '<?[[:alnum:]._%+-]+@[[:alnum:].-]+>?|\m(https?://|www\.)[^\s|]+', ' ', 'g'),
                 -- a phone, fax or extension number after its label, or an international number
                 '\m(tel|tel\.|phone|fon|telefon|mobile|mobil|mob|cell|handy|fax|direct|dw|durchwahl|ext|extension|t|m|f|p)\.?:?\s*'
                 || '[+(]?[0-9][0-9 ()/.-]{2,}[0-9]', ' ', 'gi'),
                 '(^|[\s|,(])\+[0-9]{1,3}[ ()0-9/.-]{6,}[0-9]', ' ', 'g'),
                 -- a street and its number, a postal code and its town
                 '\m[[:upper:]][[:alpha:]ß.-]*(straße|strasse|str\.|weg|platz|allee|gasse|ring|damm|street|st\.|road|rd\.|avenue|ave\.|lane)\s+[0-9]{1,4}[a-z]?\M'
                 || '|\m[0-9]{1,4}[a-z]?\s+[[:upper:]][[:alpha:]]*\s+(Street|St\.?|Road|Rd\.?|Avenue|Ave\.?|Lane)', ' ', 'g'),
                 '\m([A-Z]{1,2}-)?[0-9]{4,5}\s+[[:upper:]][[:alpha:]-]+', ' ', 'g')
        END AS rest
        FROM (SELECT substring(lower(t) FROM '^\W*(from|sent|to|cc|bcc|date|von|gesendet|an|datum|reply-to)\s*:') AS head,
                     regexp_replace(t, '^\W*[[:alpha:]-]+\s*:\s*', '') AS body) AS h) AS x), false)
$$;

-- The first sentence of a read text (footnote._read) that signs it off: a sign-off line ("Best regards,"), one
-- that signs with a name ("Gruß Julia", "Thanks, M.") or the "--" that opens a signature. The lines after it are
-- its signature. NULL when nothing signs the text off.
CREATE FUNCTION footnote._signed_at(nread jsonb, answer text)
RETURNS integer
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT min(x.n2)::integer FROM jsonb_array_elements(nread) WITH ORDINALITY AS x(s2, n2)
    WHERE jsonb_array_length(s2->'figures') = 0 AND jsonb_array_length(s2->'marks') = 0
      AND (s2->>'text' ~* footnote._signoff_re()
           OR (NOT EXISTS (SELECT FROM jsonb_array_elements_text(s2->'words') AS w WHERE NOT s2->'unknown' ? w)
               AND footnote._signoff_named(s2->>'text'))
           OR footnote._line_at(answer, (s2->>'start')::integer) ~ '^\s*--\s*$'
           -- a name on a line of its own after what the text states, and below it only names and contact lines
           -- (a signature without a sign-off: "Stefan Maurer", "Karol Mazur / Warehouse Planning · +48 71 330 2214")
           OR (x.n2 > 1 AND footnote._name_line(footnote._line_at(answer, (s2->>'start')::integer))
               AND NOT EXISTS (SELECT FROM jsonb_array_elements_text(s2->'words') AS w WHERE NOT s2->'unknown' ? w)
               AND EXISTS (SELECT FROM jsonb_array_elements(nread) WITH ORDINALITY AS y(s3, n3)
                           WHERE y.n3 < x.n2 AND jsonb_array_length(s3->'figures') > 0)
               AND NOT EXISTS (SELECT FROM jsonb_array_elements(nread) WITH ORDINALITY AS y(s3, n3)
                               WHERE y.n3 > x.n2
                                 AND NOT (footnote._name_line(footnote._line_at(answer, (s3->>'start')::integer))
                                          AND NOT EXISTS (SELECT FROM jsonb_array_elements_text(s3->'words') AS w3
                                                          WHERE NOT s3->'unknown' ? w3))
                                 AND NOT (footnote._contact_line(footnote._line_at(answer, (s3->>'start')::integer), true)
                                          AND (footnote._line_at(answer, (s3->>'start')::integer) ~ '[0-9@]'
                                               OR footnote._names_only(footnote._line_at(answer, (s3->>'start')::integer)))))))
$$;

-- The gloss template claim c of unit u belongs to, as a key shared by the claims of the same gloss, or NULL: a
-- figure in parentheses inside the statement ("(376 invoices, 13 credit notes)", "(12,4 %)", "(C-4471, Bremen,
-- DE)") or after a colon that follows the statement's own measure ("70,3 days: receivables of ... against gross
-- sales of ..."). A summary may leave a gloss out, whole. The subject, the as-of date and the period are never
-- part of a gloss: a summary keeps them.
CREATE FUNCTION footnote._gloss(answer text, tc jsonb, u jsonb, c integer)
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE
        WHEN coalesce(tc->c->>'value', '') ~ '\.(as_of|period|period_from|period_to|customer|supplier|name|item|sku|rank)$'
             OR tc->c->>'kind' = 'period' THEN NULL
        WHEN (length(pre) - length(replace(pre, '(', ''))) > (length(pre) - length(replace(pre, ')', '')))
            THEN 'p' || (length(pre) - strpos(reverse(pre), '('))
        WHEN colon > 0 AND EXISTS (
                 SELECT FROM jsonb_array_elements_text(u->'claims') AS o(c2)
                 WHERE (tc->(o.c2::integer)->'span'->>'end')::integer < (u->>'start')::integer + colon
                   AND coalesce(tc->(o.c2::integer)->>'value', '')
                       !~ '\.(as_of|period|period_from|period_to|customer|supplier|name|item|sku|rank|number|city|country)$'
                   AND tc->(o.c2::integer)->>'kind' NOT IN ('date', 'period', 'text'))
            THEN 'c' || colon
        END
    FROM (SELECT substr(answer, (u->>'start')::integer + 1,
                        (tc->c->'span'->>'start')::integer - (u->>'start')::integer) AS pre) AS x,
         LATERAL (SELECT CASE WHEN strpos(x.pre, ': ') > 0 THEN length(x.pre) - strpos(reverse(x.pre), ' :') ELSE 0 END
                         AS colon) AS y
$$;

-- The words that state template claim c of unit u: those between the figure before it and the figure after it
-- (within the unit), lower case, function words aside.
CREATE FUNCTION footnote._figure_words(answer text, tc jsonb, u jsonb, c integer)
RETURNS text[]
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(array_agg(DISTINCT w), '{}')
    FROM (SELECT coalesce((SELECT max((tc->(o.c2::integer)->'span'->>'end')::integer)
                           FROM jsonb_array_elements_text(u->'claims') AS o(c2)
                           WHERE (tc->(o.c2::integer)->'span'->>'end')::integer <= (tc->c->'span'->>'start')::integer),
                          (u->>'start')::integer) AS a,
                 coalesce((SELECT min((tc->(o.c2::integer)->'span'->>'start')::integer)
                           FROM jsonb_array_elements_text(u->'claims') AS o(c2)
                           WHERE (tc->(o.c2::integer)->'span'->>'start')::integer >= (tc->c->'span'->>'end')::integer),
                          (u->>'end')::integer) AS b) AS x,
         LATERAL regexp_split_to_table(lower(substr(answer, x.a + 1, x.b - x.a)), '[^[:alpha:]]+') AS w
    WHERE length(w) > 1 AND w NOT IN ('the', 'of', 'it', 'an', 'in', 'on', 'at', 'to', 'and', 'is', 'was', 'as', 'by',
                                      'for', 'from', 'with', 'its', 'this', 'that', 'are', 'were', 'has', 'have')
$$;

-- Whether text said cuts template claim c of unit u out of the words that state it ("owes overdue across 4
-- invoices", "rose from to 2.962.843,74 €", "the oldest past due") or puts another number in its place ("Top 1
-- customers" for "Top 3 customers"): the words on either side of it in the statement stand side by side in the
-- text, or around another number.
CREATE FUNCTION footnote._cut_out(answer text, said text, tc jsonb, u jsonb, c integer)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(said ~* (x.before || coalesce(x.r || '\M', '($|\n)'))
                    OR EXISTS (SELECT FROM regexp_matches(said, x.before || '([0-9][0-9.,]*)\W*' || coalesce(x.r || '\M', '($|\n)'), 'gi') AS m
                               WHERE m[1] IS DISTINCT FROM substring(tc->c->>'text' FROM '^[0-9][0-9.,]*')), false)
    FROM (SELECT CASE WHEN l IS NULL THEN '(^|\n|[.;:!?]\s)\W*' ELSE '\m' || l || '\W*' END AS before, r
          FROM (SELECT substring(substr(answer, (u->>'start')::integer + 1,
                                        (tc->c->'span'->>'start')::integer - (u->>'start')::integer)
                                 FROM '([[:alnum:]]+)[^[:alnum:]]*$') AS l,
                       substring(substr(answer, (tc->c->'span'->>'end')::integer + 1)
                                 FROM '^[^[:alnum:]\n]*([[:alnum:]]+)') AS r) AS y) AS x
$$;

-- Whether a summary (the text said) may leave out template claim c of unit u, a statement it states in part: a figure (an
-- amount, a count, a number of days, a percentage, a quantity) may be left out when what stays says nothing
-- false: another figure of the statement is stated (covered), so the statement is made, with its own subject,
-- period and measure; and no other figure of the same gloss is stated without it ("(376 invoices, credit
-- notes)"). Never the subject, a name, a level or state in words, an as-of date, a period or a rank: those
-- make the stated figures true. A caveat is a negation, checked apart (negation_dropped). Nor when the text says
-- a number in words (lexicon class numeral: "both of them high severity" for "1 of them"), speaks as a party
-- (we, us, our, wir, uns) or calls a figure the total (total, sum, insgesamt) where the answer does not: a word
-- that may stand for the left-out figure or turn the direction ("we're … overdue to Nieminen") is read against
-- the whole statement, not a part of it.
CREATE FUNCTION footnote._omissible(answer text, said text, tc jsonb, u jsonb, c integer, covered jsonb)
RETURNS boolean
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT tc->c->>'kind' IN ('amount', 'count', 'days', 'percent', 'quantity')
       AND NOT EXISTS (
           SELECT FROM regexp_split_to_table(lower(said), '[^[:alpha:]'']+') AS w
           WHERE w <> '' AND w <> ALL (regexp_split_to_array(lower(answer), '[^[:alpha:]'']+'))
             AND (w IN ('we', 'us', 'our', 'ours', 'we''re', 'we''ve', 'we''d', 'we''ll', 'wir', 'uns', 'unser',
                        'unsere', 'unseren', 'unserem', 'unserer',
                        -- a word that calls a figure the whole ("total 74.382,11 €" for the overdue part of a
                        -- total left out)
                        'total', 'totals', 'totalling', 'totaling', 'sum', 'altogether', 'combined', 'overall',
                        'insgesamt', 'gesamt', 'gesamtbetrag', 'summe', 'zusammen')
                  OR EXISTS (SELECT FROM footnote.lexicon AS l WHERE l.class = 'numeral' AND l.phrase = w)))
       AND coalesce(tc->c->>'value', '') !~ '\.(as_of|period|period_from|period_to|rank)$'
       AND EXISTS (SELECT FROM jsonb_array_elements_text(u->'claims') AS o(c2)
                   WHERE covered ? o.c2 AND tc->(o.c2::integer)->>'kind' IN ('amount', 'count', 'days', 'percent', 'quantity'))
       -- left out with the words that state it, not cut out of them
       AND NOT footnote._cut_out(answer, said, tc, u, c)
       -- and its words not kept for another figure: a word that stands only next to the figures the text leaves out
       -- ("128.028,90 € open ..., 43.805,00 € of it overdue" said as "128.028,90 € overdue") is not in the text
       AND NOT EXISTS (
           SELECT FROM unnest(footnote._figure_words(answer, tc, u, c)) AS w
           WHERE w = ANY (regexp_split_to_array(lower(said), '[^[:alpha:]]+'))
             AND NOT EXISTS (SELECT FROM jsonb_array_elements_text(u->'claims') AS o(c2)
                             WHERE covered ? o.c2 AND w = ANY (footnote._figure_words(answer, tc, u, o.c2::integer))))
       AND (footnote._gloss(answer, tc, u, c) IS NULL
            OR NOT EXISTS (SELECT FROM jsonb_array_elements_text(u->'claims') AS o(c2)
                           WHERE covered ? o.c2 AND o.c2::integer <> c
                             AND footnote._gloss(answer, tc, u, o.c2::integer) = footnote._gloss(answer, tc, u, c)))
       -- and not where a figure of its kind is stated with a figure of another kind between the two in the statement
       -- (outside a gloss): the one kept could be read as the one left out ("194.824,63 € open, 129.786,95 € of it
       -- overdue across 23 invoices": 23 is the open count, the overdue 17 is left out)
       AND NOT EXISTS (SELECT FROM jsonb_array_elements_text(u->'claims') AS o(c2)
                       WHERE covered ? o.c2 AND o.c2::integer <> c AND tc->(o.c2::integer)->>'kind' = tc->c->>'kind'
                         AND footnote._gloss(answer, tc, u, o.c2::integer) IS NULL
                         AND EXISTS (SELECT FROM jsonb_array_elements_text(u->'claims') AS b(c3)
                                     WHERE covered ? b.c3 AND tc->(b.c3::integer)->>'kind' <> tc->c->>'kind'
                                       AND tc->(b.c3::integer)->>'kind' IN ('amount', 'count', 'days', 'percent', 'quantity')
                                       AND (tc->(b.c3::integer)->'span'->>'start')::integer
                                           BETWEEN least((tc->(o.c2::integer)->'span'->>'start')::integer, (tc->c->'span'->>'start')::integer)
                                               AND greatest((tc->(o.c2::integer)->'span'->>'start')::integer, (tc->c->'span'->>'start')::integer)))
$$;

-- Whether template claim c, a count of the rows its call returned ("across 2 invoices"), is said by the list of
-- those rows in the text: the template lists as many rows of that call, of the kind the count counts (the word
-- after it: invoice, supplier invoice), and the text names every one of them (its number or name).
CREATE FUNCTION footnote._counted_by_rows(answer text, tc jsonb, tus jsonb, c integer, covered jsonb)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(tc->c->>'kind' = 'count' AND tc->c->>'text' ~ '^[1-9][0-9]{0,2}$'
                    AND count(*) = (tc->c->>'text')::integer
                    AND bool_and(EXISTS (SELECT FROM jsonb_array_elements_text(r.u->'claims') AS o(c2)
                                         WHERE covered ? o.c2 AND tc->(o.c2::integer)->>'kind' = 'text'
                                           AND tc->(o.c2::integer)->>'value' ~ '\.(number|name|customer|supplier|item|sku)$')),
                    false)
    FROM jsonb_array_elements(tus) AS r(u)
    WHERE r.u->>'call_id' = tc->c->>'call_id' AND r.u->>'row' IS NOT NULL
      AND substr(answer, (tc->c->'span'->>'end')::integer + 1, 40)
          ~* ('^\s*' || replace(split_part(r.u->>'subject', ':', 1), '_', ' ') || '(s|es)?\M')
$$;

-- Whether a sentence ends as a question does ("Which one?", "… owe?**", "»Zahlt er?«").
CREATE FUNCTION footnote._asks(sentence text)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT sentence ~ '\?[\s*_"“”»)]*$'
$$;

-- A sentence put as a question: it opens (after a "Q:" or a quote mark) with a question word or an auxiliary
-- ("Will Pichler pay next month?", "Q: Should we take Bergmann to court?", "Which one?"), not a statement with a
-- question tag ("Pichler will pay, won't it?").
CREATE FUNCTION footnote._asking_re()
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT '^[^[:alpha:]]*((q|frage|question|user|kunde|customer)[^[:alpha:]]*:[^[:alpha:]]*)?'
           || '(what|which|who|whom|whose|how|when|where|why|will|would|should|shall|can|could|may|might|must|is|are|'
           || 'was|were|do|does|did|has|have|had|any|wer|wen|wem|was|wie|wo|wann|warum|weshalb|welche[rsnm]?|wird|werden|'
           || 'soll|sollen|sollte|sollten|kann|können|könnte|ist|sind|war|hat|haben|gibt|meinst|meinen|möchten|willst|'
           || 'did you mean|do you mean)\M'
$$;

-- A clause in which who answers says what it will not do ("I won't advise on that", "the tool will not
-- forecast", "ich werde keine Prognose abgeben"), or that puts a prediction as the open question it declines
-- ("whether Bergmann will pay next month isn't something I can tell you"): its will, would or should predicts and
-- advises nothing.
CREATE FUNCTION footnote._declining_re()
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT '\m(i|we|it|the (tool|system|assistant|bot|catalog)|ich|wir|es|das system)\s*(will|won''t|won’t|''ll|’ll|would|'
           || 'wouldn''t|wouldn’t|shall|werde|werden|würde|kann|can''t|can’t|cannot)\s+(not\s+|nicht\s+|keine?n?\s+)?'
           || '(advise|forecast|predict|guess|speculate|recommend|tell|say|answer|give|provide|make|comment|'
           || 'beraten|empfehlen|vorhersagen|prognostizieren|sagen|raten|abgeben)'
           || '|\m(whether|if|ob)\M[^.;:!?—–]*\m(will|would|should|wird|werden|würde|sollte|sollten)\M'
$$;

-- Whether position pos (0-based) of text t stands in the header row of a markdown table (the line above its
-- |---| line).
CREATE FUNCTION footnote._header_row(t text, pos integer)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._line_at(t, pos) ~ '^\s*\|'
       AND split_part(substr(t, pos + 1), E'\n', 2) ~ '^\s*\|?\s*:?-{3,}:?\s*\|'
$$;

-- A text with the row numbers of its markdown tables blanked: a first cell that counts the rows of a table 1, 2, 3, ...
-- ("| 1 | INV-2026-8812 | 18.450,00 € |") numbers the rows, it states no figure (a ranking's rows stated in
-- their order say their ranks). Every other character keeps its place.
CREATE FUNCTION footnote._unnumbered(t text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    lines text[] := string_to_array(t, E'\n');
    m     text[];
    n     integer := 0;
    first integer := 0;
    i     integer;
    j     integer;
BEGIN
    FOR i IN 1..coalesce(array_length(lines, 1), 0) + 1 LOOP
        m := CASE WHEN i <= coalesce(array_length(lines, 1), 0)
                  THEN regexp_match(lines[i], '^(\s*\|\s*)([0-9]{1,3})([.)]?\s*\|)') END;
        IF m IS NOT NULL AND m[2]::integer = n + 1 THEN
            n := n + 1;
            IF n = 1 THEN
                first := i;
            END IF;
            CONTINUE;
        END IF;
        IF n >= 2 THEN
            FOR j IN first..first + n - 1 LOOP
                lines[j] := regexp_replace(lines[j], '^(\s*\|\s*)([0-9]{1,3})',
                                           '\1' || repeat(' ', length((regexp_match(lines[j], '^\s*\|\s*([0-9]{1,3})'))[1])));
            END LOOP;
        END IF;
        n := CASE WHEN m IS NOT NULL AND m[2] = '1' THEN 1 ELSE 0 END;
        first := i;
    END LOOP;
    RETURN array_to_string(lines, E'\n');
END
$$;

-- Grade a text against the template of its calls: the gate's reading of every sentence.
--   answer: the text; claims: the caller's claims, or NULL to let the gate find the figures itself;
--   idx: footnote._call_index of the calls; tpl: footnote._layout of their template; outcome: answer,
--   clarification or refusal.
-- Returns {status, claims, findings, sentences, evidence}.
CREATE FUNCTION footnote._grade(answer text, claims jsonb, idx jsonb, tpl jsonb, outcome text)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
SET jit = off  -- many small expressions: compiling them costs more than it saves (PostgreSQL 15's default is on)
AS $$
DECLARE
    calls    jsonb := idx->'calls';
    tc       jsonb := coalesce(tpl->'claims', '[]');
    tus      jsonb := coalesce(tpl->'units', '[]');
    findings jsonb := '[]';
    graded   jsonb := '[]';
    figs     jsonb := '[]';
    sents    jsonb := '[]';
    claim    jsonb;
    cid      text;
    ev_ids   text[];
    span_s   integer;
    span_e   integer;
    verdict  text;
    reason   text;
    i        integer := 0;
    last_end integer := -1;
    slots    jsonb;
    nread    jsonb;
    sread    jsonb;
    tread    jsonb;
    aread    jsonb;
    tinfo    jsonb := '{}';
    ns       jsonb;
    u        integer;
    cands    integer[];
    best     jsonb;
    bestu    integer;
    j        jsonb;
    f        jsonb;
    fig      jsonb;
    unit_of  integer[];      -- per sentence: the template unit it was read as
    judged   jsonb[];        -- per sentence: footnote._judge's result
    nsent    integer;
    k        integer;
    kt       integer;
    covered  jsonb := '{}';  -- template claim index -> true
    touched  jsonb := '{}';  -- template unit -> words the text says in it
    names    jsonb := '{}';
    o        jsonb;
    sv       text;
    evidence jsonb;
    cited    text[] := '{}';
    status   text;
    missing  text;
    fast     boolean;
    hard     boolean;
    detail   boolean;
    first    integer;
    signed   integer;
    said     text;
    sig      boolean;
    in_order boolean;
    said_q   text[];
    qread    jsonb;
    asks     boolean;
    declines boolean;
BEGIN
    outcome := footnote._choice_arg('outcome', outcome, ARRAY['answer', 'clarification', 'refusal'], 'answer');
    PERFORM footnote._text_arg('answer', answer, true, 20000, true);
    IF claims IS NOT NULL THEN
        claims := footnote._array_arg('claims', claims, 500);
    ELSIF answer ~ '\n\s*\|\s*1[.)]?\s*\|' THEN
        answer := footnote._unnumbered(answer);
    ELSIF answer ~ '^\s*[{\[]' THEN
        -- JSON on one line: each "key": value pair is read as a line of its own, as in YAML (the comma before a
        -- key becomes a line break: the text keeps its length, every position its character)
        answer := regexp_replace(answer, ',(?=[ \t]*"[^"\n]{1,80}"[ \t]*:)', E'\n', 'g');
    END IF;
    SELECT coalesce(jsonb_agg(jsonb_build_object(
               'code', 'unknown_call', 'severity', 'blocking', 'call_id', x.id,
               'message', format('call %s was never made', x.id))), '[]')
    INTO findings FROM jsonb_array_elements_text(idx->'unknown') AS x(id);

    -- the template's own text, with its own claims (or none): every statement holds by construction
    fast := outcome = 'answer' AND answer = tpl->>'answer' AND (claims IS NULL OR
        (SELECT coalesce(jsonb_agg(jsonb_build_array(c->>'text', c->'span', c->>'call_id', c->'evidence') ORDER BY n), '[]')
         FROM jsonb_array_elements(claims) WITH ORDINALITY AS x(c, n))
        = (SELECT coalesce(jsonb_agg(jsonb_build_array(c->>'text', c->'span', c->>'call_id', c->'evidence') ORDER BY n), '[]')
           FROM jsonb_array_elements(tc) WITH ORDINALITY AS x(c, n)));

    -- the figures: the caller's claims, checked, or the values of the template found in the text
    IF claims IS NOT NULL AND NOT fast THEN
        FOR claim IN SELECT value FROM jsonb_array_elements(claims) LOOP
            i := i + 1;
            IF jsonb_typeof(claim) <> 'object' OR jsonb_typeof(claim->'text') IS DISTINCT FROM 'string'
               OR jsonb_typeof(claim->'span') IS DISTINCT FROM 'object'
               OR jsonb_typeof(claim->'span'->'start') IS DISTINCT FROM 'number'
               OR jsonb_typeof(claim->'span'->'end') IS DISTINCT FROM 'number'
               OR (claim->'span'->>'start') !~ '^\d{1,9}$' OR (claim->'span'->>'end') !~ '^\d{1,9}$'
               OR jsonb_typeof(claim->'call_id') IS DISTINCT FROM 'string'
               OR coalesce(jsonb_typeof(claim->'evidence'), 'array') <> 'array'
               OR coalesce(claim->>'origin', 'structured') NOT IN ('structured', 'generated', 'found') THEN
                PERFORM footnote._invalid(format('claims[%s]', i - 1),
                    'must be {"text": string, "span": {"start": int, "end": int}, "call_id": string, '
                    || '"evidence": [string], "origin": "structured" | "generated"}', left(claim::text, 200));
            END IF;
            span_s := (claim->'span'->>'start')::integer;
            span_e := (claim->'span'->>'end')::integer;
            cid := claim->>'call_id';
            ev_ids := ARRAY(SELECT jsonb_array_elements_text(coalesce(claim->'evidence', '[]')));
            verdict := 'grounded';
            reason := NULL;
            IF NOT calls ? cid THEN
                verdict := 'fabricated'; reason := 'call_not_listed';
            ELSIF NOT (calls->cid->>'made')::boolean THEN
                verdict := 'fabricated'; reason := 'call_not_made';
            ELSIF EXISTS (SELECT FROM unnest(ev_ids) AS e(id) WHERE NOT calls->cid->'evidence' ? e.id) THEN
                verdict := 'fabricated'; reason := 'evidence_not_read';
            ELSIF span_e <= span_s OR span_e > length(answer)
                  OR substr(answer, span_s + 1, span_e - span_s) IS DISTINCT FROM claim->>'text' THEN
                verdict := 'unverified'; reason := 'span_mismatch';
            ELSIF NOT footnote._edge_ok(footnote._plain(answer), span_s, span_e) THEN
                verdict := 'unverified'; reason := 'span_boundary';
            ELSIF span_s < last_end THEN
                verdict := 'unverified'; reason := 'span_overlap';
            ELSIF NOT EXISTS (SELECT FROM jsonb_array_elements(tc) AS t
                              WHERE t->>'text' = claim->>'text' AND t->>'call_id' = cid) THEN
                verdict := 'unverified'; reason := 'value_mismatch';
            END IF;
            IF reason IS NULL THEN
                last_end := span_e;
                figs := figs || jsonb_build_array(jsonb_build_object(
                    'start', span_s, 'end', span_e, 'text', claim->>'text', 'written', claim->>'text',
                    'form', 'claimed', 'call_id', cid, 'evidence', to_jsonb(ev_ids), 'claim', i - 1,
                    'origin', coalesce(claim->>'origin', 'structured')));
            ELSE
                findings := findings || jsonb_build_array(jsonb_build_object(
                    'code', reason, 'claim', i - 1, 'severity', 'blocking',
                    'message', format('claim %s (%s): %s', i - 1, left(claim->>'text', 60), replace(reason, '_', ' '))));
            END IF;
            graded := graded || jsonb_build_array(jsonb_build_object(
                'text', claim->>'text', 'span', jsonb_build_object('start', span_s, 'end', span_e),
                'call_id', cid, 'evidence', to_jsonb(ev_ids), 'origin', coalesce(claim->>'origin', 'structured'),
                'verdict', verdict, 'reason', reason, 'value', NULL));
        END LOOP;
        SELECT coalesce(jsonb_agg(x ORDER BY (x->>'start')::integer), '[]') INTO figs FROM jsonb_array_elements(figs) AS x;
    ELSIF NOT fast AND outcome = 'answer' THEN
        SELECT coalesce(jsonb_agg(jsonb_build_object('text', x.text, 'name', x.name)), '[]') INTO slots
        FROM (SELECT t->>'text' AS text,
                     bool_or(t->>'kind' = 'text' AND t->>'value' ~ '\.(customer|supplier|item|name)$') AS name
              FROM jsonb_array_elements(tc) AS t GROUP BY t->>'text') AS x;
        figs := footnote._find_figures(answer, slots, NOT EXISTS (
            SELECT FROM jsonb_array_elements(tc) AS t
            WHERE t->>'text' ~ '^[0-9]{1,2}$'
              AND substr(tpl->>'answer', 1, (t->'span'->>'start')::integer) ~ '(^|\n)[ \t]*$'
              AND substr(tpl->>'answer', (t->'span'->>'end')::integer + 1, 2) ~ '^[.)] '));
    END IF;

    IF outcome <> 'answer' THEN
        -- clarifications and refusals are recorded as what they are; one offered as text (a model's or an
        -- agent's, without claims) states no figure and no fact: no number (a period such as Q2 2026 or
        -- FY2025 aside), no number word, scale, currency or sign, no direction, party, state, level or
        -- comparison, no yes, no advice or prediction (should, will, likely, ...), no proper name that is not
        -- one of a customer, supplier or item
        IF claims IS NULL THEN
            said := regexp_replace(answer, '(Q[1-4] ?|FY ?|H[12] ?)?(19|20)[0-9]{2}', 'period', 'gi');
            nread := footnote._read(said, '[]', NULL);
            -- what the question itself says: a refusal or clarification may name what it declines or asks about
            -- (the question's names, its currency, its numbers; a sentence that asks may repeat its words)
            aread := footnote._read(coalesce(tpl->>'question', ''), '[]', NULL);
            said_q := ARRAY(SELECT m[1] FROM regexp_matches(lower(coalesce(tpl->>'question', '')), '([[:alnum:]]+|[$€£])', 'g') AS m);
            -- a letter's sign-off (with its name or without) and what is signed under it, and a quoted question,
            -- state nothing here either
            signed := footnote._signed_at(nread, said);
            FOR ns, k IN SELECT x, n FROM jsonb_array_elements(nread) WITH ORDINALITY AS y(x, n) LOOP
                CONTINUE WHEN footnote._line_at(said, (ns->>'start')::integer) ~ '^\s*>[^\n]*\?\s*$';
                -- in a signature the names and the numbers of a contact line are who signs, and nothing else is
                sig := coalesce(k >= signed, false);
                -- a sentence that asks ("Q: Should we take Bergmann to court?", "Which one?") predicts and advises
                -- nothing, and neither does the one that says what it will not do ("I won't advise on that",
                -- "whether Bergmann will pay isn't something I can tell")
                asks := footnote._asks(ns->>'text') AND ns->>'text' ~* footnote._asking_re();
                declines := asks OR (ns->>'text' ~* footnote._declining_re()
                                     AND regexp_replace(ns->>'text', footnote._declining_re(), ' ', 'gi')
                                         !~* '\m(will|won''t|won’t|would|wouldn''t|wouldn’t|should|shouldn''t|shall|wird|werden|würde|sollte|sollten)\M|[''’]ll\M');
                SELECT string_agg(DISTINCT m, ', ') INTO missing
                FROM (SELECT substr(x, strpos(x, ':') + 1) AS m FROM jsonb_array_elements_text(ns->'marks') AS x
                      WHERE split_part(x, ':', 1) IN ('numeral', 'scale', 'currency', 'sign', 'digits')
                        AND NOT (sig AND split_part(x, ':', 1) = 'digits'
                                 AND footnote._contact_line(footnote._line_at(said, (ns->>'start')::integer), true))
                        AND x NOT IN ('currency:currency', 'numeral:several', 'numeral:many', 'numeral:multiple',
                                      'numeral:various', 'numeral:few', 'numeral:a few')
                        -- the currency the question asks in, and the numbers it writes
                        AND NOT (split_part(x, ':', 1) = 'currency' AND EXISTS (
                                     SELECT FROM jsonb_array_elements(aread) AS q, jsonb_array_elements_text(q->'marks') AS qm
                                     WHERE qm LIKE 'currency:%'))
                        AND NOT (split_part(x, ':', 1) = 'digits' AND substr(x, 8) = ANY (said_q))
                      UNION ALL
                      SELECT ltrim(w, '!') FROM jsonb_array_elements_text(ns->'words') AS w
                      WHERE (ltrim(w, '!') = ANY (footnote._stance_words()) OR ltrim(w, '!') IN ('yes', 'judged', 'predicted'))
                        AND NOT (asks AND EXISTS (SELECT FROM jsonb_array_elements(aread) AS q WHERE q->'words' ? w))
                      UNION ALL  -- advice or a prediction: what a refusal declines to give
                      SELECT substr(x, 10) FROM jsonb_array_elements_text(ns->'marks') AS x
                      WHERE x IN ('modifier:should', 'modifier:must', 'modifier:will', 'modifier:would',
                                  'modifier:likely', 'modifier:probably', 'modifier:expected to', 'modifier:projected')
                        AND NOT (declines AND x IN ('modifier:should', 'modifier:will', 'modifier:would'))
                      UNION ALL  -- the advice a refusal declines, given anyway
                      SELECT footnote._advice_given(ns->>'text', tpl->>'question')
                      UNION ALL  -- a proper name no customer, supplier or item bears: a fact about something else
                      -- (the names the question writes are what the refusal declines)
                      SELECT c FROM jsonb_array_elements_text(ns->'capitalised') AS c
                      WHERE position(c IN ns->>'text') > 1 AND cardinality(footnote._names_of(c)) = 0 AND NOT sig
                        AND NOT (lower(c) = ANY (said_q)
                                 AND (declines OR footnote._asks(ns->>'text')))) AS y;
                IF missing IS NOT NULL THEN
                    findings := findings || jsonb_build_array(jsonb_build_object(
                        'code', 'unsupported_statement', 'severity', 'blocking', 'sentence', ns->'sentence',
                        'message', format('sentence %s (“%s”): a %s states “%s”, which no call supports',
                                          (ns->>'sentence')::integer + 1, left(ns->>'text', 60),
                                          CASE outcome WHEN 'refusal' THEN 'refusal' ELSE 'clarification' END, missing)));
                END IF;
            END LOOP;
        END IF;
    ELSIF fast THEN
        graded := '[]';
        FOR claim IN SELECT value FROM jsonb_array_elements(tc) LOOP
            reason := CASE WHEN EXISTS (SELECT FROM jsonb_array_elements_text(claim->'evidence') AS e(id)
                                        WHERE (calls->(claim->>'call_id')->'evidence'->(e.id)->>'verified')::boolean IS FALSE)
                           THEN 'source_unverified' END;
            graded := graded || jsonb_build_array(claim || jsonb_build_object(
                'verdict', CASE WHEN reason IS NULL THEN 'grounded' ELSE 'unverified' END, 'reason', reason,
                'sentence', claim->'unit'));
        END LOOP;
        SELECT coalesce(jsonb_agg(jsonb_build_object(
                   'sentence', n - 1, 'start', t->'start', 'end', t->'end',
                   'text', substr(answer, (t->>'start')::integer + 1, (t->>'end')::integer - (t->>'start')::integer),
                   'verdict', 'grounded', 'reasons', '[]'::jsonb, 'unit', n - 1, 'claims', t->'claims') ORDER BY n), '[]')
        INTO sents FROM jsonb_array_elements(tus) WITH ORDINALITY AS x(t, n);
    ELSE
        -- the template, unit by unit: its words, marks, negations and the context of each of its figures
        tread := footnote._read(tpl->>'answer',
            (SELECT coalesce(jsonb_agg(t->'span' ORDER BY n), '[]') FROM jsonb_array_elements(tc) WITH ORDINALITY AS x(t, n)),
            (SELECT coalesce(jsonb_agg(jsonb_build_object('start', t->'start', 'end', t->'end') ORDER BY n), '[]')
             FROM jsonb_array_elements(tus) WITH ORDINALITY AS x(t, n)));
        aread := (SELECT coalesce(jsonb_object_agg(r->>'sentence', r), '{}')
                  FROM (SELECT string_agg(coalesce(t->>'also', ''), E'\n' ORDER BY n) AS txt,
                               jsonb_agg(jsonb_build_object('start', a0, 'end', a0 + length(coalesce(t->>'also', '')))
                                         ORDER BY n) AS spans
                        FROM (SELECT t, n, sum(length(coalesce(t->>'also', '')) + 1) OVER (ORDER BY n)
                                           - length(coalesce(t->>'also', '')) - 1 AS a0
                              FROM jsonb_array_elements(tus) WITH ORDINALITY AS x(t, n)) AS y) AS a,
                       LATERAL jsonb_array_elements(footnote._read(a.txt, '[]', a.spans)) AS r);
        FOR ns IN SELECT x FROM jsonb_array_elements(tread) AS x LOOP
            tinfo := tinfo || jsonb_build_object(ns->>'sentence', jsonb_build_object(
                'words', (ns->'words') || coalesce(aread->(ns->>'sentence')->'words', '[]')
                         -- a row of a list its statement says none of is overdue is not overdue either
                         || CASE WHEN tus->((ns->>'sentence')::integer)->>'row' IS NOT NULL AND EXISTS (
                                     SELECT FROM jsonb_array_elements(tread) AS t2
                                     WHERE tus->((t2->>'sentence')::integer)->>'row' IS NULL
                                       AND tus->((t2->>'sentence')::integer)->>'call_id' = tus->((ns->>'sentence')::integer)->>'call_id'
                                       AND t2->'words' ? '!overdue')
                                 THEN '["!overdue"]'::jsonb ELSE '[]' END,
                'marks', (ns->'marks') || coalesce(aread->(ns->>'sentence')->'marks', '[]'),
                'negations', ns->'negations',
                'figures', (SELECT coalesce(jsonb_object_agg(x->>'figure', x), '{}') FROM jsonb_array_elements(ns->'figures') AS x),
                -- one of two statements of one operation (two customers compared)
                'pair', tus->((ns->>'sentence')::integer)->>'row' IS NULL
                        AND (SELECT count(*) FROM jsonb_array_elements(tus) AS u2
                             WHERE u2->>'row' IS NULL AND u2->>'role' = 'statement'
                               AND u2->>'operation' = tus->((ns->>'sentence')::integer)->>'operation') = 2,
                -- the words it says before its first figure, where two of its values are of one kind: what the
                -- statement is about ("Revenue rose from …", "Accounts receivable …"), no value's label
                'lead', CASE WHEN EXISTS (
                            SELECT FROM jsonb_array_elements_text(tus->((ns->>'sentence')::integer)->'claims') AS a(c1),
                                        jsonb_array_elements_text(tus->((ns->>'sentence')::integer)->'claims') AS b(c2)
                            WHERE a.c1::integer < b.c2::integer AND tc->(a.c1::integer)->>'kind' = tc->(b.c2::integer)->>'kind'
                              AND tc->(a.c1::integer)->>'kind' IN ('amount', 'count', 'days', 'percent', 'quantity'))
                        THEN (SELECT coalesce(jsonb_agg(DISTINCT ltrim(w, '!')), '[]')
                              FROM jsonb_array_elements(footnote._read(substr(tpl->>'answer',
                                       (tus->((ns->>'sentence')::integer)->>'start')::integer + 1,
                                       greatest((SELECT min((tc->(o.c2::integer)->'span'->>'start')::integer)
                                                 FROM jsonb_array_elements_text(tus->((ns->>'sentence')::integer)->'claims') AS o(c2))
                                                - (tus->((ns->>'sentence')::integer)->>'start')::integer, 0)), '[]', NULL)) AS r,
                                   jsonb_array_elements_text(r->'words') AS w)
                        ELSE '[]' END));
        END LOOP;

        -- the text, sentence by sentence
        nread := footnote._read(answer, figs, NULL);
        -- an answer that holds an interpretation says so wherever the text likes ("This is an interpretation:",
        -- "My assessment:", "(interpretation)"): the marker words belong to no statement, and without one
        -- the interpretation would read as a fact
        IF EXISTS (SELECT FROM jsonb_array_elements(tus) AS t WHERE t->>'role' = 'inference') THEN
            IF NOT EXISTS (SELECT FROM jsonb_array_elements(nread) AS x, jsonb_array_elements_text(x->'words') AS w
                           WHERE w = 'interpretation') THEN
                findings := findings || jsonb_build_array(jsonb_build_object(
                    'code', 'marker_missing', 'severity', 'blocking',
                    'message', 'the answer states an interpretation without saying that it is one (“This is an interpretation”)'));
            END IF;
            -- a Yes or No would answer the decision or judgement itself, which no call makes ("Should we pay?" "Yes."),
            -- unless the interpretation is a state the calls' facts are judged to show (a risk), stated as one, and
            -- the Yes or No agrees with it ("Yes — in our interpretation X is at high risk ...")
            IF EXISTS (SELECT FROM jsonb_array_elements(nread) AS x
                       WHERE x->>'text' ~* '^\W*(yes|yeah|yep|no|nope|ja|nein)\s*[-—–,.:;!]'
                         AND (EXISTS (SELECT FROM jsonb_array_elements(tus) AS t
                                      WHERE t->>'role' = 'inference' AND t->>'operation' <> 'customer_risk')
                              -- a risk is affirmed unless the interpretation finds none ("shows no sign of ...")
                              OR (x->>'text' ~* '^\W*(yes|yeah|yep|ja)\M') <> NOT EXISTS (
                                     SELECT FROM jsonb_array_elements(tus) AS t2
                                     WHERE t2->>'role' = 'inference'
                                       AND substr(tpl->>'answer', (t2->>'start')::integer + 1,
                                                  (t2->>'end')::integer - (t2->>'start')::integer) ~* '\mno\M'))) THEN
                findings := findings || jsonb_build_array(jsonb_build_object(
                    'code', 'unsupported_words', 'severity', 'blocking',
                    'message', 'a Yes or No answers an interpretation the calls do not make; state the interpretation as one'));
            END IF;
            SELECT coalesce(jsonb_agg(jsonb_set(x, '{words}', (
                       SELECT coalesce(jsonb_agg(w), '[]') FROM jsonb_array_elements_text(x->'words') AS w
                       WHERE w NOT IN ('interpretation', 'underlying'))) ORDER BY n), '[]')
            INTO nread FROM jsonb_array_elements(nread) WITH ORDINALITY AS y(x, n);
        END IF;
        sread := nread;  -- the sentences as written, before they are cut into clauses
        nread := footnote._clauses(answer, figs, nread, tc);
        nread := footnote._bound_clauses(answer, figs, nread, tc, tus);
        -- a word the lexicon does not know, in a clause that holds no figure and no number and not negated, is
        -- discourse ("Quick heads-up before the call", a heading "Receivables snapshot"): the words that can carry
        -- a claim there (quantifiers, judgements, modality, direction, comparison, cause, advice) are lexicon
        -- rows and stay; so does a capitalised word that names a customer, supplier or item
        SELECT coalesce(jsonb_agg(CASE WHEN jsonb_array_length(x->'loose') = 0 THEN x ELSE jsonb_set(x, '{words}', (
                   SELECT coalesce(jsonb_agg(w), '[]') FROM jsonb_array_elements_text(x->'words') AS w
                   WHERE NOT (x->'loose' ? w AND NOT EXISTS (
                       SELECT FROM jsonb_array_elements_text(x->'loose_capitalised') AS c
                       WHERE footnote._stem(c) = w AND cardinality(footnote._names_of(c)) > 0)))) END ORDER BY n), '[]')
        INTO nread FROM jsonb_array_elements(nread) WITH ORDINALITY AS y(x, n);
        IF EXISTS (SELECT FROM jsonb_array_elements(tus) AS t WHERE t->>'role' = 'inference') THEN
            -- the marker read again in clauses belongs to no statement either
            SELECT coalesce(jsonb_agg(jsonb_set(x, '{words}', (
                       SELECT coalesce(jsonb_agg(w), '[]') FROM jsonb_array_elements_text(x->'words') AS w
                       WHERE w NOT IN ('interpretation', 'underlying'))) ORDER BY n), '[]')
            INTO nread FROM jsonb_array_elements(nread) WITH ORDINALITY AS y(x, n);
        END IF;
        -- the question itself, restated above the answer with the names it asks about ("**Q:** How much does
        -- Bergmann Logistik owe?"): every word a word of the question, every figure a name the question writes
        IF coalesce(tpl->>'question', '') <> '' THEN
            qread := (SELECT coalesce(jsonb_agg(DISTINCT w), '[]')
                      FROM jsonb_array_elements(footnote._read(tpl->>'question', '[]', NULL)) AS q,
                           jsonb_array_elements_text(q->'words') AS w);
            SELECT coalesce(jsonb_agg(CASE
                       WHEN footnote._asks(x->>'text') AND (x->>'negations')::integer = 0
                            AND jsonb_array_length(x->'figures') > 0
                            AND NOT EXISTS (SELECT FROM jsonb_array_elements_text(x->'marks') AS m WHERE m <> 'unit:>')
                            AND NOT EXISTS (SELECT FROM jsonb_array_elements_text(x->'words') AS w WHERE NOT qread ? w)
                            AND NOT EXISTS (SELECT FROM jsonb_array_elements(x->'figures') AS f2,
                                                        LATERAL (SELECT figs->((f2->>'figure')::integer) AS g) AS z
                                            WHERE z.g->>'text' ~ '[0-9]'
                                               OR strpos(lower(tpl->>'question'), lower(z.g->>'written')) = 0)
                       THEN x || jsonb_build_object('figures', '[]'::jsonb, 'words', '[]'::jsonb, 'marks', '[]'::jsonb,
                                                    'asked', x->'figures') ELSE x END ORDER BY n), '[]')
            INTO nread FROM jsonb_array_elements(nread) WITH ORDINALITY AS y(x, n);
        END IF;
        nsent := jsonb_array_length(nread);
        unit_of := array_fill(NULL::integer, ARRAY[greatest(nsent, 1)]);
        judged := array_fill(NULL::jsonb, ARRAY[greatest(nsent, 1)]);
        FOR k IN 1..nsent LOOP
            ns := nread->(k - 1);
            -- the units that hold every figure of the sentence written with a digit or a capital letter
            -- (values in plain words, "high", "open", count only when the sentence has no other figure)
            hard := EXISTS (SELECT FROM jsonb_array_elements(ns->'figures') AS f2
                            WHERE figs->((f2->>'figure')::integer)->>'text' ~ '[0-9A-Z\u00C0-\u00DE]');
            SELECT array_agg(u2 ORDER BY u2) INTO cands
            FROM generate_series(0, jsonb_array_length(tus) - 1) AS u2
            WHERE jsonb_array_length(ns->'figures') > 0 AND NOT EXISTS (
                SELECT FROM jsonb_array_elements(ns->'figures') AS f2, LATERAL (SELECT figs->((f2->>'figure')::integer) AS g) AS x
                WHERE (NOT hard OR x.g->>'text' ~ '[0-9A-Z\u00C0-\u00DE]')
                  AND NOT EXISTS (SELECT FROM jsonb_array_elements(tc) AS t
                                  WHERE (t->>'unit')::integer = u2
                                    AND (t->>'text' = x.g->>'text' OR footnote._shared_period(x.g->>'text', t, tc))
                                    AND (x.g->>'call_id' IS NULL OR t->>'call_id' = x.g->>'call_id')));
            best := NULL;
            bestu := NULL;
            FOREACH u IN ARRAY coalesce(cands, '{}') LOOP
                j := footnote._judge(ns, figs, tc, tus->u, tinfo->(u::text));
                IF best IS NULL OR jsonb_array_length(j->'offences') < jsonb_array_length(best->'offences')
                   OR (jsonb_array_length(j->'offences') = jsonb_array_length(best->'offences')
                       AND NOT touched ? (u::text) AND touched ? (bestu::text)) THEN
                    best := j;
                    bestu := u;
                END IF;
            END LOOP;
            IF bestu IS NULL AND jsonb_array_length(ns->'figures') > 0 THEN
                best := jsonb_build_object('offences', jsonb_build_array(jsonb_build_object(
                    'code', 'crosses_units', 'text', (SELECT string_agg(figs->((f2->>'figure')::integer)->>'written', ', ')
                                                      FROM jsonb_array_elements(ns->'figures') AS f2))),
                    'claims', (SELECT jsonb_agg(NULL::integer) FROM jsonb_array_elements(ns->'figures')));
            END IF;
            unit_of[k] := bestu;
            judged[k] := best;
            IF bestu IS NOT NULL THEN
                touched := touched || jsonb_build_object(bestu::text, coalesce(touched->(bestu::text), '[]') || (ns->'words'));
            END IF;
        END LOOP;
        -- superlatives and orderings of a row ("the largest is ...", "just ahead of ..."): checked against the
        -- rows the call returned; true ones are supported, false ones contradict the rows
        FOR k IN 1..nsent LOOP
            CONTINUE WHEN unit_of[k] IS NULL OR NOT EXISTS (
                SELECT FROM jsonb_array_elements(judged[k]->'offences') AS x
                WHERE x->>'code' = 'unsupported_words' AND x->>'text' IN ('largest', 'smallest', 'oldest', 'newest', 'ahead of', 'behind'));
            SELECT coalesce(jsonb_agg(CASE
                       WHEN x->>'code' <> 'unsupported_words' OR x->>'text' NOT IN ('largest', 'smallest', 'oldest', 'newest', 'ahead of', 'behind') THEN x
                       WHEN footnote._ordering_holds(x->>'text', tus->unit_of[k], CASE WHEN k > 1 THEN tus->unit_of[k - 1] END,
                                                     judged[k]->'claims', tc, idx) THEN NULL
                       WHEN footnote._ordering_holds(x->>'text', tus->unit_of[k], CASE WHEN k > 1 THEN tus->unit_of[k - 1] END,
                                                     judged[k]->'claims', tc, idx) IS FALSE THEN x || '{"code": "contradicts"}'
                       ELSE x END) FILTER (WHERE x IS NOT NULL), '[]')
            INTO o FROM jsonb_array_elements(judged[k]->'offences') AS x;
            judged[k] := jsonb_set(judged[k], '{offences}', (SELECT coalesce(jsonb_agg(y), '[]') FROM jsonb_array_elements(o) AS y WHERE y <> 'null'));
        END LOOP;
        -- a letter's sign-off ("Best regards,"): the lines after it are its signature
        -- and so are the lines after one that signs with a name ("Gruß Julia", "Thanks, M.") or after the "--" that
        -- opens a signature
        signed := footnote._signed_at(nread, answer);
        -- sentences without figures: discourse, or a part of the statement next to them
        FOR k IN 1..nsent LOOP
            ns := nread->(k - 1);
            CONTINUE WHEN jsonb_array_length(ns->'figures') > 0;
            IF jsonb_array_length(ns->'words') = 0 AND jsonb_array_length(ns->'marks') = 0
               AND (ns->>'negations')::integer = 0 THEN
                judged[k] := jsonb_build_object('discourse', true, 'offences', '[]'::jsonb, 'claims', '[]'::jsonb);
                CONTINUE;
            END IF;
            -- a mail header line ("Sent: Thu 3 Dec 2026 09:14") or a signature's contact line under a sign-off
            -- ("Credit Control | Tel. +49 40 2281 4470"), read as the whole line it stands in
            IF (ns->>'negations')::integer = 0 AND footnote._contact_line(
                   footnote._line_at(answer, (ns->>'start')::integer), k > coalesce(signed, nsent))
               -- (a line of capitalised words alone is names only: no word the vocabulary knows)
               AND (footnote._line_at(answer, (ns->>'start')::integer) ~ '[0-9@]'
                    OR footnote._names_only(footnote._line_at(answer, (ns->>'start')::integer))) THEN
                judged[k] := jsonb_build_object('discourse', true, 'offences', '[]'::jsonb, 'claims', '[]'::jsonb);
                CONTINUE;
            END IF;
            -- a quoted question ("> what's our DSO at the moment?") asks and states nothing; nor does the line that
            -- opens a quoted or forwarded mail ("-----Original Message-----", "Begin forwarded message:")
            IF (ns->>'negations')::integer = 0
               AND (footnote._line_at(answer, (ns->>'start')::integer) ~ '^\s*>[^\n]*\?\s*$'
                    OR (jsonb_array_length(ns->'marks') = 0 AND footnote._line_at(answer, (ns->>'start')::integer)
                        ~* '^\W*(original message|ursprüngliche nachricht|forwarded message|weitergeleitete nachricht|begin forwarded message)\W*$')
                    -- the sign-off itself, alone ("Med vennlig hilsen") or with its name
                    OR (k = signed AND jsonb_array_length(ns->'marks') = 0 AND ns->>'text' ~* footnote._signoff_re())
                    OR (k = signed AND jsonb_array_length(ns->'marks') = 0 AND footnote._signoff_named(ns->>'text')
                        AND NOT EXISTS (SELECT FROM jsonb_array_elements_text(ns->'words') AS w WHERE NOT ns->'unknown' ? w))) THEN
                judged[k] := jsonb_build_object('discourse', true, 'offences', '[]'::jsonb, 'claims', '[]'::jsonb);
                CONTINUE;
            END IF;
            -- a salutation ("Hi Anna,", "Dear Mr Weber,") names whom the text is for, and a signature under a
            -- sign-off ("Jonas", "Credit Control") who wrote it: neither states anything
            IF jsonb_array_length(ns->'marks') = 0 AND (ns->>'negations')::integer = 0
               AND ((ns->>'text' ~* footnote._salutation_re()
                     AND NOT EXISTS (SELECT FROM jsonb_array_elements_text(ns->'words') AS w WHERE NOT ns->'unknown' ? w))
                    OR ((k > coalesce(signed, nsent)
                         OR (k = signed AND footnote._name_line(footnote._line_at(answer, (ns->>'start')::integer))))
                        AND ns->>'text' ~ '^\s*[A-Z\u00C0-\u00DE][[:alpha:]&.-]*( [[:alpha:]&.-]+){0,3}\s*$'
                        -- (names: no word the vocabulary knows; "Best,\nBergmann insolvent" signs nothing)
                        AND NOT EXISTS (SELECT FROM jsonb_array_elements_text(ns->'words') AS w WHERE NOT ns->'unknown' ? w))) THEN
                judged[k] := jsonb_build_object('discourse', true, 'offences', '[]'::jsonb, 'claims', '[]'::jsonb);
                CONTINUE;
            END IF;
            -- the question itself, restated above the answer ("Q: How much does Bergmann Logistik owe?", a quoted
            -- "> Does Vidal have open tickets?"): a question asserts nothing when every word it says is a word of
            -- the question asked (a word of its own, "Is Bergmann at risk of insolvency?", still has to be supported)
            IF ns->>'text' ~ '\?\W*$' AND (ns->>'negations')::integer = 0 AND coalesce(tpl->>'question', '') <> ''
               AND NOT EXISTS (SELECT FROM jsonb_array_elements_text(ns->'marks') AS x
                               WHERE x <> 'unit:>' OR ns->>'text' !~ '^\s*>')
               AND NOT EXISTS (SELECT FROM jsonb_array_elements_text(ns->'words') AS w WHERE NOT qread ? w) THEN
                judged[k] := jsonb_build_object('discourse', true, 'offences', '[]'::jsonb, 'claims', '[]'::jsonb);
                CONTINUE;
            END IF;
            -- an offer or a closer ("Let me know if you'd like it by month") states nothing unless it holds a
            -- number or takes a side
            IF ns->>'text' ~* '^\W*(let me know|if you''d like|if you want|would you like|do you want|want me to|shall i|i can|i could|happy to|feel free|just ask|sag bescheid|wenn du|wenn sie)'
               AND NOT EXISTS (SELECT FROM jsonb_array_elements_text(ns->'marks') AS x
                               WHERE split_part(x, ':', 1) IN ('digits', 'numeral', 'scale', 'currency', 'sign'))
               AND NOT EXISTS (SELECT FROM jsonb_array_elements_text(ns->'words') AS w
                               WHERE ltrim(w, '!') = ANY (footnote._stance_words()))
               AND (ns->>'negations')::integer = 0 THEN
                judged[k] := jsonb_build_object('discourse', true, 'offences', '[]'::jsonb, 'claims', '[]'::jsonb);
                CONTINUE;
            END IF;
            -- a markdown table's header row names what its rows state: each of its words is one the statement
            -- of some row of the table says (units and what a column of names names aside)
            IF left(ns->>'text', 1) = '|' THEN
                cands := '{}';
                FOR kt IN k + 1..nsent LOOP
                    EXIT WHEN left(nread->(kt - 1)->>'text', 1) <> '|';
                    IF unit_of[kt] IS NOT NULL AND NOT unit_of[kt] = ANY (cands) THEN
                        cands := cands || unit_of[kt];
                    END IF;
                END LOOP;
                missing := NULL;
                IF cardinality(cands) > 0 THEN
                    SELECT string_agg(o.t, ', ') INTO missing
                    FROM (SELECT DISTINCT x->>'code' || ':' || coalesce(x->>'text', '') AS t
                          FROM unnest(cands) AS c2(u2),
                               LATERAL jsonb_array_elements(footnote._judge(ns, figs, tc, tus->c2.u2, tinfo->(c2.u2::text))->'offences') AS x
                          WHERE x->>'code' <> 'unit_words'
                            -- a column of names is headed by what they name
                            AND NOT (x->>'code' = 'unsupported_words'
                                     AND x->>'text' IN ('customer', 'supplier', 'invoice', 'item', 'purchase order',
                                                        'warehouse', 'credit note', 'ticket', 'payment', 'account'))) AS o
                    WHERE (SELECT count(*) FROM unnest(cands) AS c3(u3)
                           WHERE EXISTS (SELECT FROM jsonb_array_elements(footnote._judge(ns, figs, tc, tus->c3.u3, tinfo->(c3.u3::text))->'offences') AS x3
                                         WHERE x3->>'code' || ':' || coalesce(x3->>'text', '') = o.t)) = cardinality(cands);
                    IF missing IS NULL THEN
                        judged[k] := jsonb_build_object('discourse', true, 'offences', '[]'::jsonb, 'claims', '[]'::jsonb);
                        CONTINUE;
                    END IF;
                END IF;
            END IF;
            best := NULL;
            bestu := NULL;
            FOREACH u IN ARRAY ARRAY[CASE WHEN k > 1 THEN unit_of[k - 1] END, CASE WHEN k < nsent THEN unit_of[k + 1] END]
                                || ARRAY(SELECT (t->>'sentence')::integer FROM jsonb_array_elements(tread) AS t
                                         WHERE jsonb_array_length(t->'figures') = 0)
                                -- and a statement that counts 0 of something ("no open tickets" for "0 support tickets
                                -- are open")
                                || ARRAY(SELECT (n - 1)::integer FROM jsonb_array_elements(tus) WITH ORDINALITY AS t(t, n)
                                         WHERE EXISTS (SELECT FROM jsonb_array_elements_text(t->'claims') AS o(c2)
                                                       WHERE tc->(o.c2::integer)->>'kind' = 'count'
                                                         AND tc->(o.c2::integer)->>'text' = '0')) LOOP
                CONTINUE WHEN u IS NULL;
                j := footnote._judge(ns, figs, tc, tus->u, tinfo->(u::text));
                IF best IS NULL OR jsonb_array_length(j->'offences') < jsonb_array_length(best->'offences') THEN
                    best := j;
                    bestu := u;
                END IF;
            END LOOP;
            IF best IS NULL THEN
                best := jsonb_build_object('offences', jsonb_build_array(jsonb_build_object('code', 'unsupported_statement')),
                                           'claims', '[]'::jsonb);
            ELSIF jsonb_array_length(best->'offences') > 0 AND unit_of[k] IS NULL
                  AND NOT EXISTS (SELECT FROM jsonb_array_elements(tread) AS t
                                  WHERE (t->>'sentence')::integer = bestu AND jsonb_array_length(t->'figures') = 0) THEN
                best := jsonb_set(best, '{offences}', (best->'offences')
                                  || jsonb_build_array(jsonb_build_object('code', 'unsupported_statement')));
            END IF;
            IF jsonb_array_length(best->'offences') = 0 THEN
                unit_of[k] := bestu;
                touched := touched || jsonb_build_object(bestu::text, coalesce(touched->(bestu::text), '[]') || (ns->'words'));
            END IF;
            judged[k] := best;
        END LOOP;

        -- figures of one unit stated across several sentences keep its order too
        FOR u IN SELECT DISTINCT x FROM unnest(unit_of) AS x WHERE x IS NOT NULL LOOP
            CONTINUE WHEN (SELECT count(*) FROM unnest(unit_of) AS x WHERE x = u) < 2;
            o := footnote._order_offences(
                (SELECT coalesce(jsonb_agg(jsonb_build_object('c', a.c::integer, 'f', nread->(k2 - 1)->'figures'->(a.o::integer - 1),
                                                              'written', figs->((nread->(k2 - 1)->'figures'->(a.o::integer - 1)->>'figure')::integer)->>'written')
                                           ORDER BY k2, a.o), '[]')
                 FROM generate_series(1, nsent) AS k2,
                      jsonb_array_elements_text(judged[k2]->'claims') WITH ORDINALITY AS a(c, o)
                 WHERE unit_of[k2] = u AND a.c IS NOT NULL
                   -- (a table's header row names its columns: what it states stands above every row, not before it)
                   AND NOT footnote._header_row(answer, (nread->(k2 - 1)->>'start')::integer)), tc, tus->u, tinfo->(u::text));
            CONTINUE WHEN jsonb_array_length(o) = 0;
            FOR k IN 1..nsent LOOP
                IF unit_of[k] = u AND NOT EXISTS (SELECT FROM jsonb_array_elements(judged[k]->'offences') AS x
                                                   WHERE x->>'code' = 'order') THEN
                    judged[k] := jsonb_set(judged[k], '{offences}', (judged[k]->'offences') || o);
                END IF;
            END LOOP;
        END LOOP;

        -- per sentence: names of other entities, short names that are not unique, claims, verdict
        FOR k IN 1..nsent LOOP
            ns := nread->(k - 1);
            best := judged[k];
            FOR f IN SELECT x FROM jsonb_array_elements(ns->'figures') AS x LOOP
                fig := figs->((f->>'figure')::integer);
                IF fig->>'form' IN ('short', 'tail') THEN
                    IF NOT names ? (fig->>'written') THEN
                        names := names || jsonb_build_object(fig->>'written', to_jsonb(footnote._names_of(fig->>'written')));
                    END IF;
                    -- a short name that could mean several names means the one the calls are about, when only
                    -- one of them is ("Bergmann" in an answer about Bergmann Logistik GmbH)
                    IF names->(fig->>'written') <> jsonb_build_array(fig->>'text')
                       AND (SELECT count(*) FROM jsonb_array_elements_text(names->(fig->>'written')) AS nm
                            WHERE EXISTS (SELECT FROM jsonb_array_elements(tc) AS t WHERE t->>'text' = nm)) <> 1 THEN
                        best := jsonb_set(best, '{offences}', (best->'offences') || jsonb_build_array(jsonb_build_object(
                            'code', 'ambiguous_name', 'text', fig->>'written',
                            'names', (SELECT string_agg(x, ' or ') FROM jsonb_array_elements_text(names->(fig->>'written')) AS x))));
                    END IF;
                END IF;
            END LOOP;
            IF jsonb_array_length(ns->'capitalised') > 0 AND jsonb_array_length(best->'offences') > 0 THEN
                SELECT string_agg(n, ', ') INTO missing FROM (
                    SELECT DISTINCT e.name AS n FROM jsonb_array_elements_text(ns->'capitalised') AS c(w),
                           LATERAL unnest(footnote._names_of(c.w)) AS e(name)
                    WHERE length(c.w) >= 3 AND NOT EXISTS (SELECT FROM jsonb_array_elements(tc) AS t WHERE t->>'text' = e.name)
                    ORDER BY 1 LIMIT 3) AS x;
                IF missing IS NOT NULL THEN
                    best := jsonb_set(best, '{offences}', (best->'offences') || jsonb_build_array(jsonb_build_object(
                        'code', 'other_entity', 'text', missing)));
                END IF;
            END IF;
            judged[k] := best;
            sv := CASE WHEN (best->>'discourse')::boolean THEN 'discourse'
                       WHEN EXISTS (SELECT FROM jsonb_array_elements(best->'offences') AS x
                                    WHERE footnote._offence_verdict(x->>'code') = 'fabricated') THEN 'fabricated'
                       WHEN EXISTS (SELECT FROM jsonb_array_elements(best->'offences') AS x
                                    WHERE footnote._offence_verdict(x->>'code') = 'unverified') THEN 'unverified'
                       WHEN jsonb_array_length(best->'offences') > 0 THEN 'unsupported'
                       ELSE 'grounded' END;
            -- the claims of the sentence's figures
            FOR i IN 0..jsonb_array_length(ns->'figures') - 1 LOOP
                f := ns->'figures'->i;
                fig := figs->((f->>'figure')::integer);
                u := (best->'claims'->>i)::integer;
                IF u IS NULL AND unit_of[k] IS NOT NULL THEN
                    -- an as-of date or period the template states once for all its statements
                    u := (SELECT d.n - 1 FROM jsonb_array_elements(tc) WITH ORDINALITY AS d(t, n)
                          WHERE d.t->>'text' = fig->>'text' AND d.t->>'kind' IN ('date', 'period')
                            AND d.t->>'call_id' = tus->unit_of[k]->>'call_id'
                            AND EXISTS (SELECT FROM jsonb_array_elements_text(tus->unit_of[k]->'claims') AS o2(c2)
                                        WHERE footnote._shared_period(fig->>'text', tc->(o2.c2::integer), tc))
                          ORDER BY d.n LIMIT 1)::integer;
                END IF;
                o := (SELECT x FROM jsonb_array_elements(best->'offences') AS x WHERE x->'figure' = f->'figure' LIMIT 1);
                IF o IS NULL THEN
                    o := (SELECT x FROM jsonb_array_elements(best->'offences') AS x WHERE x->>'code' = 'order'
                          AND x->>'kind' = tc->u->>'kind' LIMIT 1);
                END IF;
                reason := CASE WHEN o IS NOT NULL THEN o->>'code'
                               WHEN u IS NULL THEN 'crosses_units'
                               WHEN EXISTS (SELECT FROM jsonb_array_elements_text(tc->u->'evidence') AS e(id)
                                            WHERE (calls->(tc->u->>'call_id')->'evidence'->(e.id)->>'verified')::boolean IS FALSE)
                                   THEN 'source_unverified' END;
                IF u IS NOT NULL AND (reason IS NULL OR reason = 'source_unverified') AND NOT covered ? (u::text) THEN
                    covered := covered || jsonb_build_object(u::text, k - 1);
                END IF;
                claim := jsonb_build_object(
                    'text', fig->>'written', 'span', jsonb_build_object('start', fig->'start', 'end', fig->'end'),
                    'call_id', coalesce(fig->>'call_id', tc->u->>'call_id'),
                    'evidence', coalesce(fig->'evidence', tc->u->'evidence', '[]'),
                    'origin', coalesce(fig->>'origin', 'found'), 'kind', tc->u->'kind', 'value', tc->u->'value',
                    'verdict', CASE WHEN reason IS NULL THEN 'grounded' ELSE 'unverified' END, 'reason', reason,
                    'statement', tc->u->'statement', 'sentence', k - 1);
                IF fig ? 'claim' THEN
                    graded := jsonb_set(graded, ARRAY[fig->>'claim'], (graded->((fig->>'claim')::integer)) || (claim - 'text' - 'span' - 'evidence' - 'origin'));
                ELSE
                    graded := graded || jsonb_build_array(claim);
                END IF;
            END LOOP;
            sents := sents || jsonb_build_array(jsonb_build_object(
                'sentence', k - 1, 'start', ns->'start', 'end', ns->'end', 'text', ns->'text', 'verdict', sv,
                'unit', unit_of[k],
                'reasons', (SELECT coalesce(jsonb_agg(DISTINCT x->>'code'), '[]') FROM jsonb_array_elements(best->'offences') AS x)));
            FOR o IN SELECT x FROM jsonb_array_elements(best->'offences') AS x LOOP
                findings := findings || jsonb_build_array(jsonb_build_object(
                    'code', o->>'code', 'severity', 'blocking', 'sentence', k - 1,
                    'message', format('sentence %s (“%s”): %s', k, left(ns->>'text', 60), footnote._offence_message(o)))
                    || CASE WHEN o->>'code' = 'unsupported_digits' THEN jsonb_build_object('positions', (
                           SELECT coalesce(jsonb_agg(jsonb_build_object('position', p - 1, 'character', substr(answer, p, 1))
                                                     ORDER BY p), '[]')
                           FROM generate_series((ns->>'start')::integer + 1, (ns->>'end')::integer) AS p
                           WHERE substr(answer, p, 1) ~ '[^\x01-\x2f\x3a-\x7f]' AND footnote._has_numeral(substr(answer, p, 1))
                             AND NOT EXISTS (SELECT FROM jsonb_array_elements(figs) AS g
                                             WHERE p - 1 >= (g->>'start')::integer AND p - 1 < (g->>'end')::integer)))
                       ELSE '{}' END);
            END LOOP;
        END LOOP;

        -- the customer or supplier a restated question names is the subject of what follows it
        FOR k IN 1..nsent LOOP
            CONTINUE WHEN nread->(k - 1)->'asked' IS NULL;
            SELECT covered || coalesce(jsonb_object_agg(t.n - 1, k - 1), '{}') INTO covered
            FROM jsonb_array_elements(tc) WITH ORDINALITY AS t(c, n)
            WHERE NOT covered ? (t.n - 1)::text AND t.c->>'value' ~ '\.(customer|supplier)$'
              AND EXISTS (SELECT FROM jsonb_array_elements(nread->(k - 1)->'asked') AS f2
                          WHERE figs->((f2->>'figure')::integer)->>'text' = t.c->>'text');
        END LOOP;
        -- a sentence without figures that says there is none of what a statement counts 0 of ("no open tickets",
        -- "keine offenen Tickets") states that 0
        FOR k IN 1..nsent LOOP
            CONTINUE WHEN unit_of[k] IS NULL OR jsonb_array_length(nread->(k - 1)->'figures') > 0;
            SELECT covered || coalesce(jsonb_object_agg(o.c2, k - 1), '{}') INTO covered
            FROM jsonb_array_elements_text(tus->unit_of[k]->'claims') AS o(c2)
            WHERE NOT covered ? o.c2 AND tc->(o.c2::integer)->>'kind' = 'count' AND tc->(o.c2::integer)->>'text' = '0'
              AND EXISTS (SELECT FROM jsonb_array_elements_text(nread->(k - 1)->'words') AS w,
                                      LATERAL (SELECT tinfo->(unit_of[k]::text)->'figures'->(o.c2) AS fi) AS x
                          WHERE left(w, 1) = '!' AND (x.fi->>'left' = substr(w, 2) OR x.fi->>'right' = substr(w, 2)
                                                      OR coalesce(x.fi->'near', '[]') ? substr(w, 2)));
        END LOOP;

        -- every statement the template must make, complete (a row of a list and a fact under an interpretation
        -- are detail a summary may leave out, or state in part, unless the template says it with a negation: a
        -- caveat), and no negation of a statement the text touches dropped
        -- whether the rows the text states come in the order of the template's (a list ranked by its order)
        in_order := NOT EXISTS (
            SELECT FROM (SELECT z.uu, min(z.o) AS p FROM unnest(unit_of) WITH ORDINALITY AS z(uu, o)
                         WHERE z.uu IS NOT NULL AND tus->(z.uu)->>'row' IS NOT NULL GROUP BY z.uu) AS a,
                        (SELECT z.uu, min(z.o) AS p FROM unnest(unit_of) WITH ORDINALITY AS z(uu, o)
                         WHERE z.uu IS NOT NULL AND tus->(z.uu)->>'row' IS NOT NULL GROUP BY z.uu) AS b
            WHERE a.uu < b.uu AND a.p > b.p AND tus->(a.uu)->>'call_id' = tus->(b.uu)->>'call_id')
            -- a numbered list says its ranks itself
            AND answer !~ '(^|\n)[ \t]*[0-9]+[.)][ \t]';
        FOR k IN 0..jsonb_array_length(tus) - 1 LOOP
            detail := NOT (tus->k->>'required')::boolean
                OR ((tus->k->>'row' IS NOT NULL OR tus->k->>'role' = 'fact')
                    AND NOT EXISTS (SELECT FROM jsonb_array_elements(tread) AS t
                                    WHERE (t->>'sentence')::integer = k
                                      AND ((t->>'negations')::integer > 0
                                           OR EXISTS (SELECT FROM jsonb_array_elements_text(t->'words') AS w
                                                      WHERE left(w, 1) = '!'))));
            CONTINUE WHEN NOT touched ? (k::text) AND detail;
            -- an as-of date or party stated once above covers every statement after it that has the same one
            -- ("As of 14.08.2026:" or "Accounts payable to Northwind Supply:" above a list)
            first := (SELECT min(z.o) - 1 FROM unnest(unit_of) WITH ORDINALITY AS z(uu, o) WHERE z.uu = k);
            SELECT string_agg(tc->(c::integer)->>'text', ', ' ORDER BY c::integer) INTO missing
            FROM jsonb_array_elements_text(tus->k->'claims') AS c
            WHERE NOT covered ? c
              -- a gloss of the statement (a figure in parentheses, an explanation after its measure and a colon)
              -- left out whole: no other figure of the gloss stated, no empty brackets left where one stood
              -- (from a statement the text does not touch as well: what else it says is still required)
              AND NOT (answer !~ '\(\s*[,;]?\s*\)|\(\s*[,;]|[,;]\s*\)'
                       AND footnote._gloss(tpl->>'answer', tc, tus->k, c::integer) IS NOT NULL
                       AND NOT EXISTS (SELECT FROM jsonb_array_elements_text(tus->k->'claims') AS g(c3)
                                       WHERE covered ? g.c3
                                         AND footnote._gloss(tpl->>'answer', tc, tus->k, g.c3::integer)
                                             = footnote._gloss(tpl->>'answer', tc, tus->k, c::integer)))
              -- a figure a summary leaves out of a statement it makes ("owes 43.805,00 € overdue (as of
              -- 14.08.2026)" without the invoice count and the oldest item's age)
              -- (not when a number no call returned stands in the statement: that figure was replaced, not left out)
              AND NOT (touched ? (k::text) AND answer !~ '\(\s*[,;]?\s*\)|\(\s*[,;]|[,;]\s*\)'
                       AND NOT EXISTS (SELECT FROM generate_series(1, nsent) AS k4,
                                                   jsonb_array_elements(judged[k4]->'offences') AS x4
                                       WHERE unit_of[k4] = k AND x4->>'code' IN ('unsupported_digits', 'number_words'))
                       AND footnote._omissible(tpl->>'answer', answer, tc, tus->k, c::integer, covered))
              -- an as-of date or a period the text states on its own, for everything it says ("Both as of
              -- 14.08.2026.", a table's "As of 14.08.2026." under it)
              AND NOT (tc->(c::integer)->>'value' ~ '\.(as_of|period)$'
                       AND EXISTS (SELECT FROM jsonb_array_elements(nread) AS x
                                   WHERE jsonb_array_length(x->'figures') > 0
                                     AND NOT EXISTS (SELECT FROM jsonb_array_elements(x->'figures') AS f3
                                                     WHERE figs->((f3->>'figure')::integer)->>'text'
                                                           IS DISTINCT FROM tc->(c::integer)->>'text')))
              AND NOT (tc->(c::integer)->>'value' ~ '\.(as_of|customer|supplier)$'
                       AND EXISTS (SELECT FROM jsonb_each(covered) AS d
                                   WHERE tc->(d.key::integer)->>'text' = tc->(c::integer)->>'text'
                                     AND tc->(d.key::integer)->>'kind' = tc->(c::integer)->>'kind'
                                     AND (d.value)::text::integer < coalesce(first, 0)))
              -- a figure the text states for another statement of the same call: the same value, said once
              -- ("INV-2026-8812 is the oldest at 104 days past due" for the headline's "the oldest 104 days")
              -- (left out with the words that state it, not cut out of them: "the oldest past due" blocks)
              AND NOT (tc->(c::integer)->>'kind' IN ('amount', 'count', 'days', 'percent', 'quantity')
                       AND EXISTS (SELECT FROM jsonb_each(covered) AS d
                                   WHERE tc->(d.key::integer)->>'text' = tc->(c::integer)->>'text'
                                     AND tc->(d.key::integer)->>'kind' = tc->(c::integer)->>'kind'
                                     AND tc->(d.key::integer)->>'call_id' = tc->(c::integer)->>'call_id')
                       AND NOT footnote._cut_out(tpl->>'answer', answer, tc, tus->k, c::integer))
              -- how many rows a list shows ("Top 5 customers ...", "5 of 39"): the rows the text lists say it
              AND NOT (tc->(c::integer)->>'value' ~ '\.(limit|listed|ranked)$'
                       AND NOT footnote._cut_out(tpl->>'answer', answer, tc, tus->k, c::integer))
              -- an as-of date or a period said once for a sentence that merges statements ("Bergmann … 43.805,00 €,
              -- Vidal … 24.631,65 € — Stand 14.08.2026"), or by a heading that states only when ("from Q1 2026 to Q2
              -- 2026" above the rows of both quarters), where it is that in every statement of the answer that has
              -- it; left out with its words, not cut out of them ("rose from 2.636.388,74 € in to …" blocks), and
              -- not in another sentence than the statement's ("… 104 days past due.\nVidal … (as of 14.08.2026)."
              -- leaves Bergmann's date out)
              AND NOT (tc->(c::integer)->>'value' ~ '\.(as_of|period|period_from|period_to)$'
                       AND NOT EXISTS (SELECT FROM jsonb_array_elements(tc) AS t2
                                       WHERE t2->>'text' = tc->(c::integer)->>'text'
                                         AND substring(coalesce(t2->>'value', '') FROM '[^.]*$')
                                             <> substring(tc->(c::integer)->>'value' FROM '[^.]*$'))
                       AND NOT footnote._cut_out(tpl->>'answer', answer, tc, tus->k, c::integer)
                       AND EXISTS (SELECT FROM jsonb_array_elements(sread) AS x
                                   WHERE EXISTS (SELECT FROM jsonb_array_elements(x->'figures') AS f3
                                                 WHERE figs->((f3->>'figure')::integer)->>'text' = tc->(c::integer)->>'text')
                                     AND (NOT EXISTS (SELECT FROM jsonb_array_elements_text(tus->k->'claims') AS o2(c2)
                                                      WHERE tc->(o2.c2::integer)->>'kind' NOT IN ('date', 'period'))
                                          OR EXISTS (SELECT FROM jsonb_array_elements(x->'figures') AS f4,
                                                                 jsonb_array_elements_text(tus->k->'claims') AS o2(c2)
                                                     WHERE covered ? o2.c2 AND tc->(o2.c2::integer)->>'kind' NOT IN ('date', 'period')
                                                       AND figs->((f4->>'figure')::integer)->>'text' = tc->(o2.c2::integer)->>'text'))))
              -- a count of the rows of its call, when the text names every one of those rows (a table of the 2
              -- invoices for "across 2 invoices") and makes the count's statement: the list says how many
              AND NOT (touched ? (k::text) AND footnote._counted_by_rows(tpl->>'answer', tc, tus, c::integer, covered)
                       AND NOT footnote._cut_out(tpl->>'answer', answer, tc, tus->k, c::integer));
            IF missing IS NULL AND NOT touched ? (k::text) AND jsonb_array_length(tus->k->'claims') = 0 THEN
                missing := 'its words';
            ELSIF detail THEN
                -- a detail stated in part still says when (its as-of date or period) and, in a ranking, which rank
                -- (unless the text states the ranked rows in their order)
                SELECT string_agg(tc->(c::integer)->>'text', ', ' ORDER BY c::integer) INTO missing
                FROM jsonb_array_elements_text(tus->k->'claims') AS c
                WHERE NOT covered ? c AND tc->(c::integer)->>'value' ~ '\.(as_of|period|period_from|period_to|rank)$'
                  AND NOT (tc->(c::integer)->>'value' ~ '\.rank$' AND in_order)
                  AND NOT EXISTS (SELECT FROM jsonb_each(covered) AS d
                                  WHERE tc->(d.key::integer)->>'text' = tc->(c::integer)->>'text'
                                    AND tc->(d.key::integer)->>'kind' = tc->(c::integer)->>'kind'
                                    AND tc->(c::integer)->>'value' !~ '\.rank$'
                                    AND (d.value)::text::integer < coalesce(first, 0));
            END IF;
            IF missing IS NOT NULL THEN
                findings := findings || jsonb_build_array(jsonb_build_object(
                    'code', 'statement_missing', 'severity', 'blocking', 'unit', k,
                    'message', format('the answer does not state %s (“%s”)', missing,
                                      left(substr(tpl->>'answer', (tus->k->>'start')::integer + 1,
                                                  (tus->k->>'end')::integer - (tus->k->>'start')::integer), 80))));
            ELSIF touched ? (k::text) THEN
                SELECT string_agg(substr(w, 2), ', ') INTO missing
                FROM jsonb_array_elements(tread) AS t, jsonb_array_elements_text(t->'words') AS x(w)
                WHERE (t->>'sentence')::integer = k AND left(w, 1) = '!' AND NOT touched->(k::text) ? w
                  AND NOT footnote._same_sense(w, touched->(k::text))
                  -- (none of it overdue, said of the rows of the list: "… NW-26-0688, due 30.08.2026, not overdue")
                  AND NOT (w = '!overdue' AND tus->k->>'row' IS NULL AND EXISTS (
                               SELECT FROM jsonb_each(touched) AS r
                               WHERE tus->(r.key::integer)->>'row' IS NOT NULL AND r.value ? w
                                 AND tus->(r.key::integer)->>'call_id' = tus->k->>'call_id'));
                IF missing IS NOT NULL THEN
                    findings := findings || jsonb_build_array(jsonb_build_object(
                        'code', 'negation_dropped', 'severity', 'blocking', 'unit', k,
                        'message', format('the answer leaves out that it is not %s', missing)));
                END IF;
            END IF;
        END LOOP;
        IF nsent = 0 THEN
            findings := findings || jsonb_build_array(jsonb_build_object(
                'code', 'statement_missing', 'severity', 'blocking', 'message', 'the answer states nothing'));
        END IF;
    END IF;

    -- advisory: figures read faithfully from facts the source itself flags as unverified
    FOR claim IN SELECT x FROM jsonb_array_elements(graded) AS x WHERE x->>'reason' = 'source_unverified' LOOP
        findings := findings || jsonb_build_array(jsonb_build_object(
            'code', 'source_unverified', 'severity', 'advisory', 'claim', claim->'value',
            'message', format('%s rests on a fact the source marks unverified', claim->>'text')));
    END LOOP;

    SELECT array_agg(DISTINCT e) INTO cited
    FROM jsonb_array_elements(graded) AS c, jsonb_array_elements_text(c->'evidence') AS e
    WHERE c->>'verdict' <> 'fabricated';
    SELECT coalesce(jsonb_agg(x.row ORDER BY x.id), '[]') INTO evidence
    FROM (SELECT DISTINCT ON (e.key) e.key AS id, e.value AS row
          FROM jsonb_each(calls) AS k2, jsonb_each(k2.value->'evidence') AS e
          WHERE e.key = ANY (coalesce(cited, '{}'))
          ORDER BY e.key) AS x;

    status := CASE
        WHEN outcome = 'refusal' AND jsonb_array_length(findings) = 0 THEN 'refused'
        WHEN outcome = 'clarification' AND jsonb_array_length(findings) = 0 THEN 'ambiguous'
        WHEN EXISTS (SELECT FROM jsonb_array_elements(findings) AS x WHERE x->>'severity' = 'blocking')
            THEN 'insufficient_evidence'
        WHEN jsonb_array_length(tc) = 0 THEN 'insufficient_evidence'
        WHEN jsonb_array_length(findings) > 0 THEN 'partially_verified'
        ELSE 'verified' END;
    IF outcome = 'answer' AND jsonb_array_length(tc) = 0 THEN
        findings := findings || jsonb_build_array(jsonb_build_object(
            'code', 'no_statements', 'severity', 'blocking',
            'message', 'the calls support no statement the gate can read'));
    END IF;
    RETURN jsonb_build_object('status', status, 'claims', graded, 'findings', findings, 'sentences', sents,
                              'evidence', evidence);
END
$$;

-- The settings the gate grades with: the as-of date (the as_of setting, or today in the session's time zone) and
-- the fiscal year's first month. Read once, when the gate begins, before it runs any code of the mapping's (the
-- gate's name reader): the mapping's code could change the settings' rows (footnote_owner edits them) while an
-- answer is graded and put them back. The record names them (details.gate.settings), and verification grades it
-- again with them.
CREATE FUNCTION footnote._gate_settings()
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_build_object('as_of', to_char(s.as_of, 'YYYY-MM-DD'),
                              'fiscal_year_start_month', s.fiscal_year_start_month)
    FROM footnote.client_settings() AS s
$$;

-- FN105 when the settings the gate reads (footnote._gate_settings) are not what they were when it began: changed
-- while it graded.
CREATE FUNCTION footnote._gate_settings_kept(began jsonb)
RETURNS void
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    now_read jsonb := footnote._gate_settings();
    changed  text;
BEGIN
    IF now_read IS DISTINCT FROM began THEN
        SELECT string_agg(k, ', ' ORDER BY k) INTO changed
        FROM jsonb_object_keys(now_read) AS k WHERE now_read->k IS DISTINCT FROM began->k;
        RAISE EXCEPTION USING ERRCODE = 'FN105',
            MESSAGE = format('the settings the gate reads changed while it graded (%s): refused (the mapping''s code '
                             'may not change what an answer is graded with)', changed),
            DETAIL = jsonb_build_object('settings', changed, 'began', began, 'now', now_read)::text;
    END IF;
END
$$;

-- The notes an agent's answer is graded with, from its question: a relative period it names ("last quarter",
-- "this year") when it is the period a call answered for, as of the as-of date, as the router would have noted
-- it (so an agent's "Q2 2026 (last quarter)" is read as the narrator's is).
-- settings: what footnote._gate_settings read when the gate began (NULL: read them now).
CREATE FUNCTION footnote._question_notes(question text, results jsonb, settings jsonb DEFAULT NULL)
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    WITH d AS (SELECT (coalesce(settings, footnote._gate_settings())->>'as_of')::date AS t,
                      (coalesce(settings, footnote._gate_settings())->>'fiscal_year_start_month')::integer AS fsm)
    SELECT jsonb_build_object('period', p.phrase)
    FROM d, LATERAL (VALUES
        ('last quarter', format('Q%s %s', extract(quarter FROM d.t - interval '3 months'), extract(year FROM d.t - interval '3 months'))),
        ('previous quarter', format('Q%s %s', extract(quarter FROM d.t - interval '3 months'), extract(year FROM d.t - interval '3 months'))),
        ('this quarter', format('Q%s %s', extract(quarter FROM d.t), extract(year FROM d.t))),
        ('last month', to_char(d.t - interval '1 month', 'FMMonth YYYY')),
        ('previous month', to_char(d.t - interval '1 month', 'FMMonth YYYY')),
        ('this month', to_char(d.t, 'FMMonth YYYY')),
        ('last year', 'FY' || (extract(year FROM d.t) - 1)),
        ('this year', 'FY' || extract(year FROM d.t))) AS p(phrase, label)
    WHERE strpos(lower(coalesce(question, '')), p.phrase) > 0
      AND d.fsm = 1
      AND EXISTS (SELECT FROM jsonb_array_elements(results) AS r
                  WHERE p.label IN (r->'values'->'period'->>'text', r->'values'->'period_to'->>'text'))
    LIMIT 1
$$;

-- The template an answer is graded against: {"intent", "notes"} as footnote.compose takes them; without a
-- template (an agent's answer), the notes its question gives (footnote._question_notes), with the settings the gate
-- read when it began (NULL: read them now).
CREATE FUNCTION footnote._template_of(template jsonb, question text, idx jsonb, call_ids uuid[], complete boolean,
                                      settings jsonb DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
SET jit = off  -- many small expressions: compiling them costs more than it saves (PostgreSQL 15's default is on)
AS $$
DECLARE
    results jsonb;
BEGIN
    PERFORM footnote._json_arg('template', template, 'object');  -- {"intent": text, "notes": object}
    IF template ? 'notes' AND jsonb_typeof(template->'notes') NOT IN ('object', 'null') THEN
        PERFORM footnote._invalid('template', 'notes must be a JSON object');
    END IF;
    IF template ? 'intent' AND jsonb_typeof(template->'intent') NOT IN ('string', 'null') THEN
        PERFORM footnote._invalid('template', 'intent must be a string');
    END IF;
    IF length(template->>'intent') > 60 THEN
        PERFORM footnote._invalid('template', format('intent is too long (%s characters; at most 60)',
                                                     length(template->>'intent')));
    END IF;
    SELECT coalesce(jsonb_agg(l.result ORDER BY u.n), '[]') INTO results
    FROM unnest(coalesce(call_ids, '{}')) WITH ORDINALITY AS u(id, n)
    JOIN ONLY footnote.call_log AS l ON l.call_id = u.id
    WHERE (idx->'calls'->(u.id::text)->>'made')::boolean
      AND u.n = (SELECT min(v.n) FROM unnest(call_ids) WITH ORDINALITY AS v(id, n) WHERE v.id = u.id);
    RETURN footnote._layout(footnote._template_units(footnote._intent(template->>'intent', results), results,
                                                     CASE WHEN jsonb_typeof(template->'notes') = 'object'
                                                          THEN template->'notes'
                                                          WHEN template IS NULL AND results <> '[]'
                                                              THEN footnote._question_notes(question, results, settings)
                                                     END, question, complete))
           || jsonb_build_object('question', question);
END
$$;

-- Grade an answer without recording it: what record_answer would decide (calls already used by a
-- record may be checked again: nothing is written). claims NULL: the gate finds the figures itself.
CREATE FUNCTION footnote.check_answer(answer text, claims jsonb, call_ids uuid[], outcome text DEFAULT 'answer',
                                      template jsonb DEFAULT NULL, question text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    gs  jsonb := footnote._gate_settings();  -- before any code of the mapping's runs
    idx jsonb;
    g   jsonb;
BEGIN
    PERFORM footnote._text_arg('question', question, false, 2000);
    call_ids := footnote._uuids_arg('call_ids', call_ids, false);
    idx := footnote._call_index(call_ids, false);
    g := footnote._grade(CASE WHEN claims IS NULL THEN footnote._normal_text(answer) ELSE answer END, claims, idx,
                         footnote._template_of(template, question, idx, call_ids, false, gs), outcome);
    PERFORM footnote._gate_settings_kept(gs);
    RETURN jsonb_build_object('status', g->'status', 'claims', g->'claims', 'findings', g->'findings',
                              'sentences', g->'sentences');
END
$$;
-- The records that cited any of these calls before (attempts the gate did not accept), oldest first:
-- {"attempt": n, "earlier_attempts": [record ids]}, or nothing for a first attempt (at once for an answer that
-- cites no call: every append asks).
CREATE FUNCTION footnote._earlier_attempts(call_ids uuid[])
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    earlier jsonb;
BEGIN
    IF cardinality(call_ids) IS DISTINCT FROM 0
       AND EXISTS (SELECT FROM ONLY footnote.call_attempts AS a WHERE a.call_id = ANY (call_ids)) THEN
        SELECT jsonb_build_object('attempt', count(*) + 1,
                                  'earlier_attempts', jsonb_agg(x.record_id::text ORDER BY x.first, x.record_id))
        INTO earlier
        FROM (SELECT a.record_id, min(q.at) AS first
              FROM ONLY footnote.call_attempts AS a
              LEFT JOIN LATERAL (SELECT l.seq::numeric AS at FROM ONLY footnote.ledger AS l WHERE l.id = a.record_id
                                 UNION ALL
                                 SELECT 1e18 FROM ONLY footnote.ledger_queue AS w WHERE w.id = a.record_id) AS q
                     ON true
              WHERE a.call_id = ANY (call_ids)
              GROUP BY a.record_id) AS x;
    END IF;
    RETURN coalesce(earlier, '{}');
END
$$;

-- FN104 when _queue_record returned no id: a concurrent record took one of the answer's calls first.
CREATE FUNCTION footnote._replayed(g jsonb)
RETURNS void
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'FN104',
        MESSAGE = 'a call of this answer was just used by another record (a concurrent replay); make a new call',
        DETAIL = jsonb_build_object('argument', 'call_ids', 'call_ids',
            (SELECT jsonb_agg(o->>'call_id') FROM jsonb_array_elements(g->'operations') AS o))::text;
END
$$;

-- The gate for answers (and clarifications and refusals): grade, then append to the ledger at commit.
-- template: {"intent", "notes"} of the answer's template (footnote.compose); claims NULL: the gate finds
-- the figures itself. narration: a rewording offered for the answer (a model's): graded against the
-- same template and recorded instead of the answer when it is as good; either way the record says that
-- it was offered, how it was graded and whether it was kept.
CREATE FUNCTION footnote.record_answer(question text, answer text, claims jsonb, call_ids uuid[],
                                       outcome text DEFAULT 'answer', details jsonb DEFAULT NULL,
                                       template jsonb DEFAULT NULL, narration text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    gs        jsonb := footnote._gate_settings();  -- before any code of the mapping's runs
    idx       jsonb;
    tpl       jsonb;
    g         jsonb;
    gn        jsonb;
    nd        jsonb;
    recorded  text := answer;
    record_id uuid;
BEGIN
    PERFORM footnote._text_arg('question', question, false, 2000);
    outcome := footnote._choice_arg('outcome', outcome, ARRAY['answer', 'clarification', 'refusal'], 'answer');
    details := footnote._json_arg('details', details, 'object');
    call_ids := footnote._uuids_arg('call_ids', call_ids, false);
    IF narration IS NOT NULL THEN
        narration := footnote._normal_text(narration);
        PERFORM footnote._text_arg('narration', narration, true, 20000, true);
    END IF;
    IF claims IS NULL THEN
        answer := footnote._normal_text(answer);
    END IF;
    idx := footnote._call_index(call_ids, true);
    tpl := footnote._template_of(template, question, idx, call_ids, false, gs);
    g := footnote._grade(answer, claims, idx, tpl, outcome);
    IF narration IS NOT NULL AND outcome = 'answer' THEN
        gn := footnote._grade(narration, NULL, idx, tpl, 'answer');
        IF gn->>'status' = g->>'status' AND g->>'status' IN ('verified', 'partially_verified') THEN
            nd := jsonb_build_object('offered', true, 'kept', true, 'status', gn->'status', 'template', answer);
            recorded := narration;
            g := gn;
        ELSE
            nd := jsonb_build_object('offered', true, 'kept', false, 'text', narration, 'status', gn->'status',
                                     'findings', gn->'findings', 'sentences', gn->'sentences');
        END IF;
    END IF;
    PERFORM footnote._gate_settings_kept(gs);
    g := g || jsonb_build_object('operations', idx->'operations');
    -- the gate's inputs beside its verdict, so that verification can grade the record again (footnote._regrade)
    record_id := footnote._queue_record(gen_random_uuid(), footnote._actor(), 'answer', question, recorded, g, NULL,
        coalesce(details, '{}') || jsonb_build_object('outcome', outcome)
        || CASE WHEN nd IS NULL THEN '{}' ELSE jsonb_build_object('narration', nd) END
        || jsonb_build_object('gate', jsonb_build_object('template', template, 'claims', claims, 'settings', gs))
        || footnote._earlier_attempts(call_ids));
    IF record_id IS NULL THEN
        PERFORM footnote._replayed(g);
    END IF;
    RETURN jsonb_build_object('record_id', record_id, 'status', g->'status', 'answer', recorded, 'claims', g->'claims',
                              'findings', g->'findings', 'sentences', g->'sentences', 'narration', nd);
END
$$;

-- The gate for an agent's own words: the text it wants to show, and the calls it made. The gate finds the
-- figures and names itself, grades every sentence against the templates of those calls, records the text,
-- and returns the verdict per sentence and the template answer for the same calls as a fallback.
CREATE FUNCTION footnote.submit_answer(question text, answer text, call_ids uuid[], details jsonb DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    gs        jsonb := footnote._gate_settings();  -- before any code of the mapping's runs
    idx       jsonb;
    g         jsonb;
    fb        jsonb;
    record_id uuid;
BEGIN
    PERFORM footnote._text_arg('question', question, true, 2000);
    answer := footnote._normal_text(answer);
    PERFORM footnote._text_arg('answer', answer, true, 20000, true);
    call_ids := footnote._uuids_arg('call_ids', call_ids, true);
    details := footnote._json_arg('details', details, 'object');
    idx := footnote._call_index(call_ids, true);
    IF jsonb_array_length(idx->'unknown') > 0 THEN
        PERFORM footnote._invalid('call_ids', format('call %s was never made', idx->'unknown'->>0), idx->'unknown'->>0);
    END IF;
    g := footnote._grade(answer, NULL, idx, footnote._template_of(NULL, question, idx, call_ids, true, gs), 'answer');
    fb := footnote._template_of(NULL, question, idx, call_ids, false, gs);
    PERFORM footnote._gate_settings_kept(gs);
    g := g || jsonb_build_object('operations', idx->'operations');
    record_id := footnote._queue_record(gen_random_uuid(), footnote._actor(), 'answer', question, answer, g, NULL,
        coalesce(details, '{}') || jsonb_build_object('outcome', 'answer', 'origin', 'agent', 'fallback', fb->'answer')
        || jsonb_build_object('gate', jsonb_build_object('settings', gs))
        || footnote._earlier_attempts(call_ids));
    IF record_id IS NULL THEN
        PERFORM footnote._replayed(g);
    END IF;
    RETURN jsonb_build_object('record_id', record_id, 'status', g->'status', 'sentences', g->'sentences',
                              'claims', g->'claims', 'findings', g->'findings',
                              'fallback', jsonb_build_object('answer', fb->'answer', 'claims', fb->'claims',
                                                             'inference', fb->'inference', 'facts', fb->'facts'));
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
    call_ids := footnote._uuids_arg('call_ids', call_ids, false);

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
    record_id := footnote._queue_record(gen_random_uuid(), footnote._actor(), 'decision', subject, rationale, g,
        jsonb_build_object('action', action, 'subject', subject, 'outcome', outcome, 'citations', graded), NULL);
    IF record_id IS NULL THEN
        PERFORM footnote._replayed(g);
    END IF;
    RETURN jsonb_build_object('record_id', record_id, 'outcome', outcome, 'citations', graded, 'findings', findings,
                              'evidence', evidence);
END
$$;
