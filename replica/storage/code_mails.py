"""Verified contacts: the codes mailed to visitors, each row also its mail's delivery, and when a lead's
address was confirmed.

A code is asked for by a conversation (its session) for one address; the mail is a row here, in the
transaction that asks, so it survives any restart. The code itself is never stored: the sender makes it
when it sends the mail and keeps only its keyed hash (``digest``, :mod:`replica.contacts.codes`). The
caps on code mails (per address, per client address, per hour) are counted here, across every session
and every instance on the database.
"""

from __future__ import annotations

from dataclasses import dataclass

from replica.storage.database import Transaction
from replica.storage.mail_queue import MailQueue
from replica.storage.records import CodeRequest, CodeStatus
from replica.storage.rows import typed

HOUR = 3600.0


@dataclass(frozen=True)
class Code:
    """One code asked for: the conversation, the address, its mail's state and tries, the keyed hash of
    the code once mailed (``None`` before), when it was mailed, how often it was tried, when confirmed."""

    id: int
    session: str
    email: str
    status: str
    attempts: int
    created_at: float
    digest: str | None
    issued_at: float | None
    tries: int
    confirmed_at: float | None


COLUMNS = "id, session, email, status, attempts, created_at, digest, issued_at, tries, confirmed_at"


class Codes(MailQueue[Code]):
    """The codes mailed to visitors and their mails, shared by every instance on the database."""

    table, columns, row = "codes", COLUMNS, Code
    failed = ", digest = NULL"  # a try that failed carried a code nobody got

    def request(self, session: str, email: str, address: str, per_hour: int) -> tuple[CodeRequest, int | None]:
        """Queue a code mail to ``email`` for ``session`` (from the client ``address``, a salted hash), unless
        the address or the client had ``per_hour`` code mails in the last hour, whatever the sessions, or
        this conversation confirmed the address already. A code this conversation was waiting for is
        replaced: only the newest one is read (:meth:`current`). What happened, and the new code's id."""
        email = email.strip().lower()

        def steps(tx: Transaction) -> tuple[CodeRequest, int | None]:
            now = self._clock()
            confirmed = tx.execute(
                "SELECT 1 AS found FROM codes WHERE session = ? AND email = ? AND confirmed_at IS NOT NULL LIMIT 1",
                (session, email),
            ).fetchone()
            if confirmed:
                return CodeRequest.CONFIRMED, None
            if self._count(tx, "email", email, now) >= per_hour:
                return CodeRequest.ADDRESS_CAPPED, None
            if address and self._count(tx, "address", address, now) >= per_hour:
                return CodeRequest.CLIENT_CAPPED, None
            tx.execute(
                "UPDATE codes SET status = ? WHERE session = ? AND confirmed_at IS NULL AND status = ?",
                (CodeStatus.REPLACED, session, CodeStatus.PENDING),
            )
            row = tx.execute(
                "INSERT INTO codes (session, email, address, created_at, due_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
                (session, email, address, now, now),
            ).fetchone()
            return CodeRequest.QUEUED, row["id"]

        return self.db.write(steps)

    @staticmethod
    def _count(tx: Transaction, column: str, value: str, now: float) -> int:
        """Code mails asked for ``value`` of ``column`` in the hour before ``now`` (a cap refuses before the
        row, so refused requests are not counted)."""
        row = tx.execute(
            f"SELECT COUNT(*) AS n FROM codes WHERE {column} = ? AND created_at > ?", (value, now - HOUR)
        ).fetchone()
        return row["n"]

    def current(self, session: str) -> Code | None:
        """The newest code ``session`` asked for, while its address is not yet confirmed; else ``None``."""
        rows = self.db.read(
            f"SELECT {COLUMNS} FROM codes WHERE session = ? AND status != ? ORDER BY id DESC LIMIT 1",
            (session, CodeStatus.REPLACED),
        )
        if not rows or rows[0]["confirmed_at"] is not None:
            return None
        return typed(Code, rows[0])

    def tried(self, code_id: int, matched: bool) -> int:
        """Count one try of code ``code_id``; a match confirms its address for its conversation (the code,
        and the conversation's leads with that address). The tries made so far."""

        def steps(tx: Transaction) -> int:
            now = self._clock()
            row = tx.execute(
                "UPDATE codes SET tries = tries + 1, confirmed_at = ? WHERE id = ? RETURNING tries, session, email",
                (now if matched else None, code_id),
            ).fetchone()
            if matched:
                tx.execute(
                    "UPDATE leads SET confirmed_at = ? WHERE session = ? AND LOWER(email) = ? AND confirmed_at IS NULL",
                    (now, row["session"], row["email"]),
                )
            return row["tries"]

        return self.db.write(steps)

    def confirmed_in(self, session: str) -> str | None:
        """The address ``session`` confirmed last, or ``None``."""
        rows = self.db.read(
            "SELECT email FROM codes WHERE session = ? AND confirmed_at IS NOT NULL ORDER BY id DESC LIMIT 1",
            (session,),
        )
        return rows[0]["email"] if rows else None

    # The mails, as the sender sees them (the rest is MailQueue's).

    def claim(self, code_id: int, digest: str) -> bool:
        """Lease code ``code_id``'s mail to this instance, recording the keyed hash of the code it is about
        to carry (a code from an earlier, failed try is then forgotten); False when another holds it."""
        return self._lease(code_id, ", digest = ?, issued_at = ?, tries = 0", (digest, self._clock()))
