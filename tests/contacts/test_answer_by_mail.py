"""The owner's answer by e-mail: an asker who can see it in no page, but confirmed an address with a
code, is offered to the owner with a button; one tap mails the answer (who it is from, the question
quoted) through the same service; an address never confirmed is never offered."""

from __future__ import annotations

from replica.contacts import CodeMailer, MailService
from replica.contacts.codes import CodeKey
from replica.owner_bot.answer_back import MAIL_BUTTON, AnswerBack
from replica.owner_bot.buttons import Buttons
from replica.owner_bot.confirmations import Confirmations
from replica.owner_bot.owner import Owner
from replica.telegram.client import TelegramClient
from replica.telegram.updates import parse_update
from tests.fixtures.replicas import asked, inbox_of


def test_one_tap_mails_the_answer_to_the_confirmed_address_and_only_there(store, fake_telegram, fake_mail):
    inbox = inbox_of(store, owner_name="Ada Lovelace")
    client = TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id, timeout=(2, 5))
    back = AnswerBack(store, inbox, Confirmations(inbox.page, client), 30, client, "Ada Lovelace")
    asked(store, inbox, "confirmed", "Do you mentor juniors?", email="grace@example.org")
    _, code_id = store.codes.request("confirmed", "grace@example.org", "client")
    store.codes.tried(code_id, [True])
    asked(store, inbox, "unconfirmed", "do u mentor juniors", email="eve@example.org")
    lines = back.deliver(store.questions.in_status()[0].id, "Yes, two a year.")
    assert "they confirmed grace@example.org: the button below mails it." in lines[1]
    assert "write to them at eve@example.org" in lines[2]  # not confirmed: named, never mailed
    [offer] = [m for m in fake_telegram.delivered if m.buttons]
    assert "confirmed grace@example.org" in offer.text
    assert offer.buttons == [[MAIL_BUTTON]] and fake_mail.mails == []  # nothing goes before the tap

    mailer = CodeMailer(store.codes, MailService(fake_mail.url), CodeKey("salt"), "Ada Lovelace", store.answer_mails)
    buttons = Buttons(store, client, None, Owner(fake_telegram.chat_id), mail_answers=mailer.notify)
    tap = offer.data_of(MAIL_BUTTON)
    for _ in range(2):  # the second tap, on the relabelled button, mails nothing more
        fake_telegram.push_callback(tap, offer.message_id)
        buttons.press(parse_update(fake_telegram.updates[-1]).press)
    mailer.step()
    fake_mail.wait_for("grace@example.org", 2)  # the code mail the setup asked for, and the answer
    [mail] = [m for m in fake_mail.to("grace@example.org") if "answer" in m.subject]
    assert mail.subject == "Ada Lovelace's answer to your question"
    assert "> Do you mentor juniors?" in mail.text and "Yes, two a year." in mail.text
    answers = [a["text"] for a in fake_telegram.callback_answers]
    assert answers == ["Your answer goes to grace@example.org by e-mail.", "That mail was sent already, or is gone."]
    assert offer.buttons == [["✓ Mailed to grace@example.org"]]
    mailer.step()
    assert len(fake_mail.mails) == 2 and fake_mail.to("eve@example.org") == []


def test_without_verified_contacts_no_mail_is_offered(store, fake_telegram):
    inbox = inbox_of(store, owner_name="Ada Lovelace")
    client = TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id, timeout=(2, 5))
    back = AnswerBack(store, inbox, Confirmations(inbox.page, client), 30)  # no client for offers: off
    asked(store, inbox, "confirmed", "Do you mentor juniors?", email="grace@example.org")
    _, code_id = store.codes.request("confirmed", "grace@example.org", "client")
    store.codes.tried(code_id, [True])
    [line] = back.deliver(store.questions.in_status()[0].id, "Yes.")
    assert "write to them at grace@example.org" in line and fake_telegram.delivered == []
