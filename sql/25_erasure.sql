-- footnote-pg: erasure. A data subject (a customer or a supplier) redacted from the ledger and the call log while
-- the chain, the Merkle tree, receipts and signed digests still verify (docs/hash-spec.md, section 9).
--
-- A version 2 record commits to each of its parts (question, answer, each claim, operation, evidence row and
-- finding, decision, details) through a salted digest; footnote.redact replaces the parts that mention the
-- subject by {"redacted": true} (NULL for the question and the answer) and forgets their salts, so the sealed text
-- (which holds only commitments) and the hash stay as they were. The calls that mention the subject lose their
-- arguments, evidence ids and result; every record part citing them is redacted with them. Then a redaction
-- record is appended to the chain: who, when, on which request, which parts of which records (never a value).
-- Records sealed under version 1 (before revision 0028) hash their parts directly: they cannot be redacted and
-- the command names them.
--
-- Who may: footnote_redactor (EXECUTE on footnote.redact, granted by sql/90_grants.sql), not a login that is a
-- member of footnote_service or footnote_owner. The append-only tables accept the UPDATE only from
-- footnote.redact (footnote._append_only asks footnote._redaction_allowed): running as footnote_ledger, and only
-- a change after which the record still verifies against its sealed text (for the call log: a call's
-- arguments, evidence ids and result replaced by the redaction stub, nothing else).

-- Whether an UPDATE of an append-only table is footnote.redact's: see above.
CREATE FUNCTION footnote._redaction_allowed(tbl text, old jsonb, new jsonb)
RETURNS boolean
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    parts constant text[] := ARRAY['question', 'answer', 'claims', 'operations', 'evidence', 'findings', 'decision',
                                   'details', 'salts'];
    call_parts constant text[] := ARRAY['arguments', 'evidence_ids', 'result'];
BEGIN
    IF current_user <> 'footnote_ledger' OR coalesce(current_setting('footnote.redacting', true), '') <> 'on' THEN
        RETURN false;
    END IF;
    IF tbl = 'ledger' THEN
        RETURN jsonb_typeof(old->'salts') = 'object' AND jsonb_typeof(new->'salts') = 'object'
           AND (old - parts) = (new - parts)
           AND footnote._record_object(jsonb_populate_record(NULL::footnote.ledger, new)) = (new->>'canonical')::jsonb;
    ELSIF tbl = 'call_log' THEN
        RETURN (old - call_parts) = (new - call_parts)
           AND new->'arguments' = '{"redacted": true}'::jsonb AND new->'evidence_ids' = '[]'::jsonb
           AND new->'result' = jsonb_build_object('redacted', true, 'call_id', old->'call_id');
    END IF;
    RETURN false;
END
$$;

-- Whether a text holds one of the terms (lower case), ignoring case.
CREATE FUNCTION footnote._mentions(t text, terms text[])
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT t IS NOT NULL AND EXISTS (SELECT FROM unnest(terms) AS x(term) WHERE strpos(lower(t), x.term) > 0)
$$;

-- What identifies a subject ('customer' or 'supplier', by id or by name) in what the ledger and the call log
-- hold: its ids and names as the evidence rows give them, its identifiers (number, code, e-mail, phone, VAT id,
-- IBAN fields of its own evidence rows), each name also without its legal form ("Bergmann Logistik" for
-- "Bergmann Logistik GmbH"), and the ways a result writes an id (customer:4471, erp://customer/4471,
-- "customer_id": "4471"). Lower case.
CREATE FUNCTION footnote._subject_terms(kind text, subject text)
RETURNS text[]
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ids    text[] := CASE WHEN subject ~ '^[0-9]+$' THEN ARRAY[subject] ELSE '{}' END;
    names  text[] := CASE WHEN subject ~ '^[0-9]+$' THEN '{}' ELSE ARRAY[lower(subject)] END;
    more   text[];
    terms  text[] := '{}';
    rows   jsonb[];
