-- footnote-pg: owners and privileges. Nothing of ours is reachable by PUBLIC; each group gets exactly what it needs.
--
-- Run by the installer (a superuser, or a CREATEROLE role acting as footnote_owner and footnote_ledger while it
-- installs), at the end of every install and upgrade.

RESET ROLE;

-- Who owns what. PostgreSQL cannot keep an owner from its own tables, and a function that is not SECURITY
-- DEFINER runs as whoever calls it, so the line is drawn by ownership (docs/threat-model.md):
--  * footnote_ledger (NOLOGIN, no members) owns schema footnote, the evidence tables, the reference data (the
--    catalog's queries and operations, the vocabulary the gate reads with), and every function but those below: the gate, sealing, verification, receipts, the catalog's
--    entry points (sql/51_entry.sql) and the helpers they share. It never runs code a login can change: it does
--    not even read the source views.
--  * footnote_owner owns what reads the ERP through the source views (code the DBA maps, so code a member of
--    footnote_owner can change): the catalog's computations (footnote._op_*), evidence pages, the router's name
--    list and the SECURITY DEFINER readers they share (footnote._owner_code checks these by name). footnote.call and
--    re-attestation, which run the entry points and read no source view, are footnote_ledger's: footnote_owner
--    cannot ALTER what stands between the service and an entry point. It reads the
--    reference data and the evidence and writes neither: a call-log row is written only by an entry point, from
--    what the computation it called returned. The settings and the access scopes with their bindings are the
--    DBA's configuration, which footnote_owner edits (INSERT, UPDATE, DELETE) but does not own: the ledger's role
--    reads them, and an owner could give its own table a policy, a rule or a trigger that runs its code as
--    whoever reads it. Before the ledger's role runs a function footnote_owner owns (a computation, the gate's
--    name reader), it checks that the function is still SECURITY DEFINER with the search_path pinned
--    (footnote._owner_code): the owner may ALTER it where no event trigger guards.
DO $owners$
DECLARE
    readers constant text[] := ARRAY['evidence_rows', 'router_names', '_customer_evidence', '_document_evidence',
                                     '_overdue', '_names_matching'];
    o       record;
BEGIN
    IF pg_catalog.pg_get_userbyid((SELECT n.nspowner FROM pg_catalog.pg_namespace AS n WHERE n.nspname = 'footnote'))
       <> 'footnote_ledger' THEN
        ALTER SCHEMA footnote OWNER TO footnote_ledger;
    END IF;
    GRANT CREATE ON SCHEMA footnote TO footnote_owner;  -- an owner must be able to create in the schema
    FOR o IN SELECT p.oid::regprocedure AS f, pg_catalog.pg_get_userbyid(p.proowner) AS has,
                    CASE WHEN p.proname LIKE '\_op\_%' OR p.proname = ANY (readers) THEN 'footnote_owner'
                         ELSE 'footnote_ledger' END AS should
             FROM pg_catalog.pg_proc AS p WHERE p.pronamespace = 'footnote'::regnamespace LOOP
        IF o.has <> o.should THEN
            EXECUTE pg_catalog.format('ALTER ROUTINE %s OWNER TO %I', o.f, o.should);
        END IF;
    END LOOP;
    FOR o IN SELECT c.oid::regclass AS r, pg_catalog.pg_get_userbyid(c.relowner) AS has,
                    'footnote_ledger' AS should
             FROM pg_catalog.pg_class AS c
             WHERE c.relnamespace = 'footnote'::regnamespace AND c.relkind IN ('r', 'v', 'm', 'S', 'p', 'f') LOOP
        IF o.has <> o.should THEN
            EXECUTE pg_catalog.format('ALTER TABLE %s OWNER TO %I', o.r, o.should);
        END IF;
    END LOOP;
    FOR o IN SELECT t.oid::regtype AS t FROM pg_catalog.pg_type AS t
             LEFT JOIN pg_catalog.pg_class AS c ON c.oid = t.typrelid
             WHERE t.typnamespace = 'footnote'::regnamespace AND t.typelem = 0
               AND (t.typrelid = 0 OR c.relkind = 'c') AND pg_catalog.pg_get_userbyid(t.typowner) <> 'footnote_ledger' LOOP
        EXECUTE pg_catalog.format('ALTER TYPE %s OWNER TO footnote_ledger', o.t);
    END LOOP;
    REVOKE CREATE ON SCHEMA footnote FROM footnote_owner;
END
$owners$;

