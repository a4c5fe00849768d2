"""The owner's answers mailed to visitors who confirmed their address: offered to the owner first (a
button), then, once tapped, a durable delivery like any other (state, tries, schedule, lease)."""

from __future__ import annotations

from dataclasses import dataclass

from replica.storage.database import Transaction, the_row
from replica.storage.mail_queue import MailQueue
from replica.storage.records import MailStatus
from replica.storage.rows import typed


@dataclass(frozen=True)
class AnswerMail:
    """One answer mail: to whom, what it says, its state and tries."""

    id: int
    email: str
    subject: str
    body: str
    status: MailStatus
    attempts: int
    created_at: float


COLUMNS = "id, email, subject, body, status, attempts, created_at"


class AnswerMails(MailQueue[AnswerMail]):
    """The answer mails, shared by every instance on the database."""

    table, columns, row = "answer_mails", COLUMNS, AnswerMail

    def offer(self, session: str, email: str, subject: str, body: str) -> int:
        """Keep an answer mail to ``email`` (an address ``session`` confirmed) for the owner to send; its id."""
        return self.db.write(
            lambda tx: the_row(
                tx.execute(
                    "INSERT INTO answer_mails (session, email, subject, body, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
                    (session, email, subject, body, self._clock.time()),
                )
            )["id"]
        )

    def send(self, mail_id: int) -> str | None:
        """The owner tapped: queue offered mail ``mail_id``; its address, or ``None`` if it was queued already
        or is unknown."""

        def steps(tx: Transaction) -> str | None:
            now = self._clock.time()
            row = tx.execute(
                "UPDATE answer_mails SET status = ?, due_at = ? WHERE id = ? AND status = ? RETURNING email",
                (MailStatus.PENDING, now, mail_id, MailStatus.OFFERED),
            ).fetchone()
            return row["email"] if row else None

        return self.db.write(steps)

    def get(self, mail_id: int) -> AnswerMail | None:
        rows = self.db.read(f"SELECT {COLUMNS} FROM answer_mails WHERE id = ?", (mail_id,))
        return typed(AnswerMail, rows[0]) if rows else None

    def claim(self, mail_id: int) -> bool:
        """Lease mail ``mail_id`` to this instance; False when another holds it."""
        return bool(self._lease((mail_id,)))
