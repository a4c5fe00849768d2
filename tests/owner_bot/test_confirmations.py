"""The owner hears whether the visitor's page showed their words (replica/owner_bot/confirmations.py):
once it has, "delivered"; when it has not in the time allowed, that the words are kept for that browser.
Each step of the worker run by the test, against the Telegram stand-in."""

from __future__ import annotations

import pytest

from replica.owner_bot.confirmations import DELIVERED, NOT_SHOWN, Confirmations
from replica.telegram.client import TelegramClient
from tests.fixtures.replicas import inbox_of


@pytest.fixture
def client(fake_telegram):
    return TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id, timeout=(2, 5))


def test_the_owner_hears_once_that_the_page_showed_their_words(store, client, fake_telegram):
    inbox = inbox_of(store)
    conversation = inbox.recorder.begin("s1", "203.0.113.7")
    words = inbox.handoff.say(conversation.id, "It's Ada here.")
    confirmations = Confirmations(inbox.page, client, wait_seconds=600, every=0.2)
    confirmations.watch(words, conversation.id)
    assert confirmations.step() == 0.2 and fake_telegram.delivered == []  # not shown yet: look again soon
    assert inbox.page.for_page("s1")[0]  # the open page checks, and shows the words
    assert confirmations.step() == 3600.0  # nothing left to watch
    confirmations.step()
    assert fake_telegram.sent_texts() == [DELIVERED.format(number=conversation.id)]


def test_words_a_closed_page_never_showed_are_said_to_be_kept_for_that_browser(store, client, fake_telegram):
    inbox = inbox_of(store)
    conversation = inbox.recorder.begin("s1", "203.0.113.7")
    words = inbox.handoff.say(conversation.id, "Are you still there?")
    confirmations = Confirmations(inbox.page, client, wait_seconds=0)
    confirmations.watch(words, conversation.id)
    confirmations.step()
    assert fake_telegram.sent_texts() == [NOT_SHOWN.format(number=conversation.id)]
    assert "opens the page again" in fake_telegram.sent_texts()[0]
