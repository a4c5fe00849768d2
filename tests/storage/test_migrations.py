"""The schema's migrations: an older database migrated with its records, and ``doctor`` reading any without changing it."""

from __future__ import annotations

from datetime import datetime, timezone

from replica.alerts import Alert
from replica.storage import Store
from replica.storage.deliveries import TELEGRAM
from replica.storage.migrations import MIGRATIONS, applied
from replica.storage.provisioning import columns, database_at
from replica.storage.records import AlertKind, CodeRequest
from tests.fixtures.clock import HandClock
from tests.fixtures.processes import run_app
from tests.storage.test_store import alert, for_telegram


def test_a_database_made_by_the_previous_schema_is_migrated_with_its_times(tmp_path, database_url):
    path = tmp_path / "old" / "replica.sqlite3"
    path.parent.mkdir()
    then = "2026-11-29T15:00:00+00:00"
    # As the version before named migrations left it: seven migrations, counted; times as ISO text.
    database_at(
        path,
        database_url,
        MIGRATIONS[:7],
        [
            ("leads", {"email": "a@x.org", "name": "", "notes": "", "session": "s1", "created_at": then}),
            ("questions", {"question": "Opera?", "session": "s1", "created_at": then}),
            ("answers", {"question_id": 1, "answer": "Tosca.", "created_at": then}),
            (
                "outbox",
                {"kind": "lead", "session": "s1", "alert": "{}", "lead_id": 1, "status": "sent", "due_at": 0}
                | {"created_at": then, "sent_at": then},
            ),
        ],
        counted=True,
    )
    store = Store(path, database_url=database_url)
    try:
        assert applied(store.db) == [(m.number, m.name) for m in MIGRATIONS]  # the seven recorded by name, then 8
        day = datetime(2026, 11, 29, tzinfo=timezone.utc).timestamp()
        assert store.leads.all()[0].created_at == then and store.leads.count_between(day, day + 86400) == 1
        assert store.questions.count_between(day, day + 86400) == 1 and store.answers.all()[0].created_at == then
        assert [(a.session, a.question) for a in store.questions.askers(1)] == [("s1", "Opera?")]  # migration 13
        [delivery] = store.deliveries.rows()  # Telegram's, moved out of the outbox row by migration 12
        assert (delivery.channel, delivery.sent_at, delivery.created_at) == (TELEGRAM, then, then)
    finally:
        store.close()
    again = Store(path, database_url=database_url)  # opening again applies nothing
    again.close()


def test_doctor_reads_a_database_of_the_previous_schema_and_changes_nothing(tmp_path, database_url):
    from replica.storage.database import open_database

    path = tmp_path / "data" / "replica.sqlite3"
    path.parent.mkdir()
    database_at(path, database_url, MIGRATIONS[:-1])  # as the previous version left it: all but the newest
    before = path.read_bytes() if path.exists() and not database_url else None
    env = {"DATA_DIR": str(path.parent), "KNOWLEDGE_DIR": str(tmp_path), "DATABASE_URL": database_url or ""}
    done = run_app("doctor", **env)
    newest = MIGRATIONS[-1]
    assert f"! storage: the database is 1 migration(s) behind: {newest.number} ({newest.name})" in done.stdout
    assert "Traceback" not in done.stderr, done.stderr
    after = open_database(path, database_url)
    try:
        assert applied(after) == [(m.number, m.name) for m in MIGRATIONS[:-1]]
    finally:
        after.close()
    if before is not None:
        assert path.read_bytes() == before and sorted(p.name for p in path.parent.iterdir()) == ["replica.sqlite3"]


def test_doctor_calls_a_new_empty_database_new_not_migrations_behind_and_changes_nothing(tmp_path, database_url):
    from replica.storage.database import open_database
    from replica.storage.migrations import is_empty

    path = tmp_path / "data" / "replica.sqlite3"
    path.parent.mkdir()
    if not database_url:
        path.touch()  # an empty file is an SQLite database with no table (PostgreSQL: the fresh database)
    env = {"DATA_DIR": str(path.parent), "KNOWLEDGE_DIR": str(tmp_path), "DATABASE_URL": database_url or ""}
    done = run_app("doctor", **env)
    assert "✓ storage: new database: the tables are made at first start" in done.stdout
    assert "behind" not in done.stdout and "✓ telegram: no alerts waiting in the outbox" in done.stdout
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stdout + done.stderr
    after = open_database(path, database_url)
    try:
        assert is_empty(after)
    finally:
        after.close()
    Store(path, database_url=database_url).close()  # the first start makes the tables: then it is not new
    done = run_app("doctor", **env)
    assert "new database" not in done.stdout and "behind" not in done.stdout


