-- footnote-pg: access scopes, which customers, suppliers and items a login may see.
--
-- A scope names the customers it sees by account owner, by country and by explicit customer ids; a customer is in
-- the scope when it matches every kind of criterion the scope gives (a criterion left NULL does not restrict).
-- Suppliers are limited the same way by supplier ids and supplier countries, items by item ids; a scope with no
-- criterion of a kind sees every record of that kind. A
-- binding gives a PostgreSQL role a scope. The scope of a session is that of session_user: its own binding, else
-- the one binding among the roles it is a member of (a superuser counts only its own binding). session_user is
-- the login: SET ROLE changes current_user, not it, and nothing here reads a setting the session could set, so an
-- application cannot widen the scope its login is bound to. A login with no binding sees every customer, as
-- before scopes.
--
-- Both tables belong to footnote_owner (sql/90_grants.sql): the DBA edits them with plain SQL or
-- `footnote-pg scope`, footnote_auditor reads them, footnote_service can do neither.
--
-- Everything that reads customers, their invoices, payments, credit notes and tickets, suppliers and their invoices,
-- payments, bank accounts, bank-change requests and purchase orders, items and their stock reads them through the
-- *_in_scope views (sql/04_sources.sql), never the source views themselves: the catalog's queries and evidence queries, the
-- balance functions, name resolution, the router's names and the gate's name matching.

CREATE TABLE footnote.scopes (
    id            text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9_.-]{0,62}$'),
    description   text NOT NULL CHECK (btrim(description) <> ''),
    account_owners text[] CHECK (cardinality(account_owners) > 0),
    countries     text[] CHECK (cardinality(countries) > 0),
    customer_ids  bigint[] CHECK (cardinality(customer_ids) > 0),
    supplier_ids  bigint[] CHECK (cardinality(supplier_ids) > 0),
    supplier_countries text[] CHECK (cardinality(supplier_countries) > 0),
    item_ids      bigint[] CHECK (cardinality(item_ids) > 0)
);
COMMENT ON TABLE footnote.scopes IS
    'access scopes: the customers a scope sees, by account owner, country and customer id (all given kinds must match)';

CREATE TABLE footnote.scope_bindings (
    role  text PRIMARY KEY,
    scope text NOT NULL REFERENCES footnote.scopes (id)
);
COMMENT ON TABLE footnote.scope_bindings IS
    'which scope a PostgreSQL role (a login, or a role logins are members of) is bound to';

-- The digest of a scope's definition: SHA-256 of the canonical JSON of its id and criteria (docs/scopes.md). The
-- customer criteria are always in it (NULL when not given); the supplier and item criteria only when given, so the
-- digest of a scope of customers only is what it was before those existed.
CREATE FUNCTION footnote._scope_digest(s footnote.scopes)
RETURNS text
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote.sha256_hex(footnote._canonical_json(
        jsonb_build_object('id', s.id, 'account_owners', s.account_owners, 'countries', s.countries,
                           'customer_ids', s.customer_ids)
        || jsonb_strip_nulls(jsonb_build_object('supplier_ids', s.supplier_ids,
                                                'supplier_countries', s.supplier_countries,
                                                'item_ids', s.item_ids))))
$$;

-- One kind of criterion of two scopes at once: a customer must match both (NULL does not restrict).
CREATE FUNCTION footnote._scope_both(a anyarray, b anyarray)
RETURNS anyarray
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN a IS NULL THEN b WHEN b IS NULL THEN a
                ELSE ARRAY(SELECT x FROM unnest(a) AS x WHERE x = ANY (b) ORDER BY x) END
$$;

