"""Codes as visitors type them, and what is never read as one."""

from __future__ import annotations

import pytest

from replica.contacts.codes import CodeKey, asks_again, codes_in, masked, new_code

TYPED = [  # (what the visitor wrote, the code read)
    ("482913", "482913"),
    ("482 913", "482913"),
    ("482-913", "482913"),
    ("my code is 482-913", "482913"),
    ("Code: 482.913", "482913"),
    ("it's 482913!", "482913"),
    ("  482913  ", "482913"),
    ("here you go: 048291", "048291"),
    ("48 29 13", "482913"),
    ("the code was 4-8-2-9-1-3", "482913"),
    ("482913 thanks", "482913"),
    ("El código es 482913", "482913"),
    ("o código é 482 913", "482913"),
]
NOT_CODES = [
    "+351 912 345 678",
    "Call me on 07700 900123",
    "I started in 2019 and left in 2024",
    "12345",
    "1234567",
    "My budget is 50,000 EUR",
    "order #A482913",
    "482913abc",
    "v1.2.3",
    "see ticket 48291300",
]
SIX_DIGITS_NOT_A_CODE = [  # six digits in a sentence that neither names a code nor is little besides
    "Our budget for the whole project is 150000 EUR",
    "We have 250 000 users across Europe and growing",
]


@pytest.mark.parametrize("message, code", TYPED)
def test_a_code_is_read_as_people_type_it(message, code):
    assert codes_in(message) == [code]
    assert code not in masked(message).replace(" ", "").replace("-", "").replace(".", "")


@pytest.mark.parametrize("message", NOT_CODES)
def test_a_phone_number_a_year_or_another_number_is_no_code_and_is_not_masked(message):
    assert codes_in(message) == []
    assert masked(message) == message


@pytest.mark.parametrize("message", SIX_DIGITS_NOT_A_CODE)
def test_six_digits_in_a_sentence_about_something_else_are_not_given_as_a_code(message):
    assert codes_in(message) == []


@pytest.mark.parametrize(
    "message",
    [
        "send it again",
        "Can you resend it?",
        "I didn't get the code",
        "please send a new code",
        "another one please",
        "never got it",
        "¿Me reenvías el código?",
        "manda outro código",
        "it hasn't arrived",
    ],
)
def test_asking_for_another_code(message):
    assert asks_again(message)


@pytest.mark.parametrize("message", ["Thanks, got it", "What's your day rate?", "Send me your CV", "again, thanks"])
def test_other_messages_ask_for_no_code(message):
    assert not asks_again(message)


def test_codes_are_six_digits_and_vary_and_their_hash_is_keyed_and_bound_to_its_row():
    codes = {new_code() for _ in range(200)}
    assert all(len(code) == 6 and code.isdigit() for code in codes) and len(codes) > 190
    key, other = CodeKey("salt one"), CodeKey("salt two")
    digest = key.digest(7, "482913")
    assert "482913" not in digest
    assert key.matches(7, "482913", digest)
    assert not key.matches(7, "482914", digest) and not key.matches(8, "482913", digest)
    assert not other.matches(7, "482913", digest) and not key.matches(7, "482913", None)
