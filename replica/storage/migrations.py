"""The schema, as numbered and named migrations written once per dialect, and how they are applied.

Each database records the migrations it has had (``schema_migrations``: number, name, when). At start
the missing ones run in order, each in one transaction with its record; on PostgreSQL under an advisory
lock, so two instances starting at once migrate once. A database made before migrations had names
(SQLite's ``user_version``, PostgreSQL's ``schema_version`` table held a count) has that many recorded
by name first. A recorded name that differs from the code's stops the start: the code and the database
disagree about what the schema is.

Times are epoch seconds (``REAL`` / ``DOUBLE PRECISION``) in every table, since migration 8.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from replica.runtime.clock import REAL_CLOCK, Clock
from replica.storage.database import Database, DatabaseError, Transaction, storage_errors, the_row

MIGRATION_LOCK = 72_001  # pg_advisory_xact_lock key: one migrating instance at a time


@dataclass(frozen=True)
class Migration:
    """One step of the schema: its number, what it does, and its statements for each dialect."""

    number: int
    name: str
    sqlite: tuple[str, ...]
    postgres: tuple[str, ...]

    def statements(self, dialect: str) -> tuple[str, ...]:
        return self.sqlite if dialect == "sqlite" else self.postgres


def _iso_to_epoch_sqlite(table: str, columns: str, definition: str, copied: str, indexes: tuple[str, ...]) -> tuple:
    """SQLite cannot change a column's type: the table is made again with epoch-second columns, the
    rows copied with their ISO times converted, and its indexes made again."""
    return (
        f"CREATE TABLE {table}_new ({definition})",
        f"INSERT INTO {table}_new ({columns}) SELECT {copied} FROM {table}",
        f"DROP TABLE {table}",
        f"ALTER TABLE {table}_new RENAME TO {table}",
        *indexes,
    )


def _epoch(column: str) -> str:
    return f"CAST(strftime('%s', {column}) AS REAL)"


def _iso_to_epoch_postgres(table: str, *columns: str) -> str:
    changes = ", ".join(
        f"ALTER COLUMN {column} TYPE DOUBLE PRECISION USING EXTRACT(EPOCH FROM {column}::timestamptz)"
        for column in columns
    )
    return f"ALTER TABLE {table} {changes}"


# What the outbox row held about its delivery to Telegram, before Telegram's deliveries joined the others.
OUTBOX_DELIVERY_COLUMNS = (
    "status",
    "attempts",
    "due_at",
    "last_error",
    "sent_at",
    "telegram_message_id",
    "lease_until",
)


def _telegram_to_deliveries(integer: str) -> tuple[str, ...]:
    """Each outbox row's delivery to Telegram (state, tries, schedule, lease, message id) copied into
    ``deliveries`` as channel ``telegram``, oldest alert first; then those columns leave the outbox, which
    keeps the alert and what it is about. The same statements on both dialects (SQLite 3.35 drops
    columns; an indexed column only once its index is gone)."""
    return (
        f"ALTER TABLE deliveries ADD COLUMN message_id {integer}",
        "INSERT INTO deliveries (alert_id, channel, status, attempts, due_at, lease_until, last_error, sent_at,"
        " folded, message_id) SELECT id, 'telegram', status, attempts, due_at, lease_until, last_error, sent_at,"
        " 1, telegram_message_id FROM outbox ORDER BY id",
        "CREATE INDEX deliveries_message ON deliveries (channel, message_id)",
        "DROP INDEX outbox_pending",
        "DROP INDEX outbox_telegram_message",
        *(f"ALTER TABLE outbox DROP COLUMN {column}" for column in OUTBOX_DELIVERY_COLUMNS),
    )


def _askers_of_questions() -> tuple[str, ...]:
    """Each question's visitor as its first asker, and the indexes askers are found by."""
    return (
        "INSERT INTO askers (question_id, session, question, asked_at)"
        " SELECT id, session, question, created_at FROM questions ORDER BY id",
        "CREATE INDEX askers_session ON askers (session)",
        "CREATE INDEX askers_question ON askers (question_id)",
    )


