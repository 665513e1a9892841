-- footnote-pg: privileges. Nothing of ours is reachable by PUBLIC; each group gets exactly what it needs.

REVOKE ALL ON ALL TABLES IN SCHEMA footnote FROM PUBLIC;
REVOKE ALL ON ALL TABLES IN SCHEMA footnote_src FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA footnote FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA footnote_src FROM PUBLIC;
REVOKE ALL ON TYPE footnote.entity, footnote.period, footnote._named, footnote._lexeme FROM PUBLIC;

-- footnote_service: the catalog operations and the entry point, nothing else.
GRANT SELECT ON footnote.catalog TO footnote_service, footnote_auditor;
GRANT EXECUTE ON FUNCTION
    footnote.call(text, jsonb),
    footnote.call(text, text),
    footnote.list_customers(text, integer, text, text),
    footnote.customer_payments(text, text, date),
    footnote.customer_profile(text, date),
    footnote.rank_customers(text, text, integer, date),
    footnote.revenue_by_month(text, text),
    footnote.credit_notes(text, text),
    footnote.items_below_reorder(),
    footnote.purchase_order(text),
    footnote.list_suppliers(text, integer),
    footnote.list_items(text, integer),
    footnote.customer_overdue(text, date),
    footnote.ar_aging(date, text),
    footnote.customer_risk(text, date),
    footnote.open_tickets(text, date),
    footnote.revenue(text, text),
    footnote.revenue_change(text, text, text),
    footnote.top_customers(text, integer, text),
    footnote.revenue_drivers(text, text, integer, text),
    footnote.days_sales_outstanding(date, integer),
    footnote.invoice(text, date),
    footnote.source_record(text),
    footnote.open_purchase_orders(text, text),
    footnote.stock_on_hand(text),
    footnote.supplier_payment_facts(text, date),
    footnote.accounts_payable(text, date)
TO footnote_service;

-- the gate, sealing and receipts
GRANT EXECUTE ON FUNCTION
    footnote.record_answer(text, text, jsonb, uuid[], text, jsonb, jsonb, text),
    footnote.submit_answer(text, text, uuid[], jsonb),
    footnote.record_decision(text, text, text, jsonb, uuid[]),
    footnote.check_answer(text, jsonb, uuid[], text, jsonb, text),
    footnote.compose(uuid[], text, jsonb, text)
TO footnote_service;
GRANT EXECUTE ON FUNCTION
    footnote.seal(),
    footnote.receipt(uuid),
    footnote.verify_chain(),
    footnote.verify_calls(),
    footnote.chain_head(),
    footnote.verify_digest(bigint, text),
    footnote.evidence_rows(uuid, text, bigint, integer)
TO footnote_service, footnote_auditor;

-- Re-attestation runs the catalog again (current ERP values, new call-log rows): only for the role that may call it.
GRANT EXECUTE ON FUNCTION footnote.reattest(bigint) TO footnote_service;

-- The router's name list (not logged: it is no evidence) for the service's question path.
GRANT EXECUTE ON FUNCTION footnote.router_names() TO footnote_service;

-- Pure helpers anyone of ours may use to read results and settings.
GRANT EXECUTE ON FUNCTION
    footnote.client_settings(),
    footnote.result_values(jsonb),
    footnote.result_evidence(jsonb),
    footnote.canonical_json(jsonb),
    footnote.sha256_hex(text)
TO footnote_service, footnote_auditor;

-- footnote_auditor: reads the call log, the settings, the queries, the catalog and the ledger.
GRANT SELECT ON footnote.lexicon TO footnote_service, footnote_auditor;
GRANT SELECT ON footnote.call_log, footnote.settings, footnote.queries, footnote.evidence_queries, footnote.operations,
                footnote.operation_arguments TO footnote_auditor;
-- and the ledger with its views
GRANT SELECT ON footnote.ledger, footnote.ledger_queue, footnote.call_use, footnote.answers, footnote.claims,
                footnote.evidence, footnote.decisions, footnote.chain_status TO footnote_auditor;

-- receipts (sql/24_merkle.sql): tree heads, inclusion and consistency proofs for whoever may verify the chain;
-- the tree's nodes, like the ledger they are derived from, for auditors. footnote._merkle_extend is internal.
GRANT EXECUTE ON FUNCTION
    footnote.tree_head(bigint),
    footnote.inclusion_proof(bigint, bigint),
    footnote.consistency_proof(bigint, bigint)
TO footnote_service, footnote_auditor;
GRANT SELECT ON footnote.merkle_nodes TO footnote_auditor;

RESET ROLE;
