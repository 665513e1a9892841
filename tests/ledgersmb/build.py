"""Build a small LedgerSMB 1.6 company with LedgerSMB's own code, and read LedgerSMB's own figures about it.

    python -m tests.ledgersmb.build SERVER_URL NAME FIGURES.json

SERVER_URL is a superuser conninfo of a throwaway cluster (LedgerSMB adds about 130 cluster-wide roles per
company); NAME the company database to create. The database is created and loaded by LedgerSMB's own Perl
(``LedgerSMB::Database->create_and_load``, what its setup screen runs, then ``load_coa`` with the US General
chart), then seeded through its stored procedures where 1.6 has them: ``account__save`` (an overpayment account),
``company__save``/``eca__save``/``entity__location_save``/``eca__save_contact`` for customers and vendors,
``payment_post`` for every receipt and payment (a partial payment of a supplier invoice, a credit note applied by
a payment that pays it negatively and an invoice positively, an overpayment = money on account). What 1.6 posts in
Perl only is written as its Perl writes it: sales and supplier invoices and credit notes (ar/ap, invoice lines and
their acc_trans lines, as AA.pm/IS.pm/IR.pm post them; 1.6 loads no stored procedure that posts an invoice, its
Invoice.sql is commented out of LOADORDER), parts with their on-hand quantity (IC.pm, IS.pm, IR.pm), warehouse
receipts and shipments (OE.pm) and purchase orders (OE.pm). No cost of goods sold is posted (revenue, receivables,
payables and stock are what is compared).
FIGURES.json gets what LedgerSMB's own functions say: the aging report (``report__invoice_aging_detail``), the
outstanding report (``report__aa_outstanding_details``) of customers and vendors, overpayments
(``payment_get_unused_overpayment``), income per month (``pnl__income_statement_accrual``) and stock per part
(``inventory_get_item_at_day``).
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

LSMB = Path("/usr/share/ledgersmb")
CREATE = r"""
use strict; use warnings;
use LedgerSMB::Database;
my ($host, $port, $user, $password, $db) = @ARGV;
my $d = LedgerSMB::Database->new({connect_data => {host => $host, port => $port, user => $user,
    password => $password, dbname => $db}, source_dir => '/usr/share/ledgersmb/sql'});
