"""PostgreSQL databases made for one run and dropped after it: the benchmark's and the tests'.

On a server whose user may create databases: ``python -m bench --instances`` runs its instances on one,
and each test on PostgreSQL gets one of its own.
"""

from __future__ import annotations

import contextlib
import time
import uuid
import warnings
from typing import Iterator


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
