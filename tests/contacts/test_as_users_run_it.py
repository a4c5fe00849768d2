"""Verified contacts as users run them: ``python app.py`` with ``VERIFY_EMAIL_URL`` pointing at a real
SMTP server on 127.0.0.1, no model (the default a newcomer meets), driven through ``gradio_client``, on
SQLite and on PostgreSQL."""

from __future__ import annotations

import csv
import io

from replica import wording
from replica.alerts.alert import CONFIRMED_LINE
from replica.storage import Store
from replica.storage.provisioning import codes_mailed_earlier
from replica.tools.gather_user_details import NOT_CONFIRMED
from tests.fixtures.clients import app_client
from tests.fixtures.environment import wait_until
from tests.fixtures.processes import run_app, served_app

ADA = "ada.lovelace@example.org"
BOB = "bob@example.org"
CAROL = "carol@example.org"


def test_a_lead_confirms_the_address_with_the_mailed_code_and_the_code_is_kept_nowhere(
    tmp_path, fake_mail, fake_telegram, backend
):
    log_file = tmp_path / "app.log"
    with served_app(log_file, VERIFY_EMAIL_URL=fake_mail.url, **fake_telegram.env, **backend) as (url, _):
        visitor = app_client(url)
        reply = visitor.predict(f"Hi, I'm Ada. Please get back to me at {ADA}", api_name="/chat")
        assert wording.CODE_SENT.format(email=ADA) in reply
        [mail] = fake_mail.wait_for(ADA)
        assert "Jordan Avery" in mail.subject and mail.code not in reply
        [lead_alert] = fake_telegram.wait_for(1)
        assert f"Confirmed: {NOT_CONFIRMED}" in lead_alert.text and ADA in lead_alert.text
        wrong = f"{(int(mail.code) + 1) % 10**6:06d}"
        assert visitor.predict(f"{wrong[:3]} {wrong[3:]}", api_name="/chat") == wording.CODE_WRONG.format(
            email=ADA, left=4, tries="tries"
        )
        # Another conversation waits for no code: the number is an ordinary message there, answered as any
        # other and kept as typed; it confirms nothing (Ada's code still works below).
        stranger = app_client(url)
        elsewhere = stranger.predict(f"my code is {mail.code}", api_name="/chat")
        assert elsewhere.startswith(wording.NO_WRITTEN_ANSWER.format(owner="Jordan Avery"))
        confirmed = visitor.predict(f"my code is {mail.code[:3]}-{mail.code[3:]}", api_name="/chat")
        assert confirmed == wording.CODE_CONFIRMED.format(email=ADA)
        guesser = app_client(url)  # brute force: five wrong codes end the code, the right one then too
        guesser.predict(f"I'm {BOB}", api_name="/chat")
        [bobs] = fake_mail.wait_for(BOB)
        guesses = [f"{(int(bobs.code) + k) % 10**6:06d}" for k in range(1, 6)]
        tries = [guesser.predict(code, api_name="/chat") for code in guesses]
        assert (
            tries[-1] == wording.CODE_NO_TRIES and guesser.predict(bobs.code, api_name="/chat") == wording.CODE_NO_TRIES
        )
        # Three code mails an hour from one client address, whatever the sessions: the fourth is refused in words.
        third = app_client(url).predict(f"me: {CAROL}", api_name="/chat")
        fourth = app_client(url).predict(f"also me: {CAROL}", api_name="/chat")
        assert wording.CODE_SENT.format(email=CAROL) in third and wording.CODE_CAPPED.format(email=CAROL) in fourth
        assert len(fake_mail.wait_for(CAROL)) == 1
        # The owner's lead alert said "not yet" at once; now the same message says the address is theirs.
        assert wait_until(lambda: fake_telegram.text_edits)
        [alert] = [m for m in fake_telegram.delivered if m.text.startswith("New lead") and ADA in m.text]
        assert f"Confirmed: {CONFIRMED_LINE}" in alert.text and NOT_CONFIRMED not in alert.text
    leads = list(csv.DictReader(io.StringIO(run_app("export", "leads", **backend).stdout)))
    assert [(lead["email"], bool(lead["confirmed_at"])) for lead in leads] == [
        (ADA, True),
        (BOB, False),
        (CAROL, False),
        (CAROL, False),
    ]
    exported = run_app("export", "conversations", **backend).stdout.splitlines()
    [adas] = [line for line in exported if ADA in line]
    [strangers] = [line for line in exported if f"my code is {mail.code}" in line]  # kept whole, as typed
    assert "••••••" in adas and ADA not in strangers
    owner_saw = " ".join(m.text for m in fake_telegram.delivered if f"my code is {mail.code}" not in m.text)
    for place in (adas, log_file.read_text(), owner_saw):
        assert mail.code not in place and wrong not in place


