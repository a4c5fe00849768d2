"""The conversation loop, driven through the real openai SDK against the scripted fake model."""

from __future__ import annotations

import json
import logging

import openai
import pytest

from replica import wording
from replica.chat.replica import Replica, Visitor
from replica.tools import default_registry
from tests.conftest import API_KEY
from tests.fakes.openai_server import call, fail, say


def test_plain_answer_comes_back_with_one_model_call(fake_openai, notifier, make_replica):
    fake_openai.script(say("I build analytical engines."))
    answer = make_replica().reply("What do you do?", [], Visitor("s1"))
    assert answer == "I build analytical engines."
    assert fake_openai.calls == 1
    assert fake_openai.auth_headers[0] == f"Bearer {API_KEY}"


def test_model_sees_system_prompt_then_history_then_new_message(fake_openai, notifier, make_replica):
    history = [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": [{"type": "text", "text": "Hello! Ask me anything."}]},
    ]
    make_replica().reply("Where do you live?", history, Visitor("s1"))
    sent = fake_openai.requests[0]["messages"]
    assert [(m["role"], m["content"]) for m in sent] == [
        ("system", "SYSTEM PROMPT"),
        ("user", "Hi"),
        ("assistant", "Hello! Ask me anything."),
        ("user", "Where do you live?"),
    ]
    assert fake_openai.requests[0]["model"] == "fake-model"
    assert {t["function"]["name"] for t in fake_openai.requests[0]["tools"]} == {
        "gather_user_details",
        "inform_unknown",
    }


def test_valid_email_alerts_owner_and_tool_result_reaches_model(fake_openai, notifier, make_replica):
    fake_openai.script(
        call(("gather_user_details", {"email": "grace@navy.mil", "notes": "Hiring for COBOL", "name": "Grace"})),
        say("Thanks Grace, I'll be in touch."),
    )
    answer = make_replica().reply("I'm Grace, grace@navy.mil, hiring!", [], Visitor("visitor-7"))
    assert answer == "Thanks Grace, I'll be in touch."
    [alert] = notifier.alerts
    assert alert.kind == "lead" and ("Email", "grace@navy.mil") in alert.fields and alert.session_id == "visitor-7"
    second = fake_openai.requests[1]["messages"]
    assert (
        second[-2]["role"] == "assistant" and second[-2]["tool_calls"][0]["function"]["name"] == "gather_user_details"
    )
    assert second[-1] == {"role": "tool", "tool_call_id": "call_0", "content": "ok"}


def test_invalid_email_sends_error_to_model_and_no_alert(fake_openai, notifier, make_replica):
    fake_openai.script(
        call(("gather_user_details", {"email": "grace@@navy", "notes": "Hiring"})),
        say("That address doesn't look right. Could you check it?"),
    )
    answer = make_replica().reply("grace@@navy", [], Visitor("s1"))
    assert "doesn't look right" in answer
    assert notifier.alerts == []
    tool_result = fake_openai.requests[1]["messages"][-1]["content"]
    assert tool_result.startswith("Error:") and "invalid" in tool_result and "valid email" in tool_result


def test_unknown_question_alerts_owner(fake_openai, notifier, make_replica):
    fake_openai.script(call(("inform_unknown", {"question": "What is your favourite opera?"})), say("I'll ask."))
    make_replica().reply("What is your favourite opera?", [], Visitor("s1"))
    [alert] = notifier.alerts
    assert alert.kind == "question" and alert.fields == (("Question", "What is your favourite opera?"),)


def test_model_asking_for_tools_forever_is_capped_at_two_calls_and_runs_them_once(
    fake_openai, notifier, store, make_replica, caplog
):
    fake_openai.default = call(("inform_unknown", {"question": "again?"}))  # ignores tool_choice="none"
    with caplog.at_level(logging.WARNING):
        answer = make_replica().reply("Tell me everything", [], Visitor("s1"))
    assert fake_openai.calls == 2
    assert fake_openai.requests[0]["tool_choice"] == "auto"
    assert fake_openai.requests[1]["tool_choice"] == "none"
    assert [row["question"] for row in store.questions.all()] == ["again?"] and len(notifier.alerts) == 1
    assert answer == wording.QUESTION_PASSED_ON  # words that fit what happened
    assert "tool_choice=none" in caplog.text


