"""Verified contacts when ``LEAD_VERIFICATION=required``, as users run them: ``python app.py`` with
``VERIFY_EMAIL_URL`` pointing at a real SMTP server on 127.0.0.1, no model, driven through
``gradio_client`` (a file of its own so that its app runs beside the other verified-contact ones)."""

from __future__ import annotations

import csv
import io

from replica import wording
from replica.alerts.alert import CONFIRMED_LINE
from replica.storage import Store
from replica.storage.provisioning import codes_mailed_earlier
from tests.fixtures.clients import app_client
from tests.fixtures.environment import wait_until
from tests.fixtures.processes import run_app, served_app

ADA = "ada.lovelace@example.org"


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
