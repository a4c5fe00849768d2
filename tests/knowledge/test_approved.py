"""Matching tolerates how people type (typos, missing apostrophes, "r u", "tz", plurals, word order) and
never answers a question that only looks like an approved one: the table in ``matching_table.py``,
against the example FAQ the app ships."""

from __future__ import annotations

import pytest

from replica.knowledge.approved import ApprovedAnswers, alike
from replica.knowledge.faq_files import Approved, approved_entries
from replica.knowledge.terms import common
from tests.fixtures.environment import ROOT
from tests.knowledge.matching_table import NEAR_MISSES, PARAPHRASES


@pytest.fixture(scope="module")
def example_faq():
    return ApprovedAnswers(approved_entries(ROOT / "knowledge"), lambda: [])


@pytest.fixture(scope="module")
def three_languages():
    """The example's answers in English, Spanish and Portuguese."""
    languages = ("en", "es", "pt")
    return ApprovedAnswers(approved_entries(ROOT / "knowledge", languages), lambda: [], languages)


def found(answers: ApprovedAnswers, message: str) -> str | None:
    match = answers.match(message)
    return match.approved.question if match else None


def test_the_table_asks_every_example_faq_question_and_is_big_enough(example_faq):
    assert len(PARAPHRASES) >= 40 and len(NEAR_MISSES) >= 20
    faq = {entry.question for entry in example_faq.entries if entry.source == "faq"}
    assert {question for _, question in PARAPHRASES} == faq


def test_nine_in_ten_paraphrases_get_their_answer_and_none_gets_another(example_faq):
    results = [(message, question, found(example_faq, message)) for message, question in PARAPHRASES]
    wrong = [(message, got) for message, question, got in results if got not in (question, None)]
    missed = [message for message, question, got in results if got is None]
    assert not wrong, wrong  # a wrong answer is worse than none: it is a near miss answered
    assert len(missed) <= len(PARAPHRASES) // 10, missed


@pytest.mark.parametrize("message", NEAR_MISSES)
def test_a_near_miss_is_never_answered(example_faq, message):
    assert found(example_faq, message) is None


def test_a_typing_slip_is_read_as_the_approved_word_only_when_one_slip_away(example_faq):
    assert found(example_faq, "Are you availible for projects?") == "Are you available for new projects?"
    assert found(example_faq, "Would you consider relocatoin?") == "Are you open to relocation?"  # two letters swapped
    assert found(example_faq, "Are you avxxable for projects?") is None  # two slips: another word
    assert found(example_faq, "Would you consider relxxatoin?") is None


def test_two_visitors_ask_the_same_question_in_matching_words_or_in_the_same_words():
    assert alike("whats ur tz", "What time zone are you in?") and alike("What time zone are you in?", "whats ur tz")
    assert alike("What do you do?", "what do you  do")  # no term to match by: the same wording still is
    assert not alike("Do you refuse to sign NDAs?", "Do you sign NDAs?") and not alike("What do you do?", "Why?")


@pytest.mark.parametrize(
    "name, recall",
    [
        ("no_model_matching", 0.79),
        ("held_out_matching", 0.57),
        ("second_held_out_matching", 0.80),
        ("third_held_out_matching", 0.78),
        ("fourth_held_out_matching", 0.79),
        ("fifth_held_out_matching", 0.78),
        ("sixth_held_out_matching", 0.75),
        ("seventh_held_out_matching", 0.72),
    ],
)
def test_on_tables_written_fresh_it_never_quotes_a_wrong_entry_and_answers_what_it_did(name, recall):
    """Issue 41's tables (tests/knowledge/tables/, written by someone who never saw the matcher; the
    held-out ones after the matcher was made, and not tuned to): precision as the issue asks, in the
    example's three languages; recall at least what it is (80%, 58%, 81%, 79%, 80%, 79%, 75%, 72%), short of
    the issue's 80% on questions nobody has seen (docs/knowledge.md says where it stands and why)."""
    import importlib

    from bench.matching import fresh_figures

    table = importlib.import_module(f"tests.knowledge.tables.{name}")
    right, wrong, unanswered = fresh_figures(table)
    assert len(table.PARAPHRASES) >= 120 and len(table.NEAR_MISSES) >= 60
    assert wrong <= 0.02 * len(table.PARAPHRASES) and unanswered >= 0.95 * len(table.NEAR_MISSES)
    assert right >= recall * len(table.PARAPHRASES)


