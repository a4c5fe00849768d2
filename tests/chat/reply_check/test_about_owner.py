"""Answers about the owner that the owner's notes do not hold, judged on a table written from the example
knowledge by someone who never saw the code (``tests/chat/tables/about_owner.py``): grounded statements,
paraphrases and negatives pass; an answer about a topic the notes never mention ("No, I do not have
experience with Rust in production.") is withheld like an invented specific, and the question passed on."""

from __future__ import annotations

import pytest

from replica import wording
from replica.chat.reply_check.about_owner import OwnerPatterns, OwnerTopics, OwnerWords, words_of
from replica.chat.reply_check.checker import UNHELD as UNHELD_KIND
from replica.chat.reply_check.checker import Records, ReplyChecker
from replica.knowledge.prompts import render_prompt
from tests.chat.tables.about_owner import HELD, UNHELD
from tests.fixtures.environment import ROOT

KNOWLEDGE = "\n\n".join(p.read_text() for p in sorted((ROOT / "knowledge").iterdir()))
OWNER = "Jordan Avery"
SYSTEM = render_prompt("system.md", owner_name=OWNER, knowledge=KNOWLEDGE)
# Not caught yet, each for a reason: strict, so that a check that comes to catch one says so.
BROUGHT_IN = "the reply brings the topic in itself, in lower case: only a name or number it brings is caught"
MISSED = {
    "go_comfortable": "'Go' is an everyday word",
    "favourite_language": BROUGHT_IN,
    "tdd_fan": BROUGHT_IN,
    "contract_third_person": BROUGHT_IN,
    "travel_monthly": BROUGHT_IN,
    "manage_preference": BROUGHT_IN,
    "teaching_course": "'teach' is all it shares with the question, and the notes hold 'data engineering'",
    "speaking_conferences": "'data' is held and 'conferences' brought in",
    "pair_programming": BROUGHT_IN,
    "hobby_guitar": BROUGHT_IN,
    "hobby_surf_weekends": BROUGHT_IN,
    "family": BROUGHT_IN,
    "plan_company": BROUGHT_IN,
    "plan_book": BROUGHT_IN,
    "pt_kubernetes_never": "Portuguese: no patterns for it shipped (the owner can add them)",
    "pt_bare_spark": "Portuguese: no patterns for it shipped (the owner can add them)",
    "es_spark": "Spanish: no patterns for it shipped (the owner can add them)",
    "es_weekends": "'fines' (de semana) is one slip from 'files', which the notes hold",
}


@pytest.fixture(scope="module")
def checker():
    return ReplyChecker(KNOWLEDGE, OWNER)


def through_the_check(checker, question, reply):
    """The reply as the visitor reads it once checked, what the check did, and whether it passed the question on."""
    check = checker.begin(SYSTEM, [], question)
    seen = [check.visible(reply[:end]) for end in range(1, len(reply) + 1)]
    passed = []
    final = check.finish(reply, Records(), lambda: passed.append(True) or True)
    assert all(b.startswith(a) for a, b in zip(seen, seen[1:])) and final.startswith(seen[-1].rstrip())
    return final, check.verdict, bool(passed)


@pytest.mark.parametrize("name, question, reply", HELD, ids=[e[0] for e in HELD])
def test_what_the_notes_hold_passes_in_other_words_and_in_the_negative(checker, name, question, reply):
    topics = OwnerTopics(OwnerPatterns.load(), OWNER)
    assert topics.unheld(reply, topics.asked(question), OwnerWords(KNOWLEDGE, SYSTEM)) == []
    _, verdict, _ = through_the_check(checker, question, reply)
    assert UNHELD_KIND not in verdict.withheld  # (a misspelt name is the exact specifics check's, by design)


@pytest.mark.parametrize(
    "name, question, reply, topic",
    [
        pytest.param(*e, id=e[0], marks=[pytest.mark.xfail(reason=MISSED[e[0]], strict=True)] if e[0] in MISSED else [])
        for e in UNHELD
    ],
)
def test_an_answer_about_the_owner_that_nothing_backs_is_withheld_and_passed_on(checker, name, question, reply, topic):
    final, verdict, passed = through_the_check(checker, question, reply)
    assert reply not in final and wording.NOT_IN_NOTES in final and verdict.withheld
    assert passed == bool(question) and wording.QUESTION_KEPT in final * passed


def test_the_table_holds_forty_grounded_and_thirty_caught(checker):
    unchanged = [name for name, question, reply in HELD if through_the_check(checker, question, reply)[0] == reply]
    # The others hold a name misspelt or in another language ("Portugl", "Lisboa"), which the exact
    # specifics check withholds by design (docs/models.md, "What is not checked").
    assert len(unchanged) >= 40 and len(UNHELD) - len(MISSED) >= 30


def test_the_visitors_words_never_back_a_statement_about_the_owner(checker):
    question = "Do you have experience with Rust in production? I use Rust a lot."
    final, verdict, passed = through_the_check(
        checker, question, "No, I do not have experience with Rust in production."
    )
    assert final.startswith(wording.NOT_IN_NOTES) and verdict.withheld == [UNHELD_KIND] and passed


def test_what_the_owner_said_in_the_conversation_backs_it(checker):
    earlier = [
        {"role": "user", "content": "Do you know Rust?"},
        {"role": "assistant", "content": "[Jordan Avery, in person] I've shipped Rust in production for two years."},
    ]
    check = checker.begin(SYSTEM, earlier, "So, Rust in production?")
    reply = "Yes, I have experience with Rust in production."
    assert check.finish(reply, Records(), lambda: True) == reply


def test_words_are_read_as_typed():
    assert words_of("I've used Kafka's API on-site") == ["i", "used", "kafka", "api", "on-site"]
    vocabulary = OwnerWords("I work on-site in Lisbon, and relocation is not for me.")
    assert vocabulary.holds("relocate") and vocabulary.holds("on-site") and vocabulary.holds("lisbn")
    assert not vocabulary.holds("full-time") and not vocabulary.holds("rust")
