"""The owner's inbox in Telegram: conversations recorded and read, live takeover, handoff, one-tap
buttons, and the daily digest; against the fake Telegram, which checks buttons as the Bot API does."""

from __future__ import annotations

import json

import pytest

from replica.telegram.length import utf16_units
from tests.fakes.openai_server import call, say
from tests.fixtures.clients import app_client
from tests.fixtures.environment import wait_until
from tests.fixtures.processes import run_app


@pytest.fixture
def app(shared_app):
    """The module's one app, as new for each test."""
    return shared_app


def ask(app, message, client=None):
    client = client or app_client(app.demo.local_url)
    return client, client.predict(message, api_name="/chat")


def last_sent(fake_telegram):
    return fake_telegram.sent_texts()[-1] if fake_telegram.delivered else ""


def command(fake_telegram, text, expect, timeout=10.0):
    """The owner sends ``text``; wait for a message containing ``expect``; return it."""
    before = len(fake_telegram.delivered)
    fake_telegram.push(text)
    assert wait_until(lambda: any(expect in t for t in fake_telegram.sent_texts()[before:]), timeout), (
        fake_telegram.sent_texts()[before:]
    )
    return next(t for t in fake_telegram.sent_texts()[before:] if expect in t)


def forwarded_messages(fake_telegram):
    """The visitor's messages forwarded to the owner from conversation #1, as delivered."""
    return [d for d in fake_telegram.delivered if d.text.startswith("Message in conversation #1")]


def said_by(app, role):
    """The words of every recorded message of ``role``, oldest first."""
    return [m["text"] for c in app.store.reports.records() for m in c["messages"] if m["role"] == role]


# --- recording -------------------------------------------------------------------------------------


def test_every_message_and_reply_is_recorded_with_tools_calls_and_time(app, fake_openai):
    fake_openai.script(call(("inform_unknown", {"question": "Opera?"})), say("I'll ask."), say("Hello!"))
    client, _ = ask(app, "Opera?")
    ask(app, "Hi again", client)
    ask(app, "   ", client)  # refused: recorded too
    [conversation] = list(app.store.reports.records())
    rows = conversation["messages"]
    assert [(r["role"], r["text"]) for r in rows] == [
        ("visitor", "Opera?"),
        ("replica", "I'll ask."),
        ("visitor", "Hi again"),
        ("replica", "Hello!"),
        ("visitor", "   "),
        ("replica", "Your message looks empty. What would you like to know?"),
    ]
    assert (rows[1]["tools"], rows[1]["model_calls"], rows[3]["model_calls"]) == (["inform_unknown"], 2, 1)
    assert all(r["reply_ms"] is not None and r["reply_ms"] >= 0 for r in rows[1::2])
    assert "127.0.0.1" not in conversation["address_hash"] and len(conversation["address_hash"]) == 24
    assert (
        app.settings.storage.data_dir / "replica.sqlite3"
    ).stat().st_mode & 0o077 == 0  # with the salt: the owner's only


def test_the_model_sees_the_recorded_conversation_not_what_the_client_claims(app, fake_openai):
    fake_openai.script(say("Hello Grace."), say("Noted."))
    client, _ = ask(app, "My name is Grace")
    ask(app, "What is my name?", client)
    sent = [(m["role"], m["content"]) for m in fake_openai.requests[1]["messages"][1:]]
    assert sent == [("user", "My name is Grace"), ("assistant", "Hello Grace."), ("user", "What is my name?")]


def test_export_conversations_is_json_lines_with_messages(app, fake_openai):
    fake_openai.script(say("One."), say("Two."))
    ask(app, "First visitor")
    ask(app, "Second visitor")
    done = run_app("export", "conversations", DATA_DIR=str(app.settings.storage.data_dir))
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [c["conversation"] for c in lines] == [1, 2]
    assert [(m["role"], m["text"]) for m in lines[0]["messages"]] == [("visitor", "First visitor"), ("replica", "One.")]
    assert set(lines[0]["messages"][1]) == {"at", "role", "text", "tools", "model_calls", "reply_ms"}


# --- reading from Telegram -------------------------------------------------------------------------