@pytest.mark.parametrize(
    "message, meant",
    [
        ("Would you sign a confidentiality agreement?", "Do you sign NDAs?"),
        ("Do you have capacity for a new project?", "Are you available for new projects?"),
        ("What projects are you on right now?", "What are you working on at the moment?"),  # "what project are you on"
        ("Would you consider relocating to London?", "Are you open to relocation?"),  # a place to go qualifies it
        ("Do you partner with early-stage startups?", "Do you work with early-stage startups?"),
        ("So what services do you offer?", "What kind of work do you do?"),  # "so" is not Portuguese "só"
        ("Do you work with Databricks?", None),  # a name, but not a place to go: not "What kind of work…?"
    ],
)
def test_the_words_visitors_use_for_a_thing_mean_it(message, meant):
    entries = approved_entries(ROOT / "knowledge")
    match = ApprovedAnswers(entries, lambda: []).match(message)
    assert (match.approved.question if match else None) == meant


@pytest.mark.parametrize(
    "message",
    [
        "Are you too busy for new projects?",
        "Are you booked up with new projects?",
        "What time zone is your colleague in?",
    ],
)
def test_a_question_turned_around_or_about_someone_else_is_not_answered(message):
    entries = approved_entries(ROOT / "knowledge")
    assert ApprovedAnswers(entries, lambda: []).match(message) is None


@pytest.mark.parametrize(
    "message, answered",
    [
        # what the visitor must do, or advice for themselves: not the owner's deed
        ("Do I need to sign an NDA with you first?", None),
        ("¿Tendré que firmar yo un acuerdo de confidencialidad?", None),
        ("Vou ter que assinar algum NDA?", None),
        ("Which university should I pick to become a data engineer?", None),
        ("¿Le pides al cliente que firme un NDA?", None),
        ("Are you firm on having the client sign an NDA? Do you require that the client signs?", None),
        # asked of the visitor by the owner's own question, or advice that names the owner: still answered
        ("How should I contact you?", "How can I get in touch with you?"),
        ("Which time zone should I assume for you?", "What time zone are you in?"),
        ("Which time zone should I assume when we schedule with you?", "What time zone are you in?"),
        # someone else: the people one may ask about, in five languages
        ("What time zone is your lawyer in?", None),
        ("¿Tu contable trabaja con startups?", None),
        ("O teu advogado assina NDAs?", None),
        # a day, or "at once", the answer does not name
        ("Can you start on Thursday?", None),
        ("¿Puedes empezar el jueves?", None),
        ("Are you available immediately?", None),
        # what would have been is the past
        ("Had we asked in 2020, would you have relocated?", None),
        # between two others; a few words after a comma ask of whom the clause before asks; days in the plural
        ("What's the time difference between Lisbon and Chicago?", None),
        ("¿Qué diferencia horaria hay entre Lisboa y Chicago?", None),
        ("Between you and me, what time zone are you in?", "What time zone are you in?"),
        ("Which time zone should I use for our logs, UTC or local?", None),
        ("What's your time zone, CET or WET?", "What time zone are you in?"),
        ("What are your working hours on Saturdays?", None),
        # others by a pronoun, and not "you"; "they" in a circumstance, or beside "you", asks nothing of them
        ("What time zone are they in?", None),
        ("Do they sign NDAs too?", None),
        ("How can I get in touch with them?", None),
        ("Eles trabalham com startups?", None),
        ("¿La agencia con la que colaboras trabaja con startups?", None),  # the agency, named first
        ("Startups: do you work with them?", "Do you work with early-stage startups?"),
        ("We need an NDA signed before they share the schema, will you sign?", "Do you sign NDAs?"),
        # a name is no slip ("Slack" is not "stack"); a phone number is not how to get in touch
        ("Are you on Slack?", None),
        ("What's your phone number?", None),
        ("¿Cuál es tu número de teléfono?", None),
        ("Qual é o seu número de telefone?", None),
        ("Qual é o nome do cliente para quem você está trabalhando agora?", None),  # a name the answer lacks
    ],
)
def test_what_the_visitor_must_do_someone_elses_question_a_day_or_a_name_is_not_what_the_owner_answered(
    three_languages, message, answered
):
    """Rules this stop measured on a table its helper wrote before any of its rows was read
    (``fourteenth_held_out_matching``): near misses quoted 10 → 4 of 104, nothing lost (docs/knowledge.md)."""
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message, answered, asked",
    [
        ("Could we get an NDA set up first?", "Do you sign NDAs?", None),
        ("Can we put an NDA in place first?", "Do you sign NDAs?", None),
        ("Is an early-stage startup a fit for you?", "Do you work with early-stage startups?", None),  # "a fit for you"
    ],
)
def test_a_light_word_names_no_thing(example_faq, message, answered, asked):
    """ "get", "put", "place", "fit" (a helper's list of light words in five languages, the visitor words'
    everyday ones) name nothing, though phrases of a thing hold them ("fit us in", "got room"), unless a
    phrase is all of them ("a fit for you" is whom one works with)."""
    offered = example_faq.offer(message) if answered is None else None
    assert (found(example_faq, message), offered.approved.question if offered else None) == (answered, asked)


