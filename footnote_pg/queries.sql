-- The statements the Python layer sends. Each block: "-- name: <name>", a
-- one-line description, then the statement with %(param)s placeholders.
-- Python never builds SQL text; almost every statement calls one function.

-- name: set_actor
-- Name the application actor for the current transaction.
SELECT set_config('footnote.actor', %(actor)s, true), set_config('footnote.actor_role', %(actor_role)s, true)

-- name: assert_identity
-- A gateway names the verified end user (token subject and scope) for the current transaction.
SELECT footnote.assert_identity(%(subject)s, %(scope)s)

-- name: whoami
-- Who is asking and under which scope: the actor, whether a token verified it, the scope (NULL: every customer).
SELECT footnote.whoami()

-- name: set_locale
-- Choose the display locale for the current transaction.
SELECT set_config('footnote.locale', %(locale)s, true)

-- name: call
-- Call a catalog operation with a JSON object of arguments.
SELECT footnote.call(%(operation)s, %(arguments)s::jsonb)

-- name: catalog
-- Every catalog operation with its arguments.
SELECT operation, title, description, returns, arguments, signature FROM footnote.catalog ORDER BY operation

-- name: ledger_rows
-- Up to %(limit)s ledger records from %(from_seq)s in sequence order, for the independent verifier and exports, as
-- binary COPY (text columns arrive as their bytes); jsonb as text, so numbers stay exact.
COPY (SELECT id::text, seq, recorded_at, db_role, actor_id, actor_role, kind, question, answer, status,
             claims::text, operations::text, evidence::text, findings::text, decision::text, details::text,
             prev_hash, hash, canonical, salts::text
      FROM footnote.ledger
      WHERE seq >= %(from_seq)s AND seq <= %(to_seq)s
        AND recorded_at >= %(since)s AND recorded_at < %(until)s
      ORDER BY seq
      LIMIT %(limit)s) TO STDOUT (FORMAT binary)

-- name: ledger_texts
-- Up to %(limit)s sealed canonical texts with seq and hash from %(from_seq)s, for the chain pass (binary COPY).
COPY (SELECT seq, hash, canonical
      FROM footnote.ledger
      WHERE seq >= %(from_seq)s AND seq <= %(to_seq)s
        AND recorded_at >= %(since)s AND recorded_at < %(until)s
      ORDER BY seq
      LIMIT %(limit)s) TO STDOUT (FORMAT binary)

-- name: seal
-- Seal records still waiting in the queue (REPEATABLE READ / SERIALIZABLE writers).
SELECT footnote.seal()

-- name: chain_head
-- The last sealed record: what a digest records.
SELECT seq, hash, recorded_at FROM footnote.chain_head()

-- name: verify_chain
-- The database's own chain verification.
SELECT ok, records, head_seq, head_hash, first_bad_seq, problem, detail, pending FROM footnote.verify_chain()

-- name: compose
-- The template answer for calls of this session (text, claims with spans, units, inference and facts).
SELECT footnote.compose(%(call_ids)s::uuid[], %(intent)s, %(notes)s::jsonb, %(question)s)

-- name: record_answer
-- The gate: grade an answer (and a narration offered for it) against the template of its calls and queue it.
SELECT footnote.record_answer(%(question)s, %(answer)s, %(claims)s::jsonb, %(call_ids)s::uuid[], %(outcome)s,
                              %(details)s::jsonb, %(template)s::jsonb, %(narration)s)

-- name: check_answer
-- The gate without recording: what record_answer would decide.
SELECT footnote.check_answer(%(answer)s, %(claims)s::jsonb, %(call_ids)s::uuid[], %(outcome)s, %(template)s::jsonb,
                             %(question)s)

-- name: submit_answer
-- The gate for an agent's own words: figures and names found by the gate, graded per sentence, recorded.
SELECT footnote.submit_answer(%(question)s, %(answer)s, %(call_ids)s::uuid[], %(details)s::jsonb)

-- name: record_decision
-- The gate for agent decisions.
SELECT footnote.record_decision(%(action)s, %(subject)s, %(rationale)s, %(citations)s::jsonb, %(call_ids)s::uuid[])

-- name: receipt
-- Sequence, time and hash of a committed record.
SELECT id::text, seq, recorded_at, status, prev_hash, hash FROM footnote.receipt(%(record_id)s::uuid)

-- name: reattest
-- Re-run a record's operations and compare its claims.
SELECT item, kind, text, value_path, verdict, old_text, new_text, operation, new_call_id::text FROM footnote.reattest(%(seq)s)

-- name: client_settings
-- Locale, currency, default as-of date and fiscal year start.
SELECT locale, currency, as_of, fiscal_year_start_month FROM footnote.client_settings()

-- name: ledger_latest
-- The latest ledger records, newest first (auditor rights).
SELECT seq, recorded_at, db_role, actor_id, actor_role, kind, question, status, hash
FROM footnote.ledger ORDER BY seq DESC LIMIT %(limit)s

-- name: ledger_record
-- One ledger record by sequence number (auditor rights).
SELECT seq, recorded_at, db_role, actor_id, actor_role, kind, question, status, hash
FROM footnote.ledger WHERE seq = %(seq)s

-- name: last_checkpoint
-- The last prune record's sequence number, cut and checkpoint (the tree head at the cut), read from its sealed row.
SELECT seq, (details->'prune'->>'cut')::bigint, details->'prune'->'checkpoint'
FROM footnote.ledger
WHERE kind = 'decision' AND decision->>'action' = 'prune' AND details ? 'prune' AND actor_role = 'pruner'
  AND details->'prune'->>'cut' IS NOT NULL
ORDER BY seq DESC LIMIT 1

-- name: record_hashes
-- The hashes of records 1 to %(to_seq)s in sequence order (the leaves of the Merkle tree over them).
SELECT hash FROM footnote.ledger WHERE seq <= %(to_seq)s ORDER BY seq

-- name: tree_head
-- The Merkle root over the first tree_size records (NULL: every sealed record) and the record at its head.
SELECT tree_size, root_hash, head_seq, head_hash, recorded_at FROM footnote.tree_head(%(tree_size)s::bigint)

-- name: inclusion_proof
-- The audit path of one record in the tree of the first tree_size records.
SELECT footnote.inclusion_proof(%(seq)s::bigint, %(tree_size)s::bigint)

-- name: consistency_proof
-- The proof that the tree of new_size records extends the tree of old_size records.
SELECT footnote.consistency_proof(%(old_size)s::bigint, %(new_size)s::bigint)

-- name: receipt_record
-- One record as it was sealed (its canonical text) with its hash, for a receipt (auditor rights).
SELECT canonical, hash FROM footnote.ledger WHERE seq = %(seq)s

-- name: router_names
-- The names the question router matches (not a catalog call, not logged).
SELECT footnote.router_names()

-- name: evidence_rows
-- A page of the rows of an evidence set a call cites, read again from the source views, with the text its digest hashes.
SELECT n, id, type, record_id, uri, verified, fields, row_text
FROM footnote.evidence_rows(%(call_id)s, %(evidence_set)s, %(offset)s, %(limit)s)
