"""The codes mailed to visitors, as stored: the caps per mailbox, per client and for the whole app, by the
hour and by the day; one code at a time per conversation; the tries (each code of a message one, capped
per code, per mailbox and per client in a day); a confirmed lead; and each code's mail as its own
durable delivery."""

from __future__ import annotations

import pytest

from replica.storage import Store
from replica.storage.code_mails import CodeCaps
from replica.storage.records import CodeRequest, CodeStatus
from tests.fixtures.clock import HandClock
from tests.storage.test_store import alert


@pytest.fixture
def clock():
    return HandClock()


@pytest.fixture
def codes_store(tmp_path, database_url, clock):
    store = Store(tmp_path / "replica.sqlite3", database_url=database_url, clock=clock)
    yield store
    store.close()


def test_three_code_mails_an_hour_per_mailbox_whatever_the_sessions_and_spellings_then_again_after_the_hour(
    codes_store, clock
):
    codes = codes_store.codes
    spellings = ["Ada@Example.org", "ada+1@example.org", "ada+job@example.org", "ADA+2@example.org"]
    asked = [codes.request(f"s{n}", email, f"client{n}", "ada@example.org")[0] for n, email in enumerate(spellings)]
    assert asked == [CodeRequest.QUEUED] * 3 + [CodeRequest.ADDRESS_CAPPED]
    assert [code.email for code in codes.due()] == ["ada@example.org", "ada+1@example.org", "ada+job@example.org"]
    clock.now += 3601
    assert codes.request("s9", "ada@example.org", "client9", "ada@example.org")[0] is CodeRequest.QUEUED


def test_five_code_mails_a_day_per_mailbox_and_ten_per_client_address(codes_store, clock):
    codes = codes_store.codes
    mailbox = []
    for hour in range(6):
        mailbox.append(codes.request(f"s{hour}", "ada@example.org", f"client{hour}")[0])
        clock.now += 3601
    assert mailbox == [CodeRequest.QUEUED] * 5 + [CodeRequest.ADDRESS_CAPPED_TODAY]
    client = []
    for n in range(11):
        client.append(codes.request(f"t{n}", f"v{n}@example.org", "one-client")[0])
        clock.now += 1201  # three an hour, no more
    assert client == [CodeRequest.QUEUED] * 10 + [CodeRequest.CLIENT_CAPPED_TODAY]
    clock.now += 86400
    assert codes.request("u", "ada@example.org", "one-client")[0] is CodeRequest.QUEUED


def test_three_code_mails_an_hour_per_client_address_whatever_the_addresses(codes_store):
    codes = codes_store.codes
    asked = [codes.request(f"s{n}", f"v{n}@example.org", "one-client")[0] for n in range(4)]
    assert asked == [CodeRequest.QUEUED] * 3 + [CodeRequest.CLIENT_CAPPED]
    assert codes.request("other", "v9@example.org", "another-client")[0] is CodeRequest.QUEUED


def test_the_whole_apps_code_mails_a_day_and_when_the_next_may_go(tmp_path, database_url, clock):
    store = Store(tmp_path / "db.sqlite3", database_url=database_url, clock=clock, code_caps=CodeCaps(mails_per_day=4))
    codes = store.codes
    try:
        first = clock.now
        asked = []
        for n in range(5):
            asked.append(codes.request(f"s{n}", f"v{n}@example.org", f"client{n}")[0])
            clock.now += 60
        assert asked == [CodeRequest.QUEUED] * 4 + [CodeRequest.ALL_CAPPED_TODAY]
        assert codes.day_total() == (4, first + 86400)  # the first of the day's four frees a place
        clock.now = first + 86401
        assert codes.day_total() == (3, None)
        assert codes.request("s9", "v9@example.org", "client9")[0] is CodeRequest.QUEUED
    finally:
        store.close()


def test_a_new_code_replaces_the_one_the_conversation_waited_for_and_only_the_newest_is_read(codes_store):
    codes = codes_store.codes
    _, first = codes.request("s1", "ada@example.org", "c")
    _, second = codes.request("s1", "ada@example.org", "c")
    assert codes.current("s1").id == second and codes.current("s2") is None
    assert [code.id for code in codes.due()] == [second]  # the replaced one is never mailed


