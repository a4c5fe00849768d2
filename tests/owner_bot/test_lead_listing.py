"""/leads (replica/owner_bot/lead_listing.py): the recent leads in one Telegram message, however many."""

from __future__ import annotations

from replica.alerts import Alert
from replica.storage.records import AlertKind
from tests.fixtures.environment import wait_until


def test_a_long_lead_list_fits_one_telegram_message(start_app, settings, fake_telegram):
    app = start_app(settings)
    for n in range(20):
        app.store.leads.record(f"lead{n}@example.org", "N" * 50, "x" * 400, _lead_alert(n).entry())
    fake_telegram.push("/leads")
    assert wait_until(lambda: any("Recent leads" in t for t in fake_telegram.sent_texts()), timeout=30)
    listing = next(t for t in fake_telegram.sent_texts() if "Recent leads" in t)
    assert len(listing) <= 4096 and "more" in listing.splitlines()[-1]


def _lead_alert(n):
    return Alert(AlertKind.LEAD, "New lead", (("Email", f"lead{n}@example.org"),), f"s{n}")
