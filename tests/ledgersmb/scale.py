"""Add N sales invoices to a LedgerSMB company built by tests/ledgersmb/build.py, as its Perl and payment_post
write them, for timing questions at scale.

    python -m tests.ledgersmb.scale URL N [CUSTOMERS]

URL names the company database. CUSTOMERS (default 400) new customers through company__save/eca__save; N invoices
over the 400 days before today, each on the AR, income and tax accounts like the build's; 70 % of them paid
(a fifth of those in part) by a payment of their own: a payment row, its cash and AR lines and their payment_links,
as payment_post writes them. Set-based, so 20,000 invoices take seconds.
"""

from __future__ import annotations

import sys
import time

import psycopg


def scale(url: str, n: int, customers: int = 400) -> float:
    started = time.perf_counter()
    with psycopg.connect(url) as conn:
        country = conn.execute("SELECT id FROM country WHERE short_name = 'US'").fetchone()[0]  # type: ignore[index]
        ar = conn.execute("SELECT id FROM account WHERE accno = '1200'").fetchone()[0]  # type: ignore[index]
        for i in range(customers):
            entity = conn.execute("SELECT entity_id FROM company__save(NULL, 2, %s, NULL, NULL, NULL, %s, NULL, NULL)",
                                  (f"Scale Customer {i:04d}", country)).fetchone()[0]  # type: ignore[index]
            conn.execute("SELECT eca__save(NULL, 2, %s, %s, 0, false, 0, 0, 30, %s, NULL, 'en', NULL, 'USD', "
                         "current_date - 500, NULL, 0, %s, NULL, NULL, NULL, NULL)",
                         (entity, f"Scale Customer {i:04d}", f"C-9{i:04d}", ar))
        conn.execute("""
            CREATE TEMP TABLE scale_doc ON COMMIT DROP AS
            SELECT nextval('id')::integer AS id, 'S' || lpad(g::text, 6, '0') AS invnumber,
                   current_date - (g * 7919 % 400) AS transdate,
                   (SELECT c.id FROM entity_credit_account AS c
                    WHERE c.meta_number = 'C-9' || lpad((g % %(customers)s)::text, 4, '0')) AS eca,
                   (100 + g * 37 % 4900)::numeric AS net, g
            FROM generate_series(1, %(n)s) AS g""".replace("%(customers)s", str(customers)).replace(
            "%(n)s", str(n)))
        conn.execute("""
            INSERT INTO ar (id, invnumber, transdate, taxincluded, amount, netamount, duedate, invoice, curr,
                            approved, entity_credit_account, crdate)
            SELECT d.id, d.invnumber, d.transdate, false, round(d.net * 1.05, 2), d.net, d.transdate + 30, false,
                   'USD', true, d.eca, d.transdate
            FROM scale_doc AS d""")
        conn.execute("""
            INSERT INTO acc_trans (trans_id, chart_id, transdate, amount, approved)
            SELECT d.id, a.id, d.transdate,
                   CASE a.accno WHEN '1200' THEN -round(d.net * 1.05, 2) WHEN '4010' THEN d.net
                                ELSE round(d.net * 1.05, 2) - d.net END, true
            FROM scale_doc AS d CROSS JOIN account AS a WHERE a.accno IN ('1200', '4010', '2150')""")
        conn.execute("""
            CREATE TEMP TABLE scale_paid ON COMMIT DROP AS
            SELECT d.id AS doc, d.eca, least(d.transdate + 25, current_date) AS on_date,
                   CASE WHEN d.g % 5 = 0 THEN round(d.net * 0.5, 2) ELSE round(d.net * 1.05, 2) END AS amount,
                   nextval('payment_id_seq')::integer AS payment_id
            FROM scale_doc AS d WHERE d.g % 10 < 7""")
        conn.execute("""
            INSERT INTO payment (id, reference, payment_class, payment_date, currency, entity_credit_id)
            SELECT p.payment_id, 'SP' || p.payment_id, 2, p.on_date, 'USD', p.eca FROM scale_paid AS p""")
        conn.execute("""
            WITH lines AS (
                INSERT INTO acc_trans (trans_id, chart_id, transdate, amount, approved, source)
                SELECT p.doc, a.id, p.on_date, CASE a.accno WHEN '1200' THEN p.amount ELSE -p.amount END, true,
                       'SP' || p.payment_id
                FROM scale_paid AS p CROSS JOIN account AS a WHERE a.accno IN ('1200', '1060')
                RETURNING entry_id, source)
            INSERT INTO payment_links (payment_id, entry_id, type)
            SELECT substr(l.source, 3)::integer, l.entry_id, 1 FROM lines AS l""")
        conn.execute("ANALYZE")
    return time.perf_counter() - started


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print("usage: python -m tests.ledgersmb.scale URL N [CUSTOMERS]", file=sys.stderr)
        return 2
    seconds = scale(argv[0], int(argv[1]), *(int(a) for a in argv[2:]))
    print(f"{argv[1]} invoices added in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
