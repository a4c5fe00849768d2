"""Alerts beside Telegram, through Apprise: each channel its own delivery, state, retries and lease, in
the same outbox; plain text within the service's length; folded when busy; no secret anywhere. Offline,
through Apprise's json://, form:// and ntfy:// against a local stand-in. The senders and the store run on
a hand clock (``tests/fixtures/clock.py``) with the production pace, backoff, lease and give-up times,
which the tests move through instead of waiting them out."""

from __future__ import annotations

import base64
import csv
import io
import logging
import re

import pytest
from PIL import Image

from replica.alerts import Alert
from replica.alerts.apprise_channel import parse_channels
from replica.alerts.sender import AlertSender
from replica.alerts.telegram_channel import TelegramChannel
from replica.settings import ConfigError, load_settings
from replica.storage.deliveries import TELEGRAM
from replica.storage.records import AlertKind, Role
from replica.storage.store import Store
from replica.telegram.client import TelegramClient
from tests.fakes.openai_server import FakeOpenAI, call, say
from tests.fakes.tcp_proxy import TcpProxy
from tests.fakes.webhook_server import FakeWebhook
from tests.fixtures.clock import HandClock
from tests.fixtures.databases import telegram_pending
from tests.fixtures.environment import API_KEY, free_port, wait_until
from tests.fixtures.processes import run_app, served_app

SECRET = "s3cret-Passw0rd"
TOPIC = "jordan-private-topic"


@pytest.fixture
def webhook():
    server = FakeWebhook()
    yield server
    server.close()


@pytest.fixture
def other():
    server = FakeWebhook()
    yield server
    server.close()


@pytest.fixture
def clock():
    return HandClock()


def host_of(server) -> str:
    return server.url.split("//", 1)[1]


def lead_alert(email: str, notes: str = "Wants a data platform", name: str = "Jane", session: str = "s1") -> Alert:
    return Alert(
        AlertKind.LEAD, "New lead", (("Name", name), ("Email", email), ("Notes", notes)), session, quoted=("Notes",)
    )


def record_lead(store: Store, email: str, **options) -> None:
    alert = lead_alert(email, **options)
    store.leads.record(email, dict(alert.fields)["Name"], dict(alert.fields)["Notes"], alert.entry())


def open_with(tmp_path, database_url, urls, **options):
    """The test's store with a channel for each of ``urls`` (and Telegram); ``clock=`` the hand clock, for
    a test whose senders run on it."""
    channels, problems = parse_channels(tuple(urls))
    assert problems == []
    store = Store(
        tmp_path / "data" / "replica.sqlite3",
        alert_caps={"lead": 1000, "question": 1000},
        database_url=database_url,
        alert_channels=tuple(c.key for c in channels),
        **options,
    )
    return store, channels


def beside_telegram(store) -> dict[str, int]:
    """How many deliveries wait for each channel beside Telegram, by key."""
    return {key: s.pending for key, s in store.deliveries.summary().items() if s.pending and key != TELEGRAM}


def senders_for(store, channels, clock, fold_after=5, **options):
    """A started sender for each channel, with the production timings, on the hand clock."""
    return [AlertSender(store, channel, fold_after, clock=clock, **options).start() for channel in channels]


def close_all(*workers):
    for worker in workers:
        worker.close()


def test_every_alert_is_queued_once_per_channel_and_each_gets_it_once(
    tmp_path, database_url, webhook, other, fake_telegram, clock
):
    store, channels = open_with(
        tmp_path, database_url, [f"json://{host_of(webhook)}/hook", f"form://{host_of(other)}/f"], clock=clock
    )
    record_lead(store, "jane@example.com", notes="Line one\nLine two")
    assert sorted(beside_telegram(store).values()) == [1, 1]  # queued with the lead, in its transaction
    client = TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id)
    telegram = AlertSender(store, TelegramChannel(client), clock=clock).start()
    workers = senders_for(store, channels, clock)
    try:
        clock.settle(workers=3)
        assert len(webhook.received) == len(other.received) == len(fake_telegram.delivered) == 1
        assert beside_telegram(store) == {}
    finally:
        close_all(telegram, *workers)
    [message] = webhook.received
    assert message.title == "New lead #1" and "jane@example.com" in message.text
    assert "New lead" not in message.text  # the title once, as the title
    assert "│ Line one\n│ Line two" in message.text  # visitor text quoted, as in Telegram
    assert "<b>" not in message.text and "Reply to this message" not in message.text
    assert other.received[0].text == message.text
    assert len(webhook.received) == len(other.received) == len(fake_telegram.delivered) == 1
    store.close()


