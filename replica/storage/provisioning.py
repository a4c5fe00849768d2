"""Databases for the benchmark and the tests, so that their SQL, too, lives in the storage package.

- PostgreSQL databases made for one run and dropped after it, on a server whose user may create
  databases: ``python -m bench --instances`` runs its instances on one, and each test on PostgreSQL
  gets one of its own;
- databases in states the app never puts one in itself: as an earlier version left it (an older
  schema, rows in its shape), or full (it refuses new records), or with its codes mailed earlier than
  they were (time passed, without a test waiting it out), or with a busy quarter behind it (the
  owner's charts measured); and what a table's columns are.
"""

from __future__ import annotations

import contextlib
import time
import uuid
import warnings
from datetime import date, timedelta
from functools import partial
from pathlib import Path
from typing import Any, Iterator, Sequence

from replica.storage.database import Database, Transaction, open_database
from replica.storage.figures import ANSWERED, ReplyFigure, day_start
from replica.storage.migrations import Migration, migrate


@contextlib.contextmanager
def scratch_database(admin_url: str, prefix: str) -> Iterator[str]:
    """A new, empty database on the server of ``admin_url`` (named ``prefix`` and a random part); yields
    its URL, and drops it afterwards."""
    import psycopg

    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield admin_url.rsplit("/", 1)[0] + "/" + name
    finally:
        drop_database(admin_url, name)


def drop_database(admin_url: str, name: str, tries: int = 10) -> None:
    """Drop database ``name``. An autovacuum worker on it belongs to the server's superuser, whom FORCE may
    not terminate: wait a moment for it to finish, rather than fail over the cleanup."""
    import psycopg

    for _ in range(tries):
        try:
            with psycopg.connect(admin_url, autocommit=True) as admin:
                admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            return
        except psycopg.errors.InsufficientPrivilege:
            time.sleep(0.3)
    warnings.warn(f"database {name} was left behind: an autovacuum worker held it", stacklevel=2)


def database_at(
    path: Path,
    url: str | None,
    migrations: Sequence[Migration],
    rows: Sequence[tuple[str, dict[str, Any]]] = (),
    counted: bool = False,
) -> None:
    """Leave at ``path`` (or ``url``) a database as an earlier version of the app left it: ``migrations``
    applied, then ``rows`` inserted in order, each ``(table, {column: value})`` in that schema's shape.
    ``counted``: the migrations recorded as the first versions did, by count (SQLite's ``user_version``,
    a ``schema_version`` table on PostgreSQL), not by name."""
    db = open_database(path, url)
    try:
        if counted:
            db.write(lambda tx: [tx.execute(sql) for m in migrations for sql in m.statements(tx.dialect)])
            if db.dialect == "sqlite":
                db.read(f"PRAGMA user_version = {len(migrations)}")
            else:
                db.write(lambda tx: tx.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)"))
                db.write(lambda tx: tx.execute("INSERT INTO schema_version (version) VALUES (?)", (len(migrations),)))
        else:
            migrate(db, list(migrations))
        for table, values in rows:
            db.write(partial(_insert, table=table, values=values))
    finally:
        db.close()


def _insert(tx: Transaction, table: str, values: dict[str, Any]) -> None:
    """Insert one row of ``values`` (column: value) into ``table``."""
    tx.execute(
        f"INSERT INTO {table} ({', '.join(values)}) VALUES ({', '.join('?' for _ in values)})", tuple(values.values())
    )


def refuse_new_records(db: Database, tables: Sequence[str]) -> None:
    """Make ``db`` refuse new rows in ``tables``, as a full disk would: SQLite may grow no further (the
    next write that needs a page fails, "database or disk is full"); PostgreSQL no longer permits inserts."""
    if db.dialect == "sqlite":
        db.read("VACUUM")  # no free pages left for new rows to reuse
        pages = db.read("PRAGMA page_count")[0]["page_count"]
        db.read(f"PRAGMA max_page_count = {pages}")
    else:
        db.write(lambda tx: tx.execute(f"REVOKE INSERT ON {', '.join(tables)} FROM CURRENT_USER"))


def codes_mailed_earlier(db: Database, seconds: float) -> None:
    """Move every mailed code's time back ``seconds``, as if that much time had passed since it went."""
    db.write(
        lambda tx: tx.execute("UPDATE codes SET issued_at = issued_at - ? WHERE issued_at IS NOT NULL", (seconds,))
    )


def columns(db: Database, table: str) -> set[str]:
    """The names of ``table``'s columns."""
    if db.dialect == "sqlite":
        return {row["name"] for row in db.read(f"PRAGMA table_info({table})")}
    found = db.read("SELECT column_name FROM information_schema.columns WHERE table_name = ?", (table,))
    return {row["column_name"] for row in found}


def busy_quarter(last: date, conversations: int, days: int) -> list[ReplyFigure]:
    """The reply figures of ``conversations`` conversations over the ``days`` days up to ``last``: one to
    three visitor messages each, answered every way, half of them by the model (150 tokens a call)."""
    figures = []
    for n in range(conversations):
        day = last - timedelta(days=n % days)
        start = day_start(day)
        for m in range(1 + n % 3):
            way = ANSWERED[(n + m) % len(ANSWERED)]
            figures.append(
                ReplyFigure(
                    start + 3600 + n % 70_000 + m, day.isoformat(), n, m == 0, way, m % 2, 150 * (m % 2), 900 + n % 3000
                )
            )
    return figures
