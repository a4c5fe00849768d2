"""Work on a clock (replica/owner_bot/housekeeping.py): old conversations deleted at start, and the daily digest
sent once a day at its hour, across restarts; the weekday's digest with the week's picture."""

from __future__ import annotations

import json
import time
from datetime import date, datetime, timezone

from replica.alerts import Alert
from replica.alerts.sender import AlertSender
from replica.alerts.telegram_channel import TelegramChannel
from replica.cli.evaluate import RecordingNotifier
from replica.inbox import Inbox
from replica.owner_bot.housekeeping import DIGEST_KEY, Housekeeper
from replica.stats.report import Report
from replica.storage import Store
from replica.storage.deliveries import TELEGRAM
from replica.storage.records import AlertKind
from replica.telegram.client import TelegramClient
from tests.fixtures.environment import wait_until
from tests.fixtures.replicas import asked


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
    store.leads.record(
        "a@example.org", "", "", Alert(AlertKind.LEAD, "New lead", (("Email", "a@example.org"),), "s0").entry()
    )

    def housekeeper():
        now = datetime(2026, 11, 30, 9, 5, tzinfo=timezone.utc)
        return Housekeeper(
            store, inbox.recorder, inbox.handoff, RecordingNotifier(), 90, 8, daily_budget=1000, now=lambda: now
        )

    for _ in range(2):  # a restart: a second housekeeper on the same database, each doing its round
        housekeeper().step()
        assert store.state.get(DIGEST_KEY) == "2026-11-29"
    [digest] = [d.payload for d in store.deliveries.waiting(TELEGRAM, 100) if d.kind == AlertKind.DIGEST]
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


def test_the_digest_of_the_weekday_brings_the_weeks_picture_and_questions_once_across_restarts(
    tmp_path, database_url, fake_telegram
):
    # Sunday the 29th: two visitors ask what the files don't answer; one of them leaves an address.
    sunday = datetime(2026, 11, 29, 15, tzinfo=timezone.utc).timestamp()
    started = time.time()  # the store's clock runs from Sunday afternoon on: the sender paces by it
    store = Store(
        tmp_path / "week" / "replica.sqlite3", database_url=database_url, clock=lambda: sunday + time.time() - started
    )
    inbox = Inbox.build(store, "salt", "Ada", RecordingNotifier(), clock=lambda: sunday)
    for n in range(2):
        number = asked(store, inbox, f"s{n}", "Do you work weekends?", email="a@example.org" if n == 0 else None)
        inbox.recorder.count(number, True, "passed_on", 0, 0, 900)  # the reply's figures, as the reply keeps them
    client = TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id)
    report = Report("Ada Lovelace", "#c2410c", 1000)
    channel = TelegramChannel(client, lambda days: report.draw(store, date.fromisoformat(days[0]), days[1]))

    def housekeeper(now: datetime, weekday: int = 0) -> Housekeeper:
        return Housekeeper(
            store,
            inbox.recorder,
            inbox.handoff,
            RecordingNotifier(),
            90,
            8,
            1000,
            now=lambda: now,
            digest_weekday=weekday,
        )

    monday = datetime(2026, 11, 30, 9, 5, tzinfo=timezone.utc)
    for _ in range(2):  # a restart: a second housekeeper on the same database, each doing its round
        housekeeper(monday).step()
    sender = AlertSender(store, channel, min_interval=0.05, base_delay=0.1).start()
    try:
        fake_telegram.wait_for(5, timeout=30)  # the lead, the question, the picture, its questions, the digest
    finally:
        sender.close()
    # The question and lead alerts, then the picture of Monday the 23rd to Sunday the 29th, its open
    # questions with their buttons, and the day's digest: each once.
    photo, questions, digest = fake_telegram.delivered[-3:]
    assert [d.photo is not None for d in fake_telegram.delivered].count(True) == 1
    assert photo.photo[1].startswith(b"\x89PNG") and photo.text.startswith("Last 7 days, 2026-11-23 to 2026-11-29")
    assert "Conversations: 2 (0)" in photo.text and "Leads: 1 (0)" in photo.text
    assert "Questions passed on: 2, 0 answered since" in photo.text
    assert "<b>#1</b> 2× “Do you work weekends?”" in questions.payload["text"]
    assert questions.keys[0] == [("Answer #1: Do you work weekends?", "answer:1")]
    assert digest.text.startswith("Daily digest for 2026-11-29")
    # Another day's digest comes in words alone.
    tuesday = datetime(2026, 12, 1, 9, 5, tzinfo=timezone.utc)
    housekeeper(tuesday).step()
    [waiting] = [d for d in store.deliveries.waiting(TELEGRAM, 100) if d.kind == AlertKind.DIGEST]
    assert json.loads(waiting.payload)["picture"] == []
    store.close()
