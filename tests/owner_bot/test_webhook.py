"""Telegram webhook mode: registered with a secret, served by the page's own server, each update handled
once; and polling mode cleans a webhook up."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time

import requests

from replica.owner_bot.webhook import ALLOWED_UPDATES, SECRET_KEY, WebhookReceiver, WebhookUpdates
from replica.storage.store import Store
from replica.telegram.updates import Update, parse_update
from tests.fakes.telegram_server import CHAT_ID
from tests.fixtures.databases import fresh_postgres_database
from tests.fixtures.environment import free_port, wait_until


def help_update(update_id, chat_id, text="/help"):
    message = {
        "message_id": update_id,
        "chat": {"id": int(chat_id), "type": "private"},
        "from": {"id": int(chat_id), "is_bot": False, "first_name": "Someone"},  # in a private chat, its user
        "date": int(time.time()),
        "text": text,
        "entities": [{"type": "bot_command", "offset": 0, "length": len(text)}],
    }
    return {"update_id": update_id, "message": message}


def start_in_webhook_mode(start_app, settings, secret="s3cret-token"):
    port = free_port()
    url = f"http://127.0.0.1:{port}/telegram/webhook"
    start_app(settings.updated(telegram_webhook_url=url, telegram_webhook_secret=secret), port=port)
    return url


def test_webhook_mode_registers_serves_and_handles_each_update_once(start_app, settings, fake_telegram):
    url = start_in_webhook_mode(start_app, settings)
    assert fake_telegram.webhook == {"url": url, "secret_token": "s3cret-token", "allowed_updates": ALLOWED_UPDATES}
    replies = lambda: sum("/forget N" in t for t in fake_telegram.sent_texts())  # noqa: E731  (/help's answer)

    update = help_update(900, fake_telegram.chat_id)
    for headers in ({}, {"X-Telegram-Bot-Api-Secret-Token": "wrong"}):
        assert requests.post(url, json=update, headers=headers, timeout=5).status_code == 401
    right = {"X-Telegram-Bot-Api-Secret-Token": "s3cret-token"}
    fake_telegram.gate = threading.Event()  # the bot's answer to /help is held at Telegram's door
    assert requests.post(url, json=update, headers=right, timeout=30).status_code == 200
    assert replies() == 0  # Telegram got its 200 before the update was handled: at once
    fake_telegram.gate.set()
    assert wait_until(
        lambda: replies() == 1, timeout=30
    )  # the refused requests handled nothing: one answer, to this one
    assert requests.post(url, json=update, headers=right, timeout=5).status_code == 200  # Telegram retries
    # Updates are handled one by one, in order: once the next update is answered, the retry was not.
    leads = help_update(901, fake_telegram.chat_id, text="/leads")
    assert requests.post(url, json=leads, headers=right, timeout=5).ok
    assert wait_until(lambda: len(fake_telegram.sent_texts()) == 2) and replies() == 1, fake_telegram.sent_texts()
    assert fake_telegram.polls == []  # and all along, no polling beside the webhook


def test_a_generated_secret_is_kept_in_the_database_across_restarts(start_app, settings, fake_telegram):
    start_in_webhook_mode(start_app, settings, secret=None)
    first = fake_telegram.webhook["secret_token"]
    assert len(first) >= 32
    start_in_webhook_mode(start_app, settings, secret=None)
    assert fake_telegram.webhook["secret_token"] == first
    store = Store(settings.storage.database_path)
    assert store.state.get(SECRET_KEY) == first
    store.close()


def test_polling_mode_deletes_a_webhook_first(start_app, settings, fake_telegram):
    fake_telegram.webhook_url = "https://old.example.org/hook"
    start_app(settings)
    assert wait_until(lambda: fake_telegram.webhook_url == "" and len(fake_telegram.polls) > 0)


def test_two_instances_receiving_one_update_handle_it_once(tmp_path):
    with fresh_postgres_database() as url:
        stores = [Store(tmp_path / f"i{n}" / "x.sqlite3", database_url=url) for n in range(2)]
        handled = []
        receivers = [WebhookUpdates(store, handled.append) for store in stores]
        try:
            update = parse_update(help_update(77, "1"))
            assert [receiver.receive(update) for receiver in receivers] == [True, False]
            assert handled == [update]
        finally:
            for store in stores:
                store.close()


def test_a_flood_of_wrong_secrets_is_refused_and_logged_once(start_app, settings, fake_telegram, caplog):
    """300 wrong secrets: each refused, one log line (the minute's window and its count: tests/test_logs.py)."""
    url = start_in_webhook_mode(start_app, settings, secret="right-secret")
    session = requests.Session()
    with caplog.at_level(logging.WARNING, logger="replica.owner_bot.webhook"):
        statuses = {
            session.post(
                url, json=help_update(n, CHAT_ID), headers={"X-Telegram-Bot-Api-Secret-Token": "wrong"}, timeout=5
            ).status_code
            for n in range(300)
        }
    refusals = [r.getMessage() for r in caplog.records if "Refused" in r.getMessage()]
    assert statuses == {401} and len(refusals) == 1 and refusals[0].startswith("Refused 1 request")
    # The right secret's /help is answered; it came after the flood, so the flood's would have been too.
    assert (
        session.post(
            url, json=help_update(300, CHAT_ID), headers={"X-Telegram-Bot-Api-Secret-Token": "right-secret"}, timeout=5
        ).status_code
        == 200
    )
    assert wait_until(lambda: fake_telegram.sent_texts(), timeout=30)
    assert len(fake_telegram.sent_texts()) == 1


def test_a_body_of_the_wrong_shape_gets_its_200_and_is_read_as_nothing(caplog):
    """With the right secret, a body that is not JSON, nested past what the decoder follows, or an update
    without a usable id is answered 200 (Telegram would only send it again) and queues nothing; an update
    with its id is queued as the bot reads it. (In the app the page's guard reads each body first.)"""
    accepted = []
    receiver = WebhookReceiver(None, "/telegram/webhook", "s3cret", accepted.append)

    def post(body: bytes) -> int:
        scope = {"type": "http", "method": "POST", "path": "/telegram/webhook"}
        scope["headers"] = [(b"x-telegram-bot-api-secret-token", b"s3cret")]
        sent = []

        async def receive():
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message):
            sent.append(message)

        asyncio.run(receiver(scope, receive, send))
        return sent[0]["status"]

    bodies = [b"not json", b"[" * 100_000, b'{"update_id": "900"}', b'{"update_id": 18446744073709551616}', b"[]"]
    with caplog.at_level(logging.WARNING, logger="replica.owner_bot.webhook"):
        assert [post(body) for body in bodies] == [200] * 5
    skipped = [r for r in caplog.records if "not an update with an update_id" in r.getMessage()]
    assert len(skipped) == 5 and accepted == []
    odd = {"update_id": 901, "message": {"message_id": 1, "chat": {"id": CHAT_ID}, "text": "/help"}}  # id as a string
    assert post(json.dumps(odd).encode()) == 200 and accepted == [Update(901)]
    assert post(json.dumps(help_update(902, CHAT_ID)).encode()) == 200
    assert accepted[-1] == parse_update(help_update(902, CHAT_ID)) and accepted[-1].message.text == "/help"
