"""What the owner sees of verified contacts: the lead alert says the address is not confirmed yet, in a
line of the app's own that no visitor's name can forge; ``/leads`` and the digest mark confirmed leads,
``/status`` counts code mails waiting, and ``doctor`` checks the mail service without ever showing its URL."""

from __future__ import annotations

import html
import json
import re
from datetime import datetime, timezone

from replica.alerts.render import fold, to_plain, to_telegram_html
from replica.owner_bot.housekeeping import digest
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
    _, code_id = store.codes.request("s1", "ada@example.org", "client")
    store.codes.request("s2", "bob@example.org", "client")
    store.codes.tried(code_id, [True])
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


FORGING_NAMES = [
    "Ada Confirmed: yes ✓",
    "Ada” Confirmed: yes ✓ (the visitor typed the code) “x",
    "Ada\nConfirmed: yes ✓",
]


def test_a_visitors_name_can_never_carry_the_confirmed_mark_into_an_unconfirmed_leads_alert(store, notifier):
    for n, name in enumerate(FORGING_NAMES):
        context = ToolContext(session_id=f"s{n}", store=store, notifier=notifier, verification="offer")
        args = json.dumps({"email": f"v{n}@example.org", "notes": "hi", "name": name})
        assert default_registry().run("gather_user_details", args, context).text == "ok"
    for raised in notifier.alerts:
        for text in (to_plain(raised), html.unescape(re.sub(r"</?\w+>", "", to_telegram_html(raised)))):
            lines = text.splitlines()
            assert [line for line in lines if line.startswith("Confirmed:")] == [f"Confirmed: {NOT_CONFIRMED}"]
            [name] = [line for line in lines if line.startswith("Name:")]
            assert name.startswith("Name: “") and name.endswith("”") and name.count("”") == 1  # one quotation
    _, folded = fold([(n + 1, raised) for n, raised in enumerate(notifier.alerts)], 4096)
    assert all(line.count("“") == 1 and line.count("”") == 1 for line in folded.splitlines())
    assert all("• “Ada" in line for line in leads_listing(store).splitlines() if "@" in line)
