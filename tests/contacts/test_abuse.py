"""Verified contacts against those who would abuse them, and addresses no mail service reads alike
(issue 53), on SQLite and PostgreSQL, with a real SMTP server and the real SDK:

- a message of many codes is as many tries as it has codes, five a code, ten a mailbox and twenty a
  client address a day, whatever the client addresses: the confirmed mark is never reached by volume;
- one mailbox however its address is written gets three code mails an hour, five a day, and the whole
  app no more than ``CODE_MAILS_PER_DAY``; the mail goes to the address itself, never to a name;
- with ``LEAD_VERIFICATION=required``, a lead that can get no code reaches the owner at once, saying why;
- a number in a chat waiting for no code is an ordinary message, kept whole.
"""

from __future__ import annotations

import pytest

from replica import wording
from replica.chat.reply import Visitor
from replica.contacts import CodeMailer, MailService, Verifier
from replica.contacts.codes import CodeKey
from replica.contacts.verifier import ONE_PER_MESSAGE, REPLACED, announce_confirmed, announce_unconfirmed
from replica.owner_bot.status_report import status_report
from replica.storage import Store
from replica.storage.code_mails import CodeCaps
from replica.storage.records import Role
from replica.tools.gather_user_details import NOT_CONFIRMED, NOT_CONFIRMED_BECAUSE
from tests.fakes.openai_server import say
from tests.fixtures.clock import HandClock

VICTIM = "victim@example.org"
VISITOR = Visitor("s1", "203.0.113.9")


@pytest.fixture
def clock():
    return HandClock()


@pytest.fixture
def codes_store(tmp_path, database_url, clock):
    store = Store(tmp_path / "codes" / "replica.sqlite3", database_url=database_url, clock=clock)
    yield store
    store.close()


def parts(store, fake_mail, clock=None, mode="offer", notifier=None, **mailer):
    """A verifier and the mailer that sends its codes to the SMTP server (stepped by the test), over ``store``."""
    key = CodeKey("the app's salt")
    told = {"clock": clock} if clock else {}
    unconfirmed = announce_unconfirmed(store, notifier) if notifier else (lambda session, email, why: None)
    confirmed = announce_confirmed(store, notifier) if notifier else (lambda session, email: None)
    worker = {"clock": clock} if clock else {}  # the mailer is stepped by the test, never started
    sender = CodeMailer(
        store.codes, MailService(fake_mail.url), key, "Jordan Avery", given_up=unconfirmed, **worker, **mailer
    )
    return Verifier(store.codes, key, mode, confirmed=confirmed, unconfirmed=unconfirmed, **told), sender


def with_model(store, make_replica, fake_mail, notifier, mode="offer", **mailer):
    """A replica around the real SDK and the scripted model, with verified contacts on."""
    verifier, mailer = parts(store, fake_mail, mode=mode, notifier=notifier, **mailer)
    return make_replica(verifier=verifier), mailer


def numbers(count: int, leaving_out: str, right_at: int | None = None, start: int = 100000) -> str:
    """A message of ``count`` six-digit numbers, one space apart, none of them ``leaving_out`` but at
    ``right_at`` (as an attacker's message of guesses would hold the right one somewhere)."""
    guesses = [f"{n:06d}" for n in range(start, start + count + 1) if f"{n:06d}" != leaving_out][:count]
    if right_at is not None:
        guesses[right_at] = leaving_out
    return " ".join(guesses)


def test_a_message_of_many_codes_is_one_try_each_and_the_confirmed_mark_is_never_reached_by_volume(
    codes_store, fake_mail, clock
):
    verifier, mailer = parts(codes_store, fake_mail, clock)
    mailed, answers = {}, []
    for n in range(40):  # forty sessions from forty client addresses, all for the victim's mailbox
        verifier.offer(f"s{n}", VICTIM, f"client{n}")
        mailer.step()
        for mail in fake_mail.to(VICTIM)[len(mailed) :]:
            mailed[f"s{len(mailed)}"] = mail.code
        right = mailed.get(f"s{n}", "000000")
        for message in range(5):  # five messages of 571 guesses, the right one among the first's
            guesses = numbers(571, right, right_at=300 if message == 0 else None, start=100000 + message * 600)
            assert len(guesses) < 4000  # within MAX_MESSAGE_CHARS
            caught = verifier.catch(guesses, f"s{n}")
            answers.append(verifier.answer(caught, f"s{n}", f"client{n}") if caught else None)
    assert len(mailed) == 3  # three code mails an hour to a mailbox, however many clients ask
    codes = [codes_store.codes.current(session) for session in mailed]
    assert all(code is not None for code in codes) and sum(code.tries for code in codes) == 10  # none confirmed
    assert (
        answers[0] == wording.CODE_NO_TRIES
        and answers[5] == f"{wording.CODE_TRIES_TODAY.format(email=VICTIM)} {wording.CODE_KEPT}"
    )
    assert answers[15:] == [None] * 185  # the sessions without a code wait for none: their numbers are just numbers