-- The scope of this session, whole (a row of footnote.scopes, NULL without one): a binding of session_user itself
-- wins; else the bindings of the roles it is a member of must name one scope (FN108). A verified identity of this
-- transaction (sql/03_verified.sql) gives its scope instead, narrowed by the login's own scope when the login has
-- one: a record must match both (each kind of criterion the intersection of the two, a kind one of them leaves NULL
-- the other's), so a token never widens what the login sees. A verified scope no longer defined is FN109, never
-- "everything".
CREATE FUNCTION footnote._session_scope_row()
RETURNS footnote.scopes
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    login    text := session_user;
    found    text[];
    verified text;
    s        footnote.scopes;
    l        footnote.scopes;
BEGIN
    SELECT ARRAY[b.scope] INTO found FROM footnote.scope_bindings AS b WHERE b.role = login;
    IF found IS NULL THEN
        SELECT array_agg(DISTINCT b.scope ORDER BY b.scope) INTO found
        FROM footnote.scope_bindings AS b
        JOIN pg_roles AS r ON r.rolname = b.role
        WHERE pg_has_role(login, r.oid, 'MEMBER')
          AND NOT (SELECT u.rolsuper FROM pg_roles AS u WHERE u.rolname = login);  -- a superuser is "member" of all
    END IF;
    SELECT v.scope INTO verified FROM footnote._verified_identity() AS v;
    IF found IS NULL AND verified IS NULL THEN
        RETURN NULL;
    END IF;
    IF cardinality(found) > 1 THEN
        RAISE EXCEPTION USING ERRCODE = 'FN108',
            MESSAGE = format('login %s is bound to several scopes through its roles (%s): bind it to one directly',
                             login, array_to_string(found, ', ')),
            DETAIL = jsonb_build_object('login', login, 'scopes', to_jsonb(found))::text;
    END IF;
    SELECT * INTO s FROM footnote.scopes AS x WHERE x.id = coalesce(verified, found[1]);
    IF verified IS NOT NULL AND s.id IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'FN109',
            MESSAGE = format('unknown scope %s: the verified scope is no longer defined in footnote.scopes',
                             quote_literal(verified)),
            DETAIL = jsonb_build_object('scope', verified)::text;
    END IF;
    IF verified IS NOT NULL AND found IS NOT NULL AND found[1] <> verified THEN
        SELECT * INTO l FROM footnote.scopes AS x WHERE x.id = found[1];
        s.description := s.description || format(' (within scope %s)', l.id);
        s.account_owners := footnote._scope_both(s.account_owners, l.account_owners);
        s.countries := footnote._scope_both(s.countries, l.countries);
        s.customer_ids := footnote._scope_both(s.customer_ids, l.customer_ids);
        s.supplier_ids := footnote._scope_both(s.supplier_ids, l.supplier_ids);
        s.supplier_countries := footnote._scope_both(s.supplier_countries, l.supplier_countries);
        s.item_ids := footnote._scope_both(s.item_ids, l.item_ids);
    END IF;
    RETURN s;
END
$$;

-- The scope of this session: id, description, customer criteria and digest, or all NULL when there is none
-- (everything; footnote._session_scope_row says whose scope it is).
CREATE FUNCTION footnote._session_scope(
    OUT id text, OUT description text, OUT account_owners text[], OUT countries text[], OUT customer_ids bigint[],
    OUT digest text)
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT s.id, s.description, s.account_owners, s.countries, s.customer_ids,
           CASE WHEN s.id IS NOT NULL THEN footnote._scope_digest(s) END
    FROM footnote._session_scope_row() AS s
$$;

-- The supplier and item criteria of this session's scope (all NULL without one, or when it gives none).
CREATE FUNCTION footnote._session_scope_records(
    OUT supplier_ids bigint[], OUT supplier_countries text[], OUT item_ids bigint[])
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT s.supplier_ids, s.supplier_countries, s.item_ids FROM footnote._session_scope_row() AS s
$$;

-- What a portfolio operation sums or lists: customers, suppliers or items (NULL for any other operation).
CREATE FUNCTION footnote._portfolio_of(operation text)
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE
        WHEN operation IN ('ar_aging', 'days_sales_outstanding', 'revenue', 'revenue_change', 'revenue_by_month',
                           'top_customers', 'revenue_drivers', 'rank_customers', 'credit_notes', 'list_customers')
            THEN 'customers'
        WHEN operation IN ('accounts_payable', 'open_purchase_orders', 'list_suppliers') THEN 'suppliers'
        WHEN operation IN ('items_below_reorder', 'list_items') THEN 'items' END
$$;

-- Whether this session's scope limits the customers, suppliers or items (kind): it gives a criterion of that kind.
CREATE FUNCTION footnote._scope_limits(kind text)
RETURNS boolean
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT coalesce(CASE kind
        WHEN 'customers' THEN num_nonnulls(s.account_owners, s.countries, s.customer_ids) > 0
        WHEN 'suppliers' THEN num_nonnulls(r.supplier_ids, r.supplier_countries) > 0
        WHEN 'items' THEN r.item_ids IS NOT NULL END, false)
    FROM footnote._session_scope() AS s, footnote._session_scope_records() AS r
$$;

-- What a result records of the scope it was computed under: {"id", "description", "digest"}, or NULL without a
-- binding. It goes into the result document (footnote._finish), so into the call log's result and its
-- result_hash, and so into every ledger record citing the call: chosen over a column of its own so that the
-- hash chain covers it with no change to what is hashed.
CREATE FUNCTION footnote._scope_stamp()
RETURNS jsonb
LANGUAGE sql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN s.id IS NOT NULL THEN
        jsonb_build_object('id', s.id, 'description', s.description, 'digest', s.digest) END
    FROM footnote._session_scope() AS s
$$;
