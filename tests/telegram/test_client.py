"""The Bot API client (replica/telegram/client.py), against the Telegram stand-in: what it sends (a
message's buttons written from typed values, there and nowhere else), the failures it tells apart (Telegram's refusal, a rate limit, a page that is no Bot API answer, no Telegram
at all), the token never in an error, and a relay with a path in front of Telegram. That an unreachable
Telegram is said once in the log, and its recovery, is the alert sender's (tests/alerts/), on a hand clock."""

from __future__ import annotations

import ast

import pytest

from replica.telegram.client import ForceReply, TelegramClient, TelegramError
from replica.telegram.updates import Button
from tests.fakes.openai_server import call, say
from tests.fakes.telegram_server import FakeTelegram
from tests.fixtures.clients import app_client
from tests.fixtures.environment import ROOT, free_port

# The Bot API's names for a message's buttons: written by the client alone, read back by the updates' parse.
MARKUP_NAMES = {"reply_markup", "inline_keyboard", "callback_data", "force_reply", "input_field_placeholder"}


@pytest.fixture
def client(fake_telegram):
    return TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id, timeout=(2, 5))


def test_a_message_reaches_the_owners_chat_without_a_link_preview_and_its_id_comes_back(client, fake_telegram):
    first = client.send_message("New lead: <b>Ada</b>", reply_markup=ForceReply())
    second = client.send_message("plain <words>", parse_mode=None)
    [one, two] = fake_telegram.delivered
    assert (first, second) == (one.message_id, two.message_id) and first != second
    assert (one.text, two.text) == ("New lead: Ada", "plain <words>")
    assert one.payload["link_preview_options"] == {"is_disabled": True} and "parse_mode" not in two.payload


def test_a_keyboard_reaches_the_owner_as_its_buttons_and_an_edit_replaces_them(client, fake_telegram):
    lead = client.send_message(
        "New lead",
        reply_markup=((Button("Open conversation", "show:3"), Button("Mark handled", "handled:7")),),
    )
    client.send_message("Reply with your answer.", parse_mode=None, reply_markup=ForceReply("Your answer"))
    client.send_message("No buttons", reply_markup=())
    [alert, prompt, bare] = fake_telegram.delivered
    assert alert.buttons == [["Open conversation", "Mark handled"]] and alert.data_of("Mark handled") == "handled:7"
    assert (alert.asks_reply, prompt.asks_reply, prompt.buttons) == (None, "Your answer", [])
    assert bare.buttons == [] and "reply_markup" not in bare.payload
    client.edit_reply_markup(lead, ((Button("Open conversation", "show:3"),), (Button("✓ Handled", "handled:7"),)))
    assert alert.keys == [[("Open conversation", "show:3")], [("✓ Handled", "handled:7")]]
    client.edit_message_text(lead, "New lead, handled")
    assert alert.buttons == []  # an edit without buttons takes them away


def test_no_module_but_the_client_writes_a_messages_buttons():
    """Every keyboard the app sends is a typed Keyboard (or a ForceReply) that the client writes as the
    Bot API's JSON: the alerts', the digest's questions', the answer by mail's, the relabelled ones. No
    other module names the markup's fields (the updates' parse reads them back)."""
    named = {}
    for path in (ROOT / "replica").rglob("*.py"):
        strings = {n.value for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Constant)}
        if strings & MARKUP_NAMES:
            named[path.relative_to(ROOT).as_posix()] = sorted(strings & MARKUP_NAMES)
    assert named == {
        "replica/telegram/client.py": sorted(MARKUP_NAMES),
        "replica/telegram/updates.py": ["callback_data", "inline_keyboard", "reply_markup"],
    }


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
    app = start_app(settings.updated(telegram_api_base=relay.base))
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
