"""The owner's Telegram chat as a channel, against the Telegram stand-in: HTML with buttons, plain text
when Telegram balks at the HTML or the length, and Telegram's refusals as the sender's ChannelError
(passing or final, with Telegram's own wait)."""

from __future__ import annotations

import pytest

from replica.alerts import Alert
from replica.alerts.channel import ChannelError
from replica.alerts.telegram_channel import TelegramChannel
from replica.storage.records import AlertKind
from replica.telegram.client import TelegramClient
from replica.telegram.length import TELEGRAM_LIMIT, utf16_units
from tests.alerts.test_sender import lead

QUESTION = Alert(
    AlertKind.QUESTION, "Unanswered question", (("Question", "Opera?"),), "s1", quoted=("Question",), ref=3
)


@pytest.fixture
def channel(fake_telegram):
    return TelegramChannel(
        TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id, timeout=(1, 2))
    )


def test_an_alert_goes_as_html_with_its_buttons_and_its_message_id_comes_back(channel, fake_telegram):
    message_id = channel.send(QUESTION)
    [message] = fake_telegram.delivered
    assert message_id == message.message_id and message.payload["parse_mode"] == "HTML"
    assert "<b>Unanswered question #3</b>" in message.payload["text"] and message.buttons == [["Answer", "Dismiss"]]


def test_a_refused_html_or_length_is_sent_again_as_plain_text_the_second_within_half_the_limit(channel, fake_telegram):
    fake_telegram.parse_errors_next = 1
    channel.send(QUESTION)
    assert "parse_mode" not in fake_telegram.delivered[-1].payload
    fake_telegram.too_long_next = 1
    channel.send(lead(notes="x" * 5000))
    resent = fake_telegram.delivered[-1]
    assert "parse_mode" not in resent.payload and utf16_units(resent.text) <= TELEGRAM_LIMIT // 2


def test_a_fold_has_no_buttons_and_tells_the_owner_how_to_answer(channel, fake_telegram):
    channel.send_fold([(1, lead(email="a@example.org")), (2, lead(email="b@example.org"))])
    [message] = fake_telegram.delivered
    assert message.buttons == [] and "a@example.org" in message.text and "b@example.org" in message.text


def test_telegrams_refusals_become_channel_errors_that_pass_or_are_final(channel, fake_telegram):
    fake_telegram.fail_next(429, retry_after=30)
    with pytest.raises(ChannelError) as limited:
        channel.send(QUESTION)
    assert (limited.value.final, limited.value.retry_after, limited.value.unreachable) == (False, 30, False)
    fake_telegram.fail_next(500)
    with pytest.raises(ChannelError) as failing:
        channel.send(QUESTION)
    assert not failing.value.final
    fake_telegram.fail_next(403)
    with pytest.raises(ChannelError) as refused:
        channel.send(QUESTION)
    assert refused.value.final and fake_telegram.token not in refused.value.reason
    unreachable = TelegramChannel(TelegramClient("http://127.0.0.1:9", "555:SECRET", "1", timeout=(0.5, 0.5)))
    with pytest.raises(ChannelError) as gone:
        unreachable.send(QUESTION)
    assert gone.value.unreachable and not gone.value.final and "SECRET" not in gone.value.reason
