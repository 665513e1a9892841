-- footnote-pg: a verified end user for one transaction, from a service that validates bearer tokens itself.
--
-- A web or MCP server that authenticates its users (a JWT checked against an issuer, an audience and a key set)
-- logs in as a member of footnote_gateway and, first in every transaction, calls
-- footnote.assert_identity(subject, scope) with the token's verified subject and scope claim. The row it writes is
-- keyed by the backend (pid and backend start, so a later backend with the same pid inherits nothing) and holds
-- the transaction it was asserted in: it counts in that transaction only, so a pooled connection hands no
-- identity on to the next request. Only the entry point writes the table (footnote_ledger owns it; no login can
-- read or write it), and only members of footnote_gateway may call the entry point.
--
-- The table is UNLOGGED: a row lives for one transaction and means nothing after a crash, and a transaction that
-- writes nothing else (a read of an evidence page) commits without waiting for a WAL flush.
--
-- While a verified identity holds, footnote._session_scope() is the verified scope, narrowed by the login's own
-- binding when it has one (a customer must be in both), and footnote._actor() names the verified subject: the
-- actor the call log and the ledger record. Nothing a question or a tool argument contains reaches either.

CREATE UNLOGGED TABLE footnote.verified_identities (
    pid           integer     NOT NULL,
    backend_start timestamptz NOT NULL,
    xact          xid8        NOT NULL,
    subject       text        NOT NULL,
    scope         text        NOT NULL,
    gateway       text        NOT NULL,
    asserted_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (pid, backend_start)
);
COMMENT ON TABLE footnote.verified_identities IS
    'the verified end user (token subject and scope) of a backend''s current transaction, written only by footnote.assert_identity';

-- This backend's start, from its own activity row (always visible to itself).
CREATE FUNCTION footnote._backend_start()
RETURNS timestamptz
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT a.backend_start FROM pg_stat_get_activity(pg_backend_pid()) AS a
$$;

-- The verified subject and scope of this transaction, or no row. SECURITY DEFINER: whoever computes a scope or an
-- actor (footnote_owner's computations, footnote_ledger's entry points) reads it; no login reads the table.
CREATE FUNCTION footnote._verified_identity(OUT subject text, OUT scope text)
RETURNS SETOF record
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT v.subject, v.scope FROM footnote.verified_identities AS v
    WHERE v.pid = pg_backend_pid() AND v.backend_start = footnote._backend_start()
      AND v.xact = pg_current_xact_id_if_assigned()
$$;

-- The entry point of a gateway: the verified subject and scope for the rest of this transaction. The scope must
-- be defined (FN109); the subject is what the ledger records as the actor (at most 100 printable characters).
CREATE FUNCTION footnote.assert_identity(subject text, scope text)
RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    started timestamptz := footnote._backend_start();
BEGIN
    IF NOT pg_has_role(session_user, 'footnote_gateway', 'MEMBER') THEN
        RAISE EXCEPTION USING ERRCODE = '42501',
            MESSAGE = format('permission denied: login %s is not a member of footnote_gateway', session_user);
    END IF;
    IF subject IS NULL OR btrim(subject) = '' OR length(subject) > 100 OR subject ~ '[\x01-\x1f\x7f]' THEN
        PERFORM footnote._invalid('subject', 'must be 1 to 100 printable characters', subject);
    END IF;
    IF scope IS NULL OR NOT EXISTS (SELECT FROM footnote.scopes AS s WHERE s.id = assert_identity.scope) THEN
        RAISE EXCEPTION USING ERRCODE = 'FN109',
            MESSAGE = format('unknown scope %s: no such scope is defined in footnote.scopes',
                             coalesce(quote_literal(left(scope, 64)), '(none)')),
            DETAIL = jsonb_build_object('scope', left(scope, 64))::text;
    END IF;
    DELETE FROM footnote.verified_identities AS v WHERE v.pid = pg_backend_pid() AND v.backend_start <> started;
    INSERT INTO footnote.verified_identities AS v (pid, backend_start, xact, subject, scope, gateway)
    VALUES (pg_backend_pid(), started, pg_current_xact_id(), assert_identity.subject, assert_identity.scope,
            session_user)
    ON CONFLICT (pid, backend_start) DO UPDATE
        SET xact = EXCLUDED.xact, subject = EXCLUDED.subject, scope = EXCLUDED.scope, gateway = EXCLUDED.gateway,
            asserted_at = EXCLUDED.asserted_at;
END
$$;

-- Who is asking, for a page to show: the actor (the verified subject while an identity holds), whether a token
-- verified it, and the scope ({"id", "description", "digest"}, NULL: every customer).
CREATE FUNCTION footnote.whoami()
RETURNS jsonb
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN jsonb_build_object('actor', footnote._actor(),
                              'verified', EXISTS (SELECT FROM footnote._verified_identity()),
                              'scope', footnote._scope_stamp());
END
$$;
