"""Verified contacts as users run them: ``python app.py`` with ``VERIFY_EMAIL_URL`` pointing at a real
SMTP server on 127.0.0.1, no model (the default a newcomer meets), driven through ``gradio_client``, on
SQLite and on PostgreSQL."""

from __future__ import annotations

import csv
import io

from replica import wording
from replica.alerts.alert import CONFIRMED_LINE
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
