"""The database: SQLite's files the owner's only, and SQL written once for both backends."""

from __future__ import annotations

from replica.storage import Store


def test_the_sqlite_database_and_its_wal_are_the_owners_only(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "replica.sqlite3").touch(mode=0o644)  # made by an earlier version, readable by all
    store = Store(folder / "replica.sqlite3")
    try:
        store.state.set("k", "v")
        files = [folder / name for name in ("replica.sqlite3", "replica.sqlite3-wal", "replica.sqlite3-shm")]
        assert all(path.exists() and path.stat().st_mode & 0o777 == 0o600 for path in files)
    finally:
        store.close()


def test_a_question_mark_or_percent_sign_in_a_literal_is_never_taken_for_a_placeholder(store):
    from replica.storage.database import psycopg_sql

    assert psycopg_sql("SELECT '?', 'it''s ? 5%', \"a?b\" WHERE x = ?") == (
        "SELECT '?', 'it''s ? 5%%', \"a?b\" WHERE x = %s"
    )
    [row] = store.db.read("SELECT 'why?' AS literal, 'it''s 5%' AS percent, ? AS value", (7,))
    assert (row["literal"], row["percent"], row["value"]) == ("why?", "it's 5%", 7)
