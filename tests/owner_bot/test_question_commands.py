"""The owner closes the loop from Telegram: replies teach answers, commands read leads and questions."""

from __future__ import annotations

import csv
import io
import logging
import re

from replica.storage.records import AlertKind
from tests.fakes.openai_server import call, say
from tests.fixtures.clients import app_client
from tests.fixtures.environment import wait_until
from tests.fixtures.processes import run_app

OPERA = "What is your favourite opera?"


def ask_unknown(url, fake_openai, fake_telegram, question=OPERA):
    """A visitor asks something the replica can't answer; return the Telegram message id of the alert."""
    fake_openai.script(call(("inform_unknown", {"question": question})), say("I'll ask and get back to you."))
    app_client(url).predict(question, api_name="/chat")
    before = len(fake_telegram.delivered)
    assert wait_until(lambda: any(question in d.text for d in fake_telegram.delivered[before - 1 :]))
    return len(fake_telegram.delivered)  # the stand-in numbers messages 1, 2, 3… in delivery order


def system_prompt_for_next_message(url, fake_openai):
    fake_openai.script(say("Sure."))
    app_client(url).predict("Tell me about music", api_name="/chat")
    return fake_openai.requests[-1]["messages"][0]["content"]


def test_owner_reply_teaches_the_replica_at_once_and_survives_a_restart(
    start_app, settings, fake_openai, fake_telegram
):
    app = start_app(settings)
    url = app.demo.local_url
    alert_id = ask_unknown(url, fake_openai, fake_telegram)
    assert "Reply to this message" in fake_telegram.delivered[-1].text

    fake_telegram.push("Puccini's Tosca, without a doubt.", reply_to=alert_id)
    assert wait_until(lambda: any("Learned answer #1" in t for t in fake_telegram.sent_texts()))
    assert "Puccini's Tosca, without a doubt." in system_prompt_for_next_message(url, fake_openai)

    app.close()
    polls = len(fake_telegram.polls)
    restarted = start_app(settings).demo.local_url
    assert "Puccini's Tosca, without a doubt." in system_prompt_for_next_message(restarted, fake_openai)
    # Polls after the restart: the stored offset means the reply is not handled again.
    assert wait_until(lambda: len(fake_telegram.polls) >= polls + 3)
    assert sum("Learned answer" in t for t in fake_telegram.sent_texts()) == 1


def test_without_a_model_the_owners_reply_answers_the_very_next_visitor(start_app, settings, fake_telegram):
    url = start_app(settings.updated(openai_api_key=None, openai_base_url=None)).demo.local_url
    first = app_client(url).predict(OPERA, api_name="/chat")
    assert first.endswith("I've passed your question on, so you'll get a proper answer.")
    assert wait_until(lambda: any(OPERA in d.text for d in fake_telegram.delivered))
    fake_telegram.push("Puccini's Tosca, without a doubt.", reply_to=len(fake_telegram.delivered))
    assert wait_until(lambda: any("Learned answer #1" in t for t in fake_telegram.sent_texts()))
    answer = app_client(url).predict("Which opera is your favourite?", api_name="/chat")
    assert answer == "Ada Lovelace answered this for an earlier visitor: Puccini's Tosca, without a doubt."


def test_strangers_can_neither_teach_nor_read_leads(start_app, settings, fake_openai, fake_telegram, caplog):
    url = start_app(settings).demo.local_url
    fake_openai.script(call(("gather_user_details", {"email": "secret@example.org", "notes": "n"})), say("Thanks."))
    app_client(url).predict("secret@example.org", api_name="/chat")
    alert_id = ask_unknown(url, fake_openai, fake_telegram)
    sent_before = len(fake_telegram.delivered)

    with caplog.at_level(logging.WARNING):
        fake_telegram.push("Wagner, obviously", reply_to=alert_id, chat_id="666")
        for _ in range(50):
            fake_telegram.push("/leads", chat_id="666")
        last = fake_telegram.updates[-1]["update_id"]
        # The bot polls again once it has handled every update it got: all 51 were handled (and answered, were
        # they answered at all) by then.
        assert wait_until(lambda: any(poll.get("offset", 0) > last for poll in fake_telegram.polls))
    strangers = [r.getMessage() for r in caplog.records if "not the owner's" in r.getMessage()]
    assert strangers == [
        "Ignored 1 Telegram message(s) or button press(es) from chats that are not the owner's "
        "(logged at most once a minute)"
    ]  # the first at once; the other 50 in a minute, counted
    assert len(fake_telegram.delivered) == sent_before  # nothing sent to anyone
    assert all(str(d.payload["chat_id"]) == fake_telegram.chat_id for d in fake_telegram.delivered)
    assert "Wagner" not in system_prompt_for_next_message(url, fake_openai)