@pytest.mark.parametrize(
    "message, answered",
    [
        ("What are your normal working hours?", None),  # the answer names a zone, not the hours
        ("What hours do you usually work?", None),
        ("¿Cuál es tu horario de trabajo?", None),
        ("Qual é o seu horário comercial?", None),
        ("Quels sont vos horaires de travail habituels ?", None),
        ("Do our working hours overlap at all?", "What time zone are you in?"),  # the overlap the answer names
        ("Would your working hours line up with ours in Boston?", "What time zone are you in?"),
        ("What time zone do you work in?", "What time zone are you in?"),
    ],
)
def test_working_hours_are_not_a_time_zone_but_their_overlap_is(three_languages, message, answered):
    """The fifteenth table's near misses ("What are your usual working hours?" in four languages) were
    quoted the time zone: working hours are no phrase of it; hours that overlap or line up are."""
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message, answered",
    [
        ("When does your current project end?", None),  # the answer names no time
        ("¿Cuándo termina tu proyecto actual?", None),
        ("Quando acaba o teu projeto atual?", None),
        ("Wann endet Ihr aktuelles Projekt?", None),  # across languages too
        ("And when would you relocate?", None),
        ("When are you available for new projects?", "Are you available for new projects?"),  # "from next month"
        ("¿Cuándo estarías disponible para un proyecto nuevo?", "¿Estás disponible para nuevos proyectos?"),
        ("Do you sign NDAs when we start?", "Do you sign NDAs?"),  # "when" in a circumstance asks no time
    ],
)
def test_a_question_of_when_is_answered_only_by_an_answer_that_names_a_time(three_languages, message, answered):
    """A question that begins by asking when asks a time, as "…next week?" names one (a near miss of the
    fifteenth table: "Wann endet Ihr aktuelles Projekt?")."""
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message, answered",
    [
        ("Wie kann ich dich am besten kontaktieren?", "How can I get in touch with you?"),
        ("Comment est-ce que je peux vous contacter ?", "How can I get in touch with you?"),
        ("Wären Sie bereit umzuziehen?", "Are you open to relocation?"),
        # and a helper's French and German words for the things, and the words that frame a question
        ("Accepteriez-vous de signer un NDA ?", "Do you sign NDAs?"),
        ("Was machst du beruflich?", "What kind of work do you do?"),
        ("Womit beschäftigen Sie sich aktuell?", "What are you working on at the moment?"),
        ("Avez-vous de la place pour un nouveau projet ?", "Are you available for new projects?"),
    ],
)
def test_french_and_german_visitors_are_read_in_their_own_everyday_words(example_faq, message, answered):
    """A helper's list of French and German everyday words ("peux", "am besten"), each of its language only."""
    assert found(example_faq, message) == answered
    assert common("peux", "fr") and not common("peux", "es")


@pytest.mark.parametrize(
    "message, answered",
    [
        ("would u relocate to lisbon", "Are you open to relocation?"),
        ("te mudarias a valencia", "¿Estarías dispuesto a mudarte?"),
        ("vc se mudaria pra bh", "Estás aberto a mudar de cidade ou de país?"),
        ("do you mostly stick to bigger companies?", None),  # a word after "to", but no move: no place
    ],
)
def test_a_place_typed_without_its_capital_is_a_place_to_go_where_the_question_is_of_moving(
    three_languages, message, answered
):
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message",
    [
        "What can you help with?",
        "What do you help companies with?",
        "What kind of stuff do you do?",
        "What is it you do?",
    ],
)
def test_what_one_does_is_asked_in_many_english_words(example_faq, message):
    """A helper's English phrases for the kind of work, measured alone on every table (docs/knowledge.md)."""
    assert found(example_faq, message) == "What kind of work do you do?"


