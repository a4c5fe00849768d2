"""Background work survives anything, and a failing database never multiplies or silently loses an alert.

Database failures are real where the database can make them so (SQLite that may not grow: "database
or disk is full"; PostgreSQL refusing inserts), and injected as ``sqlite3.OperationalError`` where it
cannot. The outbox sender runs on a hand clock (``tests/fixtures/clock.py``) with its production
backoff, which the tests move through instead of waiting it out.
"""

from __future__ import annotations

import json
import logging
import sqlite3

import pytest

from replica import wording
from replica.alerts import Alert
from replica.alerts.sender import AlertSender
from replica.alerts.telegram_channel import TelegramChannel
from replica.chat.reply import Visitor
from replica.owner_bot.bot import OwnerBot
from replica.storage.provisioning import refuse_new_records
from replica.storage.records import AlertKind
from replica.storage.store import Store
from replica.telegram.client import TelegramClient
from replica.telegram.length import utf16_units
from tests.fakes.openai_server import call, say
from tests.fixtures.clock import HandClock
from tests.fixtures.environment import wait_until
from tests.fixtures.replicas import inbox_of


class FlakyStore(Store):
    """A real store whose named repository methods fail the next N times, as a full or broken disk makes them."""

    def fail(self, method: str, times: int = 1) -> None:
        """Make ``method`` (``"deliveries.mark_sent"``: a repository and one of its methods) fail ``times`` times."""
        repository = getattr(self, method.split(".")[0])
        real = getattr(repository, method.split(".")[1])
        left = [times]

        def flaky(*args, **kwargs):
            if left[0] > 0:
                left[0] -= 1
                raise sqlite3.OperationalError("database or disk is full")
            return real(*args, **kwargs)

        setattr(repository, method.split(".")[1], flaky)


@pytest.fixture
def clock():
    return HandClock()


@pytest.fixture
def flaky_store(tmp_path, clock):
    store = FlakyStore(tmp_path / "flaky" / "replica.sqlite3", alert_caps={"lead": 3, "question": 3}, clock=clock)
    yield store
    store.close()


@pytest.fixture
def clocked_store(tmp_path, database_url, clock):
    """A real store, SQLite or PostgreSQL, stamping due times and leases on the hand clock."""
    store = Store(
        tmp_path / "clocked" / "replica.sqlite3", alert_caps={"lead": 3}, database_url=database_url, clock=clock
    )
    yield store
    store.close()


@pytest.fixture
def client(fake_telegram):
    return TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id, timeout=(1, 2))


@pytest.fixture
def run(request):
    """Start background workers (sender or bot) and close them after the test."""
    started = []

    def start(worker):
        started.append(worker.start())
        return worker

    yield start
    for worker in started:
        worker.close()


def lead_alert(email="ada@example.org", session="s1"):
    return Alert(AlertKind.LEAD, "New lead", (("Email", email), ("Notes", "Wants to talk")), session, quoted=("Notes",))


def queue_lead(store, email="ada@example.org", session="s1"):
    store.leads.record(email, "", "Wants to talk", lead_alert(email, session).entry())


# --- the owner bot ---------------------------------------------------------------------------------


def test_the_owner_bot_survives_answers_of_every_wrong_shape(flaky_store, client, fake_telegram, run, caplog):
    fake_telegram.answer_raw(
        "getUpdates",
        b"null",
        b"[1, 2, 3]",
        b"<html>502 Bad Gateway</html>",
        json.dumps({"ok": True, "result": {"not": "a list"}}).encode(),
        json.dumps({"ok": True, "result": [{"message": {"text": "no update_id"}}, "not an update"]}).encode(),
        json.dumps({"ok": True, "result": [{"update_id": 7, "message": ["not", "a", "message"]}]}).encode(),
        json.dumps({"ok": True, "result": [{"update_id": 8, "message": {"chat": "no id", "text": 5}}]}).encode(),
    )
    with caplog.at_level(logging.WARNING):
        run(OwnerBot(flaky_store, inbox_of(flaky_store), client, poll_seconds=0.2, base_delay=0.02))
        fake_telegram.push("/help")
        assert wait_until(lambda: any("/forget N" in t for t in fake_telegram.sent_texts()), timeout=30)
    assert "not a Bot API object" in caplog.text and "not a list" in caplog.text
    assert "without a usable update_id" in caplog.text
    expected = str(fake_telegram.updates[-1]["update_id"] + 1)  # stored just after the reply is sent
    assert wait_until(lambda: flaky_store.state.get("telegram_update_offset") == expected)


def test_the_owner_bot_survives_database_errors_and_handles_nothing_twice(
    flaky_store, client, fake_telegram, run, caplog
):
    flaky_store.questions.record(
        "Do you like cats?", Alert(AlertKind.QUESTION, "Unanswered question", (("Q", "x"),), "s1").entry()
    )
    flaky_store.fail("answers.learn")
    flaky_store.fail("state.set")
    with caplog.at_level(logging.WARNING):
        run(OwnerBot(flaky_store, inbox_of(flaky_store), client, poll_seconds=0.2, base_delay=0.02))
        fake_telegram.push("/answer 1 Yes, two.")
        assert wait_until(lambda: any("failed on my side (OperationalError)" in t for t in fake_telegram.sent_texts()))
        fake_telegram.push("/answer 1 Yes, two of them.")
        assert wait_until(lambda: any("Learned answer #1" in t for t in fake_telegram.sent_texts()))
    polls = len(fake_telegram.polls)
    assert wait_until(lambda: len(fake_telegram.polls) >= polls + 3)  # more polls: neither update comes back
    assert sum("failed on my side" in t for t in fake_telegram.sent_texts()) == 1
    assert sum("Learned answer" in t for t in fake_telegram.sent_texts()) == 1
    assert "Owner bot error (OperationalError)" in caplog.text


