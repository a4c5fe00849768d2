"""A replica that still answers with no model: the owner's approved answers (FAQ files and answers
taught from Telegram), quoted word for word and framed; everything else captured; the same path for
every outage; nothing private quoted."""

from __future__ import annotations

import pytest

from replica import wording
from replica.alerts import Alert
from replica.chat.reply import Visitor
from replica.knowledge.approved import ApprovedAnswers, score
from replica.knowledge.faq_files import approved_entries, parse_faq
from replica.storage.records import AlertKind
from tests.fakes.openai_server import call, fail, say
from tests.fixtures.replicas import replica_around

FAQ = """# Frequently asked questions

## Do you sign NDAs?
Yes, before any detailed discussion of a client's data.

**What time zone are you in?**
A: Western European Time (Lisbon).

Do you work with early-stage startups?
Yes. I often help a first data hire
set up a warehouse.
"""
PRIVATE = "My salary floor is 140k and I am quietly leaving my current client in March."
NDA_ANSWER = "From Ada Lovelace's FAQ: Yes, before any detailed discussion of a client's data."


@pytest.fixture
def knowledge(tmp_path):
    folder = tmp_path / "knowledge"
    (folder / "notes").mkdir(parents=True)
    (folder / "faq.md").write_text(FAQ, encoding="utf-8")
    (folder / "profile.md").write_text(f"# Ada Lovelace\n\nI build analytical engines.\n\n{PRIVATE}\n")
    (folder / "notes" / "faq.txt").write_text("Do you travel?\nYes, within Europe.\n", encoding="utf-8")
    return folder


@pytest.fixture
def offline(store, notifier, knowledge):
    """The replica with no model, over the FAQ above."""
    return replica_around(None, store, notifier, knowledge_dir=knowledge)


def learn(store, question, answer, session="earlier-visitor"):
    """What the owner's reply to a question alert does: the question stored, then its answer learned."""
    store.questions.record(question, Alert(AlertKind.QUESTION, "Q", (("Question", question),), session).entry())
    [row] = [q for q in store.questions.in_status("open") if q.question == question]
    return store.answers.learn(row.id, answer)


def test_the_faq_format_is_a_question_line_then_its_answer_paragraph(knowledge):
    assert parse_faq(FAQ) == [
        ("Do you sign NDAs?", "Yes, before any detailed discussion of a client's data."),
        ("What time zone are you in?", "Western European Time (Lisbon)."),
        ("Do you work with early-stage startups?", "Yes. I often help a first data hire set up a warehouse."),
    ]
    assert [entry.question for entry in approved_entries(knowledge)][-1] == "Do you travel?"  # nested files count


@pytest.mark.parametrize(
    "message, question, matches",
    [
        ("Will you sign an NDA?", "Do you sign NDAs?", True),
        ("Which time zone are you in?", "What time zone are you in?", True),
        ("Do you work with startups?", "Do you work with early-stage startups?", True),
        ("Do you work with banks?", "Do you work with early-stage startups?", False),
        ("What is your favourite opera?", "Do you sign NDAs?", False),
    ],
)
def test_the_documented_score_decides_a_match(message, question, matches):
    assert (score(message, question) >= 0.5) is matches


def test_without_a_model_a_matching_question_gets_the_approved_answer_streamed_and_framed(offline, store):
    shown = list(offline.stream_reply("Hi! Will you sign an NDA before we talk?", Visitor("s1")))
    assert shown[-1] == NDA_ANSWER and len(shown) > 2 and all(NDA_ANSWER.startswith(s) for s in shown)
    assert store.questions.all() == []  # answered: nothing to pass on


def test_the_best_match_only_never_two_stitched_together(offline):
    answer = offline.reply("Do you sign NDAs, and what time zone are you in?", Visitor("s1"))
    assert answer.count("From Ada Lovelace's FAQ:") == 1 and ("Lisbon" in answer) != (
        "NDA" in answer or "data" in answer
    )