def test_migration_12_moves_telegrams_deliveries_out_of_the_outbox_with_their_message_ids(tmp_path, database_url):
    """A database of the previous schema (eleven migrations), with one alert sent to Telegram (its message
    id answers the owner's replies) and one still pending after two failed tries: after migration 12 the
    pending one waits for Telegram with its tries and error, the sent one still finds its question and
    conversation, and the outbox holds only the alerts."""
    path = tmp_path / "old" / "replica.sqlite3"
    path.parent.mkdir()
    question = Alert(AlertKind.QUESTION, "Unanswered question", (("Question", "Opera?"),), "s1", conversation=1)
    sent = {"status": "sent", "attempts": 1, "due_at": 1, "created_at": 1, "sent_at": 1, "telegram_message_id": 777}
    waiting = {"status": "pending", "attempts": 2, "due_at": 5, "last_error": "HTTP 502", "created_at": 2}
    database_at(
        path,
        database_url,
        MIGRATIONS[:11],
        [
            ("conversations", {"session": "s1", "address_hash": "h", "started_at": 1, "last_at": 1}),
            ("questions", {"question": "Opera?", "session": "s1", "created_at": 1}),
            ("leads", {"email": "a@x.org", "name": "", "notes": "", "session": "s1", "created_at": 2}),
            (
                "outbox",
                {
                    "kind": "question",
                    "session": "s1",
                    "alert": question.to_json(),
                    "question_id": 1,
                    "conversation_id": 1,
                }
                | sent,
            ),
            ("outbox", {"kind": "lead", "session": "s1", "alert": alert().to_json(), "lead_id": 1} | waiting),
        ],
    )
    store = Store(path, database_url=database_url)
    try:
        assert (12, "Telegram is a delivery channel like the others") in applied(store.db)
        [pending] = for_telegram(store)
        assert (pending.kind, pending.attempts, pending.due_at, pending.ref) == ("lead", 2, 5, 1)
        assert dict(Alert.from_pending(pending).fields)["Email"] == "a@example.org"
        assert store.questions.for_alert(777).question == "Opera?" and store.deliveries.conversation_of(777) == 1
        assert [row.alert_status for row in store.questions.all()] == ["sent"]
        assert [row.alert_status for row in store.leads.all()] == ["pending"]
        assert [(r.channel, r.status, r.last_error) for r in store.deliveries.rows()] == [
            (TELEGRAM, "sent", None),
            (TELEGRAM, "pending", "HTTP 502"),
        ]
        assert columns(store.db, "outbox").isdisjoint(
            {"status", "attempts", "due_at", "telegram_message_id", "lease_until"}
        )
    finally:
        store.close()


def test_migration_16_counts_the_replies_recorded_before_it_for_the_owners_charts(tmp_path, database_url):
    path = tmp_path / "old" / "replica.sqlite3"
    path.parent.mkdir()
    sunday = datetime(2026, 11, 29, 23, 59, 30, tzinfo=timezone.utc).timestamp()
    message = {"conversation_id": 1, "at": sunday, "reply_ms": None, "model_calls": 0}
    database_at(
        path,
        database_url,
        MIGRATIONS[:15],
        [
            ("conversations", {"session": "s1", "address_hash": "h", "started_at": sunday, "last_at": sunday}),
            ("messages", message | {"role": "visitor", "text": "Hi"}),
            ("messages", message | {"role": "replica", "text": "Hello", "model_calls": 2, "reply_ms": 900}),
            ("messages", message | {"role": "visitor", "text": "Are you there?", "at": sunday + 60}),
            ("messages", message | {"role": "notice", "text": "Passed on", "reply_ms": 40, "at": sunday + 60}),
            ("messages", message | {"role": "owner", "text": "Yes!", "at": sunday + 90}),  # no reply: not counted
        ],
    )
    store = Store(path, database_url=database_url)
    try:
        rows = {(r.day, r.answered): r for r in store.figures.by_day("2026-11-29", "2026-11-30")}
        assert rows.keys() == {("2026-11-29", "model"), ("2026-11-30", "owner")}  # each on its UTC day
        model = rows[("2026-11-29", "model")]
        assert (model.replies, model.opened, model.model_calls, model.tokens) == (1, 1, 2, 0)
        assert rows[("2026-11-30", "owner")].opened == 0
        assert store.figures.median_reply_ms("2026-11-29", "2026-11-30") == 40
    finally:
        store.close()


def test_migration_17_counts_the_codes_asked_for_before_it_by_their_address(tmp_path, database_url):
    """A database of the previous schema with three code mails to one address in the last hour: after
    migration 17 they count for its mailbox, so a fourth, however the address is written, is refused."""
    path = tmp_path / "old" / "replica.sqlite3"
    path.parent.mkdir()
    clock = HandClock()
    code = {"email": "ada@example.org", "address": "client", "created_at": clock.now - 600, "due_at": clock.now - 600}
    database_at(path, database_url, MIGRATIONS[:16], [("codes", code | {"session": f"s{n}"}) for n in range(3)])
    store = Store(path, database_url=database_url, clock=clock)
    try:
        assert (17, MIGRATIONS[16].name) in applied(store.db)
        refused, _ = store.codes.request("s9", "Ada+1@example.org", "another-client", "ada@example.org")
        assert refused is CodeRequest.ADDRESS_CAPPED
        assert store.codes.request("s9", "bob@example.org", "another-client")[0] is CodeRequest.QUEUED
    finally:
        store.close()
