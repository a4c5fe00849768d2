"""The one durable send queue under everything the app sends on its own time: each alert's delivery to a
channel (:mod:`replica.storage.deliveries`) and each mail to a visitor (:mod:`replica.storage.mail_queue`).

A row is one thing to send, with a state (``pending``, ``sent``, ``failed``), its tries, when it is next
due, the last error, and a lease: the instance that claims a row has it for ``lease_seconds``, then it is
anyone's again (the instance may have died mid-send). So several instances on one database send each
thing once, and a restart loses nothing.
"""

from __future__ import annotations

from typing import Collection

from replica.runtime.clock import REAL_CLOCK, Clock
from replica.storage.database import Database, Transaction

LEASE_SECONDS = 60.0  # a claimed row is this instance's to send; then anyone's again


def marks(ids: Collection[int]) -> str:
    """The placeholders of an ``IN (…)`` over ``ids``."""
    return ",".join("?" * len(ids))


class SendQueue:
    """The rows of ``table`` waiting to be sent. ``failed`` is what a failed try also forgets (a code's
    hash: the code never reached anyone)."""

    table = ""
    failed = ""

    def __init__(self, db: Database, clock: Clock = REAL_CLOCK, lease_seconds: float = LEASE_SECONDS):
        self.db = db
        self._clock = clock
        self.lease_seconds = lease_seconds

    def _lease_in(self, tx: Transaction, ids: Collection[int], changes: str = "", values: tuple = ()) -> set[int]:
        """Inside ``tx``, lease the pending rows of ``ids`` no other instance holds (setting ``changes`` too):
        the ids it got."""
        now = self._clock.time()
        taken = tx.execute(
            f"UPDATE {self.table} SET lease_until = ?{changes} WHERE id IN ({marks(ids)}) AND status = 'pending' "
            "AND (lease_until IS NULL OR lease_until < ?) RETURNING id",
            (now + self.lease_seconds, *values, *ids, now),
        ).fetchall()
        return {row["id"] for row in taken}

    def _lease(self, ids: Collection[int], changes: str = "", values: tuple = ()) -> set[int]:
        """Lease the rows of ``ids`` to this instance, as :meth:`_lease_in` does, in a transaction of its own."""
        return self.db.write(lambda tx: self._lease_in(tx, ids, changes, values))

    def mark_sent(self, ids: Collection[int]) -> None:
        """The service took what ``ids`` carried."""
        self._mark_sent(ids)

    def _mark_sent(self, ids: Collection[int], changes: str = "", values: tuple = ()) -> None:
        self._update(
            ids,
            f"status = 'sent', attempts = attempts + 1, sent_at = ?, last_error = NULL, lease_until = NULL{changes}",
            (self._clock.time(), *values),
        )

    def reschedule(self, ids: Collection[int], due_at: float, error: str) -> None:
        """A failed try of ``ids``: they are tried again at ``due_at`` (epoch seconds)."""
        self._update(
            ids,
            f"attempts = attempts + 1, due_at = ?, last_error = ?, lease_until = NULL{self.failed}",
            (due_at, error),
        )

    def give_up(self, ids: Collection[int], reason: str) -> None:
        """Stop trying ``ids`` (refused for good, or tried too often or too long), with the reason."""
        self._update(
            ids,
            f"status = 'failed', attempts = attempts + 1, last_error = ?, lease_until = NULL{self.failed}",
            (reason,),
        )

    def _update(self, ids: Collection[int], changes: str, values: tuple) -> None:
        self.db.write(
            lambda tx: tx.execute(f"UPDATE {self.table} SET {changes} WHERE id IN ({marks(ids)})", (*values, *ids))
        )
