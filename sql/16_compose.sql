-- footnote-pg: the templates answers are written from, and the statements they make.
--
-- A template answer is a list of units (sentences and list lines). A unit is literal words and
-- slots; a slot is a value of a call (values.<name> or rows[<n>].<name>) and is filled with that
-- value's formatted text, nothing else. Each unit knows its call, its subject (the customer,
-- supplier, item or invoice it is about), its period or as-of date, and whether an answer must
-- carry it (required) or may leave it out (a detail line). The gate grades every text, the
-- template's own or a rephrasing of it, against these units: docs/statements.md.
--
-- Unit templates: literal text with {name} (a value of the unit's row, or of the call when the
-- unit has no row), {^name} (a value of the call inside a row unit), {name|one|many} (a literal
-- word chosen by whether the value's raw form is 1) and {~words} (words a rephrasing may use for
-- this unit, not shown). A unit whose value the call did not return is left out.

-- The period phrase of a route ("last quarter"): kept only when the user wrote it and it is plain words.
CREATE FUNCTION footnote._note(notes jsonb, key text, question text)
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT n FROM (SELECT btrim(notes->>key) AS n) AS x
    WHERE n ~ '^[A-Za-z][A-Za-z ]{0,39}$' AND strpos(lower(coalesce(question, '')), lower(n)) > 0
$$;

-- One unit of a template: its parts (literal words and slots), call, row, subject and period.
CREATE FUNCTION footnote._unit(r jsonb, tpl text, row_no integer DEFAULT NULL, lead text DEFAULT ' ',
                               role text DEFAULT 'statement', required boolean DEFAULT true)
RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    m       text[];
    parts   jsonb := '[]';
    also    text := '';
    v       jsonb;
    alts    text[];
    name    text;
    path    text;
    subject text;
    period  text;
BEGIN
    FOR m IN SELECT regexp_matches(tpl, '\{([^}]*)\}|([^{]+)', 'g') LOOP
        IF m[2] IS NOT NULL THEN
            parts := parts || jsonb_build_array(jsonb_build_object('w', m[2]));
            CONTINUE;
        END IF;
        IF left(m[1], 1) = '~' THEN
            also := also || ' ' || substr(m[1], 2);
            CONTINUE;
        END IF;
        alts := string_to_array(m[1], '|');
        name := alts[1];
        IF name ~ '^rows\[[0-9]+\]\.' THEN
            v := r->'rows'->((substring(name FROM '^rows\[([0-9]+)\]')::integer) - 1)->(substring(name FROM '\]\.(.*)$'));
            path := name;
        ELSIF row_no IS NULL OR left(name, 1) = '^' THEN
            name := ltrim(name, '^');
            v := r->'values'->name;
            path := 'values.' || name;
        ELSE
            v := r->'rows'->(row_no - 1)->name;
            path := format('rows[%s].%s', row_no, name);
        END IF;
        IF v IS NULL OR v->>'text' IS NULL THEN
            RETURN NULL;
        END IF;
        IF cardinality(alts) = 3 THEN
            parts := parts || jsonb_build_array(jsonb_build_object(
                'w', CASE WHEN v->>'raw' = '1' THEN alts[2] ELSE alts[3] END));
            CONTINUE;
        END IF;
        parts := parts || jsonb_build_array(jsonb_build_object(
            'path', path, 'text', v->>'text', 'kind', v->>'kind', 'evidence', coalesce(v->'evidence', '[]'),
            'sign', CASE WHEN v ? 'signed_raw' THEN sign((v->>'signed_raw')::numeric)::integer
                         WHEN path ~ '\.(change|change_percent)$' THEN
                              CASE coalesce(r->'rows'->(row_no - 1)->'direction'->>'raw', r->'values'->'direction'->>'raw')
                                   WHEN 'up' THEN 1 WHEN 'down' THEN -1 WHEN 'unchanged' THEN 0 END END));
        IF subject IS NULL AND v->>'kind' = 'text' AND jsonb_array_length(coalesce(v->'evidence', '[]')) = 1 THEN
            subject := v->'evidence'->>0;
        END IF;
        IF period IS NULL AND v->>'kind' = 'period' THEN
            period := v->>'text';
        END IF;
    END LOOP;
    IF subject IS NULL THEN
        subject := coalesce(r->'values'->'customer'->'evidence'->>0, r->'values'->'supplier'->'evidence'->>0,
                            r->'values'->'item'->'evidence'->>0);
    END IF;
    RETURN jsonb_build_object(
        'call_id', r->>'call_id', 'operation', r->>'operation', 'row', row_no, 'lead', lead, 'role', role,
        'required', required, 'parts', parts, 'also', btrim(also), 'subject', subject,
        'period', coalesce(period, r->'values'->'period'->>'text', r->'values'->'as_of'->>'text'));
END
$$;

-- Lay units out as one text: the answer, its claims with spans, each unit's span and claims, and the
-- spans of the inference and of the fact lines.
CREATE FUNCTION footnote._layout(units jsonb)
RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    u       jsonb;
    p       jsonb;
    answer  text := '';
    claims  jsonb := '[]';
    laid    jsonb := '[]';
    facts   jsonb := '[]';
    infer   jsonb;
    lead    text;
    s       integer;
    idx     jsonb;
    n       integer := 0;
    after_note boolean := false;
