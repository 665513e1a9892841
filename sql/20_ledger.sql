-- footnote-pg: the provenance ledger.
--
-- One append-only, hash-chained table. Records enter only through the gate
-- (footnote.record_answer / footnote.record_decision), which writes them to
-- footnote.ledger_queue. They are sealed into footnote.ledger at COMMIT by a
-- deferred constraint trigger: under an advisory lock held only while sealing,
-- the ledger's BEFORE INSERT trigger assigns the next sequence number (from
-- the committed head, read under that lock), the previous record's hash, the
-- time (clock_timestamp(), never before the previous record's), the canonical
-- text (docs/hash-spec.md) and its SHA-256.
--
-- Why it cannot fork or leave a gap:
--  * the head is read under the lock, in a READ COMMITTED statement, so it is
--    the latest committed head; a writer in REPEATABLE READ or SERIALIZABLE
--    (whose snapshot may be older) does not seal at all: its records wait in
--    the queue and the next READ COMMITTED seal (any commit, or footnote.seal())
--    takes them;
--  * sequence numbers come from the head, not a SEQUENCE, so a rollback
--    consumes none; sealing happens inside the committing transaction, so a
--    failed commit leaves neither record nor number;
--  * UNIQUE (seq) and UNIQUE (prev_hash) make any fork fail loudly;
--  * a long transaction holds no lock until its own commit.
-- UPDATE, DELETE and TRUNCATE raise FN101 for every role. A superuser can
-- disable triggers; footnote.verify_chain() and the digest catch what follows.

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
                      'grounded', 'unverified', 'fabricated', 'unsupported'))
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
    details     jsonb
);
COMMENT ON TABLE footnote.ledger_queue IS 'gate output awaiting its seal into footnote.ledger';

-- Each catalog call may back one record: using it twice is a replay.
CREATE TABLE footnote.call_use (
    call_id   uuid PRIMARY KEY REFERENCES footnote.call_log (call_id),
    record_id uuid NOT NULL
);

-- The JSON object a record's hash covers (docs/hash-spec.md), built from its columns.
CREATE FUNCTION footnote._record_object(l footnote.ledger)
RETURNS jsonb
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT jsonb_build_object(
        'version', 1,
        'id', l.id::text,
        'seq', l.seq,
        'recorded_at', to_char(l.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        'db_role', l.db_role,
        'actor', jsonb_build_object('id', l.actor_id, 'role', l.actor_role),
        'kind', l.kind,
        'question', l.question,
        'answer', l.answer,
        'status', l.status,
        'claims', l.claims,
        'operations', l.operations,
        'evidence', l.evidence,
        'findings', l.findings,
        'decision', l.decision,
        'details', l.details,
        'prev_hash', l.prev_hash)
$$;

-- BEFORE INSERT on the ledger: take the chain lock, link to the committed head, stamp time, canonical text and hash.
CREATE FUNCTION footnote._ledger_link()
RETURNS trigger
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    head footnote.ledger;
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION USING ERRCODE = 'FN102',
            MESSAGE = 'the ledger is sealed only in READ COMMITTED transactions (the head must be the latest committed one)';
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('footnote.ledger'));
    SELECT * INTO head FROM footnote.ledger ORDER BY seq DESC LIMIT 1;
    NEW.seq := coalesce(head.seq, 0) + 1;
    NEW.prev_hash := coalesce(head.hash, repeat('0', 64));
    NEW.recorded_at := greatest(clock_timestamp(), head.recorded_at);
    NEW.canonical := footnote.canonical_json(footnote._record_object(NEW));
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

-- Seal every committed (or own) queued record into the ledger, oldest first; a no-op outside READ COMMITTED.
CREATE FUNCTION footnote._seal_queue()
RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    q footnote.ledger_queue;
    n integer := 0;
BEGIN
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RETURN 0;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('footnote.ledger'));
    FOR q IN SELECT * FROM footnote.ledger_queue ORDER BY queued_at, id FOR UPDATE SKIP LOCKED LOOP
        INSERT INTO footnote.ledger (id, seq, recorded_at, db_role, actor_id, actor_role, kind, question, answer,
                                     status, claims, operations, evidence, findings, decision, details,
                                     prev_hash, canonical, hash)
        VALUES (q.id, 0 + 1, clock_timestamp(), q.db_role, q.actor_id, q.actor_role, q.kind, q.question, q.answer,
                q.status, q.claims, q.operations, q.evidence, q.findings, q.decision, q.details,
                repeat('0', 64), '', repeat('0', 64));
        DELETE FROM footnote.ledger_queue WHERE id = q.id;
        n := n + 1;
    END LOOP;
    RETURN n;
END
$$;

-- Deferred to COMMIT: seal what this transaction queued (and anything committed before it).
-- SECURITY DEFINER: at COMMIT the current user is the caller again, who may not write the ledger.
CREATE FUNCTION footnote._seal_at_commit()
RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM footnote._seal_queue();
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
    RETURN footnote._seal_queue();
END
$$;

-- Sequence, time and hash of a record after its commit (sealing waiting records first); NULL while it is not committed.
CREATE FUNCTION footnote.receipt(record_id uuid)
RETURNS TABLE (id uuid, seq bigint, recorded_at timestamptz, status text, prev_hash text, hash text)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM footnote._seal_queue();
    RETURN QUERY SELECT l.id, l.seq, l.recorded_at, l.status, l.prev_hash, l.hash
                 FROM footnote.ledger AS l WHERE l.id = record_id;
END
$$;