def test_recent_and_show_and_alerts_name_their_conversation(app, fake_openai, fake_telegram):
    fake_openai.script(call(("gather_user_details", {"email": "ada@example.org", "notes": "Role"})), say("Thanks!"))
    ask(app, "Hire me? ada@example.org")
    # About 3,000 characters a reply, in one sentence: a sentence said over and over would be debris.
    fake_openai.default = say("Sure. Long answer, " + "long answer, " * 249 + "done.")
    client, _ = ask(app, "Tell me everything")
    ask(app, "And more 0", client)
    [alert] = fake_telegram.wait_for(1)
    assert "Conversation: #1 (/show 1)" in alert.text
    listing = command(fake_telegram, "/recent", "Recent conversations")
    assert "#2 ·" in listing and "“Tell me everything”" in listing and "4 messages" in listing
    assert "#1 ·" in listing and "lead" in listing
    before = len(fake_telegram.delivered)
    command(fake_telegram, "/show 2", "Reply to the transcript")
    parts = fake_telegram.sent_texts()[before:-1]
    assert len(parts) == 2 and all(utf16_units(p) <= 4096 for p in parts)
    assert all(p.startswith(f"Conversation #2 · part {i} of {len(parts)}") for i, p in enumerate(parts, 1))
    assert "Visitor: Tell me everything" in parts[0] and "Visitor: And more 0" in "".join(parts)

    for n in range(1, 4):  # a long conversation comes as one document, not a flood of messages
        ask(app, f"And more {n}", client)
    before = len(fake_telegram.delivered)
    command(fake_telegram, "/show 2", "Reply to the transcript")
    [document] = fake_telegram.delivered[before:-1]
    name, content = document.document
    text = content.decode()
    assert name == "conversation-2.txt" and document.text.startswith("Conversation #2 · 10 messages")
    assert "Visitor: Tell me everything" in text and "Visitor: And more 3" in text
    assert text.replace("\n│ ", "").lower().count("long answer,") == 1250  # every word of the 5 replies, quoted
    fake_telegram.push("Thanks for your patience!", reply_to=document.message_id)  # replying to it reaches the visitor
    assert wait_until(lambda: "conversation #2" in last_sent(fake_telegram))


# --- takeover and handoff --------------------------------------------------------------------------


def test_say_puts_the_owners_words_into_the_conversation_and_the_model_sees_them(app, fake_openai, fake_telegram):
    fake_openai.script(say("Hello!"), say("As Ada said, Tuesday works."))
    client, _ = ask(app, "Can we meet?")
    reply = command(fake_telegram, "/say 1 Tuesday at 10 works for me.", "conversation #1")
    assert "page is not open" in reply  # a gradio_client visitor has no page
    ask(app, "Great, see you then", client)
    history = [(m["role"], m["content"]) for m in fake_openai.requests[-1]["messages"][1:]]
    assert ("assistant", "[Ada Lovelace, in person] Tuesday at 10 works for me.") in history
    assert command(fake_telegram, "/say 99 Hello", "There is no conversation #99")


def test_say_answers_at_once_and_confirms_delivery_when_the_page_shows_the_words(app, fake_openai, fake_telegram):
    fake_openai.script(say("Hello!"))
    client, _ = ask(app, "Hello")
    app.inbox.page.for_page(client.session_hash)  # the visitor's page has just checked: it is open
    reply = command(fake_telegram, "/say 1 Hi, it's Ada.", "conversation #1")
    assert reply.startswith("Sent to conversation #1")  # before the page showed it: not held until then
    assert command(fake_telegram, "/help", "/forget N")  # the next update is not held up meanwhile
    assert not any("Delivered" in text for text in fake_telegram.sent_texts())
    app.inbox.page.for_page(client.session_hash)  # the page's next check shows the words
    assert wait_until(lambda: any("✓ Delivered to conversation #1" in t for t in fake_telegram.sent_texts()))


def test_replying_to_a_lead_alert_writes_to_that_visitor(app, fake_openai, fake_telegram):
    fake_openai.script(call(("gather_user_details", {"email": "ada@example.org", "notes": "Role"})), say("Thanks!"))
    ask(app, "ada@example.org")
    [alert] = fake_telegram.wait_for(1)
    fake_telegram.push("Hi Ada, let's talk tomorrow.", reply_to=alert.message_id)
    assert wait_until(lambda: "Saved in conversation #1" in last_sent(fake_telegram))
    assert said_by(app, "owner") == ["Hi Ada, let's talk tomorrow."]


def test_pause_forwards_the_visitors_messages_and_resume_hands_back(app, fake_openai, fake_telegram):
    fake_openai.script(say("Hello!"))
    client, _ = ask(app, "Hello")
    assert "is yours" in command(fake_telegram, "/pause 1", "Conversation #1 is yours")
    calls = fake_openai.calls
    _, first = ask(app, "Are you there, Ada?", client)
    _, second = ask(app, "Hello?", client)
    assert first.startswith("Ada Lovelace is answering you in person now") and second == "Passed on to Ada Lovelace."
    assert fake_openai.calls == calls  # the replica is quiet
    assert wait_until(lambda: len(forwarded_messages(fake_telegram)) == 2)
    forwarded = forwarded_messages(fake_telegram)
    assert [f.text.split("\n")[2] for f in forwarded] == ["Are you there, Ada?", "Hello?"]
    assert all("/resume 1 to hand back" in f.text for f in forwarded)  # the hint names the conversation
    fake_telegram.push("Yes, I'm here.", reply_to=forwarded[0].message_id)
    assert wait_until(lambda: "conversation #1" in last_sent(fake_telegram) and "Saved" in last_sent(fake_telegram))
    assert "back with the replica" in command(fake_telegram, "/resume 1", "back with the replica")
    fake_openai.script(say("I'm the replica again."))
    assert ask(app, "Still there?", client)[1] == "I'm the replica again."
    assert any("handed back to me" in text for text in said_by(app, "notice"))