@pytest.mark.parametrize(
    "message, close",
    [
        ("Are you available for a call?", "Are you available for new projects?"),  # it asks more
        ("Do you sign NDAs?", None),  # answered: nothing to offer
        ("Do you refuse to sign NDAs?", None),  # turned around
        ("What time zone is your colleague in?", None),  # someone else
        ("What is your favourite opera?", None),
    ],
)
def test_an_approved_answer_close_to_an_unanswered_question_is_found_for_the_owner(message, close):
    entries = approved_entries(ROOT / "knowledge")
    found = ApprovedAnswers(entries, lambda: []).close(message)
    assert (found.question if found else None) == close


@pytest.mark.parametrize(
    "message, answered",
    [
        ("¿Firmas NDAs?", "¿Firmas acuerdos de confidencialidad (NDA)?"),  # not "andas" mistyped
        ("Você assina NDAs?", "Assinas acordos de confidencialidade (NDA)?"),
    ],
)
def test_a_word_the_visitor_words_know_is_never_read_as_a_slip_of_another(three_languages, message, answered):
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message, answered",
    [
        ("Do you take on startup clients?", "Do you work with early-stage startups?"),  # whom one works with
        ("What sort of projects do you usually take on?", "What kind of work do you do?"),
        ("Can you take on new work at the moment?", "Are you available for new projects?"),  # room for more
        ("Could you take on a project with us?", "Are you available for new projects?"),
        ("Would you take on one more client?", "Are you available for new projects?"),
    ],
)
def test_taking_on_is_whom_one_works_with_and_taking_on_more_is_availability(example_faq, message, answered):
    assert found(example_faq, message) == answered


