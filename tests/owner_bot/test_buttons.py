"""The buttons on alerts (replica/owner_bot/buttons.py), pressed in the owner's chat: each press answered,
the alert's buttons showing the new state, the same press twice doing it once, and a press of a button
the bot never made, or in another chat, answered without acting. Against the Telegram stand-in, which
answers a press once and edits a keyboard only when it changes, as the Bot API does."""

from __future__ import annotations

import pytest

from replica.alerts import Alert
from replica.knowledge.approved import alike
from replica.owner_bot.buttons import Buttons
from replica.owner_bot.owner import Owner
from replica.storage.records import AlertKind
from replica.telegram.client import TelegramClient
from replica.telegram.updates import Button, ButtonPress, parse_update

LEAD_KEYS = ((Button("Open conversation", "show:1"), Button("Mark handled", "handled:1")),)
QUESTION_KEYS = ((Button("Answer", "answer:1"), Button("Dismiss", "dismiss:1")),)


@pytest.fixture
def client(fake_telegram):
    return TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id, timeout=(2, 5))


@pytest.fixture
def buttons(store, client, fake_telegram):
    return Buttons(store, client, conversations=None, owner=Owner(fake_telegram.chat_id))


def pressed(fake_telegram, data: str, message_id: int, chat_id: str | None = None) -> ButtonPress:
    """The owner (or a chat ``chat_id``) presses ``data`` on message ``message_id``: the press as read."""
    fake_telegram.push_callback(data, message_id, chat_id=chat_id)
    return parse_update(fake_telegram.updates[-1]).press


def answered(fake_telegram) -> list[str]:
    return [answer["text"] for answer in fake_telegram.callback_answers]


def a_lead(store, client) -> int:
    store.leads.record(
        "ada@example.org", "", "", Alert(AlertKind.LEAD, "L", (("Email", "ada@example.org"),), "s1").entry()
    )
    return client.send_message("New lead #1", reply_markup=LEAD_KEYS)


def test_mark_handled_marks_the_lead_once_and_relabels_its_button(buttons, store, client, fake_telegram):
    alert = a_lead(store, client)
    buttons.press(pressed(fake_telegram, "handled:1", alert))
    buttons.press(pressed(fake_telegram, "handled:1", alert))  # again, on the relabelled buttons
    assert answered(fake_telegram) == ["Marked handled.", "Already handled."]
    assert store.leads.all()[0].status == "handled"
    [shown] = fake_telegram.delivered
    assert len(fake_telegram.markup_edits) == 1 and shown.keys == [
        [("Open conversation", "show:1"), ("✓ Handled", "handled:1")]
    ]


def test_answer_asks_for_a_reply_and_dismiss_takes_the_answer_button_away(buttons, store, client, fake_telegram):
    store.questions.record("Opera?", Alert(AlertKind.QUESTION, "Q", (("Question", "Opera?"),), "s1").entry(), alike)
    alert = client.send_message("Unanswered question #1", reply_markup=QUESTION_KEYS)
    buttons.press(pressed(fake_telegram, "answer:1", alert))
    assert fake_telegram.delivered[-1].asks_reply == "Your answer"
    assert "“Opera?”" in fake_telegram.sent_texts()[-1]
    buttons.press(pressed(fake_telegram, "dismiss:1", alert))
    assert answered(fake_telegram) == ["Type your answer as a reply.", "Dismissed."]
    assert len(fake_telegram.markup_edits) == 1 and fake_telegram.delivered[0].keys == [[("✓ Dismissed", "dismiss:1")]]


def test_a_button_the_bot_never_made_or_a_gone_question_is_answered_and_does_nothing(
    buttons, store, client, fake_telegram
):
    alert = a_lead(store, client)
    for data in ("delete_everything:1", "handled:one", "answer:99"):
        buttons.press(pressed(fake_telegram, data, alert))
    assert answered(fake_telegram) == ["Unknown button.", "Unknown button.", "That question is gone."]
    assert len(fake_telegram.delivered) == 1 and fake_telegram.markup_edits == []
    assert store.leads.all()[0].status == "new"


def test_a_press_in_another_chat_is_answered_and_does_nothing(buttons, store, client, fake_telegram):
    alert = a_lead(store, client)
    buttons.press(pressed(fake_telegram, "handled:1", alert, chat_id="999"))
    assert answered(fake_telegram) == ["This button only works in its owner's chat."]
    assert store.leads.all()[0].status == "new" and fake_telegram.markup_edits == []


def test_answer_with_your_faq_answers_the_asker_keeps_the_phrasing_and_acts_once(start_app, settings, fake_telegram):
    """As the app runs: no model, the example knowledge; a question the FAQ comes close to but does not
    answer is passed on with a button that answers it with that entry in one tap."""

    from replica.chat.reply import Visitor
    from tests.fixtures.environment import ROOT, wait_until

    app = start_app(settings.updated(openai_api_key=None, openai_base_url=None, knowledge_dir=ROOT / "knowledge"))
    first = app.replica.reply("Are you available for a call?", Visitor("s1", "203.0.113.9"))
    assert "passed your question on" in first  # too little to quote an answer to visitors
    [alert] = fake_telegram.wait_for(1)
    faq = "Answer with your FAQ “Are you available for new projects?”"
    assert [faq] in alert.buttons and alert.data_of(faq) == "faq:1"
    fake_telegram.push_callback(alert.data_of(faq), alert.message_id)
    fake_telegram.push_callback(alert.data_of(faq), alert.message_id)  # again: it acts once
    assert wait_until(lambda: len(fake_telegram.callback_answers) == 2)
    assert answered(fake_telegram) == ["Answered with your FAQ.", "That question is no longer open."]
    assert any(
        text.startswith("Learned answer #1 to “Are you available for a call?”") for text in fake_telegram.sent_texts()
    )
    said = [m["text"] for c in app.store.reports.records() for m in c["messages"]]
    assert any("Yes, from next month" in text for text in said)  # the asker's conversation has it
    # The phrasing is kept: the next visitor who asks so is answered at once, no alert.
    again = app.replica.reply("Are you available for a call?", Visitor("s2", "203.0.113.10"))
    assert again.startswith("Ada Lovelace answered this for an earlier visitor: Yes, from next month")
    assert len(app.store.questions.all()) == 1  # nothing new passed on