def test_each_six_digit_group_is_a_try_in_order_until_one_matches(codes_store, fake_mail, clock):
    verifier, mailer = parts(codes_store, fake_mail, clock)
    verifier.offer("s1", VICTIM, "client")
    mailer.step()
    code = fake_mail.wait_for(VICTIM)[0].code
    wrong = [f"{(int(code) + k) % 10**6:06d}" for k in (1, 2)]
    two_wrong = verifier.answer(verifier.catch(f"{wrong[0]}, {wrong[1]}", "s1"), "s1", "client")
    assert two_wrong == wording.CODE_NONE_MATCH.format(checked=2, email=VICTIM, left=3, tries="tries")
    caught = verifier.catch(f"{wrong[0]} {code} {wrong[1]}", "s1")
    assert verifier.answer(caught, "s1", "client") == wording.CODE_CONFIRMED.format(email=VICTIM)
    assert codes_store.codes.confirmed_in("s1") == VICTIM


def test_three_hundred_client_addresses_and_every_spelling_of_one_address_put_three_mails_in_its_mailbox(
    codes_store, fake_mail, clock
):
    verifier, mailer = parts(codes_store, fake_mail, clock)
    spellings = ["victim@example.org", "Victim+1@example.org", "victim+news@EXAMPLE.org", "VICTIM+2@example.org"]
    gmail = ["v.ictim@gmail.com", "victim@googlemail.com", "vic.tim+x@gmail.com", "VICTIM@gmail.com"]
    replies = [verifier.offer(f"s{n}", spellings[n % 4], f"client{n}") for n in range(300)]
    replies += [verifier.offer(f"g{n}", gmail[n % 4], f"g-client{n}") for n in range(8)]
    mailer.step()
    assert sum(reply.startswith("I've sent") for reply in replies) == 6
    assert replies[3] == f"{wording.CODE_CAPPED.format(email=spellings[3])} {wording.CODE_KEPT}"
    sent_to = [mail.to[0] for mail in fake_mail.mails]
    assert sent_to == [s.lower() for s in spellings[:3]] + [g.lower() for g in gmail[:3]]  # each as written
    clock.now += 3601
    later = [verifier.offer(f"t{n}", spellings[n % 4], f"t-client{n}") for n in range(4)]
    assert [reply.startswith("I've sent") for reply in later] == [True, True, False, False]  # five a day
    assert later[2] == f"{wording.CODE_CAPPED_TODAY.format(email=spellings[2])} {wording.CODE_KEPT}"


@pytest.mark.parametrize("address", ["x'victim@example.org", "josé@example.org", "o'brien@example.org"])
def test_an_address_the_mail_service_would_misread_or_cannot_carry_gets_no_code_and_nobody_is_mailed(
    codes_store, fake_mail, clock, address
):
    verifier, mailer = parts(codes_store, fake_mail, clock)
    reply = verifier.offer("s1", address, "client")
    assert reply == f"{wording.CODE_UNSENDABLE.format(email=address)} {wording.CODE_KEPT}"
    mailer.step()
    assert codes_store.codes.current("s1") is None and fake_mail.mails == []  # never victim@, never brien@


def test_an_accented_domain_is_mailed_as_punycode_and_the_to_line_is_the_address_alone(codes_store, fake_mail, clock):
    verifier, mailer = parts(codes_store, fake_mail, clock)
    assert verifier.offer("s1", "ada@müller-bau.de", "client") == wording.CODE_SENT.format(email="ada@müller-bau.de")
    assert verifier.offer("s2", "Grace@Example.org", "client") == wording.CODE_SENT.format(email="Grace@Example.org")
    mailer.step()
    [accented] = fake_mail.wait_for("ada@xn--mller-bau-q9a.de")
    [plain] = fake_mail.wait_for("grace@example.org")
    assert (accented.to_header, plain.to_header) == ("ada@xn--mller-bau-q9a.de", "grace@example.org")
    confirmed = verifier.answer(verifier.catch(accented.code, "s1"), "s1", "client")
    assert confirmed == wording.CODE_CONFIRMED.format(email="ada@müller-bau.de")


