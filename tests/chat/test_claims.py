"""What a reply claims the app did (replica/chat/claims.py), read with the shipped ``prompts/claims.md``:
a sentence that saves, passes on or promises is a claim; one that asks, offers or denies is none; and an
owner's edit of the file that is no heading or no regular expression stops the start, naming the line."""

from __future__ import annotations

import pytest

from replica.chat.claims import Claim, ClaimPatterns


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