def test_one_channel_failing_never_delays_or_repeats_another(tmp_path, database_url, webhook, other, clock):
    store, channels = open_with(
        tmp_path, database_url, [f"json://{host_of(webhook)}/hook", f"json://{host_of(other)}/h"], clock=clock
    )
    webhook.gate.clear()  # the first channel hangs, then fails
    webhook.fail_next(503, times=4)
    record_lead(store, "jane@example.com")
    workers = senders_for(store, channels, clock)
    try:
        assert wait_until(lambda: len(other.received) == 1)  # the other channel did not wait for it
        assert webhook.received == []
        webhook.gate.set()
        clock.run_until(lambda: len(webhook.received) == 1, workers=2)  # then it recovers
    finally:
        close_all(*workers)
    assert webhook.attempts == 5 and len(other.received) == 1 and other.attempts == 1
    store.close()


def test_a_timeout_and_a_refused_connection_are_retried_until_the_service_takes_it(tmp_path, webhook, clock, caplog):
    proxy = TcpProxy("127.0.0.1", int(host_of(webhook).split(":")[1]))
    store, [slow, refused] = open_with(
        tmp_path,
        None,
        [f"json://{host_of(webhook)}/slow?rto=0.5", f"json://127.0.0.1:{proxy.port}/{TOPIC}"],
        clock=clock,
    )
    proxy.cut()  # connection refused
    webhook.delay = 1.0  # longer than the slow channel's read timeout: the one real wait here
    record_lead(store, "jane@example.com")
    workers = senders_for(store, [slow, refused], clock)
    try:
        tries = lambda channel: next(r.attempts for r in store.deliveries.rows() if r.channel == channel.key)  # noqa: E731
        clock.run_until(lambda: tries(slow) >= 2 and tries(refused) >= 2, workers=2)
        webhook.delay = 0.0
        proxy.restore()
        clock.run_until(lambda: beside_telegram(store) == {}, workers=2)
    finally:
        close_all(*workers)
        proxy.close()
    assert [r.path for r in webhook.received].count(f"/{TOPIC}") == 1
    assert "Connection error" in caplog.text and TOPIC not in caplog.text
    store.close()


def test_pending_deliveries_survive_a_restart(tmp_path, database_url, webhook, clock):
    url = f"json://{host_of(webhook)}/hook"
    store, _ = open_with(tmp_path, database_url, [url], clock=clock)
    record_lead(store, "jane@example.com")
    store.close()  # the app stops before the channel was reached
    store, channels = open_with(tmp_path, database_url, [url], clock=clock)
    workers = senders_for(store, channels, clock)
    try:
        clock.settle()
        assert len(webhook.received) == 1 and beside_telegram(store) == {}
    finally:
        close_all(*workers)
    store.close()


def test_forty_leads_while_the_channel_is_slow_arrive_in_a_handful_of_messages(tmp_path, webhook, clock):
    # json:// rather than ntfy://: Apprise spaces consecutive ntfy messages by 5.5 s, which only slows the test.
    store, channels = open_with(tmp_path, None, [f"json://{host_of(webhook)}/{TOPIC}"], clock=clock)
    webhook.gate.clear()  # the service hangs on the first alert while the crowd arrives
    workers = senders_for(store, channels, clock, fold_after=5)
    try:
        for n in range(40):
            record_lead(store, f"visitor{n}@example.com", name=f"Visitor {n}\n• Forged Person", session=f"s{n}")
            workers[0].notify(None)
        assert wait_until(lambda: webhook.attempts == 1)
        webhook.gate.set()
        clock.run_until(lambda: beside_telegram(store) == {})
    finally:
        close_all(*workers)
    messages = webhook.received
    assert len(messages) <= 5, [m.title for m in messages]
    named = {int(n) for m in messages for n in re.findall(r"visitor(\d+)@example\.com", m.text)}
    counted = sum(int(n) for m in messages for n in re.findall(r"… and (\d+) more", m.text))
    assert len(named) + counted == 40 and counted == 0  # all fit in the service's length here: every lead named
    folds = [m for m in messages if re.fullmatch(r"\d+ new leads", m.title)]
    assert folds and all(line.startswith("#") for m in folds for line in m.text.splitlines())
    assert not any(line.startswith("•") for m in messages for line in m.text.splitlines())  # no forged lines
    rows = store.deliveries.rows()
    assert sum(1 for r in rows if r.folded > 1) >= 30
    store.close()


