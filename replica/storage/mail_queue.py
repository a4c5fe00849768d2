"""What every table of mails to visitors shares (the codes, the owner's answers): each row is its own
delivery on the one send queue (:mod:`replica.storage.send_queue`: a state, tries, when it is due and a
lease, so several instances send each mail once), read as the row its table keeps."""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

from replica.storage.rows import typed
from replica.storage.send_queue import SendQueue

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

MailRow = TypeVar("MailRow", bound="DataclassInstance")


class MailQueue(SendQueue, Generic[MailRow]):
    """The mails of ``table``, read as ``row`` from ``columns``."""

    columns = ""
    row: type[MailRow]

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
