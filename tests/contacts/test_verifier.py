"""The conversation's side of verified contacts, with a real store and a real SMTP server: a lead's
address gets one code mail; the code typed back confirms it; wrong, foreign, expired, brute-forced and
re-asked codes are answered plainly; the caps hold across sessions. (Abuse and the odd address:
``test_abuse.py``; ``python app.py``: ``test_as_users_run_it.py``.)"""

from __future__ import annotations

import pytest

from replica import wording
from replica.alerts.alert import CONFIRMED_LINE
from replica.chat.reply import Visitor
from replica.contacts import CodeMailer, MailService, Verifier
from replica.contacts.codes import CodeKey
from replica.contacts.verifier import announce_confirmed
from replica.storage import Store
from replica.storage.records import AlertKind
from tests.fakes.openai_server import call, say
from tests.fixtures.clock import HandClock

ADA = "ada@example.org"
VISITOR = Visitor("s1", "203.0.113.9")


def with_model(store, make_replica, fake_mail, mode="offer", notifier=None):
    """A replica around the real SDK and the scripted model, with verified contacts on (``mode``; the owner
    told through ``notifier``), and the mailer that sends its codes to the SMTP server (stepped by the test)."""
    key = CodeKey("salt")
    mailer = CodeMailer(store.codes, MailService(fake_mail.url), key, "Ada Lovelace")
    confirmed = announce_confirmed(store, notifier) if notifier else (lambda session, email: None)
    return make_replica(verifier=Verifier(store.codes, key, mode, confirmed=confirmed)), mailer


@pytest.fixture
def clock():
    return HandClock()


@pytest.fixture
def parts(tmp_path, clock, fake_mail):
    store = Store(tmp_path / "replica.sqlite3", clock=clock)
    key = CodeKey("the app's salt")
    mailer = CodeMailer(store.codes, MailService(fake_mail.url), key, "Jordan Avery", clock=clock)  # the test steps it
    verifier = Verifier(store.codes, key, "offer", clock=clock)
    yield store, mailer, verifier
    store.close()


def mailed_code(fake_mail, mailer, count=1):
    mailer.step()
    return fake_mail.wait_for(ADA, count)[-1].code


def test_a_lead_gets_one_mail_with_a_code_and_the_code_typed_back_confirms_it(parts, fake_mail):
    store, mailer, verifier = parts
    assert verifier.offer("s1", ADA, "client") == wording.CODE_SENT.format(email=ADA)
    assert verifier.offer("s1", ADA, "client") is None  # the address again: no second mail
    code = mailed_code(fake_mail, mailer)
    [mail] = fake_mail.to(ADA)
    assert "Jordan Avery" in mail.subject and "ignore this mail" in mail.text and "10 minutes" in mail.text
    caught = verifier.catch(f"my code is {code[:3]}-{code[3:]}", "s1")
    assert caught is not None and code[:3] not in caught.masked
    assert verifier.answer(caught, "s1", "client") == wording.CODE_CONFIRMED.format(email=ADA)
    assert store.codes.confirmed_in("s1") == ADA
    assert verifier.catch(code, "s1") is None  # confirmed: the chat waits for no code, a number is a number


def test_a_wrong_code_says_how_many_tries_are_left_and_five_end_it(parts, fake_mail):
    _, mailer, verifier = parts
    verifier.offer("s1", ADA, "client")
    code = mailed_code(fake_mail, mailer)
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    answers = [verifier.answer(verifier.catch(wrong, "s1"), "s1", "client") for _ in range(5)]
    assert answers[0] == wording.CODE_WRONG.format(email=ADA, left=4, tries="tries")
    assert answers[3] == wording.CODE_WRONG.format(email=ADA, left=1, tries="try")
    assert answers[4] == wording.CODE_NO_TRIES
    assert verifier.answer(verifier.catch(code, "s1"), "s1", "client") == wording.CODE_NO_TRIES  # even the right one