def _capped_alerts(key: str, integer: str, real: str) -> tuple[str, ...]:
    """A row for each lead or question a visitor's alert cap kept from being alerted: its kind, why,
    the visitor (session, salted address), the record, when; and the alert from the same address that
    later told the owner of it (``told_in``, empty until then)."""
    return (
        f"CREATE TABLE capped_alerts (id {key}, kind TEXT NOT NULL, reason TEXT NOT NULL, session TEXT NOT NULL,"
        f" address TEXT NOT NULL, lead_id {integer} REFERENCES leads(id), question_id {integer} REFERENCES"
        f" questions(id), created_at {real} NOT NULL, told_in {integer} REFERENCES outbox(id))",
        "CREATE INDEX capped_alerts_address ON capped_alerts (address, told_in)",
        "CREATE INDEX capped_alerts_told ON capped_alerts (told_in)",
        "CREATE INDEX capped_alerts_created ON capped_alerts (created_at)",
    )


def _codes(key: str, integer: str, real: str) -> tuple[str, ...]:
    """A code mailed to a visitor, with its mail's delivery (state, tries, schedule, lease): the code itself
    is never stored, only its keyed hash (``digest``), set when the mail is sent."""
    return (
        f"CREATE TABLE codes (id {key}, session TEXT NOT NULL, email TEXT NOT NULL, address TEXT NOT NULL,"
        f" created_at {real} NOT NULL, status TEXT NOT NULL DEFAULT 'pending', attempts {integer} NOT NULL DEFAULT 0,"
        f" due_at {real} NOT NULL, lease_until {real}, last_error TEXT, digest TEXT, issued_at {real},"
        f" sent_at {real}, tries {integer} NOT NULL DEFAULT 0, confirmed_at {real})",
        "CREATE INDEX codes_session ON codes (session, id)",
        "CREATE INDEX codes_email ON codes (email, created_at)",
        "CREATE INDEX codes_address ON codes (address, created_at)",
        "CREATE INDEX codes_pending ON codes (status, id)",
        f"ALTER TABLE leads ADD COLUMN confirmed_at {real}",
        "ALTER TABLE leads ADD COLUMN alert_held INTEGER NOT NULL DEFAULT 0",
        f"CREATE TABLE answer_mails (id {key}, session TEXT NOT NULL, email TEXT NOT NULL, subject TEXT NOT NULL,"
        f" body TEXT NOT NULL, created_at {real} NOT NULL, status TEXT NOT NULL DEFAULT 'offered',"
        f" attempts {integer} NOT NULL DEFAULT 0, due_at {real}, lease_until {real}, last_error TEXT, sent_at {real})",
        "CREATE INDEX answer_mails_pending ON answer_mails (status, id)",
    )


def _mailboxes() -> tuple[str, ...]:
    """The mailbox a code's caps count (``Ada+1@Gmail.com`` and ``a.da@gmail.com`` are one: see
    ``replica/contacts/mailboxes.py``); a code asked for before is counted by its address as written, as
    it was then. The whole app's code mails are counted by the time they were asked for."""
    return (
        "ALTER TABLE codes ADD COLUMN mailbox TEXT",
        "UPDATE codes SET mailbox = email",
        "CREATE INDEX codes_mailbox ON codes (mailbox, created_at)",
        "CREATE INDEX codes_created ON codes (created_at)",
    )


def _phrasings(key: str, real: str) -> tuple[str, ...]:
    """Examples of the approved answers: a phrasing a visitor confirmed as meaning an approved question
    (``meant`` 1), or one the owner answered otherwise though an approved question came close (0)."""
    return (
        f"CREATE TABLE phrasings (id {key}, phrasing TEXT NOT NULL, question TEXT NOT NULL, "
        f"meant INTEGER NOT NULL, created_at {real} NOT NULL, UNIQUE (phrasing, question))",
    )


