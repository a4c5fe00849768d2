"""Verified contacts' limits as users run them: ``python app.py`` with ``VERIFY_EMAIL_URL`` pointing at a
real SMTP server on 127.0.0.1, on SQLite and on PostgreSQL: the day's total of code mails, and what volume,
spellings of one mailbox and a budget never get. (Apart from ``test_as_users_run_it.py`` so that the
two halves run side by side.)"""

from __future__ import annotations

import csv
import io
import re

from replica import wording
from tests.fixtures.clients import app_client
from tests.fixtures.environment import wait_until
from tests.fixtures.processes import run_app, served_app


def test_code_mails_per_day_caps_the_whole_app_says_so_once_in_the_log_and_in_status(
    tmp_path, fake_mail, fake_telegram, backend
):
    log_file = tmp_path / "app.log"
    env = {"VERIFY_EMAIL_URL": fake_mail.url, "CODE_MAILS_PER_DAY": "2", **fake_telegram.env, **backend}
    with served_app(log_file, **env) as (url, _):
        replies = [app_client(url).predict(f"I'm v{n}@example.org", api_name="/chat") for n in range(4)]
        assert [wording.CODE_SENT.format(email=f"v{n}@example.org") in replies[n] for n in range(4)] == [
            True,
            True,
            False,
            False,
        ]
        assert wording.CODE_CAPPED_TODAY.format(email="v3@example.org") in replies[3]
        fake_telegram.push("/status")
        assert wait_until(lambda: any("CODE_MAILS_PER_DAY" in t for t in fake_telegram.sent_texts()))
        [status] = [t for t in fake_telegram.sent_texts() if "CODE_MAILS_PER_DAY" in t]
        assert "Code mails: 2 in the last 24 hours, the day's total (CODE_MAILS_PER_DAY) reached" in status
        assert len(fake_mail.wait_for("v1@example.org")) == 1 and fake_mail.to("v2@example.org") == []
    said = [line for line in log_file.read_text().splitlines() if "CODE_MAILS_PER_DAY" in line]
    assert len(said) == 1 and "the day's total of 2" in said[0]
    leads = list(csv.DictReader(io.StringIO(run_app("export", "leads", **backend).stdout)))
    assert [lead["email"] for lead in leads] == [f"v{n}@example.org" for n in range(4)]  # every lead kept


def test_as_users_run_it_volume_confirms_nothing_spellings_get_no_more_mails_and_a_budget_is_a_budget(
    tmp_path, fake_mail, backend
):
    victim = "victim@example.org"
    env = {"VERIFY_EMAIL_URL": fake_mail.url, "TRUSTED_PROXY_HOPS": "1", **backend}
    with served_app(tmp_path / "app.log", **env) as (url, _):
        guesser = app_client(url, headers={"X-Forwarded-For": "10.5.0.1"})
        assert wording.CODE_SENT.format(email=victim) in guesser.predict(f"Reach me at {victim}", api_name="/chat")
        [mail] = fake_mail.wait_for(victim)
        guesses = " ".join(f"{n:06d}" for n in range(571) if f"{n:06d}" != mail.code)  # one message, 571 codes
        assert guesser.predict(guesses, api_name="/chat") == wording.CODE_NO_TRIES  # five tries, not 571
        assert guesser.predict(mail.code, api_name="/chat") == wording.CODE_NO_TRIES  # the code is spent
        # The same mailbox however it is written, from one client address each: three code mails in all.
        spellings = ["Victim@Example.org", "victim+1@example.org", "VICTIM+jobs@example.org", "victim+2@example.org"]
        for n, spelling in enumerate(spellings):
            app_client(url, headers={"X-Forwarded-For": f"10.5.1.{n}"}).predict(f"Me: {spelling}", api_name="/chat")
        budget = app_client(url, headers={"X-Forwarded-For": "10.5.2.1"})  # a chat that never asked for a code
        reply = budget.predict("Our budget is 150000, Budget: 150.000 EUR, call me on 555-123", api_name="/chat")
        assert "code" not in reply.lower()
    mailbox = [mail for mail in fake_mail.mails if any(re.sub(r"\+[^@]*", "", to.lower()) == victim for to in mail.to)]
    assert len(mailbox) == 3  # an hour's three, whatever the spelling and the client address
    leads = list(csv.DictReader(io.StringIO(run_app("export", "leads", **backend).stdout)))
    assert [lead["confirmed_at"] for lead in leads if lead["email"] == victim] == [""]  # never confirmed
    transcripts = run_app("export", "conversations", **backend).stdout
    assert "Our budget is 150000, Budget: 150.000 EUR, call me on 555-123" in transcripts  # kept whole
