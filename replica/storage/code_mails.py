"""Verified contacts: the codes mailed to visitors, each row also its mail's delivery, and when a lead's
address was confirmed.

A code is asked for by a conversation (its session) for one address; the mail is a row here, in the
transaction that asks, so it survives any restart. The code itself is never stored: the sender makes it
when it sends the mail and keeps only its keyed hash (``digest``, :mod:`replica.contacts.codes`). The
caps (:class:`CodeCaps`: code mails per mailbox, per client address and for the whole app; tries per
code, per mailbox and per client address) are counted here, across every session and every instance on
the database. A mailbox is the address as the caps count it (``mailbox``: ``Ada+1@Gmail.com`` and
``a.da@gmail.com`` are one), worked out by :mod:`replica.contacts.mailboxes`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

from replica.runtime.clock import REAL_CLOCK, Clock
from replica.settings import default
from replica.storage.database import Database, Transaction, the_row
from replica.storage.mail_queue import MailQueue
from replica.storage.records import CodeRequest, CodeStatus
from replica.storage.rows import typed
from replica.storage.send_queue import LEASE_SECONDS

HOUR = 3600.0
DAY = 24 * HOUR
Bound = Literal["code", "mailbox", "client"]  # the cap that leaves a message the fewest tries


@dataclass(frozen=True)
class CodeCaps:
    """How many code mails and code tries are allowed (docs/security.md says why these numbers): mails per
    mailbox and per client address in an hour and in a day, and for the whole app in a day
    (``CODE_MAILS_PER_DAY``); tries per code, and per mailbox and per client address in a day."""

    # A visitor needs one mail, two when the first is slow or lost: three an hour and five a day leave a
    # mailbox room for that and none to be flooded; a client address (one household, one office) asks
    # for a few visitors' codes.
    mails_per_hour: int = 3  # per mailbox, and per client address
    mailbox_mails_per_day: int = 5
    client_mails_per_day: int = 10
    mails_per_day: int = default("code_mails_per_day")  # the whole app's: CODE_MAILS_PER_DAY
    # A visitor types a code right in one or two tries; ten a day is two codes' worth for one who fumbles
    # the first and asks another, and leaves a guesser 1 in 100,000 a day against one mailbox.
    tries_per_code: int = 5
    mailbox_tries_per_day: int = 10
    client_tries_per_day: int = 20


@dataclass(frozen=True)
class Tried:
    """What a message's codes did: how many were checked (each a try), whether one matched, how many tries
    are left, and which cap leaves the fewest (``code``, ``mailbox`` or ``client``)."""

    checked: int
    matched: bool
    left: int
    bound: Bound


@dataclass(frozen=True)
class Code:
    """One code asked for: the conversation, the address, its mail's state and tries, the keyed hash of
    the code once mailed (``None`` before), when it was mailed, how often it was tried, when confirmed."""

    id: int
    session: str
    email: str
    status: CodeStatus
    attempts: int
    created_at: float
    digest: str | None
    issued_at: float | None
    tries: int
    confirmed_at: float | None


COLUMNS = "id, session, email, status, attempts, created_at, digest, issued_at, tries, confirmed_at"


class Codes(MailQueue[Code]):
    """The codes mailed to visitors and their mails, shared by every instance on the database, within ``caps``."""

    table, columns, row = "codes", COLUMNS, Code
    failed = ", digest = NULL"  # a try that failed carried a code nobody got

    def __init__(
        self,
        db: Database,
        clock: Clock = REAL_CLOCK,
        lease_seconds: float = LEASE_SECONDS,
        caps: CodeCaps = CodeCaps(),
    ):
        super().__init__(db, clock, lease_seconds)
        self.caps = caps

    def request(
        self, session: str, email: str, address: str, mailbox: str | None = None
    ) -> tuple[CodeRequest, int | None]:
        """Queue a code mail to ``email`` for ``session`` (from the client ``address``, a salted hash; the caps
        count ``mailbox``, the address itself when not given), unless a cap of :attr:`caps` refuses it,
        whatever the sessions, or this conversation confirmed the address already. A code this conversation
        was waiting for is replaced: only the newest one is read (:meth:`current`). What happened, and the
        new code's id."""
        email = email.strip().lower()
        mailbox = mailbox or email

        def steps(tx: Transaction) -> tuple[CodeRequest, int | None]:
            now = self._clock.time()
            confirmed = tx.execute(
                "SELECT 1 AS found FROM codes WHERE session = ? AND email = ? AND confirmed_at IS NOT NULL LIMIT 1",
                (session, email),
            ).fetchone()
            if confirmed:
                return CodeRequest.CONFIRMED, None
            refused = self._refused(tx, mailbox, address, now)
            if refused is not None:
                return refused, None
            tx.execute(
                "UPDATE codes SET status = ? WHERE session = ? AND confirmed_at IS NULL AND status = ?",
                (CodeStatus.REPLACED, session, CodeStatus.PENDING),
            )
            row = the_row(
                tx.execute(
                    "INSERT INTO codes (session, email, mailbox, address, created_at, due_at) VALUES (?, ?, ?, ?, ?, ?) "
                    "RETURNING id",
                    (session, email, mailbox, address, now, now),
                )
            )
            return CodeRequest.QUEUED, row["id"]

        return self.db.write(steps)

    def _refused(self, tx: Transaction, mailbox: str, address: str, now: float) -> CodeRequest | None:
        """The cap a new code mail to ``mailbox`` from ``address`` would pass, or ``None``. A cap refuses
        before the row is written, so refused requests are not counted."""
        caps = self.caps
        for column, value, window, cap, outcome in (
            ("mailbox", mailbox, HOUR, caps.mails_per_hour, CodeRequest.ADDRESS_CAPPED),
            ("mailbox", mailbox, DAY, caps.mailbox_mails_per_day, CodeRequest.ADDRESS_CAPPED_TODAY),
            ("address", address, HOUR, caps.mails_per_hour, CodeRequest.CLIENT_CAPPED),
            ("address", address, DAY, caps.client_mails_per_day, CodeRequest.CLIENT_CAPPED_TODAY),
        ):
            if value and self._count(tx, column, value, now - window) >= cap:
                return outcome
        if self._mailed_since(tx, now - DAY) >= caps.mails_per_day:
            return CodeRequest.ALL_CAPPED_TODAY
        return None

    @staticmethod
    def _count(tx: Transaction, column: str, value: str, since: float) -> int:
        """Code mails asked for ``value`` of ``column`` since ``since``."""
        row = the_row(
            tx.execute(f"SELECT COUNT(*) AS n FROM codes WHERE {column} = ? AND created_at > ?", (value, since))
        )
        return row["n"]

    @staticmethod
    def _mailed_since(tx: Transaction, since: float) -> int:
        """Code mails the whole app queued since ``since`` (a code replaced before its mail went is none)."""
        row = the_row(
            tx.execute(
                "SELECT COUNT(*) AS n FROM codes WHERE created_at > ? AND status != ?", (since, CodeStatus.REPLACED)
            )
        )
        return row["n"]

    def day_total(self) -> tuple[int, float | None]:
        """The code mails of the last 24 hours, and, when they reached ``CODE_MAILS_PER_DAY``, when the
        next may go (epoch seconds: the day of the one that frees a place is over); else ``None``."""
        since = self._clock.time() - DAY
        count = self.db.read(
            "SELECT COUNT(*) AS n FROM codes WHERE created_at > ? AND status != ?", (since, CodeStatus.REPLACED)
        )[0]["n"]
        if count < self.caps.mails_per_day:
            return count, None
        rows = self.db.read(
            "SELECT created_at FROM codes WHERE created_at > ? AND status != ? ORDER BY created_at LIMIT 1 OFFSET ?",
            (since, CodeStatus.REPLACED, count - self.caps.mails_per_day),
        )
        return count, rows[0]["created_at"] + DAY if rows else None

    def current(self, session: str) -> Code | None:
        """The newest code ``session`` asked for, while its address is not yet confirmed; else ``None``."""
        rows = self.db.read(
            f"SELECT {COLUMNS} FROM codes WHERE session = ? AND status != ? ORDER BY id DESC LIMIT 1",
            (session, CodeStatus.REPLACED),
        )
        if not rows or rows[0]["confirmed_at"] is not None:
            return None
        return typed(Code, rows[0])

    def tried(self, code_id: int, matches: Sequence[bool]) -> Tried:
        """A message's codes tried against code ``code_id``, in order (``matches``: whether each is the code):
        each one checked is a try, until one matches or the tries the caps leave are spent (a message with
        more codes than that checks no more). A match confirms the address for the code's conversation (the
        code, and the conversation's leads with that address)."""

        def steps(tx: Transaction) -> Tried:
            now = self._clock.time()
            row = tx.execute(  # written first, so that two messages trying one code take their turns
                "UPDATE codes SET tries = tries WHERE id = ? RETURNING tries, session, email, mailbox, address",
                (code_id,),
            ).fetchone()
            if row is None:  # the records were cleared meanwhile
                return Tried(0, False, 0, "code")
            rooms: dict[Bound, int] = {
                "mailbox": self.caps.mailbox_tries_per_day - self._tries(tx, "mailbox", row["mailbox"], now)
            }
            if row["address"]:
                rooms["client"] = self.caps.client_tries_per_day - self._tries(tx, "address", row["address"], now)
            rooms["code"] = self.caps.tries_per_code - row["tries"]
            bound = min(rooms, key=lambda name: rooms[name])  # a day's cap first when they leave as many
            room = max(rooms[bound], 0)
            match = next((index for index, matched in enumerate(matches[:room]) if matched), None)
            checked = min(room, len(matches)) if match is None else match + 1
            tx.execute(
                "UPDATE codes SET tries = tries + ?, confirmed_at = ? WHERE id = ?",
                (checked, now if match is not None else None, code_id),
            )
            if match is not None:
                tx.execute(
                    "UPDATE leads SET confirmed_at = ? WHERE session = ? AND LOWER(email) = ? AND confirmed_at IS NULL",
                    (now, row["session"], row["email"]),
                )
            return Tried(checked, match is not None, max(rooms[bound] - checked, 0), bound)

        return self.db.write(steps)

    @staticmethod
    def _tries(tx: Transaction, column: str, value: str | None, now: float) -> int:
        """Tries made in the last day on the codes of ``value`` of ``column`` (a code's tries are made in the
        minutes after its mail went: the day is counted from then)."""
        row = the_row(
            tx.execute(
                f"SELECT COALESCE(SUM(tries), 0) AS n FROM codes WHERE {column} = ? AND created_at > ? "
                "AND COALESCE(issued_at, created_at) > ?",
                (value, now - 2 * DAY, now - DAY),
            )
        )
        return int(row["n"])  # PostgreSQL sums a BIGINT as a NUMERIC

    def confirmed_in(self, session: str) -> str | None:
        """The address ``session`` confirmed last, or ``None``."""
        rows = self.db.read(
            "SELECT email FROM codes WHERE session = ? AND confirmed_at IS NOT NULL ORDER BY id DESC LIMIT 1",
            (session,),
        )
        return rows[0]["email"] if rows else None

    # The mails, as the sender sees them (the rest is the send queue's).

    def claim(self, code_id: int, digest: str) -> bool:
        """Lease code ``code_id``'s mail to this instance, recording the keyed hash of the code it is about
        to carry (a code from an earlier, failed try is then forgotten); False when another holds it."""
        return bool(self._lease((code_id,), ", digest = ?, issued_at = ?, tries = 0", (digest, self._clock.time())))
