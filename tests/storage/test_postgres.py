"""Past one machine: the app on PostgreSQL, instances that start together, and several senders on one
database delivering each alert once, at one shared pace."""

from __future__ import annotations

import csv
import io
import threading
from urllib.parse import urlsplit

import pytest

from replica.alerts import Alert
from replica.alerts.sender import AlertSender
from replica.alerts.telegram_channel import TelegramChannel
from replica.storage import Store
from replica.storage.deliveries import TELEGRAM
from replica.storage.migrations import MIGRATIONS, applied
from replica.storage.records import AlertKind
from replica.telegram.client import TelegramClient
from tests.fakes.openai_server import call, say
from tests.fixtures.clients import app_client
from tests.fixtures.clock import START, HandClock
from tests.fixtures.databases import fresh_postgres_database, telegram_pending
from tests.fixtures.environment import wait_until
from tests.fixtures.processes import run_app


@pytest.fixture
def postgres_url():
    with fresh_postgres_database() as url:
        yield url


def lead(n: int) -> Alert:
    return Alert(AlertKind.LEAD, "New lead", (("Email", f"v{n}@example.org"),), f"s{n}")


def test_the_app_runs_on_postgres_unchanged(postgres_url, start_app, settings, fake_openai, fake_telegram, tmp_path):
    on_postgres = settings.updated(database_url=postgres_url, data_dir=tmp_path / "instance-disk")
    app = start_app(on_postgres)
    fake_openai.script(call(("gather_user_details", {"email": "pg@example.org", "notes": "Hosting"})), say("Thanks!"))
    assert app_client(app.demo.local_url).predict("pg@example.org", api_name="/chat") == "Thanks!"
    [alert] = fake_telegram.wait_for(1)
    assert "pg@example.org" in alert.text and "Conversation: #1" in alert.text
    assert not (tmp_path / "instance-disk" / "replica.sqlite3").exists()  # nothing kept on the instance's disk
    assert app.store.usage.keys() == [
        "address:" + app.inbox.recorder.address_hash("127.0.0.1")
    ]  # a salted hash, never the address
    done = run_app("export", "leads", DATABASE_URL=postgres_url, DATA_DIR=str(tmp_path / "elsewhere"))
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [(r["email"], r["alert_status"]) for r in rows] == [("pg@example.org", "sent")]


def test_two_instances_starting_at_once_migrate_once(postgres_url, tmp_path):
    stores, errors = [], []

    def start(n):
        try:
            stores.append(Store(tmp_path / f"i{n}" / "x.sqlite3", database_url=postgres_url))
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=start, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and len(stores) == 2
    assert applied(stores[0].db) == [(m.number, m.name) for m in MIGRATIONS]
    for store in stores:
        store.close()


def test_two_instances_deliver_every_alert_exactly_once_at_one_shared_pace(postgres_url, fake_telegram, tmp_path):
    stores = [Store(tmp_path / f"i{n}" / "x.sqlite3", database_url=postgres_url) for n in range(2)]
    for n in range(12):
        stores[0].leads.record(f"v{n}@example.org", "", "", lead(n).entry())
    senders = [
        # fold_after: one message per alert, as this counts each alert's deliveries
        AlertSender(
            store,
            TelegramChannel(TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id)),
            min_interval=0.1,
            base_delay=0.1,
            fold_after=100,
        )
        for store in stores
    ]
    try:
        for sender in senders:
            sender.start()
        delivered = fake_telegram.wait_for(12, timeout=20)
        # Every delivery recorded sent: nothing is left for either sender, so no duplicate can follow.
        assert wait_until(lambda: telegram_pending(stores[0]) == 0)
    finally:
        for sender in senders:
            sender.close()
        for store in stores:
            store.close()
    emails = [d.text.split("Email: ")[1].split("\n")[0] for d in fake_telegram.delivered]
    assert sorted(emails) == sorted(f"v{n}@example.org" for n in range(12)) and len(emails) == 12  # no duplicate
    # One shared pace: twelve messages take eleven intervals, as from one sender (two paces of their own
    # would take half that, the messages in pairs). Measured where they arrive, where a busy machine
    # holds a send up now and then: so the span, with room for that, not each gap.
    assert delivered[-1].at - delivered[0].at >= 11 * 0.1 * 0.8


def test_an_alert_claimed_by_an_instance_that_died_is_sent_after_its_lease(tmp_path, database_url, fake_telegram):
    clock = HandClock()
    store = Store(tmp_path / "lease" / "replica.sqlite3", database_url=database_url, lease_seconds=45, clock=clock)
    store.leads.record("v1@example.org", "", "", lead(1).entry())
    [pending] = store.deliveries.waiting(TELEGRAM, 10)
    assert store.deliveries.claim(TELEGRAM, [pending.id], min_interval=0) == (0.0, {pending.id})  # then it died
    assert store.deliveries.waiting(TELEGRAM, 10) == []  # leased: not anyone's
    assert store.deliveries.claim(TELEGRAM, [pending.id], min_interval=0)[1] == set()
    channel = TelegramChannel(TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id))
    sender = AlertSender(store, channel, idle_poll=30, clock=clock).start()
    try:
        sent_at = clock.run_until(lambda: len(fake_telegram.delivered) == 1)
    finally:
        sender.close()
        store.close()
    # The sender looks at once and 30 s on, while the lease (45 s) holds; at its look 60 s on, it sends.
    assert sent_at == START + 60 and "v1@example.org" in fake_telegram.delivered[0].text


def test_address_and_daily_limits_are_counted_once_across_instances(postgres_url, tmp_path):
    from replica.chat.limits import UsageLimits

    stores = [Store(tmp_path / f"i{n}" / "x.sqlite3", database_url=postgres_url) for n in range(2)]
    try:
        first, second = (UsageLimits.shared(store, 10, 2, 3) for store in stores)
        assert first.admit_message("s1", "203.0.113.7") and second.admit_message("s2", "203.0.113.7")
        assert not first.admit_message("s3", "203.0.113.7")  # the address's 2 an hour, over both instances
        assert second.admit_message("s4", "198.51.100.1")
        assert [first.take_model_call(), second.take_model_call(), first.take_model_call()] == [True] * 3
        assert not second.take_model_call()  # the day's 3, over both instances
    finally:
        for store in stores:
            store.close()


def test_shared_limits_work_on_either_backend(store):
    from replica.chat.limits import UsageLimits

    limits = UsageLimits.shared(store, visitor_per_hour=1, address_per_hour=5, model_calls_per_day=1)
    assert limits.admit_message("s1", "a") and not limits.admit_message("s1", "a")  # the session's own limit
    assert limits.take_model_call() and not limits.take_model_call()


def test_doctor_checks_the_database_url(postgres_url, tmp_path):
    done = run_app("doctor", cwd=tmp_path, DATABASE_URL=postgres_url, DATA_DIR=str(tmp_path / "data"))
    assert "✓ storage: records are kept in PostgreSQL (DATABASE_URL answers)" in done.stdout
    parts = urlsplit(postgres_url)
    assert f":{parts.password}@" not in done.stdout + done.stderr  # the URL's password is never printed
    host = parts.netloc.rsplit("@", 1)[-1]
    wrong = parts._replace(netloc=f"{parts.username}:Wr0ng-pass-x@{host}").geturl()
    done = run_app("doctor", cwd=tmp_path, DATABASE_URL=wrong, DATA_DIR=str(tmp_path / "data"))
    assert "✗ storage: DATABASE_URL cannot be reached" in done.stdout and done.returncode == 1
    assert "Wr0ng-pass-x" not in done.stdout + done.stderr
