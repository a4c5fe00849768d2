"""The owner's answer goes back to each visitor who asked; a returning browser's key opens its own
conversation only. On both backends (the ``store`` fixture)."""

from __future__ import annotations

import pytest

from replica.inbox.recorder import OWNER, VISITOR
from replica.owner_bot.answer_back import AnswerBack
from replica.owner_bot.confirmations import Confirmations
from replica.owner_bot.conversation_commands import ConversationCommands
from replica.storage.database import storage_errors
from replica.storage.provisioning import refuse_new_records
from replica.telegram.client import TelegramClient
from tests.fixtures.clock import HandClock
from tests.fixtures.replicas import asked, inbox_of


def test_each_asker_gets_the_answer_and_the_owner_hears_what_each_will_see(store, fake_telegram):
    clock = HandClock()
    inbox = inbox_of(store, owner_name="Ada", clock=clock)
    client = TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id)
    back = AnswerBack(store, inbox, Confirmations(inbox.page, client), retention_days=30)
    kept = asked(store, inbox, "kept", "What is your favourite opera?")
    key = inbox.page.keep_in_browser("kept")
    api = asked(store, inbox, "api", "whats ur favorite opera", email="grace@example.org")
    asked(store, inbox, "quiet", "Your favourite opera?")
    asked(store, inbox, "gone", "Favourite opera?", email="old@example.org")
    clock.now += 31 * 86400
    asked(store, inbox, "fresh", "Which opera is your favourite?")  # keeps "fresh" alive
    inbox.recorder.delete_older_than(30)  # the others' conversations pass their retention...
    [question] = store.questions.in_status()
    assert question.askers == 5  # ...but not the question, nor who asked it

    lines = back.deliver(question.id, "Tosca.")
    assert lines[0] == "Asked by 5 visitors:" and len(lines) == 6
    assert all("cannot see your answer" in line for line in lines[1:5])  # their conversations are gone
    assert "write to them at old@example.org" in lines[4] and "grace@example.org" in lines[2]
    assert lines[3].endswith("and they left no email address.")
    fresh = store.conversations.of_session("fresh").id
    assert lines[5] == f"#{fresh}: this visitor cannot see your answer (they came without a browser that " + (
        "keeps the conversation), and they left no email address."
    )
    [(role, text)] = [(m.role, m.text) for m in store.conversations.messages(fresh) if m.role == OWNER]
    assert text == "You asked: “Which opera is your favourite?”\n\nTosca."
    assert store.conversations.get(kept) is None and store.conversations.get(api) is None
    assert inbox.page.come_back(key) is None  # the browser's key opens nothing once it is gone


def test_a_kept_conversation_waits_for_its_browser_and_an_open_page_is_watched(store, fake_telegram):
    inbox = inbox_of(store, owner_name="Ada")
    client = TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id)
    back = AnswerBack(store, inbox, Confirmations(inbox.page, client), retention_days=30)
    closed = asked(store, inbox, "closed", "Do you sign NDAs?")
    key = inbox.page.keep_in_browser("closed")
    opened = asked(store, inbox, "open", "will u sign an nda")
    inbox.page.for_page("open")  # its page checks: it is open
    lines = back.deliver(store.questions.in_status()[0].id, "Yes.")
    assert lines[1] == (
        f"#{closed}: their page is closed; it shows your answer when they open the page again in the same "
        "browser (conversations are kept 30 days after their last message)."
    )
    assert lines[2] == f"#{opened}: their page is open; I'll say when it shows your answer."
    assert inbox.page.come_back(key) == "closed"
    news, _ = inbox.page.for_page("closed")  # the page opened again: the answer is news for it
    assert news and [m.text for m in store.conversations.messages(closed)][-1].endswith("Yes.")


def test_an_answer_the_database_could_not_save_is_said_to_be_unsaved_not_watched(store, fake_telegram):
    inbox = inbox_of(store, owner_name="Ada")
    client = TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id)
    confirmations = Confirmations(inbox.page, client)
    back = AnswerBack(store, inbox, confirmations, retention_days=30)
    opened = asked(store, inbox, "open", "Do you sign NDAs?")
    inbox.page.for_page("open")  # its page is open
    refuse_new_records(store.db, ["messages"])  # as a full disk would
    with pytest.raises(storage_errors()):  # what room the last pages still have, taken
        for _ in range(5000):
            store.conversations.add_message(opened, VISITOR, "x", 0.0)
    lines = back.deliver(store.questions.in_status()[0].id, "Yes.")
    assert lines == [f"#{opened}: your answer could not be saved in their conversation (the database failed)."]
    assert confirmations.step() == 3600.0  # nothing watched: no page will show it


def test_say_to_a_closed_page_tells_the_owner_whether_its_browser_will_show_it(store, fake_telegram):
    inbox = inbox_of(store, owner_name="Ada")
    client = TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id)
    talk = ConversationCommands(inbox, store, client, Confirmations(inbox.page, client))
    kept = asked(store, inbox, "kept", "Do you like cats?")
    inbox.page.keep_in_browser("kept")
    api = asked(store, inbox, "api", "Do you like dogs?")
    assert "shows your words when their browser opens the page again" in talk.say_to(kept, "Hello!")
    assert "they have not seen it" in talk.say_to(api, "Hello!")