def test_another_conversations_code_confirms_nothing(parts, fake_mail):
    store, mailer, verifier = parts
    verifier.offer("s1", ADA, "client")
    code = mailed_code(fake_mail, mailer)
    assert verifier.catch(code, "s2") is None  # s2 waits for no code: an ordinary message, which confirms nothing
    verifier.offer("s2", "bob@example.org", "client")
    mailer.step()
    reply = verifier.answer(verifier.catch(code, "s2"), "s2", "client")
    assert reply.startswith("That code doesn't match") and store.codes.confirmed_in("s1") is None


def test_an_expired_code_offers_a_new_one_and_send_it_again_sends_it(parts, fake_mail, clock):
    _, mailer, verifier = parts
    verifier.offer("s1", ADA, "client")
    code = mailed_code(fake_mail, mailer)
    clock.now += 601
    assert verifier.answer(verifier.catch(code, "s1"), "s1", "client") == wording.CODE_EXPIRED.format(minutes=10)
    assert verifier.answer(verifier.catch("send it again", "s1"), "s1", "client") == wording.CODE_RESENT.format(
        email=ADA
    )
    fresh = mailed_code(fake_mail, mailer, count=2)
    assert verifier.answer(verifier.catch(fresh, "s1"), "s1", "client") == wording.CODE_CONFIRMED.format(email=ADA)


def test_no_address_gets_more_than_three_code_mails_an_hour_whatever_the_sessions(parts, fake_mail):
    _, mailer, verifier = parts
    replies = [verifier.offer(f"s{n}", ADA, f"client{n}") for n in range(5)]
    assert replies[:3] == [wording.CODE_SENT.format(email=ADA)] * 3
    assert replies[3:] == [f"{wording.CODE_CAPPED.format(email=ADA)} {wording.CODE_KEPT}"] * 2
    mailer.step()
    assert len(fake_mail.wait_for(ADA, 3)) == 3


def test_a_code_typed_before_its_mail_went_is_told_it_is_on_its_way(parts):
    _, _, verifier = parts
    verifier.offer("s1", ADA, "client")
    assert verifier.answer(verifier.catch("123456", "s1"), "s1", "client") == wording.CODE_ON_ITS_WAY.format(email=ADA)


def test_a_service_that_refuses_is_tried_again_with_a_new_code_and_the_first_never_confirms(parts, fake_mail, clock):
    store, mailer, verifier = parts
    fake_mail.refusing = True
    verifier.offer("s1", ADA, "client")
    mailer.step()
    code = store.codes.current("s1")
    assert code.attempts == 1 and code.digest is None and fake_mail.to(ADA) == []
    assert verifier.answer(verifier.catch("123456", "s1"), "s1", "client") == wording.CODE_ON_ITS_WAY.format(email=ADA)
    fake_mail.refusing = False
    clock.now += 600
    code = mailed_code(fake_mail, mailer)
    assert verifier.answer(verifier.catch(code, "s1"), "s1", "client") == wording.CODE_CONFIRMED.format(email=ADA)


def test_with_verification_off_nothing_is_caught_or_offered(tmp_path, clock):
    store = Store(tmp_path / "replica.sqlite3", clock=clock)
    verifier = Verifier(store.codes, CodeKey("salt"), "off", clock=clock)
    assert verifier.offer("s1", ADA, "client") is None and verifier.catch("123456", "s1") is None
    assert store.codes.waiting() == 0
    store.close()


