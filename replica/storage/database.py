"""The two databases the store runs on, behind one small interface; every SQL difference lives here.

- :class:`SqliteDatabase`: the embedded default, a file in ``DATA_DIR`` (WAL mode; one writer at a
  time, ``BEGIN IMMEDIATE``). Migrations are counted in ``PRAGMA user_version``.
- :class:`PostgresDatabase`: ``DATABASE_URL``, through psycopg 3 and a psycopg-pool connection pool,
  for a host whose disk does not last or for several instances. Migrations are counted in a table and
  run under an advisory lock, so two instances starting at once migrate once.

The store writes its SQL once, in the dialect both accept (``?`` placeholders, ``ON CONFLICT``,
``RETURNING``); the PostgreSQL side turns placeholders into psycopg's, and the schema's few
SQLite-only words into PostgreSQL's.
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol, Sequence, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")
Row = Mapping[str, Any]
MIGRATION_LOCK = 72_001  # pg_advisory_xact_lock key: one migrating instance at a time


class DatabaseError(Exception):
    """The database cannot be opened; the message says which and what to do."""


class Cursor(Protocol):
    rowcount: int

    def fetchone(self) -> Row | None: ...

    def fetchall(self) -> list[Row]: ...


class Transaction(Protocol):
    """What a write step may do: run statements inside the write's one transaction."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor: ...


class Database(Protocol):
    """Reads, writes in one transaction each, migrations, and the dialect words the store needs."""

    lock_clause: str  # appended to a SELECT that must lock its rows until the transaction ends

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    def write(self, steps: Callable[[Transaction], T]) -> T: ...

    def migrate(self, migrations: Sequence[str]) -> None: ...

    def close(self) -> None: ...


def _unusable(path: Path, error: Exception) -> DatabaseError:
    return DatabaseError(
        f"{path} cannot be used as the database ({error}); move that file aside or set DATA_DIR to another folder"
    )


class SqliteDatabase:
    """SQLite in WAL mode, shared by the app's threads behind one lock.

    The file holds visitors' words and the salt of their address hashes: it is made readable by the
    app's user only (mode 600), and SQLite gives its WAL and shared-memory files the same mode.
    """

    lock_clause = ""  # BEGIN IMMEDIATE already holds the one write lock

    def __init__(self, path: Path):
        self.path = path
        self._lock = threading.Lock()
        try:
            _owner_only(path)
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=10)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA busy_timeout=10000")
            for companion in ("-wal", "-shm"):  # made by an earlier version, perhaps with a wider mode
                _owner_only(path.with_name(path.name + companion), create=False)
        except (sqlite3.DatabaseError, OSError) as error:
            raise _unusable(path, error) from None

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with self._lock:
            return self._db.execute(sql, tuple(params)).fetchall()

    def write(self, steps: Callable[[Transaction], T]) -> T:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                result = steps(self._db)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return result

    def migrate(self, migrations: Sequence[str]) -> None:
        try:
            with self._lock:
                version = self._db.execute("PRAGMA user_version").fetchone()[0]
                for number, script in enumerate(migrations[version:], start=version + 1):
                    self._db.executescript(f"BEGIN IMMEDIATE; {script}; PRAGMA user_version = {number}; COMMIT;")
        except sqlite3.DatabaseError as error:
            raise _unusable(self.path, error) from None

    def execute_raw(self, sql: str) -> list[Any]:
        """Run SQLite-only SQL (tests use it to fill the disk up)."""
        with self._lock:
            return self._db.execute(sql).fetchall()

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _owner_only(path: Path, create: bool = True) -> None:
    """Make ``path`` (created empty if missing and ``create``) readable and writable by its owner only."""
    if create and not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    if path.exists():
        os.chmod(path, 0o600)


def postgres_sql(sql: str) -> str:
    """The store's SQL for psycopg: ``?`` placeholders become ``%s`` (and a literal ``%`` is escaped)."""
    return sql.replace("%", "%%").replace("?", "%s")


