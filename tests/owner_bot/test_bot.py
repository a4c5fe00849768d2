"""The owner's bot as a whole (replica/owner_bot/bot.py), without the app: started, it registers the
command menu and answers by polling; a group with no owner set is warned of at start; a Telegram that
cannot be reached at start is said in the log and the bot still starts. Against the Telegram stand-in."""

from __future__ import annotations

import logging

import pytest

from replica.owner_bot.bot import OwnerBot
from replica.owner_bot.commands import menu
from replica.telegram.client import TelegramClient
from tests.fakes.telegram_server import FakeTelegram
from tests.fixtures.environment import free_port, wait_until
from tests.fixtures.replicas import inbox_of


def bot_for(store, url: str, token: str, chat_id: str, owner_id: str | None = None) -> OwnerBot:
    client = TelegramClient(url, token, chat_id, timeout=(1, 2))
    return OwnerBot(store, inbox_of(store), client, poll_seconds=0.2, base_delay=0.1, owner_id=owner_id)


@pytest.fixture
def started():
    bots = []
    yield bots
    for bot in bots:
        bot.close()


def test_a_started_bot_registers_its_menu_and_answers_the_owner(store, fake_telegram, started):
    fake_telegram.webhook_url = "https://old.example.org/hook"  # left from webhook mode: it would block polling
    bot = bot_for(store, fake_telegram.url, fake_telegram.token, fake_telegram.chat_id)
    started.append(bot.start())
    assert [(c["command"], c["description"]) for c in fake_telegram.commands] == menu()
    assert fake_telegram.webhook_url == ""
    fake_telegram.push("/help")
    assert wait_until(lambda: any("/forget N" in text for text in fake_telegram.sent_texts()), timeout=10)


def test_a_group_with_no_owner_set_is_warned_of_at_start(store, started, caplog):
    group = FakeTelegram(chat_id="-1001234567")
    try:
        with caplog.at_level(logging.WARNING, logger="replica.owner_bot.bot"):
            started.append(bot_for(store, group.url, group.token, group.chat_id).start())
        assert "TELEGRAM_OWNER_ID is not set" in caplog.text
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="replica.owner_bot.bot"):
            started.append(bot_for(store, group.url, group.token, group.chat_id, owner_id="4242").start())
        assert "TELEGRAM_OWNER_ID" not in caplog.text
    finally:
        for bot in started:
            bot.close()
        started.clear()
        group.close()


def test_an_unreachable_telegram_at_start_is_logged_and_the_bot_starts_anyway(store, started, caplog):
    with caplog.at_level(logging.WARNING, logger="replica.owner_bot.bot"):
        started.append(bot_for(store, f"http://127.0.0.1:{free_port()}", "1:AAx", "4242").start())
    assert "Could not set up the bot with Telegram" in caplog.text and "Connection refused" in caplog.text
