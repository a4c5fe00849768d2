"""The OpenAI-compatible model adapter, through the real ``openai`` SDK against the HTTP fake: what goes
over the wire, SDK retries, timeouts, an unreachable provider, and streamed tool calls put together."""

from __future__ import annotations

import logging
import threading

import openai

from replica import wording
from replica.chat.openai_model import OpenAIChatModel
from replica.chat.reply import Visitor
from replica.tools import default_registry
from tests.fakes.openai_server import call, fail, say
from tests.fixtures.clock import START, HandClock
from tests.fixtures.environment import API_KEY
from tests.fixtures.replicas import replica_around


def test_the_request_carries_the_key_the_model_the_tools_and_max_tokens(fake_openai, make_replica):
    fake_openai.script(say("I build analytical engines."))
    assert make_replica().reply("What do you do?", Visitor("s1")) == "I build analytical engines."
    [request] = fake_openai.requests
    assert fake_openai.auth_headers[0] == f"Bearer {API_KEY}" and request["model"] == "fake-model"
    assert request["stream"] is True and request["max_tokens"] == 600 and request["tool_choice"] == "auto"
    assert {t["function"]["name"] for t in request["tools"]} == {"gather_user_details", "inform_unknown"}


def test_streamed_tool_call_pieces_are_put_together(fake_openai, notifier, make_replica):
    fake_openai.script(call(("gather_user_details", {"email": "grace@navy.mil", "notes": "Hiring"})), say("Thanks!"))
    assert make_replica().reply("grace@navy.mil", Visitor("s1")) == "Thanks!"
    [alert] = notifier.alerts
    assert ("Email", "grace@navy.mil") in alert.fields


def test_provider_failure_is_logged_by_class_and_status_never_with_the_key(fake_openai, caplog, make_replica):
    fake_openai.default = fail(401)
    with caplog.at_level(logging.INFO):
        assert make_replica().reply("Tell me more.", Visitor("s1")) == wording.MODEL_FAILED
    assert "AuthenticationError (HTTP status 401)" in caplog.text and API_KEY not in caplog.text


def test_provider_recovers_after_one_500_thanks_to_sdk_retry(fake_openai, make_replica):
    fake_openai.script(fail(500), say("Back again."))
    assert make_replica().reply("Hello?", Visitor("s1")) == "Back again."
    assert fake_openai.calls == 2


def test_model_timeout_gives_an_apology(fake_openai, make_replica):
    fake_openai.default = say("too late", delay=2)
    assert make_replica(timeout=0.5, max_retries=0).reply("Tell me more.", Visitor("s1")) == wording.MODEL_FAILED


def test_unreachable_provider_gives_an_apology(store, notifier):
    client = openai.OpenAI(api_key=API_KEY, base_url="http://127.0.0.1:9/v1", max_retries=0, timeout=2)
    replica = replica_around(OpenAIChatModel(client, "m"), store, notifier)
    assert replica.reply("Tell me more.", Visitor("s1")) == wording.MODEL_FAILED


def test_a_server_that_refused_tools_is_offered_them_again_after_ten_minutes(fake_openai):
    from replica.chat.openai_model import RETRY_TOOLS_SECONDS

    clock = HandClock()
    fake_openai.default = lambda body: (
        fail(400) if "tools" in body and clock.now < START + RETRY_TOOLS_SECONDS else say("Hi.")
    )
    client = openai.OpenAI(api_key="sk-test", base_url=fake_openai.base_url, max_retries=0, timeout=5)
    model = OpenAIChatModel(client, "fake-model", clock=clock)
    tools = default_registry().schemas()
    ask = lambda: list(model.stream([{"role": "user", "content": "Hi"}], tools, "auto", 50, 5, threading.Event()))  # noqa: E731
    ask()
    ask()
    assert ["tools" in r for r in fake_openai.requests] == [True, False, False]  # refused, then described
    clock.now += RETRY_TOOLS_SECONDS + 1
    ask()
    assert "tools" in fake_openai.requests[-1]  # offered again, and taken this time
    assert not model.tools_refused


def test_each_call_asks_for_its_tokens_and_the_reply_records_them(fake_openai, make_replica, store):
    fake_openai.script(say("I build analytical engines.", usage=(230, 12)))
    make_replica().reply("What do you do?", Visitor("s1"))
    [request] = fake_openai.requests
    assert request["stream_options"] == {"include_usage": True}
    [day] = [d for d in store.figures.by_day("2000-01-01", "2999-12-31")]
    assert (day.answered, day.replies, day.model_calls, day.tokens) == ("model", 1, 1, 242)


def test_a_server_that_refuses_stream_options_is_asked_again_without_them_and_never_again(
    fake_openai, make_replica, caplog
):
    fake_openai.refuses_stream_options = True
    replica = make_replica()
    with caplog.at_level(logging.WARNING):
        assert replica.reply("What do you do?", Visitor("s1")) == "Hello from the fake model."
        assert replica.reply("And then?", Visitor("s1")) == "Hello from the fake model."
    assert [("stream_options" in r) for r in fake_openai.requests] == [False, False]  # the refused one is not kept
    assert caplog.text.count("refused stream_options") == 1
