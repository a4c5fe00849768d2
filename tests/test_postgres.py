"""Past one machine: the app on PostgreSQL, instances that start together, and several senders on one
database delivering each alert once, at one shared pace."""

from __future__ import annotations

import csv
import io
import threading
import time
from dataclasses import replace

import pytest
from gradio_client import Client

from replica.notify import Alert
from replica.notify.delivery import OutboxSender
from replica.notify.telegram import TelegramClient
from replica.store import MIGRATIONS, Store
from tests.conftest import fresh_postgres_database, run_app
from tests.fakes.openai_server import call, say


@pytest.fixture
def postgres_url():
    with fresh_postgres_database() as url:
        yield url


def lead(n: int) -> Alert:
    return Alert("lead", "New lead", (("Email", f"v{n}@example.org"),), f"s{n}")


def test_the_app_runs_on_postgres_unchanged(postgres_url, start_app, settings, fake_openai, fake_telegram, tmp_path):
    on_postgres = replace(settings, database_url=postgres_url, data_dir=tmp_path / "instance-disk")
    app = start_app(on_postgres)
    fake_openai.script(call(("gather_user_details", {"email": "pg@example.org", "notes": "Hosting"})), say("Thanks!"))
    assert Client(app.demo.local_url, verbose=False).predict("pg@example.org", api_name="/chat") == "Thanks!"
    [alert] = fake_telegram.wait_for(1)
    assert "pg@example.org" in alert.text and "Conversation: #1" in alert.text
    assert not (tmp_path / "instance-disk" / "replica.sqlite3").exists()  # nothing kept on the instance's disk
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
    assert stores[0].read("SELECT version FROM schema_version") == [{"version": len(MIGRATIONS)}]
    for store in stores:
        store.close()


def test_two_instances_deliver_every_alert_exactly_once_at_one_shared_pace(postgres_url, fake_telegram, tmp_path):
    stores = [Store(tmp_path / f"i{n}" / "x.sqlite3", database_url=postgres_url) for n in range(2)]
    for n in range(12):
        stores[0].record_lead(f"v{n}@example.org", "", "", lead(n))
    senders = [
        OutboxSender(store, TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id), 0.1, 0.1)
        for store in stores
    ]
    try:
        for sender in senders:
            sender.start()
        delivered = fake_telegram.wait_for(12, timeout=20)
        time.sleep(0.5)
    finally:
        for sender in senders:
            sender.close()
        for store in stores:
            store.close()
    emails = [d.text.split("Email: ")[1].split("\n")[0] for d in fake_telegram.delivered]
    assert sorted(emails) == sorted(f"v{n}@example.org" for n in range(12)) and len(emails) == 12  # no duplicate
    gaps = [b.at - a.at for a, b in zip(delivered, delivered[1:])]
    assert min(gaps) >= 0.09  # about one message per interval across both instances


def test_an_alert_claimed_by_an_instance_that_died_is_sent_after_its_lease(store, fake_telegram):
    store.record_lead("v1@example.org", "", "", lead(1))
    pending = store.next_alert()
    assert store.claim(pending.id, min_interval=0, lease=1.0) == 0.0  # claimed, then the instance died
    assert store.next_alert() is None and store.claim(pending.id, min_interval=0) > 0  # leased: not anyone's
    sender = OutboxSender(
        store, TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id), 0.05, 0.1, idle_poll=0.2
    ).start()
    try:
        started = time.monotonic()
        [message] = fake_telegram.wait_for(1, timeout=10)
        assert "v1@example.org" in message.text and time.monotonic() - started >= 0.5
    finally:
        sender.close()
