"""What the tests of verified contacts share."""

from __future__ import annotations

import pytest

from tests.fixtures.databases import fresh_postgres_database


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request, tmp_path):
    """The settings of one backend: SQLite in the test's folder, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield {"DATA_DIR": str(tmp_path / "data")}
    else:
        with fresh_postgres_database() as url:
            yield {"DATA_DIR": str(tmp_path / "data"), "DATABASE_URL": url}
