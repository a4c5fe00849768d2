"""What every table of mails to visitors shares (the codes, the owner's answers): each row is its own
delivery, with a state, tries, when it is due and a lease, so several instances send each mail once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

from replica.runtime.clock import REAL_CLOCK, Clock
from replica.storage.database import Database
from replica.storage.rows import typed

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

LEASE_SECONDS = 60.0  # a claimed mail is this instance's to send; then anyone's again
MailRow = TypeVar("MailRow", bound="DataclassInstance")


class MailQueue(Generic[MailRow]):
    """The mails of ``table`` (read as ``row`` from ``columns``); ``failed`` is what a failed try also
    forgets (a code's hash: the code never reached anyone)."""

    table = ""
    columns = ""
    row: type[MailRow]
    failed = ""

    def __init__(self, db: Database, clock: Clock = REAL_CLOCK, lease_seconds: float = LEASE_SECONDS):
        self.db = db
        self._clock = clock
        self.lease_seconds = lease_seconds

    def due(self, limit: int = 10) -> list[MailRow]:
        """Mails waiting to go and due, oldest first, not leased to another instance."""
        now = self._clock.time()
        rows = self.db.read(
            f"SELECT {self.columns} FROM {self.table} WHERE status = 'pending' AND due_at <= ? "
            "AND (lease_until IS NULL OR lease_until < ?) ORDER BY id LIMIT ?",
            (now, now, limit),
        )
        return [typed(self.row, row) for row in rows]

    def next_due(self) -> float | None:
        """When the next waiting mail is due (epoch seconds), or ``None`` when none waits."""
        return self.db.read(f"SELECT MIN(due_at) AS due FROM {self.table} WHERE status = 'pending'")[0]["due"]

    def waiting(self) -> int:
        """How many mails wait to go (for ``/status`` and ``doctor``)."""
        return self.db.read(f"SELECT COUNT(*) AS n FROM {self.table} WHERE status = 'pending'")[0]["n"]

    def _lease(self, mail_id: int, changes: str = "", values: tuple = ()) -> bool:
        """Lease mail ``mail_id`` to this instance (setting ``changes`` too); False when another holds it."""
        now = self._clock.time()
        return self.db.write(
            lambda tx: (
                tx.execute(
                    f"UPDATE {self.table} SET lease_until = ?{changes} WHERE id = ? AND status = 'pending' "
                    "AND (lease_until IS NULL OR lease_until < ?)",
                    (now + self.lease_seconds, *values, mail_id, now),
                ).rowcount
                > 0
            )
        )

    def mark_sent(self, mail_id: int) -> None:
        """The service took the mail."""
        self._update(
            mail_id,
            "status = 'sent', attempts = attempts + 1, sent_at = ?, last_error = NULL, lease_until = NULL",
            (self._clock.time(),),
        )

    def reschedule(self, mail_id: int, due_at: float, error: str) -> None:
        """A failed try: the mail is tried again at ``due_at``."""
        self._update(
            mail_id,
            f"attempts = attempts + 1, due_at = ?, last_error = ?, lease_until = NULL{self.failed}",
            (due_at, error),
        )

    def give_up(self, mail_id: int, reason: str) -> None:
        """Stop trying the mail, with the reason."""
        self._update(
            mail_id,
            f"status = 'failed', attempts = attempts + 1, last_error = ?, lease_until = NULL{self.failed}",
            (reason,),
        )

    def _update(self, mail_id: int, changes: str, values: tuple) -> None:
        self.db.write(lambda tx: tx.execute(f"UPDATE {self.table} SET {changes} WHERE id = ?", (*values, mail_id)))