def postgres_schema(script: str) -> str:
    """A migration's SQLite schema words in PostgreSQL's."""
    script = re.sub(r"\bINTEGER PRIMARY KEY\b", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", script)
    script = re.sub(r"\bINTEGER\b(?! GENERATED)", "BIGINT", script)
    return re.sub(r"\bREAL\b", "DOUBLE PRECISION", script)


class _PostgresTransaction:
    def __init__(self, connection: Any):
        self._connection = connection

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        return self._connection.execute(postgres_sql(sql), tuple(params))


class DatabaseUnavailable(Exception):
    """The database cannot be reached just now; callers log it, fall back, and carry on."""


class PostgresDatabase:
    """PostgreSQL through a psycopg-pool pool; each write is one transaction on one pooled connection.

    Outages are met head-on. Each connection is checked as it leaves the pool. Once a call finds the
    server unreachable, the database is *down*: calls fail at once (:class:`DatabaseUnavailable`)
    instead of each waiting out the pool's timeout, so a visitor's reply, which touches the database
    several times, stays within its deadline. While down, a call made at least ``probe_every`` seconds
    after the last try connects directly to see whether the server is back; when it is, a fresh pool
    replaces the old one (whose reconnection attempts may be minutes apart by then), and that very
    call goes ahead: the first request after the server returns succeeds.
    """

    lock_clause = " FOR UPDATE"

    def __init__(self, url: str, max_size: int = 8, timeout: float = 3.0, probe_every: float = 1.0):
        import psycopg
        from psycopg_pool import PoolTimeout

        self._psycopg = psycopg
        self._url = url
        self._max_size = max_size
        self._timeout = timeout
        self._probe_every = probe_every
        self._broken_errors = (psycopg.OperationalError, PoolTimeout)
        self._down = False
        self._last_probe = 0.0
        self._probing = threading.Lock()
        try:
            psycopg.connect(url, connect_timeout=10).close()  # a wrong address or password fails at once
            self._pool = self._open_pool()
        except Exception as error:
            raise DatabaseError(
                f"DATABASE_URL cannot be reached ({type(error).__name__}); check the address, user and password"
            ) from None

    def _open_pool(self) -> Any:
        from psycopg.rows import dict_row
        from psycopg_pool import ConnectionPool

        pool = ConnectionPool(
            self._url,
            min_size=1,
            max_size=self._max_size,
            kwargs={"row_factory": dict_row, "connect_timeout": 5},
            check=ConnectionPool.check_connection,
            open=True,
            timeout=self._timeout,
        )
        pool.wait(timeout=10)
        return pool

    def _run(self, work: Callable[[Any], T]) -> T:
        if self._down:
            self._probe()
        try:
            with self._pool.connection() as connection:
                return work(connection)
        except self._broken_errors as error:
            if _is_query_error(error):
                raise
            if not self._down:
                log.error("PostgreSQL is unreachable (%s); failing fast until it is back", type(error).__name__)
            self._down, self._last_probe = True, time.monotonic()
            raise DatabaseUnavailable(f"PostgreSQL is unreachable ({type(error).__name__})") from None

    def _probe(self) -> None:
        """While down: raise :class:`DatabaseUnavailable` at once, unless it is time to look again and the
        server answers, in which case the pool is renewed and the call goes ahead."""
        if time.monotonic() - self._last_probe < self._probe_every or not self._probing.acquire(blocking=False):
            raise DatabaseUnavailable("PostgreSQL was unreachable a moment ago")
        try:
            if not self._down:
                return  # another caller found it back meanwhile
            try:
                self._psycopg.connect(self._url, connect_timeout=2).close()
                fresh = self._open_pool()
            except Exception as error:
                raise DatabaseUnavailable(f"PostgreSQL is still unreachable ({type(error).__name__})") from None
            finally:
                self._last_probe = time.monotonic()
            stale, self._pool, self._down = self._pool, fresh, False
            log.warning("PostgreSQL is reachable again")
            threading.Thread(target=stale.close, kwargs={"timeout": 1.0}, daemon=True).start()
        finally:
            self._probing.release()

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return self._run(lambda connection: connection.execute(postgres_sql(sql), tuple(params)).fetchall())

    def write(self, steps: Callable[[Transaction], T]) -> T:
        def transaction(connection: Any) -> T:
            with connection.transaction():
                return steps(_PostgresTransaction(connection))

        return self._run(transaction)

    def migrate(self, migrations: Sequence[str]) -> None:
        with self._pool.connection() as connection:
            with connection.transaction():
                connection.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
                connection.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                row = connection.execute("SELECT version FROM schema_version").fetchone()
                version = row["version"] if row else 0
                for script in migrations[version:]:
                    for statement in filter(str.strip, postgres_schema(script).split(";")):
                        connection.execute(statement)
                connection.execute("DELETE FROM schema_version")
                connection.execute("INSERT INTO schema_version (version) VALUES (%s)", (len(migrations),))

    def close(self) -> None:
        self._pool.close()


def _is_query_error(error: Exception) -> bool:
    """True for an error of the statement itself (a conflict, a lock timeout), not of the connection or
    the server (class 08: connection exception; 57: the server shutting down)."""
    state = getattr(error, "sqlstate", None)
    return state is not None and not state.startswith(("08", "57"))


def open_database(path: Path, url: str | None) -> Database:
    """PostgreSQL at ``url`` when given, else SQLite at ``path``."""
    return PostgresDatabase(url) if url else SqliteDatabase(path)
