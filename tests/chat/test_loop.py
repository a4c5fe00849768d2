"""The conversation loop, with the in-process chat model: what the model is sent, the tools it asks for,
the bounds on its calls, and the sentence the visitor gets whatever it does."""

from __future__ import annotations

import json
import logging

import pytest

from replica import wording
from replica.chat.reply import Visitor
from replica.storage.records import AlertKind
from replica.tools import default_registry
from tests.fakes.openai_server import call, fail, say
from tests.fixtures.replicas import replica_around


def test_plain_answer_comes_back_with_one_model_call(fake_model, make_loop_replica):
    fake_model.script(say("I build analytical engines."))
    assert make_loop_replica().reply("What do you do?", Visitor("s1")) == "I build analytical engines."
    assert fake_model.calls == 1 and fake_model.requests[0]["max_tokens"] == 600


def test_model_sees_system_prompt_then_the_recorded_conversation_then_the_new_message(fake_model, make_loop_replica):
    replica = make_loop_replica()
    fake_model.script(say("Hello! Ask me anything."), say("In London."))
    replica.reply("Hi", Visitor("s1"))
    replica.reply("Where do you live?", Visitor("s1"))
    replica.reply("And you?", Visitor("another visitor"))
    sent = [(m["role"], m["content"]) for m in fake_model.requests[1]["messages"]]
    assert (
        sent[0][1].startswith("You are Ada Lovelace's AI replica")
        and "## What the records of this conversation show" in sent[0][1]
    )
    assert sent[1:] == [
        ("user", "Hi"),
        ("assistant", "Hello! Ask me anything."),
        ("user", "Where do you live?"),
    ]
    assert [m["role"] for m in fake_model.requests[2]["messages"]] == ["system", "user"]  # nothing of s1
    assert {t["function"]["name"] for t in fake_model.requests[0]["tools"]} == set(default_registry().names)


def test_valid_email_alerts_owner_and_tool_result_reaches_model(fake_model, notifier, make_loop_replica):
    fake_model.script(
        call(("gather_user_details", {"email": "grace@navy.mil", "notes": "Hiring for COBOL", "name": "Grace"})),
        say("Thanks Grace, I'll be in touch."),
    )
    answer = make_loop_replica().reply("I'm Grace, grace@navy.mil, hiring!", Visitor("visitor-7"))
    assert answer == "Thanks Grace, I'll be in touch."
    [alert] = notifier.alerts
    assert (
        alert.kind == AlertKind.LEAD and ("Email", "grace@navy.mil") in alert.fields and alert.session_id == "visitor-7"
    )
    second = fake_model.requests[1]["messages"]
    assert (
        second[-2]["role"] == "assistant" and second[-2]["tool_calls"][0]["function"]["name"] == "gather_user_details"
    )
    assert second[-1] == {"role": "tool", "tool_call_id": "call_0", "content": "ok"}


def test_invalid_email_sends_error_to_model_and_no_alert(fake_model, notifier, make_loop_replica):
    fake_model.script(
        call(("gather_user_details", {"email": "grace@@navy", "notes": "Hiring"})),
        say("That address doesn't look right. Could you check it?"),
    )
    answer = make_loop_replica().reply("grace@@navy", Visitor("s1"))
    assert "doesn't look right" in answer and notifier.alerts == []
    tool_result = fake_model.requests[1]["messages"][-1]["content"]
    assert tool_result.startswith("Error:") and "invalid" in tool_result and "valid email" in tool_result


def test_unknown_question_alerts_owner(fake_model, notifier, make_loop_replica):
    fake_model.script(call(("inform_unknown", {"question": "What is your favourite opera?"})), say("I'll ask."))
    make_loop_replica().reply("What is your favourite opera?", Visitor("s1"))
    [alert] = notifier.alerts
    assert alert.kind == AlertKind.QUESTION and alert.fields == (("Question", "What is your favourite opera?"),)