# --- the outbox sender -----------------------------------------------------------------------------


def start_sender(store, client, clock):
    """A Telegram sender with the production timings, on the hand clock."""
    return AlertSender(store, TelegramChannel(client), clock=clock)


def test_the_sender_survives_answers_that_are_not_json_or_not_the_documented_shape(
    clocked_store, client, clock, fake_telegram, run, caplog
):
    fake_telegram.answer_raw("sendMessage", b"null", b"<html>oops</html>", b'{"ok": "yes", "result": 1}')
    with caplog.at_level(logging.WARNING):
        queue_lead(clocked_store)
        run(start_sender(clocked_store, client, clock))
        clock.run_until(lambda: clocked_store.leads.all()[0].alert_status == "sent")
    assert len(fake_telegram.delivered) == 1 and "not a Bot API object" in caplog.text
    assert len(fake_telegram.attempts) == 4  # three odd answers, each retried, then the delivery


def test_the_sender_survives_database_errors_with_backoff(flaky_store, client, clock, fake_telegram, run, caplog):
    queue_lead(flaky_store)
    flaky_store.fail("deliveries.waiting", times=3)
    with caplog.at_level(logging.ERROR):
        run(start_sender(flaky_store, client, clock))
        clock.settle()
        failed_at = clock.now
        delivered_at = clock.run_until(lambda: len(fake_telegram.delivered) == 1)
    assert caplog.text.count("Telegram sender error (OperationalError)") == 3
    assert 1 + 2 + 4 <= delivered_at - failed_at <= 1.5 * (1 + 2 + 4)  # backed off, doubling, with jitter


def test_an_alert_that_cannot_be_marked_sent_is_not_sent_again(flaky_store, client, clock, fake_telegram, run, caplog):
    queue_lead(flaky_store)
    flaky_store.fail("deliveries.mark_sent", times=4)
    with caplog.at_level(logging.ERROR):
        run(start_sender(flaky_store, client, clock))
        clock.settle()
        sent_at = clock.now
        recorded_at = clock.run_until(lambda: flaky_store.leads.all()[0].alert_status == "sent")
    assert len(fake_telegram.delivered) == 1 and len(fake_telegram.attempts) == 1
    assert caplog.text.count("could not be marked sent (OperationalError); not sending it again") == 4
    assert 1 + 2 + 4 + 8 <= recorded_at - sent_at <= 1.5 * (1 + 2 + 4 + 8)  # the record retried with backoff


def test_message_is_too_long_is_resent_shorter_as_plain_text(clocked_store, client, clock, fake_telegram, run):
    fake_telegram.too_long_next = 1
    alert = Alert(
        AlertKind.LEAD, "New lead", (("Email", "ada@example.org"), ("Notes", "n" * 4000)), "s1", quoted=("Notes",)
    )
    clocked_store.leads.record("ada@example.org", "", "n" * 4000, alert.entry())
    run(start_sender(clocked_store, client, clock))
    clock.settle()  # the same try: no wait for a retry
    [message] = fake_telegram.delivered
    assert "parse_mode" not in message.payload and utf16_units(message.text) <= 2048
    assert "ada@example.org" in message.text and "[cut:" in message.text
    assert clocked_store.leads.all()[0].alert_status == "sent"


# --- the visitor's side of a full disk -------------------------------------------------------------


@pytest.mark.parametrize(
    "tool_call, kind, what",
    [
        (
            ("gather_user_details", {"email": "grace@example.org", "notes": "Hiring. " * 700}),
            "lead",
            "grace@example.org",
        ),
        (("inform_unknown", {"question": "Will you relocate? " * 300}), "question", "Will you relocate?"),
    ],
    ids=["lead", "question"],
)
def test_a_record_the_full_disk_refuses_is_logged_whole_and_the_visitor_told(
    fake_openai, notifier, store, make_replica, caplog, tool_call, kind, what
):
    refuse_new_records(store.db, ["leads", "questions", "outbox"])  # as a full disk would
    fake_openai.script(call(tool_call), say("Thanks!"))
    with caplog.at_level(logging.ERROR):
        answer = make_replica().reply(f"Here you go: {what}", Visitor("s1"))  # a lead's address is the visitor's
    tool_result = fake_openai.requests[1]["messages"][-1]["content"]
    assert tool_result.startswith(f"Error: the {kind} could not be saved")
    assert answer == f"Thanks!\n\n{wording.SAVE_FAILED}"
    [record] = [r for r in caplog.records if "record of last resort" in r.getMessage()]
    assert record.levelno == logging.ERROR and what in record.getMessage()
    assert json.dumps(tool_call[1][list(tool_call[1])[-1]]) in record.getMessage()  # the long text, whole
    assert notifier.alerts == []


def test_a_lead_the_net_could_not_save_is_said_to_the_visitor(fake_openai, notifier, store, make_replica, caplog):
    refuse_new_records(store.db, ["leads", "questions", "outbox"])  # as a full disk would
    for n in range(2000):  # what room the last pages still have, taken, so that a short lead fits nowhere
        try:
            store.leads.record(f"filler{n}@example.org", "", "", Alert(AlertKind.LEAD, "x", (), f"f{n}").entry())
        except Exception:
            break
    fake_openai.script(say("Thanks, I'll be in touch."))  # the model makes no call: the lead net tries
    with caplog.at_level(logging.ERROR):
        answer = make_replica().reply("Write to me at grace@example.org", Visitor("s1"))
    assert answer == f"Thanks, I'll be in touch.\n\n{wording.SAVE_FAILED}"
    assert any(
        "record of last resort" in r.getMessage() and "grace@example.org" in r.getMessage() for r in caplog.records
    )
    assert notifier.alerts == []