def _figures(key: str, integer: str, real: str, day_of_at: str) -> tuple[str, ...]:
    """The owner's charts: one row for each visitor message (its UTC day and time, its conversation's
    number, whether it opened the conversation, how it was answered, model calls, tokens, reply time),
    and page opens counted per day, referring host and ``utm_source``. No words, no address: they
    outlive the conversations' retention. Replies recorded before are counted from the messages (how
    each was answered only as far as they tell: a model call, the owner's hand, or another way)."""
    return (
        f"CREATE TABLE reply_figures (id {key}, day TEXT NOT NULL, at {real} NOT NULL,"
        f" conversation_id {integer} NOT NULL, opened INTEGER NOT NULL DEFAULT 0, answered TEXT NOT NULL,"
        f" model_calls {integer} NOT NULL DEFAULT 0, tokens {integer} NOT NULL DEFAULT 0, reply_ms {integer})",
        "CREATE INDEX reply_figures_day ON reply_figures (day)",
        "INSERT INTO reply_figures (day, at, conversation_id, opened, answered, model_calls, reply_ms) "
        f"SELECT {day_of_at.format(at='m.at')}, m.at, m.conversation_id, CASE WHEN m.id = (SELECT MIN(f.id) "
        "FROM messages f WHERE f.conversation_id = m.conversation_id AND f.role IN ('replica', 'notice')) "
        "THEN 1 ELSE 0 END, CASE WHEN m.role = 'notice' THEN 'owner' WHEN m.model_calls > 0 THEN 'model' "
        "ELSE 'other' END, m.model_calls, m.reply_ms FROM messages m "
        "WHERE m.role IN ('replica', 'notice') AND m.reply_ms IS NOT NULL",
        f"CREATE TABLE page_opens (day TEXT NOT NULL, host TEXT NOT NULL, source TEXT NOT NULL,"
        f" opens {integer} NOT NULL, PRIMARY KEY (day, host, source))",
    )


