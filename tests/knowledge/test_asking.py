"""What a question asks besides its terms: a negation, a correction, the past, a time, someone else,
another thing; each keeps a question apart from an approved one that shares its words."""

from __future__ import annotations

import pytest

from replica.knowledge.asking import about_someone_else, corrected, negations, times, topics
from replica.knowledge.past import past
from replica.knowledge.terms import terms


def test_a_question_turned_around_counts_its_negations_and_the_plain_one_none():
    assert negations("Do you sign NDAs?") == 0
    assert negations("Dont you sign NDAs?") == negations("Don't you sign NDAs?") == 1
    assert negations("Do you refuse to sign NDAs?") == 1
    # of a question in two halves, the first asks
    assert negations("Do you take on tiny startups or only big companies?") == 0
    assert negations("¿Trabajas con startups o no?") == 0
    assert negations("Do you refuse NDAs or sign them?") == 1


def test_a_correction_is_read_from_where_it_starts_and_a_mere_i_mean_it_is_not_one():
    assert terms(corrected("Do you sign NDAs? no, I mean do you avoid them")) == terms("do you avoid them")
    assert corrected("Do you sign NDAs? I mean it.") == "Do you sign NDAs? I mean it."
    assert corrected("Do you sign NDAs?") == "Do you sign NDAs?"


@pytest.mark.parametrize(
    "message, asks_of_the_past",
    [
        ("Have you ever relocated for a job?", True),
        ("Which startups have you worked with?", True),
        ("What did you do at Mareva?", True),
        ("I was wondering if you sign NDAs", False),  # politeness, not the past
        ("Are you open to relocation?", False),
        ("Can I see the contract you signed with them?", True),  # "you" after a noun, then a past verb
        ("Who do I ask about the invoice you sent?", True),
        ("Where are you based these days? Thank you", False),
        ("What were you working on last month?", True),  # words of time, in each language
        ("Are you free the last week of May?", False),
        ("Vous bossiez sur quoi l'an dernier ?", True),
        ("¿En qué proyecto estuviste el mes pasado?", True),
        ("Em que trabalhaste na semana passada?", True),
        ("Woran saßt du letzten Monat?", True),
    ],
)
def test_a_question_of_the_past_is_told_from_one_of_the_present(message, asks_of_the_past):
    assert past(message) is asks_of_the_past


def test_a_time_is_named_by_its_words_and_a_month_not_by_may():
    assert times("Can you start next week?") == times("any time that week") != set()
    assert not times("What are you working on this week?")  # the span one is in is now
    assert times("Are you free in March?") and not times("May I ask if you sign NDAs?")
    # a day in the plural is a time; a short word one "s" from a time is not ("mais" is no "mai", May)
    assert times("What are your working hours on Fridays?") == {"friday"}
    assert not times("Você aceita mais projetos?", "pt")


def test_someone_else_is_found_after_your_and_one_word_further_in_five_languages():
    assert about_someone_else("What time zone is your colleague in?")
    assert about_someone_else("What time zone is your business partner in?")
    assert about_someone_else("¿En qué zona horaria están tus clientes?")
    assert not about_someone_else("What time zone are you in?")


@pytest.mark.parametrize(
    "message",
    [
        "Will you ask us to sign an NDA?",
        "¿Nos harás firmar un NDA?",
        "Vais pedir-nos para assinar um NDA?",
        "Vai me obrigar a assinar?",
    ],
)
def test_what_the_owner_would_have_the_visitor_do_is_the_visitors_deed(message):
    assert about_someone_else(message)


def test_the_things_the_visitor_words_name_are_topics_and_the_qualifiers_are_not():
    assert terms("rates") <= topics() and terms("availability") <= topics()
    assert not terms("new project") & topics()
