"""A spike, in process: a message that finds every model lane busy is answered at once without a model,
says why, and keeps what it holds; one that can expect a lane soon waits for it (replica/chat/answer.py).
As users meet it, through ``python app.py``: tests/web/test_spike.py."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from replica import wording
from replica.chat.reply import Visitor
from tests.fakes.openai_server import say
from tests.fixtures.environment import ROOT, wait_until

MODEL_WORDS = "I'm answering from the model."
SPIKE = wording.SPIKE.format(owner="Ada Lovelace")


@pytest.fixture
def held(fake_openai):
    """The fake model holds each reply until the test lets go (``held.set()``), so a lane stays busy for
    as long as the test needs it, however loaded the machine."""
    release = threading.Event()

    def slow(body):
        release.wait(60)
        return say(MODEL_WORDS)

    fake_openai.default = slow
    yield release
    release.set()


def busy_replica(make_replica, **options):
    return make_replica(knowledge_dir=ROOT / "knowledge", languages=("en", "es"), timeout=60, **options)


def test_every_lane_busy_the_message_is_answered_at_once_without_a_model_and_its_address_is_kept(
    make_replica, fake_openai, held, store
):
    replica = busy_replica(make_replica, queue_concurrency=1, queue_max_size=0)
    with ThreadPoolExecutor(max_workers=1) as pool:
        first = pool.submit(replica.reply, "Tell me about your work.", Visitor("first", "10.0.0.1"))
        assert wait_until(lambda: fake_openai.in_flight == 1)  # the one lane is busy
        reply = replica.reply(
            "Are you available for new projects? I'm at grace@example.org", Visitor("second", "10.0.0.2")
        )
        assert reply.startswith(SPIKE)  # why the reply is short, first
        assert "Yes, from next month, remote or on-site in Lisbon." in reply  # the owner's approved answer
        assert wording.LEAD_NOTED in reply
        assert [lead.email for lead in store.leads.all()] == ["grace@example.org"]
        assert fake_openai.calls == 1  # no model call for the second visitor
        held.set()
        assert MODEL_WORDS in first.result(timeout=30)


def test_a_question_at_a_spike_is_passed_on_and_the_sentence_is_in_the_visitors_language(
    make_replica, fake_openai, held, store
):
    replica = busy_replica(make_replica, queue_concurrency=1, queue_max_size=0)
    with ThreadPoolExecutor(max_workers=1) as pool:
        first = pool.submit(replica.reply, "Tell me about your work.", Visitor("first", "10.0.0.1"))
        assert wait_until(lambda: fake_openai.in_flight == 1)
        asked = replica.reply("Have you ever worked with Elixir in production?", Visitor("asker", "10.0.0.3"))
        assert asked.startswith(SPIKE) and wording.QUESTION_KEPT in asked
        assert [q.question for q in store.questions.all()] == ["Have you ever worked with Elixir in production?"]
        spanish = replica.reply("¿Estás disponible para nuevos proyectos?", Visitor("es", "10.0.0.4"))
        assert spanish.startswith(wording.TRANSLATIONS[wording.SPIKE]["es"].format(owner="Ada Lovelace"))
        assert "a partir del mes que viene" in spanish
        held.set()
        first.result(timeout=30)


def test_a_message_that_can_expect_a_lane_soon_waits_for_it_and_the_model_answers(make_replica, fake_openai, held):
    replica = busy_replica(make_replica, queue_concurrency=1, queue_max_size=4, queue_wait_seconds=60)
    with ThreadPoolExecutor(max_workers=2) as pool:
        first = pool.submit(replica.reply, "Tell me about your work.", Visitor("first", "10.0.0.1"))
        assert wait_until(lambda: fake_openai.in_flight == 1)
        second = pool.submit(replica.reply, "And your rates?", Visitor("second", "10.0.0.2"))
        assert wait_until(lambda: replica.answer.lanes.waiting == 1)  # in line for the lane, not answered yet
        held.set()
        assert first.result(timeout=30) == second.result(timeout=30) == MODEL_WORDS
    assert fake_openai.max_in_flight == 1  # never more model calls at once than lanes
