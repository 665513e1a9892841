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