@pytest.mark.parametrize(
    "message, answered",
    [
        ("Do you work with companies that are just starting out?", "Do you work with early-stage startups?"),
        ("¿Trabajas con empresas tan jóvenes?", "¿Trabajas con startups en fase inicial?"),
        (
            "Trabalhas com empresas que ainda estão a dar os primeiros passos?",
            "Trabalhas com startups em fase inicial?",
        ),
        ("Are you just starting out as a freelancer?", None),  # the owner starting: no company
        # a helper's Spanish, Portuguese and English phrases for a company just starting (this stop)
        ("¿Trabajas con empresas que recién arrancan?", "¿Trabajas con startups en fase inicial?"),
        ("Você trabalha com empresas que acabaram de nascer?", "Trabalhas com startups em fase inicial?"),
    ],
)
def test_a_young_company_is_read_in_the_words_visitors_use(three_languages, message, answered):
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message, answered",
    [
        ("Você assina termo de sigilo?", "Assinas acordos de confidencialidade (NDA)?"),
        ("¿En qué estás laburando ahora?", "¿En qué estás trabajando ahora?"),
        ("Você está trampando em quê agora?", "Em que estás a trabalhar neste momento?"),
        ("o que vc oferece?", "O que fazes?"),
    ],
)
def test_spanish_and_portuguese_visitors_are_read_in_their_own_everyday_words(three_languages, message, answered):
    """Words a helper listed for the visitor words' things in Spanish, Portuguese, French and German, kept
    for the things where they quoted more on the read tables and no near miss more (docs/knowledge.md)."""
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message, answered",
    [
        ("Como faço para falar com você?", "Como posso entrar em contacto contigo?"),  # "entrar" is contact's
        ("Estás disposto a mudar de cidade?", "Estás aberto a mudar de cidade ou de país?"),  # "país" too
        ("vc toparia se mudar pra São Paulo?", "Estás aberto a mudar de cidade ou de país?"),
        ("Em que país vives?", None),  # a word of relocation's phrases alone asks of no relocation
    ],
)
def test_a_word_left_of_a_phrase_for_the_thing_a_question_names_is_not_asked_again(three_languages, message, answered):
    """The owner's "Como posso entrar em contacto contigo?" is read as contact, whole: "entrar" is left of
    "entrar em contato" by the European spelling, and is a word visitors use for contact, not a term every
    visitor must repeat."""
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message, answered",
    [
        ("We're a 5-person startup. Is that something you take on?", "Do you work with early-stage startups?"),
        (
            "Somos una startup de 5 personas. ¿Trabajas con empresas en esa fase?",
            "¿Trabajas con startups en fase inicial?",
        ),
        (
            "Somos uma startup de 7 pessoas. Trabalhas com empresas nesta fase?",
            "Trabalhas com startups em fase inicial?",
        ),
        ("We don't need an NDA, is that okay with you?", None),  # what the statement says, turned around
    ],
)
def test_a_question_that_points_back_asks_of_the_statement_before_it(three_languages, message, answered):
    """ "That", "at that stage", "nesta fase" point back at the statement before ("we're" is no past: "were")."""
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message, answered",
    [
        ("What projects are you currently on?", "What are you working on at the moment?"),  # "now" inside a phrase
        ("¿Con qué proyectos estás ahora?", "¿En qué estás trabajando ahora?"),
        ("Are early startups a fit for you?", "Do you work with early-stage startups?"),
        ("¿Aceptas firmar un NDA antes de la reunión?", "¿Firmas acuerdos de confidencialidad (NDA)?"),  # a frame
        ("Aceitarias uma relocalização para Londres?", "Estás aberto a mudar de cidade ou de país?"),
        ("Do you help small startups that are just getting started?", "Do you work with early-stage startups?"),
        ("¿Colaboras con startups que están empezando?", "¿Trabajas con startups en fase inicial?"),
        ("Você atende empresas que estão começando agora?", "Trabalhas com startups em fase inicial?"),
        ("¿Aceptas proyectos con startups pequeñas?", "¿Trabajas con startups en fase inicial?"),  # accepting whom
        ("Aceitas clientes que ainda são startups?", "Trabalhas com startups em fase inicial?"),
        ("Do you offer a discount for startups?", None),  # another thing asked of startups
        ("Could you help us interview candidates for our startup?", None),
    ],
)
def test_whom_the_owner_works_with_is_asked_in_many_words(three_languages, message, answered):
    """Helping, serving, being a fit (prompts/visitor_words.md's work) ask what working with them asks, and the
    projects one is on what one works on;
    beside another thing, working or accepting only frames the question."""
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message, answered",
    [
        ("Do you sign NDAs before a first technical call about our customer data?", "Do you sign NDAs?"),
        (
            "How can I get in touch with you to discuss a two-week audit of our dbt project?",
            "How can I get in touch with you?",
        ),
        ("¿Firmas NDAs antes de la primera reunión técnica?", "¿Firmas acuerdos de confidencialidad (NDA)?"),
        ("How can I reach you to send over a project brief?", "How can I get in touch with you?"),
        ("Would you sign an NDA so we can discuss a dbt audit?", "Do you sign NDAs?"),
        ("Are you available for a 6-month contract?", "Are you available for new projects?"),  # how long
        ("¿Estás disponible para un contrato de tres meses?", "¿Estás disponible para nuevos proyectos?"),
        ("Would you relocate to London for a 12-month contract?", "Are you open to relocation?"),  # no month
        ("Would you relocate for a full-time position?", "Are you open to relocation?"),  # what one goes for
        ("¿Te mudarías a otra ciudad por un trabajo?", "¿Estarías dispuesto a mudarte?"),
        ("Would you relocate for a higher salary?", None),  # money is no engagement: a question of rates
        ("What are you working on this month?", "What are you working on at the moment?"),  # now: no month
        ("Would you sign a 12-month contract with us?", None),  # the contract is what is signed: no NDA
        ("How much do you charge for a 6-month contract?", None),
        ("Are you available for a call?", None),  # "for" asks of the call: no circumstance
        ("Do you need us to sign an NDA from your side?", None),  # nor "from": it asks who signs
        ("Do you refuse to sign NDAs before a first call?", None),  # turned around, whatever it adds
        ("Does your colleague sign NDAs before a first call?", None),  # someone else
        ("Will you ask us to sign an NDA before you show us your code?", None),  # the visitor signs
        ("¿Nos harás firmar un acuerdo de confidencialidad?", None),
    ],
)
def test_a_question_is_answered_whatever_circumstance_it_adds(three_languages, message, answered):
    assert found(three_languages, message) == answered
    assert answered is not None or three_languages.offer(message) is None  # neither quoted nor asked about


