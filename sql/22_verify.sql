-- footnote-pg: verification, digests and re-attestation.
--
-- verify_chain() names the first bad record, as a walk in sequence order
-- would (but in two set-based passes, see below): sequence_gap (a record is
-- missing), reordered (a record sits at another place than the one it was
-- sealed at, or its time runs backwards), content_changed (a column differs
-- from what was sealed, or the sealed text differs from its hash), link_broken
-- (prev_hash is not the previous hash).
-- A history rewritten consistently (every hash recomputed) passes it; only a
-- digest kept outside the database catches that, with verify_digest().

-- Whether a call-log row's columns say what its result (which its hash covers) says: call id, time, operation,
-- arguments, actor and the evidence ids, in order. So the hash covers every column a record relies on.
CREATE FUNCTION footnote._call_columns_agree(c footnote.call_log)
RETURNS boolean
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT c.call_id::text = c.result->>'call_id'
       AND c.called_at = (c.result->>'called_at')::timestamptz
       AND c.operation = c.result->>'operation'
       AND c.arguments = c.result->'arguments'
       AND c.actor_id IS NOT DISTINCT FROM c.result->'actor'->>'id'
       AND c.actor_role IS NOT DISTINCT FROM c.result->'actor'->>'role'
       AND c.evidence_ids = ARRAY(SELECT e->>'id' FROM jsonb_array_elements(coalesce(c.result->'evidence', '[]'))
                                                   WITH ORDINALITY AS x(e, n) ORDER BY x.n)
$$;

