"""The per-visitor alert caps, as the owner notices them: leads and questions past a visitor's cap are
stored without an alert, said in the log once a minute, counted by ``/status``, and told of by the next
alert from the same address, also after a restart; against the Telegram stand-in and the fake model,
on both databases. The store and the Telegram sender run on a hand clock (``tests/fixtures/clock.py``):
an hour passes when the test says so, and the sender's pace (one message a second) costs no time."""

from __future__ import annotations

import logging

import openai
import pytest

from replica.alerts import Alert
from replica.alerts.sender import AlertSender
from replica.alerts.telegram_channel import TelegramChannel
from replica.chat.openai_model import OpenAIChatModel
from replica.chat.reply import Visitor
from replica.owner_bot.bot import OwnerBot
from replica.storage.records import AlertKind, Recorded
from replica.storage.store import Store
from replica.telegram.client import TelegramClient
from tests.fakes.openai_server import call, say
from tests.fixtures.clock import HandClock
from tests.fixtures.databases import telegram_pending
from tests.fixtures.environment import API_KEY, wait_until
from tests.fixtures.replicas import inbox_of, replica_around

OFFICE = "203.0.113.7"  # every visitor of these tests comes from this one address


class Instance:
    """One running app's parts on ``store``: the Telegram sender, the owner's bot, and the replica
    answering through the fake model."""

    def __init__(self, store: Store, clock: HandClock, fake_openai, fake_telegram):
        def client():
            return TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id, timeout=(1, 2))

        self.store = store
        self.sender = AlertSender(store, TelegramChannel(client()), clock=clock).start()
        self.bot = OwnerBot(store, inbox_of(store, notifier=self.sender), client(), poll_seconds=0.2).start()
        sdk = openai.OpenAI(api_key=API_KEY, base_url=fake_openai.base_url, max_retries=1, timeout=5)
        self.replica = replica_around(OpenAIChatModel(sdk, "fake-model"), store, self.sender)
        self.fake_openai = fake_openai

    def lead(self, email: str, session: str) -> str:
        """A visitor from the office leaves ``email``; the replica's answer."""
        args = {"email": email, "notes": "Wants to talk", "name": "Ada"}
        self.fake_openai.script(call(("gather_user_details", args)), say("Noted."))
        return self.replica.reply(f"Contact me at {email}", Visitor(session, OFFICE))

    def close(self) -> None:
        self.bot.close()
        self.sender.close()
        self.store.close()


@pytest.fixture
def clock():
    return HandClock()


@pytest.fixture
def open_store(tmp_path, database_url, clock):
    """Open the test's store (again, after a "restart"), with the default caps of 3 and the hand clock."""
    return lambda: Store(
        tmp_path / "caps" / "replica.sqlite3",
        alert_caps={AlertKind.LEAD: 3, AlertKind.QUESTION: 3},
        database_url=database_url,
        clock=clock,
    )


@pytest.fixture
def start(open_store, clock, fake_openai, fake_telegram):
    started = []

    def start_instance() -> Instance:
        started.append(Instance(open_store(), clock, fake_openai, fake_telegram))
        return started[-1]

    yield start_instance
    for instance in started:
        instance.close()


def status(fake_telegram) -> str:
    """The owner sends /status; the bot's answer, as the owner reads it."""
    before = len(fake_telegram.delivered)
    fake_telegram.push("/status")
    assert wait_until(lambda: any("Alerts in the last 24 hours" in t for t in fake_telegram.sent_texts()[before:]))
    return next(t for t in fake_telegram.sent_texts()[before:] if "Alerts in the last 24 hours" in t)


def lead_alerts(clock, fake_telegram, count: int) -> list[str]:
    """The lead alerts the owner got, once the sender, its clock moved on from wait to wait, has sent
    ``count`` of them (the bot's answers left aside)."""

    def alerts():
        return [text for text in fake_telegram.sent_texts() if text.startswith("New lead")]

    clock.run_until(lambda: len(alerts()) >= count)
    return alerts()


def kept_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("Kept ")]


