"""Leads: a visitor's email, name and note, stored once per visitor and email, with their alert."""

from __future__ import annotations

from replica.runtime.clock import REAL_CLOCK, Clock
from replica.storage.database import Database, Transaction
from replica.storage.deliveries import ALERT_STATUS
from replica.storage.outbox import Outbox
from replica.storage.records import LeadStatus, OutboxEntry, Recorded, iso
from replica.storage.rows import LeadListing, LeadRecord, typed


class Leads:
    """The leads visitors left, and their triage state."""

    def __init__(self, db: Database, outbox: Outbox, clock: Clock = REAL_CLOCK):
        self.db = db
        self._clock = clock
        self._outbox = outbox

    def record(self, email: str, name: str, notes: str, alert: OutboxEntry, held: bool = False) -> Recorded:
        """Store a lead (once per visitor session and email) and queue its alert, in one transaction; with
        ``held`` (``LEAD_VERIFICATION=required``), the alert waits until the address is confirmed."""

        def steps(tx: Transaction) -> Recorded:
            row = tx.execute(
                "INSERT INTO leads (email, name, notes, session, created_at, alert_held) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING RETURNING id",
                (email, name, notes, alert.session, self._clock.time(), int(held)),
            ).fetchone()
            if row is None:
                return Recorded.DUPLICATE
            return Recorded.HELD if held else self._outbox.queue_in(tx, alert, lead_id=row["id"])

        return self._outbox.stored(alert.kind, self.db.write(steps))

    def held(self, lead_id: int) -> tuple[str, str, str] | None:
        """A lead whose alert waits for its address to be confirmed: its (email, name, notes); else ``None``."""
        rows = self.db.read("SELECT email, name, notes FROM leads WHERE id = ? AND alert_held = 1", (lead_id,))
        return (rows[0]["email"], rows[0]["name"], rows[0]["notes"]) if rows else None

    def release(self, lead_id: int, alert: OutboxEntry) -> Recorded:
        """Queue the held alert of lead ``lead_id`` (its address is confirmed), under the caps as ever."""

        def steps(tx: Transaction) -> Recorded:
            tx.execute("UPDATE leads SET alert_held = 0 WHERE id = ?", (lead_id,))
            return self._outbox.queue_in(tx, alert, lead_id=lead_id)

        return self._outbox.stored(alert.kind, self.db.write(steps))

    def set_status(self, lead_id: int, status: LeadStatus) -> bool:
        """Set a lead's triage state (``new``, ``handled``); False when it already had it, or there is no such lead."""
        return self.db.write(
            lambda tx: (
                tx.execute(
                    "UPDATE leads SET status = ? WHERE id = ? AND status != ?", (status, lead_id, status)
                ).rowcount
                > 0
            )
        )

    def all(self) -> list[LeadRecord]:
        """Every lead, oldest first, with the state of its alert (``capped`` when none was raised)."""
        rows = self.db.read(
            "SELECT l.email, l.name, l.notes, l.created_at, l.session, l.status, l.confirmed_at, "
            f"CASE WHEN l.alert_held = 1 THEN 'held' ELSE {ALERT_STATUS} END AS alert_status "
            "FROM leads l LEFT JOIN outbox o ON o.lead_id = l.id ORDER BY l.id"
        )
        return [
            typed(LeadRecord, row, created_at=iso(row["created_at"]), confirmed_at=iso(row["confirmed_at"]))
            for row in rows
        ]

    def recent(self, limit: int) -> list[LeadListing]:
        """The ``limit`` most recent leads, newest first, each with its conversation's number (or ``None``)."""
        rows = self.db.read(
            "SELECT l.id, l.email, l.name, l.notes, l.created_at, l.status, l.confirmed_at, c.id AS conversation"
            " FROM leads l LEFT JOIN conversations c ON c.session = l.session ORDER BY l.id DESC LIMIT ?",
            (limit,),
        )
        return [
            typed(LeadListing, row, created_at=iso(row["created_at"]), confirmed_at=iso(row["confirmed_at"]))
            for row in rows
        ]

    def count_between(self, start: float, end: float) -> int:
        """How many leads were stored from ``start`` to before ``end`` (epoch seconds)."""
        query = "SELECT COUNT(*) AS n FROM leads WHERE created_at >= ? AND created_at < ?"
        return self.db.read(query, (start, end))[0]["n"]

    def confirmed_between(self, start: float, end: float) -> int:
        """How many of the leads stored from ``start`` to before ``end`` have a confirmed address."""
        query = "SELECT COUNT(*) AS n FROM leads WHERE created_at >= ? AND created_at < ? AND confirmed_at IS NOT NULL"
        return self.db.read(query, (start, end))[0]["n"]

    def id_of(self, session: str, email: str) -> int | None:
        """The number of the lead ``session`` left with ``email`` (case aside), or ``None``."""
        rows = self.db.read(
            "SELECT id FROM leads WHERE session = ? AND LOWER(email) = ? ORDER BY id DESC LIMIT 1",
            (session, email.strip().lower()),
        )
        return rows[0]["id"] if rows else None

    def latest_email(self, session: str) -> str | None:
        """The email address the visitor session left last; ``None`` when it left none."""
        rows = self.db.read("SELECT email FROM leads WHERE session = ? ORDER BY id DESC LIMIT 1", (session,))
        return rows[0]["email"] if rows else None

    def for_session(self, session: str) -> bool:
        """True when the visitor session left a lead."""
        return bool(self.db.read("SELECT 1 AS found FROM leads WHERE session = ? LIMIT 1", (session,)))
