"""The durable record: leads, unanswered questions, and the outbox of alerts still to deliver.

SQLite in WAL mode. A lead or question is written in the same transaction as its alert, so an alert
exists if and only if its record does, and a pending alert survives any restart. The schema evolves
through the numbered ``MIGRATIONS`` below (``PRAGMA user_version`` says how many have run).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from enum import Enum
from pathlib import Path
from typing import Any

from replica.notify.alerts import Alert

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
]


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
    """Thread-safe access to the app's SQLite database at ``path``.

    ``alert_caps`` maps an alert kind ("lead", "question") to how many alerts one visitor session may
    raise; records beyond the cap are stored but not alerted.
    """

    def __init__(self, path: Path, alert_caps: dict[str, int] | None = None):
        self.path = path
        self.alert_caps = alert_caps or {}
        self._lock = threading.Lock()
        check_writable(path.parent)
        try:
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=10)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA busy_timeout=10000")
            self._migrate()
        except sqlite3.DatabaseError as error:
            raise StoreError(
                f"{path} cannot be used as the database ({error}); move that file aside or set DATA_DIR to "
                "another folder"
            ) from None

    def _migrate(self) -> None:
        with self._lock:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                self._db.executescript(f"BEGIN IMMEDIATE; {script}; PRAGMA user_version = {number}; COMMIT;")

    def read(self, sql: str, params: tuple = ()) -> list[sqlite3.Row]:
        """The rows of one query."""
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    def write(self, sql_steps) -> Any:
        """Run ``sql_steps(db)`` inside one immediate transaction and return its result."""
        return self._write(sql_steps)

    def _write(self, sql_steps) -> Any:
        """Run ``sql_steps(db)`` inside one immediate transaction and return its result."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                result = sql_steps(self._db)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return result

    def _queue_alert(
        self, db: sqlite3.Connection, alert: Alert, lead_id: int | None = None, question_id: int | None = None
    ) -> Recorded:
        """Queue ``alert`` for the record it is about, unless the visitor has reached the cap for its kind."""
        cap = self.alert_caps.get(alert.kind)
        if cap is not None:
            raised = db.execute(
                "SELECT COUNT(*) FROM outbox WHERE session = ? AND kind = ?", (alert.session_id, alert.kind)
            ).fetchone()[0]
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

        def steps(db: sqlite3.Connection) -> Recorded | None:
            if once:
                row = db.execute("SELECT value FROM state WHERE key = ?", (once[0],)).fetchone()
                if row and row["value"] == once[1]:
                    return None
                db.execute(
                    "INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    once,
                )
            return self._queue_alert(db, alert)

        return self._write(steps)

    def record_lead(self, email: str, name: str, notes: str, alert: Alert) -> Recorded:
        """Store a lead (once per visitor session and email) and queue its alert, in one transaction."""

        def steps(db: sqlite3.Connection) -> Recorded:
            cursor = db.execute(
                "INSERT OR IGNORE INTO leads (email, name, notes, session, created_at) VALUES (?, ?, ?, ?, ?)",
                (email, name, notes, alert.session_id, _now_iso()),
            )
            if cursor.rowcount == 0:
                return Recorded.DUPLICATE
            return self._queue_alert(db, alert, lead_id=cursor.lastrowid)

        return self._write(steps)

    def record_question(self, question: str, alert: Alert) -> Recorded:
        """Store an unanswered question (once per visitor session and wording) and queue its alert, in one
        transaction."""

        def steps(db: sqlite3.Connection) -> Recorded:
            asked = db.execute("SELECT question FROM questions WHERE session = ?", (alert.session_id,)).fetchall()
            if any(_same_question(row["question"], question) for row in asked):
                return Recorded.DUPLICATE
            cursor = db.execute(
                "INSERT INTO questions (question, session, created_at) VALUES (?, ?, ?)",
                (question, alert.session_id, _now_iso()),
            )
            return self._queue_alert(db, alert, question_id=cursor.lastrowid)

        return self._write(steps)

    def next_alert(self) -> PendingAlert | None:
        """The oldest alert not yet delivered (alerts go out in order), or ``None``."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, alert, attempts, due_at FROM outbox WHERE status = 'pending' ORDER BY id LIMIT 1"
            ).fetchone()
        return PendingAlert(row["id"], Alert.from_json(row["alert"]), row["attempts"], row["due_at"]) if row else None

    def mark_sent(self, alert_id: int, telegram_message_id: int | None = None) -> None:
        """Record that Telegram accepted the alert (and the message id, so owner replies can be matched)."""
        self._write(
            lambda db: db.execute(
                "UPDATE outbox SET status = 'sent', attempts = attempts + 1, sent_at = ?, last_error = NULL, "
                "telegram_message_id = ? WHERE id = ?",
                (_now_iso(), telegram_message_id, alert_id),
            )
        )

    def reschedule(self, alert_id: int, due_at: float, error: str) -> None:
        """Record a failed try; the alert is tried again at ``due_at`` (epoch seconds)."""
        self._write(
            lambda db: db.execute(
                "UPDATE outbox SET attempts = attempts + 1, due_at = ?, last_error = ? WHERE id = ?",
                (due_at, error, alert_id),
            )
        )

    def mark_failed(self, alert_id: int, error: str) -> None:
        """Give up on an alert that can never be delivered as things stand (bad token, unknown chat)."""
        self._write(
            lambda db: db.execute(
                "UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ? WHERE id = ?",
                (error, alert_id),
            )
        )

    def outbox_summary(self) -> OutboxSummary:
        """How many alerts are pending and failed, and the creation time of the oldest pending one."""
        with self._lock:
            row = self._db.execute(
                "SELECT SUM(status = 'pending') AS pending, SUM(status = 'failed') AS failed, "
                "MIN(CASE WHEN status = 'pending' THEN created_at END) AS oldest FROM outbox"
            ).fetchone()
        return OutboxSummary(row["pending"] or 0, row["failed"] or 0, row["oldest"])

    def alerts(self) -> list[sqlite3.Row]:
        """Every alert in the outbox, oldest first, with its delivery state."""
        with self._lock:
            return self._db.execute(
                "SELECT kind, created_at, status, attempts, last_error, sent_at FROM outbox ORDER BY id"
            ).fetchall()

    def conversation_for_alert(self, telegram_message_id: int) -> int | None:
        """The conversation an alert, transcript or forwarded message delivered as ``telegram_message_id`` is about."""
        with self._lock:
            row = self._db.execute(
                "SELECT conversation_id FROM outbox WHERE telegram_message_id = ? AND conversation_id IS NOT NULL "
                "UNION ALL SELECT conversation_id FROM telegram_links WHERE message_id = ? LIMIT 1",
                (telegram_message_id, telegram_message_id),
            ).fetchone()
        return row["conversation_id"] if row else None

    def link_message(self, telegram_message_id: int, conversation_id: int) -> None:
        """Remember that a message the bot sent (a transcript) is about ``conversation_id``."""
        self._write(
            lambda db: db.execute(
                "INSERT OR REPLACE INTO telegram_links (message_id, conversation_id) VALUES (?, ?)",
                (telegram_message_id, conversation_id),
            )
        )

    def set_lead_status(self, lead_id: int, status: str) -> bool:
        """Set a lead's triage state (``new``, ``handled``); False when it already had it, or there is no such lead."""
        return self._write(
            lambda db: db.execute(
                "UPDATE leads SET status = ? WHERE id = ? AND status != ?", (status, lead_id, status)
            ).rowcount
            > 0
        )

    def dismiss_question(self, question_id: int) -> bool:
        """Dismiss an open question; False when it was not open."""
        return self._write(
            lambda db: db.execute(
                "UPDATE questions SET status = 'dismissed' WHERE id = ? AND status = 'open'", (question_id,)
            ).rowcount
            > 0
        )

    def leads(self) -> list[sqlite3.Row]:
        """Every lead, oldest first, with the state of its alert (``capped`` when none was raised)."""
        with self._lock:
            return self._db.execute(
                "SELECT l.email, l.name, l.notes, l.created_at, l.session, COALESCE(o.status, 'capped') AS alert_status "
                "FROM leads l LEFT JOIN outbox o ON o.lead_id = l.id ORDER BY l.id"
            ).fetchall()

    def questions(self) -> list[sqlite3.Row]:
        """Every unanswered-question record, oldest first, with its status and the state of its alert."""
        with self._lock:
            return self._db.execute(
                "SELECT q.question, q.created_at, q.session, q.status, COALESCE(o.status, 'capped') AS alert_status "
                "FROM questions q LEFT JOIN outbox o ON o.question_id = q.id ORDER BY q.id"
            ).fetchall()

    def question_for_alert(self, telegram_message_id: int) -> sqlite3.Row | None:
        """The question whose alert Telegram delivered as ``telegram_message_id``, if any."""
        with self._lock:
            return self._db.execute(
                "SELECT q.id, q.question, q.status FROM outbox o JOIN questions q ON q.id = o.question_id "
                "WHERE o.telegram_message_id = ?",
                (telegram_message_id,),
            ).fetchone()

    def question(self, question_id: int) -> sqlite3.Row | None:
        """One question by id."""
        with self._lock:
            return self._db.execute(
                "SELECT id, question, status FROM questions WHERE id = ?", (question_id,)
            ).fetchone()

    def learn_answer(self, question_id: int, answer: str) -> int:
        """Store the owner's answer to a question (replacing an earlier one) and mark it answered; return its id."""

        def steps(db: sqlite3.Connection) -> int:
            db.execute(
                "UPDATE answers SET status = 'replaced' WHERE question_id = ? AND status = 'active'", (question_id,)
            )
            db.execute("UPDATE questions SET status = 'answered' WHERE id = ?", (question_id,))
            cursor = db.execute(
                "INSERT INTO answers (question_id, answer, created_at) VALUES (?, ?, ?)",
                (question_id, answer, _now_iso()),
            )
            return cursor.lastrowid

        return self._write(steps)

    def forget_answer(self, answer_id: int) -> sqlite3.Row | None:
        """Withdraw a learned answer; its question is open again. Returns the withdrawn answer, or ``None``."""

        def steps(db: sqlite3.Connection) -> sqlite3.Row | None:
            row = db.execute(
                "SELECT a.id, a.question_id, q.question FROM answers a JOIN questions q ON q.id = a.question_id "
                "WHERE a.id = ? AND a.status = 'active'",
                (answer_id,),
            ).fetchone()
            if row:
                db.execute("UPDATE answers SET status = 'withdrawn' WHERE id = ?", (answer_id,))
                db.execute("UPDATE questions SET status = 'open' WHERE id = ?", (row["question_id"],))
            return row

        return self._write(steps)

    def answers(self, active_only: bool = False) -> list[sqlite3.Row]:
        """Learned answers with their questions, oldest first."""
        where = "WHERE a.status = 'active'" if active_only else ""
        with self._lock:
            return self._db.execute(
                "SELECT a.id, q.question, a.answer, a.created_at, a.status FROM answers a "
                f"JOIN questions q ON q.id = a.question_id {where} ORDER BY a.id"
            ).fetchall()

    def recent_leads(self, limit: int) -> list[sqlite3.Row]:
        """The ``limit`` most recent leads, newest first."""
        with self._lock:
            return self._db.execute(
                "SELECT id, email, name, notes, created_at, status FROM leads ORDER BY id DESC LIMIT ?", (limit,)
            ).fetchall()

    def open_questions(self, status: str = "open") -> list[sqlite3.Row]:
        """Questions in ``status`` (unanswered ones by default), oldest first."""
        with self._lock:
            return self._db.execute(
                "SELECT id, question, created_at FROM questions WHERE status = ? ORDER BY id", (status,)
            ).fetchall()

    def get_state(self, key: str) -> str | None:
        """A small persisted value (such as the Telegram update offset)."""
        with self._lock:
            row = self._db.execute("SELECT value FROM state WHERE key = ?", (key,)).fetchone()
        return row["value"] if row else None

    def set_state(self, key: str, value: str) -> None:
        """Persist a small value under ``key``."""
        self._write(
            lambda db: db.execute(
                "INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
        )

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._db.close()
