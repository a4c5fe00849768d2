"""The alert sender, delivering the outbox to the Telegram stand-in: the text as typed and cut to the limit,
the pace, retries and their backoff, a 429's wait, a refusal for good, and Telegram out of reach.

The sender and the store run on a hand clock (``tests/fixtures/clock.py``): the pace, the backoff and a
429's ``retry_after`` are the production ones, and their times are asserted exactly, as the clock read
at each attempt the stand-in saw; no test waits them out.
"""

from __future__ import annotations

import logging

import pytest

from replica.alerts import Alert
from replica.alerts.sender import AlertSender, LogNotifier
from replica.alerts.telegram_channel import TelegramChannel
from replica.storage.records import AlertKind
from replica.storage.store import Store
from replica.telegram.client import TelegramClient, TelegramError
from replica.telegram.length import TELEGRAM_LIMIT
from tests.fixtures.clock import HandClock
from tests.fixtures.environment import wait_until


def lead(name="Ada", notes="Wants to talk", email="ada@example.org", session="s-1"):
    return Alert(
        kind=AlertKind.LEAD,
        title="New lead",
        fields=(("Name", name), ("Email", email), ("Notes", notes)),
        session_id=session,
    )


def queue_lead(store, sender=None, **fields):
    alert = lead(**fields)
    store.leads.record(
        dict(alert.fields)["Email"], dict(alert.fields)["Name"], dict(alert.fields)["Notes"], alert.entry()
    )
    if sender:
        sender.notify(alert)
    return alert


def times_of(clock, happened, count):
    """The clock's time at each of the first ``count`` things ``happened()`` lists (the stand-in's attempts
    or deliveries), moving it from one of the sender's waits to the next until there are that many. Nothing
    happens while the clock stands still, so each is stamped with the time the sender woke at."""
    times = []

    def seen():
        times.extend([clock.now] * (len(happened()) - len(times)))
        return len(times) >= count

    clock.run_until(seen)
    return times[:count]


@pytest.fixture
def clock():
    return HandClock()


@pytest.fixture
def store(tmp_path, database_url, clock):
    """The test's store, stamping due times and leases on the hand clock."""
    db = Store(
        tmp_path / "unit" / "replica.sqlite3",
        alert_caps={"lead": 3, "question": 3},
        database_url=database_url,
        clock=clock,
    )
    yield db
    db.close()


@pytest.fixture
def client(fake_telegram):
    return TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id, timeout=(1, 2))


@pytest.fixture
def start_sender(store, client, clock):
    """Start a Telegram sender with the production timings, on the hand clock."""
    senders = []

    def start(**options):
        channel = TelegramChannel(options.pop("client", client))
        senders.append(AlertSender(store, channel, clock=clock, **options).start())
        return senders[-1]

    yield start
    for sender in senders:
        sender.close()


def test_visitor_text_arrives_exactly_as_typed(fake_telegram, store, start_sender):
    name = "Ada <b>Lovelace</b> & Co"
    notes = "<script>alert(1)</script> *bold* _it_ [link](x) `code` &amp; 5 < 6"
    queue_lead(store, start_sender(), name=name, notes=notes)
    [message] = fake_telegram.wait_for(1)
    assert f"Name: “{name}”" in message.text and f"Notes: {notes}" in message.text  # the name quoted
    assert message.text.startswith("New lead") and message.payload["parse_mode"] == "HTML"


def test_long_alert_is_cut_to_telegrams_limit_with_a_visible_marker(fake_telegram, store, start_sender):
    notes = "<b>é🙂 *_[" * 1000  # 9,000 characters of HTML, Markdown and wide characters
    queue_lead(store, start_sender(), name="Ada <i>&</i> *_[Co]_*", notes=notes)
    [message] = fake_telegram.wait_for(1)
    assert len(message.text.encode("utf-16-le")) // 2 <= TELEGRAM_LIMIT
    assert (
        "Name: “Ada <i>&</i> *_[Co]_*”\n" in message.text
        and "[cut:" in message.text
        and "ada@example.org" in message.text
    )
    assert store.leads.all()[0].notes == notes  # the full text stays in the store


def test_three_server_errors_are_retried_after_doubling_waits_then_delivered_once(
    fake_telegram, store, clock, start_sender
):
    fake_telegram.fail_next(500, times=3)
    queue_lead(store, start_sender())
    tried = times_of(clock, lambda: fake_telegram.attempts, 4)
    assert [status for _, status in fake_telegram.attempts] == [500, 500, 500, 200]
    gaps = [later - earlier for earlier, later in zip(tried, tried[1:])]
    # 1 s, 2 s, 4 s: doubling from the first retry's wait, each with up to half again of jitter.
    assert 1.0 <= gaps[0] <= 1.5 and 2.0 <= gaps[1] <= 3.0 and 4.0 <= gaps[2] <= 6.0, gaps
    clock.settle()
    assert store.leads.all()[0].alert_status == "sent" and len(fake_telegram.delivered) == 1


