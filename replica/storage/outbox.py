"""The outbox: alerts queued with the record they are about, claimed with a lease, marked as they go."""

from __future__ import annotations

import time
from typing import Callable, Collection

from replica.storage.database import Database, Transaction
from replica.storage.deliveries import Deliveries
from replica.storage.records import OutboxEntry, OutboxSummary, PendingAlert, Recorded, iso
from replica.storage.state import set_in

LEASE_SECONDS = 60.0  # how long a claimed alert is this instance's to send; then anyone's again
ADDRESS_WINDOW_SECONDS = 3600.0  # the caps also hold per client address over this window: fresh sessions skip none
LAST_SEND_KEY = "telegram_last_send"


class Outbox:
    """Alerts waiting for delivery, shared by every instance on the database.

    ``alert_caps`` maps an alert kind ("lead", "question") to how many alerts one visitor session may
    raise, and one client address (its salted hash) within an hour, however many sessions it opens;
    records beyond the cap are stored but not alerted. An outbox row is the alert and its delivery
    to Telegram; ``channels`` (keys of the channels beside Telegram) each get a delivery of their own
    (:mod:`replica.storage.deliveries`), queued with it.
    """

    def __init__(
        self,
        db: Database,
        alert_caps: dict[str, int] | None = None,
        lease_seconds: float = LEASE_SECONDS,
        clock: Callable[[], float] = time.time,  # stamps when alerts are raised and sent; leases use real time
        channels: Collection[str] = (),
    ):
        self.db = db
        self._clock = clock
        self.alert_caps = alert_caps or {}
        self.lease_seconds = lease_seconds
        self.channels = tuple(channels)
        self.deliveries = Deliveries(db, lease_seconds, clock)

    def queue_in(
        self, tx: Transaction, entry: OutboxEntry, lead_id: int | None = None, question_id: int | None = None
    ) -> Recorded:
        """Queue ``entry`` inside ``tx`` (the transaction that stores its record), unless the visitor has
        reached the cap for its kind, in this session or from this address within the hour."""
        if self._capped(tx, entry):
            return Recorded.CAPPED
        row = tx.execute(
            "INSERT INTO outbox (kind, session, address, alert, lead_id, question_id, conversation_id, due_at,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                entry.kind,
                entry.session,
                entry.address,
                entry.payload,
                lead_id,
                question_id,
                entry.conversation,
                time.time(),
                self._clock(),
            ),
        ).fetchone()
        self.deliveries.queue_in(tx, row["id"], self.channels)
        return Recorded.ALERTED

    def _capped(self, tx: Transaction, entry: OutboxEntry) -> bool:
        cap = self.alert_caps.get(entry.kind)
        if cap is None:
            return False
        in_session = tx.execute(
            "SELECT COUNT(*) AS n FROM outbox WHERE session = ? AND kind = ?", (entry.session, entry.kind)
        ).fetchone()["n"]
        if in_session >= cap or not entry.address:
            return in_session >= cap
        from_address = tx.execute(
            "SELECT COUNT(*) AS n FROM outbox WHERE address = ? AND kind = ? AND created_at > ?",
            (entry.address, entry.kind, self._clock() - ADDRESS_WINDOW_SECONDS),
        ).fetchone()["n"]
        return from_address >= cap

    def queue(self, entry: OutboxEntry, once: tuple[str, str] | None = None) -> Recorded | None:
        """Queue an alert that is about no lead or question (a forwarded message, the digest).

        With ``once=(key, value)``, only if the state ``key`` does not hold ``value`` yet; it is set in the
        same transaction, so the alert is queued once even across restarts. Returns ``None`` if it was.
        """

        def steps(tx: Transaction) -> Recorded | None:
            if once:
                row = tx.execute_locked("SELECT value FROM state WHERE key = ?", (once[0],)).fetchone()
                if row and row["value"] == once[1]:
                    return None
                set_in(tx, *once)
            return self.queue_in(tx, entry)

        return self.db.write(steps)

    def next(self, skip: Collection[int] = ()) -> PendingAlert | None:
        """The oldest alert not yet delivered and not leased to another instance (alerts go out in order),
        leaving out the ids in ``skip`` (alerts the caller knows were delivered, though not yet recorded)."""
        waiting = self.waiting(1, skip)
        return waiting[0] if waiting else None

    def waiting(self, limit: int, skip: Collection[int] = ()) -> list[PendingAlert]:
        """The ``limit`` oldest alerts not yet delivered and not leased to another instance, but ``skip``."""
        skipped = f"AND id NOT IN ({','.join('?' * len(skip))}) " if skip else ""
        rows = self.db.read(
            "SELECT id, kind, alert, attempts, due_at, COALESCE(lead_id, question_id) AS ref FROM outbox "
            f"WHERE status = 'pending' AND (lease_until IS NULL OR lease_until < ?) {skipped}ORDER BY id LIMIT ?",
            (time.time(), *skip, limit),
        )
        return [PendingAlert(r["id"], r["alert"], r["attempts"], r["due_at"], r["ref"], r["kind"]) for r in rows]

    def claim(self, alert_id: int, min_interval: float) -> float:
        """Take alert ``alert_id`` for sending: 0.0 when it is this instance's for the lease, else the
        seconds to wait (another instance has it, or the chat's pace of one message per ``min_interval``
        seconds, shared by every instance, is not yet due)."""
        return self.claim_all([alert_id], min_interval)[0]

    def claim_all(self, alert_ids: Collection[int], min_interval: float) -> tuple[float, set[int]]:
        """Take several alerts for one message (a fold): as :meth:`claim`, with the ids this instance got."""
        marks = ",".join("?" * len(alert_ids))

        def steps(tx: Transaction) -> tuple[float, set[int]]:
            now = time.time()
            last = tx.execute_locked("SELECT value FROM state WHERE key = ?", (LAST_SEND_KEY,)).fetchone()
            wait = float(last["value"]) + min_interval - now if last else 0.0
            if wait > 0:
                return wait, set()
            taken = tx.execute(
                f"UPDATE outbox SET lease_until = ? WHERE id IN ({marks}) AND status = 'pending' "
                "AND (lease_until IS NULL OR lease_until < ?) RETURNING id",
                (now + self.lease_seconds, *alert_ids, now),
            ).fetchall()
            if not taken:
                return max(min_interval, 0.1), set()
            set_in(tx, LAST_SEND_KEY, repr(now))
            return 0.0, {row["id"] for row in taken}

        return self.db.write(steps)

    def mark_sent(self, alert_id: int, telegram_message_id: int | None = None) -> None:
        """Record that Telegram accepted the alert (and the message id, so owner replies can be matched)."""
        self.db.write(
            lambda tx: tx.execute(
                "UPDATE outbox SET status = 'sent', attempts = attempts + 1, sent_at = ?, last_error = NULL, "
                "telegram_message_id = ?, lease_until = NULL WHERE id = ?",
                (self._clock(), telegram_message_id, alert_id),
            )
        )

    def reschedule(self, alert_id: int, due_at: float, error: str) -> None:
        """Record a failed try; the alert is tried again at ``due_at`` (epoch seconds)."""
        self.db.write(
            lambda tx: tx.execute(
                "UPDATE outbox SET attempts = attempts + 1, due_at = ?, last_error = ?, lease_until = NULL WHERE id = ?",
                (due_at, error, alert_id),
            )
        )

    def mark_failed(self, alert_id: int, error: str) -> None:
        """Give up on an alert that can never be delivered as things stand (bad token, unknown chat)."""
        self.db.write(
            lambda tx: tx.execute(
                "UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ?, lease_until = NULL "
                "WHERE id = ?",
                (error, alert_id),
            )
        )

    def summary(self) -> OutboxSummary:
        """How many alerts are pending and failed, and the creation time of the oldest pending one."""
        row = self.db.read(
            "SELECT SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END) AS pending, "
            "SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed, "
            "MIN(CASE WHEN status = 'pending' THEN created_at END) AS oldest FROM outbox"
        )[0]
        return OutboxSummary(row["pending"] or 0, row["failed"] or 0, iso(row["oldest"]))

    def rows(self) -> list[dict]:
        """Every alert with its kind, state and tries, oldest first (for ``export alerts``)."""
        rows = self.db.read("SELECT kind, created_at, status, attempts, last_error, sent_at FROM outbox ORDER BY id")
        return [{**row, "created_at": iso(row["created_at"]), "sent_at": iso(row["sent_at"])} for row in rows]

    def kinds(self) -> list[str]:
        """The kind of every alert in the outbox, oldest first."""
        return [row["kind"] for row in self.db.read("SELECT kind FROM outbox ORDER BY id")]

    def payloads(self, kind: str) -> list[str]:
        """The alerts of ``kind`` as queued, oldest first."""
        return [row["alert"] for row in self.db.read("SELECT alert FROM outbox WHERE kind = ? ORDER BY id", (kind,))]

    def conversation_of(self, telegram_message_id: int) -> int | None:
        """The conversation an alert, transcript or forwarded message delivered as ``telegram_message_id``
        is about."""
        rows = self.db.read(
            "SELECT conversation_id FROM outbox WHERE telegram_message_id = ? AND conversation_id IS NOT NULL "
            "UNION ALL SELECT conversation_id FROM telegram_links WHERE message_id = ? LIMIT 1",
            (telegram_message_id, telegram_message_id),
        )
        return rows[0]["conversation_id"] if rows else None

    def link(self, telegram_message_id: int, conversation_id: int) -> None:
        """Remember that a message the bot sent (a transcript) is about ``conversation_id``."""
        self.db.write(
            lambda tx: tx.execute(
                "INSERT INTO telegram_links (message_id, conversation_id) VALUES (?, ?) "
                "ON CONFLICT (message_id) DO UPDATE SET conversation_id = excluded.conversation_id",
                (telegram_message_id, conversation_id),
            )
        )
