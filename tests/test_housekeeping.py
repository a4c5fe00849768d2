"""Work on a clock (replica/housekeeping.py): old conversations deleted at start, and the daily digest
sent once a day at its hour, across restarts."""

from __future__ import annotations

import json
import time
from datetime import datetime, timezone

from replica.alerts import Alert
from replica.cli.evaluate import RecordingNotifier
from replica.housekeeping import DIGEST_KEY, Housekeeper
from replica.inbox import Inbox
from replica.storage import Store
from replica.storage.deliveries import TELEGRAM
from tests.fixtures.environment import wait_until


def test_retention_deletes_old_conversations_at_start(tmp_path, store):
    now = [time.time() - 100 * 86400]
    inbox = Inbox.build(store, "salt", "Ada", RecordingNotifier(), clock=lambda: now[0])
    old = inbox.recorder.begin("old-session", "1.2.3.4")
    inbox.recorder.record(old.id, "visitor", "Long ago")
    now[0] = time.time()
    recent = inbox.recorder.begin("new-session", "1.2.3.4")
    inbox.recorder.record(recent.id, "visitor", "Today")
    keeper = Housekeeper(
        store,
        inbox.recorder,
        inbox.handoff,
        RecordingNotifier(),
        retention_days=90,
        digest_hour_utc=None,
        daily_budget=10,
    )
    keeper.start()
    try:
        assert wait_until(lambda: [c["conversation"] for c in store.reports.records()] == [recent.id])
    finally:
        keeper.close()
    assert [m["text"] for c in store.reports.records() for m in c["messages"]] == ["Today"]


def test_the_daily_digest_is_sent_once_a_day_even_across_restarts(tmp_path, database_url):
    yesterday = datetime(2026, 11, 29, 15, tzinfo=timezone.utc).timestamp()
    store = Store(tmp_path / "digest" / "replica.sqlite3", database_url=database_url, clock=lambda: yesterday)
    inbox = Inbox.build(store, "salt", "Ada", RecordingNotifier(), clock=lambda: yesterday)
    for n, text in enumerate(["What is your rate?", "what is your rate", "Do you do dbt?", "Hi"]):
        conversation = inbox.recorder.begin(f"s{n}", "1.2.3.4")
        inbox.recorder.record(conversation.id, "visitor", text)
        inbox.recorder.record(conversation.id, "replica", "…", model_calls=2)
    store.leads.record("a@example.org", "", "", Alert("lead", "New lead", (("Email", "a@example.org"),), "s0").entry())

    def housekeeper():
        now = datetime(2026, 11, 30, 9, 5, tzinfo=timezone.utc)
        return Housekeeper(
            store, inbox.recorder, inbox.handoff, RecordingNotifier(), 90, 8, daily_budget=1000, now=lambda: now
        )

    for _ in range(2):  # a restart: a second housekeeper on the same database, each doing its round
        housekeeper().step()
        assert store.state.get(DIGEST_KEY) == "2026-11-29"
    [digest] = [d.payload for d in store.deliveries.waiting(TELEGRAM, 100) if d.kind == "digest"]
    store.close()
    fields = dict(json.loads(digest)["fields"])
    assert fields["Conversations"] == "4" and fields["Visitor messages"] == "4" and fields["Leads"] == "1"
    assert fields["Model calls"] == "8 of 1000 a day"
    assert fields["Most asked"].startswith("2× what is your rate")


def test_no_digest_before_its_hour_or_without_the_setting(store):
    inbox = Inbox.build(store, "salt", "Ada", RecordingNotifier())
    early = datetime(2026, 11, 30, 7, 59, tzinfo=timezone.utc)
    for hour in (8, None):
        keeper = Housekeeper(
            store, inbox.recorder, inbox.handoff, RecordingNotifier(), 90, hour, 1000, now=lambda: early
        )
        keeper.step()  # its round: what the thread does every few minutes
    assert store.deliveries.rows() == []