def test_the_whole_apps_code_mails_a_day_are_capped_said_once_in_the_log_and_in_status(
    tmp_path, database_url, fake_mail, clock, caplog
):
    store = Store(
        tmp_path / "day" / "db.sqlite3", database_url=database_url, clock=clock, code_caps=CodeCaps(mails_per_day=3)
    )
    try:
        verifier, mailer = parts(store, fake_mail, clock)
        with caplog.at_level("WARNING", logger="replica.contacts.verifier"):
            replies = [verifier.offer(f"s{n}", f"v{n}@example.org", f"client{n}") for n in range(6)]
        mailer.step()
        assert [reply.startswith("I've sent") for reply in replies] == [True] * 3 + [False] * 3
        assert replies[3] == f"{wording.CODE_CAPPED_TODAY.format(email='v3@example.org')} {wording.CODE_KEPT}"
        said = [r.getMessage() for r in caplog.records if "CODE_MAILS_PER_DAY" in r.getMessage()]
        assert len(said) == 1 and "day's total of 3" in said[0]
        assert "Code mails: 3 in the last 24 hours, the day's total (<code>CODE_MAILS_PER_DAY</code>) reached" in (
            status_report(store)
        )
        assert len(fake_mail.mails) == 3
    finally:
        store.close()


def alert_for(notifier, email):
    [alert] = [a for a in notifier.alerts if dict(a.fields).get("Email") == email]
    return dict(alert.fields)


def test_required_passes_on_at_once_a_lead_no_code_can_go_to_saying_why(
    store, notifier, fake_openai, make_replica, fake_mail
):
    replica, _ = with_model(store, make_replica, fake_mail, notifier, "required")
    fake_openai.script(say("Thanks, José!"))
    reply = replica.reply("I'm José: josé@example.org", VISITOR)
    assert wording.CODE_UNSENDABLE.format(email="josé@example.org") in reply and "I've sent" not in reply
    assert reply.endswith(wording.CODE_PASSED_UNCONFIRMED)
    confirmed = alert_for(notifier, "josé@example.org")["Confirmed"]
    assert confirmed.startswith("no: no code could be mailed: the mail service takes only plain letters")
    for n in range(3):  # someone else spent the mailbox's code mails for the hour first
        store.codes.request(f"other{n}", "grace@example.org", f"client{n}")
    fake_openai.script(say("Thanks, Grace!"))
    reply = replica.reply("and grace+cv@example.org", Visitor("s2", "203.0.113.10"))
    assert wording.CODE_CAPPED.format(email="grace+cv@example.org") in reply
    assert alert_for(notifier, "grace+cv@example.org")["Confirmed"] == NOT_CONFIRMED_BECAUSE.format(
        why="no code could be mailed: the address had its code mails for the hour"
    )
    assert [lead.alert_status for lead in store.leads.all()] == ["pending", "pending"]


def test_required_a_second_address_in_one_message_and_an_address_given_instead_reach_the_owner_unconfirmed(
    store, notifier, fake_openai, make_replica, fake_mail
):
    replica, _ = with_model(store, make_replica, fake_mail, notifier, "required")
    fake_openai.script(say("Thanks!"))
    reply = replica.reply("Write to ada@example.org, or to ada.work@example.org", VISITOR)
    assert wording.CODE_SENT_REQUIRED.format(email="ada@example.org") in reply
    assert wording.CODE_ONE_PER_MESSAGE.format(email="ada.work@example.org") in reply
    # The first address waits for its code; the second is passed on at once.
    assert [dict(a.fields)["Email"] for a in notifier.alerts] == ["ada.work@example.org"]
    assert alert_for(notifier, "ada.work@example.org")["Confirmed"] == NOT_CONFIRMED_BECAUSE.format(why=ONE_PER_MESSAGE)
    fake_openai.script(say("Noted."))
    replica.reply("Actually, use ada.lovelace@example.org", VISITOR)  # its code replaces the first's
    assert alert_for(notifier, "ada@example.org")["Confirmed"] == NOT_CONFIRMED_BECAUSE.format(why=REPLACED)
    assert store.codes.current("s1").email == "ada.lovelace@example.org"


