"""The owner's answers mailed to visitors who confirmed their address: offered to the owner first (a
button), then, once tapped, a durable delivery like any other (state, tries, schedule, lease)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from replica.storage.database import Database, Transaction
from replica.storage.records import MailStatus
from replica.storage.rows import typed

LEASE_SECONDS = 60.0


@dataclass(frozen=True)
class AnswerMail:
    """One answer mail: to whom, what it says, its state and tries."""

    id: int
    email: str
    subject: str
    body: str
    status: str
    attempts: int
    created_at: float


COLUMNS = "id, email, subject, body, status, attempts, created_at"


class AnswerMails:
    """The answer mails, shared by every instance on the database."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time, lease_seconds: float = LEASE_SECONDS):
        self.db = db
        self._clock = clock
        self.lease_seconds = lease_seconds

    def offer(self, session: str, email: str, subject: str, body: str) -> int:
        """Keep an answer mail to ``email`` (an address ``session`` confirmed) for the owner to send; its id."""
        return self.db.write(
            lambda tx: tx.execute(
                "INSERT INTO answer_mails (session, email, subject, body, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
                (session, email, subject, body, self._clock()),
            ).fetchone()["id"]
        )

    def send(self, mail_id: int) -> str | None:
        """The owner tapped: queue offered mail ``mail_id``; its address, or ``None`` if it was queued already
        or is unknown."""

        def steps(tx: Transaction) -> str | None:
            now = self._clock()
            row = tx.execute(
                "UPDATE answer_mails SET status = ?, due_at = ? WHERE id = ? AND status = ? RETURNING email",
                (MailStatus.PENDING, now, mail_id, MailStatus.OFFERED),
            ).fetchone()
            return row["email"] if row else None

        return self.db.write(steps)

    def get(self, mail_id: int) -> AnswerMail | None:
        rows = self.db.read(f"SELECT {COLUMNS} FROM answer_mails WHERE id = ?", (mail_id,))
        return typed(AnswerMail, rows[0]) if rows else None

    def due(self, limit: int = 10) -> list[AnswerMail]:
        """Answer mails waiting to go and due, oldest first, not leased to another instance."""
        now = self._clock()
        rows = self.db.read(
            f"SELECT {COLUMNS} FROM answer_mails WHERE status = ? AND due_at <= ? "
            "AND (lease_until IS NULL OR lease_until < ?) ORDER BY id LIMIT ?",
            (MailStatus.PENDING, now, now, limit),
        )
        return [typed(AnswerMail, row) for row in rows]

    def next_due(self) -> float | None:
        rows = self.db.read("SELECT MIN(due_at) AS due FROM answer_mails WHERE status = ?", (MailStatus.PENDING,))
        return rows[0]["due"]

    def claim(self, mail_id: int) -> bool:
        """Lease mail ``mail_id`` to this instance; False when another holds it."""
        now = self._clock()
        return self.db.write(
            lambda tx: (
                tx.execute(
                    "UPDATE answer_mails SET lease_until = ? WHERE id = ? AND status = ? "
                    "AND (lease_until IS NULL OR lease_until < ?)",
                    (now + self.lease_seconds, mail_id, MailStatus.PENDING, now),
                ).rowcount
                > 0
            )
        )

    def mark_sent(self, mail_id: int) -> None:
        self._update(
            mail_id,
            "status = ?, attempts = attempts + 1, sent_at = ?, lease_until = NULL, last_error = NULL",
            (MailStatus.SENT, self._clock()),
        )

    def reschedule(self, mail_id: int, due_at: float, error: str) -> None:
        self._update(
            mail_id, "attempts = attempts + 1, due_at = ?, last_error = ?, lease_until = NULL", (due_at, error)
        )

    def give_up(self, mail_id: int, reason: str) -> None:
        self._update(
            mail_id,
            "status = ?, attempts = attempts + 1, last_error = ?, lease_until = NULL",
            (MailStatus.FAILED, reason),
        )

    def _update(self, mail_id: int, changes: str, values: tuple) -> None:
        self.db.write(lambda tx: tx.execute(f"UPDATE answer_mails SET {changes} WHERE id = ?", (*values, mail_id)))

    def waiting(self) -> int:
        """How many answer mails wait to go."""
        return self.db.read("SELECT COUNT(*) AS n FROM answer_mails WHERE status = ?", (MailStatus.PENDING,))[0]["n"]
