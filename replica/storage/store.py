"""The store: the app's one database, opened, migrated, and reached through one repository per concern.

SQLite in ``DATA_DIR`` by default, PostgreSQL with ``DATABASE_URL`` (see :mod:`replica.storage.database`).
A lead or question is written in the same transaction as its alert, so an alert exists if and only if
its record does, and a pending alert survives any restart. Each alert's delivery to each channel is
claimed with a lease, so several instances on one database deliver each alert once (at least once
after a crash). Every SQL
statement of the app is in this package.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Mapping

from replica.runtime.clock import REAL_CLOCK, Clock
from replica.settings import SqliteJournal
from replica.storage.answer_mails import AnswerMails
from replica.storage.code_mails import CodeCaps, Codes
from replica.storage.conversation_records import ConversationRecords
from replica.storage.database import Database, DatabaseError, Transaction, open_database, storage_errors
from replica.storage.deliveries import TELEGRAM, Deliveries
from replica.storage.figures import Figures
from replica.storage.leads import Leads
from replica.storage.migrations import is_empty, migrate, pending
from replica.storage.outbox import Outbox
from replica.storage.phrasings import Phrasings
from replica.storage.questions import Answers, Questions
from replica.storage.records import AlertKind
from replica.storage.reports import Reports
from replica.storage.send_queue import LEASE_SECONDS
from replica.storage.state import HandledUpdates, State
from replica.storage.usage import Usage
from replica.storage.volumes import sqlite_journal


class StoreError(Exception):
    """The database cannot be opened or written; the message names the path and what to do."""


class NoDatabase(StoreError):
    """Opened to look at (``read_only``), the SQLite database is not there yet: the app makes it at start."""


def check_writable(folder: Path, create: bool = True) -> None:
    """Create ``folder`` and prove it writable, or raise :class:`StoreError` saying which and what to do.
    With ``create`` false nothing is left behind: a missing folder is judged by the nearest folder above
    it that exists (where it would be made), with a probe file written there and removed."""
    if not create:
        existing = next(f for f in (folder, *folder.parents) if f.exists())
        if not existing.is_dir():
            raise StoreError(
                f"DATA_DIR {folder} cannot be created ({existing} is a file); "
                "set DATA_DIR to a folder the app may create and write"
            )
        folder = existing
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


RECORD_TABLES = (
    "codes",
    "answer_mails",
    "capped_alerts",
    "telegram_links",
    "messages",
    "deliveries",
    "outbox",
    "conversations",
    "answers",
    "leads",
    "askers",
    "questions",
    "usage_events",
    "daily_calls",
    "handled_updates",
    "reply_figures",
    "page_opens",
    "phrasings",
)


class Store:
    """The database (SQLite at ``path``, or PostgreSQL at ``database_url``) and its repositories.

    ``alert_caps`` maps an alert kind (a lead, a question) to how many alerts one visitor session may
    raise; records beyond the cap are stored but not alerted. ``clock`` stamps the records (its ``time()``, epoch seconds).
    ``alert_channels`` are the keys of the alert channels beside Telegram: each alert is queued for
    Telegram (it waits there until Telegram is configured) and for each of them.
    ``code_caps``: how many code mails and tries verified contacts allow (``CODE_MAILS_PER_DAY`` among them).
    ``read_only``: to look without changing anything (``doctor``): nothing is created, no migration is
    applied, ``pending`` lists those the next start would apply, and ``empty`` is true for a database that
    holds no table yet (a new one: the next start makes every table).
    """

    def __init__(
        self,
        path: Path,
        alert_caps: Mapping[AlertKind, int] | None = None,
        database_url: str | None = None,
        lease_seconds: float = LEASE_SECONDS,
        clock: Clock = REAL_CLOCK,
        alert_channels: tuple[str, ...] = (),
        journal: SqliteJournal = "auto",
        read_only: bool = False,
        code_caps: CodeCaps = CodeCaps(),
    ):
        if read_only and not database_url and not path.is_file():
            raise NoDatabase(f"{path} does not exist yet; the app makes it at its first start")
        if not database_url and not read_only:
            check_writable(path.parent)
        try:
            self.db: Database = open_database(
                path, database_url, sqlite_journal(path.parent, journal), read_only, clock
            )
            self.pending = pending(self.db) if read_only else []
            self.empty = read_only and is_empty(self.db)
            if not read_only:
                migrate(self.db, clock=clock)
        except DatabaseError as error:
            raise StoreError(str(error)) from None
        except storage_errors() as error:  # a file SQLite opens but cannot use: a migration fails on it
            raise StoreError(
                f"{path} cannot be used as the database ({error}); move that file aside or set DATA_DIR to another folder"
            ) from None
        self.deliveries = Deliveries(self.db, (TELEGRAM, *alert_channels), lease_seconds, clock)
        self.outbox = Outbox(self.db, self.deliveries, alert_caps, clock)
        self.leads = Leads(self.db, self.outbox, clock)
        self.codes = Codes(self.db, clock, lease_seconds, code_caps)
        self.answer_mails = AnswerMails(self.db, clock, lease_seconds)
        self.questions = Questions(self.db, self.outbox, clock)
        self.answers = Answers(self.db, clock)
        self.phrasings = Phrasings(self.db, clock)
        self.conversations = ConversationRecords(self.db)
        self.reports = Reports(self.db, self.conversations)
        self.usage = Usage(self.db, clock)
        self.figures = Figures(self.db)
        self.state = State(self.db)
        self.handled_updates = HandledUpdates(self.db)

    def clear_records(self) -> None:
        """Delete every record in one transaction: leads, questions, learned answers, conversations, alerts
        and their deliveries, usage counts. The app's own state (the address salt, the bot's offset) stays."""

        def steps(tx: Transaction) -> None:
            for table in RECORD_TABLES:  # those that refer to others first
                tx.execute(f"DELETE FROM {table}")

        self.db.write(steps)

    def close(self) -> None:
        """Close the database."""
        self.db.close()