@pytest.mark.parametrize(
    "message, answered",
    [
        ("What are you currenly workng on?", "What are you working on at the moment?"),  # "currently" is "now"
        ("Unterschreiben Sie eine Vertraulichkeitsvereinbrung?", "Do you sign NDAs?"),  # a German noun's capital
        ("unterschreibst du ne nda", "Do you sign NDAs?"),  # German "ne" is "eine", no French negation
    ],
)
def test_a_slip_is_mended_in_a_word_read_as_now_and_in_a_german_noun(three_languages, message, answered):
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message, answered",
    [
        ("Do you work with early-stage startups of under 25 employees?", "Do you work with early-stage startups?"),
        ("¿Trabajas con startups en fase inicial de 8 personas?", "¿Trabajas con startups en fase inicial?"),
        (
            "Do you work with early-stage startups, a team of 6 with $2M raised?",
            "Do you work with early-stage startups?",
        ),
        ("Are you available for new projects in 2027?", None),  # a number of anything else still asks of it
    ],
)
def test_how_many_people_or_how_much_money_a_company_has_asks_of_no_number(three_languages, message, answered):
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message, answered, quoted",
    [
        ("Could you draft us an NDA?", "Do you sign NDAs?", False),  # another deed on the same thing: asked
        ("¿Puedes traducir nuestro acuerdo de confidencialidad?", "¿Firmas acuerdos de confidencialidad (NDA)?", False),
        ("Would you agree to an NDA?", "Do you sign NDAs?", True),  # agreeing to one is signing it
        ("Which time zone do you operate in?", "What time zone are you in?", True),  # a deed beside all its words
        ("Can you share your client list, or is that under NDA?", None, False),  # "that" is the client list
        ("We are open to relocation ourselves, do you need a subcontractor?", None, False),  # the visitor's news
        ("FYI my team is in Central European Time, so mornings suit us.", None, False),
        ("I'm a founder, do you work with early-stage startups?", "Do you work with early-stage startups?", True),
    ],
)
def test_another_deed_a_continuation_or_the_visitors_own_news_is_not_the_question(
    three_languages, message, answered, quoted
):
    """What the owner is asked to do, what a clause after a comma points back at, and who a clause tells
    of decide what it asks: not quoted, at most asked about ("Did you mean…?")."""
    offered = three_languages.offer(message)
    assert found(three_languages, message) == (answered if quoted else None)
    assert quoted or (offered.approved.question if offered else None) == answered


@pytest.mark.parametrize(
    "message, answered",
    [
        ("Do you work with young startups or only large corporations?", "Do you work with early-stage startups?"),
        ("¿Tienes hueco para proyectos nuevos o estás a tope?", "¿Estás disponible para nuevos proyectos?"),
        ("Are you taking new projects or fully booked?", "Are you available for new projects?"),
    ],
)
def test_a_short_alternative_is_the_no_to_what_the_first_half_asks(three_languages, message, answered):
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message, answered",
    [
        ("What kind of data platform work do you do?", "What kind of work do you do?"),  # the kind asked
        ("¿Qué tipo de trabajo de analítica haces?", "¿A qué te dedicas?"),
        ("What kind of laptop do you work on?", None),  # a kind of something else
    ],
)
def test_the_kind_of_work_a_question_of_work_names_is_the_kind_it_asks(three_languages, message, answered):
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message, answered",
    [
        ("Which companies are you doing work for these days?", "What are you working on at the moment?"),
        ("¿En qué andas trabajando estos días?", "¿En qué estás trabajando ahora?"),
        ("What kind of work are you doing these days?", "What are you working on at the moment?"),
        ("Are you available to work right now?", "Are you available for new projects?"),  # beside another thing
        ("My name is Ana. Do you sign NDAs?", "Do you sign NDAs?"),
        ("Do you sign NDAs with our team?", "Do you sign NDAs?"),
    ],
)
def test_the_owners_work_asked_of_now_is_what_the_owner_is_working_on(three_languages, message, answered):
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message",
    [
        "How many clients do you work with right now?",  # a count no answer gives
        "Which clients are you working with right now? Just the names.",  # names, in a clause that does not ask
        "Do you work with any of our competitors?",  # one of the visitor's own
    ],
)
def test_how_many_names_or_one_of_the_visitors_own_are_neither_quoted_nor_asked_about(three_languages, message):
    assert three_languages.match(message) is None
    assert three_languages.offer(message) is None


