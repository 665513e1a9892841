-- footnote-pg: the source position of a node's figures.
--
-- A node is a database of its own that receives the ERP's tables through PostgreSQL's logical replication
-- (`footnote-pg node init`, docs/node.md); the setting node_subscription names its subscription. Every result
-- computed there records where the ERP's data stood (footnote._finish puts the stamp into the result document,
-- so into the call log's result and result_hash, and into every ledger record citing the call), and a call
-- refuses with FN007 when the node is further behind than node_max_lag. On a primary install (node_subscription
-- NULL) the stamp is NULL and no result changes.

-- The settings node_subscription and node_max_lag (default 60s) are rows `footnote-pg node init` adds to
-- footnote.settings on the node; a primary install has neither.

-- Where the ERP's data stood for this node: the subscription, the last ERP WAL position received, the ERP''s
-- WAL end it last reported, the ERP's clock when it sent its newest message (everything it had flushed by then
-- is received: the walsender sends its WAL end when it has nothing left to send) and the lag: the age of that
-- message at this call. Lag is NULL while the apply worker is not running (disabled, failing, restarting).
CREATE FUNCTION footnote.node_position()
RETURNS jsonb
LANGUAGE sql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN n.name IS NOT NULL THEN jsonb_build_object(
        'subscription', n.name,
        'received_lsn', w.received_lsn::text,
        'reported_lsn', w.latest_end_lsn::text,
        'source_time', to_char(w.last_msg_send_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        'lag_seconds', round(extract(epoch FROM clock_timestamp() - w.last_msg_send_time)::numeric, 3)::text) END
    FROM (SELECT footnote.setting('node_subscription') AS name) AS n
    LEFT JOIN LATERAL (
        SELECT s.received_lsn, s.latest_end_lsn, s.last_msg_send_time
        FROM pg_catalog.pg_stat_subscription AS s
        JOIN pg_catalog.pg_subscription AS u ON u.oid = s.subid
        WHERE u.subname = n.name AND u.subdbid = (SELECT d.oid FROM pg_catalog.pg_database AS d
                                                 WHERE d.datname = pg_catalog.current_database())
          AND s.relid IS NULL AND s.received_lsn IS NOT NULL
        ORDER BY s.received_lsn DESC
        LIMIT 1) AS w ON true
$$;

-- The stamp a result carries (footnote._finish): NULL on a primary install; on a node the position, or FN007
-- when the node is further behind than node_max_lag or receives nothing.
CREATE FUNCTION footnote._node_stamp()
RETURNS jsonb
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    pos   jsonb;
    bound interval;
BEGIN
    IF footnote.setting('node_subscription') IS NULL THEN
        RETURN NULL;
    END IF;
    pos := footnote.node_position();
    bound := coalesce(footnote.setting('node_max_lag'), '60s')::interval;
    IF pos->>'lag_seconds' IS NULL OR (pos->>'lag_seconds')::numeric > extract(epoch FROM bound) THEN
        RAISE EXCEPTION USING
            ERRCODE = 'FN007',
            MESSAGE = CASE WHEN pos->>'lag_seconds' IS NULL THEN
                format('this node receives nothing from the ERP (subscription %s is not running): no figure is '
                       'answered; footnote-pg node status says why', pos->>'subscription')
                ELSE format('this node is %s s behind the ERP, more than node_max_lag (%s): no figure is answered '
                            'until it catches up; footnote-pg node status says why', pos->>'lag_seconds',
                            bound) END,
            DETAIL = (pos || jsonb_build_object('node_max_lag', bound::text))::text;
    END IF;
    RETURN pos;
END
$$;