def test_a_greeting_gets_the_greeting_not_a_recorded_question(offline, store):
    answer = offline.reply("Hello there! Who are you?", Visitor("s1"))
    assert answer.startswith("Hi! I'm Ada Lovelace's AI replica.") and store.questions.all() == []


def test_an_unmatched_question_is_recorded_alerted_and_the_visitor_told(offline, store, notifier):
    answer = offline.reply("What is your favourite opera?", Visitor("s1"))
    assert answer == f"{wording.NO_WRITTEN_ANSWER.format(owner='Ada Lovelace')} {wording.QUESTION_KEPT}"
    assert [q.question for q in store.questions.all()] == ["What is your favourite opera?"]
    offline.reply("What is your favourite opera?", Visitor("s1"))  # deduped as the tool dedupes
    assert len(store.questions.all()) == 1 and [a.kind for a in notifier.alerts] == ["question"]


def test_a_visitor_who_takes_a_question_back_is_not_answered_by_it_and_what_they_meant_is_passed_on(offline, store):
    message = "Do you sign NDAs? no, I mean do you avoid them"
    answer = offline.reply(message, Visitor("s1"))
    assert "Yes" not in answer and wording.QUESTION_KEPT in answer
    assert [q.question for q in store.questions.all()] == [message]
    assert offline.reply("Actually, will you sign an NDA?", Visitor("s2")) == NDA_ANSWER


def test_a_valid_email_becomes_a_lead_with_the_tools_rules_an_invalid_one_nothing(offline, store, notifier):
    answer = offline.reply("I'd like to hire you. My email is jane.doe@example.com, I'm Jane", Visitor("s1"))
    assert answer == wording.LEAD_ONLY and store.questions.all() == []  # a lead, not a question: nothing "not had"
    assert [lead.email for lead in store.leads.all()] == ["jane.doe@example.com"]
    offline.reply("Reach me at jane@example", Visitor("s2"))
    assert len(store.leads.all()) == 1 and [a.kind for a in notifier.alerts] == ["lead"]


def test_an_email_alone_is_thanked_and_asked_what_they_would_like_to_know(offline, store, notifier):
    answer = offline.reply("reach me at jane.recruiter@example.com", Visitor("s1"))
    assert answer == "Thanks, I've passed your email address on; is there something you would like to ask?"
    assert [lead.email for lead in store.leads.all()] == ["jane.recruiter@example.com"]
    assert store.questions.all() == [] and [a.kind for a in notifier.alerts] == ["lead"]


def test_an_email_beside_a_matched_question_is_kept_too(offline, store):
    answer = offline.reply("Do you sign NDAs? jane.doe@example.com", Visitor("s1"))
    # The approved answer as written, then the app's sentence, as after a model's words (the steps say it).
    assert answer == f"{NDA_ANSWER}\n\n{wording.LEAD_NOTED}" and len(store.leads.all()) == 1


def test_the_owners_reply_teaches_the_answer_and_the_next_visitor_gets_it(offline, store):
    offline.reply("What is your favourite opera?", Visitor("first"))
    [question] = store.questions.in_status("open")
    answer_id = store.answers.learn(question.id, "Tosca, without a doubt.")
    expected = "Ada Lovelace answered this for an earlier visitor: Tosca, without a doubt."
    assert offline.reply("Which opera is your favourite?", Visitor("next")) == expected
    store.answers.forget(answer_id)  # withdrawn: no longer quoted
    assert "Tosca" not in offline.reply("What is your favourite opera?", Visitor("third"))


PROFILE = """# Ada Lovelace

## Rates
My floor is 900 a day; never tell a visitor.

## Languages
<!-- approved: Which languages do you speak? | Do you speak French? -->
English and French.

### Learning
Italian, slowly.

## Where I work
<!-- approved -->
From home in London, and at clients' offices.

## Health
Private notes.
"""


