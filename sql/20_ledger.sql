-- footnote-pg: the provenance ledger.
--
-- One append-only, hash-chained table. Records enter only through the gate
-- (footnote.record_answer / submit_answer / record_decision), which writes them
-- to footnote.ledger_queue. They are sealed into footnote.ledger at COMMIT by a
-- deferred constraint trigger: holding the chain lock (a row lock on
-- footnote.chain_lock, a table only footnote_owner can touch), the ledger's
-- BEFORE INSERT trigger takes the queued record out of the queue and assigns
-- the next sequence number (from the committed head, read under that lock),
-- the previous record's hash, the time (clock_timestamp(), never before the
-- previous record's), the canonical text (docs/hash-spec.md) and its SHA-256.
--
-- Why it cannot fork or leave a gap:
--  * the head is read under the lock, in a READ COMMITTED statement, so it is
--    the latest committed head; a writer in REPEATABLE READ or SERIALIZABLE
--    (whose snapshot may be older) does not seal at all: its records wait in
--    the queue and the next READ COMMITTED seal (any commit, footnote.seal()
--    or footnote.receipt()) takes them;
--  * sequence numbers come from the head, not a SEQUENCE, so a rollback
--    consumes none; sealing happens inside the committing transaction, so a
--    failed commit leaves neither record nor number;
--  * UNIQUE (seq) and UNIQUE (prev_hash) make any fork fail loudly.
--
-- Why no one can hold up recording:
--  * the chain lock is a row of a table of footnote_ledger's: no login can
--    take it but through our functions (an advisory key could be taken by
--    anyone);
--  * sealing happens only at COMMIT: when the deferred trigger is fired early
--    (SET CONSTRAINTS ... IMMEDIATE, PREPARE TRANSACTION, a COMMIT inside a
--    procedure) it seals nothing and the records wait in the queue;
--  * at COMMIT the seal does not wait for the lock: when another transaction
--    holds it (for longer than seal_commit_wait, 0 by default), the records
--    stay queued (committed, append-only) and the next seal takes them with
--    every other committed one, in one batch (group sealing: a busy chain
--    seals many records per lock and per commit flush); footnote.seal() and
--    footnote.receipt() wait at most seal_lock_timeout; then, when the holder
--    is idle in its transaction or has been running its statement at least
--    that long, they end its session (pg_terminate_backend, footnote._take_over)
--    and take the lock, else raise FN106;
--  * a transaction that sealed by seal() or receipt() runs an UNLISTEN, and
--    PostgreSQL refuses to PREPARE such a transaction: the lock is never left
--    with a prepared transaction.
--
-- What sealing costs under the lock is small: the gate writes each record's
-- canonical text when it queues it, but for the three members sealing
-- assigns (footnote._canonical_parts), so the seal joins four strings and
-- hashes them.
--
-- Who may write what is a matter of privileges: every table here belongs to
-- footnote_ledger, a NOLOGIN role no login is a member of, and only its
-- SECURITY DEFINER functions (the gate, sealing) write them:
--  * footnote.ledger_queue and footnote.call_use: rows only from the gate,
--    through footnote._queue_record; a queued record leaves the queue only by
--    being sealed (the ledger's BEFORE INSERT trigger takes it out); UPDATE
--    and TRUNCATE raise FN101;
--  * footnote.ledger: only records taken out of the queue; whatever else an
--    INSERT names is replaced by the queued record; UPDATE, DELETE and
--    TRUNCATE raise FN101 for every role.
-- Reads name their table with ONLY, so a child table (which only a superuser
-- could attach) adds nothing; verification reports one as tampering.
-- A superuser can disable triggers; verify_chain() (the calls behind each
-- record, the queue behind each used call, regrading) and a digest kept
-- elsewhere catch what follows.

-- Sealed records: the chain.
CREATE TABLE footnote.ledger (
    id           uuid PRIMARY KEY,
    seq          bigint NOT NULL UNIQUE CHECK (seq > 0),
    recorded_at  timestamptz NOT NULL,
    db_role      text NOT NULL,
    actor_id     text,
    actor_role   text,
    kind         text NOT NULL CHECK (kind IN ('answer', 'decision')),
    question     text,
    answer       text,
    status       text NOT NULL,
    claims       jsonb NOT NULL,
    operations   jsonb NOT NULL,
    evidence     jsonb NOT NULL,
    findings     jsonb NOT NULL,
    decision     jsonb,
    details      jsonb,
    prev_hash    text NOT NULL UNIQUE CHECK (prev_hash ~ '^[0-9a-f]{64}$'),
    canonical    text NOT NULL,
    hash         text NOT NULL UNIQUE CHECK (hash ~ '^[0-9a-f]{64}$'),
    CHECK ((kind = 'decision') = (decision IS NOT NULL)),
    CHECK (status IN ('verified', 'partially_verified', 'ambiguous', 'insufficient_evidence', 'refused',
                      'grounded', 'unverified', 'fabricated', 'unsupported')),
    salts        jsonb  -- version 2 (docs/hash-spec.md): the salt of each part's commitment; NULL: version 1
);
CREATE INDEX ledger_recorded_at_idx ON footnote.ledger (recorded_at);
COMMENT ON TABLE footnote.ledger IS 'the provenance ledger: append-only, hash-chained records of answers and decisions';

-- Records written by the gate and not yet sealed (sealed at commit, or by footnote.seal()).
CREATE TABLE footnote.ledger_queue (
    id          uuid PRIMARY KEY,
    queued_at   timestamptz NOT NULL,
    db_role     text NOT NULL,
    actor_id    text,
    actor_role  text,
    kind        text NOT NULL,
    question    text,
    answer      text,
    status      text NOT NULL,
    claims      jsonb NOT NULL,
    operations  jsonb NOT NULL,
    evidence    jsonb NOT NULL,
    findings    jsonb NOT NULL,
    decision    jsonb,
    details     jsonb,
    canonical_parts text[],  -- footnote._canonical_parts, written by the gate (NULL: canonicalised when sealed)
    salts       jsonb  -- the salts of the record's part commitments (version 2); NULL: a version 1 record
);
COMMENT ON TABLE footnote.ledger_queue IS 'gate output awaiting its seal into footnote.ledger';
-- The seal's reading order. Every queued row is deleted when sealed, so between autovacuum runs the heap can hold
-- far more dead rows than live ones; this index lets the planner read the queue in order without them (its scans
-- mark dead entries and then skip them), when the queue's statistics lead it there: nothing forces it, because
-- SET enable_seqscan = off on footnote._seal_queue made appends ten times slower on PostgreSQL 15.
CREATE INDEX ledger_queue_order_idx ON footnote.ledger_queue (queued_at, id);

-- Each catalog call may back one accepted record (an answer verified or partially verified, a decision): using it
-- twice is a replay. A call also backs every attempt before it: an answer the gate did not accept may be fixed and
-- submitted again on the same calls (footnote.call_attempts), until one is accepted.
CREATE TABLE footnote.call_use (
    call_id   uuid PRIMARY KEY REFERENCES footnote.call_log (call_id),
    record_id uuid NOT NULL
);

-- Every record that cites a call, accepted or not (from revision 0015 on; records before it are in call_use).
CREATE TABLE footnote.call_attempts (
    call_id   uuid NOT NULL REFERENCES footnote.call_log (call_id),
    record_id uuid NOT NULL,
    PRIMARY KEY (call_id, record_id)
);
COMMENT ON TABLE footnote.call_attempts IS 'every record that cites a call: the attempts of an agent that fixed its text and submitted it again';

-- Version 2 (docs/hash-spec.md, section 9): a part's commitment, the hex SHA-256 of its salt's 16 bytes followed by
-- the part's jsonb text. salt: the part's salt (a JSON string of 32 hex digits), SQL NULL when the part is absent
-- (a NULL question), JSON null once the part is redacted; sealed: what the sealed text holds for the part. A
-- redacted part's column holds NULL or {"redacted": true} and it stands for the sealed commitment; anything else
-- is returned as it is, so it cannot equal the sealed commitment (content_changed).
CREATE FUNCTION footnote._commitment(salt jsonb, part jsonb, sealed jsonb)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN jsonb_typeof(salt) = 'string' AND part IS NOT NULL AND part <> 'null'::jsonb
                    THEN to_jsonb(pg_catalog.encode(pg_catalog.sha256(pg_catalog.decode(salt #>> '{}', 'hex')
                                                                       || convert_to(part::text, 'UTF8')), 'hex'))
                WHEN salt IS NULL AND (part IS NULL OR part = 'null'::jsonb) THEN 'null'::jsonb
                WHEN jsonb_typeof(salt) = 'null' AND (part IS NULL OR part = 'null'::jsonb
                                                      OR part = '{"redacted": true}'::jsonb) THEN sealed
                ELSE coalesce(part, 'null'::jsonb) END
$$;

-- The commitments of the elements of an array part (claims, operations, evidence, findings), in order.
CREATE FUNCTION footnote._commitments(salts jsonb, parts jsonb, sealed jsonb)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN jsonb_typeof(parts) <> 'array' THEN parts
                WHEN jsonb_array_length(parts) <> coalesce(jsonb_array_length(CASE WHEN jsonb_typeof(salts) = 'array'
                                                                                   THEN salts END), -1)
                    THEN parts
                ELSE coalesce((SELECT jsonb_agg(footnote._commitment(salts -> (x.n - 1)::integer, x.p,
                                                                     sealed -> (x.n - 1)::integer) ORDER BY x.n)
                               FROM jsonb_array_elements(parts) WITH ORDINALITY AS x(p, n)), '[]'::jsonb) END
$$;

-- A random salt for each part of a record (version 2): 16 bytes of a random UUID, as 32 hex digits, in an object
-- shaped like the record's parts; a part that is NULL gets none.
CREATE FUNCTION footnote._new_salts(question text, answer text, claims jsonb, operations jsonb, evidence jsonb,
                                    findings jsonb, decision jsonb, details jsonb)
RETURNS jsonb
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_strip_nulls(jsonb_build_object(
        'question', CASE WHEN question IS NOT NULL THEN replace(gen_random_uuid()::text, '-', '') END,
        'answer', CASE WHEN answer IS NOT NULL THEN replace(gen_random_uuid()::text, '-', '') END,
        'decision', CASE WHEN decision IS NOT NULL AND decision <> 'null' THEN replace(gen_random_uuid()::text, '-', '') END,
        'details', CASE WHEN details IS NOT NULL AND details <> 'null' THEN replace(gen_random_uuid()::text, '-', '') END))
        || jsonb_build_object(
        'claims', (SELECT coalesce(jsonb_agg(replace(gen_random_uuid()::text, '-', '')), '[]') FROM jsonb_array_elements(claims)),
        'operations', (SELECT coalesce(jsonb_agg(replace(gen_random_uuid()::text, '-', '')), '[]') FROM jsonb_array_elements(operations)),
        'evidence', (SELECT coalesce(jsonb_agg(replace(gen_random_uuid()::text, '-', '')), '[]') FROM jsonb_array_elements(evidence)),
        'findings', (SELECT coalesce(jsonb_agg(replace(gen_random_uuid()::text, '-', '')), '[]') FROM jsonb_array_elements(findings)))
$$;

-- The committed members of a version 2 record: each part replaced by its commitment (sealed: the sealed object,
-- needed only for redacted parts; NULL when none is).
CREATE FUNCTION footnote._committed(question text, answer text, claims jsonb, operations jsonb, evidence jsonb,
                                    findings jsonb, decision jsonb, details jsonb, salts jsonb, sealed jsonb)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_build_object(
        'question', footnote._commitment(salts->'question', to_jsonb(question), sealed->'question'),
        'answer', footnote._commitment(salts->'answer', to_jsonb(answer), sealed->'answer'),
        'claims', footnote._commitments(salts->'claims', claims, sealed->'claims'),
        'operations', footnote._commitments(salts->'operations', operations, sealed->'operations'),
        'evidence', footnote._commitments(salts->'evidence', evidence, sealed->'evidence'),
        'findings', footnote._commitments(salts->'findings', findings, sealed->'findings'),
        'decision', footnote._commitment(salts->'decision', decision, sealed->'decision'),
        'details', footnote._commitment(salts->'details', details, sealed->'details'))
$$;

-- The JSON object a record's hash covers (docs/hash-spec.md), built from its columns: version 1 holds the parts,
-- version 2 (salts not NULL) their commitments.
CREATE FUNCTION footnote._record_object(l footnote.ledger)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_build_object(
        'version', CASE WHEN l.salts IS NULL THEN 1 ELSE 2 END,
        'id', l.id::text,
        'seq', l.seq,
        'recorded_at', to_char(l.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        'db_role', l.db_role,
        'actor', jsonb_build_object('id', l.actor_id, 'role', l.actor_role),
        'kind', l.kind,
        'status', l.status,
        'prev_hash', l.prev_hash)
        || CASE WHEN l.salts IS NULL
                THEN jsonb_build_object('question', l.question, 'answer', l.answer, 'claims', l.claims,
                                        'operations', l.operations, 'evidence', l.evidence, 'findings', l.findings,
                                        'decision', l.decision, 'details', l.details)
                ELSE footnote._committed(l.question, l.answer, l.claims, l.operations, l.evidence, l.findings,
                                         l.decision, l.details, l.salts,
                                         CASE WHEN strpos(l.salts::text, 'null') > 0 THEN l.canonical::jsonb END) END
$$;

-- A record's canonical text (docs/hash-spec.md) is written before it is sealed, outside the chain lock: all of it
-- but the three members sealing assigns (prev_hash, recorded_at, seq), as three pieces that footnote._sealed_text
-- joins with them. The members in code-point order: actor, answer, claims, db_role, decision, details, evidence,
-- findings, id, kind, operations | prev_hash | question | recorded_at, seq | status, version. verify_chain and
-- the Python verifier check every sealed text against the record's columns.
CREATE FUNCTION footnote._canonical_parts(q footnote.ledger_queue)
RETURNS text[]
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT ARRAY[substr(h, 2, length(h) - 2), coalesce(footnote._canonical_json(c->'question'), 'null'),
                 substr(t, 2, length(t) - 2)]
    FROM (SELECT CASE WHEN q.salts IS NULL
                      THEN jsonb_build_object('question', q.question, 'answer', q.answer, 'claims', q.claims,
                                              'operations', q.operations, 'evidence', q.evidence,
                                              'findings', q.findings, 'decision', q.decision, 'details', q.details)
                      ELSE footnote._committed(q.question, q.answer, q.claims, q.operations, q.evidence, q.findings,
                                               q.decision, q.details, q.salts, NULL) END AS c) AS p,
         footnote._canonical_json(jsonb_build_object(
             'actor', jsonb_build_object('id', q.actor_id, 'role', q.actor_role), 'answer', p.c->'answer',
             'claims', p.c->'claims', 'db_role', q.db_role, 'decision', p.c->'decision', 'details', p.c->'details',
             'evidence', p.c->'evidence', 'findings', p.c->'findings', 'id', q.id::text, 'kind', q.kind,
             'operations', p.c->'operations')) AS h,
         footnote._canonical_json(jsonb_build_object('status', q.status,
                                                     'version', CASE WHEN q.salts IS NULL THEN 1 ELSE 2 END)) AS t
$$;

-- The canonical text of a sealed record from its pieces (footnote._canonical_parts) and what sealing assigned.
CREATE FUNCTION footnote._sealed_text(parts text[], seq bigint, recorded_at timestamptz, prev_hash text)
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT '{' || parts[1] || ',"prev_hash":"' || prev_hash || '","question":' || parts[2] || ',"recorded_at":"'
           || to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '","seq":' || seq || ','
           || parts[3] || '}'
$$;

-- The chain lock: sealing holds this row (FOR UPDATE) until its transaction ends. Only footnote_owner can
-- lock it; an advisory key would be open to every login of the database.
CREATE TABLE footnote.chain_lock (
    id boolean PRIMARY KEY DEFAULT true CHECK (id)
);
INSERT INTO footnote.chain_lock DEFAULT VALUES;
COMMENT ON TABLE footnote.chain_lock IS 'one row: held FOR UPDATE by the transaction sealing records into the ledger';

-- Queue: a queued record is never changed (FN101); it leaves the queue only by being sealed, which only
-- footnote_ledger's code can do (the DELETE in the ledger's link trigger).
CREATE TRIGGER ledger_queue_append_only BEFORE UPDATE ON footnote.ledger_queue
    FOR EACH ROW EXECUTE FUNCTION footnote._append_only();
CREATE TRIGGER ledger_queue_no_truncate BEFORE TRUNCATE ON footnote.ledger_queue
    FOR EACH STATEMENT EXECUTE FUNCTION footnote._append_only();

-- Queue a graded record and mark its calls used (by an accepted record) or tried (by any), in one statement;
-- returns the record id, or NULL when a concurrent accepted record took one of the calls first (the caller
-- raises FN104).
CREATE FUNCTION footnote._queue_record(record_id uuid, actor jsonb, kind text, question text, answer text, g jsonb,
                                       decision jsonb, details jsonb)
RETURNS uuid
LANGUAGE sql
SET search_path = pg_catalog, pg_temp
AS $$
    WITH r AS (
        SELECT (record_id, clock_timestamp(), session_user, actor->>'id', actor->>'role', kind, question, answer,
                g->>'status', g->'claims', g->'operations', g->'evidence', g->'findings', decision, details,
                NULL, footnote._new_salts(question, answer, g->'claims', g->'operations', g->'evidence',
                                          g->'findings', decision, details))::footnote.ledger_queue AS row
    ), q AS (
        INSERT INTO footnote.ledger_queue
        SELECT (r.row).id, (r.row).queued_at, (r.row).db_role, (r.row).actor_id, (r.row).actor_role, (r.row).kind,
               (r.row).question, (r.row).answer, (r.row).status, (r.row).claims, (r.row).operations,
               (r.row).evidence, (r.row).findings, (r.row).decision, (r.row).details,
               footnote._canonical_parts(r.row), (r.row).salts
        FROM r
        RETURNING id
    ), a AS (
        INSERT INTO footnote.call_attempts (call_id, record_id)
        SELECT (o->>'call_id')::uuid, record_id FROM jsonb_array_elements(g->'operations') AS o
    ), u AS (
        INSERT INTO footnote.call_use (call_id, record_id)
        SELECT (o->>'call_id')::uuid, record_id FROM jsonb_array_elements(g->'operations') AS o
        WHERE kind = 'decision' OR g->>'status' IN ('verified', 'partially_verified')
        ON CONFLICT (call_id) DO NOTHING
        RETURNING call_id
    )
    SELECT CASE WHEN kind <> 'decision' AND g->>'status' NOT IN ('verified', 'partially_verified')
                     OR (SELECT count(*) FROM u) = jsonb_array_length(g->'operations') THEN (SELECT id FROM q) END
$$;

-- BEFORE INSERT on the ledger: take the chain lock and the queued record, link to the committed head,
-- stamp time, canonical text and hash. Only the id of the inserted row counts.
CREATE FUNCTION footnote._ledger_link()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    head footnote.ledger;
    q    footnote.ledger_queue;
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION USING ERRCODE = 'FN102',
            MESSAGE = 'the ledger is sealed only in READ COMMITTED transactions (the head must be the latest committed one)';
    END IF;
    PERFORM FROM ONLY footnote.chain_lock FOR UPDATE;
    DELETE FROM ONLY footnote.ledger_queue WHERE id = NEW.id RETURNING * INTO q;
    IF q.id IS NULL THEN
        PERFORM footnote._not_from('ledger', 'from footnote.ledger_queue, sealed by footnote.seal(): no record '
                                              || coalesce(NEW.id::text, 'NULL') || ' is queued');
    END IF;
    SELECT * INTO head FROM ONLY footnote.ledger ORDER BY seq DESC LIMIT 1;
    NEW := ROW(q.id, coalesce(head.seq, 0) + 1, greatest(clock_timestamp(), head.recorded_at), q.db_role, q.actor_id,
               q.actor_role, q.kind, q.question, q.answer, q.status, q.claims, q.operations, q.evidence, q.findings,
               q.decision, q.details, coalesce(head.hash, repeat('0', 64)), NULL, NULL, q.salts)::footnote.ledger;
    NEW.canonical := CASE WHEN q.canonical_parts IS NULL THEN footnote._canonical_json(footnote._record_object(NEW))
                          ELSE footnote._sealed_text(q.canonical_parts, NEW.seq, NEW.recorded_at, NEW.prev_hash) END;
    NEW.hash := footnote.sha256_hex(NEW.canonical);
    RETURN NEW;
END
$$;

CREATE TRIGGER ledger_link BEFORE INSERT ON footnote.ledger
    FOR EACH ROW EXECUTE FUNCTION footnote._ledger_link();
CREATE TRIGGER ledger_append_only BEFORE UPDATE OR DELETE ON footnote.ledger
    FOR EACH ROW EXECUTE FUNCTION footnote._append_only();
CREATE TRIGGER ledger_no_truncate BEFORE TRUNCATE ON footnote.ledger
    FOR EACH STATEMENT EXECUTE FUNCTION footnote._append_only();
CREATE TRIGGER call_use_append_only BEFORE UPDATE OR DELETE ON footnote.call_use
    FOR EACH ROW EXECUTE FUNCTION footnote._append_only();
CREATE TRIGGER call_use_no_truncate BEFORE TRUNCATE ON footnote.call_use
    FOR EACH STATEMENT EXECUTE FUNCTION footnote._append_only();
CREATE TRIGGER call_attempts_append_only BEFORE UPDATE OR DELETE ON footnote.call_attempts
    FOR EACH ROW EXECUTE FUNCTION footnote._append_only();
CREATE TRIGGER call_attempts_no_truncate BEFORE TRUNCATE ON footnote.call_attempts
    FOR EACH STATEMENT EXECUTE FUNCTION footnote._append_only();

-- End the sessions in `holders` that keep a lock of ours from others: those idle in their transaction, or
-- running their current statement for longer than `held` already (a seal itself takes milliseconds). True when
-- one was ended. A superuser's session, or a prepared transaction, cannot be ended so: false. Needs
-- footnote_ledger to be a member of pg_signal_backend and pg_read_all_stats (sql/95_protect.sql).
CREATE FUNCTION footnote._take_over(holders integer[], held interval)
RETURNS boolean
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    h     record;
    ended boolean := false;
BEGIN
    FOR h IN SELECT a.pid, a.state, a.usename FROM pg_stat_activity AS a
             WHERE a.pid = ANY (holders) AND a.pid <> pg_backend_pid()
               AND (a.state IN ('idle in transaction', 'idle in transaction (aborted)')
                    OR (a.state = 'active' AND a.query_start < clock_timestamp() - held)) LOOP
        BEGIN
            IF pg_terminate_backend(h.pid, 2000) THEN
                RAISE WARNING 'footnote: ended session % of % (%), which held the ledger''s lock for more than %',
                    h.pid, h.usename, h.state, held;
                ended := true;
            END IF;
        EXCEPTION WHEN insufficient_privilege THEN
            NULL;  -- a superuser's session: FN106 for the caller
        END;
    END LOOP;
    RETURN ended;
END
$$;

-- Take the chain lock: at once when free, else wait at most wait_for; then take it over from a holder that
-- keeps it (footnote._take_over) and wait once more. False when it stayed taken.
CREATE FUNCTION footnote._chain_lock(wait_for text)
RETURNS boolean
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    saved   text := current_setting('lock_timeout');
    attempt integer;
BEGIN
    PERFORM FROM ONLY footnote.chain_lock FOR UPDATE SKIP LOCKED;
    IF FOUND THEN
        RETURN true;
    END IF;
    FOR attempt IN 1..2 LOOP
        PERFORM set_config('lock_timeout', wait_for, true);
        BEGIN
            PERFORM FROM ONLY footnote.chain_lock FOR UPDATE;
            PERFORM set_config('lock_timeout', saved, true);
            RETURN true;
        EXCEPTION WHEN lock_not_available THEN
            PERFORM set_config('lock_timeout', saved, true);
        END;
        EXIT WHEN attempt = 2 OR NOT footnote._take_over(ARRAY(
            SELECT l.pid FROM pg_locks AS l, ONLY footnote.chain_lock AS c
            WHERE l.locktype = 'transactionid' AND l.mode = 'ExclusiveLock' AND l.granted
              AND l.transactionid = c.xmax), wait_for::interval);
    END LOOP;
    RETURN false;
END
$$;

-- Seal every committed (or own) queued record into the ledger, oldest first; a no-op outside READ COMMITTED.
-- at_commit: give up (records stay queued) when the lock is taken, or stays taken past seal_commit_wait;
-- otherwise raise FN106 after seal_lock_timeout (default 5s), and end this transaction if it then idles twice
-- that long holding the lock.
CREATE FUNCTION footnote._seal_queue(at_commit boolean)
RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    q_id uuid;
    n    integer := 0;
    wait text;
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RETURN 0;
    END IF;
    IF at_commit THEN
        PERFORM FROM ONLY footnote.chain_lock FOR UPDATE SKIP LOCKED;  -- the common case: free, take it at once
        IF NOT FOUND THEN
            wait := coalesce(footnote.setting('seal_commit_wait'), '0');
            IF wait::interval = interval '0' THEN
                RETURN 0;  -- group sealing: the holder's next seal (a receipt, a commit) takes these records too
            ELSIF NOT footnote._chain_lock(wait) THEN
                RAISE WARNING 'footnote: the chain lock stayed taken for %; this transaction''s records stay queued '
                              'for the next seal', wait;
                RETURN 0;
            END IF;
        END IF;
    ELSE
        wait := coalesce(footnote.setting('seal_lock_timeout'), '5s');
        IF NOT footnote._chain_lock(wait) THEN
            RAISE EXCEPTION USING ERRCODE = 'FN106',
                MESSAGE = format('the ledger chain is held by another transaction for more than %s '
                                 '(seal_lock_timeout); queued records are sealed when it ends', wait),
                DETAIL = jsonb_build_object('waited', wait)::text;
        END IF;
        PERFORM set_config('idle_in_transaction_session_timeout',
                           (extract(epoch FROM wait::interval * 2) * 1000)::bigint::text, true);
    END IF;
    FOR q_id IN SELECT id FROM ONLY footnote.ledger_queue ORDER BY queued_at, id LOOP
        INSERT INTO footnote.ledger (id) VALUES (q_id);  -- the link trigger fills the rest from the queue
        n := n + 1;
    END LOOP;
    -- a transaction that sealed by seal() or receipt() can never be prepared (PostgreSQL refuses to PREPARE after
    -- LISTEN or UNLISTEN), so the chain lock is never left with a prepared transaction; an UNLISTEN, unlike a
    -- NOTIFY, takes no lock at commit. Not at COMMIT: there a PREPARE seals nothing (footnote._seal_at_commit)
    IF NOT at_commit THEN
        EXECUTE 'UNLISTEN footnote_chain';
    END IF;
    RETURN n;
END
$$;

-- Deferred to COMMIT: seal what this transaction queued (and anything committed before it). Fired any
-- earlier (SET CONSTRAINTS ... IMMEDIATE, PREPARE TRANSACTION, a procedure's COMMIT: a caller frame or such a
-- statement is on the stack), it seals nothing: sealing then would hold the chain for the rest of the
-- transaction. SECURITY DEFINER: at COMMIT the current user is the caller again, who may not write the ledger.
CREATE FUNCTION footnote._seal_at_commit()
RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    ctx text;
BEGIN
    GET DIAGNOSTICS ctx = PG_CONTEXT;
    IF position(E'\n' IN ctx) = 0
       AND coalesce(current_query(), '') !~* '(^|;)(\s|--[^\n]*\n|/\*.*?\*/)*(set\s+constraints|prepare\s+transaction)\M' THEN
        PERFORM footnote._seal_queue(true);
    END IF;
    RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER ledger_queue_seal AFTER INSERT ON footnote.ledger_queue
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION footnote._seal_at_commit();

-- Seal waiting records now (run in READ COMMITTED); returns how many were sealed.
CREATE FUNCTION footnote.seal()
RETURNS integer
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION USING ERRCODE = 'FN102',
            MESSAGE = 'footnote.seal() must run in a READ COMMITTED transaction';
    END IF;
    RETURN footnote._seal_queue(false);
END
$$;

-- Sequence, time and hash of a record after its commit (sealing waiting records first); NULL while it is not committed.
CREATE FUNCTION footnote.receipt(record_id uuid)
RETURNS TABLE (id uuid, seq bigint, recorded_at timestamptz, status text, prev_hash text, hash text)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF record_id IS NULL THEN
        PERFORM footnote._invalid('record_id', 'is required');
    END IF;
    IF EXISTS (SELECT FROM ONLY footnote.ledger_queue AS q WHERE q.id = record_id) THEN
        PERFORM footnote._seal_queue(false);
    END IF;
    RETURN QUERY SELECT l.id, l.seq, l.recorded_at, l.status, l.prev_hash, l.hash
                 FROM ONLY footnote.ledger AS l WHERE l.id = record_id;
END
$$;