def test_a_fold_is_cut_at_the_channels_length_with_the_rest_counted(tmp_path, webhook, clock):
    store, [channel] = open_with(tmp_path, None, [f"json://{host_of(webhook)}/hook"], clock=clock)
    channel.plugin.body_maxlen = 600  # a service with short messages
    for n in range(30):
        record_lead(store, f"visitor{n}@example.com", notes="x" * 150, session=f"s{n}")
    workers = senders_for(store, [channel], clock, fold_after=5)
    try:
        clock.settle()
        assert beside_telegram(store) == {}
    finally:
        close_all(*workers)
    [message] = webhook.received
    named = re.findall(r"visitor(\d+)@example\.com", message.text)
    [rest] = re.findall(r"… and (\d+) more", message.text)
    assert len(message.text) <= 600 and len(named) + int(rest) == 30 and message.title == "30 new leads"
    store.close()


def test_a_long_alert_fits_the_services_length(tmp_path, webhook, clock):
    store, channels = open_with(tmp_path, None, [f"ntfy://{host_of(webhook)}/{TOPIC}"], clock=clock)
    record_lead(store, "jane@example.com", notes="A long story. " * 1000)
    workers = senders_for(store, channels, clock)
    try:
        clock.settle()
        assert len(webhook.received) == 1
    finally:
        close_all(*workers)
    text = webhook.received[0].text
    assert len(text) <= 7800 and "jane@example.com" in text and "more characters" in text
    store.close()


def test_alert_urls_are_read_from_the_environment_and_a_wrong_one_is_named_by_place_only():
    settings = load_settings({"ALERT_URLS": "json://a.example/x, ntfys://ntfy.sh/topic  form://b.example"}, None)
    assert len(settings.alerts.alert_urls) == 3 and SECRET not in repr(settings)
    with pytest.raises(ConfigError) as error:
        load_settings({"ALERT_URLS": f"json://a.example/x,{SECRET}"}, None)
    assert "URL 2" in str(error.value) and SECRET not in str(error.value)


# The app as users run it, doctor and export: no secret from a URL anywhere.


def test_python_app_py_alerts_through_a_channel_without_telegram(tmp_path, webhook):
    model = FakeOpenAI()
    model.default = call(("gather_user_details", {"email": "jane@example.com", "notes": "Hire"}))
    url = f"json://owner:{SECRET}@{host_of(webhook)}/{TOPIC}"
    env = {
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_BASE_URL": model.base_url,
        "ALERT_URLS": url,
        "DATA_DIR": str(tmp_path / "data"),
        "KNOWLEDGE_DIR": str(tmp_path / "knowledge"),
        "OWNER_NAME": "Ada Lovelace",
    }
    log_file = tmp_path / "app.log"

    def channel_rows():
        exported = run_app("export", "alerts", **env).stdout
        assert SECRET not in exported and TOPIC not in exported
        return [r for r in csv.DictReader(io.StringIO(exported)) if r["channel"] != "Telegram"]

    try:
        with served_app(log_file, **env) as (page, _):
            from tests.fixtures.clients import app_client

            model.script(model.default, say("Thanks!"))
            app_client(page).predict("Hire me: jane@example.com", api_name="/chat")
            assert wait_until(lambda: len(webhook.received) == 1, timeout=60)
            # Marked sent once the channel answered: waited for while the app runs, since a stop between
            # the two would rightly leave it pending (and sent again at the next start). The log says so
            # after the mark (read, rather than an export started every poll: each is a Python start).
            assert wait_until(lambda: "Delivered 1 alert(s) to JSON, channel 1" in log_file.read_text(), timeout=60)
            assert [(r["channel"], r["status"]) for r in channel_rows()] == [("JSON, channel 1", "sent")]
    finally:
        model.close()
    assert "jane@example.com" in webhook.received[0].text and webhook.received[0].path == f"/{TOPIC}"
    output = log_file.read_text()
    assert "Telegram is not configured: alerts go to JSON, channel 1" in output
    assert SECRET not in output and TOPIC not in output


