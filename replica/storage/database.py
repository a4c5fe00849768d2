"""The two databases the store runs on, behind one small interface; every SQL difference lives here.

- :class:`SqliteDatabase`: the embedded default, a file in ``DATA_DIR`` (one connection per process,
  one writer at a time, ``BEGIN IMMEDIATE``; WAL on a local disk, a rollback journal on a mounted volume).
- :class:`PostgresDatabase`: ``DATABASE_URL``, through psycopg 3 and a psycopg-pool connection pool,
  for a host whose disk does not last or for several instances.

The repositories write their queries once, in the SQL both accept (``?`` placeholders, ``ON CONFLICT``,
``RETURNING``). For psycopg the placeholders become ``%s`` by a scan that leaves quoted literals and
identifiers as they are, so a ``?`` inside a string is never taken for one. A row lock is a method of
the transaction (:meth:`Transaction.execute_locked`), not a clause spliced into the text. The schema is
written once per dialect, in :mod:`replica.storage.migrations`.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import sys
import threading
from pathlib import Path
from typing import Any, Callable, Literal, Mapping, Protocol, Sequence, TypeVar

from replica.runtime.clock import REAL_CLOCK, Clock

log = logging.getLogger(__name__)
T = TypeVar("T")
Row = Mapping[str, Any]
Dialect = Literal["sqlite", "postgres"]  # the SQL a database speaks: only migrations look at it
Journal = Literal["wal", "delete"]  # SQLite's journal: WAL, or a rollback journal (on a mounted volume)


class DatabaseError(Exception):
    """The database cannot be opened; the message says which and what to do."""


class DatabaseUnavailable(Exception):
    """The database cannot be reached just now; callers log it, fall back, and carry on."""


def storage_errors() -> tuple[type[BaseException], ...]:
    """What a failing database raises, for ``except storage_errors() as error``: SQLite's errors, the
    store's own, the disk's, and psycopg's once PostgreSQL is in use (psycopg is imported only then, so
    ``python app.py export`` on SQLite never pays for it)."""
    psycopg = sys.modules.get("psycopg")
    return (sqlite3.Error, DatabaseError, DatabaseUnavailable, OSError) + ((psycopg.Error,) if psycopg else ())


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Row | None: ...

    def fetchall(self) -> list[Row]: ...


def the_row(cursor: Cursor) -> Row:
    """The row of a statement that always returns one (a count, an ``INSERT … RETURNING``, a key the
    transaction has just made sure of); none is the database's failure, raised as one."""
    row = cursor.fetchone()
    if row is None:
        raise DatabaseError("the database returned no row where one is always returned")
    return row


