"""Dropping a PostgreSQL database a test or the benchmark made, without failing over the cleanup."""

from __future__ import annotations

import time
import warnings


def drop_database(admin_url: str, name: str, tries: int = 10) -> None:
    """Drop database ``name``. An autovacuum worker on it belongs to the server's superuser, whom FORCE may
    not terminate: wait a moment for it to finish, rather than fail a test over its cleanup."""
    import psycopg

    for _ in range(tries):
        try:
            with psycopg.connect(admin_url, autocommit=True) as admin:
                admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            return
        except psycopg.errors.InsufficientPrivilege:
            time.sleep(0.3)
    warnings.warn(f"database {name} was left behind: an autovacuum worker held it", stacklevel=2)