BEGIN
    FOR u IN SELECT x FROM jsonb_array_elements(units) AS x WHERE jsonb_typeof(x) = 'object' LOOP
        lead := CASE WHEN n = 0 THEN '' WHEN after_note AND u->>'lead' = ' ' THEN E'\n' ELSE u->>'lead' END;
        answer := answer || lead;
        s := length(answer);
        idx := '[]';
        FOR p IN SELECT x FROM jsonb_array_elements(u->'parts') AS x LOOP
            IF p ? 'w' THEN
                answer := answer || CASE WHEN left(p->>'w', 1) = '.' AND right(answer, 1) = '.'
                                         THEN substr(p->>'w', 2) ELSE p->>'w' END;
            ELSE
                idx := idx || to_jsonb(jsonb_array_length(claims));
                claims := claims || jsonb_build_array(jsonb_build_object(
                    'text', p->>'text',
                    'span', jsonb_build_object('start', length(answer), 'end', length(answer) + length(p->>'text')),
                    'call_id', u->>'call_id', 'evidence', p->'evidence', 'origin', 'structured',
                    'kind', p->>'kind', 'value', p->>'path', 'unit', n,
                    'statement', jsonb_build_object('measure', substring(p->>'path' FROM '[^.]+$'),
                                                    'subject', u->'subject', 'period', u->'period',
                                                    'sign', p->'sign')));
                answer := answer || (p->>'text');
            END IF;
        END LOOP;
        laid := laid || jsonb_build_array((u - 'parts' - 'lead') || jsonb_build_object(
            'start', s, 'end', length(answer), 'claims', idx));
        IF u->>'role' = 'fact' THEN
            facts := facts || jsonb_build_array(jsonb_build_object('start', s, 'end', length(answer)));
        ELSIF u->>'role' = 'inference' AND infer IS NULL THEN
            infer := jsonb_build_object('start', s, 'end', length(answer));
        END IF;
        after_note := u->>'role' = 'note';
        n := n + 1;
    END LOOP;
    RETURN jsonb_build_object('answer', answer, 'claims', claims, 'units', laid, 'inference', infer,
                              'facts', facts);
END
$$;

-- The template an answer from these operations is graded against when the caller names none.
CREATE FUNCTION footnote._default_intent(operations text[])
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE
        WHEN operations = ARRAY['revenue_change', 'revenue_drivers'] THEN 'revenue_why'
        WHEN cardinality(operations) > 1 AND operations <@ ARRAY['customer_overdue'] THEN 'compare_overdue'
        WHEN cardinality(operations) > 1 AND operations <@ ARRAY['revenue'] THEN 'compare_revenue'
        ELSE 'each'
    END
$$;

-- The units of one operation's own template (also used for calls an agent combines freely).
-- complete: every row, each a unit an answer may leave out; otherwise the rows an answer shows.
CREATE FUNCTION footnote._operation_units(r jsonb, notes jsonb, question text, complete boolean)
RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    op     text := r->>'operation';
    v      jsonb := r->'values';
    nrows  integer := jsonb_array_length(coalesce(r->'rows', '[]'));
    shown  integer;
    u      jsonb := '[]';
    i      integer;
    pnote  text := CASE WHEN footnote._note(notes, 'period', question) IS NULL THEN ''
                        ELSE ' (' || footnote._note(notes, 'period', question) || ')' END;
    level  text;
    oldest numeric;
    split  boolean;
    word   text;
    one    text;
    many   text;
    agg    text;
    dim    text;
    filt   text;