def test_model_asking_for_tools_forever_is_capped_at_two_calls_and_runs_them_once(
    fake_model, notifier, store, make_loop_replica, caplog
):
    fake_model.default = call(("inform_unknown", {"question": "again?"}))  # ignores tool_choice="none"
    with caplog.at_level(logging.WARNING):
        answer = make_loop_replica().reply("Tell me everything", Visitor("s1"))
    assert [r["tool_choice"] for r in fake_model.requests] == ["auto", "none"]
    assert [row.question for row in store.questions.all()] == ["again?"] and len(notifier.alerts) == 1
    assert answer == wording.QUESTION_PASSED_ON  # words that fit what happened
    assert "tool_choice=none" in caplog.text


def test_max_turns_is_honoured(fake_model, make_loop_replica):
    fake_model.default = call(("inform_unknown", {"question": "again?"}))
    make_loop_replica(max_turns=3).reply("Hi", Visitor("s1"))
    assert [r["tool_choice"] for r in fake_model.requests] == ["auto", "auto", "none"]


def test_two_tool_calls_in_one_round_each_get_a_result_in_order(fake_model, notifier, make_loop_replica):
    fake_model.script(
        call(
            ("inform_unknown", {"question": "Salary?"}),
            ("gather_user_details", {"email": "bob@example.org", "notes": "Wants a call"}),
        ),
        say("Done."),
    )
    make_loop_replica().reply("Salary? Reach me at bob@example.org", Visitor("s1"))
    tail = fake_model.requests[1]["messages"][-3:]
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
def test_bad_tool_calls_become_error_text_for_the_model(
    fake_model, notifier, name, arguments, expected, make_loop_replica
):
    fake_model.script(call((name, arguments)), say("Sorry about that."))
    assert make_loop_replica().reply("Hi", Visitor("s1")) == "Sorry about that."
    result = fake_model.requests[1]["messages"][-1]
    assert result["role"] == "tool" and result["content"].startswith("Error:") and expected in result["content"]
    assert notifier.alerts == []


@pytest.mark.parametrize("status", [500, 503, 429, 401])
def test_a_model_failure_gives_an_apology_naming_only_class_and_status_in_the_log(
    fake_model, caplog, status, make_loop_replica
):
    fake_model.default = fail(status)
    with caplog.at_level(logging.INFO):
        assert make_loop_replica().reply("Tell me more.", Visitor("s1")) == wording.MODEL_FAILED
    assert f"HTTP status {status}" in caplog.text


@pytest.mark.parametrize("message", ["", "   \n\t ", "x" * 20_000])
def test_blank_or_huge_message_costs_no_model_call(fake_model, message, make_loop_replica):
    answer = make_loop_replica(max_message_chars=4000).reply(message, Visitor("s1"))
    assert fake_model.calls == 0
    assert answer in (wording.BLANK_MESSAGE, wording.TOO_LONG.format(limit=4000))


def test_without_a_model_an_unanswerable_question_is_passed_on_and_the_visitor_told(store, notifier):
    answer = replica_around(None, store, notifier).reply("What is your favourite opera?", Visitor("s1"))
    no_answer = wording.NO_WRITTEN_ANSWER.format(owner="Ada Lovelace")
    assert answer == f"{no_answer} {wording.QUESTION_KEPT}"
    assert [q.question for q in store.questions.all()] == ["What is your favourite opera?"]
    assert [a.kind for a in notifier.alerts] == ["question"]


def test_tool_calls_on_the_last_turn_still_alert_but_make_no_further_call(fake_model, notifier, make_loop_replica):
    fake_model.default = call(("gather_user_details", json.dumps({"email": "a@example.org", "notes": "x"})))
    make_loop_replica(max_turns=1).reply("a@example.org", Visitor("s1"))
    assert fake_model.calls == 1 and [a.kind for a in notifier.alerts] == ["lead"]