def test_doctor_checks_each_url_and_ping_sends_through_each(tmp_path, webhook, caplog):
    urls = f"json://owner:{SECRET}@{host_of(webhook)}/{TOPIC} ntfy://{host_of(webhook)}/{TOPIC} bogus://{SECRET}"
    env = {"ALERT_URLS": urls, "DATA_DIR": str(tmp_path / "data"), "KNOWLEDGE_DIR": str(tmp_path)}
    done = run_app("doctor", **env)
    lines = [line for line in done.stdout.splitlines() if " alerts: " in line]
    assert lines == [
        "✗ alerts: ALERT_URLS URL 3 (bogus://…) is not a URL Apprise knows — fix: write it as Apprise documents "
        "it for the service (docs/alerts.md#other-alert-channels)",
        "✓ alerts: JSON, channel 1: read by Apprise, its server reachable",
        "✓ alerts: ntfy, channel 2: read by Apprise, its server reachable",
    ]
    pinged = run_app("doctor", "--ping", **env)
    assert "✓ alerts: JSON, channel 1: a test message was sent" in pinged.stdout
    assert len(webhook.received) == 2 and all("Replica doctor" in m.text for m in webhook.received)
    for output in (done.stdout, done.stderr, pinged.stdout, pinged.stderr, caplog.text):
        assert SECRET not in output and TOPIC not in output


def test_doctor_counts_what_waits_for_a_channel(tmp_path):
    url = "json://127.0.0.1:9/hook"  # nothing listens there
    store, _ = open_with(tmp_path, None, [url])
    record_lead(store, "jane@example.com")
    store.close()
    done = run_app("doctor", ALERT_URLS=url, DATA_DIR=str(tmp_path / "data"), KNOWLEDGE_DIR=str(tmp_path))
    assert "✗ alerts: JSON, channel 1: its server cannot be reached (ConnectionRefusedError)" in done.stdout
    assert "! alerts: 1 alert(s) waiting for JSON, channel 1" in done.stdout


@pytest.fixture(autouse=True)
def quiet(caplog):
    caplog.set_level(logging.INFO)


def test_telegram_folds_a_crowd_of_leads_into_one_message_and_sends_the_rest_one_by_one(
    tmp_path, database_url, fake_telegram, clock
):
    store, _ = open_with(tmp_path, database_url, [], clock=clock)
    for n in range(12):
        record_lead(store, f"visitor{n}@example.com", name=f"V{n}\n• Forged <b>bold</b>", session=f"s{n}")
    client = TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id)
    sender = AlertSender(store, TelegramChannel(client), fold_after=5, clock=clock).start()
    try:
        clock.settle()
        assert telegram_pending(store) == 0
        record_lead(store, "late@example.com", session="late")  # alone again: its own message, with buttons
        sender.notify(None)
        clock.run_until(lambda: len(fake_telegram.delivered) == 2)
    finally:
        sender.close()
    crowd, late = fake_telegram.delivered
    assert crowd.text.startswith("12 new leads\n#1 ") and "/leads" in crowd.text
    assert all(f"visitor{n}@example.com" in crowd.text for n in range(12))
    assert not any(line.startswith("•") for line in crowd.text.splitlines())  # no forged lines
    assert "<b>bold</b>" in crowd.text  # visitor markup shown as typed, never as formatting
    assert "late@example.com" in late.text and late.text.startswith("New lead #13")
    assert crowd.buttons == [] and late.buttons
    store.close()


def test_a_delivery_leased_to_one_instance_is_no_one_elses_until_the_lease_ends(tmp_path, database_url, clock):
    store, [channel] = open_with(tmp_path, database_url, ["json://127.0.0.1:9/hook"], lease_seconds=30, clock=clock)
    record_lead(store, "jane@example.com")
    [delivery] = store.deliveries.waiting(channel.key, 10)
    claim = lambda: store.deliveries.claim(channel.key, [delivery.id], min_interval=0)[1]  # noqa: E731
    assert claim() == {delivery.id}  # this instance's, then it died
    clock.advance(30)
    assert claim() == set() and store.deliveries.waiting(channel.key, 10) == []  # still its own, to the end
    clock.advance(0.001)
    assert claim() == {delivery.id}  # the lease is over: anyone's again
    store.close()