BEGIN
    CASE op
    WHEN 'customer_overdue' THEN
        IF r->>'empty_reason' IS NOT NULL THEN
            u := u || footnote._unit(r, '{customer} has nothing overdue as of {as_of}.{~no invoices account balance}');
        ELSE
            u := u || footnote._unit(r, footnote._overdue_headline());
            shown := CASE WHEN complete THEN nrows ELSE least(nrows, 10) END;
            FOR i IN 1..shown LOOP
                u := u || footnote._unit(r, '{number}: {outstanding} due {due_date}, {days_past_due} past due'
                    || '{~invoice open outstanding for}', i, E'\n- ', 'fact', false);
            END LOOP;
        END IF;
    WHEN 'customer_risk' THEN
        oldest := coalesce((v->'oldest_days_past_due'->>'raw')::numeric, 0);
        level := CASE
            WHEN oldest > 90 OR ((v->'overdue_total'->>'raw')::numeric > 0
                                 AND (v->'high_severity_ticket_count'->>'raw')::numeric > 0 AND oldest > 30)
                THEN 'is at high risk of not paying on time'
            WHEN (v->'overdue_total'->>'raw')::numeric > 0 OR (v->'high_severity_ticket_count'->>'raw')::numeric > 0
                THEN 'shows some risk of paying late'
            ELSE 'shows no sign of payment risk in these facts' END;
        u := u || footnote._unit(r, '{customer} ' || level || '.', NULL, ' ', 'inference');
        u := u || footnote._heading(r);
        IF (v->'overdue_total'->>'raw')::numeric > 0 THEN
            u := u || footnote._unit(r, '{overdue_total} is overdue across {overdue_invoice_count} '
                || '{overdue_invoice_count|invoice|invoices}, the oldest {oldest_days_past_due} past due '
                || '(as of {as_of}).{~in unpaid}', NULL, E'\n- ', 'fact');
        ELSE
            u := u || footnote._unit(r, 'Nothing is overdue (as of {as_of}).', NULL, E'\n- ', 'fact');
        END IF;
        u := u || footnote._unit(r, CASE
            WHEN v->'open_ticket_count' ? 'not_recorded' THEN 'Support tickets are {open_ticket_count}.'
            WHEN v->'high_severity_ticket_count' ? 'not_recorded' THEN '{open_ticket_count} '
                 || '{open_ticket_count|support ticket is|support tickets are} open; their severity is '
                 || '{high_severity_ticket_count}.{~with account}'
            ELSE '{open_ticket_count} {open_ticket_count|support ticket is|support tickets are} '
                 || 'open, {high_severity_ticket_count} of them high severity.{~with account}' END, NULL, E'\n- ', 'fact');
        u := u || footnote._unit(r, 'The agreed payment terms are {payment_terms} and the account owner is '
            || '{account_owner}.', NULL, E'\n- ', 'fact');
    WHEN 'open_tickets' THEN
        IF r->>'empty_reason' IS NOT NULL THEN
            u := u || footnote._unit(r, '{customer} has no open support tickets as of {as_of}.{~account}');
        ELSE
            u := u || footnote._unit(r, '{customer} has {open_count} open {open_count|support ticket|support tickets}'
                || CASE WHEN v->'high_severity_count' ? 'not_recorded' THEN ' (as of {as_of}); their severity is '
                        || '{high_severity_count}:{~with account}'
                        ELSE ', {high_severity_count} of them high severity (as of {as_of}):{~with account}' END);
            FOR i IN 1..nrows LOOP
                u := u || footnote._unit(r, CASE WHEN v->'high_severity_count' ? 'not_recorded'
                                                 THEN '{subject} (open for {age}){~opened}'
                                                 ELSE '{subject} ({severity}, open for {age}){~severity opened}' END,
                                         i, E'\n- ', 'fact', false);
            END LOOP;
        END IF;
    WHEN 'ar_aging' THEN
        u := u || footnote._unit(r, CASE WHEN v ? 'customer' THEN 'Accounts receivable of {customer}'
                                         ELSE 'Accounts receivable' END
            || ' as of {as_of}: {total_outstanding} open across {invoice_count} '
            || '{invoice_count|invoice|invoices}, {overdue_total} of it overdue across {overdue_invoice_count} '
            || '{overdue_invoice_count|invoice|invoices}.{~aging total in account past due}');
        -- an invoice in instalments is aged by each due line's own due date (as Tryton's aged balance ages each
        -- move line by its maturity date), so it may be in two buckets: the buckets then count due lines, which
        -- add up to the total, and say of how many invoices
        split := v ? 'due_line_count' AND v->'due_line_count'->>'raw' IS DISTINCT FROM v->'invoice_count'->>'raw';
        IF split THEN
            u := u || footnote._unit(r, 'An invoice in instalments falls due in parts, each aged by its own due date: '
                || 'the {invoice_count} {invoice_count|invoice|invoices} have {due_line_count} open due '
                || '{due_line_count|line|lines}, {overdue_due_line_count} of them overdue.'
                || '{~aging bucket buckets past}', NULL, ' ', 'fact', false);
        END IF;
        FOR i IN 1..nrows LOOP
            u := u || footnote._unit(r, CASE WHEN split
                    THEN '{bucket}: {outstanding} ({due_line_count} due {due_line_count|line|lines} of {invoice_count} '
                         || '{invoice_count|invoice|invoices})'
                    ELSE '{bucket}: {outstanding} ({invoice_count} {invoice_count|invoice|invoices})' END
                || '{~open outstanding overdue past due bucket in across}', i, E'\n- ', 'fact');
        END LOOP;
        IF v ? 'unapplied_credits' THEN
            u := u || footnote._unit(r, 'With {credit_count} {credit_count|credit|credits} on account of '
                || '{unapplied_credits} (payments on account, credit notes not applied to an invoice), the net '
                || 'receivable is {net_outstanding}.{~less minus after}', NULL, E'\n', 'statement', false);
        END IF;
    WHEN 'days_sales_outstanding' THEN
        IF NOT v ? 'dso' THEN
            u := u || footnote._unit(r, 'Days sales outstanding cannot be computed as of {as_of}: receivables were '
                || '{receivables} and gross sales in the {window} ending that day {gross_sales}, and a ratio over no '
                || 'sales says nothing.{~window period over with}');
        ELSE
            u := u || footnote._unit(r, 'Days sales outstanding as of {as_of} were {dso}: receivables of '
                || '{receivables} against gross sales of {gross_sales} in the {window} ending that day.'
                || '{~window period over with last prior preceding trailing rolling past}');
        END IF;
    WHEN 'revenue' THEN
        IF r->>'empty_reason' IS NOT NULL THEN
            u := u || footnote._unit(r, 'There was no revenue in {period}' || pnote
                || ': no invoices or credit notes were issued.');
        ELSE
            u := u || footnote._unit(r, 'Revenue' || CASE WHEN v ? 'customer' THEN ' from {customer}' ELSE '' END
                || ' in {period}' || pnote || ' was {revenue} ({invoice_count} {invoice_count|invoice|invoices}, '
                || '{credit_note_count} {credit_note_count|credit note|credit notes}).{~period issued with}');
        END IF;
    WHEN 'revenue_change' THEN
        u := u || footnote._unit(r, footnote._change_template(r));
    WHEN 'revenue_drivers' THEN
        u := u || footnote._unit(r, 'The customers whose revenue ' || CASE v->'direction'->>'raw' WHEN 'up' THEN 'rose'
            WHEN 'down' THEN 'fell' ELSE 'changed' END || ' most between {period_from} and '
            || '{period_to}:{~largest change biggest}');
        FOR i IN 1..nrows LOOP
            u := u || footnote._driver_unit(r, i, false);
        END LOOP;
    WHEN 'top_customers' THEN
        IF nrows = 0 THEN
            u := u || footnote._unit(r, 'No customer had revenue in {period}.');
        ELSE
            u := u || footnote._unit(r, CASE WHEN v->'direction'->>'raw' = 'asc'
                THEN 'The {listed} customers with the least revenue in {period}, least first' || pnote
                     || ':{~smallest lowest ranked ranking period}'
                ELSE 'Top {listed} customers by revenue in {period}' || pnote
                     || ':{~largest ranked ranking period}' END);
            FOR i IN 1..nrows LOOP
                u := u || footnote._unit(r, '{rank}. {customer}: {revenue}{~with revenue ranked rank}', i,
                                         E'\n', 'statement');
            END LOOP;
        END IF;
    WHEN 'invoice' THEN
        u := u || footnote._unit(r, '{number} ({customer}), issued {issue_date} and due {due_date}, is {gross} gross.'
            || '{~invoice total amount}');
        IF NOT v ? 'outstanding' THEN
            u := u || footnote._unit(r, 'It was not yet issued as of {as_of}.');
        ELSE
            u := u || footnote._unit(r, 'Paid {paid}, credited {credited}, outstanding {outstanding}'
                || CASE WHEN v ? 'days_past_due' THEN ', {days_past_due} past due' ELSE '' END
                || ' (as of {as_of}).{~open remaining amount}');
            IF v ? 'instalments' THEN  -- each instalment named: its amount and due date
                u := u || footnote._unit(r, 'It falls due in {instalments} instalments: '
                    || (SELECT string_agg(format('{instalment_%s_amount} due {instalment_%s_due}', k, k), ', '
                                          ORDER BY k)
                        FROM generate_series(1, (v->'instalments'->>'raw')::integer) AS k
                        WHERE v ? format('instalment_%s_due', k))
                    || '; {overdue} of what is outstanding is past due.{~open overdue parts on}');
            END IF;
        END IF;
        u := u || footnote._unit(r, 'Net {net}, tax {tax}.{~amount}', NULL, ' ', 'statement', false);
        FOR i IN 1..nrows LOOP
            u := u || footnote._unit(r, '{type} of {amount} on {date}{~received paid}', i, E'\n- ', 'fact', false);
        END LOOP;
    WHEN 'accounts_payable' THEN
        IF r->>'empty_reason' IS NOT NULL THEN
            u := u || footnote._unit(r, 'No supplier invoice'
                || CASE WHEN v ? 'supplier' THEN ' from {supplier}' ELSE '' END || ' is open as of {as_of}.'
                || '{~accounts payable unpaid nothing}');
        ELSE
            u := u || footnote._unit(r, 'Accounts payable as of {as_of}: {open_total} open across {open_count} supplier '
                || '{open_count|invoice|invoices}' || CASE WHEN v ? 'supplier' THEN ' from {supplier}' ELSE '' END
                || CASE WHEN (v->'overdue_count'->>'raw')::numeric = 0 THEN ', none of it overdue.'
                        ELSE ', {overdue_total} of it overdue across {overdue_count} {overdue_count|invoice|invoices}.' END
                || '{~unpaid payable we owe owed to total}');
            shown := CASE WHEN complete THEN nrows ELSE least(nrows, 10) END;
            FOR i IN 1..shown LOOP
                u := u || footnote._unit(r, '{number} ({supplier}): '
                    || CASE WHEN (r->'rows'->(i - 1)->'paid'->>'raw')::numeric > 0
                            THEN '{open} open of {gross} ({paid} paid)' ELSE '{gross}' END
                    || CASE WHEN (r->'rows'->(i - 1)->'days_past_due'->>'raw')::numeric > 0
                            THEN ' due {due_date}, {days_past_due} past due' ELSE ' due {due_date}' END
                    || '{~invoice open unpaid}', i, E'\n- ', 'fact', false);
            END LOOP;
        END IF;
    WHEN 'open_purchase_orders' THEN
        IF r->>'empty_reason' IS NOT NULL THEN
            u := u || footnote._unit(r, 'There are no open purchase orders'
                || CASE WHEN v ? 'supplier' THEN ' from {supplier}' ELSE '' END
                || CASE WHEN v ? 'expected_in' THEN ' expected in {expected_in}' ELSE '' END || '.');
        ELSE
            u := u || footnote._unit(r, 'There are {open_count} open {open_count|purchase order|purchase orders}'
                || CASE WHEN v ? 'supplier' THEN ' from {supplier}' ELSE '' END
                || CASE WHEN v ? 'expected_in' THEN ' expected in {expected_in}' ELSE '' END || ' worth {open_total} net.'
                || '{~total value with}');
            shown := CASE WHEN complete THEN nrows ELSE least(nrows, 10) END;
            FOR i IN 1..shown LOOP
                u := u || footnote._unit(r, '{number} ({supplier}): {net}, expected {expected_on}, {status}'
                    || '{~net status}', i, E'\n- ', 'fact', false);
            END LOOP;
        END IF;
    WHEN 'stock_on_hand' THEN
        IF r->>'empty_reason' IS NOT NULL THEN
            u := u || footnote._unit(r, 'There is no stock record of {item} ({sku}).');
        ELSE
            u := u || footnote._unit(r, 'Stock of {item} ({sku}): {quantity} {unit} across {warehouse_count} '
                || '{warehouse_count|warehouse|warehouses}; the reorder level is {reorder_level}'
                || CASE WHEN v->'below_reorder_level'->>'raw' = 'yes' THEN ', so it is below it.' ELSE '.' END
                || '{~total in with level}');
            FOR i IN 1..nrows LOOP
                u := u || footnote._unit(r, '{warehouse}: {quantity}{~in stock}', i, E'\n- ', 'fact', false);
            END LOOP;
        END IF;
    WHEN 'supplier_payment_facts' THEN
        u := u || footnote._supplier_units(r);
    WHEN 'list_customers' THEN
        IF r->>'empty_reason' IS NOT NULL THEN
            u := u || footnote._unit(r, 'No customer matches'
                || CASE WHEN v ? 'owner' THEN ' with the account owner {owner}' ELSE '' END
                || CASE WHEN v ? 'country' THEN ' in {country}' ELSE '' END || '.');
        ELSE
            u := u || footnote._unit(r, '{matching} {matching|customer matches|customers match}'
                || CASE WHEN v ? 'owner' THEN ' with the account owner {owner}' ELSE '' END
                || CASE WHEN v ? 'country' THEN ' in {country}' ELSE '' END || '; {listed} listed:{~managed by}');
            shown := CASE WHEN complete THEN nrows ELSE least(nrows, 30) END;
            FOR i IN 1..shown LOOP
                u := u || footnote._unit(r, '{name} ({customer_number}){~customer number}', i, E'\n- ', 'fact',
                                         i <= 30);
            END LOOP;
        END IF;
    WHEN 'list_suppliers' THEN
        IF r->>'empty_reason' IS NOT NULL THEN
            u := u || footnote._unit(r, 'No supplier matches.');
        ELSE
            u := u || footnote._unit(r, '{matching} {matching|supplier matches|suppliers match}; {listed} listed:');
            FOR i IN 1..nrows LOOP
                u := u || footnote._unit(r, '{name} ({supplier_number}, {country}){~supplier number}', i, E'\n- ',
                                         'fact', i <= 30);
            END LOOP;
        END IF;
    WHEN 'list_items' THEN
        IF r->>'empty_reason' IS NOT NULL THEN
            u := u || footnote._unit(r, 'No item matches.');
        ELSE
            u := u || footnote._unit(r, '{matching} {matching|item matches|items match}; {listed} listed:');
            FOR i IN 1..nrows LOOP
                u := u || footnote._unit(r, '{name} ({sku}, {unit}){~item}', i, E'\n- ', 'fact', i <= 30);
            END LOOP;
        END IF;
    WHEN 'customer_payments' THEN
        IF r->>'empty_reason' IS NOT NULL THEN
            u := u || footnote._unit(r, '{customer} made no payments' || CASE WHEN v ? 'period' THEN ' in {period}' ELSE '' END
                || ' (as of {as_of}).');
        ELSE
            u := u || footnote._unit(r, '{customer} paid {total_paid} in {payment_count} {payment_count|payment|payments}'
                || CASE WHEN v ? 'period' THEN ' in {period}' ELSE '' END
                || ', from {first_payment_on} to {last_payment_on} (as of {as_of}).{~us made total last first received}');
            IF v ? 'average_days_to_pay' THEN
                u := u || footnote._unit(r, 'Of the {settled_invoice_count} {settled_invoice_count|invoice|invoices} '
                    || 'these payments settled, {paid_late_count} {paid_late_count|was|were} paid after the due date; '
                    || 'on average an invoice was paid {average_days_to_pay} after it was issued.'
                    || '{~late took take days settled}');
            END IF;
            shown := CASE WHEN complete THEN nrows ELSE least(nrows, 10) END;
            FOR i IN 1..shown LOOP
                u := u || footnote._unit(r, CASE WHEN r->'rows'->(i - 1) ? 'invoice'
                    THEN '{paid_on}: {amount} for {invoice} ({method}){~paid payment by}'
                    ELSE '{paid_on}: {amount} on account, for no invoice yet ({method}){~paid payment by unallocated}' END,
                    i, E'\n- ', 'fact', false);
            END LOOP;
        END IF;
    WHEN 'customer_profile' THEN
        u := u || footnote._unit(r, '{customer} ({customer_number}, {city}, {country}): payment terms {payment_terms}, '
            || 'account owner {account_owner}, credit limit {credit_limit}.{~customer number based in}');
        u := u || footnote._unit(r, CASE WHEN v ? 'unapplied_credits'
            THEN 'As of {as_of}, {invoices_open} is open across {open_invoice_count} '
                 || '{open_invoice_count|invoice|invoices}, {overdue_total} of it overdue; with {credit_count} '
                 || '{credit_count|credit|credits} on account of {unapplied_credits} (not applied to an invoice), '
                 || 'the balance is {open_balance}'
            ELSE 'As of {as_of}, {open_balance} is open across {open_invoice_count} '
                 || '{open_invoice_count|invoice|invoices}, {overdue_total} of it overdue' END
            || CASE WHEN v->'open_ticket_count' ? 'not_recorded' THEN '; support tickets are {open_ticket_count}.'
                    ELSE ', and {open_ticket_count} {open_ticket_count|support ticket is|support tickets are} open.' END
            || '{~balance outstanding}');
    WHEN 'rank_customers' THEN
        word := CASE v->'measure'->>'raw' WHEN 'overdue' THEN 'overdue amount' WHEN 'outstanding' THEN 'open balance'
                     ELSE 'oldest overdue invoice' END;
        IF nrows = 0 THEN
            u := u || footnote._unit(r, 'No customer has ' || CASE v->'measure'->>'raw' WHEN 'outstanding'
                THEN 'an open balance' ELSE 'anything overdue' END || ' as of {as_of}.');
        ELSE
            u := u || footnote._unit(r, 'Customers by ' || word || ' as of {as_of}, '
                || CASE WHEN v->'direction'->>'raw' = 'asc' THEN 'smallest' ELSE 'largest' END
                || ' first ({listed} of {ranked} with '
                || CASE v->'measure'->>'raw' WHEN 'outstanding' THEN 'an open balance' ELSE 'anything overdue' END
                || '):{~ranked rank owe owes most least top}');
            FOR i IN 1..nrows LOOP
                u := u || footnote._unit(r, CASE WHEN v->'measure'->>'raw' = 'oldest overdue'
                    THEN '{rank}. {customer}: the oldest overdue invoice {value} past due ({invoice_count} overdue '
                         || '{invoice_count|invoice|invoices})'
                    ELSE '{rank}. {customer}: {value} ' || CASE WHEN v->'measure'->>'raw' = 'overdue' THEN 'overdue'
                         ELSE 'open' END || ' across {invoice_count} {invoice_count|invoice|invoices}' END
                    || '{~owes owe outstanding}'
                    -- the first of the ranking is the largest (or the smallest, or the oldest) of all it ranked
                    || CASE WHEN i = 1 AND v->'measure'->>'raw' = 'oldest overdue' THEN '{~oldest}'
                            WHEN i = 1 AND v->'direction'->>'raw' = 'asc' THEN '{~smallest least}'
                            WHEN i = 1 THEN '{~largest most}' ELSE '' END, i, E'\n', 'statement');
            END LOOP;
        END IF;
    WHEN 'revenue_by_month' THEN
        u := u || footnote._unit(r, 'Revenue' || CASE WHEN v ? 'customer' THEN ' from {customer}' ELSE '' END
            || ' in {period} by month, {revenue} in total:{~monthly month each per}');
        FOR i IN 1..nrows LOOP
            u := u || footnote._unit(r, '{month}: {revenue} ({invoice_count} {invoice_count|invoice|invoices}, '
                || '{credit_note_count} {credit_note_count|credit note|credit notes}){~in revenue}', i, E'\n- ', 'fact');
        END LOOP;
    WHEN 'credit_notes' THEN
        IF r->>'empty_reason' IS NOT NULL THEN
            u := u || footnote._unit(r, 'No credit notes were issued in {period}'
                || CASE WHEN v ? 'customer' THEN ' to {customer}' ELSE '' END || '.');
        ELSE
            u := u || footnote._unit(r, '{credit_note_count} {credit_note_count|credit note was|credit notes were} issued '
                || 'in {period}' || CASE WHEN v ? 'customer' THEN ' to {customer}' ELSE '' END
                || ', {total_net} net in total:{~total}');
            shown := CASE WHEN complete THEN nrows ELSE least(nrows, 10) END;
            FOR i IN 1..shown LOOP
                u := u || footnote._unit(r, '{number} ({customer}): {net} net on {issue_date}, '
                    || CASE WHEN r->'rows'->(i - 1)->'invoice'->>'raw' IS NULL
                            THEN 'naming no invoice (a credit on the account)' ELSE 'crediting {invoice}' END
                    || '{~credited issued against}', i, E'\n- ', 'fact', false);
            END LOOP;
        END IF;
    WHEN 'breakdown' THEN
        SELECT x.label, x.record_one, x.record_many, x.aggregate INTO word, one, many, agg
        FROM footnote._breakdown_measures() AS x WHERE x.name = r->'effective_arguments'->>'measure';
        dim := r->'effective_arguments'->>'by';
        filt := CASE WHEN v ? 'customer' THEN ' from {customer}' WHEN v ? 'supplier' THEN ' with {supplier}' ELSE '' END
            || CASE WHEN v ? 'account_owner' THEN ', customers of {account_owner}' ELSE '' END
            || CASE WHEN v ? 'country' THEN ', in {country}' ELSE '' END;
        IF r->>'empty_reason' IS NOT NULL THEN
            u := u || footnote._unit(r, 'There are no ' || many || ' in {period}' || pnote || filt
                || ', so ' || lower(word) || ' is nothing.{~dated issued opened received none zero}');
        ELSE
            u := u || footnote._unit(r, word || ' in {period}' || pnote || filt
                || CASE WHEN dim IS NOT NULL THEN ' by ' || replace(dim, '_', ' ') ELSE '' END
                || CASE WHEN agg = 'count' THEN ': {total}'
                        WHEN agg = 'average' THEN ': {total} overall, over {count} {count|' || one || '|' || many || '}'
                        ELSE ': {total} in total, from {count} {count|' || one || '|' || many || '}' END
                || CASE WHEN dim IS NOT NULL THEN ', ' || footnote._breakdown_groups(dim, 'groups') || ':' ELSE '.' END
                || '{~by per each across total overall groups dated issued opened collected received paid}');
            FOR i IN 1..nrows LOOP
                u := u || footnote._unit(r, '{' || dim || '}: {value}'
                    || CASE WHEN agg = 'count' THEN '' ELSE ' ({count} {count|' || one || '|' || many || '})' END
                    || '{~in from with by of}', i, E'\n- ', 'fact', i <= 30);
            END LOOP;
            IF v ? 'others' THEN
                u := u || footnote._unit(r, 'The other ' || footnote._breakdown_groups(dim, 'other_groups') || ': {others}.'
                    || '{~rest remaining together}', NULL, E'\n', 'statement', false);
            END IF;
        END IF;
    WHEN 'items_below_reorder' THEN
        u := u || footnote._unit(r, '{item_count} {item_count|item is|items are} below '
            || '{item_count|its|their} reorder level' || CASE WHEN nrows > 0 THEN ':' ELSE '.' END || '{~stock}');
        FOR i IN 1..nrows LOOP
            u := u || footnote._unit(r, '{item} ({sku}): {quantity} {unit}, reorder level {reorder_level}{~stock on hand}',
                                     i, E'\n- ', 'fact');
        END LOOP;
    WHEN 'purchase_order' THEN
        u := u || footnote._unit(r, '{number} ({supplier}), ordered {ordered_on} and expected {expected_on}, is {net} net; '
            || 'its status is {status}.{~purchase order}');
    ELSE
        NULL;  -- source_record and anything new: no statements of its own
    END CASE;
    RETURN u;
