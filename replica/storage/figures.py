"""The figures the owner's charts are drawn from: each visitor message's reply, page opens by day, and
the leads and questions of a period, read as rows for :mod:`replica.stats` to count by day.

None of it holds a visitor's words or address: a reply's row has when, its conversation's number, how
it was answered and what it cost; a page open is a count per day, referring host and ``utm_source``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone

from replica.storage.database import Database, Transaction, the_row
from replica.storage.records import Answered, QuestionStatus
from replica.storage.rows import typed

# The ways a visitor message was answered, in the order the charts stack them.
MODEL, APPROVED, PASSED_ON, OWNER, OTHER = (
    Answered.MODEL,
    Answered.APPROVED,
    Answered.PASSED_ON,
    Answered.OWNER,
    Answered.OTHER,
)
ANSWERED = tuple(Answered)


def day_start(day: date) -> float:
    """The epoch second ``day`` (UTC) begins."""
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc).timestamp()


def utc_day(at: float) -> date:
    """The UTC day of epoch second ``at``: the day a reply or a page open is counted on."""
    return datetime.fromtimestamp(at, timezone.utc).date()


# Distinct (host, source) pairs counted a day; past them an open counts as "other". The page's counter
# keeps only names from a closed list (replica.stats.sources), all of which fit: this bounds the table
# whatever else writes to it.
SOURCES_PER_DAY = 300
MORE = "other"  # the host and source of opens past SOURCES_PER_DAY, and of those from no listed source


@dataclass(frozen=True)
class ReplyFigure:
    """One visitor message's reply, as the charts count it."""

    at: float
    day: str  # its UTC day, ISO
    conversation_id: int
    opened: bool  # the message began its conversation
    answered: Answered
    model_calls: int
    tokens: int
    reply_ms: int | None


@dataclass(frozen=True)
class AnsweredOnDay:
    """The replies of one day answered one way: how many, how many began a conversation, what they cost."""

    day: str
    answered: Answered
    replies: int
    opened: int
    model_calls: int
    tokens: int


@dataclass(frozen=True)
class PageOpens:
    """How often the page was opened on ``day`` (ISO date, UTC) from ``host`` with ``source`` ("" for none)."""

    day: str
    host: str
    source: str
    opens: int


@dataclass(frozen=True)
class AskedQuestion:
    """A visitor's question passed on: when, its question's number and wording, and whether it is answered."""

    at: float
    question_id: int
    question: str
    status: QuestionStatus


class Figures:
    """Writes the reply and page-open figures; reads them, and the period's leads and questions."""

    def __init__(self, db: Database):
        self.db = db

    def add_reply(self, figure: ReplyFigure) -> None:
        """Keep one visitor message's reply figures."""
        self.add_replies([figure])

    def add_replies(self, figures: list[ReplyFigure]) -> None:
        """Keep several replies' figures in one transaction (the bench's and the tests' busy months)."""
        rows = [
            (f.day, f.at, f.conversation_id, int(f.opened), f.answered, f.model_calls, f.tokens, f.reply_ms)
            for f in figures
        ]

        def steps(tx: Transaction) -> None:
            for row in rows:
                tx.execute(
                    "INSERT INTO reply_figures (day, at, conversation_id, opened, answered, model_calls, tokens, "
                    "reply_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    row,
                )

        self.db.write(steps)

    def count_open(self, day: str, host: str, source: str) -> None:
        """Count one page open on ``day``; a day counts at most :data:`SOURCES_PER_DAY` (host, source)
        pairs, so no value can grow the table without end: past them the open is "other"."""

        def steps(tx: Transaction) -> None:
            key = (day, host, source)
            known = tx.execute("SELECT 1 FROM page_opens WHERE day = ? AND host = ? AND source = ?", key).fetchone()
            if known is None:
                pairs = the_row(tx.execute("SELECT COUNT(*) AS n FROM page_opens WHERE day = ?", (day,)))["n"]
                key = key if pairs < SOURCES_PER_DAY else (day, MORE, MORE)
            tx.execute(
                "INSERT INTO page_opens (day, host, source, opens) VALUES (?, ?, ?, 1) "
                "ON CONFLICT (day, host, source) DO UPDATE SET opens = page_opens.opens + 1",
                key,
            )

        self.db.write(steps)

    def by_day(self, first_day: str, last_day: str) -> list[AnsweredOnDay]:
        """The replies of the days from ``first_day`` to ``last_day`` (ISO dates, both counted), summed by
        day and way answered (in the database: ninety days of a busy replica are a few hundred rows)."""
        rows = self.db.read(
            "SELECT day, answered, COUNT(*) AS replies, SUM(opened) AS opened, SUM(model_calls) AS model_calls, "
            "SUM(tokens) AS tokens FROM reply_figures WHERE day >= ? AND day <= ? GROUP BY day, answered",
            (first_day, last_day),
        )
        return [typed(AnsweredOnDay, row, answered=Answered.read(row["answered"])) for row in rows]

    def median_reply_ms(self, first_day: str, last_day: str) -> int | None:
        """The median reply time of those days (the lower middle of an even count), or ``None`` for none."""
        where = "FROM reply_figures WHERE day >= ? AND day <= ? AND reply_ms IS NOT NULL"
        count = self.db.read(f"SELECT COUNT(*) AS n {where}", (first_day, last_day))[0]["n"]
        if not count:
            return None
        rows = self.db.read(
            f"SELECT reply_ms {where} ORDER BY reply_ms LIMIT 1 OFFSET ?", (first_day, last_day, (count - 1) // 2)
        )
        return int(rows[0]["reply_ms"])

    def opens(self, first_day: str, last_day: str) -> list[PageOpens]:
        """The page opens of the days from ``first_day`` to ``last_day`` (ISO dates, both counted)."""
        rows = self.db.read(
            "SELECT day, host, source, opens FROM page_opens WHERE day >= ? AND day <= ? ORDER BY day, host, source",
            (first_day, last_day),
        )
        return [typed(PageOpens, row) for row in rows]

    def leads(self, start: float, end: float) -> list[tuple[float, bool]]:
        """Each lead stored from ``start`` to before ``end``: when, and whether its address is confirmed."""
        rows = self.db.read(
            "SELECT created_at, confirmed_at FROM leads WHERE created_at >= ? AND created_at < ?", (start, end)
        )
        return [(row["created_at"], row["confirmed_at"] is not None) for row in rows]

    def asked(self, start: float, end: float) -> list[AskedQuestion]:
        """Each visitor's question passed on from ``start`` to before ``end`` (a visitor who asked an open
        question again is its asker: counted, under its question)."""
        rows = self.db.read(
            "SELECT a.asked_at AS at, q.id AS question_id, q.question, q.status FROM askers a "
            "JOIN questions q ON q.id = a.question_id WHERE a.asked_at >= ? AND a.asked_at < ? ORDER BY a.asked_at",
            (start, end),
        )
        return [typed(AskedQuestion, row) for row in rows]

    def delete_before(self, cutoff_day: str) -> int:
        """Delete the reply figures and the page opens of the days before ``cutoff_day`` (ISO); return how many."""

        def steps(tx: Transaction) -> int:
            replies = tx.execute("DELETE FROM reply_figures WHERE day < ?", (cutoff_day,)).rowcount
            return replies + tx.execute("DELETE FROM page_opens WHERE day < ?", (cutoff_day,)).rowcount

        return self.db.write(steps)