def test_an_alert_an_instance_claimed_before_it_died_goes_out_once_its_lease_ends(
    tmp_path, database_url, fake_telegram, clock
):
    """Two instances on one database: the first claims a lead's alert and dies before sending it; the
    second's sender leaves it alone while the lease (60 s) holds, and sends it at its next look after."""
    died, _ = open_with(tmp_path, database_url, [], clock=clock)
    record_lead(died, "jane@example.com")
    [delivery] = died.deliveries.waiting(TELEGRAM, 10)
    assert died.deliveries.claim(TELEGRAM, [delivery.id], min_interval=0) == (0.0, {delivery.id})
    claimed_at = clock.now
    died.close()
    store, _ = open_with(tmp_path, database_url, [], clock=clock)
    client = TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id)
    sender = AlertSender(store, TelegramChannel(client), clock=clock).start()
    try:
        sent_at = clock.run_until(lambda: len(fake_telegram.delivered) == 1)
    finally:
        sender.close()
    # Not before the lease ends; then within one of the sender's idle looks (30 s).
    assert claimed_at + 60 < sent_at <= claimed_at + 60 + 30
    assert "jane@example.com" in fake_telegram.delivered[0].text and len(fake_telegram.attempts) == 1
    assert [row.alert_status for row in store.leads.all()] == ["sent"]
    store.close()


def test_python_app_py_gives_up_on_a_channel_after_alert_max_attempts_and_says_why(tmp_path, fake_openai):
    """A channel that never takes an alert (nothing listens at its URL) is tried ``ALERT_MAX_ATTEMPTS``
    times, then given up with the reason kept: ``export alerts`` shows it failed and why, ``doctor`` says
    so; the lead itself is kept, its alert still waiting for Telegram."""
    url = f"json://127.0.0.1:{free_port()}/{TOPIC}"
    env = {
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_BASE_URL": fake_openai.base_url,
        "ALERT_URLS": url,
        "ALERT_MAX_ATTEMPTS": "2",
        "DATA_DIR": str(tmp_path / "data"),
        "KNOWLEDGE_DIR": str(tmp_path / "knowledge"),
        "OWNER_NAME": "Ada Lovelace",
    }

    def channel_rows():
        return [
            r
            for r in csv.DictReader(io.StringIO(run_app("export", "alerts", **env).stdout))
            if r["channel"] != "Telegram"
        ]

    log_file = tmp_path / "app.log"
    with served_app(log_file, **env) as (page, _):
        from tests.fixtures.clients import app_client

        fake_openai.script(
            call(("gather_user_details", {"email": "jane@example.com", "notes": "Hire"})), say("Thanks!")
        )
        app_client(page).predict("Hire me: jane@example.com", api_name="/chat")
        assert wait_until(lambda: "alert marked failed" in log_file.read_text(), timeout=30)  # logged once marked
    [row] = channel_rows()
    assert (
        row["status"] == "failed" and row["attempts"] == "2" and row["last_error"].startswith("gave up after 2 tries: ")
    )
    assert "Connection error" in row["last_error"] and TOPIC not in row["last_error"]
    done = run_app("doctor", **env)
    assert "! alerts: JSON, channel 1 gave up on 1 alert(s); the last: gave up after 2 tries: " in done.stdout
    assert [r["email"] for r in csv.DictReader(io.StringIO(run_app("export", "leads", **env).stdout))] == [
        "jane@example.com"
    ]


def test_a_channel_gives_up_on_an_alert_older_than_its_age_limit_and_telegram_on_a_refusal(
    tmp_path, database_url, fake_telegram, clock
):
    store, [channel] = open_with(tmp_path, database_url, [f"json://127.0.0.1:{free_port()}/hook"], clock=clock)
    record_lead(store, "jane@example.com")
    raised_at = clock.now
    fake_telegram.fail_next(401, times=1)  # Unauthorized: no retry can mend it
    client = TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id)
    workers = [
        AlertSender(store, channel, give_up_after=3600.0, clock=clock).start(),  # nothing listens there
        AlertSender(store, TelegramChannel(client), clock=clock).start(),
    ]
    tried = []  # the clock's time at each try to the channel

    def given_up():
        [row] = [r for r in store.deliveries.rows() if r.channel == channel.key]
        tried.extend([clock.now] * (row.attempts - len(tried)))
        return all(s.failed == 1 for s in store.deliveries.summary().values())

    try:
        clock.run_until(given_up, workers=2)
    finally:
        close_all(*workers)
    assert tried[-2] - raised_at < 3600 <= tried[-1] - raised_at  # tried for an hour, given up at the next try
    summary = store.deliveries.summary()
    assert summary[channel.key].last_failure.startswith("gave up after 1 h of tries: ")
    assert summary[TELEGRAM].last_failure.startswith("refused: ") and len(fake_telegram.attempts) == 1
    assert [row.alert_status for row in store.leads.all()] == ["failed"]
    store.close()


