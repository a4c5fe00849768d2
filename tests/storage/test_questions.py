"""The questions passed on: one per visitor, and one open question for matching ones, counting its askers."""

from __future__ import annotations

from dataclasses import replace

from replica.alerts import Alert
from replica.knowledge.approved import alike
from replica.storage import Recorded
from replica.storage.records import AlertKind


def test_the_same_question_from_the_same_visitor_is_stored_once(store):
    question = Alert(AlertKind.QUESTION, "Unanswered question", (("Question", "q"),), "s1")
    assert store.questions.record("What is your salary?", question.entry()) is Recorded.ALERTED
    assert store.questions.record("what is your  salary", question.entry()) is Recorded.DUPLICATE
    # another visitor, while it is open: one more asker of it; once it is closed, a question of its own
    assert store.questions.record("What is your salary?", replace(question, session_id="s2").entry()) is Recorded.JOINED
    store.questions.dismiss(store.questions.in_status()[0].id)
    assert (
        store.questions.record("What is your salary?", replace(question, session_id="s3").entry()) is Recorded.ALERTED
    )


def test_matching_questions_from_several_visitors_are_one_open_question_counting_its_askers(store):
    def ask(question, session):
        return store.questions.record(
            question, Alert(AlertKind.QUESTION, "Q", (("Question", question),), session).entry(), alike
        )

    assert ask("What time zone are you in?", "s1") is Recorded.ALERTED
    assert ask("what timezone r u in", "s2") is Recorded.JOINED
    assert ask("Which time zone are you in", "s2") is Recorded.DUPLICATE  # s2 asked it already
    assert ask("Do you refuse to sign NDAs?", "s3") is Recorded.ALERTED
    assert ask("whats ur tz", "s4") is Recorded.JOINED
    assert ask("Do you sign NDAs?", "s4") is Recorded.ALERTED  # not the refusal: another question
    assert [(row.question, row.askers) for row in store.questions.in_status()] == [
        ("What time zone are you in?", 3),
        ("Do you refuse to sign NDAs?", 1),
        ("Do you sign NDAs?", 1),
    ]
    first = store.questions.in_status()[0].id
    assert [(a.session, a.question) for a in store.questions.askers(first)] == [
        ("s1", "What time zone are you in?"),
        ("s2", "what timezone r u in"),
        ("s4", "whats ur tz"),
    ]
    assert [row.alert_status for row in store.questions.all()] == ["pending"] * 3  # one alert per question
    assert [row.askers for row in store.questions.all()] == [3, 1, 1]  # as `export questions` shows them
    assert store.questions.for_session("s2") and not store.questions.for_session("s5")
    assert store.questions.count_between(0, 2e9) == 5  # the digest's "questions passed on": each visitor's
