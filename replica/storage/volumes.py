"""Where ``DATA_DIR`` lives: the machine's own disk or an attached volume, and what follows for SQLite.

A Hugging Face Space's own disk is wiped on every restart; a Storage Bucket attached to it is mounted
as a volume at a path the owner chooses (docs/hosting.md names the pages). So on a Space, SQLite
outside a mount point loses every record at the next restart, and SQLite on one must keep to what
network and FUSE mounts do well: a rollback journal (``delete``) instead of WAL, whose index is a
memory-mapped ``-shm`` file that SQLite documents as needing a local file system.
"""

from __future__ import annotations

import os
from pathlib import Path

from replica.settings import SqliteJournal
from replica.storage.database import Journal


def volume_of(path: Path) -> Path | None:
    """The mount point of the attached volume ``path`` is on, or ``None`` when it is on the root disk."""
    current = path.absolute()
    while not current.exists() and current != current.parent:
        current = current.parent  # DATA_DIR may not be made yet: its nearest existing folder decides
    current = current.resolve()
    while current != current.parent:
        if os.path.ismount(current):
            return current
        current = current.parent
    return None


def sqlite_journal(data_dir: Path, setting: SqliteJournal = "auto") -> Journal:
    """The journal SQLite keeps in ``data_dir``: the ``SQLITE_JOURNAL`` setting, or for ``auto``, ``wal``
    on the root disk and ``delete`` on a mounted volume."""
    if setting != "auto":
        return setting
    return "delete" if volume_of(data_dir) else "wal"


def records_at_risk(space_id: str | None, database_url: str | None, data_dir: Path) -> str | None:
    """Why the records will not survive the next restart, or ``None`` when they will (or cannot be told).

    Only on a Space (``SPACE_ID`` set) is the disk known to be ephemeral; elsewhere the owner knows
    their own disk."""
    if not space_id or database_url or volume_of(data_dir):
        return None
    return (
        f"records will be lost at the next restart: DATA_DIR ({data_dir}) is on the Space's own disk, "
        "which is wiped on every restart, rebuild and wake from sleep"
    )


KEEP_RECORDS = (
    "attach a Storage Bucket to the Space at /data and set DATA_DIR=/data, "
    "or set DATABASE_URL to a PostgreSQL database (docs/hosting.md#records-that-survive-a-restart)"
)
