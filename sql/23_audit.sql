-- footnote-pg: views for auditors in psql.

-- Answers (and clarifications and refusals), one row each.
CREATE VIEW footnote.answers AS
SELECT l.seq, l.recorded_at, l.db_role, l.actor_id, l.actor_role, l.question, l.answer, l.status,
       l.details->>'outcome' AS outcome, jsonb_array_length(l.claims) AS claims,
       (SELECT count(*) FROM jsonb_array_elements(l.claims) AS c WHERE c->>'verdict' = 'grounded') AS grounded_claims,
       l.hash
FROM ONLY footnote.ledger AS l
WHERE l.kind = 'answer';

-- Claims, one row per claim, with verdict and evidence.
CREATE VIEW footnote.claims AS
SELECT l.seq, c.n - 1 AS claim_no, c.claim->>'text' AS text, c.claim->>'verdict' AS verdict,
       c.claim->>'reason' AS reason, (c.claim->'span'->>'start')::integer AS span_start,
       (c.claim->'span'->>'end')::integer AS span_end, (c.claim->>'call_id') AS call_id,
       ARRAY(SELECT jsonb_array_elements_text(c.claim->'evidence')) AS evidence,
       c.claim->>'origin' AS origin, c.claim->>'value' AS value_path
FROM ONLY footnote.ledger AS l, jsonb_array_elements(l.claims) WITH ORDINALITY AS c(claim, n);

-- Evidence records kept with each ledger record, with the field values they had.
CREATE VIEW footnote.evidence AS
SELECT l.seq, e.value->>'id' AS evidence_id, e.value->>'type' AS type, e.value->>'record_id' AS record_id,
       e.value->>'uri' AS uri, (e.value->>'verified')::boolean AS verified, e.value->'fields' AS fields
FROM ONLY footnote.ledger AS l, jsonb_array_elements(l.evidence) AS e;

-- Agent decisions with their outcome and graded citations.
CREATE VIEW footnote.decisions AS
SELECT l.seq, l.recorded_at, l.db_role, l.actor_id, l.actor_role, l.decision->>'action' AS action,
       l.decision->>'subject' AS subject, l.status AS outcome, l.answer AS rationale,
       l.decision->'citations' AS citations, l.hash
FROM ONLY footnote.ledger AS l
WHERE l.kind = 'decision';

-- The result of footnote.verify_chain(), as a view.
CREATE VIEW footnote.chain_status AS SELECT * FROM footnote.verify_chain();
