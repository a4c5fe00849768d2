"""Questions the replica could not answer, and the answers the owner taught for them."""

from __future__ import annotations

import time
from typing import Callable

from replica.storage.database import Database, Transaction
from replica.storage.deliveries import ALERT_STATUS, TELEGRAM
from replica.storage.outbox import Outbox
from replica.storage.records import OutboxEntry, QuestionStatus, Recorded, iso
from replica.storage.rows import AnswerRecord, QuestionListing, QuestionRecord, QuestionRef, WithdrawnAnswer, typed


def same_question(a: str, b: str) -> bool:
    """Two wordings that differ only in case, spacing or closing punctuation are the same question."""

    def norm(text: str) -> str:
        return " ".join(text.casefold().split()).rstrip("?!. ")

    return norm(a) == norm(b)


class Questions:
    """Unanswered questions: stored once per visitor and wording, with their alert; open, answered or dismissed."""

    def __init__(self, db: Database, outbox: Outbox, clock: Callable[[], float] = time.time):
        self.db = db
        self._clock = clock
        self._outbox = outbox

    def record(self, question: str, alert: OutboxEntry) -> Recorded:
        """Store an unanswered question (once per visitor session and wording) and queue its alert, in
        one transaction."""

        def steps(tx: Transaction) -> Recorded:
            asked = tx.execute("SELECT question FROM questions WHERE session = ?", (alert.session,)).fetchall()
            if any(same_question(row["question"], question) for row in asked):
                return Recorded.DUPLICATE
            row = tx.execute(
                "INSERT INTO questions (question, session, created_at) VALUES (?, ?, ?) RETURNING id",
                (question, alert.session, self._clock()),
            ).fetchone()
            return self._outbox.queue_in(tx, alert, question_id=row["id"])

        return self.db.write(steps)

    def get(self, question_id: int) -> QuestionRef | None:
        """One question by number."""
        rows = self.db.read("SELECT id, question, status FROM questions WHERE id = ?", (question_id,))
        return typed(QuestionRef, rows[0]) if rows else None

    def for_alert(self, telegram_message_id: int) -> QuestionRef | None:
        """The question whose alert Telegram delivered as ``telegram_message_id``, if any."""
        rows = self.db.read(
            "SELECT q.id, q.question, q.status FROM deliveries d JOIN outbox o ON o.id = d.alert_id "
            "JOIN questions q ON q.id = o.question_id WHERE d.channel = ? AND d.message_id = ?",
            (TELEGRAM, telegram_message_id),
        )
        return typed(QuestionRef, rows[0]) if rows else None

    def dismiss(self, question_id: int) -> bool:
        """Dismiss an open question; False when it was not open."""
        return self.db.write(
            lambda tx: (
                tx.execute(
                    "UPDATE questions SET status = 'dismissed' WHERE id = ? AND status = 'open'", (question_id,)
                ).rowcount
                > 0
            )
        )

    def all(self) -> list[QuestionRecord]:
        """Every unanswered-question record, oldest first, with its status and the state of its alert."""
        rows = self.db.read(
            f"SELECT q.question, q.created_at, q.session, q.status, {ALERT_STATUS} AS alert_status "
            "FROM questions q LEFT JOIN outbox o ON o.question_id = q.id ORDER BY q.id"
        )
        return [typed(QuestionRecord, row, created_at=iso(row["created_at"])) for row in rows]

    def in_status(self, status: QuestionStatus = QuestionStatus.OPEN) -> list[QuestionListing]:
        """Questions in ``status`` (unanswered ones by default), oldest first."""
        rows = self.db.read("SELECT id, question, created_at FROM questions WHERE status = ? ORDER BY id", (status,))
        return [typed(QuestionListing, row, created_at=iso(row["created_at"])) for row in rows]

    def count_between(self, start: float, end: float) -> int:
        """How many questions were passed on from ``start`` to before ``end`` (epoch seconds)."""
        query = "SELECT COUNT(*) AS n FROM questions WHERE created_at >= ? AND created_at < ?"
        return self.db.read(query, (start, end))[0]["n"]

    def count_open(self) -> int:
        """How many questions are open, all days."""
        return self.db.read("SELECT COUNT(*) AS n FROM questions WHERE status = 'open'")[0]["n"]

    def for_session(self, session: str) -> bool:
        """True when the visitor session passed a question on."""
        return bool(self.db.read("SELECT 1 AS found FROM questions WHERE session = ? LIMIT 1", (session,)))


class Answers:
    """The owner's answers to questions, taught from Telegram; one active answer per question."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time):
        self.db = db
        self._clock = clock

    def learn(self, question_id: int, answer: str) -> int:
        """Store the owner's answer to a question (replacing an earlier one) and mark it answered; return its id."""

        def steps(tx: Transaction) -> int:
            tx.execute(
                "UPDATE answers SET status = 'replaced' WHERE question_id = ? AND status = 'active'", (question_id,)
            )
            tx.execute("UPDATE questions SET status = 'answered' WHERE id = ?", (question_id,))
            return tx.execute(
                "INSERT INTO answers (question_id, answer, created_at) VALUES (?, ?, ?) RETURNING id",
                (question_id, answer, self._clock()),
            ).fetchone()["id"]

        return self.db.write(steps)

    def forget(self, answer_id: int) -> WithdrawnAnswer | None:
        """Withdraw a learned answer; its question is open again. Returns the withdrawn answer, or ``None``."""

        def steps(tx: Transaction) -> WithdrawnAnswer | None:
            row = tx.execute(
                "SELECT a.id, a.question_id, q.question FROM answers a JOIN questions q ON q.id = a.question_id "
                "WHERE a.id = ? AND a.status = 'active'",
                (answer_id,),
            ).fetchone()
            if row:
                tx.execute("UPDATE answers SET status = 'withdrawn' WHERE id = ?", (answer_id,))
                tx.execute("UPDATE questions SET status = 'open' WHERE id = ?", (row["question_id"],))
            return typed(WithdrawnAnswer, row) if row else None

        return self.db.write(steps)

    def all(self, active_only: bool = False) -> list[AnswerRecord]:
        """Learned answers with their questions, oldest first."""
        query = (
            "SELECT a.id, q.question, a.answer, a.created_at, a.status FROM answers a "
            "JOIN questions q ON q.id = a.question_id WHERE a.status = 'active' OR ? = 0 ORDER BY a.id"
        )
        rows = self.db.read(query, (int(active_only),))
        return [typed(AnswerRecord, row, created_at=iso(row["created_at"])) for row in rows]