$d->create_and_load({log => '/dev/null', errlog => '/dev/null'}) or die "create_and_load failed\n";
$d->load_coa({country => 'us', chart => 'General.sql'});
print "loaded\n";
"""
TAX = Decimal("0.05")  # the chart's sales tax (2150)
# customers: meta number, name, city, country, terms (days), credit limit
CUSTOMERS = [
    ("C-100", "Alder & Finch Ltd", "London", "GB", 30, "20000"),
    ("C-101", "Brightwater Foods GmbH", "Hamburg", "DE", 30, "15000"),
    ("C-102", "Caldera Tools SA", "Lyon", "FR", 60, "0"),
    ("C-103", "Dunmore Textiles", "Dublin", "IE", 14, "5000"),
    ("C-104", "Elbe Mechanik GmbH", "Dresden", "DE", 30, "10000"),
    ("C-105", "Fjord Marine AS", "Bergen", "NO", 30, "0"),
    ("C-106", "Granite Peak Inc", "Denver", "US", 14, "6000"),
]
VENDORS = [  # meta number, name, city, country, phone
    ("V-200", "Nordic Steel AB", "Gothenburg", "SE", "+46 31 555 0142"),
    ("V-201", "Pacific Components Ltd", "Taipei", "TW", "+886 2 5550 7781"),
    ("V-202", "Rhein Verpackung GmbH", "Cologne", "DE", "+49 221 555 0199"),
]
# parts: number, description, unit, sell price, cost, reorder point; the last is a service (no inventory)
PARTS = [
    ("KH-100", "Steel shelf unit", "ea", "240", "150", "20"),
    ("KH-200", "Pallet rack", "ea", "580", "390", "5"),
    ("KH-300", "Packing table", "ea", "320", "200", "10"),
    ("KH-400", "Hand truck", "ea", "135", "80", None),
    ("KH-900", "Installation service", "h", "95", None, None),
]
WAREHOUSES = ["Main", "Harbour"]
# supplier invoices: number, days before the build, vendor, lines (part, qty), warehouse received into
SUPPLIER_INVOICES = [
    ("NS-4471", 195, "Nordic Steel AB", [("KH-100", 40), ("KH-200", 12)], "Main"),
    ("PC-88120", 190, "Pacific Components Ltd", [("KH-400", 30)], "Harbour"),
    ("RV-2291", 185, "Rhein Verpackung GmbH", [("KH-300", 20)], "Main"),
    ("NS-4602", 40, "Nordic Steel AB", [("KH-100", 5)], "Harbour"),
]
# supplier payments: days before the build, vendor, {invoice: amount} (None: in full)
SUPPLIER_PAYMENTS: list[tuple[int, str, dict[str, Decimal | None]]] = [
    (150, "Nordic Steel AB", {"NS-4471": None}),
    (120, "Rhein Verpackung GmbH", {"RV-2291": Decimal("2000.00")}),  # partly paid: 2,200.00 stays open
]
# sales invoices: number, days before the build, customer, lines (part, qty), warehouse shipped from
INVOICES = [
    ("1001", 170, "Alder & Finch Ltd", [("KH-100", 10), ("KH-900", 4)], "Main"),
    ("1002", 160, "Brightwater Foods GmbH", [("KH-200", 4)], "Main"),
    ("1003", 150, "Caldera Tools SA", [("KH-300", 6)], "Main"),
    ("1004", 130, "Dunmore Textiles", [("KH-400", 8)], "Harbour"),
    ("1005", 110, "Elbe Mechanik GmbH", [("KH-100", 5), ("KH-300", 2)], "Main"),
    ("1006", 95, "Fjord Marine AS", [("KH-400", 6), ("KH-900", 2)], "Harbour"),
    ("1007", 80, "Alder & Finch Ltd", [("KH-200", 3)], "Main"),
    ("1008", 65, "Granite Peak Inc", [("KH-100", 4)], "Main"),
    ("1009", 50, "Caldera Tools SA", [("KH-300", 3), ("KH-900", 6)], "Main"),
    ("1010", 40, "Elbe Mechanik GmbH", [("KH-400", 4)], "Harbour"),
    ("1011", 25, "Dunmore Textiles", [("KH-100", 2)], "Harbour"),
    ("1012", 12, "Brightwater Foods GmbH", [("KH-300", 1), ("KH-900", 3)], "Main"),
    ("1013", 5, "Granite Peak Inc", [("KH-200", 1)], "Main"),
]
# credit notes (on the service: a price reduction): number, days before the build, customer, amount net
CREDIT_NOTES = [
    ("CN-1", 100, "Caldera Tools SA", Decimal("400.00")),   # applied to 1003 by a payment
    ("CN-2", 30, "Fjord Marine AS", Decimal("190.00")),     # left open: a credit on the account
]
# receipts: days before the build, customer, {document: amount} (None: in full; a credit note's amount is what it
# contributes); on_account: an overpayment that settles no invoice
RECEIPTS: list[tuple[int, str, dict[str, Decimal | None], Decimal]] = [
    (140, "Alder & Finch Ltd", {"1001": None}, Decimal(0)),
    (120, "Brightwater Foods GmbH", {"1002": Decimal("1000.00")}, Decimal(0)),  # partial
    (90, "Caldera Tools SA", {"CN-1": Decimal("-420.00"), "1003": Decimal("420.00")}, Decimal(0)),  # the note
    (85, "Caldera Tools SA", {"1003": Decimal("1000.00")}, Decimal(0)),  # partial, after the note
    (60, "Elbe Mechanik GmbH", {"1005": None}, Decimal(0)),
    (45, "Alder & Finch Ltd", {"1007": None}, Decimal(0)),
    (20, "Dunmore Textiles", {"1004": Decimal("500.00")}, Decimal("300.00")),  # and 300 on account
    (8, "Elbe Mechanik GmbH", {"1010": None}, Decimal(0)),
]
# purchase orders: number, days before the build, vendor, lines (part, qty, received), closed, days to delivery
PURCHASE_ORDERS = [
    ("PO-3001", 200, "Nordic Steel AB", [("KH-100", 40, 40), ("KH-200", 12, 12)], True, 5),
    ("PO-3002", 20, "Pacific Components Ltd", [("KH-400", 20, 8)], False, 30),
    ("PO-3003", 6, "Rhein Verpackung GmbH", [("KH-300", 10, 0)], False, 21),
]


def create(server_url: str, name: str) -> None:
    """Create and load the company database with LedgerSMB's own code (setup.pl's create_and_load)."""
    info = psycopg.conninfo.conninfo_to_dict(server_url)
    with psycopg.connect(server_url, autocommit=True) as conn:
        row = conn.execute("SHOW port").fetchone()
    port = str(info.get("port") or (row[0] if row else "5432"))
    host = str(info.get("host") or "localhost")
    done = subprocess.run(["perl", "-I", str(LSMB / "lib"), "-e", CREATE, host, port,
                           str(info.get("user") or "postgres"), str(info.get("password") or ""), name],
                          cwd=LSMB, capture_output=True, text=True, timeout=300)
    if done.returncode or "loaded" not in done.stdout:
        raise RuntimeError(f"LedgerSMB create_and_load failed ({done.returncode}): {done.stderr[-2000:]}")


class Seeder:
    def __init__(self, conn: psycopg.Connection[Any], today: dt.date) -> None:
        self.conn = conn
        self.today = today
        self.eca: dict[str, int] = {}
        self.parts: dict[str, tuple[int, Decimal, Decimal | None]] = {}
        self.warehouses: dict[str, int] = {}
        self.docs: dict[str, int] = {}

    def one(self, query: str | sql.Composed, params: Any = None) -> Any:
        row = self.conn.execute(query, params).fetchone()
        assert row is not None
        return row[0]

    def day(self, days_before: int) -> dt.date:
        return self.today - dt.timedelta(days=days_before)

    def account(self, accno: str) -> int:
        return int(self.one("SELECT id FROM account WHERE accno = %s", (accno,)))

    def setup(self) -> None:
        # an overpayment account for money received on account (the chart has none)
        self.one("SELECT account__save(NULL, '2180', 'Customer overpayments', 'L', '', NULL, false, false, "
                 "string_to_array('AR_overpayment', ':'), false, false)")
        for number, description, unit, sell, cost, rop in PARTS:
            goods = cost is not None
            self.parts[number] = (int(self.one(
                "INSERT INTO parts (partnumber, description, unit, sellprice, listprice, lastcost, rop, "
                "inventory_accno_id, income_accno_id, expense_accno_id) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, "
                "%s, %s) RETURNING id",
                (number, description, unit, sell, sell, cost, rop, self.account("1510") if goods else None,
                 self.account("4010"), self.account("5010")))), Decimal(sell),
                Decimal(cost) if cost is not None else None)
        for w in WAREHOUSES:
            self.warehouses[w] = int(self.one("INSERT INTO warehouse (description) VALUES (%s) RETURNING id", (w,)))

    def credit_account(self, cls: int, meta: str, name: str, city: str, country: str, terms: int,
                       limit: str, phone: str | None = None) -> None:
        country_id = self.one("SELECT id FROM country WHERE short_name = %s", (country,))
        entity = self.one("SELECT entity_id FROM company__save(NULL, %s, %s, NULL, NULL, NULL, %s, NULL, NULL)",
                          (cls, name, country_id))
        self.one("SELECT entity__location_save(%s, NULL, 1, %s, NULL, %s, NULL, NULL, %s, NULL)",
                 (entity, f"1 {name} Street", city, country_id))
        self.eca[name] = int(self.one(
            "SELECT eca__save(NULL, %s, %s, %s, 0, false, %s, 0, %s, %s, NULL, 'en', NULL, 'USD', %s, NULL, 0, "
            "%s, NULL, NULL, NULL, NULL)",
            (cls, entity, name, Decimal(limit), terms, meta, self.day(365),
             self.account("1200" if cls == 2 else "2100"))))
        if phone:
            self.one("SELECT eca__save_contact(%s, 1, 'Accounts', %s, NULL, NULL)", (self.eca[name], phone))

    def cost(self, part: str) -> Decimal:
        cost = self.parts[part][2]
        assert cost is not None, f"{part} is a service"
        return cost

    def ship(self, doc: int, part: str, warehouse: str, qty: int, on: dt.date) -> None:
        """A receipt (qty > 0) or shipment (qty < 0) as OE.pm's ship/receive screen records it, and the part's
        on-hand quantity as IS.pm/IR.pm change it."""
        parts_id = self.parts[part][0]
        self.conn.execute("INSERT INTO warehouse_inventory (warehouse_id, parts_id, trans_id, qty, shippingdate) "
                          "VALUES (%s, %s, %s, %s, %s)", (self.warehouses[warehouse], parts_id, doc, qty, on))
        self.conn.execute("UPDATE parts SET onhand = onhand + %s WHERE id = %s", (qty, parts_id))

    def supplier_invoice(self, number: str, days: int, vendor: str, lines: list[tuple[str, int]],
                         warehouse: str) -> None:
        on = self.day(days)
        net = sum((self.cost(p) * q for p, q in lines), Decimal(0))
        tax = (net * TAX).quantize(Decimal("0.01"))
        terms = 30
        doc = self.header("ap", number, on, net + tax, net, on + dt.timedelta(days=terms), vendor)
        self.line(doc, "2100", on, net + tax)
        for part, qty in lines:
            parts_id, cost = self.parts[part][0], self.cost(part)
            item = self.item(doc, parts_id, -qty, cost)  # IR.pm stores a purchase's quantity negated
            self.line(doc, "1510", on, -(cost * qty), item)
            self.ship(doc, part, warehouse, qty, on)
        self.line(doc, "2150", on, -tax)
        self.balanced(doc)
        self.docs[number] = doc

    def header(self, table: str, number: str, on: dt.date, amount: Decimal, net: Decimal, due: dt.date,
               who: str, reverse: bool = False) -> int:
        """The ar/ap row as AA.pm/IS.pm/IR.pm insert it (1.6 loads no stored procedure that posts invoices:
        Invoice.sql is commented out of its LOADORDER)."""
        query = sql.SQL("INSERT INTO {} (invnumber, transdate, taxincluded, amount, netamount, duedate, invoice, "
                        "curr, approved, entity_credit_account, reverse, crdate) VALUES (%s, %s, false, %s, %s, %s, "
                        "true, 'USD', true, %s, %s, %s) RETURNING id").format(sql.Identifier(table))
        return int(self.one(query, (number, on, amount, net, due, self.eca[who], reverse, on)))

    def item(self, doc: int, parts_id: int, qty: Decimal | int, price: Decimal) -> int:
        return int(self.one("INSERT INTO invoice (trans_id, parts_id, description, qty, allocated, sellprice, "
                            "fxsellprice, unit) SELECT %s, p.id, p.description, %s, 0, %s, %s, p.unit FROM parts AS p "
                            "WHERE p.id = %s RETURNING id", (doc, qty, price, price, parts_id)))

    def line(self, doc: int, accno: str, on: dt.date, amount: Decimal, item: int | None = None) -> None:
        """An acc_trans line; amounts are credit-positive, as LedgerSMB keeps them."""
        self.conn.execute("INSERT INTO acc_trans (trans_id, chart_id, transdate, amount, approved, invoice_id) "
                          "VALUES (%s, %s, %s, %s, true, %s)", (doc, self.account(accno), on, amount, item))

    def balanced(self, doc: int) -> None:
        off = self.one("SELECT coalesce(sum(amount), 0) FROM acc_trans WHERE trans_id = %s", (doc,))
        if off != 0:
            raise RuntimeError(f"transaction {doc} out of balance by {off}")

    def invoice(self, number: str, days: int, customer: str, lines: list[tuple[str, int]], warehouse: str) -> None:
        on = self.day(days)
        terms = int(self.one("SELECT terms FROM entity_credit_account WHERE id = %s", (self.eca[customer],)))
        net = sum((self.parts[p][1] * q for p, q in lines), Decimal(0))
        tax = (net * TAX).quantize(Decimal("0.01"))
        doc = self.header("ar", number, on, net + tax, net, on + dt.timedelta(days=terms), customer)
        self.line(doc, "1200", on, -(net + tax))
        for part, qty in lines:
            item = self.item(doc, self.parts[part][0], qty, self.parts[part][1])
            self.line(doc, "4010", on, self.parts[part][1] * qty, item)
            if self.parts[part][2] is not None:
                self.ship(doc, part, warehouse, -qty, on)
        self.line(doc, "2150", on, tax)
        self.balanced(doc)
        self.docs[number] = doc

    def credit_note(self, number: str, days: int, customer: str, net: Decimal) -> None:
        """A credit note as AA.pm stores one: an AR transaction with reverse set and its amounts negated."""
        on = self.day(days)
        tax = (net * TAX).quantize(Decimal("0.01"))
        price = self.parts["KH-900"][1]
        doc = self.header("ar", number, on, -(net + tax), -net, on, customer, reverse=True)
        self.line(doc, "1200", on, net + tax)
        item = self.item(doc, self.parts["KH-900"][0], -(net / price), price)
        self.line(doc, "4010", on, -net, item)
        self.line(doc, "2150", on, -tax)
        self.balanced(doc)
        self.docs[number] = doc

    def due(self, number: str, cls: int) -> Decimal:
        link = "AR" if cls == 2 else "AP"
        return Decimal(self.one(
            "SELECT coalesce(sum(ac.amount), 0) * %s FROM acc_trans AS ac JOIN account_link AS l "
            "ON l.account_id = ac.chart_id AND l.description = %s WHERE ac.trans_id = %s",
            (-1 if cls == 2 else 1, link, self.docs[number])))

    def pay(self, cls: int, days: int, who: str, docs: dict[str, Decimal | None],
            on_account: Decimal = Decimal(0)) -> None:
        """One payment_post call: cash of every document it settles, and an overpayment on account."""
        amounts = [self.due(n, cls) if a is None else a for n, a in docs.items()]
        cash = self.account("1060")
        ids = [self.docs[n] for n in docs]
        op: tuple[list[Any], list[Any], list[Any], list[Any], list[Any]] = ([], [], [], [], [])
        if on_account:
            op = ([on_account], [cash], ["on account"], [None], [self.account("2180")])
        self.one("SELECT payment_post(%s, %s, %s, 'USD', NULL, 'overpayment', %s, %s, %s, %s, %s, %s, %s, %s, "
                 "%s, %s, %s, NULL, true)",
                 (self.day(days), cls, self.eca[who], [cash] * len(ids), amounts, [True] * len(ids),
                  [f"R{days}"] * len(ids), [None] * len(ids), ids, *op))

    def purchase_order(self, number: str, days: int, vendor: str, lines: list[tuple[str, int, int]],
                       closed: bool, delivery: int) -> None:
        on = self.day(days)
        net = sum((self.cost(p) * q for p, q, _ in lines), Decimal(0))
        oe = self.one("INSERT INTO oe (ordnumber, transdate, amount, netamount, reqdate, taxincluded, curr, "
                      "closed, quotation, entity_credit_account, oe_class_id) VALUES (%s, %s, %s, %s, %s, false, "
                      "'USD', %s, false, %s, 2) RETURNING id",
                      (number, on, net, net, on + dt.timedelta(days=delivery), closed, self.eca[vendor]))
        for part, qty, received in lines:
            self.conn.execute("INSERT INTO orderitems (trans_id, parts_id, description, qty, sellprice, ship, "
                              "unit, reqdate) SELECT %s, p.id, p.description, %s, %s, %s, p.unit, %s FROM parts "
                              "AS p WHERE p.id = %s",
                              (oe, qty, self.cost(part), received, on + dt.timedelta(days=delivery),
                               self.parts[part][0]))


def figures(conn: psycopg.Connection[Any], today: dt.date) -> dict[str, Any]:
    """What LedgerSMB's own functions say about the company."""
    def rows(query: str, params: Any = None) -> list[tuple[Any, ...]]:
        return conn.execute(query, params).fetchall()

    aging = {r[0]: {"customer": r[1], "open": str(r[2]), "c0": str(r[3]), "c30": str(r[4]), "c60": str(r[5]),
                    "c90": str(r[6])}
             for r in rows("SELECT invnumber, name, c0 + c30 + c60 + c90, c0, c30, c60, c90 "
                           "FROM report__invoice_aging_detail(NULL, 2, NULL, %s, NULL, false, NULL)", (today,))}
    outstanding = {r[0]: {"customer": r[1], "due": str(r[2]), "duedate": r[3].isoformat(), "amount": str(r[4]),
                          "netamount": str(r[5])}
                   for r in rows("SELECT invnumber, entity_name, due, due_date, amount, netamount FROM "
                                 "report__aa_outstanding_details(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
                                 "%s, NULL, NULL)", (today,))}
    payables = {r[0]: {"vendor": r[1], "due": str(r[2]), "amount": str(r[3])}
                for r in rows("SELECT invnumber, entity_name, due, amount FROM report__aa_outstanding_details(1, "
                              "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, %s, NULL, NULL)", (today,))}
    overpayments = {r[0]: str(r[1]) for r in rows(
        "SELECT e.name, sum(o.available) FROM entity_credit_account AS c JOIN entity AS e ON e.id = c.entity_id "
        "CROSS JOIN LATERAL payment_get_unused_overpayment(2, c.id, NULL) AS o GROUP BY e.name")}
    months = sorted({d.strftime("%Y-%m") for (d,) in rows("SELECT transdate FROM ar")})
    revenue = {}
    for month in months:
        first = dt.date.fromisoformat(month + "-01")
        last = (first + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)
        revenue[month] = str(conn.execute(
            "SELECT coalesce(sum(amount), 0) FROM pnl__income_statement_accrual(%s, %s, 'none', NULL, 'en') "
            "WHERE account_category = 'I' AND account_type = 'A'", (first, last)).fetchone()[0])  # type: ignore[index]
    stock = {r[0]: str(r[1]) for r in rows(
        "SELECT p.partnumber, (inventory_get_item_at_day(%s, p.partnumber)).onhand FROM parts AS p "
        "WHERE p.inventory_accno_id IS NOT NULL", (today,))}
    onhand = {r[0]: str(r[1]) for r in rows(
        "SELECT partnumber, onhand FROM parts WHERE inventory_accno_id IS NOT NULL")}
    per_warehouse: dict[str, dict[str, str]] = {}
    for part, warehouse, qty in rows(
            "SELECT p.partnumber, w.description, sum(i.qty) FROM warehouse_inventory AS i JOIN parts AS p "
            "ON p.id = i.parts_id JOIN warehouse AS w ON w.id = i.warehouse_id GROUP BY 1, 2"):
        per_warehouse.setdefault(part, {})[warehouse] = str(qty)
    ids = {r[0]: r[1] for r in rows("SELECT e.name, c.id FROM entity_credit_account AS c "
                                    "JOIN entity AS e ON e.id = c.entity_id")}
    return {"today": today.isoformat(), "aging": aging, "outstanding": outstanding, "payables": payables,
            "overpayments": overpayments, "revenue_by_month": revenue, "stock": stock, "onhand": onhand,
            "stock_per_warehouse": per_warehouse, "eca": ids,
            "version": conn.execute("SELECT value FROM defaults WHERE setting_key = 'version'").fetchone()[0]}  # type: ignore[index]


