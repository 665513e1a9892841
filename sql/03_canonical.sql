-- footnote-pg: canonical JSON and hashing (see docs/hash-spec.md).
--
-- jsonb::text is not a stable serialisation, so anything we hash is first
-- written in this canonical form: object keys sorted by code point, no
-- whitespace, strings escaped as JSON requires, numbers as their exact decimal
-- text. Amounts are stored as strings, so no binary float ever enters a hash.

-- Canonical JSON text of a jsonb value. Scalars are written by jsonb's own output (a JSON string
-- escaped as the spec says, a number as numeric_out's exact decimal text, true/false/null); containers
-- are rebuilt here with keys in code-point order and no whitespace. PL/pgSQL with one cached statement
-- per container kind is several times faster than a recursive SQL function. It recurses once per level:
-- what it hashes is ours (call results, ledger records); footnote.canonical_json checks a caller's value.
CREATE FUNCTION footnote._canonical_json(j jsonb)
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
                                   THEN footnote._canonical_json(e.value) ELSE e.value::text END,
                              ',' ORDER BY e.key COLLATE "C")
            FROM jsonb_each(j) AS e), '') || '}';
    WHEN 'array' THEN
        RETURN '[' || coalesce((
            SELECT string_agg(CASE WHEN jsonb_typeof(a.value) IN ('object', 'array')
                                   THEN footnote._canonical_json(a.value) ELSE a.value::text END,
                              ',' ORDER BY a.n)
            FROM jsonb_array_elements(j) WITH ORDINALITY AS a(value, n)), '') || ']';
    ELSE
        RETURN j::text;
    END CASE;
END
$$;

-- Canonical JSON text of any jsonb value a caller gives: nested at most 64 levels (deeper is FN001, not
-- the server's stack running out). SECURITY DEFINER: the roles may run it, not the helpers it calls.
CREATE FUNCTION footnote.canonical_json(j jsonb)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN footnote._canonical_json(footnote._json_arg('j', j, NULL, NULL, 64));
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