def test_max_turns_is_honoured(fake_openai, notifier, make_replica):
    fake_openai.default = call(("inform_unknown", {"question": "again?"}))
    make_replica(max_turns=3).reply("Hi", [], Visitor("s1"))
    assert [r["tool_choice"] for r in fake_openai.requests] == ["auto", "auto", "none"]


def test_two_tool_calls_in_one_round_each_get_a_result_in_order(fake_openai, notifier, make_replica):
    fake_openai.script(
        call(
            ("inform_unknown", {"question": "Salary?"}),
            ("gather_user_details", {"email": "bob@example.org", "notes": "Wants a call"}),
        ),
        say("Done."),
    )
    make_replica().reply("Salary? Reach me at bob@example.org", [], Visitor("s1"))
    tail = fake_openai.requests[1]["messages"][-3:]
    assert len(tail[0]["tool_calls"]) == 2
    assert [(m["role"], m["tool_call_id"], m["content"]) for m in tail[1:]] == [
        ("tool", "call_0", "ok"),
        ("tool", "call_1", "ok"),
    ]
    assert [a.kind for a in notifier.alerts] == ["question", "lead"]


@pytest.mark.parametrize(
    "name, arguments, expected",
    [
        ("delete_everything", "{}", 'tool "delete_everything" does not exist'),
        ("inform_unknown", '{"question": "unterminated', "not valid JSON"),
        ("gather_user_details", '{"notes": "no email"}', "missing required argument(s): email"),
        ("inform_unknown", '{"question": 42}', "question must be a string"),
    ],
)
def test_bad_tool_calls_become_error_text_for_the_model(fake_openai, notifier, name, arguments, expected, make_replica):
    fake_openai.script(call((name, arguments)), say("Sorry about that."))
    answer = make_replica().reply("Hi", [], Visitor("s1"))
    assert answer == "Sorry about that."
    result = fake_openai.requests[1]["messages"][-1]
    assert result["role"] == "tool" and result["content"].startswith("Error:") and expected in result["content"]
    assert notifier.alerts == []


@pytest.mark.parametrize("status", [500, 503, 429, 401])
def test_provider_failure_gives_an_apology_and_a_clean_log(fake_openai, notifier, caplog, status, make_replica):
    fake_openai.default = fail(status)
    with caplog.at_level(logging.INFO):
        answer = make_replica().reply("Hello?", [], Visitor("s1"))
    assert answer == wording.MODEL_FAILED
    assert str(status) in caplog.text and API_KEY not in caplog.text


def test_provider_recovers_after_one_500_thanks_to_sdk_retry(fake_openai, notifier, make_replica):
    fake_openai.script(fail(500), say("Back again."))
    assert make_replica().reply("Hello?", [], Visitor("s1")) == "Back again."
    assert fake_openai.calls == 2


def test_model_timeout_gives_an_apology(fake_openai, notifier, make_replica):
    fake_openai.default = say("too late", delay=2)
    answer = make_replica(timeout=0.5, max_retries=0).reply("Hello?", [], Visitor("s1"))
    assert answer == wording.MODEL_FAILED


def test_unreachable_provider_gives_an_apology(store, notifier):
    client = openai.OpenAI(api_key=API_KEY, base_url="http://127.0.0.1:9/v1", max_retries=0, timeout=2)
    replica = Replica(client, "m", lambda message: "S", default_registry(), store, notifier)
    assert replica.reply("Hello?", [], Visitor("s1")) == wording.MODEL_FAILED


@pytest.mark.parametrize("message", ["", "   \n\t ", "x" * 20_000])
def test_blank_or_huge_message_costs_no_model_call(fake_openai, notifier, message, make_replica):
    answer = make_replica(max_message_chars=4000).reply(message, [], Visitor("s1"))
    assert fake_openai.calls == 0
    assert answer in (wording.BLANK_MESSAGE, wording.TOO_LONG.format(limit=4000))


def test_without_a_client_the_visitor_is_told_how_to_configure(store, notifier):
    replica = Replica(None, "m", lambda message: "S", default_registry(), store, notifier)
    assert "OPENAI_API_KEY" in replica.reply("Hello", [], Visitor("s1"))


def test_tool_calls_on_the_last_turn_still_alert_but_make_no_further_call(fake_openai, notifier, make_replica):
    fake_openai.default = call(("gather_user_details", json.dumps({"email": "a@example.org", "notes": "x"})))
    make_replica(max_turns=1).reply("a@example.org", [], Visitor("s1"))
    assert fake_openai.calls == 1 and [a.kind for a in notifier.alerts] == ["lead"]
