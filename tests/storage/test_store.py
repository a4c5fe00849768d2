"""The SQLite store: records and their alerts written together, once, and kept across reopenings."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import datetime, timezone

import pytest

from replica.alerts import Alert
from replica.knowledge.approved import alike
from replica.storage import Recorded, Store
from replica.storage.deliveries import TELEGRAM
from replica.storage.migrations import MIGRATIONS, applied
from replica.storage.provisioning import columns, database_at
from tests.fixtures.processes import run_app


def for_telegram(store):
    """The deliveries waiting for Telegram, oldest first, as its sender sees them."""
    return store.deliveries.waiting(TELEGRAM, 1000)


def next_for_telegram(store):
    waiting = for_telegram(store)
    return waiting[0] if waiting else None


def alert(kind="lead", session="s1", email="a@example.org"):
    return Alert(kind, "New lead" if kind == "lead" else "Unanswered question", (("Email", email),), session)


def test_lead_and_its_alert_are_stored_together_once(store):
    assert store.leads.record("a@example.org", "Ada", "hi", alert().entry()) is Recorded.ALERTED
    assert store.leads.record("a@example.org", "Ada", "hi again", alert().entry()) is Recorded.DUPLICATE
    assert [row.notes for row in store.leads.all()] == ["hi"]
    pending = next_for_telegram(store)
    assert Alert.from_pending(pending) == replace(alert(), ref=1) and len(for_telegram(store)) == 1  # #1


def test_the_same_email_from_another_visitor_is_a_new_lead(store):
    store.leads.record("a@example.org", "Ada", "hi", alert(session="s1").entry())
    assert store.leads.record("a@example.org", "Ada", "hi", alert(session="s2").entry()) is Recorded.ALERTED


def test_caps_count_per_visitor_and_per_kind(store):
    outcomes = [
        store.leads.record(f"{n}@example.org", "", "", alert(email=f"{n}@example.org").entry()) for n in range(5)
    ]
    assert outcomes == [Recorded.ALERTED] * 3 + [Recorded.CAPPED] * 2
    assert store.questions.record("q?", alert("question").entry()) is Recorded.ALERTED
    assert (
        store.leads.record("x@example.org", "", "", alert(session="other", email="x@example.org").entry())
        is Recorded.ALERTED
    )
    assert [row.alert_status for row in store.leads.all()] == ["pending"] * 3 + ["capped"] * 2 + ["pending"]


def test_what_the_caps_keep_back_is_counted_and_told_once_by_the_next_alert_from_the_same_address(store):
    def lead(n, address="office"):
        entry = replace(alert(session=f"s{n}", email=f"{n}@example.org").entry(), address=address)
        return store.leads.record(f"{n}@example.org", "", "", entry)

    assert [lead(n) for n in range(5)] == [Recorded.ALERTED] * 3 + [Recorded.CAPPED] * 2
    assert lead(5, address="elsewhere") is Recorded.ALERTED  # another address tells nothing of the office's
    [kept] = store.outbox.kept_within(3600)
    assert (kept.kind, kept.reason, kept.records, kept.visitors, kept.told) == ("lead", "address", 2, 1, 0)
    question = replace(alert("question", session="s9").entry(), address="office")
    assert store.questions.record("Opera?", question) is Recorded.ALERTED  # its kind has room: it tells of the leads
    assert [Alert.from_pending(p).notes for p in for_telegram(store)] == [()] * 4 + [
        ("2 more leads from the same address were kept without an alert.",)
    ]
    assert store.outbox.kept_within(3600)[0].told == 2
    assert [(c.kind, c.alerts) for c in store.outbox.raised_within(3600)] == [("lead", 4), ("question", 1)]
    store.clear_records()
    assert store.outbox.kept_within(3600) == [] and store.outbox.raised_within(3600) == []


def test_pending_alerts_survive_reopening_and_sent_ones_do_not_return(tmp_path):
    path = tmp_path / "db.sqlite3"
    first = Store(path)
    first.leads.record("a@example.org", "", "", alert(email="a@example.org").entry())
    first.leads.record("b@example.org", "", "", alert(email="b@example.org").entry())
    first.deliveries.mark_sent([next_for_telegram(first).id])
    first.close()
    again = Store(path)
    assert dict(Alert.from_pending(next_for_telegram(again)).fields)["Email"] == "b@example.org"
    assert again.db.journal == "wal"
    assert applied(again.db) == [(m.number, m.name) for m in MIGRATIONS]
    again.close()


def test_failed_and_rescheduled_alerts(store):
    store.leads.record("a@example.org", "", "", alert().entry())
    pending = next_for_telegram(store)
    store.deliveries.reschedule([pending.id], due_at=pending.due_at + 60, error="HTTP 500")
    again = next_for_telegram(store)
    assert again.attempts == 1 and again.due_at == pending.due_at + 60
    store.deliveries.give_up([pending.id], "refused: Unauthorized")
    assert next_for_telegram(store) is None and store.leads.all()[0].alert_status == "failed"
    assert store.deliveries.summary()[TELEGRAM].last_failure == "refused: Unauthorized"


def test_concurrent_writers_lose_nothing(store):
    def write(n):
        store.leads.record(f"{n}@example.org", "", "", alert(session=f"s{n}", email=f"{n}@example.org").entry())
        store.questions.record(f"q{n}", alert("question", session=f"s{n}").entry())

    threads = [threading.Thread(target=write, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(store.leads.all()) == 20 and len(store.questions.all()) == 20
    assert len(store.deliveries.rows()) == 40


def test_small_state_such_as_the_bots_offset_is_kept_and_replaced(store):
    assert store.state.get("telegram_update_offset") is None
    store.state.set("telegram_update_offset", "501")
    store.state.set("telegram_update_offset", "502")
    assert store.state.get("telegram_update_offset") == "502"


def test_the_same_question_from_the_same_visitor_is_stored_once(store):
    question = Alert("question", "Unanswered question", (("Question", "q"),), "s1")
    assert store.questions.record("What is your salary?", question.entry()) is Recorded.ALERTED
    assert store.questions.record("what is your  salary", question.entry()) is Recorded.DUPLICATE
    # another visitor, while it is open: one more asker of it; once it is closed, a question of its own
    assert store.questions.record("What is your salary?", replace(question, session_id="s2").entry()) is Recorded.JOINED
    store.questions.dismiss(store.questions.in_status()[0].id)
    assert (
        store.questions.record("What is your salary?", replace(question, session_id="s3").entry()) is Recorded.ALERTED
    )


def test_matching_questions_from_several_visitors_are_one_open_question_counting_its_askers(store):
    def ask(question, session):
        return store.questions.record(
            question, Alert("question", "Q", (("Question", question),), session).entry(), alike
        )

    assert ask("What time zone are you in?", "s1") is Recorded.ALERTED
    assert ask("what timezone r u in", "s2") is Recorded.JOINED
    assert ask("Which time zone are you in", "s2") is Recorded.DUPLICATE  # s2 asked it already
    assert ask("Do you refuse to sign NDAs?", "s3") is Recorded.ALERTED
    assert ask("whats ur tz", "s4") is Recorded.JOINED
    assert ask("Do you sign NDAs?", "s4") is Recorded.ALERTED  # not the refusal: another question
    assert [(row.question, row.askers) for row in store.questions.in_status()] == [
        ("What time zone are you in?", 3),
        ("Do you refuse to sign NDAs?", 1),
        ("Do you sign NDAs?", 1),
    ]
    first = store.questions.in_status()[0].id
    assert [(a.session, a.question) for a in store.questions.askers(first)] == [
        ("s1", "What time zone are you in?"),
        ("s2", "what timezone r u in"),
        ("s4", "whats ur tz"),
    ]
    assert [row.alert_status for row in store.questions.all()] == ["pending"] * 3  # one alert per question
    assert [row.askers for row in store.questions.all()] == [3, 1, 1]  # as `export questions` shows them
    assert store.questions.for_session("s2") and not store.questions.for_session("s5")
    assert store.questions.count_between(0, 2e9) == 5  # the digest's "questions passed on": each visitor's


def test_the_sqlite_database_and_its_wal_are_the_owners_only(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "replica.sqlite3").touch(mode=0o644)  # made by an earlier version, readable by all
    store = Store(folder / "replica.sqlite3")
    try:
        store.state.set("k", "v")
        files = [folder / name for name in ("replica.sqlite3", "replica.sqlite3-wal", "replica.sqlite3-shm")]
        assert all(path.exists() and path.stat().st_mode & 0o777 == 0o600 for path in files)
    finally:
        store.close()


def test_usage_is_counted_under_salted_hashes_and_swept_on_a_clock(store, monkeypatch):
    from replica import housekeeping
    from replica.chat.limits import UsageLimits
    from replica.cli.evaluate import RecordingNotifier
    from replica.housekeeping import Housekeeper
    from replica.inbox import Inbox
    from tests.fixtures.environment import wait_until

    inbox = Inbox.build(store, "salt", "Ada", RecordingNotifier())
    limits = UsageLimits.shared(store, 10, 10, 10, address_key=inbox.recorder.address_hash)
    assert limits.admit_message("s1", "203.0.113.9") and limits.take_model_call()
    [key] = store.usage.keys()
    assert key == "address:" + inbox.recorder.address_hash("203.0.113.9") and "203.0.113" not in key
    monkeypatch.setattr(housekeeping, "USAGE_WINDOW_SECONDS", 0.0)  # every count is past its window
    keeper = Housekeeper(store, inbox.recorder, inbox.handoff, RecordingNotifier(), 90, None, 10, interval=0.05).start()
    try:
        assert wait_until(lambda: store.usage.keys() == [])
    finally:
        keeper.close()


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


def test_a_question_mark_or_percent_sign_in_a_literal_is_never_taken_for_a_placeholder(store):
    from replica.storage.database import psycopg_sql

    assert psycopg_sql("SELECT '?', 'it''s ? 5%', \"a?b\" WHERE x = ?") == (
        "SELECT '?', 'it''s ? 5%%', \"a?b\" WHERE x = %s"
    )
    [row] = store.db.read("SELECT 'why?' AS literal, 'it''s 5%' AS percent, ? AS value", (7,))
    assert (row["literal"], row["percent"], row["value"]) == ("why?", "it's 5%", 7)


def test_a_record_is_never_stored_without_its_alert(store, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the outbox insert failed")

    monkeypatch.setattr(store.outbox, "queue_in", broken)
    with pytest.raises(RuntimeError):
        store.leads.record("a@example.org", "Ada", "hi", alert().entry())
    monkeypatch.undo()
    assert store.leads.all() == [] and store.deliveries.rows() == []  # the transaction was rolled back whole


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
    question = Alert("question", "Unanswered question", (("Question", "Opera?"),), "s1", conversation=1)
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