def test_an_ok_answer_without_a_message_is_a_wrong_shape_and_tried_again(fake_telegram, store, clock, start_sender):
    fake_telegram.answer_raw("sendMessage", b'{"ok": true}', b'{"ok": true, "result": {"chat": {"id": 4242}}}')
    question = Alert(AlertKind.QUESTION, "Unanswered question", (("Question", "Opera?"),), "s1", quoted=("Question",))
    store.questions.record("Opera?", question.entry())
    start_sender()
    clock.run_until(lambda: store.questions.all()[0].alert_status == "sent")
    [message] = fake_telegram.delivered
    assert len(fake_telegram.attempts) == 3 and message.message_id > 0
    assert store.questions.for_alert(message.message_id).question == "Opera?"  # the real message's id kept


def test_a_rate_limit_is_waited_out_exactly_as_long_as_telegram_asks(fake_telegram, store, clock, start_sender):
    fake_telegram.fail_next(429, retry_after=30)
    queue_lead(store, start_sender())
    first, second = times_of(clock, lambda: fake_telegram.attempts, 2)
    assert [status for _, status in fake_telegram.attempts] == [429, 200]
    assert second - first == 30  # not the backoff's 1 s: never sooner than Telegram asks, and no later


def test_a_timed_out_send_is_retried_and_delivered_once(fake_telegram, store, clock, start_sender, client):
    client.timeout = (1, 0.5)  # the one real wait here: requests' read timeout, against a send that hangs
    fake_telegram.hang_next(1.5)
    queue_lead(store, start_sender())
    clock.run_until(lambda: store.leads.all()[0].alert_status == "sent")
    [message] = fake_telegram.delivered
    assert [status for _, status in fake_telegram.attempts] == [0, 200]  # 0: the call that hung
    assert "ada@example.org" in message.text


def test_parse_error_is_resent_as_plain_text(fake_telegram, store, start_sender):
    fake_telegram.parse_errors_next = 1  # Telegram refuses the HTML once, as it does with a malformed entity
    queue_lead(store, start_sender(), name="Ada")
    [message] = fake_telegram.wait_for(1)
    assert "parse_mode" not in message.payload and "Name: “Ada”" in message.text


def test_bad_token_marks_the_alert_failed_without_spinning(fake_telegram, store, clock, start_sender, caplog):
    wrong = TelegramClient(fake_telegram.url, "999:WRONG-token-value", fake_telegram.chat_id)
    queue_lead(store, start_sender(client=wrong))
    assert wait_until(lambda: store.leads.all()[0].alert_status == "failed")
    clock.advance(24 * 3600)
    clock.settle()
    assert [status for _, status in fake_telegram.attempts] == [401]  # given up: a day on, no further try
    assert store.leads.all()[0].alert_status == "failed"
    assert "WRONG-token-value" not in caplog.text


def test_alerts_go_out_in_order_one_a_second(fake_telegram, store, clock, start_sender):
    for n in range(4):
        queue_lead(store, email=f"v{n}@example.org", session=f"s{n}")
    start_sender()
    sent = times_of(clock, lambda: fake_telegram.delivered, 4)
    emails = [d.text.split("Email: ")[1].split("\n")[0] for d in fake_telegram.delivered]
    assert emails == [f"v{n}@example.org" for n in range(4)]
    assert [at - sent[0] for at in sent] == [0.0, 1.0, 2.0, 3.0]  # Telegram allows one message a second per chat
    assert len(fake_telegram.attempts) == 4  # none refused for going too fast


def test_an_unreachable_telegram_is_said_once_after_five_minutes_and_its_recovery_too(
    fake_telegram, store, clock, start_sender, caplog
):
    client = TelegramClient("http://127.0.0.1:9", fake_telegram.token, fake_telegram.chat_id, timeout=(0.5, 1))
    queue_lead(store)
    said = lambda: caplog.text.count("Telegram has been unreachable")  # noqa: E731
    with caplog.at_level(logging.WARNING):
        start_sender(client=client)
        tried = []  # the clock's time at each failed try

        def warned():
            tried.extend([clock.now] * (store.deliveries.rows()[0].attempts - len(tried)))
            return said() == 1

        clock.run_until(warned)
        assert tried[-1] - tried[0] >= 300 > tried[-2] - tried[0]  # said at the first failed try five minutes on
        tries = len(tried)
        clock.run_until(lambda: store.deliveries.rows()[0].attempts >= tries + 2)  # more failures: still said once
        client.api_base = fake_telegram.url  # the relay is set up, or the block lifted
        clock.run_until(lambda: len(fake_telegram.delivered) == 1)
    assert said() == 1 and "relay" in caplog.text and "python app.py doctor" in caplog.text
    assert caplog.text.count("Telegram is reachable again") == 1


def test_network_errors_do_not_carry_the_token():
    client = TelegramClient("http://127.0.0.1:9", "555:SECRET-token-xyz", "1", timeout=(0.5, 0.5))
    with pytest.raises(TelegramError) as error:
        client.send_message("hi")
    assert error.value.is_retryable and "SECRET-token-xyz" not in str(error.value)


def test_without_telegram_alerts_are_logged(caplog):
    with caplog.at_level(logging.INFO):
        LogNotifier().notify(lead(email="logged@example.org"))
    assert "logged@example.org" in caplog.text and "TELEGRAM_BOT_TOKEN" in caplog.text