-- Between the two: footnote_owner runs the shared helpers and reads (never writes) the evidence; the ledger's
-- entry points run the computations and read the reference data and the settings.
GRANT USAGE ON SCHEMA footnote TO footnote_owner;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA footnote TO footnote_owner;
GRANT SELECT ON ALL TABLES IN SCHEMA footnote TO footnote_owner;
GRANT INSERT, UPDATE, DELETE ON footnote.settings, footnote.scopes, footnote.scope_bindings TO footnote_owner;
-- footnote_owner writes no evidence: its code (the mapping's too, which runs inside the service's session) calls the
-- catalog's entry points, never the gate's writers, so it records no answer or decision in the service's name; nor
-- an erasure: the mapping's code also runs inside an auditor's session (the gate's name reader, when verification
-- grades the answers again), and footnote.redact or footnote.prune would run there in the auditor's name
REVOKE EXECUTE ON FUNCTION
    footnote.record_answer(text, text, jsonb, uuid[], text, jsonb, jsonb, text),
    footnote.submit_answer(text, text, uuid[], jsonb),
    footnote.record_decision(text, text, text, jsonb, uuid[]),
    footnote.redact(text, text),
    footnote.prune(boolean, timestamptz, bigint)
FROM footnote_owner;
GRANT SELECT ON footnote.settings TO footnote_ledger;
-- whoever reads the scoped views (sql/04_sources.sql) reads the session's scope: the gate's name matching too
GRANT SELECT ON footnote.scopes, footnote.scope_bindings TO footnote_ledger;
GRANT EXECUTE ON FUNCTION footnote._names_matching(text) TO footnote_ledger;
DO $computations$
DECLARE
    f regprocedure;
BEGIN
    FOR f IN SELECT p.oid::regprocedure FROM pg_catalog.pg_proc AS p
             WHERE p.pronamespace = 'footnote'::regnamespace AND p.proname LIKE '\_op\_%' LOOP
        EXECUTE pg_catalog.format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', f);
        EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO footnote_ledger', f);
    END LOOP;
END
$computations$;

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
    footnote.accounts_payable(text, date),
    footnote.breakdown(text, text, text, text, text, text, text, integer, text)
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
    footnote.verify_chain(boolean),
    footnote.regrade(bigint, bigint),
    footnote.verify_calls(),
    footnote.chain_head(),
    footnote.verify_digest(bigint, text),
    footnote.evidence_rows(uuid, text, bigint, integer)
TO footnote_service, footnote_auditor;

-- A gateway (a web or MCP server validating bearer tokens) asserts the verified end user of its transaction.
GRANT USAGE ON SCHEMA footnote TO footnote_gateway;
GRANT EXECUTE ON FUNCTION footnote.assert_identity(text, text) TO footnote_gateway;
-- footnote_owner's code (the mapping's, which runs inside a gateway's session too) may not name the end user
REVOKE EXECUTE ON FUNCTION footnote.assert_identity(text, text) FROM footnote_owner;
GRANT EXECUTE ON FUNCTION footnote.whoami() TO footnote_service, footnote_gateway;
GRANT EXECUTE ON FUNCTION footnote.node_position() TO footnote_service, footnote_gateway;

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
GRANT SELECT ON footnote.call_log, footnote.settings, footnote.scopes, footnote.scope_bindings, footnote.queries,
                footnote.evidence_queries, footnote.operations,
                footnote.operation_arguments TO footnote_auditor;
-- and the ledger with its views
GRANT SELECT ON footnote.ledger, footnote.ledger_queue, footnote.call_use, footnote.call_attempts, footnote.answers,
                footnote.claims,
                footnote.evidence, footnote.decisions, footnote.chain_status TO footnote_auditor;

-- receipts (sql/24_merkle.sql): tree heads, inclusion and consistency proofs for whoever may verify the chain;
-- the tree's nodes, like the ledger they are derived from, for auditors. footnote._merkle_extend is internal.
GRANT EXECUTE ON FUNCTION
    footnote.tree_head(bigint),
    footnote.inclusion_proof(bigint, bigint),
    footnote.consistency_proof(bigint, bigint)
TO footnote_service, footnote_auditor;
GRANT SELECT ON footnote.merkle_nodes TO footnote_auditor;

-- erasure (sql/25_erasure.sql): footnote_redactor redacts a data subject; auditors read the redactions
GRANT EXECUTE ON FUNCTION footnote.redact(text, text) TO footnote_redactor;
GRANT SELECT ON footnote.redactions TO footnote_auditor, footnote_redactor;
-- retention (sql/25_erasure.sql): footnote_redactor prunes by the policy; auditors read the prunes
GRANT EXECUTE ON FUNCTION footnote.prune(boolean, timestamptz, bigint) TO footnote_redactor;
GRANT SELECT ON footnote.prunes TO footnote_auditor, footnote_redactor;
-- and reads the ledger it prunes, to export the records beyond the policy first (footnote-pg prune --export)
GRANT SELECT ON footnote.ledger TO footnote_redactor;

RESET ROLE;
