"""What the owner sees of verified contacts: the lead alert says the address is not confirmed yet,
``/leads`` and the digest mark confirmed leads, ``/status`` counts code mails waiting, and ``doctor``
checks the mail service without ever showing its URL."""

from __future__ import annotations

from datetime import datetime, timezone

from replica.housekeeping import digest
from replica.owner_bot.lead_listing import leads_listing
from replica.owner_bot.status_report import status_report
from replica.tools import ToolContext, default_registry
from replica.tools.gather_user_details import NOT_CONFIRMED
from tests.cli.test_doctor import doctor, owner_folder  # noqa: F401 (a fixture)
from tests.storage.test_store import alert

ARGS = '{"email": "ada@example.org", "notes": "A data project", "name": "Ada"}'


def test_the_lead_alert_says_the_address_is_not_confirmed_yet_only_when_codes_are_offered(store, notifier):
    for verification, session in (("offer", "s1"), ("off", "s2")):
        context = ToolContext(session_id=session, store=store, notifier=notifier, verification=verification)
        assert default_registry().run("gather_user_details", ARGS, context).text == "ok"
    offered, plain = (dict(a.fields) for a in notifier.alerts)
    assert offered["Confirmed"] == NOT_CONFIRMED and "Confirmed" not in plain


def test_leads_and_the_digest_mark_the_confirmed_ones_and_status_counts_code_mails_waiting(store):
    store.leads.record("ada@example.org", "Ada", "hi", alert(session="s1").entry())
    store.leads.record("bob@example.org", "Bob", "hello", alert(session="s2", email="bob@example.org").entry())
    _, code_id = store.codes.request("s1", "ada@example.org", "client", 3)
    store.codes.request("s2", "bob@example.org", "client", 3)
    store.codes.tried(code_id, matched=True)
    listing = leads_listing(store)
    bob, ada = (line for line in listing.splitlines() if "@" in line)  # newest first
    assert "ada@example.org (confirmed ✓)" in ada and "confirmed" not in bob
    today = datetime.now(timezone.utc).date()
    assert dict(digest(store, today, 100).fields)["Leads"] == "2, 1 confirmed by their code"
    assert "Mails waiting: 2 code(s), 0 answer(s)" in status_report(store)  # neither was sent: no mailer ran here


def test_doctor_checks_the_mail_service_and_with_ping_mails_the_owner_a_test(
    owner_folder,  # noqa: F811
    fake_openai,
    fake_telegram,
    fake_mail,
):
    secret = "SECRETpassword123"
    url = fake_mail.url.replace("mailto://", f"mailto://user:{secret}@")
    done, lines = doctor(owner_folder, fake_openai, fake_telegram, VERIFY_EMAIL_URL=url)
    [line] = [line for line in lines if "contacts" in line]
    assert line.startswith("✓") and "leads: offer" in line and secret not in done.stdout
    done, lines = doctor(
        owner_folder,
        fake_openai,
        fake_telegram,
        "--ping",
        VERIFY_EMAIL_URL=fake_mail.url,
        OWNER_EMAIL="ada@example.org",
    )
    [line] = [line for line in lines if "contacts" in line]
    assert "a test code mail was sent" in line
    [mail] = fake_mail.wait_for("ada@example.org")
    assert "Ada Lovelace" in mail.subject and "doctor's test" in mail.text
    done, lines = doctor(owner_folder, fake_openai, fake_telegram, VERIFY_EMAIL_URL=f"nosuchservice://{secret}@x")
    [line] = [line for line in lines if "contacts" in line]
    assert line.startswith("✗") and "not a URL Apprise knows" in line and secret not in done.stdout
    assert done.returncode == 1
