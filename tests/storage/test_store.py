"""The store: what it holds is kept across reopenings, and writers at once lose nothing."""

from __future__ import annotations

import threading

from replica.alerts import Alert
from replica.storage import Store
from replica.storage.deliveries import TELEGRAM
from replica.storage.migrations import MIGRATIONS, applied


def for_telegram(store):
    """The deliveries waiting for Telegram, oldest first, as its sender sees them."""
    return store.deliveries.waiting(TELEGRAM, 1000)


def next_for_telegram(store):
    waiting = for_telegram(store)
    return waiting[0] if waiting else None


def alert(kind="lead", session="s1", email="a@example.org"):
    return Alert(kind, "New lead" if kind == "lead" else "Unanswered question", (("Email", email),), session)


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
