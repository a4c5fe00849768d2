"""How people type, undone: shorthand, apostrophes, plurals and stems become the same terms."""

from __future__ import annotations

import pytest

from replica.knowledge.terms import Vocabulary, terms


@pytest.mark.parametrize(
    "typed, meant",
    [
        ("what timezone r u in", "what time zone are you in"),
        ("whats ur tz", "what is your time zone"),
        ("how cn i contact u", "how can i contact you"),  # prompts/visitor_words.md's shorthand
        ("em q vc ta trabalhando agr", "em que você está trabalhando agora"),
        ("x donde t hablo pa un proyecto", "por donde te hablo para un proyecto"),
        ("Do you sign NDAs?", "do you sign an nda"),
        ("Would you relocate?", "are you open to relocation"),
        ("Would you move for the right role?", "are you open to relocation"),  # an everyday word inside a phrase
        ("Any room in your schedule?", "are you available"),  # room in a schedule is availability
        ("So what exactly is it that you do?", "what do you do"),  # two everyday words inside a phrase
        ("What services do you provide?", "What services do you offer?"),  # "provide" frames the question
        ("what kinda stuff do u do", "what kind of work do you do"),
        ("Which clock are you on?", "What time zone are you in?"),
        ("¿Tienes hueco en tu agenda?", "¿Tienes disponibilidad?"),
        ("start-ups", "startups"),
        ("What are you working on right now?", "what are you working on at the moment"),
        ("What are you working on this quarter?", "what are you working on at the moment"),  # the span one is in
        ("¿En qué trabajas este mes?", "en qué trabajas en este momento"),
    ],
)
def test_shorthand_apostrophes_plurals_and_stems_are_undone(typed, meant):
    assert terms(typed) == terms(meant)


def test_a_slip_is_read_as_the_vocabularys_word_only_one_slip_away():
    vocabulary = Vocabulary.of(["Are you available for new projects?", "Are you open to relocation?"])
    assert terms("availible projects", vocabulary) == terms("available projects")
    assert vocabulary.meant("relocatoin") == "relocation"  # two neighbours swapped
    assert vocabulary.meant("avxxable") == "avxxable"  # two slips: another word
    assert vocabulary.meant("projects") == "projects"  # already the vocabulary's own
    # a word the visitor words hold ("chat with you"), however short, is no slip of a question's ("what")
    assert Vocabulary.of(["What time zone are you in?"]).meant("chat") == "chat"


@pytest.mark.parametrize(
    "typed, language, meant",
    [
        ("tume", "en", "time"),  # a key beside it
        ("servises", "en", "services"),  # English spells a sound either way
        ("relocetion", "en", "relocation"),  # and a vowel
        ("lange", "en", "lange"),  # "n" and "r" are far apart: German "lange", not "large"
        ("viene", "es", "viene"),  # a word of its own, not German "viele"
        ("menos", "es", "menos"),  # Spanish spells its vowels as it says them: not "manos"
    ],
)
def test_a_letter_changed_is_a_slip_only_on_a_key_beside_it(typed, language, meant):
    questions = {
        "en": ["What services do you offer?", "What time zone are you in?", "Large projects?", "Relocation?"],
        "es": ["¿Cuántas viele manos?"],
    }
    assert Vocabulary.of(questions[language], language).meant(typed) == meant


@pytest.mark.parametrize(
    "typed, meant, number",
    [
        ("r u available 4 new work", "are you available for new work", False),
        ("best way 2 reach u", "best way to reach you", False),
        ("do you take 2 projects at once", "", True),  # before a plural: a number
        ("can you start in 4 weeks", "", True),
    ],
)
def test_a_digit_for_the_word_it_sounds_like_is_that_word(typed, meant, number):
    found = terms(typed)
    assert any(term.isdigit() for term in found) == number
    assert number or found == terms(meant)