@pytest.mark.parametrize(
    "message, answered",
    [
        ("Would you agree in writing to keep it under wraps?", "Do you sign NDAs?"),  # in writing: signed
        ("¿Te comprometes por escrito a no divulgar nuestros datos?", "¿Firmas acuerdos de confidencialidad (NDA)?"),
        ("We are a seed startup. Do you work with companies at this stage?", "Do you work with early-stage startups?"),
        ("What are you working on at this point?", "What are you working on at the moment?"),
    ],
)
def test_a_promise_in_writing_not_to_disclose_is_an_nda_and_this_stage_a_startups(three_languages, message, answered):
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message, answered",
    [
        ("¿Colabora usted con empresas emergentes?", "¿Trabajas con startups en fase inicial?"),
        ("O senhor trabalha com startups?", "Trabalhas com startups em fase inicial?"),
    ],
)
def test_the_formal_you_inside_a_visitor_phrase_leaves_it_whole(three_languages, message, answered):
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message",
    [
        "What is your day rate for startups?",
        "Do you work with startups for equity only?",
        "¿Trabajas gratis con startups?",
        "Do you sign NDAs, and how much do you charge?",  # in a clause of its own too
        "Are you available for new projects? What are your rates?",
    ],
)
def test_a_question_that_names_the_owners_price_is_neither_quoted_nor_asked_about(three_languages, message):
    """No answer names the price: the message goes to the owner as it is, not as "Did you mean…?"."""
    assert three_languages.match(message) is None
    assert three_languages.offer(message) is None


def test_a_word_one_slip_from_a_word_of_price_is_not_one():
    answers = ApprovedAnswers(approved_entries(ROOT / "knowledge", ("pt",)), lambda: [], ("pt",))
    assert found(answers, "Preciso saber: você assina NDA?") == "Assinas acordos de confidencialidade (NDA)?"


@pytest.mark.parametrize(
    "message, answered",
    [
        ("We're a small startup. Would you work with us?", "Do you work with early-stage startups?"),  # "us"
        ("Somos una startup pequeña, ¿trabajarías con nosotros?", "¿Trabajas con startups en fase inicial?"),
        ("Trabalharias com startups?", "Trabalhas com startups em fase inicial?"),  # the verb in any tense
        (  # the part of the statement that names the thing; the negation is of another part
            "We just closed a seed round and nobody here writes SQL. Do you work with startups at this stage?",
            "Do you work with early-stage startups?",
        ),
        ("We don't need an NDA, is that okay with you?", None),  # the negation of the thing pointed back at
    ],
)
def test_a_question_asks_of_the_company_the_visitor_described_as_us_or_pointed_back_at(
    three_languages, message, answered
):
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message, answered",
    [
        ("¿Te mudarías a Ciudad de Panamá?", "¿Estarías dispuesto a mudarte?"),  # a place's name with "de"
        ("Você se mudaria para a Alemanha?", "Estás aberto a mudar de cidade ou de país?"),  # after its article
        ("Would you relocate for a role in Toronto?", "Are you open to relocation?"),  # where one would be
        ("¿Te mudarías acá?", "¿Estarías dispuesto a mudarte?"),  # "here"
        ("would u relocat to canada", "Are you open to relocation?"),  # a slip of moving, a place in lower case
        ("¿Te irías a vivir a otro país por un buen proyecto?", "¿Estarías dispuesto a mudarte?"),  # going to live
        ("Would you consider a change of country?", "Are you open to relocation?"),
        ("Do you know anyone who would relocate to Berlin?", None),  # someone else
        ("¿Conoces a alguien que se mudaría a Madrid?", None),
        ("What kind of work do you do as a freelancer?", "What kind of work do you do?"),  # the owner's role
        ("What kind of work does a data engineer like you do?", "What kind of work do you do?"),
        ("¿Qué tipo de trabajo haces como consultor?", "¿A qué te dedicas?"),  # "you" in the verb
        ("Do you work as a contractor?", None),  # a role read as another thing
        ("What's it like moving to Lisbon as a developer?", None),  # a role of no one asked
    ],
)
def test_where_the_owner_would_move_and_the_role_the_owner_is_named_by_add_nothing_to_ask(
    three_languages, message, answered
):
    assert found(three_languages, message) == answered


