"""The durable record: leads, unanswered questions, and the outbox of alerts still to deliver.

SQLite in ``DATA_DIR`` by default, PostgreSQL with ``DATABASE_URL`` (see :mod:`replica.database`). A
lead or question is written in the same transaction as its alert, so an alert exists if and only if
its record does, and a pending alert survives any restart. The schema evolves through the numbered
``MIGRATIONS`` below, recorded in the database. Outbox rows are claimed with a lease, so several
instances on one database deliver each alert once (at least once after a crash).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from enum import Enum
from pathlib import Path
from typing import Callable, Collection, TypeVar

from replica.alerts.alert import Alert
from replica.storage.database import Database, DatabaseError, Row, Transaction, open_database

MIGRATIONS = [
    """
    CREATE TABLE leads (
        id INTEGER PRIMARY KEY,
        email TEXT NOT NULL,
        name TEXT NOT NULL,
        notes TEXT NOT NULL,
        session TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (session, email)
    );
    CREATE TABLE questions (
        id INTEGER PRIMARY KEY,
        question TEXT NOT NULL,
        session TEXT NOT NULL,
        created_at TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'open'
    );
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        session TEXT NOT NULL,
        alert TEXT NOT NULL,
        lead_id INTEGER REFERENCES leads(id),
        question_id INTEGER REFERENCES questions(id),
        status TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0,
        due_at REAL NOT NULL,
        last_error TEXT,
        created_at TEXT NOT NULL,
        sent_at TEXT
    );
    CREATE INDEX outbox_pending ON outbox (status, id);
    CREATE INDEX outbox_session ON outbox (session, kind);
    """,
    # 2: the owner teaches answers from Telegram by replying to an alert.
    """
    ALTER TABLE outbox ADD COLUMN telegram_message_id INTEGER;
    CREATE INDEX outbox_telegram_message ON outbox (telegram_message_id);
    CREATE TABLE answers (
        id INTEGER PRIMARY KEY,
        question_id INTEGER NOT NULL REFERENCES questions(id),
        answer TEXT NOT NULL,
        created_at TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'active'
    );
    CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # 3: a visitor's repeated question is found by its session.
    """
    CREATE INDEX questions_session ON questions (session);
    """,
    # 4: the owner's inbox: conversations and their messages, handoff, triage states, Telegram links.
    """
    CREATE TABLE conversations (
        id INTEGER PRIMARY KEY,
        session TEXT NOT NULL UNIQUE,
        address_hash TEXT NOT NULL,
        started_at REAL NOT NULL,
        last_at REAL NOT NULL,
        paused_until REAL,
        handoff_told INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX conversations_last ON conversations (last_at);
    CREATE TABLE messages (
        id INTEGER PRIMARY KEY,
        conversation_id INTEGER NOT NULL REFERENCES conversations(id),
        role TEXT NOT NULL,
        text TEXT NOT NULL,
        at REAL NOT NULL,
        tools TEXT NOT NULL DEFAULT '',
        model_calls INTEGER NOT NULL DEFAULT 0,
        reply_ms INTEGER,
        shown INTEGER NOT NULL DEFAULT 1
    );
    CREATE INDEX messages_conversation ON messages (conversation_id, id);
    CREATE INDEX messages_at ON messages (at);
    CREATE TABLE telegram_links (message_id INTEGER PRIMARY KEY, conversation_id INTEGER NOT NULL);
    ALTER TABLE outbox ADD COLUMN conversation_id INTEGER;
    ALTER TABLE leads ADD COLUMN status TEXT NOT NULL DEFAULT 'new';
    """,
    # 5: outbox rows are claimed with a lease, so several instances deliver each alert once.
    """
    ALTER TABLE outbox ADD COLUMN lease_until REAL;
    INSERT INTO state (key, value) VALUES ('telegram_last_send', '0') ON CONFLICT (key) DO NOTHING;
    """,
    # 6: usage limits shared by the instances on one database.
    """
    CREATE TABLE usage_events (key TEXT NOT NULL, at REAL NOT NULL);
    CREATE INDEX usage_events_key ON usage_events (key, at);
    CREATE TABLE daily_calls (day TEXT PRIMARY KEY, used INTEGER NOT NULL);
    """,
    # 7: Telegram webhook mode: each update is handled once, whichever instance receives it.
    """
    CREATE TABLE handled_updates (update_id INTEGER PRIMARY KEY);
    """,
]