def test_a_section_the_owner_marked_approved_is_quoted_whole_and_no_other(tmp_path, store, notifier):
    folder = tmp_path / "knowledge"
    folder.mkdir()
    (folder / "profile.md").write_text(PROFILE, encoding="utf-8")
    (folder / "notes.txt").write_text("<!-- approved: What are your rates? -->\n900 a day.", encoding="utf-8")
    assert [(e.question, e.answer, e.source) for e in approved_entries(folder)] == [
        ("Which languages do you speak?", "English and French.\n\n### Learning\nItalian, slowly.", "profile"),
        ("Do you speak French?", "English and French.\n\n### Learning\nItalian, slowly.", "profile"),
        ("Where I work", "From home in London, and at clients' offices.", "profile"),  # a bare mark: its heading
    ]  # the unmarked sections, and a mark in a file with no headings, are not approved
    offline = replica_around(None, store, notifier, knowledge_dir=folder)
    answer = offline.reply("what languages do u speak", Visitor("s1"))
    assert answer == "From Ada Lovelace's profile:\n\nEnglish and French.\n\n### Learning\nItalian, slowly."
    assert "900" not in offline.reply("What are your rates?", Visitor("s2"))


def test_nothing_private_is_quoted(offline):
    for message in ["What is your salary floor?", "Are you leaving your current client?", PRIVATE]:
        assert "140k" not in offline.reply(message, Visitor("s1")) and "quietly" not in offline.reply(
            message, Visitor("s2")
        )


@pytest.mark.parametrize(
    "outage, options",
    [
        (fail(503), {}),  # the provider fails after the SDK's retries
        # The deadline before any words; no SDK retry, which would reach the fake during a later test
        # and take the reply scripted for it.
        (say("too late", delay=3600), {"reply_deadline_seconds": 1.0, "max_retries": 0}),
    ],
    ids=["provider down", "deadline"],
)
def test_every_outage_takes_the_same_path(outage, options, fake_openai, make_replica, store, knowledge):
    fake_openai.default = outage
    replica = make_replica(knowledge_dir=knowledge, **options)
    assert replica.reply("Will you sign an NDA?", Visitor("s1")) == NDA_ANSWER
    answer = replica.reply("What is your favourite opera?", Visitor("s2"))
    assert answer.endswith(wording.QUESTION_KEPT) and answer.startswith("Sorry")
    assert [q.question for q in store.questions.all()] == ["What is your favourite opera?"]


def test_the_days_budget_spent_takes_the_same_path(fake_openai, make_replica, store, knowledge):
    from replica.chat.limits import UsageLimits

    replica = make_replica(knowledge_dir=knowledge, limits=UsageLimits.build(100, 100, 0))
    assert replica.reply("Will you sign an NDA?", Visitor("s1")) == NDA_ANSWER
    assert replica.reply("What is your favourite opera?", Visitor("s1")).startswith(wording.DAILY_LIMIT)
    assert fake_openai.calls == 0


def test_nothing_changes_while_the_model_works(fake_openai, make_replica, knowledge):
    fake_openai.default = say("I sign NDAs, yes.")
    assert make_replica(knowledge_dir=knowledge).reply("Will you sign an NDA?", Visitor("s1")) == "I sign NDAs, yes."


def test_the_right_answer_is_found_among_200_learned_ones(store, knowledge):
    for n in range(200):
        learn(store, f"What about project number {n} and its code PX{n:03d}?", f"Project {n} was about engines.")
    answers = ApprovedAnswers(approved_entries(knowledge), lambda: store.answers.all(active_only=True))
    assert answers.match("Tell me about project PX117").approved.answer == "Project 117 was about engines."
    assert answers.match("Will you sign an NDA?").approved.source == "faq"


def test_a_question_the_model_passed_on_before_it_failed_is_not_passed_on_twice(
    fake_openai, make_replica, store, notifier, knowledge
):
    fake_openai.script(call(("inform_unknown", {"question": "Favourite opera?"})), fail(500))
    answer = make_replica(knowledge_dir=knowledge, max_retries=0).reply("What is your favourite opera?", Visitor("s1"))
    assert answer == f"{wording.MODEL_FAILED} {wording.QUESTION_KEPT}"
    assert [q.question for q in store.questions.all()] == ["Favourite opera?"] and len(notifier.alerts) == 1


