"""Questions the replica could not answer, and the answers the owner taught for them."""

from __future__ import annotations

from typing import Callable

from replica.runtime.clock import REAL_CLOCK, Clock
from replica.storage.database import Database, Transaction, the_row
from replica.storage.deliveries import ALERT_STATUS, TELEGRAM
from replica.storage.outbox import Outbox
from replica.storage.records import OutboxEntry, QuestionStatus, Recorded, iso
from replica.storage.rows import (
    AnswerRecord,
    Asker,
    QuestionListing,
    QuestionRecord,
    QuestionRef,
    WithdrawnAnswer,
    typed,
)


def same_question(a: str, b: str) -> bool:
    """Two wordings that differ only in case, spacing or closing punctuation are the same question."""

    def norm(text: str) -> str:
        return " ".join(text.casefold().split()).rstrip("?!. ")

    return norm(a) == norm(b)


Same = Callable[[str, str], bool]  # whether two wordings ask the same question


class Questions:
    """Unanswered questions: stored once per visitor and wording, with their alert; open, answered or
    dismissed. Visitors who ask an open question again, in words ``same`` says are its, are its askers:
    one question, one alert, one answer for all of them."""

    def __init__(self, db: Database, outbox: Outbox, clock: Clock = REAL_CLOCK):
        self.db = db
        self._clock = clock
        self._outbox = outbox

    def record(self, question: str, alert: OutboxEntry, same: Same = same_question) -> Recorded:
        """Store an unanswered question and queue its alert, in one transaction: once per visitor session
        and wording, and as one more asker of an open question that ``same`` says it is (no alert)."""

        def steps(tx: Transaction) -> Recorded:
            asked = tx.execute("SELECT question FROM askers WHERE session = ?", (alert.session,)).fetchall()
            if any(same(question, row["question"]) for row in asked):
                return Recorded.DUPLICATE
            open_ones = tx.execute("SELECT id, question FROM questions WHERE status = 'open' ORDER BY id").fetchall()
            joined = next((row["id"] for row in open_ones if same(question, row["question"])), None)
            if joined is not None:
                self._add_asker(tx, joined, alert.session, question)
                return Recorded.JOINED
            row = the_row(
                tx.execute(
                    "INSERT INTO questions (question, session, created_at) VALUES (?, ?, ?) RETURNING id",
                    (question, alert.session, self._clock.time()),
                )
            )
            self._add_asker(tx, row["id"], alert.session, question)
            return self._outbox.queue_in(tx, alert, question_id=row["id"])

        return self._outbox.stored(alert.kind, self.db.write(steps))

    def _add_asker(self, tx: Transaction, question_id: int, session: str, question: str) -> None:
        tx.execute(
            "INSERT INTO askers (question_id, session, question, asked_at) VALUES (?, ?, ?, ?)",
            (question_id, session, question, self._clock.time()),
        )

    def askers(self, question_id: int) -> list[Asker]:
        """Every visitor who asked question ``question_id``, first first, with their conversation's number
        (``None`` when it is gone) and whether their browser keeps it."""
        rows = self.db.read(
            "SELECT a.session, a.question, c.id AS conversation, c.kept_by_browser FROM askers a "
            "LEFT JOIN conversations c ON c.session = a.session WHERE a.question_id = ? ORDER BY a.id",
            (question_id,),
        )
        return [typed(Asker, row, kept_by_browser=bool(row["kept_by_browser"])) for row in rows]

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
        """Every unanswered-question record, oldest first, with its status, the state of its alert and how
        many visitors asked it."""
        rows = self.db.read(
            f"SELECT q.question, q.created_at, q.session, q.status, {ALERT_STATUS} AS alert_status, "
            "(SELECT COUNT(*) FROM askers a WHERE a.question_id = q.id) AS askers "
            "FROM questions q LEFT JOIN outbox o ON o.question_id = q.id ORDER BY q.id"
        )
        return [typed(QuestionRecord, row, created_at=iso(row["created_at"])) for row in rows]

    def in_status(self, status: QuestionStatus = QuestionStatus.OPEN) -> list[QuestionListing]:
        """Questions in ``status`` (unanswered ones by default), oldest first."""
        rows = self.db.read(
            "SELECT q.id, q.question, q.created_at, COUNT(a.id) AS askers FROM questions q "
            "LEFT JOIN askers a ON a.question_id = q.id WHERE q.status = ? "
            "GROUP BY q.id, q.question, q.created_at ORDER BY q.id",
            (status,),
        )
        return [typed(QuestionListing, row, created_at=iso(row["created_at"])) for row in rows]

    def count_between(self, start: float, end: float) -> int:
        """How many questions visitors passed on from ``start`` to before ``end`` (epoch seconds), each
        visitor who asked an open question again counted too."""
        query = "SELECT COUNT(*) AS n FROM askers WHERE asked_at >= ? AND asked_at < ?"
        return self.db.read(query, (start, end))[0]["n"]

    def count_open(self) -> int:
        """How many questions are open, all days."""
        return self.db.read("SELECT COUNT(*) AS n FROM questions WHERE status = 'open'")[0]["n"]

    def open_for_session(self, session: str) -> bool:
        """True while a question the visitor session asked is open (waiting for the owner's answer)."""
        query = (
            "SELECT 1 AS found FROM askers a JOIN questions q ON q.id = a.question_id "
            "WHERE a.session = ? AND q.status = 'open' LIMIT 1"
        )
        return bool(self.db.read(query, (session,)))

    def for_session(self, session: str) -> bool:
        """True when the visitor session passed a question on (or asked one another visitor had)."""
        return bool(self.db.read("SELECT 1 AS found FROM askers WHERE session = ? LIMIT 1", (session,)))


class Answers:
    """The owner's answers to questions, taught from Telegram; one active answer per question."""

    def __init__(self, db: Database, clock: Clock = REAL_CLOCK):
        self.db = db
        self._clock = clock

    def learn(self, question_id: int, answer: str) -> int:
        """Store the owner's answer to a question (replacing an earlier one) and mark it answered; return its id."""

        def steps(tx: Transaction) -> int:
            tx.execute(
                "UPDATE answers SET status = 'replaced' WHERE question_id = ? AND status = 'active'", (question_id,)
            )
            tx.execute("UPDATE questions SET status = 'answered' WHERE id = ?", (question_id,))
            return the_row(
                tx.execute(
                    "INSERT INTO answers (question_id, answer, created_at) VALUES (?, ?, ?) RETURNING id",
                    (question_id, answer, self._clock.time()),
                )
            )["id"]

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