class Transaction(Protocol):
    """What a write step may do: run statements inside the write's one transaction."""

    dialect: Dialect

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor: ...

    def execute_locked(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        """Run a ``SELECT`` whose rows stay locked until the transaction ends."""
        ...


class Database(Protocol):
    """Reads, and writes in one transaction each."""

    dialect: Dialect

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    def write(self, steps: Callable[[Transaction], T]) -> T: ...

    def close(self) -> None: ...


def _unusable(path: Path, error: Exception) -> DatabaseError:
    return DatabaseError(
        f"{path} cannot be used as the database ({error}); move that file aside or set DATA_DIR to another folder"
    )


class _SqliteTransaction:
    dialect: Dialect = "sqlite"

    def __init__(self, connection: sqlite3.Connection):
        self._connection = connection

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        return self._connection.execute(sql, tuple(params))

    def execute_locked(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        return self.execute(sql, params)  # BEGIN IMMEDIATE already holds the one write lock


class SqliteDatabase:
    """SQLite on one connection, shared by the app's threads behind one lock.

    ``journal`` is ``wal`` (readers never wait for the writer) or ``delete``, a rollback journal that
    needs no shared-memory map, for a ``DATA_DIR`` on a mounted volume (:mod:`replica.storage.volumes`).
    Either way the process holds a single connection and queues its threads on the lock, so its own
    writers never meet "database is locked"; another process (``export``, ``doctor``) waits its turn.

    The file holds visitors' words and the salt of their address hashes: it is made readable by the
    app's user only (mode 600), and SQLite gives its WAL and shared-memory files the same mode.
    """

    dialect: Dialect = "sqlite"

    def __init__(self, path: Path, journal: Journal = "wal", read_only: bool = False):
        self.path = path
        self._lock = threading.Lock()
        if read_only:  # to look, not touch: no file made, no mode or journal changed (doctor)
            try:
                self._db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
                self._db.row_factory = sqlite3.Row
                self._db.execute("PRAGMA query_only=ON")
                self.journal = self._db.execute("PRAGMA journal_mode").fetchone()[0]
            except (sqlite3.DatabaseError, OSError) as error:
                raise _unusable(path, error) from None
            return
        try:
            _owner_only(path)
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=10)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA busy_timeout=10000")
            mode = "DELETE" if journal == "delete" else "WAL"
            self.journal = self._db.execute(f"PRAGMA journal_mode={mode}").fetchone()[0]  # what SQLite kept
            self._db.execute("PRAGMA synchronous=FULL")  # a commit is on the disk (or the volume) when it returns
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
                result = steps(_SqliteTransaction(self._db))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return result

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _owner_only(path: Path, create: bool = True) -> None:
    """Make ``path`` (created empty if missing and ``create``) readable and writable by its owner only."""
    if create and not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    if path.exists():
        os.chmod(path, 0o600)


def psycopg_sql(sql: str) -> str:
    """``sql`` with psycopg's placeholders: each ``?`` outside quotes becomes ``%s``, and each ``%``
    (psycopg's escape character, inside quotes too) is doubled. Text in single quotes (a literal, with
    ``''`` for a quote) and double quotes (an identifier) is copied as it is."""
    out, quote = [], ""
    for char in sql:
        if char == "%":
            out.append("%%")
            continue
        if quote:
            quote = "" if char == quote else quote  # '' reopens at once: the pair is one quote inside
        elif char in "'\"":
            quote = char
        elif char == "?":
            out.append("%s")
            continue
        out.append(char)
    return "".join(out)


class _PostgresTransaction:
    dialect: Dialect = "postgres"

    def __init__(self, connection: Any):
        self._connection = connection

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        return self._connection.execute(psycopg_sql(sql), tuple(params))

    def execute_locked(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        return self._connection.execute(psycopg_sql(sql) + " FOR UPDATE", tuple(params))


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

    dialect: Dialect = "postgres"

    def __init__(
        self,
        url: str,
        max_size: int = 8,
        timeout: float = 2.0,
        probe_every: float = 1.0,
        read_only: bool = False,
        clock: Clock = REAL_CLOCK,
    ):
        import psycopg
        from psycopg_pool import PoolTimeout

        self._psycopg = psycopg
        self._url = url
        self._options = "-c default_transaction_read_only=on" if read_only else None  # to look, not touch
        self._max_size = max_size
        self._timeout = timeout
        self._probe_every = probe_every
        self._clock = clock  # times the probes while the server is down
        self._broken_errors = (psycopg.OperationalError, PoolTimeout)
        self._down = False
        self._last_probe = 0.0
        self._probing = threading.Lock()
        try:
            psycopg.connect(url, connect_timeout=10).close()  # a wrong address or password fails at once
            self._pool = self._open_pool()
        except (psycopg.Error, OSError) as error:
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
            kwargs={
                "row_factory": dict_row,
                "connect_timeout": 5,
                **({"options": self._options} if self._options else {}),
            },
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
            self._down, self._last_probe = True, self._clock.monotonic()
            raise DatabaseUnavailable(f"PostgreSQL is unreachable ({type(error).__name__})") from None

    def _probe(self) -> None:
        """While down: raise :class:`DatabaseUnavailable` at once, unless it is time to look again and the
        server answers, in which case the pool is renewed and the call goes ahead."""
        if self._clock.monotonic() - self._last_probe < self._probe_every or not self._probing.acquire(blocking=False):
            raise DatabaseUnavailable("PostgreSQL was unreachable a moment ago")
        try:
            if not self._down:
                return  # another caller found it back meanwhile
            try:
                self._psycopg.connect(self._url, connect_timeout=2).close()
                fresh = self._open_pool()
            except (self._psycopg.Error, OSError) as error:
                raise DatabaseUnavailable(f"PostgreSQL is still unreachable ({type(error).__name__})") from None
            finally:
                self._last_probe = self._clock.monotonic()
            stale, self._pool, self._down = self._pool, fresh, False
            log.warning("PostgreSQL is reachable again")
            threading.Thread(target=stale.close, kwargs={"timeout": 1.0}, daemon=True).start()
        finally:
            self._probing.release()

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return self._run(lambda connection: connection.execute(psycopg_sql(sql), tuple(params)).fetchall())

    def write(self, steps: Callable[[Transaction], T]) -> T:
        def transaction(connection: Any) -> T:
            with connection.transaction():
                return steps(_PostgresTransaction(connection))

        return self._run(transaction)

    def close(self) -> None:
        self._pool.close()


def _is_query_error(error: Exception) -> bool:
    """True for an error of the statement itself (a conflict, a lock timeout), not of the connection or
    the server (class 08: connection exception; 57: the server shutting down)."""
    state = getattr(error, "sqlstate", None)
    return state is not None and not state.startswith(("08", "57"))


def open_database(
    path: Path, url: str | None, journal: Journal = "wal", read_only: bool = False, clock: Clock = REAL_CLOCK
) -> Database:
    """PostgreSQL at ``url`` when given, else SQLite at ``path`` with that ``journal``; ``read_only``: to
    look without changing anything (no file made, nothing written); ``clock`` times PostgreSQL's probes."""
    if url:
        return PostgresDatabase(url, read_only=read_only, clock=clock)
    return SqliteDatabase(path, journal, read_only=read_only)
