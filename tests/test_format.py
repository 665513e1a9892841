"""The one formatter: every figure's text comes from footnote.format."""

from __future__ import annotations

import pytest

from tests.conftest import TestDatabase

CASES = [
    ("amount", "43805.00", "de-DE", "43.805,00 €"),
    ("amount", "43805.00", "en-US", "€43,805.00"),
    ("amount", "-1234.5", "de-DE", "-1.234,50 €"),
    ("amount", "-1234.5", "en-US", "-€1,234.50"),
    ("amount", "0", "de-DE", "0,00 €"),
    ("amount", "999.995", "de-DE", "1.000,00 €"),
    ("amount", "123456789012.34", "de-DE", "123.456.789.012,34 €"),
    ("count", "4", "de-DE", "4"),
    ("count", "1234567", "de-DE", "1.234.567"),
    ("count", "1234567", "en-US", "1,234,567"),
    ("days", "104", "de-DE", "104 days"),
    ("days", "1", "en-US", "1 day"),
    ("days", "47.33", "de-DE", "47,3 days"),
    ("days", "1234", "en-US", "1,234 days"),
    ("percent", "12.345", "de-DE", "12,3 %"),
    ("percent", "-12.35", "en-US", "-12.4%"),
    ("date", "2026-05-02", "de-DE", "02.05.2026"),
    ("date", "2026-05-02", "en-US", "May 2, 2026"),
    ("quantity", "1250.000", "de-DE", "1.250"),
    ("quantity", "12.500", "de-DE", "12,5"),
    ("quantity", "0.000", "en-US", "0"),
    ("text", "Bergmann Logistik GmbH", "de-DE", "Bergmann Logistik GmbH"),
    ("period", "Q2 2026", "en-US", "Q2 2026"),
]


@pytest.fixture
def formatted(db: TestDatabase):
    def run(kind: str, raw: str, locale: str | None) -> str:
        return db.scalar("SELECT footnote.format(%s, %s, %s)", (kind, raw, locale))

    return run


def test_formats_every_kind_in_both_locales(formatted) -> None:
    got = [(k, r, loc, formatted(k, r, loc)) for k, r, loc, _ in CASES]
    assert got == CASES


def test_locale_defaults_to_the_setting_and_a_session_may_override_it(db: TestDatabase) -> None:
    assert db.scalar("SELECT footnote.format('amount', '43805')") == "43.805,00 €"
    with db.connect() as conn:
        conn.execute("SET footnote.locale = 'en-US'")
        assert conn.execute("SELECT footnote.format('amount', '43805')").fetchone() == ("€43,805.00",)
    db.scalar("UPDATE footnote.settings SET value = 'en-US' WHERE key = 'locale' RETURNING 1")
    assert db.scalar("SELECT footnote.format('amount', '43805')") == "€43,805.00"


def test_unknown_locale_or_kind_is_a_clear_error(db: TestDatabase) -> None:
    import psycopg

    with pytest.raises(psycopg.Error) as caught:
        db.scalar("SELECT footnote.format('amount', '1', 'fr-FR')")
    assert caught.value.sqlstate == "FN001" and "fr-FR is not supported" in str(caught.value)
    with pytest.raises(psycopg.Error) as caught:
        db.scalar("SELECT footnote.format('furlongs', '1')")
    assert caught.value.sqlstate == "FN001"
