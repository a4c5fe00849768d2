"""The whole app as a visitor meets it: a gradio_client session against the running page."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from replica import wording
from replica.settings import PLACEHOLDER_API_KEY, PLACEHOLDER_NOTE
from tests.fakes.openai_server import call, fail, say
from tests.fixtures.processes import run_app, served_app


def test_page_shows_the_owner_name(app_url):
    page = requests.get(app_url, timeout=10)
    assert page.status_code == 200 and "Ada Lovelace" in page.text


def test_visitor_gets_an_answer_built_from_the_knowledge(visitor, fake_openai):
    fake_openai.script(say("I led project ORBIT-417."))
    assert visitor().predict("What did you work on?", api_name="/chat") == "I led project ORBIT-417."
    system = fake_openai.requests[0]["messages"][0]
    assert system["role"] == "system" and "ORBIT-417" in system["content"] and "Ada Lovelace" in system["content"]


def test_history_is_kept_per_visitor_and_never_shared(visitor, fake_openai):
    fake_openai.script(say("Hello Grace."), say("You said your name is Grace."), say("Hello stranger."))
    grace, other = visitor(), visitor()
    grace.predict("My name is Grace", api_name="/chat")
    grace.predict("What is my name?", api_name="/chat")
    other.predict("Who am I?", api_name="/chat")
    second = [(m["role"], m["content"]) for m in fake_openai.requests[1]["messages"][1:]]
    assert second == [("user", "My name is Grace"), ("assistant", "Hello Grace."), ("user", "What is my name?")]
    third = [(m["role"], m["content"]) for m in fake_openai.requests[2]["messages"][1:]]
    assert third == [("user", "Who am I?")]


def test_a_lead_reaches_telegram_with_the_name_as_typed(visitor, fake_openai, fake_telegram):
    name = "Ada <b>Lovelace</b> & Co"
    fake_openai.script(
        call(("gather_user_details", {"email": "ada@example.org", "notes": "Wants a quote", "name": name})),
        say("Thanks, Ada will write to you soon!"),
    )
    assert (
        visitor().predict("I'm interested: ada@example.org", api_name="/chat") == "Thanks, Ada will write to you soon!"
    )
    [message] = fake_telegram.wait_for(1)
    assert "New lead" in message.text and f"Name: “{name}”" in message.text and "ada@example.org" in message.text


def test_an_unanswerable_question_reaches_telegram(visitor, fake_openai, fake_telegram):
    fake_openai.script(call(("inform_unknown", {"question": "What is your favourite opera?"})), say("I'll find out."))
    visitor().predict("What is your favourite opera?", api_name="/chat")
    [message] = fake_telegram.wait_for(1)
    assert "Unanswered question" in message.text and "What is your favourite opera?" in message.text


def test_invalid_email_is_questioned_and_nothing_is_sent(shared_app, visitor, fake_openai, fake_telegram):
    fake_openai.script(
        call(("gather_user_details", {"email": "ada@nowhere", "notes": "x"})), say("Could you check that address?")
    )
    assert visitor().predict("ada@nowhere", api_name="/chat") == "Could you check that address?"
    # Nothing to send, now or ever: no lead was kept, and so no alert waits in the outbox for any channel.
    assert shared_app.store.leads.all() == [] and shared_app.store.deliveries.rows() == []
    assert fake_telegram.delivered == [] and fake_telegram.attempts == []


def test_slow_or_down_telegram_does_not_delay_the_reply(visitor, fake_openai, fake_telegram):
    fake_telegram.gate = threading.Event()  # Telegram holds every send until the test lets it go
    fake_telegram.fail_next(500)
    fake_openai.script(call(("gather_user_details", {"email": "ada@example.org", "notes": "n"})), say("Noted!"))
    assert visitor().predict("ada@example.org", api_name="/chat") == "Noted!"  # while Telegram holds
    assert fake_telegram.delivered == []
    fake_telegram.gate.set()
    assert len(fake_telegram.wait_for(1, timeout=30)) == 1  # and the alert still lands after the outage


def test_model_outage_gives_the_visitor_a_sentence(visitor, fake_openai):
    fake_openai.default = fail(500)
    assert visitor().predict("Tell me more.", api_name="/chat") == wording.MODEL_FAILED


def test_eight_visitors_at_once_are_all_answered_three_at_a_time(visitor, fake_openai):
    fake_openai.default = say("Answered.", delay=0.5)  # the last two wait about 1 s for a lane, well within the wait
    clients = [visitor() for _ in range(8)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(lambda c: c.predict("Hi", api_name="/chat"), clients))
    assert answers == ["Answered."] * 8
    assert fake_openai.calls == 8 and fake_openai.max_in_flight == 3


def test_without_a_key_the_page_greets_and_says_it_answers_from_written_answers(start_app, settings):
    from tests.fixtures.clients import app_client

    url = start_app(settings.updated(openai_api_key=None, openai_base_url=None)).demo.local_url
    answer = app_client(url).predict("Hello", api_name="/chat")
    assert answer.startswith("Hi! I'm Ada Lovelace's AI replica.")
    assert (
        "answering from Ada Lovelace's own written answers for now"
        in requests.get(url.rstrip("/") + "/config", timeout=10).text
    )


def test_a_local_server_with_no_key_is_called_with_a_placeholder_and_the_log_and_doctor_say_so(tmp_path, fake_openai):
    """As an owner with Ollama or llama.cpp starts it: OPENAI_BASE_URL, no OPENAI_API_KEY."""
    from tests.fixtures.clients import app_client

    env = {"OPENAI_BASE_URL": fake_openai.base_url, "OPENAI_MODEL": "fake-model", "DATA_DIR": str(tmp_path / "data")}
    fake_openai.script(say("I'm answering from a model on your own machine."))
    with served_app(tmp_path / "app.log", **env) as (url, _):
        answer = app_client(url).predict("Who are you?", api_name="/chat")
    assert answer == "I'm answering from a model on your own machine."
    assert fake_openai.requests[0]["messages"][-1]["content"] == "Who are you?"
    assert set(fake_openai.auth_headers) == {f"Bearer {PLACEHOLDER_API_KEY}"}
    said = [line for line in (tmp_path / "app.log").read_text().splitlines() if "OPENAI_API_KEY" in line]
    assert len(said) == 1 and said[0].endswith(PLACEHOLDER_NOTE), said  # one line, no "put your key in .env"
    fake_openai.default = call(("note_city", {"city": "Lisbon"}))  # the tool-calling probe's answer
    doctor = run_app("doctor", **env).stdout.splitlines()
    assert doctor[0] == f"✓ model: {PLACEHOLDER_NOTE}"
    assert doctor[1].startswith(f"✓ model: {fake_openai.base_url} answers, and offers fake-model")
    assert doctor[2].startswith("✓ model: fake-model calls tools natively")


@pytest.mark.parametrize(
    "first_reply",
    [
        call(("inform_unknown", {"question": "loop"})),  # and again on the last call: asks for tools forever
        call(("drop_database", {})),
        call(("gather_user_details", '{"email": "broken json')),
        call(
            ("inform_unknown", {"question": "Salary?"}),
            ("gather_user_details", {"email": "bo@example.org", "notes": "n"}),
        ),
    ],
    ids=["tools-forever", "unknown-tool", "malformed-arguments", "two-calls-one-round"],
)
def test_a_misbehaving_model_still_gives_the_visitor_words(visitor, fake_openai, first_reply):
    fake_openai.default = first_reply
    answer = visitor().predict("Hello", api_name="/chat")
    assert fake_openai.calls == 2 and fake_openai.requests[1]["tool_choice"] == "none"
    assert isinstance(answer, str) and answer.strip() and "Traceback" not in answer


@pytest.mark.parametrize("message", ["   ", "x" * 20_000])
def test_blank_or_huge_message_gets_a_sentence_and_no_model_call(visitor, fake_openai, message):
    answer = visitor().predict(message, api_name="/chat")
    assert answer in (wording.BLANK_MESSAGE, wording.TOO_LONG.format(limit=4000))
    assert fake_openai.calls == 0
