"""The web demo in a real browser: Debian's chromium driven by Playwright (never its own download).

Skipped, with the reason, when /usr/bin/chromium or the playwright package is missing
(``.ci/install-chromium`` installs chromium on CI). Screenshots go to
``test-output/browser/`` for people to look at.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import TestDatabase
from tests.test_web import Demo, start_demo, stop_demo

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[1] / "test-output" / "browser"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run"]
INVOICES = ["INV-2026-8812", "INV-2026-8834", "INV-2026-8901", "INV-2026-8977"]

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (.ci/install-chromium, or "
                "apt-get install -y chromium) to run the browser tests", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed "
                               "(.venv/bin/pip install playwright; never `playwright install`)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def demo(db: TestDatabase) -> Iterator[Demo]:
    d = start_demo(db.url)
    try:
        yield d
    finally:
        stop_demo(d)


class Watched:
    """A page with every console error, page error and off-origin request collected."""

    def __init__(self, page: Any, base: str) -> None:
        self.page = page
        self.problems: list[str] = []
        page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}")
                if m.type == "error" else None)  # a CSP violation or a failed request is an error
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on("request", lambda r: None if r.url.startswith(base) else self.problems.append(f"request: {r.url}"))

    def shot(self, name: str) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


@pytest.fixture
def page(browser: Any, demo: Demo) -> Iterator[Watched]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    p = context.new_page()
    p.set_default_timeout(15000)
    watched = Watched(p, demo.url.rstrip("/"))
    p.goto(demo.url)
    sync_api.expect(p.locator("#suggestions .chip")).to_have_count(5)
    try:
        yield watched
    finally:
        context.close()
    assert watched.problems == [], watched.problems


def test_ask_open_the_evidence_see_the_model_rejected_and_find_the_record_in_the_ledger(page: Watched) -> None:
    expect, p = sync_api.expect, page.page

    # type the question and press Enter (keyboard)
    question = p.get_by_label("Ask a question about the ERP data")
    question.click()
    question.fill("How much does Bergmann Logistik owe?")
    question.press("Enter")
    answer = p.locator("#answer")
    expect(answer.locator("[data-status=verified]")).to_have_text("Verified")
    expect(answer.locator(".answer-text")).to_contain_text(
        "Bergmann Logistik GmbH owes 43.805,00 € overdue across 4 invoices")
    seq = answer.locator(".receipt [data-seq]").get_attribute("data-seq")
    assert seq is not None and seq.isdigit()
    page.shot("01-answer")

    # click the amount: the four invoices behind it
    amount = p.get_by_role("button", name=re.compile(r"^43\.805,00 €, footnote"))
    amount.click()
    expect(amount).to_have_attribute("aria-expanded", "true")
    panel = p.locator("#evidence")
    expect(panel).to_be_visible()
    expect(panel.locator("h2")).to_have_text("Evidence for 43.805,00 €")
    records = panel.locator("[data-evidence]")
    expect(records).to_have_count(4)
    for number, record in zip(INVOICES, records.all(), strict=True):
        expect(record).to_contain_text(number)
        expect(record).to_contain_text("erp://invoice/" + number[-4:])
    expect(panel.locator("[data-status=grounded]")).to_be_visible()
    # one format on the screen, the answer's (de-DE), though the browser's is en-US: the ERP's dates and amounts too
    expect(panel).to_contain_text("02.05.2026")
    expect(panel).not_to_contain_text(re.compile(r"\d{4}-\d{2}-\d{2}"))
    expect(panel.locator("dd[title='18450.00']").first).to_have_text("18.450,00")
    expect(panel.locator("dd[title='2026-05-02']").first).to_have_text("02.05.2026")
    page.shot("02-evidence")

    # the deep link opens the source record
    panel.get_by_role("button", name="Open erp://invoice/8812").click()
    record = p.locator("#record")
    expect(record.locator("h3")).to_have_text("Source record erp://invoice/8812")
    expect(record.locator("dd", has_text="INV-2026-8812")).to_be_visible()
    expect(record.locator("dd", has_text="02.05.2026")).to_have_attribute("title", "2026-05-02")
    page.shot("03-record")

    # Escape closes the panel and puts the focus back on the figure (keyboard)
    p.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(amount).to_be_focused()

    # let the model write the numbers: toggled with the keyboard, rendered the same way, rejected
    toggle = p.get_by_label("Let the model write the numbers")
    toggle.focus()
    p.keyboard.press("Space")
    expect(toggle).to_be_checked()
    expect(answer.locator(".model-banner")).to_contain_text("Written by the model")
    expect(answer.locator("[data-status=insufficient_evidence]")).to_have_text("Insufficient evidence")
    text = answer.locator(".answer-text")
    expect(text).to_contain_text("Bergmann Logistik GmbH owes 45.380,00 € overdue across 5 invoices")
    expect(text).not_to_contain_text("43.805,00 €")
    claims = answer.locator("button.claim")
    flagged = answer.locator("button.claim[data-verdict=unverified]")
    assert flagged.count() >= 10
    assert claims.count() - flagged.count() == 5  # the name and the four invoice numbers, copied faithfully
    expect(answer.locator(".findings")).to_contain_text("digits of the text are outside any grounded claim")
    expect(answer.locator(".findings")).not_to_contain_text("_")  # no reason code shown as such
    # every sentence and list line has the gate's verdict: the altered figures are fabricated numbers
    verdicts = answer.locator(".sentences li.sentence")
    expect(verdicts).to_have_count(5)
    expect(verdicts.first.locator(".verdict")).to_have_text("Fabricated")
    expect(verdicts.first.locator(".verdict")).to_have_attribute("title", "fabricated")
    expect(verdicts.first).to_contain_text("Bergmann Logistik GmbH owes 45.380,00 €")
    assert answer.locator(".sentences li[data-verdict=grounded]").count() == 0
    page.shot("04-model-version")

    # the model's figure, opened with the keyboard: what it wrote and what the call returned
    model_amount = p.get_by_role("button", name=re.compile(r"^45\.380,00 €, footnote"))
    model_amount.focus()
    p.keyboard.press("Enter")
    expect(panel.locator(".mismatch")).to_contain_text("the cited call returned 43.805,00 €")
    expect(panel.locator("[data-status=unverified]")).to_be_visible()
    expect(panel.locator("[data-evidence]")).to_have_count(4)
    page.shot("05-model-evidence")

    # the ledger tab: the record, and the chain verified
    p.get_by_role("tab", name="Ledger").click()
    expect(p.locator("[data-chain=ok]")).to_contain_text("Chain intact")
    row = p.locator(f"tr[data-seq='{seq}']")
    expect(row).to_contain_text("How much does Bergmann Logistik owe?")
    expect(row).to_contain_text("this answer")
    expect(row.locator("[data-status=verified]")).to_be_visible()
    expect(row).to_contain_text("demo (viewer)")
    recorded = row.locator("td").nth(1)  # the time in the answer's format, the ISO time in its title
    expect(recorded).to_have_text(re.compile(r"^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}:\d{2}$"))
    page.shot("06-ledger")


def test_a_suggestion_asks_back_and_the_option_answers_then_refusals_say_why(page: Watched) -> None:
    expect, p = sync_api.expect, page.page
    answer = p.locator("#answer")

    p.get_by_role("button", name="How much does Bergmann owe?").click()
    expect(answer.locator("[data-status=ambiguous]")).to_be_visible()
    options = answer.locator("button.option")
    expect(options).to_have_text(["How much does Bergmann Bau AG owe?", "How much does Bergmann Logistik GmbH owe?"])
    page.shot("07-clarification")

    # choose with the keyboard
    options.nth(1).focus()
    p.keyboard.press("Enter")
    expect(answer.locator("[data-status=verified]")).to_be_visible()
    expect(p.get_by_role("button", name=re.compile(r"^43\.805,00 €, footnote"))).to_be_visible()

    p.get_by_role("button", name="Is Bergmann Logistik at risk?").click()
    expect(answer.locator(".inference")).to_contain_text(
        "Bergmann Logistik GmbH is at high risk of not paying on time.")
    expect(answer.locator(".facts li")).to_have_count(3)
    page.shot("08-interpretation")

    p.get_by_role("button", name="How much does Acme Corporation owe?").click()
    expect(answer.locator("[data-status=refused]")).to_be_visible()
    expect(answer).to_contain_text("There is no customer named “Acme Corporation”. No customer name is close to it")
    expect(answer.locator(".why")).to_have_attribute("title", "unknown_entity")
    expect(answer.locator(".why")).not_to_contain_text("unknown_entity")
    page.shot("09-refusal")

    p.get_by_role("button", name="What will revenue be next quarter?").click()
    expect(answer.locator(".why")).to_have_attribute("title", "forecast")
    expect(answer.locator(".why")).to_contain_text("a forecast is not a recorded figure")
    # no figures, so nothing for the model to rewrite
    p.get_by_label("Let the model write the numbers").check()
    expect(answer.locator(".model-note")).to_contain_text("Nothing for the model to rewrite")



def test_a_footnote_on_hundreds_of_records_shows_the_first_and_how_many_more(page: Watched) -> None:
    expect, p = sync_api.expect, page.page
    question = p.get_by_label("Ask a question about the ERP data")
    question.fill("What is the DSO?")
    question.press("Enter")
    dso = p.get_by_role("button", name=re.compile(r"^70,3 days, footnote"))
    dso.click()
    panel = p.locator("#evidence")
    expect(panel.locator("h2")).to_have_text("Evidence for 70,3 days")
    expect(panel.locator("[data-evidence]")).to_have_count(20)  # the first 20 of 687 invoices
    expect(panel.locator(".more")).to_have_text("… and 667 more invoice records")
    page.shot("11-capped-footnote")
    panel.get_by_role("button", name="Show all 687").click()
    expect(panel.locator("[data-evidence]")).to_have_count(687)
    expect(panel.locator(".more")).to_have_count(0)


def test_without_auditor_rights_the_ledger_tab_says_how_to_see_it(browser: Any, db: TestDatabase) -> None:
    demo = start_demo(db.url_as("service"))
    context = browser.new_context(viewport={"width": 1280, "height": 700}, locale="en-US")
    try:
        watched = Watched(context.new_page(), demo.url.rstrip("/"))
        p = watched.page
        p.goto(demo.url)
        p.get_by_role("tab", name="Ask").focus()
        p.keyboard.press("ArrowRight")  # tabs follow the arrow keys
        expect = sync_api.expect
        expect(p.get_by_role("tab", name="Ledger")).to_have_attribute("aria-selected", "true")
        expect(p.locator(".notice")).to_contain_text("Connect as a member of footnote_auditor to see the ledger")
        expect(p.locator("[data-chain=ok]")).to_contain_text("Chain intact")
        watched.shot("10-ledger-without-auditor-rights")
        # the 403 of the ledger call is the only failed request the console may report
        assert all("403" in problem for problem in watched.problems), watched.problems
    finally:
        context.close()
        stop_demo(demo)


def test_the_demo_users_sign_in_and_each_asks_under_its_scope(browser: Any, db: TestDatabase) -> None:
    """footnote-pg demo's sample users: the header says who asks under which scope; switching user switches the
    token, and a portfolio answer is computed for the new user's scope only."""
    import threading

    from footnote_pg.web import serve
    from footnote_pg.web.demo import DemoUsers, create_demo_scopes

    assert create_demo_scopes(db.url) is None
    users = DemoUsers()
    ready, stop, box = threading.Event(), threading.Event(), {}
    thread = threading.Thread(target=lambda: serve(db.url, port=0, ready=lambda u: (box.update(url=u), ready.set()),
                                                   stop=stop, tokens=users.settings(), demo_users=users), daemon=True)
    thread.start()
    assert ready.wait(30)
    context = browser.new_context(viewport={"width": 1280, "height": 700}, locale="en-US")
    try:
        watched = Watched(context.new_page(), box["url"].rstrip("/"))
        p = watched.page
        p.goto(box["url"])
        expect = sync_api.expect
        expect(p.locator("#who-text")).to_have_text(
            "Asking as lena.brandt (verified token) · scope dach (Germany, Austria and Switzerland)")
        p.get_by_label("Sign in as").select_option("marc.dubois")
        expect(p.locator("#who-text")).to_contain_text("Asking as marc.dubois (verified token) · scope west")
        p.get_by_role("button", name="Show AR aging").click()
        expect(p.locator("#answer-body")).to_contain_text("(For the customers of scope west.)")
        watched.shot("11-demo-user-west")
        assert db.scalar("SELECT actor_id FROM footnote.call_log ORDER BY called_at DESC LIMIT 1") == "marc.dubois"
        assert watched.problems == []
    finally:
        context.close()
        stop.set()
        thread.join(timeout=20)