END
$$;

-- What a customer owes overdue, in one sentence (an overdue answer, and each line of a comparison).
CREATE FUNCTION footnote._overdue_headline()
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT '{customer} owes {overdue_total} overdue across {invoice_count} {invoice_count|invoice|invoices}, the oldest '
        || '{oldest_days_past_due} past due (as of {as_of}).{~in payments unpaid balance period account receivables}'
$$;

-- The line that marks what precedes it as an interpretation and what follows as its facts.
CREATE FUNCTION footnote._heading(r jsonb)
RETURNS jsonb
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._unit(r, 'This is an interpretation — the underlying facts are:{~based on}', NULL, E'\n', 'heading', false)
$$;

-- The sentence of a revenue change, its verb taken from the sign computed in SQL.
CREATE FUNCTION footnote._change_template(r jsonb)
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT 'Revenue' || CASE WHEN r->'values' ? 'customer' THEN ' from {customer}' ELSE '' END
        || CASE WHEN r->'values'->'direction'->>'raw' = 'unchanged'
                THEN ' was unchanged at {revenue_to} in {period_from} and {period_to}.{~both}'
                ELSE CASE WHEN r->'values'->'direction'->>'raw' = 'up' THEN ' rose' ELSE ' fell' END
                     || ' from {revenue_from} in {period_from} to {revenue_to} in {period_to}, by {change}'
                     || CASE WHEN r->'values' ? 'change_percent' THEN ' ({change_percent})' ELSE '' END
                     || '.{~change compared with versus vs period}'
                     -- a percentage of no base, or of a negative one, says nothing: say why there is none
                     || CASE WHEN r->'values' ? 'change_percent' THEN ''
                             WHEN (r->'values'->'revenue_from'->>'raw')::numeric < 0
                             THEN ' No change in percent is given: revenue in {^period_from} was negative.'
                             ELSE ' No change in percent is given: there was no revenue in {^period_from}.' END END