T = TypeVar("T")
LEASE_SECONDS = 60.0  # how long a claimed alert is this instance's to send; then anyone's again
LAST_SEND_KEY = "telegram_last_send"


class StoreError(Exception):
    """The database cannot be opened or written; the message names the path and what to do."""


class Recorded(Enum):
    """What became of a lead or question handed to the store."""

    ALERTED = "stored, alert queued"
    CAPPED = "stored, alert cap reached"
    DUPLICATE = "already stored"


@dataclass(frozen=True)
class OutboxSummary:
    """What waits in the outbox: alerts pending and failed, and when the oldest pending one was raised."""

    pending: int
    failed: int
    oldest_pending: str | None


@dataclass(frozen=True)
class PendingAlert:
    """An outbox row waiting for delivery."""

    id: int
    alert: Alert
    attempts: int
    due_at: float


def _now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def check_writable(folder: Path) -> None:
    """Create ``folder`` and prove it writable, or raise :class:`StoreError` saying which and what to do."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StoreError(
            f"DATA_DIR {folder} cannot be created ({error.strerror or error}); "
            "set DATA_DIR to a folder the app may create and write"
        ) from None
    probe = folder / f".write-test-{threading.get_ident()}"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        raise StoreError(
            f"DATA_DIR {folder} is not writable ({error.strerror or error}); "
            "give the app write access to it or set DATA_DIR to another folder"
        ) from None


def _same_question(a: str, b: str) -> bool:
    """Two wordings that differ only in case, spacing or closing punctuation are the same question."""

    def norm(text: str) -> str:
        return " ".join(text.casefold().split()).rstrip("?!. ")

    return norm(a) == norm(b)


class Store:
    """Thread-safe access to the app's database: SQLite at ``path``, or PostgreSQL at ``database_url``.

    ``alert_caps`` maps an alert kind ("lead", "question") to how many alerts one visitor session may
    raise; records beyond the cap are stored but not alerted.
    """

    def __init__(
        self,
        path: Path,
        alert_caps: dict[str, int] | None = None,
        database_url: str | None = None,
        lease_seconds: float = LEASE_SECONDS,
    ):
        self.path = path
        self.alert_caps = alert_caps or {}
        self.lease_seconds = lease_seconds
        if not database_url:
            check_writable(path.parent)
        try:
            self.db: Database = open_database(path, database_url)
            self.db.migrate(MIGRATIONS)
        except DatabaseError as error:
            raise StoreError(str(error)) from None

    def read(self, sql: str, params: tuple = ()) -> list[Row]:
        """The rows of one query."""
        return self.db.read(sql, params)

    def write(self, steps: Callable[[Transaction], T]) -> T:
        """Run ``steps(transaction)`` inside one transaction and return its result."""
        return self.db.write(steps)

    def _one(self, sql: str, params: tuple = ()) -> Row | None:
        rows = self.db.read(sql, params)
        return rows[0] if rows else None

    def _set_state(self, db: Transaction, key: str, value: str) -> None:
        db.execute(
            "INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    def _queue_alert(
        self, db: Transaction, alert: Alert, lead_id: int | None = None, question_id: int | None = None
    ) -> Recorded:
        """Queue ``alert`` for the record it is about, unless the visitor has reached the cap for its kind."""
        cap = self.alert_caps.get(alert.kind)
        if cap is not None:
            raised = db.execute(
                "SELECT COUNT(*) AS n FROM outbox WHERE session = ? AND kind = ?", (alert.session_id, alert.kind)
            ).fetchone()["n"]
            if raised >= cap:
                return Recorded.CAPPED
        alert = replace(alert, ref=lead_id or question_id or alert.ref)  # the alert names its record: "… #12"
        db.execute(
            "INSERT INTO outbox (kind, session, alert, lead_id, question_id, conversation_id, due_at, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                alert.kind,
                alert.session_id,
                alert.to_json(),
                lead_id,
                question_id,
                alert.conversation,
                time.time(),
                _now_iso(),
            ),
        )
        return Recorded.ALERTED

    def queue_alert(self, alert: Alert, once: tuple[str, str] | None = None) -> Recorded | None:
        """Queue an alert that is about no lead or question (a forwarded message, the digest).

        With ``once=(key, value)``, only if the state ``key`` does not hold ``value`` yet; it is set in the
        same transaction, so the alert is queued once even across restarts. Returns ``None`` if it was.
        """

        def steps(db: Transaction) -> Recorded | None:
            if once:
                row = db.execute(f"SELECT value FROM state WHERE key = ?{self.db.lock_clause}", (once[0],)).fetchone()
                if row and row["value"] == once[1]:
                    return None
                self._set_state(db, *once)
            return self._queue_alert(db, alert)

        return self.write(steps)

    def record_lead(self, email: str, name: str, notes: str, alert: Alert) -> Recorded:
        """Store a lead (once per visitor session and email) and queue its alert, in one transaction."""

        def steps(db: Transaction) -> Recorded:
            row = db.execute(
                "INSERT INTO leads (email, name, notes, session, created_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING RETURNING id",
                (email, name, notes, alert.session_id, _now_iso()),
            ).fetchone()
            if row is None:
                return Recorded.DUPLICATE
            return self._queue_alert(db, alert, lead_id=row["id"])

        return self.write(steps)

    def record_question(self, question: str, alert: Alert) -> Recorded:
        """Store an unanswered question (once per visitor session and wording) and queue its alert, in one
        transaction."""

        def steps(db: Transaction) -> Recorded:
            asked = db.execute("SELECT question FROM questions WHERE session = ?", (alert.session_id,)).fetchall()
            if any(_same_question(row["question"], question) for row in asked):
                return Recorded.DUPLICATE
            row = db.execute(
                "INSERT INTO questions (question, session, created_at) VALUES (?, ?, ?) RETURNING id",
                (question, alert.session_id, _now_iso()),
            ).fetchone()
            return self._queue_alert(db, alert, question_id=row["id"])

        return self.write(steps)

    def next_alert(self, skip: Collection[int] = ()) -> PendingAlert | None:
        """The oldest alert not yet delivered and not leased to another instance (alerts go out in order),
        leaving out the ids in ``skip`` (alerts the caller knows were delivered, though not yet recorded)."""
        skipped = f"AND id NOT IN ({','.join('?' * len(skip))}) " if skip else ""
        row = self._one(
            "SELECT id, alert, attempts, due_at FROM outbox WHERE status = 'pending' "
            f"AND (lease_until IS NULL OR lease_until < ?) {skipped}ORDER BY id LIMIT 1",
            (time.time(), *skip),
        )
        return PendingAlert(row["id"], Alert.from_json(row["alert"]), row["attempts"], row["due_at"]) if row else None

    def claim(self, alert_id: int, min_interval: float) -> float:
        """Take alert ``alert_id`` for sending: 0.0 when it is this instance's for the lease, else
        the seconds to wait (another instance has it, or the chat's pace of one message per
        ``min_interval`` seconds, shared by every instance, is not yet due)."""

        def steps(db: Transaction) -> float:
            now = time.time()
            last = db.execute(
                f"SELECT value FROM state WHERE key = ?{self.db.lock_clause}", (LAST_SEND_KEY,)
            ).fetchone()
            wait = float(last["value"]) + min_interval - now if last else 0.0
            if wait > 0:
                return wait
            taken = db.execute(
                "UPDATE outbox SET lease_until = ? WHERE id = ? AND status = 'pending' "
                "AND (lease_until IS NULL OR lease_until < ?)",
                (now + self.lease_seconds, alert_id, now),
            ).rowcount
            if not taken:
                return max(min_interval, 0.1)  # another instance claimed it first: look again shortly
            self._set_state(db, LAST_SEND_KEY, repr(now))
            return 0.0

        return self.write(steps)

    def mark_sent(self, alert_id: int, telegram_message_id: int | None = None) -> None:
        """Record that Telegram accepted the alert (and the message id, so owner replies can be matched)."""
        self.write(
            lambda db: db.execute(
                "UPDATE outbox SET status = 'sent', attempts = attempts + 1, sent_at = ?, last_error = NULL, "
                "telegram_message_id = ?, lease_until = NULL WHERE id = ?",
                (_now_iso(), telegram_message_id, alert_id),
            )
        )

    def reschedule(self, alert_id: int, due_at: float, error: str) -> None:
        """Record a failed try; the alert is tried again at ``due_at`` (epoch seconds)."""
        self.write(
            lambda db: db.execute(
                "UPDATE outbox SET attempts = attempts + 1, due_at = ?, last_error = ?, lease_until = NULL WHERE id = ?",
                (due_at, error, alert_id),
            )
        )

    def mark_failed(self, alert_id: int, error: str) -> None:
        """Give up on an alert that can never be delivered as things stand (bad token, unknown chat)."""
        self.write(
            lambda db: db.execute(
                "UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ?, lease_until = NULL "
                "WHERE id = ?",
                (error, alert_id),
            )
        )

    def outbox_summary(self) -> OutboxSummary:
        """How many alerts are pending and failed, and the creation time of the oldest pending one."""
        row = self._one(
            "SELECT SUM(CASE WHEN status = 'pending' THEN 1 ELSE 0 END) AS pending, "
            "SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed, "
            "MIN(CASE WHEN status = 'pending' THEN created_at END) AS oldest FROM outbox"
        )
        return OutboxSummary(int(row["pending"] or 0), int(row["failed"] or 0), row["oldest"])

    def alerts(self) -> list[Row]:
        """Every alert in the outbox, oldest first, with its delivery state."""
        return self.read("SELECT kind, created_at, status, attempts, last_error, sent_at FROM outbox ORDER BY id")

    def conversation_for_alert(self, telegram_message_id: int) -> int | None:
        """The conversation an alert, transcript or forwarded message delivered as ``telegram_message_id`` is about."""
        row = self._one(
            "SELECT conversation_id FROM outbox WHERE telegram_message_id = ? AND conversation_id IS NOT NULL "
            "UNION ALL SELECT conversation_id FROM telegram_links WHERE message_id = ? LIMIT 1",
            (telegram_message_id, telegram_message_id),
        )
        return row["conversation_id"] if row else None

    def link_message(self, telegram_message_id: int, conversation_id: int) -> None:
        """Remember that a message the bot sent (a transcript) is about ``conversation_id``."""
        self.write(
            lambda db: db.execute(
                "INSERT INTO telegram_links (message_id, conversation_id) VALUES (?, ?) "
                "ON CONFLICT (message_id) DO UPDATE SET conversation_id = excluded.conversation_id",
                (telegram_message_id, conversation_id),
            )
        )

    def set_lead_status(self, lead_id: int, status: str) -> bool:
        """Set a lead's triage state (``new``, ``handled``); False when it already had it, or there is no such lead."""
        return self.write(
            lambda db: (
                db.execute(
                    "UPDATE leads SET status = ? WHERE id = ? AND status != ?", (status, lead_id, status)
                ).rowcount
                > 0
            )
        )

    def dismiss_question(self, question_id: int) -> bool:
        """Dismiss an open question; False when it was not open."""
        return self.write(
            lambda db: (
                db.execute(
                    "UPDATE questions SET status = 'dismissed' WHERE id = ? AND status = 'open'", (question_id,)
                ).rowcount
                > 0
            )
        )

    def leads(self) -> list[Row]:
        """Every lead, oldest first, with the state of its alert (``capped`` when none was raised)."""
        return self.read(
            "SELECT l.email, l.name, l.notes, l.created_at, l.session, COALESCE(o.status, 'capped') AS alert_status "
            "FROM leads l LEFT JOIN outbox o ON o.lead_id = l.id ORDER BY l.id"
        )

    def questions(self) -> list[Row]:
        """Every unanswered-question record, oldest first, with its status and the state of its alert."""
        return self.read(
            "SELECT q.question, q.created_at, q.session, q.status, COALESCE(o.status, 'capped') AS alert_status "
            "FROM questions q LEFT JOIN outbox o ON o.question_id = q.id ORDER BY q.id"
        )

    def question_for_alert(self, telegram_message_id: int) -> Row | None:
        """The question whose alert Telegram delivered as ``telegram_message_id``, if any."""
        return self._one(
            "SELECT q.id, q.question, q.status FROM outbox o JOIN questions q ON q.id = o.question_id "
            "WHERE o.telegram_message_id = ?",
            (telegram_message_id,),
        )

    def question(self, question_id: int) -> Row | None:
        """One question by id."""
        return self._one("SELECT id, question, status FROM questions WHERE id = ?", (question_id,))

    def learn_answer(self, question_id: int, answer: str) -> int:
        """Store the owner's answer to a question (replacing an earlier one) and mark it answered; return its id."""

        def steps(db: Transaction) -> int:
            db.execute(
                "UPDATE answers SET status = 'replaced' WHERE question_id = ? AND status = 'active'", (question_id,)
            )
            db.execute("UPDATE questions SET status = 'answered' WHERE id = ?", (question_id,))
            return db.execute(
                "INSERT INTO answers (question_id, answer, created_at) VALUES (?, ?, ?) RETURNING id",
                (question_id, answer, _now_iso()),
            ).fetchone()["id"]

        return self.write(steps)

    def forget_answer(self, answer_id: int) -> Row | None:
        """Withdraw a learned answer; its question is open again. Returns the withdrawn answer, or ``None``."""

        def steps(db: Transaction) -> Row | None:
            row = db.execute(
                "SELECT a.id, a.question_id, q.question FROM answers a JOIN questions q ON q.id = a.question_id "
                "WHERE a.id = ? AND a.status = 'active'",
                (answer_id,),
            ).fetchone()
            if row:
                db.execute("UPDATE answers SET status = 'withdrawn' WHERE id = ?", (answer_id,))
                db.execute("UPDATE questions SET status = 'open' WHERE id = ?", (row["question_id"],))
            return row

        return self.write(steps)

    def answers(self, active_only: bool = False) -> list[Row]:
        """Learned answers with their questions, oldest first."""
        where = "WHERE a.status = 'active'" if active_only else ""
        return self.read(
            "SELECT a.id, q.question, a.answer, a.created_at, a.status FROM answers a "
            f"JOIN questions q ON q.id = a.question_id {where} ORDER BY a.id"
        )

    def recent_leads(self, limit: int) -> list[Row]:
        """The ``limit`` most recent leads, newest first."""
        return self.read(
            "SELECT id, email, name, notes, created_at, status FROM leads ORDER BY id DESC LIMIT ?", (limit,)
        )

    def open_questions(self, status: str = "open") -> list[Row]:
        """Questions in ``status`` (unanswered ones by default), oldest first."""
        return self.read("SELECT id, question, created_at FROM questions WHERE status = ? ORDER BY id", (status,))

    def take_usage(self, key: str, limit: int, window: float) -> bool:
        """Count one event for ``key`` if fewer than ``limit`` happened in the last ``window`` seconds
        (across every instance on this database); False, and nothing counted, when the limit is reached."""

        def steps(db: Transaction) -> bool:
            now = time.time()
            db.execute("DELETE FROM usage_events WHERE key = ? AND at <= ?", (key, now - window))
            used = db.execute("SELECT COUNT(*) AS n FROM usage_events WHERE key = ?", (key,)).fetchone()["n"]
            if used >= limit:
                return False
            db.execute("INSERT INTO usage_events (key, at) VALUES (?, ?)", (key, now))
            return True

        return self.write(steps)

    def sweep_usage(self, window: float, today: str) -> int:
        """Delete usage counts older than ``window`` seconds, and daily counts of days before ``today``
        (run on a clock, so nothing is kept longer than its limit needs); return how many rows went."""

        def steps(db: Transaction) -> int:
            events = db.execute("DELETE FROM usage_events WHERE at <= ?", (time.time() - window,)).rowcount
            return events + db.execute("DELETE FROM daily_calls WHERE day < ?", (today,)).rowcount

        return self.write(steps)

    def take_daily(self, day: str, limit: int) -> bool:
        """Use one of ``day``'s ``limit`` units, shared by every instance; False when none is left."""
        return self.write(
            lambda db: (
                db.execute(
                    "INSERT INTO daily_calls (day, used) VALUES (?, 1) ON CONFLICT (day) DO UPDATE "
                    "SET used = daily_calls.used + 1 WHERE daily_calls.used < ? RETURNING used",
                    (day, limit),
                ).fetchone()
                is not None
                and limit > 0
            )
        )

    def shared_value(self, key: str, candidate: str) -> str:
        """The value kept under ``key``, set to ``candidate`` by whichever instance asks first: one
        secret or salt shared by every instance on this database, and the same after a restart."""

        def steps(db: Transaction) -> str:
            db.execute("INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", (key, candidate))
            return db.execute("SELECT value FROM state WHERE key = ?", (key,)).fetchone()["value"]

        return self.write(steps)

    def get_state(self, key: str) -> str | None:
        """A small persisted value (such as the Telegram update offset)."""
        row = self._one("SELECT value FROM state WHERE key = ?", (key,))
        return row["value"] if row else None

    def set_state(self, key: str, value: str) -> None:
        """Persist a small value under ``key``."""
        self.write(lambda db: self._set_state(db, key, value))

    def close(self) -> None:
        """Close the database."""
        self.db.close()