def test_leads_and_unanswered_commands(start_app, settings, fake_openai, fake_telegram):
    url = start_app(settings).demo.local_url
    fake_openai.script(
        call(("gather_user_details", {"email": "grace@example.org", "notes": "Hiring <COBOL> devs", "name": "Grace"})),
        say("Thanks."),
    )
    app_client(url).predict("grace@example.org", api_name="/chat")
    opera = ask_unknown(url, fake_openai, fake_telegram)
    ask_unknown(url, fake_openai, fake_telegram, question="Do you like cats?")
    fake_telegram.push("Tosca.", reply_to=opera)
    assert wait_until(lambda: any("Learned answer" in t for t in fake_telegram.sent_texts()))

    fake_telegram.push("/leads")
    assert wait_until(lambda: "Recent leads" in fake_telegram.sent_texts()[-1])
    leads = fake_telegram.sent_texts()[-1]
    assert "“Grace” — grace@example.org — “Hiring <COBOL> devs”" in leads
    assert re.search(r"\(\d{4}-\d\d-\d\d \d\d:\d\d UTC, conversation 1: /show 1\)", leads), leads
    fake_telegram.push("/unanswered")
    assert wait_until(lambda: "Open questions" in fake_telegram.sent_texts()[-1])
    listing = fake_telegram.sent_texts()[-1]
    assert "Do you like cats?" in listing and OPERA not in listing and "/answer N" in listing
    assert re.search(r"\(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)", listing) and "+00:00" not in listing + leads
    fake_telegram.push("/recent")
    assert wait_until(
        lambda: "UTC" in fake_telegram.sent_texts()[-1] and "+00:00" not in fake_telegram.sent_texts()[-1]
    )


def test_answer_and_forget_commands(start_app, settings, fake_openai, fake_telegram):
    url = start_app(settings).demo.local_url
    ask_unknown(url, fake_openai, fake_telegram, question="Do you like cats?")
    fake_telegram.push("/answer 1 Yes, two of them.")
    assert wait_until(lambda: "Learned answer #1" in fake_telegram.sent_texts()[-1])
    assert "Yes, two of them." in system_prompt_for_next_message(url, fake_openai)
    fake_telegram.push("/forget 1")
    assert wait_until(lambda: "Withdrew answer #1" in fake_telegram.sent_texts()[-1])
    assert "Yes, two of them." not in system_prompt_for_next_message(url, fake_openai)
    fake_telegram.push("/unanswered")
    assert wait_until(lambda: "Do you like cats?" in fake_telegram.sent_texts()[-1])


def test_export_answers(start_app, settings, fake_openai, fake_telegram):
    app = start_app(settings)
    ask_unknown(app.demo.local_url, fake_openai, fake_telegram)
    fake_telegram.push("/answer 1 Tosca")
    assert wait_until(lambda: any("Learned answer" in t for t in fake_telegram.sent_texts()))
    done = run_app("export", "answers", DATA_DIR=str(settings.storage.data_dir))
    assert done.returncode == 0
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [(r["question"], r["answer"], r["status"]) for r in rows] == [(OPERA, "Tosca", "active")]


def test_faq_lists_the_learned_phrasings_with_the_number_to_withdraw_each(store):
    from replica.alerts import Alert
    from replica.knowledge.approved import alike
    from replica.owner_bot.question_commands import QuestionCommands

    commands = QuestionCommands(store, answer_back=None)
    assert commands.learned("").startswith("No learned answers yet")
    store.questions.record(
        "Are you available?", Alert(AlertKind.QUESTION, "Q", (("Question", "Are you available?"),), "s1").entry(), alike
    )
    [row] = store.questions.in_status("open")
    answer_id = store.answers.learn(row.id, "Yes, from next month.")
    listing = commands.learned("")
    assert f"<b>{answer_id}.</b> “Are you available?” → Yes, from next month." in listing and "/forget N" in listing
    store.answers.forget(answer_id)
    assert commands.learned("").startswith("No learned answers yet")