def test_a_mail_service_down_then_back_across_a_restart_loses_no_code_and_holds_up_no_reply(tmp_path, fake_mail):
    env = {"DATA_DIR": str(tmp_path / "data"), "VERIFY_EMAIL_URL": fake_mail.url}
    fake_mail.refusing = True  # the service answers 451 to every mail
    with served_app(tmp_path / "first.log", **env) as (url, _):
        visitor = app_client(url)
        reply = visitor.predict(f"Please write to me at {ADA}", api_name="/chat")
        assert wording.CODE_SENT.format(email=ADA) in reply  # at once: the mail is the outbox's to send
        assert wait_until(lambda: "Code mails: 1 failed" in (tmp_path / "first.log").read_text())
    fake_mail.refusing = False
    with served_app(tmp_path / "second.log", **env) as (url, _):
        [mail] = fake_mail.wait_for(ADA, timeout=90)  # the restarted app's mailer takes it up
        again = app_client(url)
        again.session_hash = visitor.session_hash  # the same conversation, as its page would reconnect
        assert again.predict(mail.code, api_name="/chat") == wording.CODE_CONFIRMED.format(email=ADA)
    assert all(mail.code not in (tmp_path / log).read_text() for log in ("first.log", "second.log"))


def eleven_minutes_pass(data_dir) -> None:
    """As if eleven minutes had passed since the codes in ``data_dir``'s database were mailed (no test
    waits ten minutes out; the app reads the time its database holds)."""
    store = Store(data_dir / "replica.sqlite3")
    codes_mailed_earlier(store.db, 660)
    store.close()


def test_required_holds_the_lead_alert_until_the_code_and_an_expired_code_and_the_answer_by_mail(
    tmp_path, fake_mail, fake_telegram
):
    env = {
        "DATA_DIR": str(tmp_path / "data"),
        "VERIFY_EMAIL_URL": fake_mail.url,
        "LEAD_VERIFICATION": "required",
        **fake_telegram.env,
    }
    with served_app(tmp_path / "app.log", **env) as (url, _):
        visitor = app_client(url)  # by the API: no page will show the owner's answer
        reply = visitor.predict(f"I'm Grace, {ADA}", api_name="/chat")
        assert wording.CODE_SENT_REQUIRED.format(email=ADA) in reply and wording.LEAD_NOTED not in reply
        [late] = fake_mail.wait_for(ADA)
        assert not any(m.text.startswith("New lead") for m in fake_telegram.delivered)  # held for the code
        eleven_minutes_pass(tmp_path / "data")
        assert visitor.predict(late.code, api_name="/chat") == wording.CODE_EXPIRED.format(minutes=10)
        assert visitor.predict("send it again", api_name="/chat") == wording.CODE_RESENT.format(email=ADA)
        mail = fake_mail.wait_for(ADA, 2)[-1]
        visitor.predict(mail.code, api_name="/chat")
        [lead] = [m for m in fake_telegram.wait_for(1) if m.text.startswith("New lead")]
        assert f"Confirmed: {CONFIRMED_LINE}" in lead.text
        visitor.predict("Do you mentor junior engineers?", api_name="/chat")  # no approved answer: passed on
        assert wait_until(lambda: any(m.text.startswith("Unanswered question") for m in fake_telegram.delivered))
        [alert] = [m for m in fake_telegram.delivered if m.text.startswith("Unanswered question")]
        fake_telegram.push("Yes, two a year.", reply_to=alert.message_id)  # the owner replies to the alert
        assert wait_until(lambda: any("Mail it to them?" in m.text for m in fake_telegram.delivered))
        [offer] = [m for m in fake_telegram.delivered if "Mail it to them?" in m.text]
        [[label]] = offer.buttons
        fake_telegram.push_callback(offer.data_of(label), offer.message_id)
        [answer] = [m for m in fake_mail.wait_for(ADA, 3) if "answer" in m.subject]  # after the two code mails
        assert "> Do you mentor junior engineers?" in answer.text and "Yes, two a year." in answer.text


def test_required_alerts_at_once_each_lead_no_code_can_go_to_and_mails_an_accented_domain_as_punycode(
    tmp_path, fake_mail, fake_telegram, backend
):
    env = {"VERIFY_EMAIL_URL": fake_mail.url, "LEAD_VERIFICATION": "required", **fake_telegram.env, **backend}
    with served_app(tmp_path / "app.log", **env) as (url, _):
        jose = app_client(url).predict("I'm José, josé@example.org", api_name="/chat")
        assert wording.CODE_UNSENDABLE.format(email="josé@example.org") in jose and "I've sent" not in jose
        [alert] = fake_telegram.wait_for(1)  # at once, not held for a code that cannot come
        assert "josé@example.org" in alert.text and "Confirmed: no: no code could be mailed" in alert.text
        both = app_client(url).predict("I'm Grace: grace@müller-bau.de, or grace@example.org", api_name="/chat")
        assert wording.CODE_SENT_REQUIRED.format(email="grace@müller-bau.de") in both
        assert wording.CODE_ONE_PER_MESSAGE.format(email="grace@example.org") in both
        second = [m for m in fake_telegram.wait_for(2) if "grace@example.org" in m.text]
        assert second and "one code goes out per message" in second[0].text
        [mail] = fake_mail.wait_for("grace@xn--mller-bau-q9a.de")  # the accented domain, as mail services take it
        assert mail.to_header == "grace@xn--mller-bau-q9a.de"
    leads = list(csv.DictReader(io.StringIO(run_app("export", "leads", **backend).stdout)))
    # Only the lead whose code went waits for it; the others' alerts went (or are going: the app was stopped).
    assert [(lead["email"], lead["alert_status"] == "held") for lead in leads] == [
        ("josé@example.org", False),
        ("grace@müller-bau.de", True),
        ("grace@example.org", False),
    ]