def test_every_channel_folds_leads_and_questions_only(tmp_path, webhook, clock):
    """Forwarded visitor messages go one by one on every channel (the owner answers each), however many wait."""
    store, [channel] = open_with(tmp_path, None, [f"json://{host_of(webhook)}/hook"], clock=clock)
    for n in range(8):
        alert = Alert(Role.VISITOR, "Visitor #1 says", (("Message", f"message {n}"),), "s1", quoted=("Message",))
        store.outbox.queue(alert.entry())
    workers = senders_for(store, [channel], clock, fold_after=5)
    try:
        clock.run_until(lambda: beside_telegram(store) == {})
    finally:
        close_all(*workers)
    assert [m.text.count("message ") for m in webhook.received] == [1] * 8
    store.close()


def test_a_channels_pace_is_kept_in_the_database_for_every_instance(tmp_path, database_url, clock):
    """Two instances on one database: once one has sent to a channel, the other waits out the channel's
    pace before it may send, though it holds alerts of its own; another channel is not held up."""
    urls = ["json://127.0.0.1:9/a", "json://127.0.0.1:9/b"]
    first, [a, b] = open_with(tmp_path, database_url, urls, clock=clock)
    second = Store(
        tmp_path / "data" / "replica.sqlite3", database_url=database_url, alert_channels=(a.key, b.key), clock=clock
    )
    for n in range(2):
        record_lead(first, f"v{n}@example.com", session=f"s{n}")
    one, two = first.deliveries.waiting(a.key, 10)
    assert first.deliveries.claim(a.key, [one.id], min_interval=60) == (0.0, {one.id})
    clock.advance(15)
    assert second.deliveries.claim(a.key, [two.id], min_interval=60) == (45.0, set())  # the pace's rest
    assert second.deliveries.claim(b.key, [second.deliveries.waiting(b.key, 1)[0].id], min_interval=60)[0] == 0.0
    clock.advance(45)
    assert second.deliveries.claim(a.key, [two.id], min_interval=60) == (0.0, {two.id})
    first.close()
    second.close()


def test_a_digests_picture_is_attached_where_the_service_takes_files_and_in_words_elsewhere(
    tmp_path, database_url, webhook, other, clock
):
    from dataclasses import replace
    from datetime import date

    from replica.stats.report import Report

    # json:// takes files (Apprise sends them base64 in its body); gotify:// does not.
    store, channels = open_with(
        tmp_path, database_url, [f"json://{host_of(webhook)}/hook", f"gotify://{host_of(other)}/AbCdEfGhIjKlMnO"]
    )
    report = Report("Ada Lovelace", "#c2410c", 1000)
    channels = [
        replace(c, pictures=lambda days: report.draw(store, date.fromisoformat(days[0]), days[1])) for c in channels
    ]
    assert [c.plugin.attachment_support for c in channels] == [True, False]
    digest = Alert(
        AlertKind.DIGEST, "Daily digest for 2026-11-29", (("Conversations", "0"),), picture=("2026-11-29", 7)
    )
    for channel in channels:
        channel.send(digest)
    [attached], [in_words] = webhook.received, other.received
    [file] = attached.body["attachments"]
    assert file["filename"] == "replica-stats.png" and file["mimetype"] == "image/png"
    assert Image.open(io.BytesIO(base64.b64decode(file["base64"]))).size == (1080, 1350)
    assert "Daily digest for 2026-11-29" in attached.title and "Last 7 days" not in attached.text
    assert in_words.text.startswith("Conversations: 0") and "Last 7 days, 2026-11-23 to 2026-11-29" in in_words.text
    store.close()
