"""Work on a clock (replica/owner_bot/housekeeping.py): old conversations deleted at start, and the daily digest
sent once a day at its hour, across restarts; the weekday's digest with the week's picture. Each test keeps
one hand clock (``tests/fixtures/clock.py``) for the store, the conversations, the housekeeper and the sender."""

from __future__ import annotations

import json
from datetime import date

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
from tests.alerts.test_sender import times_of
from tests.fixtures.clock import HandClock, utc
from tests.fixtures.replicas import asked


def test_retention_deletes_old_conversations_at_start(tmp_path, database_url):
    clock = HandClock.on(2026, 8, 22)
    store = Store(tmp_path / "retention" / "replica.sqlite3", database_url=database_url, clock=clock)
    inbox = Inbox.build(store, "salt", "Ada", RecordingNotifier(), clock=clock)
    old = inbox.recorder.begin("old-session", "1.2.3.4")
    inbox.recorder.record(old.id, "visitor", "Long ago")
    clock.now += 10 * 86400 + 60
    edge = inbox.recorder.begin("edge-session", "1.2.3.4")
    inbox.recorder.record(edge.id, "visitor", "A minute short of 90 days ago")
    clock.now += 90 * 86400 - 60  # 100 days after the first
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
        clock=clock,
    )
    keeper.start()
    try:
        clock.settle()  # its first round, at start
    finally:
        keeper.close()
    assert sorted(c["conversation"] for c in store.reports.records()) == [edge.id, recent.id]
    assert [m["text"] for c in store.reports.records() for m in c["messages"]] == [
        "A minute short of 90 days ago",
        "Today",
    ]
    store.close()


def test_the_daily_digest_is_sent_once_a_day_even_across_restarts(tmp_path, database_url):
    clock = HandClock.on(2026, 11, 29, 15)  # Sunday afternoon: the day the digest is about
    store = Store(tmp_path / "digest" / "replica.sqlite3", database_url=database_url, clock=clock)
    inbox = Inbox.build(store, "salt", "Ada", RecordingNotifier(), clock=clock)
    for n, text in enumerate(["What is your rate?", "what is your rate", "Do you do dbt?", "Hi"]):
        conversation = inbox.recorder.begin(f"s{n}", "1.2.3.4")
        inbox.recorder.record(conversation.id, "visitor", text)
        inbox.recorder.record(conversation.id, "replica", "…", model_calls=2)
    store.leads.record(
        "a@example.org", "", "", Alert(AlertKind.LEAD, "New lead", (("Email", "a@example.org"),), "s0").entry()
    )

    def housekeeper():
        return Housekeeper(
            store, inbox.recorder, inbox.handoff, RecordingNotifier(), 90, 8, daily_budget=1000, clock=clock
        )

    clock.now = utc(2026, 11, 30, 9, 5)  # Monday, past the digest's hour (8)
    for _ in range(2):  # a restart: a second housekeeper on the same database, each doing its round
        housekeeper().step()
        assert store.state.get(DIGEST_KEY) == "2026-11-29"
    [digest] = [d.payload for d in store.deliveries.waiting(TELEGRAM, 100) if d.kind == AlertKind.DIGEST]
    store.close()
    fields = dict(json.loads(digest)["fields"])
    assert fields["Conversations"] == "4" and fields["Visitor messages"] == "4" and fields["Leads"] == "1"
    assert fields["Model calls"] == "8 of 1000 a day"
    assert fields["Most asked"].startswith("2× what is your rate")


def test_no_digest_before_its_hour_or_without_the_setting(tmp_path, database_url):
    clock = HandClock.on(2026, 11, 30, 7, 59)
    store = Store(tmp_path / "early" / "replica.sqlite3", database_url=database_url, clock=clock)
    inbox = Inbox.build(store, "salt", "Ada", RecordingNotifier(), clock=clock)

    def round_at(hour):  # a housekeeper's round: what the thread does every minute
        Housekeeper(store, inbox.recorder, inbox.handoff, RecordingNotifier(), 90, hour, 1000, clock=clock).step()

    for hour in (8, None):
        round_at(hour)
    assert store.deliveries.rows() == []
    clock.now += 60  # 08:00
    round_at(None)
    assert store.deliveries.rows() == []  # without the setting, never
    round_at(8)
    assert [row.kind for row in store.deliveries.rows()] == [AlertKind.DIGEST]  # at its hour, Sunday's digest
    store.close()


def test_the_digest_of_the_weekday_brings_the_weeks_picture_and_questions_once_across_restarts(
    tmp_path, database_url, fake_telegram
):
    # Sunday the 29th: two visitors ask what the files don't answer; one of them leaves an address.
    clock = HandClock.on(2026, 11, 29, 15)
    store = Store(tmp_path / "week" / "replica.sqlite3", database_url=database_url, clock=clock)
    inbox = Inbox.build(store, "salt", "Ada", RecordingNotifier(), clock=clock)
    for n in range(2):
        number = asked(store, inbox, f"s{n}", "Do you work weekends?", email="a@example.org" if n == 0 else None)
        inbox.recorder.count(number, True, "passed_on", 0, 0, 900)  # the reply's figures, as the reply keeps them
    client = TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id)
    report = Report("Ada Lovelace", "#c2410c", 1000)
    channel = TelegramChannel(client, lambda days: report.draw(store, date.fromisoformat(days[0]), days[1]))

    def housekeeper() -> Housekeeper:
        return Housekeeper(store, inbox.recorder, inbox.handoff, RecordingNotifier(), 90, 8, 1000, clock=clock)

    monday = clock.now = utc(2026, 11, 30, 9, 5)
    for _ in range(2):  # a restart: a second housekeeper on the same database, each doing its round
        housekeeper().step()
    sender = AlertSender(store, channel, clock=clock).start()
    try:
        times = times_of(clock, lambda: fake_telegram.delivered, 5)
    finally:
        sender.close()
    # The lead, the question, then the digest (the picture, its questions, its words): at the production
    # pace, a second apart.
    assert times == [monday, monday + 1, monday + 2, monday + 2, monday + 2]
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
    clock.now = utc(2026, 12, 1, 9, 5)  # Tuesday
    housekeeper().step()
    [waiting] = [d for d in store.deliveries.waiting(TELEGRAM, 100) if d.kind == AlertKind.DIGEST]
    assert json.loads(waiting.payload)["picture"] == []
    store.close()
