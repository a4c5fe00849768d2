"""How people type, undone: shorthand, apostrophes, plurals and stems become the same terms, and a
negation or a correction is never read as the question it turns around."""

from __future__ import annotations

import pytest

from replica.knowledge.terms import Vocabulary, corrected, negations, terms


@pytest.mark.parametrize(
    "typed, meant",
    [
        ("what timezone r u in", "what time zone are you in"),
        ("whats ur tz", "what is your time zone"),
        ("Do you sign NDAs?", "do you sign an nda"),
        ("Would you relocate?", "are you open to relocation"),
        ("start-ups", "startups"),
        ("What are you working on right now?", "what are you working on at the moment"),
    ],
)
def test_shorthand_apostrophes_plurals_and_stems_are_undone(typed, meant):
    assert terms(typed) == terms(meant)


def test_a_question_turned_around_counts_its_negations_and_the_plain_one_none():
    assert negations("Do you sign NDAs?") == 0
    assert negations("Dont you sign NDAs?") == negations("Don't you sign NDAs?") == 1
    assert negations("Do you refuse to sign NDAs?") == 1


def test_a_correction_is_read_from_where_it_starts_and_a_mere_i_mean_it_is_not_one():
    assert terms(corrected("Do you sign NDAs? no, I mean do you avoid them")) == terms("do you avoid them")
    assert corrected("Do you sign NDAs? I mean it.") == "Do you sign NDAs? I mean it."
    assert corrected("Do you sign NDAs?") == "Do you sign NDAs?"


def test_a_slip_is_read_as_the_vocabularys_word_only_one_slip_away():
    vocabulary = Vocabulary.of(["Are you available for new projects?", "Are you open to relocation?"])
    assert terms("availible projects", vocabulary) == terms("available projects")
    assert vocabulary.meant("relocatoin") == "relocation"  # two neighbours swapped
    assert vocabulary.meant("avxxable") == "avxxable"  # two slips: another word
    assert vocabulary.meant("projects") == "projects"  # already the vocabulary's own
