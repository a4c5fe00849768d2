"""Small values kept by key (the bot's update offset, the day the digest went, shared secrets)."""

from __future__ import annotations

from replica.storage.database import Database, Transaction, the_row


def set_in(tx: Transaction, key: str, value: str) -> None:
    """Set ``key`` to ``value`` inside the transaction ``tx``."""
    tx.execute(
        "INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


class State:
    """Key-value state in the database, shared by every instance."""

    def __init__(self, db: Database):
        self.db = db

    def get(self, key: str) -> str | None:
        """The value under ``key``, or ``None``."""
        rows = self.db.read("SELECT value FROM state WHERE key = ?", (key,))
        return rows[0]["value"] if rows else None

    def set(self, key: str, value: str) -> None:
        """Keep ``value`` under ``key``."""
        self.db.write(lambda tx: set_in(tx, key, value))

    def shared(self, key: str, candidate: str) -> str:
        """The value kept under ``key``, set to ``candidate`` by whichever instance asks first: one
        secret or salt shared by every instance on this database, and the same after a restart."""

        def steps(tx: Transaction) -> str:
            tx.execute("INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", (key, candidate))
            return the_row(tx.execute("SELECT value FROM state WHERE key = ?", (key,)))["value"]

        return self.db.write(steps)


class HandledUpdates:
    """Which Telegram updates were handled (webhook mode), so each is handled once across instances."""

    def __init__(self, db: Database):
        self.db = db

    def first_time(self, update_id: int) -> bool:
        """True for the one caller that records ``update_id`` first; False for every later one."""
        row = self.db.write(
            lambda tx: tx.execute(
                "INSERT INTO handled_updates (update_id) VALUES (?) ON CONFLICT DO NOTHING RETURNING update_id",
                (update_id,),
            ).fetchone()
        )
        return row is not None
