"""The specifics in a reply and whether the sources hold them (replica/chat/reply_check/specifics.py): what a visitor
would act on is found by kind, and looked up exactly (a phone number by its digits, a number by its
value, a name word by word), never fuzzily."""

from __future__ import annotations

import pytest

from replica.chat.reply_check.specifics import Kind, Sources, specifics

KNOWLEDGE = Sources("Ada Lovelace, engineer at Babbage & Co. Call +44 20 7946 0018 or write ada@example.org.")


@pytest.mark.parametrize(
    "sentence, kind, text",
    [
        ("Write to ada@example.org today.", Kind.EMAIL, "ada@example.org"),
        ("Call me on +44 20 7946 0018.", Kind.PHONE, "+44 20 7946 0018"),
        ("My rate is $120 an hour.", Kind.MONEY, "$120"),
        ("That grew 35% last year.", Kind.PERCENT, "35%"),
        ("I worked at Globex for years.", Kind.NAME, "Globex"),
    ],
)
def test_each_kind_of_specific_is_found(sentence, kind, text):
    assert (kind, text) in [(s.kind, s.text.strip()) for s in specifics(sentence)]  # "$120 " keeps a space


def test_the_first_word_of_a_sentence_and_small_numbers_are_no_specifics():
    assert specifics("Sure, I can do 3 things.") == []


def test_a_phone_number_is_held_by_its_digits_however_it_is_spaced():
    [phone] = specifics("Ring 020 7946 0018 any time.")
    assert phone.kind is Kind.PHONE and KNOWLEDGE.holds(phone)
    [invented] = specifics("Ring 020 7946 9999 any time.")
    assert not KNOWLEDGE.holds(invented)


def test_what_the_sources_do_not_hold_is_missing_and_both_sources_together_hold_more():
    found = specifics("Ada Lovelace worked at Globex, see ada@example.org.")
    assert [s.text for s in KNOWLEDGE.missing(found)] == ["Globex"]
    assert (KNOWLEDGE + Sources("the visitor wrote: I work at Globex")).missing(found) == []
