"""The SQLite store: records and their alerts written together, once, and kept across reopenings."""

from __future__ import annotations

import threading
from dataclasses import replace

from replica.alerts import Alert
from replica.storage.store import MIGRATIONS, Recorded, Store


def alert(kind="lead", session="s1", email="a@example.org"):
    return Alert(kind, "New lead" if kind == "lead" else "Unanswered question", (("Email", email),), session)


def test_lead_and_its_alert_are_stored_together_once(store):
    assert store.record_lead("a@example.org", "Ada", "hi", alert()) is Recorded.ALERTED
    assert store.record_lead("a@example.org", "Ada", "hi again", alert()) is Recorded.DUPLICATE
    assert [row["notes"] for row in store.leads()] == ["hi"]
    pending = store.next_alert()
    assert pending.alert == replace(alert(), ref=1) and store.next_alert().id == pending.id  # "New lead #1"


def test_the_same_email_from_another_visitor_is_a_new_lead(store):
    store.record_lead("a@example.org", "Ada", "hi", alert(session="s1"))
    assert store.record_lead("a@example.org", "Ada", "hi", alert(session="s2")) is Recorded.ALERTED


def test_caps_count_per_visitor_and_per_kind(store):
    outcomes = [store.record_lead(f"{n}@example.org", "", "", alert(email=f"{n}@example.org")) for n in range(5)]
    assert outcomes == [Recorded.ALERTED] * 3 + [Recorded.CAPPED] * 2
    assert store.record_question("q?", alert("question")) is Recorded.ALERTED
    assert store.record_lead("x@example.org", "", "", alert(session="other", email="x@example.org")) is Recorded.ALERTED
    assert [row["alert_status"] for row in store.leads()] == ["pending"] * 3 + ["capped"] * 2 + ["pending"]


def test_pending_alerts_survive_reopening_and_sent_ones_do_not_return(tmp_path):
    path = tmp_path / "db.sqlite3"
    first = Store(path)
    first.record_lead("a@example.org", "", "", alert(email="a@example.org"))
    first.record_lead("b@example.org", "", "", alert(email="b@example.org"))
    first.mark_sent(first.next_alert().id)
    first.close()
    again = Store(path)
    assert dict(again.next_alert().alert.fields)["Email"] == "b@example.org"
    assert again.db.execute_raw("PRAGMA journal_mode")[0][0] == "wal"
    assert again.db.execute_raw("PRAGMA user_version")[0][0] == len(MIGRATIONS)
    again.close()


def test_failed_and_rescheduled_alerts(store):
    store.record_lead("a@example.org", "", "", alert())
    pending = store.next_alert()
    store.reschedule(pending.id, due_at=pending.due_at + 60, error="HTTP 500")
    again = store.next_alert()
    assert again.attempts == 1 and again.due_at == pending.due_at + 60
    store.mark_failed(pending.id, "Unauthorized")
    assert store.next_alert() is None and store.leads()[0]["alert_status"] == "failed"


def test_concurrent_writers_lose_nothing(store):
    def write(n):
        store.record_lead(f"{n}@example.org", "", "", alert(session=f"s{n}", email=f"{n}@example.org"))
        store.record_question(f"q{n}", alert("question", session=f"s{n}"))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(store.leads()) == 20 and len(store.questions()) == 20
    assert store.read("SELECT COUNT(*) AS n FROM outbox")[0]["n"] == 40


def test_small_state_such_as_the_bots_offset_is_kept_and_replaced(store):
    assert store.get_state("telegram_update_offset") is None
    store.set_state("telegram_update_offset", "501")
    store.set_state("telegram_update_offset", "502")
    assert store.get_state("telegram_update_offset") == "502"


def test_the_same_question_from_the_same_visitor_is_stored_once(store):
    question = Alert("question", "Unanswered question", (("Question", "q"),), "s1")
    assert store.record_question("What is your salary?", question) is Recorded.ALERTED
    assert store.record_question("what is your  salary", question) is Recorded.DUPLICATE
    assert store.record_question("What is your salary?", replace(question, session_id="s2")) is Recorded.ALERTED


def test_the_sqlite_database_and_its_wal_are_the_owners_only(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "replica.sqlite3").touch(mode=0o644)  # made by an earlier version, readable by all
    store = Store(folder / "replica.sqlite3")
    try:
        store.set_state("k", "v")
        files = [folder / name for name in ("replica.sqlite3", "replica.sqlite3-wal", "replica.sqlite3-shm")]
        assert all(path.exists() and path.stat().st_mode & 0o777 == 0o600 for path in files)
    finally:
        store.close()


def test_usage_is_counted_under_salted_hashes_and_swept_on_a_clock(store, monkeypatch):
    from replica import housekeeping
    from replica.chat.limits import UsageLimits
    from replica.conversations.inbox import Inbox
    from replica.housekeeping import Housekeeper
    from tests.conftest import RecordingNotifier, wait_until

    inbox = Inbox(store, "salt", "Ada", RecordingNotifier())
    limits = UsageLimits.shared(store, 10, 10, 10, address_key=inbox.address_hash)
    assert limits.admit_message("s1", "203.0.113.9") and limits.take_model_call()
    [row] = store.read("SELECT key FROM usage_events")
    assert row["key"] == "address:" + inbox.address_hash("203.0.113.9") and "203.0.113" not in row["key"]
    monkeypatch.setattr(housekeeping, "USAGE_WINDOW_SECONDS", 0.0)  # every count is past its window
    keeper = Housekeeper(store, inbox, RecordingNotifier(), 90, None, 10, interval=0.05).start()
    try:
        assert wait_until(lambda: store.read("SELECT COUNT(*) AS n FROM usage_events")[0]["n"] == 0)
    finally:
        keeper.close()