def build(server_url: str, name: str, today: dt.date | None = None) -> dict[str, Any]:
    today = today or dt.date.today()
    started = time.perf_counter()
    create(server_url, name)
    created = time.perf_counter()
    info = psycopg.conninfo.conninfo_to_dict(server_url)
    info["dbname"] = name
    with psycopg.connect(psycopg.conninfo.make_conninfo(**{k: str(v) for k, v in info.items()})) as conn:
        s = Seeder(conn, today)
        s.setup()
        for meta, cname, city, country, terms, limit in CUSTOMERS:
            s.credit_account(2, meta, cname, city, country, terms, limit)
        for meta, vname, city, country, phone in VENDORS:
            s.credit_account(1, meta, vname, city, country, 30, "0", phone)
        for po in PURCHASE_ORDERS:
            s.purchase_order(*po)
        events: list[tuple[int, int, Any]] = []  # (days before, order, what) posted oldest first
        events += [(x[1], 0, ("ap", x)) for x in SUPPLIER_INVOICES]
        events += [(x[1], 1, ("ar", x)) for x in INVOICES]
        events += [(x[1], 1, ("cn", x)) for x in CREDIT_NOTES]
        events += [(x[0], 2, ("pay_ap", x)) for x in SUPPLIER_PAYMENTS]
        events += [(x[0], 2, ("pay_ar", x)) for x in RECEIPTS]
        for _, _, (kind, x) in sorted(events, key=lambda e: (-e[0], e[1])):
            if kind == "ap":
                s.supplier_invoice(*x)
            elif kind == "ar":
                s.invoice(*x)
            elif kind == "cn":
                s.credit_note(*x)
            elif kind == "pay_ap":
                s.pay(1, x[0], x[1], x[2])
            else:
                s.pay(2, x[0], x[1], x[2], x[3])
        conn.commit()
        seeded = time.perf_counter()
        result = figures(conn, today)
    result["seconds"] = {"create_and_load": round(created - started, 1), "seed": round(seeded - created, 1),
                         "figures": round(time.perf_counter() - seeded, 1)}
    return result


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: python -m tests.ledgersmb.build SERVER_URL NAME FIGURES.json", file=sys.stderr)
        return 2
    result = build(argv[0], argv[1])
    Path(argv[2]).write_text(json.dumps(result, indent=1, sort_keys=True, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
