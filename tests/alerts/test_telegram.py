"""Alerts to the owner: formatting, escaping, limits, and the outbox's delivery against the Telegram stand-in.

Timings are asserted from the stand-in's recorded timestamps of each attempt.
"""

from __future__ import annotations

import logging

import pytest

from replica.alerts import Alert
from replica.alerts.render import to_telegram_html
from replica.alerts.sender import AlertSender, LogNotifier
from replica.alerts.telegram_channel import TelegramChannel
from replica.telegram.client import TelegramClient, TelegramError
from replica.telegram.length import TELEGRAM_LIMIT
from tests.fixtures.environment import wait_until


def lead(name="Ada", notes="Wants to talk", email="ada@example.org", session="s-1"):
    return Alert(
        kind="lead", title="New lead", fields=(("Name", name), ("Email", email), ("Notes", notes)), session_id=session
    )


def queue_lead(store, sender=None, **fields):
    alert = lead(**fields)
    store.leads.record(
        dict(alert.fields)["Email"], dict(alert.fields)["Name"], dict(alert.fields)["Notes"], alert.entry()
    )
    if sender:
        sender.notify(alert)
    return alert


@pytest.fixture
def client(fake_telegram):
    return TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id, timeout=(1, 2))


@pytest.fixture
def start_sender(store, client):
    senders = []

    def start(**options):
        options = {"min_interval": 0.05, "base_delay": 0.1, **options}
        senders.append(AlertSender(store, TelegramChannel(options.pop("client", client)), **options).start())
        return senders[-1]

    yield start
    for sender in senders:
        sender.close()


def test_visitor_text_arrives_exactly_as_typed(fake_telegram, store, start_sender):
    name = "Ada <b>Lovelace</b> & Co"
    notes = "<script>alert(1)</script> *bold* _it_ [link](x) `code` &amp; 5 < 6"
    queue_lead(store, start_sender(), name=name, notes=notes)
    [message] = fake_telegram.wait_for(1)
    assert f"Name: {name}" in message.text and f"Notes: {notes}" in message.text
    assert message.text.startswith("New lead") and message.payload["parse_mode"] == "HTML"


def test_long_alert_is_cut_to_telegrams_limit_with_a_visible_marker(fake_telegram, store, start_sender):
    notes = "<b>é🙂 *_[" * 1000  # 9,000 characters of HTML, Markdown and wide characters
    queue_lead(store, start_sender(), name="Ada <i>&</i> *_[Co]_*", notes=notes)
    [message] = fake_telegram.wait_for(1)
    assert len(message.text.encode("utf-16-le")) // 2 <= TELEGRAM_LIMIT
    assert (
        "Name: Ada <i>&</i> *_[Co]_*\n" in message.text
        and "[cut:" in message.text
        and "ada@example.org" in message.text
    )
    assert store.leads.all()[0].notes == notes  # the full text stays in the store


def test_three_server_errors_then_success_delivers_once(fake_telegram, store, start_sender):
    fake_telegram.fail_next(500, times=3)
    queue_lead(store, start_sender())
    fake_telegram.wait_for(1)
    assert wait_until(lambda: store.leads.all()[0].alert_status == "sent")  # recorded: no further try comes
    assert [status for _, status in fake_telegram.attempts] == [500, 500, 500, 200]
    assert len(fake_telegram.delivered) == 1 and store.leads.all()[0].alert_status == "sent"
    gaps = [b[0] - a[0] for a, b in zip(fake_telegram.attempts, fake_telegram.attempts[1:])]
    assert gaps[0] >= 0.1 and gaps[1] >= 0.2 and gaps[2] >= 0.4  # exponential backoff


