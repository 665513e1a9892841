-- footnote-pg: canonical JSON and hashing (see docs/hash-spec.md).
--
-- jsonb::text is not a stable serialisation, so anything we hash is first
-- written in this canonical form: object keys sorted by code point, no
-- whitespace, strings escaped as JSON requires, numbers as their exact decimal
-- text. Amounts are stored as strings, so no binary float ever enters a hash.

-- Canonical JSON text of a jsonb value.
CREATE FUNCTION footnote.canonical_json(j jsonb)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE pg_catalog.jsonb_typeof(j)
        WHEN 'object' THEN '{' || coalesce((
            SELECT pg_catalog.string_agg(pg_catalog.to_json(e.key)::text || ':' || footnote.canonical_json(e.value), ','
                                         ORDER BY e.key COLLATE "C")
            FROM pg_catalog.jsonb_each(j) AS e), '') || '}'
        WHEN 'array' THEN '[' || coalesce((
            SELECT pg_catalog.string_agg(footnote.canonical_json(a.value), ',' ORDER BY a.n)
            FROM pg_catalog.jsonb_array_elements(j) WITH ORDINALITY AS a(value, n)), '') || ']'
        WHEN 'string' THEN pg_catalog.to_json(j #>> '{}')::text
        WHEN 'number' THEN (j #>> '{}')
        WHEN 'boolean' THEN (j #>> '{}')
        ELSE 'null'
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
