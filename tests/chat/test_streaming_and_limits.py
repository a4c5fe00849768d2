"""Streaming replies, input guards and usage limits, as a gradio_client visitor and at the loop."""

from __future__ import annotations

import re
import time
from dataclasses import replace
from types import SimpleNamespace

import pytest

from replica import wording
from replica.chat.history import history_messages
from replica.chat.limits import DailyBudget, SlidingWindow
from replica.chat.reply import Visitor
from replica.web.page import client_address
from tests.fakes.openai_server import call, say
from tests.fixtures.clients import app_client
from tests.fixtures.environment import ROOT


def stream_visitor(client, message):
    """Submit ``message`` and return [(seconds since submit, partial reply)] for each new partial."""
    started = time.monotonic()
    job = client.submit(message, api_name="/chat")
    seen = []
    for partial in job:
        if not seen or partial != seen[-1][1]:
            seen.append((time.monotonic() - started, partial))
    final = job.result()
    if final != seen[-1][1]:
        seen.append((time.monotonic() - started, final))
    return seen


def test_a_streamed_answer_shows_growing_partials_the_first_long_before_the_last(visitor, fake_openai):
    text = "I have spent ten years building data pipelines for logistics, retail and fintech clients."
    fake_openai.default = say(text, pieces=10, piece_delay=0.3)  # 10 pieces over 3 s
    seen = stream_visitor(visitor(), "Tell me about your work")
    partials = [reply for _, reply in seen]
    assert len(partials) >= 3 and seen[-1][0] - seen[0][0] > 1.5  # the first words came long before the last
    assert all(b.startswith(a) and len(b) > len(a) for a, b in zip(partials, partials[1:]))  # each one grows
    assert partials[-1] == text
    assert fake_openai.requests[0]["stream"] is True


def test_tool_rounds_still_alert_with_streaming_on(visitor, fake_openai, fake_telegram):
    fake_openai.script(
        call(
            ("gather_user_details", {"email": "streamer@example.org", "notes": "Streaming works", "name": "Sam"}),
            content="One moment.",
        ),
        say("Thanks Sam, noted!", pieces=4),
    )
    final = stream_visitor(visitor(), "I'm Sam, streamer@example.org")[-1][1]
    assert final.endswith("Thanks Sam, noted!")
    [message] = fake_telegram.wait_for(1)
    assert "streamer@example.org" in message.text and "Streaming works" in message.text
    assert all(r["stream"] for r in fake_openai.requests)


def test_the_fourth_message_in_an_hour_is_refused_without_a_model_call(start_app, settings, fake_openai):
    url = start_app(replace(settings, visitor_messages_per_hour=3)).demo.local_url
    client = app_client(url)
    answers = [client.predict(f"Question {n}", api_name="/chat") for n in range(4)]
    assert fake_openai.calls == 3
    assert answers[3] == wording.TOO_MANY_MESSAGES
    assert app_client(url).predict("Hello", api_name="/chat") != wording.TOO_MANY_MESSAGES  # a new visitor


def test_one_address_is_limited_across_visitor_sessions(start_app, settings, fake_openai):
    url = start_app(replace(settings, address_messages_per_hour=2)).demo.local_url
    answers = [app_client(url).predict("Hi", api_name="/chat") for _ in range(3)]
    assert answers[2] == wording.TOO_MANY_MESSAGES and fake_openai.calls == 2


def test_the_daily_model_budget_stops_model_calls(start_app, settings, fake_openai):
    fake_openai.script(call(("inform_unknown", {"question": "q"})))
    url = start_app(replace(settings, daily_model_calls=3)).demo.local_url
    first = app_client(url).predict("One", api_name="/chat")  # a tool round: 2 calls
    second = app_client(url).predict("Two", api_name="/chat")  # 1 call
    third = app_client(url).predict("Three", api_name="/chat")  # none left
    assert fake_openai.calls == 3 and wording.DAILY_LIMIT not in first + second
    assert third == wording.DAILY_LIMIT


def test_history_sent_to_the_model_keeps_the_most_recent_turns_within_budget():
    history = [{"role": "user" if n % 2 == 0 else "assistant", "content": f"{n:02d}" + "x" * 98} for n in range(30)]
    kept = history_messages(history, budget_chars=1000)
    assert len(kept) == 10 and kept[-1]["content"].startswith("29") and kept[0]["content"].startswith("20")


def test_a_long_conversation_never_sends_more_than_the_budget(make_replica, fake_openai):
    replica = make_replica(history_budget_chars=16000)
    recorder = replica.inbox.recorder
    conversation = recorder.begin("s1", "203.0.113.9")
    for _ in range(20):  # a long conversation, as recorded
        recorder.record(conversation.id, "visitor", "y" * 3000)
        recorder.record(conversation.id, "replica", "z" * 3000)
    replica.reply("Latest question", Visitor("s1"))
    sent = fake_openai.requests[0]["messages"]
    assert sum(len(m["content"]) for m in sent[1:-1]) <= 16000 and sent[-1]["content"] == "Latest question"


def request(host, forwarded=None):
    headers = {"x-forwarded-for": forwarded} if forwarded else {}
    return SimpleNamespace(client=SimpleNamespace(host=host), headers=headers)


@pytest.mark.parametrize(
    "hops, forwarded, expected",
    [
        (0, "6.6.6.6", "10.0.0.1"),  # no proxy: a client-set header is ignored
        (1, "6.6.6.6, 203.0.113.7", "203.0.113.7"),  # behind one proxy: the hop it added, not the forged one
        (1, None, "10.0.0.1"),
        (2, "203.0.113.7", "10.0.0.1"),  # fewer entries than trusted proxies: fall back to the peer
    ],
)
def test_client_address_uses_only_the_trusted_proxy_hop(hops, forwarded, expected):
    assert client_address(request("10.0.0.1", forwarded), hops) == expected


def test_sliding_window_and_daily_budget_reset():
    now = [0.0]
    window = SlidingWindow(2, window=3600, clock=lambda: now[0])
    for _ in range(2):
        assert window.has_room("a")
        window.record("a")
    assert not window.has_room("a") and window.has_room("b")
    now[0] = 3600.1
    assert window.has_room("a")
    day = ["2026-01-01"]
    budget = DailyBudget(1, today=lambda: day[0])
    assert budget.take() and not budget.take()
    day[0] = "2026-01-02"
    assert budget.take()


def test_spaces_front_matter_matches_requirements():
    readme = (ROOT / "README.md").read_text()
    front = readme.split("---")[1]
    sdk_version = re.search(r"^sdk_version:\s*(\S+)", front, re.M).group(1)
    pinned = re.search(r"^gradio(?:\[\w+\])?==(\S+)", (ROOT / "requirements.txt").read_text(), re.M).group(1)
    assert sdk_version == pinned
    for key in ("title:", "emoji:", "sdk: gradio", "app_file: app.py"):
        assert key in front