def test_required_a_code_mail_given_up_on_passes_the_lead_on_and_the_visitor_hears_so(
    store, notifier, fake_openai, make_replica, fake_mail
):
    replica, mailer = with_model(store, make_replica, fake_mail, notifier, "required", max_attempts=1)
    fake_mail.refusing = True
    fake_openai.script(say("Thanks!"))
    replica.reply("ada@example.org", VISITOR)
    assert notifier.alerts == []
    mailer.step()  # the one try fails: given up
    why = alert_for(notifier, "ada@example.org")["Confirmed"]
    assert why.startswith("no: no code could be mailed: the mail service failed")
    reply = replica.reply("123456", VISITOR)
    assert reply == f"{wording.CODE_NOT_SENT.format(email='ada@example.org')} {wording.CODE_PASSED_UNCONFIRMED}"


def test_numbers_in_a_chat_waiting_for_no_code_reach_the_model_whole_and_count_no_try(
    store, notifier, fake_openai, make_replica, fake_mail
):
    replica, mailer = with_model(store, make_replica, fake_mail, notifier)
    messages = ["Our budget is 150000", "Budget: 150.000 EUR", "call me on 555-123", "150000", "my code is 482913"]
    for message in messages:  # no code asked for in this chat: each an ordinary message
        fake_openai.script(say("Noted."))
        assert replica.reply(message, VISITOR) == "Noted."
    fake_openai.script(say("Thanks!"))
    replica.reply("ada@example.org", VISITOR)
    fake_openai.script(say("A budget noted."))
    assert replica.reply("Our budget is 150000", VISITOR) == "A budget noted."  # a code pending: still a budget
    assert fake_openai.calls == len(messages) + 2 and store.codes.current("s1").tries == 0
    typed = [m.text for m in store.conversations.messages_of_session("s1") if m.role == Role.VISITOR]
    assert typed == [*messages, "ada@example.org", "Our budget is 150000"]  # kept whole, never masked


def test_a_code_in_a_message_that_asks_more_is_checked_masked_and_the_rest_asked_again(
    store, notifier, fake_openai, make_replica, fake_mail
):
    replica, mailer = with_model(store, make_replica, fake_mail, notifier)
    fake_openai.script(say("Thanks!"))
    replica.reply("ada@example.org", VISITOR)
    mailer.step()
    code = fake_mail.wait_for("ada@example.org")[0].code
    reply = replica.reply(f"Got it! My code is {code}. Also, do you work remotely?", VISITOR)
    rest = wording.CODE_AND_MORE.format(rest="Got it! Also, do you work remotely?")
    assert reply == f"{wording.CODE_CONFIRMED.format(email='ada@example.org')} {rest}"
    assert fake_openai.calls == 1  # the app answered it: no model saw the code
    [_, _, typed, _] = store.conversations.messages_of_session("s1")
    assert typed.text == "Got it! My code is ••••••. Also, do you work remotely?"


@pytest.mark.parametrize("script", ["arabic-indic", "full-width"])
def test_a_code_typed_in_arabic_indic_or_full_width_digits_confirms(codes_store, fake_mail, clock, script):
    verifier, mailer = parts(codes_store, fake_mail, clock)
    verifier.offer("s1", VICTIM, "client")
    mailer.step()
    code = fake_mail.wait_for(VICTIM)[0].code
    zero = {"arabic-indic": 0x0660, "full-width": 0xFF10}[script]
    typed = "".join(chr(zero + int(digit)) for digit in code)
    caught = verifier.catch(f"my code is {typed}", "s1")
    assert verifier.answer(caught, "s1", "client") == wording.CODE_CONFIRMED.format(email=VICTIM)
    assert typed not in caught.masked


def test_no_alert_says_a_code_was_offered_and_the_mail_promises_only_what_is_true(
    store, notifier, fake_openai, make_replica, fake_mail
):
    replica, mailer = with_model(store, make_replica, fake_mail, notifier)
    fake_openai.script(say("Thanks!"))
    replica.reply("josé@example.org", VISITOR)  # no code can go to it
    assert alert_for(notifier, "josé@example.org")["Confirmed"] == NOT_CONFIRMED and "offered" not in NOT_CONFIRMED
    fake_openai.script(say("Thanks!"))
    replica.reply("ada@example.org", Visitor("s2", "203.0.113.10"))
    mailer.step()
    [mail] = fake_mail.wait_for("ada@example.org")
    assert "nothing else will come" not in mail.text and "more than 5 code mails a day" in " ".join(mail.text.split())