def test_an_ok_answer_without_a_message_is_a_wrong_shape_and_tried_again(fake_telegram, store, start_sender):
    fake_telegram.answer_raw("sendMessage", b'{"ok": true}', b'{"ok": true, "result": {"chat": {"id": 4242}}}')
    question = Alert("question", "Unanswered question", (("Question", "Opera?"),), "s1", quoted=("Question",))
    store.questions.record("Opera?", question.entry())
    start_sender()
    [message] = fake_telegram.wait_for(1)
    assert len(fake_telegram.delivered) == 1 and message.message_id > 0
    assert wait_until(lambda: store.questions.all()[0].alert_status == "sent")
    assert store.questions.for_alert(message.message_id).question == "Opera?"  # the real message's id kept


def test_rate_limit_waits_retry_after_before_the_next_try(fake_telegram, store, start_sender):
    fake_telegram.fail_next(429, retry_after=1.5)
    queue_lead(store, start_sender())
    fake_telegram.wait_for(1, timeout=30)
    (first, s1), (second, s2) = fake_telegram.attempts
    assert (s1, s2) == (429, 200) and second - first >= 1.5  # the backoff alone would be 0.1 s


def test_a_timed_out_send_is_retried_and_delivered_once(fake_telegram, store, start_sender, client):
    client.timeout = (1, 0.5)
    fake_telegram.hang_next(1.5)
    queue_lead(store, start_sender())
    [message] = fake_telegram.wait_for(1, timeout=30)
    assert [status for _, status in fake_telegram.attempts] == [0, 200]  # 0: the call that hung
    assert "ada@example.org" in message.text


def test_parse_error_is_resent_as_plain_text(fake_telegram, store, start_sender):
    fake_telegram.parse_errors_next = 1  # Telegram refuses the HTML once, as it does with a malformed entity
    queue_lead(store, start_sender(), name="Ada")
    [message] = fake_telegram.wait_for(1)
    assert "parse_mode" not in message.payload and "Name: Ada" in message.text


def test_bad_token_marks_the_alert_failed_without_spinning(fake_telegram, store, start_sender, caplog):
    wrong = TelegramClient(fake_telegram.url, "999:WRONG-token-value", fake_telegram.chat_id)
    queue_lead(store, start_sender(client=wrong))
    assert wait_until(lambda: store.leads.all()[0].alert_status == "failed")  # given up: no further try comes
    assert [status for _, status in fake_telegram.attempts] == [401]
    assert store.leads.all()[0].alert_status == "failed"
    assert "WRONG-token-value" not in caplog.text


def test_alerts_go_out_in_order_at_a_paced_rate(fake_telegram, store, start_sender):
    sender = start_sender(min_interval=0.3)
    for n in range(4):
        queue_lead(store, sender, email=f"v{n}@example.org", session=f"s{n}")
    delivered = fake_telegram.wait_for(4)
    assert [d.text.split("Email: ")[1].split("\n")[0] for d in delivered] == [f"v{n}@example.org" for n in range(4)]
    # Paced: four messages take three intervals. Measured where they arrive, where a busy machine holds a
    # send up now and then (which narrows the gap after it): so the span, with room for that, not each gap.
    assert delivered[-1].at - delivered[0].at >= 3 * 0.3 * 0.8


def test_network_errors_do_not_carry_the_token():
    client = TelegramClient("http://127.0.0.1:9", "555:SECRET-token-xyz", "1", timeout=(0.5, 0.5))
    with pytest.raises(TelegramError) as error:
        client.send_message("hi")
    assert error.value.is_retryable and "SECRET-token-xyz" not in str(error.value)


def test_without_telegram_alerts_are_logged(caplog):
    with caplog.at_level(logging.INFO):
        LogNotifier().notify(lead(email="logged@example.org"))
    assert "logged@example.org" in caplog.text and "TELEGRAM_BOT_TOKEN" in caplog.text


def test_html_is_escaped_for_telegram():
    html = to_telegram_html(lead(name="<i>x</i> & y"))
    assert "&lt;i&gt;x&lt;/i&gt; &amp; y" in html and html.startswith("<b>New lead</b>")