$$;

-- One line of revenue drivers: a customer's revenue in both periods and the change.
CREATE FUNCTION footnote._driver_unit(r jsonb, i integer, required boolean)
RETURNS jsonb
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT footnote._unit(r, '{customer}: {revenue_from} in {^period_from}, {revenue_to} in {^period_to} ('
        || CASE r->'rows'->(i - 1)->'direction'->>'raw' WHEN 'up' THEN 'up' WHEN 'down' THEN 'down'
                ELSE 'unchanged' END
        || ' {change}){~revenue change by versus vs}', i, E'\n- ', 'fact', required)
$$;

-- The decision units of supplier payment facts: the advice first, then the facts behind it.
CREATE FUNCTION footnote._supplier_units(r jsonb)
RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    v          jsonb := r->'values';
    pending    boolean := v ? 'pending_account_ending';
    unverified boolean := (v->'pending_account_ending'->>'verified')::boolean IS FALSE;
    u          jsonb := '[]';
BEGIN
    u := u || footnote._unit(r, CASE
        WHEN pending AND unverified THEN 'Hold any payment to the new account and call {supplier} back on the phone '
                                         || 'number on file before changing bank details.{~all payments}'
        WHEN pending THEN 'A bank-detail change for {supplier} is pending; pay only to an account that has been verified.'
        WHEN v->'pending_change_count' ? 'not_recorded' THEN 'No bank-detail change requests are recorded in this ERP, '
             || 'so these records cannot show whether one is pending: confirm any new bank details for {supplier} by '
             || 'phone before paying.'
        WHEN (v->'accounts_on_file'->>'raw')::integer = 0 THEN 'No bank account of {supplier} is on file, so these '
             || 'records cannot show which account to pay.'
        ELSE 'Nothing in these records argues against paying {supplier} to the account on file.' END,
        NULL, ' ', 'inference');
    u := u || footnote._heading(r);
    IF v ? 'first_payment_on' THEN
        u := u || footnote._unit(r, CASE WHEN v ? 'paid_account_ending'
            THEN '{payment_count} payments since {first_payment_on}, all to the account ending {paid_account_ending} '
                 || '(verified).{~made}'
            ELSE '{payment_count} payments since {first_payment_on}, the last on {last_payment_on}.{~made}' END,
            NULL, E'\n- ', 'fact');
    END IF;
    IF pending THEN
        u := u || footnote._unit(r, 'A request by {pending_channel} on {pending_requested_on} asks to pay a new account '
            || 'ending {pending_account_ending}' || CASE WHEN unverified THEN '; it is not verified.' ELSE '.' END
            || '{~bank details change}', NULL, E'\n- ', 'fact');
        u := u || footnote._unit(r, 'The sender''s domain was registered {pending_domain_age} before the request.',
                                 NULL, E'\n- ', 'fact');
    END IF;
    IF v->'phone_unchanged_since'->>'raw' IS NOT NULL THEN   -- an ERP may keep no date for a phone number
        -- a fact that backs the advice, not a caveat of it: a summary may leave it out
        u := u || footnote._unit(r, 'The phone number on file has not changed since {phone_unchanged_since}.', NULL,
                                 E'\n- ', 'fact', false);
    END IF;
    RETURN u;
