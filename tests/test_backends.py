"""Which PostgreSQL servers this run covers; the Docker backend is used only when an engine answers."""

from __future__ import annotations

import os

import pytest

from tests import pgservers
from tests.conftest import TestDatabase


def test_docker_backend_is_used_when_an_engine_answers() -> None:
    ok, why = pgservers.docker_reachable()
    if not ok:
        pytest.skip(f"testcontainers backend not run: {why}")
    assert "docker" in pgservers.available_backends() or os.environ.get("FOOTNOTE_TEST_BACKENDS")


def test_each_backend_is_a_real_postgresql(db: TestDatabase) -> None:
    version = db.server.version()
    assert version >= 15
    expected = {"embedded-pg18": 18, "system-pg15": 15, "docker-pg17": 17}.get(db.server.name)
    if expected is not None:
        assert version == expected
