"""Codes as visitors type them, and what is never read as one: the table of
``tests/contacts/tables/typed_codes.py``, read as a chat waiting for a code reads a message, and by the
verifier with a real store, with a code pending and without."""

from __future__ import annotations

import pytest

from replica.contacts import Verifier
from replica.contacts.codes import MASK, CodeKey, ascii_digits, asks_again, new_code, read
from replica.storage import Store
from tests.contacts.tables.typed_codes import CODES, NOT_CODES, RESTS
from tests.fixtures.clock import HandClock


@pytest.mark.parametrize("message, codes", CODES)
def test_a_code_is_read_as_people_type_it_and_masked(message, codes):
    reading = read(message)
    assert list(reading.codes) == codes
    assert reading.masked.count(MASK) == len(codes)
    assert not any(code in ascii_digits(reading.masked) for code in codes)


@pytest.mark.parametrize("message", NOT_CODES)
def test_a_number_that_is_something_else_is_no_code_and_is_kept_whole(message):
    reading = read(message)
    assert reading.codes == () and reading.masked == message


@pytest.mark.parametrize("message, rest", RESTS)
def test_what_else_a_message_with_a_code_asks_is_kept_apart(message, rest):
    assert read(message).rest == rest


@pytest.fixture
def verifier(tmp_path):
    """A verifier over a real store, with a code asked for in the conversation "waiting" (none in "other")."""
    clock = HandClock()
    store = Store(tmp_path / "replica.sqlite3", clock=clock)
    store.codes.request("waiting", "ada@example.org", "client")
    yield Verifier(store.codes, CodeKey("salt"), "offer", clock=clock)
    store.close()


@pytest.mark.parametrize("message, codes", CODES)
def test_with_a_code_pending_the_verifier_catches_each_code_and_elsewhere_none(verifier, message, codes):
    caught = verifier.catch(message, "waiting")
    assert caught is not None and list(caught.codes) == codes and MASK in caught.masked
    assert verifier.catch(message, "other") is None  # no code pending: an ordinary message, kept whole


@pytest.mark.parametrize("message", NOT_CODES)
def test_with_a_code_pending_or_not_a_number_that_is_something_else_is_not_caught(verifier, message):
    assert verifier.catch(message, "waiting") is None and verifier.catch(message, "other") is None


def test_a_chat_waits_for_its_code_an_hour_after_its_mail_and_then_reads_numbers_as_numbers(tmp_path):
    clock = HandClock()
    store = Store(tmp_path / "replica.sqlite3", clock=clock)
    verifier = Verifier(store.codes, CodeKey("salt"), "offer", clock=clock)
    _, code_id = store.codes.request("s1", "ada@example.org", "client")
    store.codes.claim(code_id, "digest")
    store.codes.mark_sent((code_id,))
    clock.now += 3599
    assert verifier.catch("482913", "s1") is not None  # expired, but still answered as the code it is
    clock.now += 2
    assert verifier.catch("482913", "s1") is None and verifier.catch("send it again", "s1") is None
    store.close()


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