def test_with_a_model_the_lead_it_saved_gets_a_code_and_the_code_never_reaches_the_model(
    tmp_path, store, fake_openai, make_replica, fake_mail
):
    replica, mailer = with_model(store, make_replica, fake_mail)
    fake_openai.script(call(("gather_user_details", {"email": ADA, "notes": "a data project"})), say("Thanks, Ada!"))
    reply = replica.reply(f"I'd like to talk about a data project: {ADA}", VISITOR)
    assert reply.endswith(wording.CODE_SENT.format(email=ADA)) and fake_openai.calls == 2
    mailer.step()
    code = fake_mail.wait_for(ADA)[0].code
    assert replica.reply(f"here it is: {code}", VISITOR) == wording.CODE_CONFIRMED.format(email=ADA)
    assert fake_openai.calls == 2  # the app answered the code itself
    fake_openai.script(say("Happy to help."))
    replica.reply("What else do you need from me?", VISITOR)
    seen = str(fake_openai.requests)
    assert fake_openai.calls == 3 and code not in seen and "••••••" in seen  # the history holds it masked
    assert store.leads.all()[0].confirmed_at is not None


def test_with_required_the_owner_gets_no_lead_alert_before_the_code_and_one_saying_confirmed_after(
    tmp_path, store, notifier, fake_openai, make_replica, fake_mail
):
    replica, mailer = with_model(store, make_replica, fake_mail, "required", notifier)
    fake_openai.script(call(("gather_user_details", {"email": ADA, "notes": "a data project"})), say(""))
    reply = replica.reply(f"Reach me at {ADA}", VISITOR)
    assert wording.CODE_SENT_REQUIRED.format(email=ADA) in reply and wording.LEAD_NOTED not in reply
    assert notifier.alerts == [] and [lead.alert_status for lead in store.leads.all()] == ["held"]
    mailer.step()
    code = fake_mail.wait_for(ADA)[0].code
    assert replica.reply(code, VISITOR) == wording.CODE_CONFIRMED.format(email=ADA)
    [alert] = notifier.alerts
    assert alert.kind == AlertKind.LEAD and dict(alert.fields)["Confirmed"] == CONFIRMED_LINE
    assert [lead.alert_status for lead in store.leads.all()] == ["pending"]


def test_an_address_the_model_left_alone_is_kept_by_the_lead_net_and_offered_its_code_too(
    store, fake_openai, make_replica, fake_mail
):
    replica, _ = with_model(store, make_replica, fake_mail)
    fake_openai.script(say("Thanks for your message!"))
    reply = replica.reply(f"Write to me at {ADA} about the job", VISITOR)
    assert wording.LEAD_NOTED in reply and reply.endswith(wording.CODE_SENT.format(email=ADA))
    assert store.codes.current("s1").email == ADA


def test_a_failing_service_is_logged_once_a_minute_with_a_count_and_never_the_code(parts, fake_mail, clock, caplog):
    store, mailer, verifier = parts
    fake_mail.refusing = True
    for n in range(3):
        verifier.offer(f"s{n}", f"v{n}@example.org", f"client{n}")
    with caplog.at_level("WARNING", logger="replica.contacts.mailer"):
        mailer.step()  # three failures: one line
        clock.now += 61
        mailer.step()  # a minute on, the next failures: a second line, with their count
    lines = [r.getMessage() for r in caplog.records if r.name == "replica.contacts.mailer"]
    assert (
        len(lines) == 2 and lines[0].startswith("Code mails: 1 failed") and lines[1].startswith("Code mails: 3 failed")
    )
    assert not any(code.digest and code.digest in " ".join(lines) for code in store.codes.due(10))


def test_in_a_conversation_the_owner_took_over_the_code_is_still_read_by_the_app_and_never_forwarded(
    store, notifier, fake_openai, make_replica, fake_mail
):
    replica, mailer = with_model(store, make_replica, fake_mail)
    fake_openai.script(say("Thanks!"))
    replica.reply(f"Mail me at {ADA}", VISITOR)
    replica.inbox.handoff.pause(store.conversations.of_session("s1").id)  # the owner takes it over
    mailer.step()
    code = fake_mail.wait_for(ADA)[0].code
    assert replica.reply(f"code {code}", VISITOR) == wording.CODE_CONFIRMED.format(email=ADA)
    assert not any(code in " ".join(value for _, value in alert.fields) for alert in notifier.alerts)
