"""Every visitor message is bounded in time and tokens, and always ends in words that fit what happened:
a deadline over the whole answer, max_tokens on every call, an empty reply tried once more, tools run
once, and a lead kept even when the model is down."""

from __future__ import annotations

import logging
import time
from concurrent.futures import ThreadPoolExecutor

import openai
import pytest

from replica import wording
from replica.chat.openai_model import OpenAIChatModel
from replica.chat.reply import Visitor
from tests.fakes.openai_server import FakeOpenAI, call, say
from tests.fixtures.clients import app_client
from tests.fixtures.environment import API_KEY, wait_until
from tests.fixtures.replicas import replica_around

NEVER_ENDS = say("Still thinking. ", forever=True, piece_delay=0.2)


def timed(function, *args):
    started = time.monotonic()
    result = function(*args)
    return result, time.monotonic() - started


def ask(client, message):
    return client.predict(message, api_name="/chat")


def test_three_endless_streams_end_at_the_deadline_and_a_fourth_visitor_is_answered(start_app, settings, fake_openai):
    fake_openai.default = lambda body: NEVER_ENDS if body["messages"][-1]["content"] == "stuck" else say("Answered.")
    url = start_app(settings.updated(reply_deadline_seconds=2, queue_concurrency=3)).demo.local_url
    clients = [app_client(url) for _ in range(4)]
    ask(clients[3], "hello")  # the server's first reply, which is held whole (replica/chat/markup.py)
    with ThreadPoolExecutor(max_workers=4) as pool:
        stuck = [pool.submit(timed, ask, c, "stuck") for c in clients[:3]]
        assert wait_until(lambda: fake_openai.in_flight == 3)  # all three workers are busy with endless streams
        fourth = pool.submit(timed, ask, clients[3], "hello")
        for future in stuck:
            answer, seconds = future.result(timeout=30)
            streamed = answer.removesuffix(wording.TOO_SLOW).strip()
            assert (
                answer.endswith(wording.TOO_SLOW) and streamed and (NEVER_ENDS.content * 100).startswith(streamed)
            )  # what came before the deadline
            assert seconds < 15  # at the 2 s deadline, with room for a loaded machine: the stream never ends
        answer, seconds = fourth.result(timeout=60)
    assert answer == "Answered." and seconds < 20
    assert wait_until(
        lambda: fake_openai.in_flight == 0, timeout=30
    )  # the endless streams were closed, not left running


def test_a_provider_that_never_answers_is_given_up_at_the_deadline_despite_sdk_retries(store, notifier):
    # A provider of its own: the SDK, given up on, goes on waiting and retrying for minutes, and its
    # retries must not take another test's scripted replies. Closed at the end, it ends them.
    silent = FakeOpenAI()
    try:
        silent.default = say("too late", delay=3600)
        client = openai.OpenAI(api_key=API_KEY, base_url=silent.base_url, max_retries=2, timeout=60)
        replica = replica_around(OpenAIChatModel(client, "fake-model"), store, notifier, reply_deadline_seconds=1.5)
        answer, seconds = timed(replica.reply, "Tell me more.", Visitor("s1"))
    finally:
        silent.close()
    assert answer == wording.TOO_SLOW and seconds < 15  # the SDK alone would wait 3 × 60 s


def test_a_trickling_stream_gives_what_streamed_so_far_plus_an_apology(fake_openai, make_replica):
    replica = make_replica(reply_deadline_seconds=1.5)
    replica.reply("Hello", Visitor("s0"))  # the server's first reply, which is held whole (replica/chat/markup.py)
    fake_openai.default = say("word " * 100, pieces=100, piece_delay=0.4)  # a token every 0.4 s, for 40 s
    answer, seconds = timed(replica.reply, "Tell me", Visitor("s1"))
    assert answer.startswith("word word") and answer.endswith(wording.TOO_SLOW) and seconds < 15


def test_max_tokens_is_sent_with_every_call(start_app, settings, fake_openai):
    fake_openai.script(call(("inform_unknown", {"question": "Salary?"})), say("I'll ask."))
    url = start_app(settings.updated(max_reply_tokens=123)).demo.local_url
    app_client(url).predict("Salary?", api_name="/chat")
    assert [r["max_tokens"] for r in fake_openai.requests] == [123, 123]


def test_the_default_token_cap_is_600(fake_openai, make_replica):
    make_replica().reply("Hi", Visitor("s1"))
    assert fake_openai.requests[0]["max_tokens"] == 600


def test_an_empty_first_reply_is_tried_once_more_for_words(fake_openai, make_replica, caplog):
    fake_openai.script(say(""), say("Here you go."))
    with caplog.at_level(logging.WARNING):
        answer = make_replica().reply("Hi", Visitor("s1"))
    assert answer == "Here you go."
    assert [r["tool_choice"] for r in fake_openai.requests] == ["auto", "none"]
    assert "neither words nor tool calls" in caplog.text


def test_the_no_answer_apology_leaves_a_warning_naming_its_cause(fake_openai, make_replica, caplog):
    fake_openai.default = say("")
    with caplog.at_level(logging.WARNING):
        answer = make_replica().reply("Hi", Visitor("s1"))
    assert answer == wording.NO_ANSWER and fake_openai.calls == 2
    assert "no-answer apology: the model returned an empty reply twice" in caplog.text


@pytest.mark.parametrize("stream", [{"cut": True}, {"pieces": 4}], ids=["cut", "finished"])
def test_a_stream_cut_mid_way_ends_with_a_notice_and_a_warning(fake_openai, make_replica, caplog, stream):
    fake_openai.script(say("I worked at Babb", **stream))
    with caplog.at_level(logging.WARNING):
        answer = make_replica().reply("Where did you work?", Visitor("s1"))
    if stream.get("cut"):
        assert answer == f"I worked at Babb\n\n{wording.CUT_OFF}"
        assert "ended without a finish reason" in caplog.text
    else:  # a whole answer gets no notice
        assert answer == "I worked at Babb" and "finish reason" not in caplog.text


def test_a_reply_cut_at_the_token_limit_says_so(fake_openai, make_replica):
    fake_openai.script(say("I worked at Babbage & Co for", finish="length"))
    assert make_replica().reply("Where?", Visitor("s1")).endswith(wording.CUT_OFF)


def test_tools_asked_for_on_the_last_turn_after_a_lead_give_fitting_words(fake_openai, notifier, make_replica):
    lead = call(("gather_user_details", {"email": "ada@example.org", "notes": "Role"}))
    fake_openai.script(lead, lead)  # the second ignores tool_choice="none" and repeats the call
    answer = make_replica().reply("ada@example.org", Visitor("s1"))
    assert answer == wording.LEAD_PASSED_ON and len(notifier.alerts) == 1


def test_the_same_question_asked_again_by_the_same_visitor_is_stored_and_alerted_once(
    fake_openai, notifier, store, make_replica
):
    replica = make_replica()
    for asked in ("What is your salary?", "what is your  salary"):
        fake_openai.script(call(("inform_unknown", {"question": asked})), say("I'll ask."))
        replica.reply(asked, Visitor("s1"))
    assert len(store.questions.all()) == 1 and len(notifier.alerts) == 1
    fake_openai.script(call(("inform_unknown", {"question": "What is your salary?"})), say("I'll ask."))
    replica.reply("What is your salary?", Visitor("another visitor"))  # while it is open: counted, not alerted
    assert len(store.questions.all()) == 1 and len(notifier.alerts) == 1
    assert [row.askers for row in store.questions.in_status()] == [2]