BEGIN
    -- every object of the call log's results that is the subject's evidence row or names the subject's id and name
    SELECT coalesce(array_agg(o), '{}') INTO rows
    FROM ONLY footnote.call_log AS c,
         jsonb_path_query(c.result, 'strict $.** ? (@.type() == "object")') AS o
    WHERE (o->>'type' = kind AND o ? 'record_id') OR (o ? (kind || '_id') AND o ? (kind || '_name'));
    FOR i IN 1..2 LOOP  -- ids from names, then names from ids
        SELECT coalesce(array_agg(DISTINCT x), '{}') INTO more FROM (
            SELECT CASE WHEN o->>'type' = kind THEN o->>'record_id' ELSE o->>(kind || '_id') END AS x
            FROM unnest(rows) AS o
            WHERE lower(CASE WHEN o->>'type' = kind THEN o->'fields'->>'name' ELSE o->>(kind || '_name') END) = ANY (names)
            UNION
            SELECT lower(CASE WHEN o->>'type' = kind THEN o->'fields'->>'name' ELSE o->>(kind || '_name') END)
            FROM unnest(rows) AS o
            WHERE CASE WHEN o->>'type' = kind THEN o->>'record_id' ELSE o->>(kind || '_id') END = ANY (ids)) AS s
        WHERE x IS NOT NULL;
        ids := ARRAY(SELECT DISTINCT unnest(ids || ARRAY(SELECT m FROM unnest(more) AS m WHERE m ~ '^[0-9]+$')));
        names := ARRAY(SELECT DISTINCT unnest(names || ARRAY(SELECT m FROM unnest(more) AS m WHERE m !~ '^[0-9]+$')));
    END LOOP;
    -- identifiers from the subject's own evidence rows
    names := names || ARRAY(
        SELECT DISTINCT lower(f.value #>> '{}') FROM unnest(rows) AS o, jsonb_each(o->'fields') AS f
        WHERE o->>'type' = kind AND o->>'record_id' = ANY (ids) AND jsonb_typeof(f.value) = 'string'
          AND f.key ~ '(^|_)(name|number|code|email|e_mail|phone|mobile|vat_id|tax_id|iban)$'
          AND length(f.value #>> '{}') >= 3);
    names := names || ARRAY(
        SELECT regexp_replace(n, '[\s,]+(gmbh & co\.? kg|gmbh|ag|kg|sa|s\.a\.|s\.l\.|sl|ab|ltd\.?|limited|inc\.?|llc|'
                                 'bv|b\.v\.|nv|oy|as|a/s|aps|srl|s\.r\.l\.|spa|s\.p\.a\.|plc|sas|sarl|co\.?)$', '')
        FROM unnest(names) AS n);
    terms := ARRAY(SELECT DISTINCT t FROM unnest(names) AS t WHERE length(t) >= 4);
    FOR i IN 1..coalesce(array_length(ids, 1), 0) LOOP
        terms := terms || ARRAY[kind || ':' || ids[i], '/' || kind || '/' || ids[i],
                                format('"%s_id": "%s"', kind, ids[i]), format('"%s_id": %s,', kind, ids[i]),
                                format('"%s_id": %s}', kind, ids[i]), format('"%s": {"id": "%s"', kind, ids[i])];
    END LOOP;
    RETURN terms;
END
$$;

-- The elements of an array part with those that mention the subject (or whose `key` member is one of `ids`)
-- replaced by {"redacted": true} and their salts by null; `redacted`: their positions (0-based). Elements
-- redacted already stay as they are.
CREATE FUNCTION footnote._redact_list(parts jsonb, salts jsonb, terms text[], key text, ids text[],
                                      OUT parts_out jsonb, OUT salts_out jsonb, OUT redacted integer[])
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(jsonb_agg(CASE WHEN x.hit THEN '{"redacted": true}'::jsonb ELSE x.p END ORDER BY x.n), '[]'),
           coalesce(jsonb_agg(CASE WHEN x.hit THEN 'null'::jsonb ELSE x.s END ORDER BY x.n), '[]'),
           coalesce(array_agg((x.n - 1)::integer ORDER BY x.n) FILTER (WHERE x.hit), '{}')
    FROM (SELECT e.p, e.n, salts -> (e.n - 1)::integer AS s,
                 jsonb_typeof(salts -> (e.n - 1)::integer) = 'string'
                 AND (footnote._mentions(e.p::text, terms) OR (key IS NOT NULL AND e.p->>key = ANY (ids))) AS hit
          FROM jsonb_array_elements(parts) WITH ORDINALITY AS e(p, n)) AS x
$$;

-- Redact a data subject ('customer:<id or name>' or 'supplier:<id or name>') on a request (its reference, e.g.
-- the ticket of the erasure request): every part of a sealed version 2 record that mentions it, every call whose
-- arguments or result mention it, every part citing such a call; then queue the redaction record (sealed at
-- commit). Seals waiting records first, holding the chain until commit. One row: the redaction record's id, how
-- many records and parts were redacted, how many calls, and the records that could not be (version 1) with the
-- calls they cite (left as they are, so those records still verify).
CREATE FUNCTION footnote.redact(subject text, request text)
RETURNS TABLE (record_id uuid, records integer, parts integer, calls integer, not_redactable bigint[])
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    kind     text;
    key      text;
    terms    text[];
    hit      uuid[];       -- calls that mention the subject
    about    text[];       -- calls whose arguments name it: all of their evidence and claims are the subject's
    about_ev text[];       -- the evidence ids those calls cite
    kept     uuid[];       -- calls cited by version 1 records: left as they are
    r        footnote.ledger;
    s        jsonb;
    l        record;
    done     jsonb := '[]';
    paths    text[];
    q        text;
    a        text;
    d        jsonb;
    t        jsonb;
    n_parts  integer := 0;
    old_seqs bigint[] := '{}';
BEGIN
    IF pg_has_role(session_user, 'footnote_service', 'MEMBER') OR pg_has_role(session_user, 'footnote_owner', 'MEMBER') THEN
        IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = session_user) THEN
            RAISE EXCEPTION USING ERRCODE = '42501',
                MESSAGE = format('%s may not redact: a redaction is run by a login of footnote_redactor that is not a '
                                 'member of footnote_service or footnote_owner', session_user);
        END IF;
    END IF;
    IF subject IS NULL OR subject !~ '^(customer|supplier):\s*\S' THEN
        PERFORM footnote._invalid('subject', 'must be customer:<id or name> or supplier:<id or name>', subject);
    END IF;
    IF request IS NULL OR btrim(request) = '' OR length(request) > 200 THEN
        PERFORM footnote._invalid('request', 'must name the request (its reference), at most 200 characters', request);
    END IF;
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION USING ERRCODE = 'FN102', MESSAGE = 'footnote.redact() must run in a READ COMMITTED transaction';
    END IF;
    kind := split_part(subject, ':', 1);
    key := btrim(substr(subject, length(kind) + 2));
    PERFORM footnote._seal_queue(false);  -- nothing of the subject stays queued; the chain is held until commit
    terms := footnote._subject_terms(kind, key);
    SELECT coalesce(array_agg(c.call_id), '{}'),
           coalesce(array_agg(c.call_id::text) FILTER (WHERE footnote._mentions(c.arguments::text, terms)), '{}')
    INTO hit, about
    FROM ONLY footnote.call_log AS c
    WHERE NOT c.result ? 'redacted' AND (footnote._mentions(c.result::text, terms) OR footnote._mentions(c.arguments::text, terms));
    SELECT coalesce(array_agg(DISTINCT e), '{}') INTO about_ev
    FROM ONLY footnote.call_log AS c, unnest(c.evidence_ids) AS e WHERE c.call_id::text = ANY (about);
    PERFORM set_config('footnote.redacting', 'on', true);
    FOR r IN SELECT * FROM ONLY footnote.ledger AS x
             WHERE footnote._mentions(concat_ws(' ', x.question, x.answer, x.claims::text, x.operations::text,
                                                x.evidence::text, x.findings::text, x.decision::text, x.details::text), terms)
                OR EXISTS (SELECT FROM jsonb_array_elements(x.operations) AS o WHERE (o->>'call_id')::uuid = ANY (hit))
             ORDER BY x.seq LOOP
        IF r.salts IS NULL THEN
            old_seqs := old_seqs || r.seq;
            kept := coalesce(kept, '{}') || ARRAY(SELECT (o->>'call_id')::uuid FROM jsonb_array_elements(r.operations) AS o);
            CONTINUE;
        END IF;
        s := r.salts;
        paths := '{}';
        q := r.question;
        a := r.answer;
        d := r.decision;
        t := r.details;
        IF jsonb_typeof(s->'question') = 'string' AND footnote._mentions(q, terms) THEN
            q := NULL; s := jsonb_set(s, '{question}', 'null'); paths := paths || 'question'::text;
        END IF;
        IF jsonb_typeof(s->'answer') = 'string' AND footnote._mentions(a, terms) THEN
            a := NULL; s := jsonb_set(s, '{answer}', 'null'); paths := paths || 'answer'::text;
        END IF;
        IF jsonb_typeof(s->'decision') = 'string' AND footnote._mentions(d::text, terms) THEN
            d := '{"redacted": true}'; s := jsonb_set(s, '{decision}', 'null'); paths := paths || 'decision'::text;
        END IF;
        IF jsonb_typeof(s->'details') = 'string' AND footnote._mentions(t::text, terms) THEN
            t := '{"redacted": true}'; s := jsonb_set(s, '{details}', 'null'); paths := paths || 'details'::text;
        END IF;
        SELECT * INTO l FROM footnote._redact_list(r.claims, s->'claims', terms, 'call_id', about);
        r.claims := l.parts_out; s := jsonb_set(s, '{claims}', l.salts_out);
        paths := paths || ARRAY(SELECT format('claims[%s]', i) FROM unnest(l.redacted) AS i);
        SELECT * INTO l FROM footnote._redact_list(r.operations, s->'operations', terms, 'call_id', hit::text[]);
        r.operations := l.parts_out; s := jsonb_set(s, '{operations}', l.salts_out);
        paths := paths || ARRAY(SELECT format('operations[%s]', i) FROM unnest(l.redacted) AS i);
        SELECT * INTO l FROM footnote._redact_list(r.evidence, s->'evidence', terms, 'id', about_ev);
        r.evidence := l.parts_out; s := jsonb_set(s, '{evidence}', l.salts_out);
        paths := paths || ARRAY(SELECT format('evidence[%s]', i) FROM unnest(l.redacted) AS i);
        SELECT * INTO l FROM footnote._redact_list(r.findings, s->'findings', terms, NULL, NULL);
        r.findings := l.parts_out; s := jsonb_set(s, '{findings}', l.salts_out);
        paths := paths || ARRAY(SELECT format('findings[%s]', i) FROM unnest(l.redacted) AS i);
        CONTINUE WHEN cardinality(paths) = 0;
        UPDATE ONLY footnote.ledger AS x
        SET question = q, answer = a, claims = r.claims, operations = r.operations, evidence = r.evidence,
            findings = r.findings, decision = d, details = t, salts = s
        WHERE x.id = r.id;
        n_parts := n_parts + cardinality(paths);
        done := done || jsonb_build_object('seq', r.seq, 'parts', to_jsonb(paths));
    END LOOP;
    UPDATE ONLY footnote.call_log AS c
    SET arguments = '{"redacted": true}', evidence_ids = '{}', result = jsonb_build_object('redacted', true, 'call_id', c.call_id)
    WHERE c.call_id = ANY (hit) AND NOT c.call_id = ANY (coalesce(kept, '{}'));
    GET DIAGNOSTICS calls = ROW_COUNT;
    PERFORM set_config('footnote.redacting', 'off', true);
    record_id := gen_random_uuid();
    PERFORM footnote._queue_record(record_id, jsonb_build_object('id', NULL, 'role', 'redactor'), 'decision', NULL,
        format('Redacted a %s on request %s: %s parts of %s records, %s calls.', kind, request, n_parts,
               jsonb_array_length(done), calls),
        jsonb_build_object('status', 'grounded', 'claims', '[]'::jsonb, 'operations', '[]'::jsonb,
                           'evidence', '[]'::jsonb, 'findings', '[]'::jsonb),
        jsonb_build_object('action', 'redact', 'subject', kind, 'outcome', 'grounded', 'citations', '[]'::jsonb),
        jsonb_build_object('redaction', jsonb_build_object('request', request, 'subject_kind', kind,
                                                           'records', done, 'calls', calls,
                                                           'not_redactable', to_jsonb(old_seqs))));
    records := jsonb_array_length(done);
    parts := n_parts;
    not_redactable := old_seqs;
    RETURN NEXT;
END
$$;

-- Every redaction, for auditors: who ran it, when, on which request, what kind of subject, which parts of which
-- records (never a value), how many calls, and the records sealed before version 2 that could not be redacted.
CREATE VIEW footnote.redactions AS
SELECT l.seq, l.recorded_at, l.db_role AS redacted_by, l.details->'redaction'->>'request' AS request,
       l.details->'redaction'->>'subject_kind' AS subject_kind,
       jsonb_array_length(l.details->'redaction'->'records') AS records,
       (SELECT coalesce(sum(jsonb_array_length(x->'parts')), 0) FROM jsonb_array_elements(l.details->'redaction'->'records') AS x)::integer AS parts,
       (l.details->'redaction'->>'calls')::integer AS calls,
       l.details->'redaction'->'records' AS redacted,
       l.details->'redaction'->'not_redactable' AS not_redactable
FROM ONLY footnote.ledger AS l
WHERE l.kind = 'decision' AND l.decision->>'action' = 'redact' AND l.details ? 'redaction'
  AND l.actor_role = 'redactor';
COMMENT ON VIEW footnote.redactions IS 'every redaction of a data subject: who, when, which request, which parts (never a value)';

-- Retention. footnote.prune removes the contents of the records older than the retention policy (the settings
-- retention_days.answers, .refusals, .decisions: days a kind of record is kept whole; NULL keeps it for ever), as
-- a redaction does: every part of such a version 2 record is replaced by its commitment and the calls only such
-- records cite lose their arguments, evidence ids and result (retention_days.calls: the same for a call no record
-- cites). Rows, hashes and links stay, so the chain, the Merkle tree, every receipt and every consistency proof
-- still verify. The cut is the last record pruned; the checkpoint is the tree head at the cut (its record's hash,
-- the Merkle root over records 1 to the cut), written into the prune record, which the chain holds too: who, when,
-- the policy, the cut, the checkpoint, counts per kind, never a value. Redaction and prune records are kept.

-- The retention policy: {"answers": days, ...} for each kind whose retention_days.* setting is set; a value that is
-- not a number of days (0 or more) is FN001 naming the setting.
CREATE FUNCTION footnote._retention_policy()
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    pol jsonb := '{}';
    s   record;
BEGIN
    FOR s IN SELECT substr(x.key, length('retention_days.') + 1) AS kind, btrim(x.value) AS value
             FROM footnote.settings AS x
             WHERE x.key IN ('retention_days.answers', 'retention_days.refusals', 'retention_days.decisions',
                             'retention_days.calls') AND x.value IS NOT NULL ORDER BY x.key LOOP
        IF s.value !~ '^[0-9]{1,6}(\.[0-9]{1,6})?$' THEN
            PERFORM footnote._invalid('retention_days.' || s.kind,
                                      'must be a number of days (0 or more), or NULL to keep every record', s.value);
        END IF;
        pol := pol || jsonb_build_object(s.kind, s.value::numeric);
    END LOOP;
    RETURN pol;
END
$$;

-- Which retention a sealed record falls under: answers, refusals or decisions; NULL for a redaction or prune
-- record (the audit trail of erasure is kept).
CREATE FUNCTION footnote._retention_kind(kind text, status text, decision jsonb, details jsonb)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN kind = 'decision' AND decision->>'action' IN ('redact', 'prune')
                     AND (details ? 'redaction' OR details ? 'prune') THEN NULL
                WHEN kind = 'decision' THEN 'decisions'
                WHEN status = 'refused' THEN 'refusals'
                ELSE 'answers' END
$$;

-- An array part with every element replaced by the redaction placeholder.
CREATE FUNCTION footnote._pruned_list(parts jsonb)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(jsonb_agg('{"redacted": true}'::jsonb), '[]') FROM jsonb_array_elements(parts)
$$;

-- A record's salts with every salt forgotten (JSON null), shaped as before.
CREATE FUNCTION footnote._pruned_salts(salts jsonb)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(jsonb_object_agg(s.key, CASE WHEN jsonb_typeof(s.value) = 'array'
                                                 THEN (SELECT coalesce(jsonb_agg('null'::jsonb), '[]')
                                                       FROM jsonb_array_elements(s.value))
                                                 ELSE 'null'::jsonb END), '{}')
    FROM jsonb_each(salts) AS s
$$;

-- Prune by the retention policy (run by a login of footnote_redactor, in READ COMMITTED). before: prune only records
-- sealed before this time too; up_to: only records up to this sequence number (both can only narrow the policy:
-- `footnote-pg prune --export` passes the cut of the records it exported). dry_run: count and say, change nothing.
-- One row: the prune record's id (NULL for a dry run or when nothing is beyond the policy), the cut, how many
-- records, parts and calls, how many records sealed under version 1 could not be pruned, the policy, and the
-- checkpoint (the tree head at the cut).
CREATE FUNCTION footnote.prune(dry_run boolean DEFAULT false, before timestamptz DEFAULT NULL, up_to bigint DEFAULT NULL)
RETURNS TABLE (record_id uuid, cut bigint, records integer, parts integer, calls integer, not_prunable bigint,
               policy jsonb, checkpoint jsonb)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    seqs     bigint[];
    by_kind  jsonb;
    pruned   uuid[];
    kept     uuid[];
    head     record;
    cutoffs  jsonb;
    bad      bigint;
BEGIN
    IF pg_has_role(session_user, 'footnote_service', 'MEMBER') OR pg_has_role(session_user, 'footnote_owner', 'MEMBER') THEN
        IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = session_user) THEN
            RAISE EXCEPTION USING ERRCODE = '42501',
                MESSAGE = format('%s may not prune: a prune is run by a login of footnote_redactor that is not a '
                                 'member of footnote_service or footnote_owner', session_user);
        END IF;
    END IF;
    IF up_to IS NOT NULL AND up_to < 0 THEN
        PERFORM footnote._invalid('up_to', 'must be a sequence number (0 or more)', up_to::text);
    END IF;
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION USING ERRCODE = 'FN102', MESSAGE = 'footnote.prune() must run in a READ COMMITTED transaction';
    END IF;
    policy := footnote._retention_policy();
    SELECT coalesce(jsonb_object_agg(p.key, least(now() - p.value::text::numeric * interval '1 day',
                                                  coalesce(before, 'infinity'))), '{}')
    INTO cutoffs FROM jsonb_each(policy) AS p;
    -- the chain is not held: records go on being sealed while a prune runs (a record still queued, from a writer in
    -- REPEATABLE READ, is pruned by a later prune), and what is pruned was sealed before
    -- the records beyond the policy whose parts are not all gone yet (version 1 records: counted, left)
    SELECT coalesce(array_agg(x.seq ORDER BY x.seq) FILTER (WHERE x.v2), '{}'),
           count(*) FILTER (WHERE NOT x.v2),
           coalesce(sum(x.n) FILTER (WHERE x.v2), 0),
           coalesce(jsonb_object_agg(x.k, x.c) FILTER (WHERE x.v2 AND x.first_of_kind), '{}')
    INTO seqs, not_prunable, parts, by_kind
    FROM (SELECT l.seq, l.salts IS NOT NULL AS v2, r.k,
                 (SELECT count(*) FROM jsonb_path_query(l.salts, 'strict $.** ? (@.type() == "string")')) AS n,
                 row_number() OVER (PARTITION BY r.k, l.salts IS NOT NULL ORDER BY l.seq) = 1 AS first_of_kind,
                 count(*) OVER (PARTITION BY r.k, l.salts IS NOT NULL) AS c
          FROM ONLY footnote.ledger AS l
          CROSS JOIN LATERAL (SELECT footnote._retention_kind(l.kind, l.status, l.decision, l.details) AS k) AS r
          WHERE l.recorded_at < (cutoffs->>r.k)::timestamptz
            AND (up_to IS NULL OR l.seq <= up_to)
            AND (l.salts IS NULL OR jsonb_path_exists(l.salts, 'strict $.** ? (@.type() == "string")'))) AS x;
    records := cardinality(seqs);
    cut := seqs[cardinality(seqs)];
    -- what is pruned must verify first: erasing the parts of a changed record would erase the evidence of the change
    SELECT min(l.seq) INTO bad
    FROM ONLY footnote.ledger AS l JOIN unnest(seqs) AS s(seq) ON s.seq = l.seq
    WHERE (l.canonical::jsonb = footnote._record_object(l) AND footnote.sha256_hex(l.canonical) = l.hash) IS NOT TRUE;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'XX001',
            MESSAGE = format('record %s differs from what was sealed: nothing was pruned (footnote.verify_chain() '
                             'names the change)', bad);
    END IF;
    -- the calls those records cite that no other record (sealed and not pruned, or queued) cites; and the calls
    -- no record cites that are older than retention_days.calls
    SELECT coalesce(array_agg(DISTINCT (o->>'call_id')::uuid), '{}') INTO pruned
    FROM ONLY footnote.ledger AS l JOIN unnest(seqs) AS s(seq) ON s.seq = l.seq,
         jsonb_array_elements(l.operations) AS o
    WHERE o ? 'call_id';
    SELECT coalesce(array_agg(DISTINCT x.call_id), '{}') INTO kept
    FROM (SELECT (o->>'call_id')::uuid AS call_id
          FROM ONLY footnote.ledger AS l, jsonb_array_elements(l.operations) AS o
          WHERE o ? 'call_id' AND NOT l.seq IN (SELECT unnest(seqs))
          UNION ALL
          SELECT (o->>'call_id')::uuid FROM ONLY footnote.ledger_queue AS q, jsonb_array_elements(q.operations) AS o
          WHERE o ? 'call_id') AS x;
    SELECT count(*) INTO calls
    FROM ONLY footnote.call_log AS c
    WHERE NOT c.result ? 'redacted' AND NOT c.call_id IN (SELECT unnest(kept))
      AND (c.call_id IN (SELECT unnest(pruned))
           OR (c.called_at < (cutoffs->>'calls')::timestamptz
               AND NOT EXISTS (SELECT FROM ONLY footnote.call_attempts AS a WHERE a.call_id = c.call_id)
               AND NOT EXISTS (SELECT FROM ONLY footnote.call_use AS u WHERE u.call_id = c.call_id)));
    IF cut IS NOT NULL THEN
        -- the tree head at the cut, from the stored tree; extended first only when it does not reach the cut (the
        -- extension's lock is then held until commit: footnote-pg prune extends it in its dry run before)
        IF coalesce((SELECT max(n.idx) + 1 FROM ONLY footnote.merkle_nodes AS n WHERE n.level = 0), 0) < cut THEN
            PERFORM footnote._merkle_extend();
        END IF;
        SELECT l.hash, l.recorded_at INTO head FROM ONLY footnote.ledger AS l WHERE l.seq = cut;
        checkpoint := jsonb_build_object('tree_size', cut, 'root_hash', encode(footnote._merkle_root(0, cut), 'hex'),
                                         'seq', cut, 'hash', head.hash,
                                         'recorded_at', to_char(head.recorded_at AT TIME ZONE 'UTC',
                                                                'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'));
    END IF;
    IF dry_run OR (records = 0 AND calls = 0) THEN
        RETURN NEXT;
        RETURN;
    END IF;
    PERFORM set_config('footnote.redacting', 'on', true);
    UPDATE ONLY footnote.ledger AS x
    SET question = NULL, answer = NULL,
        claims = footnote._pruned_list(x.claims), operations = footnote._pruned_list(x.operations),
        evidence = footnote._pruned_list(x.evidence), findings = footnote._pruned_list(x.findings),
        decision = CASE WHEN jsonb_typeof(x.salts->'decision') IS NOT NULL THEN '{"redacted": true}' ELSE x.decision END,
        details = CASE WHEN jsonb_typeof(x.salts->'details') IS NOT NULL THEN '{"redacted": true}' ELSE x.details END,
        salts = footnote._pruned_salts(x.salts)
    FROM unnest(seqs) AS s(seq)
    WHERE x.seq = s.seq;
    UPDATE ONLY footnote.call_log AS c
    SET arguments = '{"redacted": true}', evidence_ids = '{}', result = jsonb_build_object('redacted', true, 'call_id', c.call_id)
    WHERE NOT c.result ? 'redacted' AND NOT c.call_id IN (SELECT unnest(kept))
      AND (c.call_id IN (SELECT unnest(pruned))
           OR (c.called_at < (cutoffs->>'calls')::timestamptz
               AND NOT EXISTS (SELECT FROM ONLY footnote.call_attempts AS a WHERE a.call_id = c.call_id)
               AND NOT EXISTS (SELECT FROM ONLY footnote.call_use AS u WHERE u.call_id = c.call_id)));
    PERFORM set_config('footnote.redacting', 'off', true);
    record_id := gen_random_uuid();
    PERFORM footnote._queue_record(record_id, jsonb_build_object('id', NULL, 'role', 'pruner'), 'decision', NULL,
        CASE WHEN cut IS NULL THEN format('Pruned %s calls by the retention policy.', calls)
             ELSE format('Pruned the contents of %s records up to record %s by the retention policy: %s parts, %s calls.',
                         records, cut, parts, calls) END,
        jsonb_build_object('status', 'grounded', 'claims', '[]'::jsonb, 'operations', '[]'::jsonb,
                           'evidence', '[]'::jsonb, 'findings', '[]'::jsonb),
        jsonb_build_object('action', 'prune', 'subject', 'retention', 'outcome', 'grounded', 'citations', '[]'::jsonb),
        jsonb_build_object('prune', jsonb_build_object('policy', policy, 'cutoffs', cutoffs, 'before', before,
                                                       'up_to', up_to, 'cut', cut, 'checkpoint', checkpoint,
                                                       'records', records, 'by_kind', by_kind, 'parts', parts,
                                                       'calls', calls, 'not_prunable', not_prunable)));
    RETURN NEXT;
END
$$;

-- Every prune, for auditors: who ran it, when, the policy, the cut and its checkpoint (the tree head at the cut:
-- tree_size, root_hash, the cut record's hash), how many records (per kind), parts and calls; never a value.
CREATE VIEW footnote.prunes AS
SELECT l.seq, l.recorded_at, l.db_role AS pruned_by, l.details->'prune'->'policy' AS policy,
       (l.details->'prune'->>'cut')::bigint AS cut, (l.details->'prune'->>'records')::integer AS records,
       l.details->'prune'->'by_kind' AS by_kind, (l.details->'prune'->>'parts')::integer AS parts,
       (l.details->'prune'->>'calls')::integer AS calls, l.details->'prune'->'checkpoint' AS checkpoint,
       (l.details->'prune'->>'not_prunable')::bigint AS not_prunable
FROM ONLY footnote.ledger AS l
WHERE l.kind = 'decision' AND l.decision->>'action' = 'prune' AND l.details ? 'prune' AND l.actor_role = 'pruner';
COMMENT ON VIEW footnote.prunes IS 'every prune by the retention policy: who, when, policy, cut, checkpoint, counts (never a value)';
