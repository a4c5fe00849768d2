"""What was learned of a model server outlives a restart: the first visitor after one sees words stream
like the rest, instead of waiting for the whole reply while the app learns the server's template again."""

from __future__ import annotations

import threading

from replica.chat.reply import Visitor
from replica.chat.server_memory import ServerMemory
from replica.wiring import create_app
from tests.fakes.openai_server import say
from tests.fixtures.apps import fast_timings

ANSWER = "I work on analytical engines and write about computing."


def test_what_was_learned_is_kept_per_server_and_model_and_never_names_the_address(store):
    memory = ServerMemory(store.state, "http://user:pw@127.0.0.1:8080/v1", "qwen3")
    assert memory.recall() is None
    memory.keep(True)
    assert ServerMemory(store.state, "http://user:pw@127.0.0.1:8080/v1", "qwen3").recall() is True
    assert ServerMemory(store.state, "http://user:pw@127.0.0.1:8080/v1", "llama").recall() is None
    assert "pw" not in memory.key and "127.0.0.1" not in memory.key
    memory.keep(False)
    assert memory.recall() is False


def first_words_before_the_end(app, fake_openai, session: str) -> bool:
    """Whether the first reply showed words before its last piece came: that piece waits until the test
    has seen words, or, when none show, until a timer lets it come (the reply was held whole)."""
    whole = threading.Event()
    fake_openai.script(say(ANSWER, pieces=6, gate=whole))
    timer = threading.Timer(3.0, whole.set)
    timer.start()
    early = None
    try:
        for shown in app.replica.stream_reply("What do you do?", Visitor(session, "203.0.113.8")):
            if shown.strip() and early is None:
                early = not whole.is_set()
                whole.set()
    finally:
        timer.cancel()
    assert shown == ANSWER
    return bool(early)


def test_the_first_reply_after_a_restart_streams_once_the_server_is_known(settings, fake_openai):
    first = create_app(settings, fast_timings())
    try:
        # Never seen before: the first reply is held whole, as it might be a thinking block.
        assert first_words_before_the_end(first, fake_openai, "s1") is False
    finally:
        first.close()
    again = create_app(settings, fast_timings())
    try:
        assert first_words_before_the_end(again, fake_openai, "s2") is True
    finally:
        again.close()