-- The first record whose cited calls do not back it (docs/threat-model.md), in sequence order and call order:
-- call_missing (not in the call log), call_changed (another result hash or operation than the record holds, or
-- columns that no longer agree with the hashed result),
-- call_not_theirs (made by another role or actor than the record's), not_from_gate (the gate did not mark the
-- call as used by this record, or, for an answer it did not accept, as tried by it); then record_lost: a call the gate marked as used by a record that is neither
-- in the ledger nor in the queue (a queued record deleted). NULL when every record is backed.
CREATE FUNCTION footnote._unbacked_record()
RETURNS TABLE (seq bigint, problem text, detail text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    (SELECT l.seq,
            CASE WHEN c.call_id IS NULL THEN 'call_missing'
                 WHEN c.result_hash IS DISTINCT FROM o.op->>'result_hash' OR c.operation IS DISTINCT FROM o.op->>'operation'
                      OR NOT footnote._call_columns_agree(c) THEN 'call_changed'
                 WHEN c.db_role IS DISTINCT FROM l.db_role OR c.actor_id IS DISTINCT FROM l.actor_id
                      OR c.actor_role IS DISTINCT FROM l.actor_role THEN 'call_not_theirs'
                 ELSE 'not_from_gate' END,
            CASE WHEN c.call_id IS NULL THEN format('record %s cites call %s, which is not in the call log', l.seq, o.op->>'call_id')
                 WHEN c.result_hash IS DISTINCT FROM o.op->>'result_hash' OR c.operation IS DISTINCT FROM o.op->>'operation'
                     THEN format('record %s cites call %s as %s with result hash %s…; the call log holds %s with %s…',
                                 l.seq, c.call_id, o.op->>'operation', left(o.op->>'result_hash', 12), c.operation,
                                 left(c.result_hash, 12))
                 WHEN NOT footnote._call_columns_agree(c)
                     THEN format('record %s cites call %s, whose call_id, called_at, operation, arguments, actor or '
                                 'evidence_ids no longer agree with the result its hash covers', l.seq, c.call_id)
                 WHEN c.db_role IS DISTINCT FROM l.db_role OR c.actor_id IS DISTINCT FROM l.actor_id
                      OR c.actor_role IS DISTINCT FROM l.actor_role
                     THEN format('record %s (%s / %s) cites call %s made by %s / %s', l.seq, l.db_role,
                                 coalesce(l.actor_id, '-'), c.call_id, c.db_role, coalesce(c.actor_id, '-'))
                 WHEN u.record_id IS NULL AND NOT a.tried
                     THEN format('record %s cites call %s, which the gate never marked as used: it did not come through the gate',
                                 l.seq, c.call_id)
                 WHEN u.record_id IS NULL
                     THEN format('record %s is accepted, but the gate never marked call %s as used by an accepted record',
                                 l.seq, c.call_id)
                 ELSE format('record %s cites call %s, which the gate marked as used by record %s', l.seq, c.call_id, u.record_id) END
     FROM ONLY footnote.ledger AS l
     CROSS JOIN LATERAL jsonb_array_elements(l.operations) WITH ORDINALITY AS o(op, n)
     LEFT JOIN ONLY footnote.call_log AS c ON c.call_id = (o.op->>'call_id')::uuid
     LEFT JOIN ONLY footnote.call_use AS u ON u.call_id = (o.op->>'call_id')::uuid
     CROSS JOIN LATERAL (SELECT EXISTS (SELECT FROM ONLY footnote.call_attempts AS x
                                        WHERE x.call_id = (o.op->>'call_id')::uuid AND x.record_id = l.id) AS tried) AS a
     WHERE o.op <> '{"redacted": true}'::jsonb  -- a redacted operation: its call was redacted with it
       AND (c.call_id IS NULL OR c.result_hash IS DISTINCT FROM o.op->>'result_hash' OR NOT footnote._call_columns_agree(c)
        OR c.operation IS DISTINCT FROM o.op->>'operation' OR c.db_role IS DISTINCT FROM l.db_role
        OR c.actor_id IS DISTINCT FROM l.actor_id OR c.actor_role IS DISTINCT FROM l.actor_role
        OR (u.record_id IS DISTINCT FROM l.id
            -- an attempt the gate did not accept is backed by call_attempts; an accepted one only by call_use
            AND NOT (a.tried AND (l.kind = 'answer' AND l.status NOT IN ('verified', 'partially_verified')))))
     ORDER BY l.seq, o.n
     LIMIT 1)
    UNION ALL
    (SELECT NULL::bigint, 'record_lost',
            format('call %s was used by record %s, which is neither in the ledger nor in the queue', u.call_id, u.record_id)
     FROM (SELECT call_id, record_id FROM ONLY footnote.call_use
           UNION SELECT call_id, record_id FROM ONLY footnote.call_attempts) AS u
     WHERE NOT EXISTS (SELECT FROM ONLY footnote.ledger AS l WHERE l.id = u.record_id)
       AND NOT EXISTS (SELECT FROM ONLY footnote.ledger_queue AS q WHERE q.id = u.record_id)
     ORDER BY u.call_id, u.record_id
     LIMIT 1)
    LIMIT 1
$$;

-- What is wrong with record r, which follows prev in sequence order (prev NULL: r is the first record): the first
-- problem, in the order the Python verifier checks (footnote_pg/chainwalk.py: place, sealed content, hash, link,
-- time), and the record it names; NULL when nothing is.
CREATE FUNCTION footnote._record_problem(r footnote.ledger, prev footnote.ledger,
                                         OUT problem text, OUT detail text, OUT bad_seq bigint)
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    expected  bigint := coalesce(prev.seq, 0) + 1;
    prev_hash text := coalesce(prev.hash, repeat('0', 64));
    sealed    jsonb;
BEGIN
    bad_seq := r.seq;
    IF r.seq > expected THEN
        problem := 'sequence_gap';
        detail := CASE WHEN r.seq = expected + 1 THEN format('record %s is missing', expected)
                       ELSE format('records %s to %s are missing', expected, r.seq - 1) END;
        bad_seq := expected;
        RETURN;
    END IF;
    sealed := r.canonical::jsonb;
    IF (sealed->>'seq')::bigint IS DISTINCT FROM r.seq THEN
        problem := 'reordered';
        detail := format('record %s was sealed as record %s', r.seq, coalesce(sealed->>'seq', '?'));
    ELSIF sealed IS DISTINCT FROM footnote._record_object(r) THEN
        problem := 'content_changed';
        detail := format('record %s differs from what was sealed in: %s', r.seq,
            (SELECT string_agg(k.key, ', ' ORDER BY k.key) FROM jsonb_each(footnote._record_object(r)) AS k
             WHERE k.value IS DISTINCT FROM sealed->k.key));
    ELSIF footnote.sha256_hex(r.canonical) <> r.hash THEN
        problem := 'content_changed';
        detail := format('record %s: the sealed text does not hash to its hash', r.seq);
    ELSIF r.prev_hash <> prev_hash THEN
        problem := 'link_broken';
        detail := format('record %s points to %s…, but record %s has hash %s…', r.seq, left(r.prev_hash, 12),
                         r.seq - 1, left(prev_hash, 12));
    ELSIF r.recorded_at < prev.recorded_at THEN
        problem := 'reordered';
        detail := format('record %s was recorded before record %s', r.seq, r.seq - 1);
    END IF;
EXCEPTION WHEN data_exception THEN  -- the sealed text is not JSON (or not the record's)
    problem := 'content_changed';
    detail := format('record %s: the sealed text is not the JSON of a record (%s)', r.seq, SQLERRM);
    bad_seq := r.seq;
END
$$;

-- The first record (in sequence order) whose columns differ from its sealed text or whose sealed text does not
-- hash to its hash; one pass over the ledger, in parallel where the server allows (RETURN QUERY may run a
-- parallel plan, SELECT INTO may not). Raises data_exception when a sealed text is not JSON.
CREATE FUNCTION footnote._first_changed_record()
RETURNS SETOF bigint
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY
        SELECT min(l.seq) FILTER (WHERE (l.canonical::jsonb = footnote._record_object(l)
                                         AND footnote.sha256_hex(l.canonical) = l.hash) IS NOT TRUE)
        FROM ONLY footnote.ledger AS l;
END
$$;

-- Check the chain; one row: ok, counts, head, and the first bad record with the problem. Then the calls behind
-- every record (footnote._unbacked_record). Two set-based passes find the first bad record; it alone is diagnosed
-- (footnote._record_problem), so the report is the one a walk in sequence order would give.
CREATE FUNCTION footnote.verify_chain()
RETURNS TABLE (ok boolean, records bigint, head_seq bigint, head_hash text, first_bad_seq bigint,
               problem text, detail text, pending bigint)
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bad       bigint;
    walk      boolean := false;
    walked_to bigint;
    r         footnote.ledger;
    prev      footnote.ledger;
BEGIN
    SELECT count(*) INTO pending FROM ONLY footnote.ledger_queue;
    -- a table inheriting from one of ours (a child or a partition) is tampering, whatever it holds: reads name our
    -- tables with ONLY, but a reader that does not would see its rows
    SELECT 'child_table', format('%I.%I inherits from footnote.%I: nothing may', n.nspname, k.relname, c.relname)
    INTO problem, detail
    FROM pg_inherits AS i JOIN pg_class AS c ON c.oid = i.inhparent JOIN pg_class AS k ON k.oid = i.inhrelid
    JOIN pg_namespace AS n ON n.oid = k.relnamespace
    WHERE c.relnamespace = 'footnote'::regnamespace
    ORDER BY c.relname, n.nspname, k.relname LIMIT 1;
    IF problem IS NOT NULL THEN
        ok := false;
        SELECT count(*) INTO records FROM ONLY footnote.ledger;
        SELECT l.seq, l.hash INTO head_seq, head_hash FROM ONLY footnote.ledger AS l ORDER BY l.seq DESC LIMIT 1;
        RETURN NEXT;
        RETURN;
    END IF;
    -- set-based: the first record out of line (sequence, time, prev_hash: one ordered pass), then the first whose
    -- content or hash is not what was sealed; the earlier of the two is diagnosed alone
    SELECT min(x.seq) INTO bad
    FROM (SELECT l.seq, l.recorded_at, l.prev_hash, lag(l.seq) OVER w AS prev_seq, lag(l.hash) OVER w AS prev_hash_is,
                 lag(l.recorded_at) OVER w AS prev_time
          FROM ONLY footnote.ledger AS l WINDOW w AS (ORDER BY l.seq)) AS x
    WHERE x.seq <> coalesce(x.prev_seq, 0) + 1 OR x.prev_hash <> coalesce(x.prev_hash_is, repeat('0', 64))
          OR x.recorded_at < x.prev_time;
    BEGIN
        SELECT least(bad, c) INTO bad FROM footnote._first_changed_record() AS c;
    EXCEPTION WHEN data_exception THEN  -- a sealed text that is not JSON: find the first bad record one by one
        walk := true;
    END;
    IF NOT walk AND bad IS NOT NULL THEN
        SELECT * INTO r FROM ONLY footnote.ledger AS l WHERE l.seq = bad;
        SELECT * INTO prev FROM ONLY footnote.ledger AS l WHERE l.seq < bad ORDER BY l.seq DESC LIMIT 1;
        SELECT * INTO problem, detail, first_bad_seq FROM footnote._record_problem(r, prev);
        walk := problem IS NULL;  -- a pass and the diagnosis disagree: never report ok, walk the whole chain
    END IF;
    IF walk THEN
        prev := NULL;
        FOR r IN SELECT * FROM ONLY footnote.ledger AS l ORDER BY l.seq LOOP
            SELECT * INTO problem, detail, first_bad_seq FROM footnote._record_problem(r, prev);
            EXIT WHEN problem IS NOT NULL;
            prev := r;
        END LOOP;
    END IF;
    IF problem IS NOT NULL THEN
        walked_to := r.seq;  -- a walk in sequence order counts the records up to and including this one
    ELSE
        SELECT u.problem, u.detail, u.seq INTO problem, detail, first_bad_seq FROM footnote._unbacked_record() AS u;
    END IF;
    ok := problem IS NULL;
    IF ok THEN  -- redacted parts are not tampering: they stand for their sealed commitments; say how many
        SELECT CASE WHEN count(*) > 0 THEN format('%s parts of %s records redacted (footnote.redactions)',
                                                  sum(x.n), count(*)) END
        INTO detail
        FROM (SELECT (SELECT count(*) FROM jsonb_path_query(l.salts, 'strict $.** ? (@ == null)')) AS n
              FROM ONLY footnote.ledger AS l WHERE strpos(l.salts::text, 'null') > 0) AS x;
        -- pruned by the retention policy: the records up to the last prune's cut are vouched for by its checkpoint
        -- (the tree head at the cut, sql/25_erasure.sql), which must still be the chain's there
        SELECT CASE WHEN p.cut IS NULL THEN detail
                    WHEN l.hash IS DISTINCT FROM p.checkpoint->>'hash'
                         OR encode(footnote._merkle_root(0, p.cut), 'hex') IS DISTINCT FROM p.checkpoint->>'root_hash'
                        THEN NULL
                    ELSE concat_ws('; ',
                                   replace(detail, ' redacted (footnote.redactions)',
                                           ' redacted or pruned (footnote.redactions, footnote.prunes)'),
                                   format('pruned up to record %s: verified from the checkpoint at record %s '
                                          '(root %s…, footnote.prunes)', p.cut, p.cut,
                                          left(p.checkpoint->>'root_hash', 16))) END,
               p.cut IS NOT NULL AND (l.hash IS DISTINCT FROM p.checkpoint->>'hash'
                    OR encode(footnote._merkle_root(0, p.cut), 'hex') IS DISTINCT FROM p.checkpoint->>'root_hash'),
               p.seq
        INTO detail, walk, first_bad_seq
        FROM (SELECT x.seq, (x.details->'prune'->>'cut')::bigint AS cut, x.details->'prune'->'checkpoint' AS checkpoint
              FROM ONLY footnote.ledger AS x
              WHERE x.kind = 'decision' AND x.decision->>'action' = 'prune' AND x.details ? 'prune'
                AND x.actor_role = 'pruner' AND x.details->'prune'->>'cut' IS NOT NULL
              ORDER BY x.seq DESC LIMIT 1) AS p
        LEFT JOIN ONLY footnote.ledger AS l ON l.seq = p.cut
        RIGHT JOIN (SELECT) AS one ON true;
        IF walk THEN
            ok := false;
            problem := 'checkpoint_mismatch';
            detail := format('record %s prunes up to record %s behind a checkpoint that is not the chain''s tree head '
                             'there', first_bad_seq, (SELECT (x.details->'prune'->>'cut')::bigint FROM ONLY footnote.ledger AS x
                                                      WHERE x.seq = first_bad_seq));
        ELSE
            first_bad_seq := NULL;
        END IF;
    END IF;
    SELECT count(*) INTO records FROM ONLY footnote.ledger AS l WHERE walked_to IS NULL OR l.seq <= walked_to;
    SELECT l.seq, l.hash INTO head_seq, head_hash FROM ONLY footnote.ledger AS l ORDER BY l.seq DESC LIMIT 1;
    RETURN NEXT;
END
$$;

-- Grade a sealed answer again against the calls it cites, with the inputs the gate kept (details.gate; an agent's
-- text needs none): NULL when it grades the same (status, claims, findings, evidence), else what differs; the
-- text 'not_regradable' for a decision or an answer recorded before revision 0015 (which kept no inputs).
CREATE FUNCTION footnote._regrade(l footnote.ledger)
RETURNS text
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ids uuid[] := ARRAY(SELECT (o->>'call_id')::uuid FROM jsonb_array_elements(l.operations) WITH ORDINALITY AS x(o, n)
                        ORDER BY x.n);
    tpl jsonb := CASE WHEN jsonb_typeof(l.details->'gate'->'template') = 'object' THEN l.details->'gate'->'template' END;
    -- the settings the gate graded with (records from before revision 0037 name none: those of today)
    gs  jsonb := CASE WHEN jsonb_typeof(l.details->'gate'->'settings') = 'object' THEN l.details->'gate'->'settings' END;
    idx jsonb;
    g   jsonb;
BEGIN
    IF l.kind <> 'answer' OR NOT (l.details ? 'gate' OR l.details->>'origin' = 'agent') THEN
        RETURN 'not_regradable';
    END IF;
    idx := footnote._call_index(ids, NULL);
    IF l.details->>'origin' = 'agent' THEN
        g := footnote._grade(l.answer, NULL, idx, footnote._template_of(NULL, l.question, idx, ids, true, gs), 'answer');
    ELSIF (l.details->'narration'->>'kept')::boolean IS TRUE THEN
        g := footnote._grade(l.answer, NULL, idx,
                             footnote._template_of(tpl, l.question, idx, ids, false, gs), 'answer');
    ELSE
        g := footnote._grade(l.answer, CASE WHEN jsonb_typeof(l.details->'gate'->'claims') = 'array'
                                            THEN l.details->'gate'->'claims' END, idx,
                             footnote._template_of(tpl, l.question, idx, ids, false, gs),
                             coalesce(l.details->>'outcome', 'answer'));
    END IF;
    RETURN CASE WHEN g->>'status' IS DISTINCT FROM l.status
                    THEN format('graded again it is %s, not %s', g->>'status', l.status)
                WHEN g->'claims' IS DISTINCT FROM l.claims THEN 'graded again its claims get other verdicts'
                WHEN g->'findings' IS DISTINCT FROM l.findings THEN 'graded again it has other findings'
                WHEN coalesce(g->'evidence', '[]') IS DISTINCT FROM l.evidence THEN 'graded again it cites other evidence'
           END;
END
$$;

-- Every sealed answer with first_seq <= seq <= last_seq (NULL: from the first, to the last) graded again against the
-- calls it cites (footnote._regrade): how many graded as sealed, how many could not be graded (decisions, answers
-- recorded before revision 0015), and the first whose verdict differs (NULL when none). `footnote-pg verify
-- --regrade` runs it on several connections, each over a part of the chain.
CREATE FUNCTION footnote.regrade(first_seq bigint DEFAULT NULL, last_seq bigint DEFAULT NULL)
RETURNS TABLE (graded bigint, skipped bigint, first_bad_seq bigint, detail text)
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    r    footnote.ledger;
    diff text;
BEGIN
    first_seq := CASE WHEN first_seq IS NOT NULL THEN footnote._seq_arg('first_seq', first_seq) END;
    last_seq := CASE WHEN last_seq IS NOT NULL THEN footnote._seq_arg('last_seq', last_seq) END;
    graded := 0;
    skipped := 0;
    FOR r IN SELECT * FROM ONLY footnote.ledger AS l
             WHERE l.seq >= coalesce(first_seq, 1) AND l.seq <= coalesce(last_seq, l.seq) ORDER BY l.seq LOOP
        diff := footnote._regrade(r);
        IF diff = 'not_regradable' THEN
            skipped := skipped + 1;
        ELSIF diff IS NOT NULL THEN
            first_bad_seq := r.seq;
            detail := format('record %s: %s', r.seq, diff);
            EXIT;
        ELSE
            graded := graded + 1;
        END IF;
    END LOOP;
    RETURN NEXT;
END
$$;

-- verify_chain(), then, when the chain is intact and regrade is true, every sealed answer graded again against the
-- calls it cites (footnote.regrade): the first whose verdict differs is regraded_differently. detail also says
-- how many records could not be regraded (decisions, answers recorded before revision 0015).
CREATE FUNCTION footnote.verify_chain(regrade boolean)
RETURNS TABLE (ok boolean, records bigint, head_seq bigint, head_hash text, first_bad_seq bigint,
               problem text, detail text, pending bigint)
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    g record;
BEGIN
    SELECT * INTO ok, records, head_seq, head_hash, first_bad_seq, problem, detail, pending FROM footnote.verify_chain();
    IF ok AND regrade THEN
        SELECT * INTO g FROM footnote.regrade(NULL, NULL);
        IF g.first_bad_seq IS NOT NULL THEN
            ok := false;
            first_bad_seq := g.first_bad_seq;
            problem := 'regraded_differently';
            detail := g.detail;
        ELSE
            detail := format('%s records graded again, each as it was sealed; %s not regradable (decisions, answers '
                             'recorded before revision 0015)', g.graded, g.skipped);
        END IF;
    END IF;
    RETURN NEXT;
END
$$;

-- Hash every cited call's result again; the first record, in sequence order, citing a call whose result no
-- longer hashes to its result hash: call_result_changed. A result hash is over the result's jsonb text, or, for
-- a call logged before revision 0013, over its canonical JSON (docs/hash-spec.md, section 8; slow in SQL, so
-- only where the jsonb text does not match).
CREATE FUNCTION footnote.verify_calls()
RETURNS TABLE (ok boolean, calls bigint, first_bad_seq bigint, problem text, detail text)
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    SELECT count(*) INTO calls FROM ONLY footnote.call_use;
    SELECT l.seq, 'call_result_changed',
           format('call %s, cited by record %s, no longer hashes to its result hash %s…: its result was changed in '
                  'the call log', c.call_id, l.seq, left(c.result_hash, 12))
    INTO first_bad_seq, problem, detail
    FROM ONLY footnote.ledger AS l
    CROSS JOIN LATERAL jsonb_array_elements(l.operations) AS o(op)
    JOIN ONLY footnote.call_log AS c ON c.call_id = (o.op->>'call_id')::uuid
    WHERE CASE WHEN footnote.sha256_hex(c.result::text) = c.result_hash THEN false
               ELSE footnote.sha256_hex(footnote._canonical_json(c.result)) IS DISTINCT FROM c.result_hash END
    ORDER BY l.seq
    LIMIT 1;
    ok := problem IS NULL;
    RETURN NEXT;
END
$$;

-- The chain head: what a digest records (sequence, hash, time).
CREATE FUNCTION footnote.chain_head()
RETURNS TABLE (seq bigint, hash text, recorded_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT l.seq, l.hash, l.recorded_at FROM ONLY footnote.ledger AS l ORDER BY l.seq DESC LIMIT 1
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
    digest_seq := footnote._seq_arg('digest_seq', digest_seq);
    digest_hash := footnote._hash_arg('digest_hash', digest_hash);
    SELECT l.hash INTO found_hash FROM ONLY footnote.ledger AS l WHERE l.seq = digest_seq;
    SELECT max(l.seq) INTO head FROM ONLY footnote.ledger AS l;
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
    mine     record;
    cited    bigint;
    same_scope bigint;
    other_scope text;
BEGIN
    record_seq := footnote._seq_arg('seq', record_seq);
    SELECT * INTO rec FROM ONLY footnote.ledger AS l WHERE l.seq = record_seq;
    -- the access scope its calls were computed under (sql/03_scopes.sql): to a session under a scope, a record
    -- whose calls were not all computed under that very scope (its id and the digest of its definition now) does
    -- not exist, as a call made under another scope was never made (its claims name what the scope does not
    -- see); a session without a scope is told under which scope to re-attest one
    SELECT s.id, s.digest INTO mine FROM footnote._session_scope() AS s;
    SELECT count(*), count(*) FILTER (WHERE c.result->'scope'->>'id' IS NOT DISTINCT FROM mine.id
                                        AND c.result->'scope'->>'digest' IS NOT DISTINCT FROM mine.digest),
           min(c.result->'scope'->>'id')
    INTO cited, same_scope, other_scope
    FROM jsonb_array_elements(rec.operations) AS o
    JOIN ONLY footnote.call_log AS c ON c.call_id = (o->>'call_id')::uuid
    WHERE o->>'call_id' IS NOT NULL;
    IF rec.id IS NOT NULL AND mine.id IS NOT NULL AND (cited = 0 OR same_scope < cited) THEN
        rec := NULL;
    END IF;
    IF rec.id IS NULL THEN
        PERFORM footnote._invalid('seq', format('there is no ledger record %s', record_seq), record_seq::text);
    END IF;
    IF mine.id IS NULL AND other_scope IS NOT NULL THEN
        PERFORM footnote._invalid('seq', format('record %s was computed under access scope %s: re-attest it as a '
                                                'login of that scope', record_seq, other_scope), record_seq::text);
    END IF;
    -- a redacted operation is not run again, a redacted claim is reported as redacted (its text is gone)
    FOR op IN SELECT value FROM jsonb_array_elements(rec.operations) WHERE value <> '{"redacted": true}' LOOP
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
        IF claim = '{"redacted": true}' THEN
            text := NULL; value_path := NULL; old_text := NULL; new_text := NULL; operation := NULL;
            new_call_id := NULL; verdict := 'redacted';
            RETURN NEXT;
            CONTINUE;
        END IF;
        text := claim->>'text';
        value_path := claim->>'value';
        old_text := claim->>'text';
        res := fresh->(claim->>'call_id');
        operation := res->>'operation';
        new_call_id := (res->>'call_id')::uuid;
        SELECT t.text INTO new_text FROM footnote._result_texts(res) AS t WHERE t.path = claim->>'value';
        verdict := CASE WHEN value_path IS NULL THEN 'not_grounded'
                        WHEN res IS NULL THEN 'redacted'  -- its call was redacted: not run again
                        WHEN new_text IS NULL THEN 'changed'
                        WHEN new_text = old_text THEN 'still_holds' ELSE 'changed' END;
        RETURN NEXT;
    END LOOP;
    FOR cit IN SELECT value FROM jsonb_array_elements(CASE WHEN jsonb_typeof(rec.decision->'citations') = 'array'
                                                           THEN rec.decision->'citations' ELSE '[]' END) LOOP
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
        verdict := CASE WHEN res IS NULL OR (old_ev IS NULL AND rec.evidence @> '[{"redacted": true}]') THEN 'redacted'
                        WHEN old_ev IS NULL THEN 'not_grounded'
                        WHEN new_ev IS NULL THEN 'changed'
                        WHEN old_ev = new_ev THEN 'still_holds' ELSE 'changed' END;
        RETURN NEXT;
    END LOOP;
END
$$;
