-- footnote-pg: a Merkle tree over the ledger (RFC 9162 §2.1), for receipts that prove themselves.
--
-- The chain proves that nothing was changed, given the whole ledger. The tree
-- proves one record, or that one head extends another, with a handful of
-- hashes: a receipt (the record, an inclusion proof and a signed tree head)
-- and a pair of digests (a consistency proof between them) are checked
-- offline, without the ledger (docs/hash-spec.md §7).
--
-- The tree is RFC 9162's, over the records in sequence order:
--  * leaf i (0-based) is record seq i + 1; its hash is
--    SHA-256(0x00 || the 32 bytes of the record's hash);
--  * a node's hash is SHA-256(0x01 || left || right);
--  * the tree over n leaves splits at the largest power of two below n
--    (MTH, §2.1.1), so the tree over the first n records never changes as
--    records are appended: that is what makes consistency proofs possible.
--
-- footnote.merkle_nodes stores only perfect, aligned subtrees: the node at
-- (level k, idx i) covers leaves [i * 2^k, (i + 1) * 2^k). Any tree's root,
-- inclusion path or consistency path is assembled from O(log n) of them
-- (a tree of n leaves is the perfect subtrees of n's binary digits, folded
-- from the right). The table is derived data, extended lazily: sealing never
-- touches it, so appending a record costs nothing extra; the first tree head
-- or proof after new records adds their nodes, one INSERT ... SELECT per
-- level, holding the table in SHARE ROW EXCLUSIVE mode (never the chain's
-- lock): extenders wait for each other, readers never wait, and only the
-- owner may take the lock, so no other role can hold it to stall the proofs.
-- Like the ledger it is append-only: UPDATE, DELETE and TRUNCATE raise FN101.
--
-- The functions that extend the tree need READ COMMITTED when there is
-- something to add (FN102 otherwise, as footnote.seal()): a snapshot older
-- than nodes another session committed could not add them again.

CREATE TABLE footnote.merkle_nodes (
    level  smallint NOT NULL CHECK (level BETWEEN 0 AND 62),
    idx    bigint NOT NULL CHECK (idx >= 0),
    hash   bytea NOT NULL CHECK (octet_length(hash) = 32),
    PRIMARY KEY (level, idx)
);
COMMENT ON TABLE footnote.merkle_nodes IS
    'perfect subtrees of the Merkle tree over the ledger (level k, idx i covers leaves i*2^k to (i+1)*2^k - 1); derived, append-only';

CREATE TRIGGER merkle_nodes_append_only BEFORE UPDATE OR DELETE ON footnote.merkle_nodes
    FOR EACH ROW EXECUTE FUNCTION footnote._append_only();
CREATE TRIGGER merkle_nodes_no_truncate BEFORE TRUNCATE ON footnote.merkle_nodes
    FOR EACH STATEMENT EXECUTE FUNCTION footnote._append_only();

-- floor(log2(n)) for n >= 1: the position of n's highest set bit.
CREATE FUNCTION footnote._log2_floor(n bigint)
RETURNS integer
LANGUAGE sql IMMUTABLE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT 64 - position('1' IN n::bit(64)::text)
$$;

-- Take the lock that orders extensions of the tree: wait at most wait_for, take it over from a holder that
-- keeps it (footnote._take_over), wait once more; false when it stayed taken.
CREATE FUNCTION footnote._merkle_lock(wait_for text)
RETURNS boolean
LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    saved   text := current_setting('lock_timeout');
    attempt integer;
BEGIN
    FOR attempt IN 1..2 LOOP
        PERFORM set_config('lock_timeout', wait_for, true);
        BEGIN
            LOCK TABLE ONLY footnote.merkle_nodes IN SHARE ROW EXCLUSIVE MODE;
            PERFORM set_config('lock_timeout', saved, true);
            RETURN true;
        EXCEPTION WHEN lock_not_available THEN
            PERFORM set_config('lock_timeout', saved, true);
        END;
        EXIT WHEN attempt = 2 OR NOT footnote._take_over(ARRAY(
            SELECT l.pid FROM pg_locks AS l
            WHERE l.locktype = 'relation' AND l.relation = 'footnote.merkle_nodes'::regclass AND l.granted
              AND l.mode IN ('ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock')), wait_for::interval);
    END LOOP;
    RETURN false;
END
$$;

-- Add the nodes of every sealed record the tree does not cover yet; returns the number of leaves covered.
-- SECURITY DEFINER: it writes footnote.merkle_nodes for whoever asked for a tree head or a proof.
CREATE FUNCTION footnote._merkle_extend()
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    sealed  bigint;
    covered bigint;
    lvl     integer := 0;
    width   bigint;
    done    bigint;
BEGIN
    SELECT coalesce(max(l.seq), 0) INTO sealed FROM ONLY footnote.ledger AS l;
    SELECT coalesce(max(n.idx) + 1, 0) INTO covered FROM ONLY footnote.merkle_nodes AS n WHERE n.level = 0;
    IF covered >= sealed THEN
        RETURN sealed;
    END IF;
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE EXCEPTION USING ERRCODE = 'FN102',
            MESSAGE = format('the Merkle tree covers %s of %s sealed records; extending it needs a READ COMMITTED '
                             'transaction', covered, sealed);
    END IF;
    -- wait at most seal_lock_timeout for another extension, then take over from a holder that keeps the lock
    -- (idle in its transaction after a tree head, say: footnote._take_over) and wait once more: FN106 after that
    IF NOT footnote._merkle_lock(coalesce(footnote.setting('seal_lock_timeout'), '5s')) THEN
        RAISE EXCEPTION USING ERRCODE = 'FN106',
            MESSAGE = format('the Merkle tree is being extended by another transaction for more than %s '
                             '(seal_lock_timeout)', coalesce(footnote.setting('seal_lock_timeout'), '5s'));
    END IF;
    -- a transaction that extended the tree can never be prepared (PostgreSQL refuses to PREPARE after UNLISTEN)
    EXECUTE 'UNLISTEN footnote_tree';
    -- another session may have extended it while this one waited
    SELECT coalesce(max(n.idx) + 1, 0) INTO covered FROM ONLY footnote.merkle_nodes AS n WHERE n.level = 0;
    INSERT INTO footnote.merkle_nodes (level, idx, hash)
    SELECT 0, l.seq - 1, sha256('\x00'::bytea || decode(l.hash, 'hex'))
    FROM ONLY footnote.ledger AS l
    WHERE l.seq > covered AND l.seq <= sealed;
    -- each level pairs the nodes below it that are not paired yet: node i of level k + 1 from 2i and 2i + 1 of level k
    width := sealed;
    WHILE width >= 2 LOOP
        SELECT coalesce(max(n.idx) + 1, 0) INTO done FROM ONLY footnote.merkle_nodes AS n WHERE n.level = lvl + 1;
        EXIT WHEN done >= width / 2;
        INSERT INTO footnote.merkle_nodes (level, idx, hash)
        SELECT lvl + 1, p.idx / 2, sha256('\x01'::bytea || p.hash || p.next_hash)
        FROM (SELECT n.idx, n.hash, lead(n.idx) OVER w AS next_idx, lead(n.hash) OVER w AS next_hash
              FROM ONLY footnote.merkle_nodes AS n
              WHERE n.level = lvl AND n.idx >= 2 * done
              WINDOW w AS (ORDER BY n.idx)) AS p
        WHERE p.idx % 2 = 0 AND p.next_idx = p.idx + 1;
        lvl := lvl + 1;
        width := width / 2;
    END LOOP;
    RETURN sealed;
END
$$;

-- One stored node; a missing one means the ledger has a gap (a record deleted by a superuser).
CREATE FUNCTION footnote._merkle_node(node_level integer, node_idx bigint)
RETURNS bytea
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    found bytea;
BEGIN
    SELECT n.hash INTO found FROM ONLY footnote.merkle_nodes AS n WHERE n.level = node_level AND n.idx = node_idx;
    IF found IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'XX001',
            MESSAGE = format('the Merkle tree has no node for records %s to %s: the ledger has a gap there '
                             '(run footnote.verify_chain())', node_idx * (1::bigint << node_level) + 1,
                             (node_idx + 1) * (1::bigint << node_level));
    END IF;
    RETURN found;
END
$$;

-- MTH over leaves [lo, hi) as RFC 9162 §2.1.1 defines it, from stored nodes: the perfect subtrees of the
-- range, largest first, folded from the right. Ranges the proofs ask for are always aligned so.
CREATE FUNCTION footnote._merkle_root(lo bigint, hi bigint)
RETURNS bytea
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    parts bytea[] := '{}';
    a     bigint := lo;
    lvl   integer;
    h     bytea;
BEGIN
    IF hi <= lo THEN
        RETURN sha256(''::bytea);  -- the empty tree
    END IF;
    WHILE a < hi LOOP
        lvl := footnote._log2_floor(hi - a);
        IF a % (1::bigint << lvl) <> 0 THEN
            RAISE EXCEPTION 'footnote._merkle_root(%, %): the range is not aligned to perfect subtrees', lo, hi;
        END IF;
        parts := parts || footnote._merkle_node(lvl, a >> lvl);
        a := a + (1::bigint << lvl);
    END LOOP;
    h := parts[cardinality(parts)];
    FOR i IN REVERSE cardinality(parts) - 1 .. 1 LOOP
        h := sha256('\x01'::bytea || parts[i] || h);
    END LOOP;
    RETURN h;
END
$$;

-- The signed tree head's content: the root over the first tree_size records (default: every sealed record)
-- and the record at its head. tree_size 0 is the empty tree (root SHA-256 of nothing, no head record).
CREATE FUNCTION footnote.tree_head(INOUT tree_size bigint DEFAULT NULL, OUT root_hash text, OUT head_seq bigint,
                                   OUT head_hash text, OUT recorded_at timestamptz)
RETURNS record
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    sealed bigint := footnote._merkle_extend();
BEGIN
    tree_size := coalesce(tree_size, sealed);
    IF tree_size < 0 OR tree_size > sealed THEN
        PERFORM footnote._invalid('tree_size', format('must be between 0 and %s, the number of sealed records',
                                                      sealed), tree_size::text);
    END IF;
    root_hash := encode(footnote._merkle_root(0, tree_size), 'hex');
    SELECT l.seq, l.hash, l.recorded_at INTO head_seq, head_hash, recorded_at
    FROM ONLY footnote.ledger AS l WHERE l.seq = tree_size;
END
$$;

-- The audit path of record seq in the tree of the first tree_size records (RFC 9162 §2.1.3.1), leaf side first:
-- {leaf_index, tree_size, path: [hex, ...], root_hash}.
CREATE FUNCTION footnote.inclusion_proof(seq bigint, tree_size bigint DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    sealed bigint := footnote._merkle_extend();
    n      bigint := coalesce(inclusion_proof.tree_size, sealed);
    m      bigint;
    lo     bigint := 0;
    hi     bigint;
    k      bigint;
    path   bytea[] := '{}';
    record_hash text;
BEGIN
    IF inclusion_proof.seq IS NULL THEN
        PERFORM footnote._invalid('seq', 'is required');
    ELSIF sealed = 0 THEN
        PERFORM footnote._invalid('seq', 'the ledger is empty: there is no record to prove',
                                  inclusion_proof.seq::text);
    ELSIF inclusion_proof.seq < 1 OR inclusion_proof.seq > sealed THEN
        PERFORM footnote._invalid('seq', format('there is no ledger record %s; the chain holds records 1 to %s',
                                                inclusion_proof.seq, sealed), inclusion_proof.seq::text);
    ELSIF n < inclusion_proof.seq OR n > sealed THEN
        PERFORM footnote._invalid('tree_size', format('must be between %s (the record) and %s (the sealed records)',
                                                      inclusion_proof.seq, sealed), n::text);
    END IF;
    m := inclusion_proof.seq - 1;
    SELECT l.hash INTO record_hash FROM ONLY footnote.ledger AS l WHERE l.seq = inclusion_proof.seq;
    IF record_hash IS NULL OR footnote._merkle_node(0, m) <> sha256('\x00'::bytea || decode(record_hash, 'hex')) THEN
        RAISE EXCEPTION USING ERRCODE = 'XX001',
            MESSAGE = format('the Merkle tree''s leaf for record %s is not the record''s hash: the ledger changed '
                             'after the tree covered it (run footnote.verify_chain())', inclusion_proof.seq);
    END IF;
    hi := n;
    WHILE hi - lo > 1 LOOP
        k := 1::bigint << footnote._log2_floor(hi - lo - 1);
        IF m < lo + k THEN
            path := array_prepend(footnote._merkle_root(lo + k, hi), path);
            hi := lo + k;
        ELSE
            path := array_prepend(footnote._merkle_root(lo, lo + k), path);
            lo := lo + k;
        END IF;
    END LOOP;
    RETURN jsonb_build_object(
        'leaf_index', m,
        'tree_size', n,
        'path', coalesce((SELECT jsonb_agg(encode(p.h, 'hex') ORDER BY p.i)
                          FROM unnest(path) WITH ORDINALITY AS p(h, i)), '[]'),
        'root_hash', encode(footnote._merkle_root(0, n), 'hex'));
END
$$;

-- The proof that the tree of the first new_size records (default: every sealed record) extends the tree of the
-- first old_size (RFC 9162 §2.1.4.1): {old_size, new_size, path: [hex, ...], old_root, new_root}.
CREATE FUNCTION footnote.consistency_proof(old_size bigint, new_size bigint DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    sealed bigint := footnote._merkle_extend();
    m      bigint := consistency_proof.old_size;
    n      bigint := coalesce(consistency_proof.new_size, sealed);
    lo     bigint := 0;
    hi     bigint;
    k      bigint;
    whole  boolean := true;
    path   bytea[] := '{}';
BEGIN
    IF m IS NULL THEN
        PERFORM footnote._invalid('old_size', 'is required');
    ELSIF n < 1 OR n > sealed THEN
        PERFORM footnote._invalid('new_size', format('must be between 1 and %s, the number of sealed records',
                                                     sealed), n::text);
    ELSIF m < 1 THEN
        PERFORM footnote._invalid('old_size', 'must be at least 1 (a tree of no records proves nothing)', m::text);
    ELSIF m > n THEN
        PERFORM footnote._invalid('old_size', format('%s is larger than new_size %s: the old tree cannot be larger '
                                                     'than the new one', m, n), m::text);
    END IF;
    hi := n;
    LOOP
        IF m = hi THEN
            IF NOT whole THEN
                path := array_prepend(footnote._merkle_root(lo, hi), path);
            END IF;
            EXIT;
        END IF;
        k := 1::bigint << footnote._log2_floor(hi - lo - 1);
        IF m - lo <= k THEN
            path := array_prepend(footnote._merkle_root(lo + k, hi), path);
            hi := lo + k;
        ELSE
            path := array_prepend(footnote._merkle_root(lo, lo + k), path);
            lo := lo + k;
            whole := false;
        END IF;
    END LOOP;
    RETURN jsonb_build_object(
        'old_size', m,
        'new_size', n,
        'path', coalesce((SELECT jsonb_agg(encode(p.h, 'hex') ORDER BY p.i)
                          FROM unnest(path) WITH ORDINALITY AS p(h, i)), '[]'),
        'old_root', encode(footnote._merkle_root(0, m), 'hex'),
        'new_root', encode(footnote._merkle_root(0, n), 'hex'));
END
$$;