END
$$;

-- The units of an answer: the template of an intent over the results of its calls (in call order).
CREATE FUNCTION footnote._template_units(intent text, results jsonb, notes jsonb, question text, complete boolean)
RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    u      jsonb := '[]';
    r      jsonb;
    first  jsonb := results->0;
    n      integer := 0;
    typed  text := btrim(notes->>'typed');
    key    text;
    i      integer;
BEGIN
    -- "(Reading “Bergman” as Bergmann Logistik GmbH.)": the name the router assumed for what was typed
    key := CASE WHEN notes ? 'assumed_customer' THEN 'customer' WHEN notes ? 'assumed_supplier' THEN 'supplier'
                WHEN notes ? 'assumed_item' THEN 'item' END;
    IF key IS NOT NULL AND typed ~ '^[^{}0-9]{1,100}$' AND strpos(lower(coalesce(question, '')), lower(typed)) > 0
       AND first->'values'->key->>'text' = notes->>('assumed_' || key) THEN
        u := u || footnote._unit(first, '(Reading “' || typed || '” as {' || key || '}.){~assumed}', NULL, '', 'note',
                                 false);
    END IF;
    -- "(For the customers of scope west.)": figures over the customers (suppliers, items) of the login's access
    -- scope only (sql/03_scopes.sql); a portfolio result computed under one that limits them has the value scope
    IF first->'values' ? 'scope' THEN
        u := u || footnote._unit(first, '(For the ' || coalesce(footnote._portfolio_of(first->>'operation'),
                                                          first->'values'->'scope'->>'of', 'customers')
                                        || ' of scope {scope}.){~access only}', NULL, '', 'note', false);
    END IF;

    IF intent = 'compare_overdue' THEN
        FOR r IN SELECT x FROM jsonb_array_elements(results) AS x LOOP
            u := u || footnote._unit(r, CASE WHEN r->>'empty_reason' IS NOT NULL
                THEN '{customer} has nothing overdue (as of {as_of}).{~no invoices account balance}'
                ELSE footnote._overdue_headline() END,
                NULL, CASE WHEN n = 0 THEN ' ' ELSE E'\n' END);
            n := n + 1;
        END LOOP;
    ELSIF intent = 'compare_revenue' THEN
        FOR r IN SELECT x FROM jsonb_array_elements(results) AS x LOOP
            u := u || footnote._unit(r, 'Revenue' || CASE WHEN r->'values' ? 'customer' THEN ' from {customer}' ELSE '' END
                || ' in {period} was {revenue}.{~compared with versus vs period}', NULL,
                CASE WHEN n = 0 THEN ' ' ELSE E'\n' END);
            n := n + 1;
        END LOOP;
    ELSIF intent = 'revenue_why' THEN
        u := u || footnote._unit(first, footnote._change_template(first));
        r := results->1;
        IF jsonb_array_length(coalesce(r->'rows', '[]')) > 0 AND first->'values'->'direction'->>'raw' <> 'unchanged' THEN
            u := u || footnote._unit(r, 'The largest part of the change came from {rows[1].customer}.{~most}', NULL,
                                     E'\n', 'inference');
            u := u || footnote._heading(r);
            FOR i IN 1..jsonb_array_length(r->'rows') LOOP
                u := u || footnote._driver_unit(r, i, i = 1);
            END LOOP;
        END IF;
    ELSE  -- each call's own template, in call order
        FOR r IN SELECT x FROM jsonb_array_elements(results) AS x LOOP
            u := u || (SELECT coalesce(jsonb_agg(CASE WHEN n > 0 AND k.o = 1 THEN x || '{"lead": "\n"}' ELSE x END
                                                 ORDER BY k.o), '[]')
                       FROM jsonb_array_elements(footnote._operation_units(r, notes, question, complete))
                            WITH ORDINALITY AS k(x, o));
            n := n + 1;
        END LOOP;
    END IF;
    RETURN u;
