"""A database outage neither duplicates an alert nor loses a lead.

PostgreSQL goes away for real (the app reaches it through a TCP proxy that is cut, as a stopped server
is: open connections dropped, new ones refused), and SQLite's disk fills up. The outage lasts longer than
the outbox's real 60 s lease: the store and the sender run on a hand clock (``tests/fixtures/clock.py``),
which the test moves past the lease while the database is away, instead of waiting it out.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from urllib.parse import urlsplit

import openai
import pytest

from replica import wording
from replica.alerts import Alert
from replica.alerts.sender import AlertSender
from replica.alerts.telegram_channel import TelegramChannel
from replica.chat.limits import UsageLimits
from replica.chat.openai_model import OpenAIChatModel
from replica.chat.reply import Visitor
from replica.cli.evaluate import RecordingNotifier
from replica.storage import Store
from replica.storage.records import AlertKind
from replica.storage.send_queue import LEASE_SECONDS
from replica.telegram.client import TelegramClient
from tests.fakes.openai_server import call, say
from tests.fakes.tcp_proxy import TcpProxy
from tests.fixtures.clock import HandClock
from tests.fixtures.databases import fresh_postgres_database
from tests.fixtures.environment import API_KEY
from tests.fixtures.replicas import inbox_of, replica_around


def quietly(check):
    """``check`` as a predicate that is simply false while the database cannot answer."""

    def predicate():
        try:
            return check()
        except Exception:
            return False

    return predicate


@pytest.fixture
def postgres_behind_a_proxy():
    with fresh_postgres_database() as url:
        parts = urlsplit(url)
        proxy = TcpProxy(parts.hostname, parts.port or 5432)
        yield proxy.url_for(url), proxy
        proxy.close()


class SqliteDisk:
    """A SQLite store's disk filling up: while ``cut``, every write fails as SQLite fails it on a full
    disk ("database or disk is full"), and reads go on; ``restore`` frees it. (Injected at the
    database's write, which a test cannot make fail for real short of mounting a small filesystem.)"""

    def __init__(self, store: Store):
        self.full = False
        write = store.db.write

        def write_unless_full(steps):
            if self.full:
                raise sqlite3.OperationalError("database or disk is full")
            return write(steps)

        store.db.write = write_unless_full

    def cut(self) -> None:
        self.full = True

    def restore(self) -> None:
        self.full = False


@pytest.fixture
def clock():
    return HandClock()


@pytest.fixture(params=["postgres-stopped", "sqlite-disk-full"])
def outage(request, tmp_path, clock):
    """``(store, database)``: a store on the hand clock whose ``database.cut()`` makes it fail and
    ``restore()`` heals it."""
    caps = {"lead": 3, "question": 3}
    if request.param == "sqlite-disk-full":
        store = Store(tmp_path / "data" / "replica.sqlite3", alert_caps=caps, clock=clock)
        yield store, SqliteDisk(store)
    else:
        url, proxy = request.getfixturevalue("postgres_behind_a_proxy")
        store = Store(tmp_path / "unused.sqlite3", alert_caps=caps, database_url=url, clock=clock)
        yield store, proxy
    store.close()


def test_an_alert_telegram_accepted_during_the_outage_is_never_sent_again(outage, clock, fake_telegram, caplog):
    store, database = outage
    alert = Alert(
        AlertKind.LEAD, "New lead", (("Email", "ada@example.org"), ("Notes", "Hiring")), "s1", quoted=("Notes",)
    )
    store.leads.record("ada@example.org", "Ada", "Hiring", alert.entry())
    fake_telegram.delay = 0.3
    fake_telegram.on_send = database.cut  # the database goes away while the alert is on its way
    client = TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id)
    sender = AlertSender(store, TelegramChannel(client), clock=clock).start()  # the production timings
    try:
        with caplog.at_level(logging.INFO):
            fake_telegram.wait_for(1)
            fake_telegram.on_send = None
            outage_ends = clock.now + LEASE_SECONDS + 1  # longer than the alert's lease
            clock.run_until(lambda: clock.now >= outage_ends)  # the sender tries, and fails, all along
            database.restore()  # PostgreSQL is looked at again a second (on the clock) after the last try
            clock.run_until(quietly(lambda: store.leads.all() != []))  # the database answers again
            # Recorded sent by the one sender that sends it: no claim, and so no second send, can follow.
            clock.run_until(quietly(lambda: store.leads.all()[0].alert_status == "sent"))
    finally:
        sender.close()
    assert len(fake_telegram.delivered) == 1
    assert "reached Telegram but could not be marked sent" in caplog.text and "not sending it again" in caplog.text


def test_a_lead_given_during_the_outage_is_logged_whole_and_the_first_message_after_it_succeeds(
    outage, clock, fake_openai, caplog, tmp_path
):
    store, database = outage
    notifier = RecordingNotifier()
    inbox = inbox_of(store, "Ada Lovelace", notifier)  # the salt the replica's own inbox uses
    client = openai.OpenAI(api_key=API_KEY, base_url=fake_openai.base_url, max_retries=0, timeout=5)
    replica = replica_around(
        OpenAIChatModel(client, "fake-model"),
        store,
        notifier,
        knowledge_dir=tmp_path / "knowledge",
        reply_deadline_seconds=20,
        check_replies=True,
        limits=UsageLimits.shared(store, 30, 120, 1000, address_key=inbox.recorder.address_hash),
    )
    visitor = Visitor("s1", "203.0.113.9")
    replica.reply("Hello", visitor)  # a conversation under way, and pooled connections that the outage breaks
    database.cut()
    lead = {"email": "ada@example.org", "notes": "Wants to hire Ada for a data platform", "name": "Ada"}
    fake_openai.script(call(("gather_user_details", lead)), say("Thanks, Ada will write to you."))
    with caplog.at_level(logging.ERROR):
        started = time.monotonic()
        answer = replica.reply("Hire me? ada@example.org", visitor)
        took = time.monotonic() - started
    assert took < 20 and answer == f"Thanks, Ada will write to you.\n\n{wording.SAVE_FAILED}"
    [record] = [r for r in caplog.records if "record of last resort" in r.getMessage()]
    assert record.levelno == logging.ERROR and json.dumps(lead["notes"]) in record.getMessage()
    assert "ada@example.org" in record.getMessage() and "Traceback" not in answer

    database.restore()
    clock.advance(1)  # PostgreSQL is looked at again a second (on the store's clock) after the last try
    assert store.leads.all() == []  # the database is back, and answers
    fake_openai.script(call(("gather_user_details", {"email": "grace@example.org", "notes": "n"})), say("Noted!"))
    assert replica.reply("grace@example.org", visitor) == "Noted!"
    assert [row.email for row in store.leads.all()] == ["grace@example.org"]
    assert [alert.kind for alert in notifier.alerts] == ["lead"]