def test_five_leads_from_one_address_three_alerts_then_status_and_the_next_alert_tell_of_the_two_kept(
    start, clock, fake_telegram, caplog
):
    first = start()
    with caplog.at_level(logging.WARNING, logger="replica.storage.outbox"):
        for n in range(1, 6):  # five colleagues in one office, each in a browser session of their own
            assert first.lead(f"colleague{n}@example.org", f"office-{n}") == "Noted."
    alerts = lead_alerts(clock, fake_telegram, 3)
    assert telegram_pending(first.store) == 0
    assert [f"colleague{n}@example.org" in text for n, text in enumerate(alerts, 1)] == [True] * 3
    assert len(alerts) == 3 and not any("kept without an alert" in text for text in alerts)
    [line] = kept_lines(caplog)  # once, though two were kept in that minute: the next line counts the rest
    assert line.startswith("Kept 1 lead(s) without an alert") and "LEAD_ALERTS_PER_VISITOR, 3 alert(s)" in line
    assert "raise LEAD_ALERTS_PER_VISITOR" in line

    report = status(fake_telegram)
    assert "Raised: 3 leads, 0 questions." in report
    assert "Kept without an alert: 2 leads. Each is stored: /leads lists them." in report
    assert "• 2 leads from 1 address, past the cap of 3 lead alerts per address within an hour" in report
    assert "LEAD_ALERTS_PER_VISITOR" in report and "Deliveries waiting: none." in report

    first.close()  # a restart: what the next alert says is stored, not remembered
    clock.advance(3600)  # the office's hour has passed
    second = start()
    assert second.lead("newcomer@example.org", "office-6") == "Noted."
    [alert] = lead_alerts(clock, fake_telegram, 4)[3:]
    assert "newcomer@example.org" in alert
    assert "2 more leads from the same address were kept without an alert." in alert
    assert "(2 of these told so far)" in status(fake_telegram)

    assert second.lead("another@example.org", "office-7") == "Noted."  # told once: the next alert is plain
    [plain] = lead_alerts(clock, fake_telegram, 5)[4:]
    assert "another@example.org" in plain and "kept without an alert" not in plain


def test_a_flood_kept_back_is_one_log_line_a_minute_and_the_next_counts_what_it_held_back(
    tmp_path, database_url, clock, caplog
):
    store = Store(tmp_path / "flood.sqlite3", alert_caps={AlertKind.LEAD: 3}, database_url=database_url, clock=clock)
    try:
        with caplog.at_level(logging.WARNING, logger="replica.storage.outbox"):
            for n in range(8):  # one session: three alerts, then five kept
                entry = Alert(AlertKind.LEAD, "New lead", (("Email", f"{n}@example.org"),), "s1").entry()
                store.leads.record(f"{n}@example.org", "", "", entry)
                clock.advance(10)
            assert [line.split(" without")[0] for line in kept_lines(caplog)] == ["Kept 1 lead(s)"]
            clock.advance(30)  # a minute after the first line
            entry = Alert(AlertKind.LEAD, "New lead", (("Email", "last@example.org"),), "s1").entry()
            assert store.leads.record("last@example.org", "", "", entry) is Recorded.CAPPED
        assert [line.split(" without")[0] for line in kept_lines(caplog)] == ["Kept 1 lead(s)", "Kept 5 lead(s)"]
    finally:
        store.close()


def test_status_says_why_a_session_was_kept_back_and_that_nothing_was(open_store, fake_telegram):
    store = open_store()
    bot = OwnerBot(
        store,
        inbox_of(store),
        TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id, timeout=(1, 2)),
        poll_seconds=0.2,
    ).start()
    try:
        assert "Raised: 0 leads, 0 questions.\nKept without an alert: none." in status(fake_telegram)
        for n in range(4):  # a visitor whose address is not known: the session's cap
            entry = Alert(AlertKind.QUESTION, "Unanswered question", (("Question", f"Q{n}?"),), "s1").entry()
            store.questions.record(f"Q{n}?", entry)
        report = status(fake_telegram)
        assert "Kept without an alert: 1 question. Each is stored: /unanswered lists them." in report
        assert "• 1 question from 1 browser session, past the cap of 3 question alerts per browser session" in report
        assert "QUESTION_ALERTS_PER_VISITOR" in report and "LEAD_ALERTS_PER_VISITOR" not in report
        assert "Deliveries waiting: 3." in report  # nothing sends them here
    finally:
        bot.close()
        store.close()