NDA, STARTUPS, ZONE = "Do you sign NDAs?", "Do you work with early-stage startups?", "What time zone are you in?"
PARAPHRASES = [  # (message, the approved question it is answered by, or None: refused, passed on)
    ("Will you sign an NDA?", NDA),
    ("Do you sign NDAs?", NDA),
    ("Hi Jordan! Do you sign NDAs?", NDA),
    ("I'm a recruiter at Acme. Would you sign an NDA?", NDA),
    ("Will you sign an NDA before we talk?", NDA),
    ("Do you work with startups?", STARTUPS),
    ("Do you work with early-stage startups?", STARTUPS),
    ("Which time zone are you in?", ZONE),
    ("What's your time zone?", ZONE),
    ("Hello there, what time zone are you in?", ZONE),
    ("Do you refuse to sign NDAs?", None),
    ("Do you never sign NDAs?", None),
    ("Don't you sign NDAs?", None),
    ("Would you decline to sign an NDA?", None),
    ("Do you sign NDAs for money-laundering clients?", None),
    ("Would you sign an NDA that bans you from working for a year?", None),
    ("Do you avoid early-stage startups?", None),
    ("Do you work with startups that have no funding?", None),
    ("Do you work without startups?", None),
    ("zone", None),
    ("NDA?", NDA),  # the whole of what it asks ("sign" only qualifies it), unlike "zone" or "startups"
    ("startups", None),
    ("Do you sign NDAs with offshore shell companies?", None),
    ("Is your time zone not Lisbon?", None),
]


@pytest.mark.parametrize("message, question", PARAPHRASES, ids=[p[0] for p in PARAPHRASES])
def test_an_approved_answer_meets_its_paraphrases_and_not_a_question_that_negates_or_qualifies_it(
    message, question, store, knowledge
):
    answers = ApprovedAnswers(approved_entries(knowledge), lambda: store.answers.all(active_only=True))
    match = answers.match(message)
    assert (match.approved.question if match else None) == question


def test_an_faq_entry_may_open_with_several_phrasings_each_answered(tmp_path, store, notifier):
    knowledge = tmp_path / "several"
    knowledge.mkdir()
    (knowledge / "faq.txt").write_text(
        "Are you available for new projects?\nDo you have room for another client this quarter?\n"
        "Yes, from next month.\n\nDo you sign NDAs?\nYes, always.\nReally, always?\n"
    )
    assert parse_faq((knowledge / "faq.txt").read_text()) == [
        ("Are you available for new projects?", "Yes, from next month."),
        ("Do you have room for another client this quarter?", "Yes, from next month."),
        ("Do you sign NDAs?", "Yes, always. Really, always?"),  # the answer keeps a line of its own
    ]
    offline = replica_around(None, store, notifier, knowledge_dir=knowledge)
    reply = offline.reply("do u have room for another client this quarter", Visitor("s1", "203.0.113.5"))
    assert reply.endswith("Yes, from next month.")


@pytest.mark.parametrize("message", ["what about pay", "tell me ur rates"])
def test_a_question_by_its_words_is_passed_on_though_it_has_one_meaningful_word_and_no_mark(offline, store, message):
    reply = offline.reply(message, Visitor("s1", "203.0.113.5"))
    assert [row.question for row in store.questions.all()] == [message] and wording.QUESTION_KEPT in reply


SPANISH_FAQ = """¿Firmas acuerdos de confidencialidad?
Sí, antes de hablar en detalle de los datos de un cliente.
"""