END
$$;

-- The template answer for calls of this session: text, claims with spans, units, inference and fact spans.
-- intent: compare_overdue, compare_revenue or revenue_why where the calls fit it; otherwise each call's own
-- template in call order. notes: the route's notes (a period phrase the user wrote, a name the router
-- assumed for what was typed), shown only when the question holds them.
CREATE FUNCTION footnote.compose(call_ids uuid[], intent text DEFAULT NULL, notes jsonb DEFAULT NULL,
                                 question text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    idx jsonb;
BEGIN
    call_ids := footnote._uuids_arg('call_ids', call_ids, true);
    PERFORM footnote._text_arg('intent', intent, false, 60);
    notes := footnote._json_arg('notes', notes, 'object');
    PERFORM footnote._text_arg('question', question, false, 2000);
    idx := footnote._call_index(call_ids, false);
    IF jsonb_array_length(idx->'unknown') > 0 THEN
        PERFORM footnote._invalid('call_ids', format('call %s was never made', idx->'unknown'->>0), idx->'unknown'->>0);
    END IF;
    RETURN footnote._template_of(jsonb_build_object('intent', intent, 'notes', notes), question, idx, call_ids, false);
END
$$;

-- The template an intent names, when the calls fit it; otherwise each call's own ('each').
CREATE FUNCTION footnote._intent(intent text, results jsonb)
RETURNS text
LANGUAGE sql IMMUTABLE
SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN coalesce(intent, d) IN ('compare_overdue', 'compare_revenue', 'revenue_why')
                     AND footnote._default_intent(ops) = coalesce(intent, d) THEN coalesce(intent, d)
                ELSE 'each' END
    FROM (SELECT ARRAY(SELECT x->>'operation' FROM jsonb_array_elements(results) WITH ORDINALITY AS e(x, n)
                       ORDER BY n) AS ops) AS o,
         LATERAL (SELECT footnote._default_intent(o.ops) AS d) AS dd
$$;
