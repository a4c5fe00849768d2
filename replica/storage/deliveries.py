"""Each alert's delivery to each channel beside Telegram: its own state, tries, schedule and lease.

An alert is queued once per channel in the transaction that stores it (see :meth:`Outbox.queue_in`), so
one channel failing never delays or repeats another. Telegram's delivery is the outbox row itself.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Collection

from replica.storage.database import Database, Transaction
from replica.storage.records import iso


@dataclass(frozen=True)
class PendingDelivery:
    """An alert waiting for one channel: its delivery, the alert (kind and JSON), tries, when it is due,
    and the number of the lead or question it is about."""

    id: int
    kind: str
    payload: str
    attempts: int
    due_at: float
    ref: int | None


class Deliveries:
    """The deliveries of every alert to every channel, shared by every instance on the database."""

    def __init__(self, db: Database, lease_seconds: float, clock: Callable[[], float] = time.time):
        self.db = db
        self.lease_seconds = lease_seconds
        self._clock = clock

    def queue_in(self, tx: Transaction, alert_id: int, channels: Collection[str]) -> None:
        """One pending delivery of alert ``alert_id`` per channel key, inside ``tx``."""
        for channel in channels:
            tx.execute(
                "INSERT INTO deliveries (alert_id, channel, due_at) VALUES (?, ?, ?)", (alert_id, channel, time.time())
            )

    def waiting(self, channel: str, limit: int, skip: Collection[int] = ()) -> list[PendingDelivery]:
        """The oldest deliveries to ``channel`` not yet made and not leased to another instance (at most
        ``limit``), leaving out ``skip`` (delivered, though not yet recorded)."""
        skipped = f"AND d.id NOT IN ({','.join('?' * len(skip))}) " if skip else ""
        rows = self.db.read(
            "SELECT d.id, o.kind, o.alert, d.attempts, d.due_at, COALESCE(o.lead_id, o.question_id) AS ref "
            "FROM deliveries d JOIN outbox o ON o.id = d.alert_id WHERE d.channel = ? AND d.status = 'pending' "
            f"AND (d.lease_until IS NULL OR d.lease_until < ?) {skipped}ORDER BY d.id LIMIT ?",
            (channel, time.time(), *skip, limit),
        )
        return [PendingDelivery(r["id"], r["kind"], r["alert"], r["attempts"], r["due_at"], r["ref"]) for r in rows]

    def claim(self, ids: Collection[int]) -> set[int]:
        """Lease the deliveries ``ids`` to this instance; returns those it got (another may hold the rest)."""
        marks = ",".join("?" * len(ids))
        now = time.time()
        return self.db.write(
            lambda tx: {
                row["id"]
                for row in tx.execute(
                    f"UPDATE deliveries SET lease_until = ? WHERE id IN ({marks}) AND status = 'pending' "
                    "AND (lease_until IS NULL OR lease_until < ?) RETURNING id",
                    (now + self.lease_seconds, *ids, now),
                ).fetchall()
            }
        )

    def mark_sent(self, ids: Collection[int]) -> None:
        """Record that the channel took the message that carried ``ids`` (one, or a fold of several)."""
        marks = ",".join("?" * len(ids))
        self.db.write(
            lambda tx: tx.execute(
                "UPDATE deliveries SET status = 'sent', attempts = attempts + 1, sent_at = ?, last_error = NULL, "
                f"lease_until = NULL, folded = ? WHERE id IN ({marks})",
                (self._clock(), len(ids), *ids),
            )
        )

    def reschedule(self, ids: Collection[int], due_at: float, error: str) -> None:
        """Record a failed try of ``ids``; they are tried again at ``due_at`` (epoch seconds)."""
        marks = ",".join("?" * len(ids))
        self.db.write(
            lambda tx: tx.execute(
                "UPDATE deliveries SET attempts = attempts + 1, due_at = ?, last_error = ?, lease_until = NULL "
                f"WHERE id IN ({marks})",
                (due_at, error, *ids),
            )
        )

    def pending(self) -> dict[str, int]:
        """How many deliveries wait, by channel key."""
        rows = self.db.read("SELECT channel, COUNT(*) AS n FROM deliveries WHERE status = 'pending' GROUP BY channel")
        return {row["channel"]: row["n"] for row in rows}

    def rows(self) -> list[dict]:
        """Every delivery with its alert's kind and time, its channel key, state and tries (for ``export alerts``)."""
        rows = self.db.read(
            "SELECT o.kind, o.created_at, d.channel, d.status, d.attempts, d.last_error, d.sent_at, d.folded "
            "FROM deliveries d JOIN outbox o ON o.id = d.alert_id ORDER BY d.alert_id, d.id"
        )
        return [{**row, "created_at": iso(row["created_at"]), "sent_at": iso(row["sent_at"])} for row in rows]