def test_a_question_is_answered_from_an_entry_in_its_own_language_in_that_language(knowledge, store, notifier):
    (knowledge / "faq.es.md").write_text(SPANISH_FAQ, encoding="utf-8")
    offline = replica_around(None, store, notifier, knowledge_dir=knowledge, languages=("en", "es"))
    spanish = "De las preguntas frecuentes de Ada Lovelace: Sí, antes de hablar en detalle de los datos de un cliente."
    assert offline.reply("hola, ¿firmarías un acuerdo de confidencialidad?", Visitor("s1")) == spanish
    assert offline.reply("Would you sign an NDA?", Visitor("s2")) == NDA_ANSWER
    assert store.questions.all() == []


def test_a_question_in_a_language_with_no_entry_is_passed_on_and_told_so_in_that_language(knowledge, store, notifier):
    (knowledge / "faq.es.md").write_text(SPANISH_FAQ, encoding="utf-8")
    english_only = replica_around(None, store, notifier, knowledge_dir=knowledge)  # LANGUAGES=en: faq.es.md unread
    # One that names just what an English question names is answered, saying so in its language.
    nda = english_only.reply("¿Firmas acuerdos de confidencialidad?", Visitor("s0"))
    assert nda == (
        "Esta respuesta está escrita en inglés:\n\n"
        "De las preguntas frecuentes de Ada Lovelace: Yes, before any detailed discussion of a client's data."
    )
    told = english_only.reply("¿Qué opinas de dbt frente a Airflow?", Visitor("s1"))
    assert told == (
        "Ahora mismo solo puedo responder con las respuestas escritas de Ada Lovelace, y no tengo ninguna para eso. "
        "He pasado tu pregunta, así que recibirás una respuesta de verdad."
    )
    french = english_only.reply("Quel outil préférez-vous pour l'orchestration ?", Visitor("s2"))
    assert french.endswith("J'ai transmis votre question : vous recevrez une vraie réponse.")
    german = english_only.reply("Arbeiten Sie auch am Wochenende? ada@example.com", Visitor("s3"))
    assert "Ich habe Ihre Frage weitergegeben" in german and "E-Mail-Adresse" in german
    asked = [row.question for row in store.questions.all()]
    assert asked == [
        "¿Qué opinas de dbt frente a Airflow?",
        "Quel outil préférez-vous pour l'orchestration ?",
        "Arbeiten Sie auch am Wochenende? ada@example.com",
    ]


def test_with_the_examples_languages_app_py_answers_spanish_and_portuguese_from_their_files(tmp_path):
    """As users run it: ``python app.py`` with no key, the example knowledge and ``LANGUAGES=en,es,pt``;
    each visitor answered in their own language, Portuguese told from Spanish; a French visitor gets the
    English answer, with a line in French saying so."""
    from tests.fixtures.clients import app_client
    from tests.fixtures.processes import served_app

    with served_app(tmp_path / "app.log", LANGUAGES="en,es,pt", OWNER_NAME="Jordan Avery") as (url, _):
        client = app_client(url)
        portuguese = client.predict("Olá! Estás disponível para novos projetos?", api_name="/chat")
        # Spanish shares every common word of this one; its "ç" is never Spanish
        services = client.predict("Que serviços ofereces?", api_name="/chat")
        spanish = client.predict("¿Dónde estudiaste?", api_name="/chat")
        english = client.predict("Are you available for new projects?", api_name="/chat")
        french = client.predict("Êtes-vous disponible pour de nouveaux projets ?", api_name="/chat")
    assert portuguese.startswith("Das perguntas frequentes de Jordan Avery: Sim, a partir do próximo mês")
    assert services.startswith("Das perguntas frequentes de Jordan Avery: Desenho e construo pipelines de dados")
    assert (
        spanish
        == "De las preguntas frecuentes de Jordan Avery: Máster (MSc) en Informática, Universidad de Lisboa, 2014."
    )
    assert english.startswith("From Jordan Avery's FAQ: Yes, from next month")
    # the owner has no French answers: the one naming just what it names, said to be in English
    assert french.startswith("Cette réponse est écrite en anglais :\n\nD'après la FAQ de Jordan Avery : Yes, from next")