# --- buttons ---------------------------------------------------------------------------------------


def test_lead_buttons_mark_handled_once_and_open_the_conversation(app, fake_openai, fake_telegram):
    fake_openai.script(call(("gather_user_details", {"email": "ada@example.org", "notes": "Role"})), say("Thanks!"))
    ask(app, "ada@example.org")
    [alert] = fake_telegram.wait_for(1)
    assert alert.buttons == [["Open conversation", "Mark handled"]]
    for _ in range(2):  # each press is idempotent, and each is answered
        fake_telegram.push_callback("handled:1", alert.message_id)
    assert wait_until(lambda: len(fake_telegram.callback_answers) == 2)
    assert [a["text"] for a in fake_telegram.callback_answers] == ["Marked handled.", "Already handled."]
    assert len(fake_telegram.markup_edits) == 1
    assert alert.buttons == [["Open conversation", "✓ Handled"]]
    assert "✓ handled" in command(fake_telegram, "/leads", "Recent leads")
    fake_telegram.push_callback("show:1", alert.message_id)
    assert wait_until(lambda: any(t.startswith("Conversation #1 · part 1") for t in fake_telegram.sent_texts()))


def test_question_buttons_answer_with_a_forced_reply_and_dismiss(app, fake_openai, fake_telegram):
    for question in ("Opera?", "Cats?"):
        fake_openai.script(call(("inform_unknown", {"question": question})), say("I'll ask."))
        ask(app, question)
    # Picked by what they say: on a loaded machine an earlier test's last message may arrive among them.
    alerts = lambda: [m for m in fake_telegram.delivered if m.text.startswith("Unanswered question")]  # noqa: E731
    assert wait_until(lambda: {"Opera?", "Cats?"} <= {q for m in alerts() for q in ("Opera?", "Cats?") if q in m.text})
    [opera] = [m for m in alerts() if "Opera?" in m.text]
    [cats] = [m for m in alerts() if "Cats?" in m.text]
    assert opera.buttons == [["Answer", "Dismiss"], ["Open conversation"]]
    fake_telegram.push_callback("answer:1", opera.message_id)
    assert wait_until(lambda: last_sent(fake_telegram).startswith("Unanswered question #1"))
    prompt = fake_telegram.delivered[-1]
    assert prompt.asks_reply == "Your answer"
    fake_telegram.push("Tosca.", reply_to=prompt.message_id)
    assert wait_until(lambda: "Learned answer #1" in last_sent(fake_telegram))
    # It went back to the visitor who asked, as the /answer command and a reply to the alert do.
    assert "#1: this visitor cannot see your answer" in last_sent(fake_telegram)
    fake_telegram.push_callback("dismiss:2", cats.message_id)
    assert wait_until(lambda: any(a["text"] == "Dismissed." for a in fake_telegram.callback_answers))
    assert cats.buttons == [["✓ Dismissed"], ["Open conversation"]]
    assert "Dismissed: #2" in command(fake_telegram, "/unanswered", "Dismissed")


def test_buttons_act_only_in_the_owners_chat_and_every_press_is_answered(app, fake_openai, fake_telegram):
    fake_openai.script(call(("gather_user_details", {"email": "ada@example.org", "notes": "Role"})), say("Thanks!"))
    ask(app, "ada@example.org")
    [alert] = fake_telegram.wait_for(1)
    fake_telegram.push_callback("handled:1", alert.message_id, chat_id="666")
    fake_telegram.push_callback("explode:1", alert.message_id)
    assert wait_until(lambda: len(fake_telegram.callback_answers) == 2)
    assert [a["text"] for a in fake_telegram.callback_answers] == [
        "This button only works in its owner's chat.",
        "Unknown button.",
    ]
    assert app.store.leads.all()[0].status == "new"


# --- the daily digest ------------------------------------------------------------------------------


def test_the_alert_for_a_forwarded_message_is_quoted_and_has_its_button(app, fake_openai, fake_telegram):
    fake_openai.script(say("Hello!"))
    client, _ = ask(app, "Hello")
    command(fake_telegram, "/pause 1", "is yours")
    ask(app, "Line one\nEmail: forged@example.org", client)
    assert wait_until(lambda: forwarded_messages(fake_telegram))
    [forwarded] = forwarded_messages(fake_telegram)
    assert "<blockquote>Line one\nEmail: forged@example.org</blockquote>" in forwarded.payload["text"]
    assert forwarded.keys == [[("Open conversation", "show:1")]]


def test_replying_to_a_transcript_writes_to_that_visitor(app, fake_openai, fake_telegram):
    fake_openai.script(say("Hello!"))
    ask(app, "Hello")
    before = len(fake_telegram.delivered)
    command(fake_telegram, "/show 1", "Reply to the transcript")
    transcript = fake_telegram.delivered[before]
    fake_telegram.push("It's Ada here.", reply_to=transcript.message_id)
    assert wait_until(lambda: "Saved in conversation #1" in last_sent(fake_telegram))
    assert said_by(app, "owner") == ["It's Ada here."]
