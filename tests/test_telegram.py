"""Alerts to the owner: formatting, escaping, limits and delivery, against the Telegram stand-in."""

from __future__ import annotations

import logging
import time

import pytest

from replica.notify import Alert
from replica.notify.alerts import TELEGRAM_LIMIT, to_telegram_html
from replica.notify.delivery import LogNotifier, TelegramNotifier
from replica.notify.telegram import TelegramClient, TelegramError


def lead(name="Ada", notes="Wants to talk", email="ada@example.org"):
    return Alert(kind="lead", title="New lead", fields=(("Name", name), ("Email", email), ("Notes", notes)), session_id="s-1")


@pytest.fixture
def client(fake_telegram):
    return TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id, timeout=(1, 2))


@pytest.fixture
def notifier(client):
    notifier = TelegramNotifier(client, base_delay=0.05)
    yield notifier
    notifier.close()


def test_visitor_text_arrives_exactly_as_typed(fake_telegram, notifier):
    name = "Ada <b>Lovelace</b> & Co"
    notes = "<script>alert(1)</script> *bold* _it_ [link](x) &amp; 5 < 6"
    notifier.notify(lead(name=name, notes=notes))
    [message] = fake_telegram.wait_for(1)
    assert f"Name: {name}" in message.text and f"Notes: {notes}" in message.text
    assert message.text.startswith("New lead")
    assert message.payload["parse_mode"] == "HTML"


def test_long_alert_is_cut_to_telegrams_limit_with_a_visible_marker(fake_telegram, notifier):
    notifier.notify(lead(name="N" * 300, notes="é🙂" * 4500))
    [message] = fake_telegram.wait_for(1)
    assert len(message.text.encode("utf-16-le")) // 2 <= TELEGRAM_LIMIT
    assert "[cut:" in message.text and "N" * 300 in message.text  # the short value is kept whole
    assert "ada@example.org" in message.text


def test_parse_error_falls_back_to_plain_text(fake_telegram, client, monkeypatch):
    # Simulate a formatting bug: HTML Telegram cannot parse reaches the sender.
    monkeypatch.setattr("replica.notify.delivery.to_telegram_html", lambda alert: "<broken>" + alert.title)
    notifier = TelegramNotifier(client, base_delay=0.05)
    notifier.notify(lead(name="Ada"))
    [message] = fake_telegram.wait_for(1)
    notifier.close()
    assert "parse_mode" not in message.payload and "Name: Ada" in message.text


def test_server_errors_are_retried_until_delivered_once(fake_telegram, notifier):
    fake_telegram.fail_next(500, times=2)
    notifier.notify(lead())
    assert len(fake_telegram.wait_for(1)) == 1
    assert [status for _, status in fake_telegram.attempts] == [500, 500, 200]


def test_rate_limit_waits_retry_after_before_the_next_try(fake_telegram, notifier):
    fake_telegram.fail_next(429, retry_after=1)
    notifier.notify(lead())
    fake_telegram.wait_for(1)
    (first, s1), (second, s2) = fake_telegram.attempts
    assert (s1, s2) == (429, 200) and second - first >= 1.0


def test_bad_token_is_not_retried_and_never_logged(fake_telegram, caplog):
    client = TelegramClient(fake_telegram.url, "999:WRONG-token-value", fake_telegram.chat_id)
    with pytest.raises(TelegramError) as error:
        client.send_message("hi")
    assert error.value.status == 401 and not error.value.is_retryable
    assert "WRONG-token-value" not in str(error.value)


def test_network_errors_do_not_carry_the_token():
    client = TelegramClient("http://127.0.0.1:9", "555:SECRET-token-xyz", "1", timeout=(0.5, 0.5))
    with pytest.raises(TelegramError) as error:
        client.send_message("hi")
    assert error.value.is_retryable and "SECRET-token-xyz" not in str(error.value)


def test_notify_returns_at_once_even_when_telegram_is_slow(fake_telegram, notifier):
    fake_telegram.delay = 1.5
    started = time.monotonic()
    notifier.notify(lead())
    assert time.monotonic() - started < 0.1
    assert len(fake_telegram.wait_for(1, timeout=5)) == 1


def test_undeliverable_alert_is_kept_in_the_log(caplog, client):
    client.api_base = "http://127.0.0.1:9"
    notifier = TelegramNotifier(client, max_attempts=2, base_delay=0.01)
    with caplog.at_level(logging.INFO):
        notifier.notify(lead(email="kept@example.org"))
        notifier.close()
    assert "Could not deliver a lead alert" in caplog.text and "kept@example.org" in caplog.text


def test_without_telegram_alerts_are_logged(caplog):
    with caplog.at_level(logging.INFO):
        LogNotifier().notify(lead(email="logged@example.org"))
    assert "logged@example.org" in caplog.text and "TELEGRAM_BOT_TOKEN" in caplog.text


def test_html_is_escaped_for_telegram():
    html = to_telegram_html(lead(name="<i>x</i> & y"))
    assert "&lt;i&gt;x&lt;/i&gt; &amp; y" in html and html.startswith("<b>New lead</b>")
