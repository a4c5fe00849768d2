"""Databases made to order for tests and checks: at an older schema, refusing new rows as a full disk
does, and read for their columns; on both backends."""

from __future__ import annotations

import pytest

from replica.storage.database import open_database, storage_errors
from replica.storage.migrations import MIGRATIONS, applied
from replica.storage.provisioning import columns, database_at, refuse_new_records
from replica.storage.store import Store
from tests.storage.test_store import alert


def test_a_database_at_an_older_schema_holds_exactly_its_migrations_and_rows(tmp_path, database_url):
    path = tmp_path / "old.sqlite3"
    database_at(
        path,
        database_url,
        MIGRATIONS[:3],
        [
            (
                "leads",
                {
                    "email": "a@x.org",
                    "name": "",
                    "notes": "",
                    "session": "s1",
                    "created_at": "2026-11-29T15:00:00+00:00",
                },
            )
        ],
    )
    db = open_database(path, database_url)
    try:
        assert [number for number, _ in applied(db)] == [m.number for m in MIGRATIONS[:3]]
    finally:
        db.close()
    store = Store(path, database_url=database_url)  # the rows are there to be migrated
    try:
        assert [lead.email for lead in store.leads.all()] == ["a@x.org"]
    finally:
        store.close()


def test_the_tables_columns_are_read_on_either_backend(store):
    assert {"email", "name", "notes", "session"} <= columns(store.db, "leads")
    assert columns(store.db, "no_such_table") == set()


def test_a_database_refusing_new_records_still_reads_what_it_holds(store):
    store.leads.record("a@example.org", "", "", alert().entry())
    refuse_new_records(store.db, ["leads", "outbox", "deliveries"])
    with pytest.raises(storage_errors()):
        for n in range(200):  # SQLite fails once a write needs a new page
            store.leads.record(f"{n}@example.org", "", "x" * 2000, alert(session=f"s{n}", email=f"{n}@x.org").entry())
    assert [lead.email for lead in store.leads.all()][0] == "a@example.org"