MIGRATIONS = [
    Migration(
        1,
        "leads, questions and the outbox",
        sqlite=(
            "CREATE TABLE leads (id INTEGER PRIMARY KEY, email TEXT NOT NULL, name TEXT NOT NULL, notes TEXT NOT NULL,"
            " session TEXT NOT NULL, created_at TEXT NOT NULL, UNIQUE (session, email))",
            "CREATE TABLE questions (id INTEGER PRIMARY KEY, question TEXT NOT NULL, session TEXT NOT NULL,"
            " created_at TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'open')",
            "CREATE TABLE outbox (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, session TEXT NOT NULL, alert TEXT NOT NULL,"
            " lead_id INTEGER REFERENCES leads(id), question_id INTEGER REFERENCES questions(id),"
            " status TEXT NOT NULL DEFAULT 'pending', attempts INTEGER NOT NULL DEFAULT 0, due_at REAL NOT NULL,"
            " last_error TEXT, created_at TEXT NOT NULL, sent_at TEXT)",
            "CREATE INDEX outbox_pending ON outbox (status, id)",
            "CREATE INDEX outbox_session ON outbox (session, kind)",
        ),
        postgres=(
            "CREATE TABLE leads (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, email TEXT NOT NULL,"
            " name TEXT NOT NULL, notes TEXT NOT NULL, session TEXT NOT NULL, created_at TEXT NOT NULL,"
            " UNIQUE (session, email))",
            "CREATE TABLE questions (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, question TEXT NOT NULL,"
            " session TEXT NOT NULL, created_at TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'open')",
            "CREATE TABLE outbox (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, kind TEXT NOT NULL,"
            " session TEXT NOT NULL, alert TEXT NOT NULL, lead_id BIGINT REFERENCES leads(id),"
            " question_id BIGINT REFERENCES questions(id), status TEXT NOT NULL DEFAULT 'pending',"
            " attempts BIGINT NOT NULL DEFAULT 0, due_at DOUBLE PRECISION NOT NULL, last_error TEXT,"
            " created_at TEXT NOT NULL, sent_at TEXT)",
            "CREATE INDEX outbox_pending ON outbox (status, id)",
            "CREATE INDEX outbox_session ON outbox (session, kind)",
        ),
    ),
    Migration(
        2,
        "answers taught from Telegram, and small state",
        sqlite=(
            "ALTER TABLE outbox ADD COLUMN telegram_message_id INTEGER",
            "CREATE INDEX outbox_telegram_message ON outbox (telegram_message_id)",
            "CREATE TABLE answers (id INTEGER PRIMARY KEY, question_id INTEGER NOT NULL REFERENCES questions(id),"
            " answer TEXT NOT NULL, created_at TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'active')",
            "CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        ),
        postgres=(
            "ALTER TABLE outbox ADD COLUMN telegram_message_id BIGINT",
            "CREATE INDEX outbox_telegram_message ON outbox (telegram_message_id)",
            "CREATE TABLE answers (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
            " question_id BIGINT NOT NULL REFERENCES questions(id), answer TEXT NOT NULL, created_at TEXT NOT NULL,"
            " status TEXT NOT NULL DEFAULT 'active')",
            "CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        ),
    ),
    Migration(
        3,
        "a visitor's questions found by session",
        sqlite=("CREATE INDEX questions_session ON questions (session)",),
        postgres=("CREATE INDEX questions_session ON questions (session)",),
    ),
    Migration(
        4,
        "conversations, their messages, Telegram links and lead triage",
        sqlite=(
            "CREATE TABLE conversations (id INTEGER PRIMARY KEY, session TEXT NOT NULL UNIQUE,"
            " address_hash TEXT NOT NULL, started_at REAL NOT NULL, last_at REAL NOT NULL, paused_until REAL,"
            " handoff_told INTEGER NOT NULL DEFAULT 0)",
            "CREATE INDEX conversations_last ON conversations (last_at)",
            "CREATE TABLE messages (id INTEGER PRIMARY KEY, conversation_id INTEGER NOT NULL"
            " REFERENCES conversations(id), role TEXT NOT NULL, text TEXT NOT NULL, at REAL NOT NULL,"
            " tools TEXT NOT NULL DEFAULT '', model_calls INTEGER NOT NULL DEFAULT 0, reply_ms INTEGER,"
            " shown INTEGER NOT NULL DEFAULT 1)",
            "CREATE INDEX messages_conversation ON messages (conversation_id, id)",
            "CREATE INDEX messages_at ON messages (at)",
            "CREATE TABLE telegram_links (message_id INTEGER PRIMARY KEY, conversation_id INTEGER NOT NULL)",
            "ALTER TABLE outbox ADD COLUMN conversation_id INTEGER",
            "ALTER TABLE leads ADD COLUMN status TEXT NOT NULL DEFAULT 'new'",
        ),
        postgres=(
            "CREATE TABLE conversations (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
            " session TEXT NOT NULL UNIQUE, address_hash TEXT NOT NULL, started_at DOUBLE PRECISION NOT NULL,"
            " last_at DOUBLE PRECISION NOT NULL, paused_until DOUBLE PRECISION, handoff_told BIGINT NOT NULL DEFAULT 0)",
            "CREATE INDEX conversations_last ON conversations (last_at)",
            "CREATE TABLE messages (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
            " conversation_id BIGINT NOT NULL REFERENCES conversations(id), role TEXT NOT NULL, text TEXT NOT NULL,"
            " at DOUBLE PRECISION NOT NULL, tools TEXT NOT NULL DEFAULT '', model_calls BIGINT NOT NULL DEFAULT 0,"
            " reply_ms BIGINT, shown BIGINT NOT NULL DEFAULT 1)",
            "CREATE INDEX messages_conversation ON messages (conversation_id, id)",
            "CREATE INDEX messages_at ON messages (at)",
            "CREATE TABLE telegram_links (message_id BIGINT PRIMARY KEY, conversation_id BIGINT NOT NULL)",
            "ALTER TABLE outbox ADD COLUMN conversation_id BIGINT",
            "ALTER TABLE leads ADD COLUMN status TEXT NOT NULL DEFAULT 'new'",
        ),
    ),
    Migration(
        5,
        "outbox leases, so several instances send each alert once",
        sqlite=(
            "ALTER TABLE outbox ADD COLUMN lease_until REAL",
            "INSERT INTO state (key, value) VALUES ('telegram_last_send', '0') ON CONFLICT (key) DO NOTHING",
        ),
        postgres=(
            "ALTER TABLE outbox ADD COLUMN lease_until DOUBLE PRECISION",
            "INSERT INTO state (key, value) VALUES ('telegram_last_send', '0') ON CONFLICT (key) DO NOTHING",
        ),
    ),
    Migration(
        6,
        "usage limits shared by the instances",
        sqlite=(
            "CREATE TABLE usage_events (key TEXT NOT NULL, at REAL NOT NULL)",
            "CREATE INDEX usage_events_key ON usage_events (key, at)",
            "CREATE TABLE daily_calls (day TEXT PRIMARY KEY, used INTEGER NOT NULL)",
        ),
        postgres=(
            "CREATE TABLE usage_events (key TEXT NOT NULL, at DOUBLE PRECISION NOT NULL)",
            "CREATE INDEX usage_events_key ON usage_events (key, at)",
            "CREATE TABLE daily_calls (day TEXT PRIMARY KEY, used BIGINT NOT NULL)",
        ),
    ),
    Migration(
        7,
        "Telegram webhook updates handled once",
        sqlite=("CREATE TABLE handled_updates (update_id INTEGER PRIMARY KEY)",),
        postgres=("CREATE TABLE handled_updates (update_id BIGINT PRIMARY KEY)",),
    ),
    Migration(
        8,
        "one time format: epoch seconds in every table",
        sqlite=(
            *_iso_to_epoch_sqlite(
                "leads",
                "id, email, name, notes, session, created_at, status",
                "id INTEGER PRIMARY KEY, email TEXT NOT NULL, name TEXT NOT NULL, notes TEXT NOT NULL,"
                " session TEXT NOT NULL, created_at REAL NOT NULL, status TEXT NOT NULL DEFAULT 'new',"
                " UNIQUE (session, email)",
                f"id, email, name, notes, session, {_epoch('created_at')}, status",
                (),
            ),
            *_iso_to_epoch_sqlite(
                "questions",
                "id, question, session, created_at, status",
                "id INTEGER PRIMARY KEY, question TEXT NOT NULL, session TEXT NOT NULL, created_at REAL NOT NULL,"
                " status TEXT NOT NULL DEFAULT 'open'",
                f"id, question, session, {_epoch('created_at')}, status",
                ("CREATE INDEX questions_session ON questions (session)",),
            ),
            *_iso_to_epoch_sqlite(
                "answers",
                "id, question_id, answer, created_at, status",
                "id INTEGER PRIMARY KEY, question_id INTEGER NOT NULL REFERENCES questions(id), answer TEXT NOT NULL,"
                " created_at REAL NOT NULL, status TEXT NOT NULL DEFAULT 'active'",
                f"id, question_id, answer, {_epoch('created_at')}, status",
                (),
            ),
            *_iso_to_epoch_sqlite(
                "outbox",
                "id, kind, session, alert, lead_id, question_id, status, attempts, due_at, last_error, created_at,"
                " sent_at, telegram_message_id, conversation_id, lease_until",
                "id INTEGER PRIMARY KEY, kind TEXT NOT NULL, session TEXT NOT NULL, alert TEXT NOT NULL,"
                " lead_id INTEGER REFERENCES leads(id), question_id INTEGER REFERENCES questions(id),"
                " status TEXT NOT NULL DEFAULT 'pending', attempts INTEGER NOT NULL DEFAULT 0, due_at REAL NOT NULL,"
                " last_error TEXT, created_at REAL NOT NULL, sent_at REAL, telegram_message_id INTEGER,"
                " conversation_id INTEGER, lease_until REAL",
                "id, kind, session, alert, lead_id, question_id, status, attempts, due_at, last_error,"
                f" {_epoch('created_at')}, {_epoch('sent_at')}, telegram_message_id, conversation_id, lease_until",
                (
                    "CREATE INDEX outbox_pending ON outbox (status, id)",
                    "CREATE INDEX outbox_session ON outbox (session, kind)",
                    "CREATE INDEX outbox_telegram_message ON outbox (telegram_message_id)",
                ),
            ),
        ),
        postgres=(
            _iso_to_epoch_postgres("leads", "created_at"),
            _iso_to_epoch_postgres("questions", "created_at"),
            _iso_to_epoch_postgres("answers", "created_at"),
            _iso_to_epoch_postgres("outbox", "created_at", "sent_at"),
        ),
    ),
    Migration(
        9,
        "what each reply's tools did, in words",
        sqlite=("ALTER TABLE messages ADD COLUMN facts TEXT NOT NULL DEFAULT ''",),
        postgres=("ALTER TABLE messages ADD COLUMN facts TEXT NOT NULL DEFAULT ''",),
    ),
    Migration(
        10,
        "each alert's delivery to each channel beside Telegram",
        sqlite=(
            "CREATE TABLE deliveries (id INTEGER PRIMARY KEY, alert_id INTEGER NOT NULL REFERENCES outbox(id),"
            " channel TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'pending', attempts INTEGER NOT NULL DEFAULT 0,"
            " due_at REAL NOT NULL, lease_until REAL, last_error TEXT, sent_at REAL, folded INTEGER NOT NULL DEFAULT 1)",
            "CREATE INDEX deliveries_pending ON deliveries (channel, status, id)",
            "CREATE INDEX deliveries_alert ON deliveries (alert_id)",
        ),
        postgres=(
            "CREATE TABLE deliveries (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
            " alert_id BIGINT NOT NULL REFERENCES outbox(id), channel TEXT NOT NULL,"
            " status TEXT NOT NULL DEFAULT 'pending', attempts BIGINT NOT NULL DEFAULT 0,"
            " due_at DOUBLE PRECISION NOT NULL, lease_until DOUBLE PRECISION, last_error TEXT,"
            " sent_at DOUBLE PRECISION, folded BIGINT NOT NULL DEFAULT 1)",
            "CREATE INDEX deliveries_pending ON deliveries (channel, status, id)",
            "CREATE INDEX deliveries_alert ON deliveries (alert_id)",
        ),
    ),
    Migration(
        11,
        "alert caps per client address",
        sqlite=(
            "ALTER TABLE outbox ADD COLUMN address TEXT NOT NULL DEFAULT ''",
            "CREATE INDEX outbox_address ON outbox (address, kind, created_at)",
        ),
        postgres=(
            "ALTER TABLE outbox ADD COLUMN address TEXT NOT NULL DEFAULT ''",
            "CREATE INDEX outbox_address ON outbox (address, kind, created_at)",
        ),
    ),
    Migration(
        12,
        "Telegram is a delivery channel like the others",
        sqlite=_telegram_to_deliveries("INTEGER"),
        postgres=_telegram_to_deliveries("BIGINT"),
    ),
    Migration(
        13,
        "one open question, asked by several visitors; the conversations a browser keeps",
        sqlite=(
            "CREATE TABLE askers (id INTEGER PRIMARY KEY, question_id INTEGER NOT NULL REFERENCES questions(id),"
            " session TEXT NOT NULL, question TEXT NOT NULL, asked_at REAL NOT NULL)",
            *_askers_of_questions(),
            "ALTER TABLE conversations ADD COLUMN kept_by_browser INTEGER NOT NULL DEFAULT 0",
        ),
        postgres=(
            "CREATE TABLE askers (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
            " question_id BIGINT NOT NULL REFERENCES questions(id), session TEXT NOT NULL, question TEXT NOT NULL,"
            " asked_at DOUBLE PRECISION NOT NULL)",
            *_askers_of_questions(),
            "ALTER TABLE conversations ADD COLUMN kept_by_browser INTEGER NOT NULL DEFAULT 0",
        ),
    ),
    Migration(
        14,
        "leads and questions kept without an alert, and the alert that told of them",
        sqlite=_capped_alerts("INTEGER PRIMARY KEY", "INTEGER", "REAL"),
        postgres=_capped_alerts("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", "BIGINT", "DOUBLE PRECISION"),
    ),
    Migration(
        15,
        "verified contacts: the codes mailed to visitors, and when a lead's address was confirmed",
        sqlite=_codes("INTEGER PRIMARY KEY", "INTEGER", "REAL"),
        postgres=_codes("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", "BIGINT", "DOUBLE PRECISION"),
    ),
    Migration(
        16,
        "the owner's charts: how each visitor message was answered, and page opens by day",
        sqlite=_figures("INTEGER PRIMARY KEY", "INTEGER", "REAL", "date({at}, 'unixepoch')"),
        postgres=_figures(
            "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
            "BIGINT",
            "DOUBLE PRECISION",
            "to_char(to_timestamp({at}) AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
        ),
    ),
    Migration(
        17,
        "verified contacts: the mailbox the caps count, however its address is written",
        sqlite=_mailboxes(),
        postgres=_mailboxes(),
    ),
    Migration(
        18,
        "examples of the approved answers: phrasings visitors confirmed, and the owner's 'not this'",
        sqlite=_phrasings("INTEGER PRIMARY KEY", "REAL"),
        postgres=_phrasings("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", "DOUBLE PRECISION"),
    ),
]

RECORD_TABLE = "CREATE TABLE IF NOT EXISTS schema_migrations (number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"


def pending(db: Database, migrations: list[Migration] = MIGRATIONS) -> list[Migration]:
    """The migrations ``db`` has not had, read without changing anything (a database older than the
    migration record counts as having had none)."""
    try:
        done = {row["number"] for row in db.read("SELECT number FROM schema_migrations")}
    except storage_errors():  # no record table yet: an empty database, or one from before migrations were recorded
        done = set()
    return [migration for migration in migrations if migration.number not in done]


def is_empty(db: Database) -> bool:
    """True when ``db`` holds no table at all: a new database, which the first start makes whole."""
    if db.dialect == "sqlite":
        rows = db.read("SELECT count(*) AS tables FROM sqlite_master WHERE type = 'table'")
    else:
        rows = db.read("SELECT count(*) AS tables FROM information_schema.tables WHERE table_schema = current_schema()")
    return rows[0]["tables"] == 0


def migrate(db: Database, migrations: list[Migration] = MIGRATIONS, clock: Clock = REAL_CLOCK) -> list[Migration]:
    """Apply the migrations ``db`` has not had, in order, each stamped with ``clock``'s time; return those applied."""
    applied = []
    for migration in migrations:
        if db.write(partial(_apply, migration=migration, migrations=migrations, now=clock.time())):
            applied.append(migration)
    return applied


def _apply(tx: Transaction, migration: Migration, migrations: list[Migration], now: float) -> bool:
    """In one transaction: check what is recorded, and apply ``migration`` unless it already was."""
    if tx.dialect == "postgres":
        tx.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
    tx.execute(RECORD_TABLE)
    recorded = {
        row["number"]: row["name"] for row in tx.execute("SELECT number, name FROM schema_migrations").fetchall()
    }
    if not recorded:
        recorded = _record_unnamed(tx, migrations, now)
    if migration.number in recorded:
        if recorded[migration.number] != migration.name:
            raise DatabaseError(
                f"the database records migration {migration.number} as {recorded[migration.number]!r}, "
                f"but this version of the app calls it {migration.name!r}: it was made by another version"
            )
        return False
    for statement in migration.statements(tx.dialect):
        tx.execute(statement)
    tx.execute(
        "INSERT INTO schema_migrations (number, name, applied_at) VALUES (?, ?, ?)",
        (migration.number, migration.name, now),
    )
    return True


def _record_unnamed(tx: Transaction, migrations: list[Migration], now: float) -> dict[int, str]:
    """A database from before migrations had names holds only how many ran: record those by name."""
    if tx.dialect == "sqlite":
        count = the_row(tx.execute("PRAGMA user_version"))["user_version"]
    else:
        found = the_row(tx.execute("SELECT to_regclass('schema_version') AS name"))["name"]
        row = tx.execute("SELECT version FROM schema_version").fetchone() if found else None
        count = row["version"] if row else 0
    for migration in migrations[:count]:
        tx.execute(
            "INSERT INTO schema_migrations (number, name, applied_at) VALUES (?, ?, ?)",
            (migration.number, migration.name, now),
        )
    return {migration.number: migration.name for migration in migrations[:count]}


def applied(db: Database) -> list[tuple[int, str]]:
    """The migrations ``db`` records as applied: (number, name), in order."""
    return [
        (row["number"], row["name"]) for row in db.read("SELECT number, name FROM schema_migrations ORDER BY number")
    ]
