"""The codes mailed to visitors, as stored: the caps per address and per client, one code at a time per
conversation, the tries, a confirmed lead, and each code's mail as its own durable delivery."""

from __future__ import annotations

import pytest

from replica.storage import Store
from replica.storage.records import CodeRequest, CodeStatus
from tests.storage.test_store import alert


class Clock:
    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def codes_store(tmp_path, database_url, clock):
    store = Store(tmp_path / "replica.sqlite3", database_url=database_url, clock=clock)
    yield store
    store.close()


def test_three_code_mails_an_hour_per_address_whatever_the_sessions_then_again_after_the_hour(codes_store, clock):
    codes = codes_store.codes
    asked = [codes.request(f"s{n}", "Ada@Example.org", f"client{n}", 3)[0] for n in range(4)]
    assert asked == [CodeRequest.QUEUED] * 3 + [CodeRequest.ADDRESS_CAPPED]
    clock.now += 3601
    assert codes.request("s9", "ada@example.org", "client9", 3)[0] is CodeRequest.QUEUED


def test_three_code_mails_an_hour_per_client_address_whatever_the_addresses(codes_store):
    codes = codes_store.codes
    asked = [codes.request(f"s{n}", f"v{n}@example.org", "one-client", 3)[0] for n in range(4)]
    assert asked == [CodeRequest.QUEUED] * 3 + [CodeRequest.CLIENT_CAPPED]
    assert codes.request("other", "v9@example.org", "another-client", 3)[0] is CodeRequest.QUEUED


def test_a_new_code_replaces_the_one_the_conversation_waited_for_and_only_the_newest_is_read(codes_store):
    codes = codes_store.codes
    _, first = codes.request("s1", "ada@example.org", "c", 3)
    _, second = codes.request("s1", "ada@example.org", "c", 3)
    assert codes.current("s1").id == second and codes.current("s2") is None
    assert [code.id for code in codes.due()] == [second]  # the replaced one is never mailed


def test_a_matched_try_confirms_the_conversations_lead_and_nothing_of_another_conversation(codes_store):
    store = codes_store
    store.leads.record("ada@example.org", "Ada", "hi", alert(session="s1").entry())
    store.leads.record("ada@example.org", "Ada", "hi", alert(session="s2").entry())
    _, code_id = store.codes.request("s1", "ada@example.org", "c", 3)
    assert store.codes.tried(code_id, matched=False) == 1
    assert store.codes.current("s1").tries == 1
    store.codes.tried(code_id, matched=True)
    assert store.codes.current("s1") is None and store.codes.confirmed_in("s1") == "ada@example.org"
    assert store.codes.confirmed_in("s2") is None
    assert [(lead.session, lead.confirmed_at is not None) for lead in store.leads.all()] == [
        ("s1", True),
        ("s2", False),
    ]
    assert store.codes.request("s1", "ada@example.org", "c", 3)[0] is CodeRequest.CONFIRMED


def test_each_mail_is_claimed_once_with_its_hash_and_a_failed_try_forgets_it_and_waits(codes_store, clock):
    codes = codes_store.codes
    _, code_id = codes.request("s1", "ada@example.org", "c", 3)
    [due] = codes.due()
    assert codes.claim(code_id, "hash-1") and not codes.claim(code_id, "hash-2")  # leased
    assert codes.due() == []
    codes.reschedule(code_id, clock.now + 30, "451 try again later")
    assert codes.current("s1").digest is None and codes.due() == [] and codes.next_due() == clock.now + 30
    clock.now += 31
    assert codes.claim(code_id, "hash-3")
    codes.mark_sent(code_id)
    sent = codes.current("s1")
    assert (sent.status, sent.digest, sent.attempts, sent.issued_at) == (CodeStatus.SENT, "hash-3", 2, clock.now)
    assert codes.waiting() == 0 and codes.due() == []


def test_a_mail_given_up_is_no_longer_due_and_the_code_reads_as_not_sent(codes_store):
    codes = codes_store.codes
    _, code_id = codes.request("s1", "ada@example.org", "c", 3)
    codes.claim(code_id, "h")
    codes.give_up(code_id, "refused for good")
    code = codes.current("s1")
    assert (code.status, code.digest) == (CodeStatus.FAILED, None) and codes.due() == []


def test_codes_survive_reopening_and_go_with_the_records(tmp_path, database_url, clock):
    first = Store(tmp_path / "replica.sqlite3", database_url=database_url, clock=clock)
    first.codes.request("s1", "ada@example.org", "c", 3)
    first.close()
    again = Store(tmp_path / "replica.sqlite3", database_url=database_url, clock=clock)
    assert [code.email for code in again.codes.due()] == ["ada@example.org"]
    again.clear_records()
    assert again.codes.due() == [] and again.codes.current("s1") is None
    again.close()
