"""Build a small Tryton 8.2 database with trytond-admin and proteus, and read Tryton's own figures about it.

    python -m tests.tryton.build URL FIGURES.json

URL names an existing, empty database (a URI or a libpq conninfo). The modules go in with trytond-admin, the
documents through Tryton's own API (proteus on trytond): a company with a fiscal year per calendar year and a
chart of accounts, 12 customers, 25 customer invoices (one on an instalment payment term, one in USD), 3 credit
notes (one left open), payments (partial ones, one receipt reconciled against two invoices and one
received on account), 3 suppliers with invoices (one partly paid), 2 purchases, stock in two warehouses and 2
complaints.
Documents are dated in the 200 days before the build and posted in date order. FIGURES.json gets what Tryton
itself says about them: the amount to pay of every invoice, the receivable and payable of every party, the Aged
Balance report, revenue per month from the ledger and the quantity of every product per warehouse. It runs in
a process of its own, so trytond's process-wide state stays out of the caller's.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import quote

MODULES = ("account_invoice", "sale", "purchase", "stock", "account_invoice_stock", "sale_complaint",
           "account_credit_limit")
COMPANY = ("Kestrel Handel GmbH", "Berlin", "DE")
COUNTRIES = {"DE": "Germany", "GB": "United Kingdom", "FR": "France", "IE": "Ireland", "NO": "Norway",
             "US": "United States", "NL": "Netherlands", "ES": "Spain", "AT": "Austria", "SE": "Sweden",
             "TW": "Taiwan"}
# payment terms: name -> lines of (type, ratio, days, months, day of month)
TERMS: dict[str, list[tuple[str, str | None, int, int, int | None]]] = {
    "Net 30": [("remainder", None, 30, 0, None)],
    "Net 14": [("remainder", None, 14, 0, None)],
    "50% at 30 days, 50% at 60 days": [("percent", "0.5", 30, 0, None), ("remainder", None, 60, 0, None)],
    "End of next month": [("remainder", None, 0, 1, 31)],
}
# customers: name, city, country, customer payment term, credit limit
CUSTOMERS = [
    ("Alder & Finch Ltd", "London", "GB", "Net 30", "20000"),
    ("Brightwater Foods GmbH", "Hamburg", "DE", "Net 30", "15000"),
    ("Caldera Tools SA", "Lyon", "FR", "50% at 30 days, 50% at 60 days", None),
    ("Dunmore Textiles", "Dublin", "IE", "Net 14", "5000"),
    ("Elbe Mechanik GmbH", "Dresden", "DE", "End of next month", "10000"),
    ("Fjord Marine AS", "Bergen", "NO", "Net 30", None),
    ("Granite Peak Inc", "Denver", "US", "Net 30", None),
    ("Harbor Lane Cafes BV", "Rotterdam", "NL", "Net 14", "6000"),
    ("Iberia Verde SL", "Valencia", "ES", "Net 30", None),
    ("Lumen Office Supply GmbH", "Vienna", "AT", None, None),
    ("Lumen Clinics BV", "Utrecht", "NL", "Net 30", "8000"),
    ("Moselle Vins SARL", "Metz", "FR", "Net 30", None),
]
# suppliers: name, city, country, phone
SUPPLIERS = [
    ("Nordic Steel AB", "Gothenburg", "SE", "+46 31 555 0142"),
    ("Pacific Components Ltd", "Taipei", "TW", "+886 2 5550 7781"),
    ("Rhein Verpackung GmbH", "Cologne", "DE", "+49 221 555 0199"),
]
# products: code, name, type, list price, cost price
PRODUCTS = [
    ("KH-100", "Steel shelf unit", "goods", "240", "150"),
    ("KH-200", "Pallet rack", "goods", "580", "390"),
    ("KH-300", "Packing table", "goods", "320", "200"),
    ("KH-400", "Hand truck", "goods", "135", "80"),
    ("KH-900", "Installation service", "service", "95", "0"),
]
# customer invoices: key, days before the build, customer, lines (product code, quantity), currency
INVOICES: list[tuple[str, int, str, list[tuple[str, int]], str]] = [
    ("I01", 190, "Alder & Finch Ltd", [("KH-100", 10), ("KH-900", 4)], "EUR"),
    ("I02", 184, "Brightwater Foods GmbH", [("KH-200", 6)], "EUR"),
    ("I03", 178, "Dunmore Textiles", [("KH-300", 8), ("KH-400", 6)], "EUR"),
    ("I04", 171, "Elbe Mechanik GmbH", [("KH-100", 5)], "EUR"),
    ("I05", 165, "Fjord Marine AS", [("KH-200", 3), ("KH-900", 2)], "EUR"),
    ("I06", 158, "Fjord Marine AS", [("KH-400", 12)], "EUR"),
    ("I07", 150, "Lumen Office Supply GmbH", [("KH-300", 4)], "EUR"),
    ("I08", 141, "Harbor Lane Cafes BV", [("KH-400", 10)], "EUR"),
    ("I09", 133, "Iberia Verde SL", [("KH-100", 4)], "EUR"),
    ("I10", 100, "Caldera Tools SA", [("KH-200", 10), ("KH-900", 8)], "EUR"),
    ("I11", 96, "Alder & Finch Ltd", [("KH-300", 6)], "EUR"),
    ("I12", 92, "Harbor Lane Cafes BV", [("KH-100", 3)], "EUR"),
    ("I13", 85, "Lumen Clinics BV", [("KH-400", 8), ("KH-900", 3)], "EUR"),
    ("I14", 78, "Elbe Mechanik GmbH", [("KH-200", 4)], "EUR"),
    ("I15", 70, "Lumen Clinics BV", [("KH-300", 10)], "EUR"),
    ("I16", 64, "Granite Peak Inc", [("KH-200", 5)], "USD"),
    ("I17", 58, "Dunmore Textiles", [("KH-100", 2)], "EUR"),
    ("I18", 51, "Lumen Office Supply GmbH", [("KH-400", 5), ("KH-900", 1)], "EUR"),
    ("I19", 44, "Alder & Finch Ltd", [("KH-100", 8)], "EUR"),
    ("I20", 37, "Caldera Tools SA", [("KH-300", 3)], "EUR"),
    ("I21", 30, "Iberia Verde SL", [("KH-400", 6)], "EUR"),
    ("I22", 22, "Elbe Mechanik GmbH", [("KH-300", 2), ("KH-900", 2)], "EUR"),
    ("I23", 12, "Lumen Clinics BV", [("KH-100", 6)], "EUR"),
]
# (I24 and I25 come from sales: SALE_INVOICED)
USD_RATE = Decimal("1.25")  # USD per EUR
# payments through the invoice's Pay wizard: invoice, days before the build, share of the amount to pay
PAYMENTS = [
    ("I01", 165, Decimal("1")), ("I02", 150, Decimal("1")), ("I03", 160, Decimal("0.4")),
    ("I03", 130, Decimal("0.3")), ("I05", 140, Decimal("1")), ("I07", 120, Decimal("0.5")),
    ("I10", 68, Decimal("0.5")), ("I11", 60, Decimal("1")), ("I13", 50, Decimal("0.25")),
    ("I14", 40, Decimal("1")), ("I19", 10, Decimal("1")), ("I22", 5, Decimal("0.5")),
]
JOINT_RECEIPT = (("I08", "I12"), 75)  # one bank receipt settling both, reconciled against both
ON_ACCOUNT = (("Dunmore Textiles", Decimal("300.00")), 8)  # a receipt reconciled with no invoice yet
SUPPLIER_INVOICES = [  # key, days before the build, supplier, reference, lines, paid days before the build
    ("P01", 150, "Nordic Steel AB", "NS-4471", [("KH-100", 20)], 120),
    ("P02", 60, "Nordic Steel AB", "NS-4602", [("KH-200", 10)], None),
    ("P03", 45, "Pacific Components Ltd", "PC-88120", [("KH-400", 30)], None),
    ("P04", 90, "Rhein Verpackung GmbH", "RV-2291", [("KH-300", 15)], 62),
]
PART_PAYMENTS = [("P02", 30, Decimal("0.4"))]  # key, days before the build, share of what is to pay: left partly open
STOCK_IN = [  # days before the build, warehouse (None: the main one), product code, quantity
    (198, None, "KH-100", 60), (198, None, "KH-200", 40), (198, None, "KH-300", 50), (198, None, "KH-400", 80),
    (196, "HH", "KH-100", 25), (196, "HH", "KH-400", 30),
]
STOCK_OUT = [  # customer shipments: days before the build, warehouse, customer, product code, quantity
    (170, None, "Elbe Mechanik GmbH", "KH-100", 5), (150, "HH", "Fjord Marine AS", "KH-400", 12),
    (90, None, "Alder & Finch Ltd", "KH-300", 6), (40, "HH", "Alder & Finch Ltd", "KH-100", 8),
]


def conninfo_uri(url: str) -> tuple[str, str]:
    """(a server URI without a database, as trytond's [database] uri wants it; the database name)."""
    import psycopg

    info = psycopg.conninfo.conninfo_to_dict(url)
    name = str(info.pop("dbname"))
    user = quote(str(info.pop("user", "postgres")), safe="")
    password = info.pop("password", None)
    host = str(info.pop("host", ""))
    port = info.pop("port", None)
    auth = user + (":" + quote(str(password), safe="") if password else "")
    query = {k: str(v) for k, v in info.items()}
    netloc = auth + "@"
    if host.startswith("/"):
        query["host"] = host
    elif host:
        netloc += host
    if port:
        netloc += f":{port}"
    text = "&".join(f"{k}={quote(v, safe='/')}" for k, v in query.items())
    return f"postgresql://{netloc}/" + (f"?{text}" if text else ""), name


def write_config(url: str, workdir: Path) -> tuple[Path, str]:
    uri, name = conninfo_uri(url)
    conf = workdir / "trytond.conf"
    conf.write_text(f"[database]\nuri = {uri}\npath = {workdir / 'filestore'}\n", encoding="utf-8")
    (workdir / "admin-password").write_text("admin\n", encoding="utf-8")
    return conf, name


def admin(conf: Path, name: str, workdir: Path) -> None:
    """Create Tryton's tables and activate the modules (trytond-admin)."""
    command = shutil.which("trytond-admin", path=str(Path(sys.executable).parent)) or shutil.which("trytond-admin")
    if command is None:
        raise RuntimeError("trytond-admin not found next to the Python interpreter or on PATH")
    env = {**os.environ, "TRYTONPASSFILE": str(workdir / "admin-password")}
    done = subprocess.run([command, "-c", str(conf), "-d", name, "-u", *MODULES, "--activate-dependencies",
                           "--email", "admin@example.com"], env=env, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"trytond-admin failed ({done.returncode}): {done.stderr[-2000:]}")


class Builder:
    """The documents, created and posted through proteus."""

    def __init__(self, today: dt.date) -> None:
        from proteus import Model

        self.Model = Model
        self.today = today
        self.parties: dict[str, Any] = {}
        self.products: dict[str, Any] = {}
        self.invoices: dict[str, Any] = {}
        self.credit_notes: list[Any] = []

    def day(self, days_before: int) -> dt.date:
        return self.today - dt.timedelta(days=days_before)

    def get(self, name: str) -> Any:
        return self.Model.get(name)

    # -- set-up ------------------------------------------------------------------------------------------

    def setup(self) -> None:
        from trytond.modules.account.tests.tools import create_chart, create_tax, get_accounts
        from trytond.modules.company.tests.tools import create_company, get_company

        Country = self.get("country.country")
        self.countries = {code: Country(name=name, code=code) for code, name in COUNTRIES.items()}
        for country in self.countries.values():
            country.save()
        Currency = self.get("currency.currency")
        Rate = self.get("currency.currency.rate")
        self.eur = Currency(name="Euro", symbol="€", code="EUR", rounding=Decimal("0.01"))
        self.eur.save()
        self.usd = Currency(name="U.S. Dollar", symbol="$", code="USD", rounding=Decimal("0.01"))
        self.usd.save()
        Rate(date=dt.date(2000, 1, 1), rate=Decimal(1), currency=self.eur).save()
        Rate(date=dt.date(2000, 1, 1), rate=USD_RATE, currency=self.usd).save()

        company_party = self.party(COMPANY[0], COMPANY[1], COMPANY[2])
        create_company(party=company_party, currency=self.eur)
        self.company = get_company()
        self.fiscal_years()
        create_chart(self.company)
        self.accounts = get_accounts(self.company)
        tax = create_tax(Decimal("0.19"))
        tax.save()
        self.tax = tax

        Journal = self.get("account.journal")
        Method = self.get("account.invoice.payment.method")
        self.cash_journal, = Journal.find([("type", "=", "cash")])
        self.method = Method(name="Bank transfer", journal=self.cash_journal,
                             credit_account=self.accounts["cash"], debit_account=self.accounts["cash"])
        self.method.save()

        Term = self.get("account.invoice.payment_term")
        self.terms = {}
        for name, lines in TERMS.items():
            term = Term(name=name)
            for kind, ratio, days, months, day in lines:
                line = term.lines.new(type=kind)
                if ratio is not None:
                    line.ratio = Decimal(ratio)
                delta = line.relativedeltas[0] if line.relativedeltas else line.relativedeltas.new()
                delta.days, delta.months, delta.day = days, months, day
            term.save()
            self.terms[name] = term

        Category = self.get("product.category")
        category = Category(name="Warehouse equipment", accounting=True,
                            account_revenue=self.accounts["revenue"], account_expense=self.accounts["expense"])
        category.customer_taxes.append(tax)
        category.supplier_taxes.append(self.get("account.tax")(tax.id))
        category.save()
        Uom = self.get("product.uom")
        unit, = Uom.find([("name", "=", "Unit")])
        Template = self.get("product.template")
        for code, name, kind, price, cost in PRODUCTS:
            template = Template(name=name, code=code, type=kind, default_uom=unit, list_price=Decimal(price),
                                account_category=category, salable=True, purchasable=kind == "goods")
            if kind == "goods":
                template.cost_price_method = "fixed"
            template.save()
            product, = template.products
            product.cost_price = Decimal(cost)
            product.save()
            self.products[code] = product

        for name, city, country, term, limit in CUSTOMERS:
            party = self.party(name, city, country)
            if term:
                party.customer_payment_term = self.terms[term]
            if limit:
                party.credit_limit_amount = Decimal(limit)
            party.save()
        for name, city, country, phone in SUPPLIERS:
            party = self.party(name, city, country)
            party.contact_mechanisms.new(type="phone", value=phone)
            party.supplier_payment_term = self.terms["Net 30"]
            party.save()

        Location = self.get("stock.location")
        self.warehouse, = Location.find([("code", "=", "WH")])
        self.locations = {code: Location.find([("code", "=", code)])[0] for code in ("SUP", "CUS")}
        storage = Location(name="Hamburg Storage", type="storage")
        storage.save()
        self.hamburg = Location(name="Hamburg Depot", code="HH", type="warehouse", input_location=storage,
                                output_location=storage, storage_location=storage)
        self.hamburg.save()
        storage.parent = self.hamburg
        storage.save()

    def party(self, name: str, city: str, country: str) -> Any:
        party = self.get("party.party")(name=name)
        address = party.addresses[0] if party.addresses else party.addresses.new()
        address.city = city
        address.country = self.countries[country]
        party.save()
        self.parties[name] = party
        return party

    def fiscal_years(self) -> None:
        FiscalYear = self.get("account.fiscalyear")
        Strict = self.get("ir.sequence.strict")
        SequenceType = self.get("ir.sequence.type")
        move_type, = SequenceType.find([("name", "=", "Account Move")], limit=1)
        invoice_type, = SequenceType.find([("name", "=", "Invoice")], limit=1)
        for year in range(self.day(220).year, self.today.year + 1):
            fiscal = FiscalYear(name=str(year), start_date=dt.date(year, 1, 1), end_date=dt.date(year, 12, 31),
                                company=self.company)
            fiscal.move_sequence = Strict(name=f"Moves {year}", sequence_type=move_type, company=self.company)
            fiscal.move_sequence.save()
            sequences = {}
            for kind, prefix in (("out_invoice", "INV"), ("out_credit_note", "CN"), ("in_invoice", "SI"),
                                 ("in_credit_note", "SC")):
                sequences[kind] = Strict(name=f"{prefix} {year}", sequence_type=invoice_type, company=self.company,
                                         prefix=f"{prefix}-{year}-", padding=4)
                sequences[kind].save()
            seq, = fiscal.invoice_sequences
            for kind, sequence in sequences.items():
                setattr(seq, f"{kind}_sequence", sequence)
            fiscal.save()
            fiscal.click("create_period")

    # -- documents ---------------------------------------------------------------------------------------

    def customer_invoice(self, customer: str, day: dt.date, lines: list[tuple[str, int]],
                         currency: str = "EUR") -> Any:
        invoice = self.get("account.invoice")(type="out", party=self.parties[customer], invoice_date=day)
        if currency == "USD":
            invoice.currency = self.usd
        for code, quantity in lines:
            line = invoice.lines.new(product=self.products[code], quantity=quantity)
            price = self.products[code].template.list_price
            line.unit_price = price * USD_RATE if currency == "USD" else price
        invoice.save()
        return invoice

    def post(self, invoices: list[Any]) -> None:
        """Post in date order (Tryton's strict sequences want it), all in one call."""
        if invoices:
            Invoice = self.get("account.invoice")
            Invoice.click(sorted(invoices, key=lambda i: (i.invoice_date, i.id)), "post")

    def pay(self, invoice: Any, day: dt.date, amount: Decimal) -> None:
        invoice.reload()
        pay = invoice.click("pay")
        pay.form.amount = amount
        pay.form.payment_method = self.method
        pay.form.date = day
        pay.execute("choice")
        if pay.state != "end":  # less than the amount to pay: asked how to book it, as a partial payment
            pay.form.type = "partial"
            pay.execute("pay")

    def receipt(self, party: Any, day: dt.date, amount: Decimal, description: str) -> Any:
        """A bank receipt booked by hand: receivable of the party against the bank account."""
        Move = self.get("account.move")
        Period = self.get("account.period")
        period, = Period.find([("start_date", "<=", day), ("end_date", ">=", day), ("type", "=", "standard")])
        move = Move(journal=self.cash_journal, period=period, date=day, description=description)
        move.lines.new(account=self.accounts["receivable"], party=party, credit=amount)
        move.lines.new(account=self.accounts["cash"], debit=amount)
        move.save()
        move.click("post")
        line, = [line for line in move.lines if line.account == self.accounts["receivable"]]
        return line

    def reconcile(self, lines: list[Any]) -> None:
        from proteus import Wizard

        Wizard("account.move.reconcile_lines", lines)

    def credit(self, invoice: Any, day: dt.date, refund: bool, quantity: int | None = None) -> Any:
        """Credit an invoice with Tryton's Credit wizard; a partial credit note keeps ``quantity`` of its line."""
        from proteus import Wizard

        Invoice = self.get("account.invoice")
        wizard = Wizard("account.invoice.credit", [invoice])
        wizard.form.with_refund = refund
        wizard.form.invoice_date = day
        wizard.execute("credit")
        note, = Invoice.find([("type", "=", "out"), ("lines.origin", "like", "account.invoice.line,%"),
                              ("id", "not in", [n.id for n in self.credit_notes])])
        if not refund:
            if quantity is not None:
                note.lines[0].quantity = -quantity
                del note.lines[1:]
            note.save()
            self.post([note])
        note.reload()
        self.credit_notes.append(note)
        return note

    def documents(self) -> None:
        self.stock()
        for key, days, customer, lines, currency in INVOICES:
            self.invoices[key] = self.customer_invoice(customer, self.day(days), lines, currency)
        self.sales()
        self.post(list(self.invoices.values()))
        events: list[tuple[int, int, Any]] = []
        for n, (key, days, share) in enumerate(PAYMENTS):
            events.append((days, n, ("pay", key, share)))
        events.append((JOINT_RECEIPT[1], 100, ("joint", JOINT_RECEIPT[0])))
        events += [(145, 101, ("refund", "I06")), (120, 102, ("partial_credit", "I09")),
                   (25, 103, ("open_credit", "I15")), (ON_ACCOUNT[1], 104, ("on_account", ON_ACCOUNT[0]))]
        for days, _n, event in sorted(events, key=lambda e: (-e[0], e[1])):
            self.event(self.day(days), event)
        self.supplier_documents()
        self.complaints()

    def event(self, day: dt.date, event: tuple[Any, ...]) -> None:
        kind = event[0]
        if kind == "pay":
            invoice = self.invoices[event[1]]
            invoice.reload()
            amount = (invoice.amount_to_pay * event[2]).quantize(Decimal("0.01"))
            if event[1] == "I10":  # exactly the first instalment: Tryton reconciles it with that line
                amount = min(line.debit for line in invoice.lines_to_pay)
            self.pay(invoice, day, amount)
        elif kind == "joint":
            first, second = (self.invoices[k] for k in event[1])
            first.reload()
            second.reload()
            line = self.receipt(first.party, day, first.amount_to_pay + second.amount_to_pay,
                                f"Receipt for {first.number} and {second.number}")
            self.reconcile([*first.lines_to_pay, *second.lines_to_pay, line])
        elif kind == "refund":  # a wrong invoice credited in full with refund: Tryton cancels it
            self.credit(self.invoices[event[1]], day, refund=True)
        elif kind == "partial_credit":  # one unit returned; the customer pays the rest and all is reconciled
            invoice = self.invoices[event[1]]
            note = self.credit(invoice, day, refund=False, quantity=1)
            invoice.reload()
            rest = invoice.amount_to_pay + note.amount_to_pay
            self.pay(invoice, day + dt.timedelta(days=20), rest)
            invoice.reload()
            self.reconcile([*invoice.lines_to_pay, *note.lines_to_pay, *invoice.payment_lines])
        elif kind == "open_credit":  # two units credited, not yet reconciled with anything
            self.credit(self.invoices[event[1]], day, refund=False, quantity=2)
        elif kind == "on_account":  # money received that the customer did not assign to an invoice
            self.receipt(self.get("party.party").find([("name", "=", event[1][0])])[0], day, event[1][1],
                         "Payment on account")

    def sales(self) -> None:
        """Two sales: one shipped from the main warehouse and invoiced on order (I24), one invoiced on order and
        not shipped yet (I25); a third, to a customer with no invoice yet, waits for its shipment."""
        Sale = self.get("sale.sale")
        plans = [("I24", 80, "Brightwater Foods GmbH", [("KH-300", 5), ("KH-400", 10)], "order", 78),
                 ("I25", 8, "Alder & Finch Ltd", [("KH-200", 2)], "order", None),
                 (None, 6, "Moselle Vins SARL", [("KH-100", 3)], "fulfillment", None)]
        for key, days, customer, lines, method, shipped in plans:
            sale = Sale(party=self.parties[customer], sale_date=self.day(days), invoice_method=method,
                        shipment_method="order", warehouse=self.warehouse)
            for code, quantity in lines:
                line = sale.lines.new(product=self.products[code], quantity=quantity)
                line.unit_price = self.products[code].template.list_price
            sale.click("quote")
            sale.click("confirm")
            sale.reload()
            if shipped is not None:
                shipment, = sale.shipments
                shipment.effective_date = self.day(shipped)
                shipment.save()
                self.ship(shipment, self.warehouse)
            if key:
                invoice, = sale.invoices
                invoice.invoice_date = self.day(days)
                invoice.save()
                self.invoices[key] = invoice

    def supplier_documents(self) -> None:
        Invoice = self.get("account.invoice")
        Purchase = self.get("purchase.purchase")
        ShipmentIn = self.get("stock.shipment.in")
        Move = self.get("stock.move")
        posted = []
        for key, days, supplier, reference, lines, _paid in SUPPLIER_INVOICES:
            invoice = Invoice(type="in", party=self.parties[supplier], invoice_date=self.day(days),
                              reference=reference)
            for code, quantity in lines:
                line = invoice.lines.new(product=self.products[code], quantity=quantity)
                line.unit_price = self.products[code].cost_price
            invoice.save()
            self.invoices[key] = invoice
            posted.append(invoice)
        self.post(posted)
        for key, _days, _supplier, _reference, _lines, paid in sorted(SUPPLIER_INVOICES, key=lambda s: -(s[5] or 0)):
            if paid is not None:
                invoice = self.invoices[key]
                invoice.reload()
                self.pay(invoice, self.day(paid), invoice.amount_to_pay)
        for key, days, share in PART_PAYMENTS:
            invoice = self.invoices[key]
            invoice.reload()
            self.pay(invoice, self.day(days), (invoice.amount_to_pay * share).quantize(Decimal("0.01")))
        # a purchase received into the main warehouse, and one still open
        plans = [(120, "Nordic Steel AB", [("KH-200", 20)], 112), (15, "Rhein Verpackung GmbH", [("KH-300", 25)], None)]
        for days, supplier, lines, received in plans:
            purchase = Purchase(party=self.parties[supplier], purchase_date=self.day(days),
                                invoice_method="fulfillment", warehouse=self.warehouse,
                                delivery_date=self.day(days) + dt.timedelta(days=8 if received else 25))
            for code, quantity in lines:
                line = purchase.lines.new(product=self.products[code], quantity=quantity)
                line.unit_price = self.products[code].cost_price
            purchase.click("quote")
            purchase.click("confirm")
            purchase.reload()
            if received is not None:
                shipment = ShipmentIn(supplier=purchase.party, warehouse=self.warehouse,
                                      effective_date=self.day(received))
                for move in purchase.moves:
                    shipment.incoming_moves.append(Move(move.id))
                shipment.save()
                shipment.click("receive")
                shipment.click("do")

    def stock(self) -> None:
        """Goods received from a supplier straight into each warehouse's storage, then shipped to customers."""
        Move = self.get("stock.move")
        ShipmentOut = self.get("stock.shipment.out")
        for days, warehouse, code, quantity in STOCK_IN:
            storage = (self.hamburg if warehouse else self.warehouse).storage_location
            product = self.products[code]
            move = Move(product=product, unit=product.default_uom, quantity=quantity,
                        from_location=self.locations["SUP"], to_location=storage, effective_date=self.day(days),
                        unit_price=product.cost_price, currency=self.eur)
            move.click("do")
        for days, warehouse, customer, code, quantity in STOCK_OUT:
            location = self.hamburg if warehouse else self.warehouse
            product = self.products[code]
            shipment = ShipmentOut(customer=self.parties[customer], warehouse=location,
                                   effective_date=self.day(days))
            shipment.outgoing_moves.new(product=product, unit=product.default_uom, quantity=quantity,
                                        from_location=location.output_location, to_location=self.locations["CUS"],
                                        unit_price=product.template.list_price, currency=self.eur)
            shipment.save()
            self.ship(shipment, location)

    def ship(self, shipment: Any, warehouse: Any) -> None:
        if shipment.state == "draft":
            shipment.click("wait")
        shipment.click("assign_try")
        if warehouse.output_location != warehouse.storage_location:
            shipment.click("pick")
        shipment.click("pack")
        shipment.click("do")

    def complaints(self) -> None:
        Type = self.get("sale.complaint.type")
        IrModel = self.get("ir.model")
        Complaint = self.get("sale.complaint")
        kind = Type(name="Invoice")
        kind.origin, = IrModel.find([("name", "=", "account.invoice")])
        kind.save()
        waiting = Complaint(customer=self.parties["Elbe Mechanik GmbH"], type=kind, origin=self.invoices["I04"],
                            date=self.day(150), description="Two shelf units arrived with bent uprights")
        waiting.save()
        waiting.click("wait")
        rejected = Complaint(customer=self.parties["Alder & Finch Ltd"], type=kind, origin=self.invoices["I01"],
                             date=self.day(160), description="Installation billed for four hours, not three")
        rejected.save()
        rejected.click("wait")
        rejected.click("reject")


def figures(builder: Builder) -> dict[str, Any]:
    """What Tryton itself says, read through its models."""
    from proteus import Model

    today = builder.today
    Invoice = Model.get("account.invoice")
    Party = Model.get("party.party")
    Account = Model.get("account.account")
    Product = Model.get("product.product")
    invoices = {}
    for invoice in Invoice.find([("state", "in", ["posted", "paid", "cancelled"]), ("number", "!=", None)]):
        unpaid = [line for line in invoice.lines_to_pay if not line.reconciliation]
        open_payments = [line for line in invoice.payment_lines if not line.reconciliation]
        company_amount = sum((line.debit - line.credit for line in unpaid + open_payments), Decimal(0))
        credited = sorted({line.origin.invoice.number for line in invoice.lines
                           if line.origin is not None and line.origin.__class__.__name__ == "account.invoice.line"})
        invoices[invoice.number] = {
            "id": invoice.id, "type": invoice.type, "state": invoice.state, "party": invoice.party.name,
            "invoice_date": invoice.invoice_date.isoformat(),
            "currency": invoice.currency.code, "total_amount": str(invoice.total_amount),
            "amount_to_pay": str(invoice.amount_to_pay),
            "company_amount_to_pay": str(company_amount if invoice.type == "out" else -company_amount),
            "credits": credited,
            "lines_to_pay": [{"maturity_date": line.maturity_date.isoformat() if line.maturity_date else None,
                              "amount": str(line.debit - line.credit), "reconciled": line.reconciliation is not None}
                             for line in invoice.lines_to_pay],
        }
    parties = {}
    for party in Party.find([]):
        parties[party.name] = {"id": party.id, "receivable": str(party.receivable), "payable": str(party.payable)}
    revenue_accounts = Account.find([("type.revenue", "=", True)])
    months = {}
    for back in range(0, 8):
        year, month = divmod(today.year * 12 + today.month - 1 - back, 12)
        first = dt.date(year, month + 1, 1)
        last = (first + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)
        total = Decimal(0)
        for account in revenue_accounts:
            with builder_context(from_date=first, to_date=last):
                account = Account(account.id)
                total += account.credit - account.debit
        months[first.strftime("%Y-%m")] = str(total)
    stock = {}
    for warehouse in (builder.warehouse, builder.hamburg):
        with builder_context(locations=[warehouse.id], stock_date_end=today, stock_skip_warehouse=True):
            for product in Product.find([("type", "=", "goods")]):
                stock.setdefault(product.code, {})[warehouse.name] = str(Decimal(str(product.quantity)))
    # the Aged Balance report (account.aged_balance) of customers, read twice so that its terms give footnote's
    # buckets: with terms 1/31/61, term1 is 1-30 days past due and term2 31-60; with 31/61/91, term2 is 61-90
    # and term3 over 90; lines not yet due are in the balance only
    AgedBalance = Model.get("account.aged_balance")
    aged: dict[str, dict[str, str]] = {}
    for terms in ((1, 31, 61), (31, 61, 91)):
        with builder_context(type="customer", date=today, term1=terms[0], term2=terms[1], term3=terms[2],
                             unit="day", company=builder.company.id, posted=True):
            for row in AgedBalance.find([]):
                got = aged.setdefault(row.party.name, {})
                if terms[0] == 1:
                    got.update({"due_today": str(row.term0), "1-30": str(row.term1), "31-60": str(row.term2),
                                "balance": str(row.balance)})
                else:
                    got.update({"61-90": str(row.term2), "over_90": str(row.term3)})
    keys = {key: Invoice(invoice.id).number for key, invoice in builder.invoices.items()}
    keys.update({f"CN{n}": note.number for n, note in enumerate(builder.credit_notes, start=1)})
    return {"today": today.isoformat(), "keys": keys, "invoices": invoices, "parties": parties,
            "revenue_by_month": months, "aged_balance": aged,
            "stock": stock, "company": COMPANY[0], "usd_rate": str(USD_RATE)}


def builder_context(**context: Any) -> Any:
    from proteus.config import get_config

    return get_config().set_context(**context)


def build(url: str, today: dt.date | None = None) -> dict[str, Any]:
    """Activate the modules, create the documents, and return Tryton's figures with the times taken."""
    workdir = Path(tempfile.mkdtemp(prefix="footnote-tryton-"))
    try:
        conf, name = write_config(url, workdir)
        started = time.perf_counter()
        admin(conf, name, workdir)
        installed = time.perf_counter()
        from proteus import config

        cfg = config.set_trytond(database=name, config_file=str(conf))
        cfg.skip_warning = True
        builder = Builder(today or dt.date.today())
        builder.setup()
        builder.documents()
        built = time.perf_counter()
        result = figures(builder)
        result["seconds"] = {"install": round(installed - started, 1), "documents": round(built - installed, 1),
                             "figures": round(time.perf_counter() - built, 1)}
        return result
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m tests.tryton.build URL FIGURES.json", file=sys.stderr)
        return 2
    result = build(argv[0])
    Path(argv[1]).write_text(json.dumps(result, indent=1, sort_keys=True), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
