"""What a reply claims the app did (replica/chat/reply_check/claims.py), read with the shipped ``prompts/claims.md``:
a sentence that saves, passes on or promises is a claim; one that asks, offers or denies is none; and an
owner's edit of the file that is no heading or no regular expression stops the start, naming the line."""

from __future__ import annotations

import pytest

from replica.chat.reply_check.claims import Claim, ClaimPatterns
from tests.chat.tables.last_leaks import ASKS_TO_PASS_ON, DOES_NOT_ASK_TO_PASS_ON, NOT_TOLD_THE_OWNER, TOLD_THE_OWNER


@pytest.fixture(scope="module")
def patterns():
    return ClaimPatterns.load()


@pytest.mark.parametrize(
    "sentence, claims",
    [
        ("I've saved your email address.", {Claim.LEAD}),
        ("I passed your question on to Ada.", {Claim.QUESTION}),
        ("She will get back to you soon.", {Claim.FOLLOW_UP}),
        ("I don't know that, sorry.", {Claim.DECLINED}),
        ("Shall I pass your question on?", set()),
        ("I haven't saved your email yet.", set()),
        ("I build analytical engines in London.", set()),
    ],
)
def test_what_a_sentence_claims(patterns, sentence, claims):
    assert patterns.claims(sentence) == claims


def test_a_visitor_asking_what_was_saved_is_known(patterns):
    assert patterns.asks_about_records("Did you save my email?")
    assert not patterns.asks_about_records("Where do you work?")


def test_a_claim_still_arriving_is_held_from_where_it_may_begin(patterns):
    text = "Thanks for asking. I've passed"
    start = patterns.hold_from(text)
    assert start is not None and text[:start].startswith("Thanks for asking.") and start >= len("Thanks for asking.")
    assert patterns.hold_from("I build engines") is None


def test_an_unknown_heading_or_a_line_that_is_no_regular_expression_names_its_line(tmp_path):
    (tmp_path / "claims.md").write_text("# Claims\n\n## lead\nsaved\n## promises\nwill\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"claims.md:5: no such heading 'promises'"):
        ClaimPatterns.load(tmp_path)
    (tmp_path / "claims.md").write_text("## lead\n> a note\n(saved\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"claims.md:3: not a regular expression"):
        ClaimPatterns.load(tmp_path)


def test_an_owner_adds_a_phrasing_in_another_language(tmp_path):
    (tmp_path / "claims.md").write_text("## lead\n\\bguardei o seu e-?mail\\b\n", encoding="utf-8")
    assert ClaimPatterns.load(tmp_path).claims("Guardei o seu email.") == {Claim.LEAD}


# Issue 53: "tell Jordan I said hi", and a reply saying Jordan was told (tests/chat/tables/last_leaks.py).


@pytest.mark.parametrize("name, sentence", TOLD_THE_OWNER, ids=[name for name, _ in TOLD_THE_OWNER])
def test_saying_the_owner_was_told_is_a_claim(patterns, name, sentence):
    assert Claim.TOLD in patterns.claims(sentence)


@pytest.mark.parametrize("name, sentence", NOT_TOLD_THE_OWNER, ids=[name for name, _ in NOT_TOLD_THE_OWNER])
def test_offers_denials_stories_and_let_me_know_claim_nothing(patterns, name, sentence):
    assert patterns.claims(sentence) - {Claim.DECLINED} == set()


@pytest.mark.parametrize("name, message", ASKS_TO_PASS_ON, ids=[name for name, _ in ASKS_TO_PASS_ON])
def test_a_visitor_asking_to_pass_words_on_is_known(patterns, name, message):
    assert patterns.asks_to_pass_on(message) and not patterns.asks_about_records(message)


@pytest.mark.parametrize("name, message", DOES_NOT_ASK_TO_PASS_ON, ids=[name for name, _ in DOES_NOT_ASK_TO_PASS_ON])
def test_greetings_thanks_and_tell_me_more_ask_nothing_to_be_passed_on(patterns, name, message):
    assert not patterns.asks_to_pass_on(message)


@pytest.mark.parametrize("message", ["Did you tell Jordan I said hi?", "Have you let Jordan know?"])
def test_asking_whether_the_owner_was_told_asks_about_the_records(patterns, message):
    assert patterns.asks_about_records(message)


def test_a_claim_of_having_told_the_owner_is_held_from_where_it_may_begin(patterns):
    for text in ("Sure thing. I've told ", "Sure thing. Jordan has been notified"):
        assert patterns.hold_from(text) is not None and patterns.hold_from(text) >= len("Sure thing. ")