def test_a_matched_try_confirms_the_conversations_lead_and_nothing_of_another_conversation(codes_store):
    store = codes_store
    store.leads.record("ada@example.org", "Ada", "hi", alert(session="s1").entry())
    store.leads.record("ada@example.org", "Ada", "hi", alert(session="s2").entry())
    _, code_id = store.codes.request("s1", "ada@example.org", "c")
    assert store.codes.tried(code_id, [False]).checked == 1
    assert store.codes.current("s1").tries == 1
    assert store.codes.tried(code_id, [True]).matched
    assert store.codes.current("s1") is None and store.codes.confirmed_in("s1") == "ada@example.org"
    assert store.codes.confirmed_in("s2") is None
    assert [(lead.session, lead.confirmed_at is not None) for lead in store.leads.all()] == [
        ("s1", True),
        ("s2", False),
    ]
    assert store.codes.request("s1", "ada@example.org", "c")[0] is CodeRequest.CONFIRMED


def test_each_code_of_a_message_is_a_try_until_one_matches_and_no_more_than_the_tries_left(codes_store):
    codes = codes_store.codes
    _, code_id = codes.request("s1", "ada@example.org", "c")
    tried = codes.tried(code_id, [False, False])
    assert (tried.checked, tried.matched, tried.left, tried.bound) == (2, False, 3, "code")
    tried = codes.tried(code_id, [False, True, False])  # the second matches: the third is never a try
    assert (tried.checked, tried.matched) == (2, True) and codes.confirmed_in("s1") == "ada@example.org"
    _, other = codes.request("s2", "bob@example.org", "c")
    tried = codes.tried(other, [False] * 570 + [True])  # a message of 571 codes: five tries, the rest unread
    assert (tried.checked, tried.matched, tried.left) == (5, False, 0)
    assert codes.tried(other, [True]) == type(tried)(0, False, 0, "code")  # spent: even the right one is no try


def test_a_mailbox_has_ten_tries_a_day_across_its_codes_and_a_client_twenty(codes_store, clock):
    codes = codes_store.codes
    spent = []
    for n in range(3):  # three codes for one mailbox, from three client addresses
        _, code_id = codes.request(f"s{n}", "ada@example.org", f"client{n}")
        spent.append(codes.tried(code_id, [False] * 5))
    assert [(t.checked, t.bound) for t in spent] == [(5, "code"), (5, "mailbox"), (0, "mailbox")]
    clock.now += 86400 * 2
    _, code_id = codes.request("s9", "ada@example.org", "client9")
    assert codes.tried(code_id, [False]).checked == 1  # a day later, the mailbox may be tried again
    client = []
    for n in range(5):  # one client address, five mailboxes
        _, code_id = codes.request(f"t{n}", f"v{n}@example.org", "one-client")
        client.append(codes.tried(code_id, [False] * 5).checked)
        clock.now += 1201
    assert client == [5, 5, 5, 5, 0] and sum(client) == 20


def test_each_mail_is_claimed_once_with_its_hash_and_a_failed_try_forgets_it_and_waits(codes_store, clock):
    codes = codes_store.codes
    _, code_id = codes.request("s1", "ada@example.org", "c")
    [due] = codes.due()
    assert codes.claim(code_id, "hash-1") and not codes.claim(code_id, "hash-2")  # leased
    assert codes.due() == []
    codes.reschedule((code_id,), clock.now + 30, "451 try again later")
    assert codes.current("s1").digest is None and codes.due() == [] and codes.next_due() == clock.now + 30
    clock.now += 31
    assert codes.claim(code_id, "hash-3")
    codes.mark_sent((code_id,))
    sent = codes.current("s1")
    assert (sent.status, sent.digest, sent.attempts, sent.issued_at) == (CodeStatus.SENT, "hash-3", 2, clock.now)
    assert codes.waiting() == 0 and codes.due() == []


def test_a_mail_given_up_is_no_longer_due_and_the_code_reads_as_not_sent(codes_store):
    codes = codes_store.codes
    _, code_id = codes.request("s1", "ada@example.org", "c")
    codes.claim(code_id, "h")
    codes.give_up((code_id,), "refused for good")
    code = codes.current("s1")
    assert (code.status, code.digest) == (CodeStatus.FAILED, None) and codes.due() == []


def test_codes_survive_reopening_and_go_with_the_records(tmp_path, database_url, clock):
    first = Store(tmp_path / "replica.sqlite3", database_url=database_url, clock=clock)
    first.codes.request("s1", "ada@example.org", "c")
    first.close()
    again = Store(tmp_path / "replica.sqlite3", database_url=database_url, clock=clock)
    assert [code.email for code in again.codes.due()] == ["ada@example.org"]
    again.clear_records()
    assert again.codes.due() == [] and again.codes.current("s1") is None
    again.close()
