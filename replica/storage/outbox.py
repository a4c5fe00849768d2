"""The outbox: alerts queued with the record they are about, each with a delivery per channel."""

from __future__ import annotations

import time
from typing import Callable

from replica.storage.database import Database, Transaction
from replica.storage.deliveries import Deliveries
from replica.storage.records import OutboxEntry, Recorded
from replica.storage.state import set_in

ADDRESS_WINDOW_SECONDS = 3600.0  # the caps also hold per client address over this window: fresh sessions skip none


class Outbox:
    """The alerts raised, shared by every instance on the database.

    ``alert_caps`` maps an alert kind ("lead", "question") to how many alerts one visitor session may
    raise, and one client address (its salted hash) within an hour, however many sessions it opens;
    records beyond the cap are stored but not alerted. An outbox row is the alert and what it is about;
    how it travels to each channel is its deliveries' (:mod:`replica.storage.deliveries`), queued with it.
    """

    def __init__(
        self,
        db: Database,
        deliveries: Deliveries,
        alert_caps: dict[str, int] | None = None,
        clock: Callable[[], float] = time.time,  # stamps when alerts are raised
    ):
        self.db = db
        self._deliveries = deliveries
        self._clock = clock
        self.alert_caps = alert_caps or {}

    def queue_in(
        self, tx: Transaction, entry: OutboxEntry, lead_id: int | None = None, question_id: int | None = None
    ) -> Recorded:
        """Queue ``entry`` inside ``tx`` (the transaction that stores its record), unless the visitor has
        reached the cap for its kind, in this session or from this address within the hour."""
        if self._capped(tx, entry):
            return Recorded.CAPPED
        row = tx.execute(
            "INSERT INTO outbox (kind, session, address, alert, lead_id, question_id, conversation_id, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                entry.kind,
                entry.session,
                entry.address,
                entry.payload,
                lead_id,
                question_id,
                entry.conversation,
                self._clock(),
            ),
        ).fetchone()
        self._deliveries.queue_in(tx, row["id"])
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
