"""Each alert's delivery to each channel (Telegram and every ``ALERT_URLS`` one): its state, tries,
schedule, lease, and the id the channel gave the message.

An alert is queued once per channel in the transaction that stores it (see :meth:`Outbox.queue_in`), so
one channel failing never delays or repeats another. A channel's pace (one message per so many seconds)
is kept in the database, so every instance on it keeps to the service's rate together.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection

from replica.runtime.clock import REAL_CLOCK, Clock
from replica.storage.database import Database, Transaction
from replica.storage.records import AlertKind, iso
from replica.storage.rows import DeliveryRecord, typed
from replica.storage.send_queue import LEASE_SECONDS, SendQueue
from replica.storage.state import set_in

TELEGRAM = "telegram"  # the owner's chat: always a channel, so alerts wait for it until it is configured
# An alert's state for the owner's records, over the outbox row ``o`` (NULL: capped): sent when any channel
# took it, pending while one may yet, failed when every channel gave up.
ALERT_STATUS = (
    "CASE WHEN o.id IS NULL THEN 'capped' "
    "WHEN EXISTS (SELECT 1 FROM deliveries d WHERE d.alert_id = o.id AND d.status = 'sent') THEN 'sent' "
    "WHEN EXISTS (SELECT 1 FROM deliveries d WHERE d.alert_id = o.id AND d.status = 'pending') THEN 'pending' "
    "ELSE 'failed' END"
)


@dataclass(frozen=True)
class PendingDelivery:
    """An alert waiting for one channel: its delivery, the alert (kind and JSON), tries, when it is due,
    when the alert was raised, the number of the lead or question it is about, and how many records of
    each kind from the same address were kept without an alert before it (``((AlertKind.LEAD, 2),)``)."""

    id: int
    kind: AlertKind
    payload: str
    attempts: int
    due_at: float
    created_at: float
    ref: int | None
    kept: tuple[tuple[AlertKind, int], ...] = ()


@dataclass(frozen=True)
class ChannelSummary:
    """What waits for one channel: deliveries pending and given up, when the oldest pending alert was
    raised (ISO), and why the last one given up was."""

    pending: int = 0
    failed: int = 0
    oldest_pending: str | None = None
    last_failure: str | None = None


class Deliveries(SendQueue):
    """The deliveries of every alert to every channel, shared by every instance on the database: rows of
    the one send queue (leased, sent, rescheduled and given up as every queued thing is)."""

    table = "deliveries"

    def __init__(
        self,
        db: Database,
        channels: Collection[str] = (TELEGRAM,),
        lease_seconds: float = LEASE_SECONDS,
        clock: Clock = REAL_CLOCK,
    ):
        super().__init__(db, clock, lease_seconds)
        self.channels = tuple(channels)

    def queue_in(self, tx: Transaction, alert_id: int) -> None:
        """One pending delivery of alert ``alert_id`` per channel, inside ``tx``."""
        for channel in self.channels:
            tx.execute(
                "INSERT INTO deliveries (alert_id, channel, due_at) VALUES (?, ?, ?)",
                (alert_id, channel, self._clock.time()),
            )

    def waiting(self, channel: str, limit: int, skip: Collection[int] = ()) -> list[PendingDelivery]:
        """The oldest deliveries to ``channel`` not yet made and not leased to another instance (at most
        ``limit``), leaving out ``skip`` (delivered, though not yet recorded)."""
        skipped = f"AND d.id NOT IN ({','.join('?' * len(skip))}) " if skip else ""
        rows = self.db.read(
            "SELECT d.id, d.alert_id, o.kind, o.alert, d.attempts, d.due_at, o.created_at, "
            "COALESCE(o.lead_id, o.question_id) AS ref "
            "FROM deliveries d JOIN outbox o ON o.id = d.alert_id WHERE d.channel = ? AND d.status = 'pending' "
            f"AND (d.lease_until IS NULL OR d.lease_until < ?) {skipped}ORDER BY d.alert_id LIMIT ?",
            (channel, self._clock.time(), *skip, limit),
        )
        kept = self._kept_before({r["alert_id"] for r in rows})
        return [
            PendingDelivery(
                r["id"],
                AlertKind(r["kind"]),
                r["alert"],
                r["attempts"],
                r["due_at"],
                r["created_at"],
                r["ref"],
                kept.get(r["alert_id"], ()),
            )
            for r in rows
        ]

    def _kept_before(self, alert_ids: set[int]) -> dict[int, tuple[tuple[AlertKind, int], ...]]:
        """For each of ``alert_ids``, the records of each kind kept without an alert that it tells of."""
        if not alert_ids:
            return {}
        rows = self.db.read(
            "SELECT told_in, kind, COUNT(*) AS n FROM capped_alerts "
            f"WHERE told_in IN ({','.join('?' * len(alert_ids))}) GROUP BY told_in, kind ORDER BY told_in, kind",
            tuple(alert_ids),
        )
        kept: dict[int, tuple[tuple[AlertKind, int], ...]] = {}
        for row in rows:
            kept[row["told_in"]] = (*kept.get(row["told_in"], ()), (AlertKind(row["kind"]), row["n"]))
        return kept

    def claim(self, channel: str, ids: Collection[int], min_interval: float) -> tuple[float, set[int]]:
        """Lease the deliveries ``ids`` (one message's) to this instance, keeping ``channel``'s pace of one
        message per ``min_interval`` seconds across every instance: (0.0, the ids it got), or (seconds to
        wait, nothing) when the pace is not yet due or another instance holds them all."""

        def steps(tx: Transaction) -> tuple[float, set[int]]:
            now = self._clock.time()
            key = f"{channel}_last_send"
            last = tx.execute_locked("SELECT value FROM state WHERE key = ?", (key,)).fetchone()
            wait = float(last["value"]) + min_interval - now if last else 0.0
            if wait > 0:
                return wait, set()
            taken = self._lease_in(tx, ids)
            if not taken:
                return max(min_interval, 0.1), set()
            set_in(tx, key, repr(now))
            return 0.0, taken

        return self.db.write(steps)

    def mark_sent(self, ids: Collection[int], message_id: int | None = None) -> None:
        """Record that the channel took the message that carried ``ids`` (one, or a fold of several), and
        the id it gave the message (Telegram's, so the owner's replies can be matched)."""
        self._mark_sent(ids, ", folded = ?, message_id = ?", (len(ids), message_id))

    def summary(self) -> dict[str, ChannelSummary]:
        """What waits for each channel that has deliveries pending or given up, by channel key."""
        rows = self.db.read(
            "SELECT d.channel, SUM(CASE WHEN d.status = 'pending' THEN 1 ELSE 0 END) AS pending, "
            "SUM(CASE WHEN d.status = 'failed' THEN 1 ELSE 0 END) AS failed, "
            "MIN(CASE WHEN d.status = 'pending' THEN o.created_at END) AS oldest, "
            "(SELECT f.last_error FROM deliveries f WHERE f.channel = d.channel AND f.status = 'failed' "
            "ORDER BY f.id DESC LIMIT 1) AS last_failure "
            "FROM deliveries d JOIN outbox o ON o.id = d.alert_id WHERE d.status != 'sent' GROUP BY d.channel"
        )
        return {
            row["channel"]: ChannelSummary(
                row["pending"] or 0, row["failed"] or 0, iso(row["oldest"]), row["last_failure"]
            )
            for row in rows
        }

    def rows(self) -> list[DeliveryRecord]:
        """Every delivery with its alert's kind and time, its channel key, state and tries (for ``export
        alerts``), oldest alert first."""
        rows = self.db.read(
            "SELECT o.kind, o.created_at, d.channel, d.status, d.attempts, d.last_error, d.sent_at, d.folded "
            "FROM deliveries d JOIN outbox o ON o.id = d.alert_id "
            "ORDER BY d.alert_id, CASE WHEN d.channel = 'telegram' THEN 0 ELSE 1 END, d.id"
        )
        return [
            typed(DeliveryRecord, row, created_at=iso(row["created_at"]), sent_at=iso(row["sent_at"])) for row in rows
        ]

    def conversation_of(self, message_id: int) -> int | None:
        """The conversation an alert, transcript or forwarded message Telegram delivered as ``message_id``
        is about."""
        rows = self.db.read(
            "SELECT o.conversation_id FROM deliveries d JOIN outbox o ON o.id = d.alert_id WHERE d.channel = ? "
            "AND d.message_id = ? AND o.conversation_id IS NOT NULL "
            "UNION ALL SELECT conversation_id FROM telegram_links WHERE message_id = ? LIMIT 1",
            (TELEGRAM, message_id, message_id),
        )
        return rows[0]["conversation_id"] if rows else None

    def lead_message(self, channel: str, lead_id: int) -> tuple[int, str] | None:
        """The message id ``channel`` gave the alert of lead ``lead_id``, and that alert's JSON, when it was
        sent alone (a fold is left as it is); ``None`` otherwise."""
        rows = self.db.read(
            "SELECT d.message_id, o.alert FROM deliveries d JOIN outbox o ON o.id = d.alert_id WHERE o.lead_id = ? "
            "AND d.channel = ? AND d.status = 'sent' AND d.message_id IS NOT NULL AND d.folded = 1 ORDER BY d.id LIMIT 1",
            (lead_id, channel),
        )
        return (rows[0]["message_id"], rows[0]["alert"]) if rows else None

    def link(self, message_id: int, conversation_id: int) -> None:
        """Remember that a message the bot sent to Telegram (a transcript) is about ``conversation_id``."""
        self.db.write(
            lambda tx: tx.execute(
                "INSERT INTO telegram_links (message_id, conversation_id) VALUES (?, ?) "
                "ON CONFLICT (message_id) DO UPDATE SET conversation_id = excluded.conversation_id",
                (message_id, conversation_id),
            )
        )