@pytest.mark.parametrize(
    "message",
    [
        "Do you sign NDAs after the project has already started?",  # the answer: "Yes, before any…"
        "¿Firmas acuerdos de confidencialidad después de empezar el proyecto?",
    ],
)
def test_a_circumstance_opposite_to_the_one_the_answer_states_is_not_set_aside(three_languages, message):
    assert found(three_languages, message) is None


@pytest.mark.parametrize(
    "message, answered, quoted",
    [
        ("¿Firmas acuerdos de confidencialidad?", "Do you sign NDAs?", True),
        ("Você assinaria um termo de confidencialidade?", "Do you sign NDAs?", True),
        ("¿Te mudarías por un proyecto?", "Are you open to relocation?", True),
        ("Você toparia se mudar de cidade?", "Are you open to relocation?", True),  # "cidade" is relocation's word
        ("Sur quoi travaillez-vous en ce moment ?", "What are you working on at the moment?", True),
        ("Dans quel fuseau horaire travaillez-vous ?", "What time zone are you in?", True),  # "work": the verb
        ("Vous travaillez avec des startups ?", "Do you work with early-stage startups?", True),
        ("Seriez-vous prêt à déménager à Lyon ?", "Are you open to relocation?", True),  # a place to go
        ("Dans quel fuseau horraire êtes-vous ?", "What time zone are you in?", True),  # a slip, mended
        ("Êtes-vous prêt à déménnager ?", "Are you open to relocation?", True),
        ("¿Trabajas con startups?", "Do you work with early-stage startups?", True),
        ("Signez-vous des NDA avant un premier appel ?", "Do you sign NDAs?", True),  # its head, as in English
        ("¿Trabajas con bancos?", None, False),  # a word more than a one-thing question names: not that question
        ("¿No firmas acuerdos de confidencialidad?", None, False),  # turned around
        ("¿Firmas acuerdos de confidencialidad y te mudarías?", None, False),  # another thing besides
        ("¿Qué tiempo hace en Lisboa?", None, False),  # no thing named at all
        ("Comment puis-je vous contacter pour parler d'un audit ?", "How can I get in touch with you?", True),  # "d'"
        ("Acceptez-vous de signer un accord de confidentialité ?", "Do you sign NDAs?", True),  # accepting frames it
        (
            "Êtes-vous disponible pour une nouvelle mission en télétravail ?",
            "Are you available for new projects?",
            True,
        ),
    ],
)
def test_without_answers_in_its_language_a_message_is_answered_by_the_things_it_names(message, answered, quoted):
    """Quoted when the whole message names just what one question names; asked about when it does without
    the circumstance it adds."""
    english = ApprovedAnswers(approved_entries(ROOT / "knowledge"), lambda: [], ("en", "es", "pt", "fr"))
    match, offer = english.match(message), english.offer(message)
    assert (match.approved.question if match else None) == (answered if quoted else None)
    assert (offer.approved.question if offer else None) == answered
    assert offer is None or offer.by == "rules"


def test_across_languages_two_answers_naming_the_same_things_leave_nothing_to_ask_about():
    rates = [
        Approved("What is your day rate?", "€600 a day.", "faq", "en"),
        Approved("How much do you charge?", "It depends on the project: tell me about it.", "faq", "en"),
    ]
    both = ApprovedAnswers(rates, lambda: [], ("en", "es"))
    assert both.offer("¿Cuánto cobras?") is None  # which of the two it asks is not for the rules to guess
    one = ApprovedAnswers(rates[:1], lambda: [], ("en", "es")).offer("¿Cuánto cobras?")
    assert one is not None and one.approved.question == "What is your day rate?"


def test_an_answer_that_says_when_answers_a_question_asked_of_now(example_faq):
    # "Yes, from next month…" says when, so it answers "…right now?"; "What kind of work do you do?" says
    # no time, so a question of what one does right now is not it.
    assert found(example_faq, "Are you taking on new clients right now?") == "Are you available for new projects?"
    assert found(example_faq, "Are you currently accepting new work?") == "Are you available for new projects?"
    assert found(example_faq, "What kind of work are you doing right now?") != "What kind of work do you do?"
