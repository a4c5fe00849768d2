"""A question of the past, or turned around by refusing or avoiding, is read as such in Spanish,
Portuguese, French and German too, on a table written by a helper who never saw the reader
(tests/knowledge/tables/past_and_refusal.py: 268 visitor messages, with the present's look-alikes:
"este", "existe", "contraste", "wärst du", German "was"). Before this reading, 1 of its 92 questions of
the past and 32 of its 65 refusals were read."""

from __future__ import annotations

import pytest

from replica.knowledge.asking import negations
from replica.knowledge.past import past
from tests.knowledge.tables.past_and_refusal import ROWS


def read(message: str) -> str:
    if past(message):
        return "past"
    return "refusal" if negations(message) else "neither"


def share_read_as(kind: str) -> float:
    rows = [message for message, _, labelled in ROWS if labelled == kind]
    return sum(read(message) == kind for message in rows) / len(rows)


@pytest.mark.parametrize("kind, at_least", [("past", 0.90), ("refusal", 0.90), ("neither", 0.90)])
def test_the_past_and_refusals_are_read_in_four_languages_and_their_look_alikes_are_not(kind, at_least):
    assert share_read_as(kind) >= at_least


def test_no_present_question_is_read_as_the_past_by_a_word_it_shares_with_one():
    present = [m for m, _, kind in ROWS if kind == "neither" and past(m)]
    assert present == []


@pytest.mark.parametrize(
    "message, of_the_past",
    [
        ("¿Has trabajado alguna vez con startups?", True),
        ("Você já trabalhou com startups?", True),
        ("Que projetos recusaste?", True),
        ("Avez-vous déjà signé un NDA ?", True),
        ("Hast du schon mal mit Startups gearbeitet?", True),
        ("Em que andas a trabalhar este mês?", False),  # "este" is "this"
        ("Existe algum modelo de NDA?", False),
        ("¿Te mudarías a Madrid?", False),  # "would"
        ("Wärst du bereit, nach Wien zu ziehen?", False),  # "would", not "were"
        ("Was machst du beruflich?", False),  # German "was" is "what"
    ],
)
def test_a_question_of_the_past_is_told_from_the_present_by_its_forms(message, of_the_past):
    assert past(message) is of_the_past
