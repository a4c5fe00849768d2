"""The Bot API client (replica/telegram/client.py), against the Telegram stand-in: what it sends, the
failures it tells apart (Telegram's refusal, a rate limit, a page that is no Bot API answer, no Telegram
at all), the token never in an error, and a relay with a path in front of Telegram. That an unreachable
Telegram is said once in the log, and its recovery, is the alert sender's (tests/alerts/), on a hand clock."""

from __future__ import annotations

from dataclasses import replace

import pytest

from replica.telegram.client import TelegramClient, TelegramError
from tests.fakes.openai_server import call, say
from tests.fakes.telegram_server import FakeTelegram
from tests.fixtures.clients import app_client
from tests.fixtures.environment import free_port


@pytest.fixture
def client(fake_telegram):
    return TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id, timeout=(2, 5))


def test_a_message_reaches_the_owners_chat_without_a_link_preview_and_its_id_comes_back(client, fake_telegram):
    first = client.send_message("New lead: <b>Ada</b>", reply_markup={"force_reply": True})
    second = client.send_message("plain <words>", parse_mode=None)
    [one, two] = fake_telegram.delivered
    assert (first, second) == (one.message_id, two.message_id) and first != second
    assert (one.text, two.text) == ("New lead: Ada", "plain <words>")
    assert one.payload["link_preview_options"] == {"is_disabled": True} and "parse_mode" not in two.payload


def test_a_refusal_says_what_kind_it_is(client, fake_telegram):
    fake_telegram.fail_next(429, retry_after=7)
    with pytest.raises(TelegramError) as limited:
        client.send_message("hello")
    assert (limited.value.status, limited.value.retry_after, limited.value.is_retryable) == (429, 7, True)
    with pytest.raises(TelegramError) as unparsable:
        client.send_message("<x>broken</x>")
    assert unparsable.value.is_parse_error and not unparsable.value.is_retryable
    fake_telegram.fail_next(502)
    with pytest.raises(TelegramError) as down:
        client.send_message("hello")
    assert down.value.is_retryable and not down.value.is_network


def test_an_answer_that_is_no_bot_api_object_is_tried_again_later(client, fake_telegram):
    fake_telegram.answer_raw("sendMessage", b"<html>Bad gateway</html>", b'{"ok": true, "result": {}}')
    for _ in range(2):  # a proxy's page; a 200 without a message id proves no delivery
        with pytest.raises(TelegramError, match="unexpected answer") as odd:
            client.send_message("hello")
        assert odd.value.is_retryable
    assert fake_telegram.delivered == []


def test_no_telegram_at_all_is_a_network_error_in_a_few_words_without_the_token():
    token = "123456789:AAsecretTOKENthatMustNeverShow_0123"
    client = TelegramClient(f"http://127.0.0.1:{free_port()}", token, "4242", timeout=(2, 2))
    with pytest.raises(TelegramError) as error:
        client.send_message("hello")
    assert error.value.is_network and error.value.is_retryable
    assert "Connection refused" in str(error.value) and token not in str(error.value)


def test_updates_are_polled_from_the_offset_on(client, fake_telegram):
    first = fake_telegram.push("/recent")
    fake_telegram.push("/status")
    assert [u["message"]["text"] for u in client.get_updates(None, 0)] == ["/recent", "/status"]
    assert [u["message"]["text"] for u in client.get_updates(first + 1, 0)] == ["/status"]
    assert "message" in fake_telegram.polls[-1]["allowed_updates"]


@pytest.fixture
def relay():
    """Telegram behind a relay with a path, as https://relay.example.org/telegram."""
    server = FakeTelegram(prefix="/telegram")
    yield server
    server.close()


def test_alerts_and_replies_travel_through_a_relay_with_a_path(relay, start_app, settings, fake_openai):
    app = start_app(replace(settings, telegram_api_base=relay.base))
    assert relay.base.endswith("/telegram")
    fake_openai.script(call(("inform_unknown", {"question": "Opera?"})), say("I'll ask."))
    app_client(app.demo.local_url).predict("Opera?", api_name="/chat")
    [alert] = relay.wait_for(1)
    assert alert.text.startswith("Unanswered question #1")
    relay.push("Tosca.", reply_to=alert.message_id)
    assert len(relay.wait_for(2)) == 2 and "Learned answer #1" in relay.sent_texts()[-1]
    assert relay.polls  # getUpdates went through the relay too


def test_a_picture_goes_as_a_multipart_photo_and_one_telegram_would_refuse_is_refused(client, fake_telegram):
    import io

    from PIL import Image

    def png_of(width: int, height: int) -> bytes:
        out = io.BytesIO()
        Image.new("RGB", (width, height), "white").save(out, format="PNG")
        return out.getvalue()

    message_id = client.send_photo("week.png", png_of(1080, 1350), "Last 7 days" + "." * 2000)
    [sent] = fake_telegram.photos()
    assert sent.message_id == message_id and sent.photo == ("week.png", png_of(1080, 1350))
    assert len(sent.text) == 1024  # the caption cut to Telegram's limit
    for content, why in ((b"GIF89a not a png", "IMAGE_PROCESS_FAILED"), (png_of(1, 30), "PHOTO_INVALID_DIMENSIONS")):
        with pytest.raises(TelegramError, match=why) as refused:
            client.send_photo("week.png", content, "")
        assert refused.value.status == 400 and not refused.value.is_retryable
