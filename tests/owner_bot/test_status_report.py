"""``/status`` (replica/owner_bot/status_report.py): the alerts of the last 24 hours, what the visitor caps
kept back and why, naming the setting to raise, and what waits to be delivered."""

from __future__ import annotations

import pytest

from replica.alerts import Alert
from replica.owner_bot.status_report import counted, status_report
from replica.storage import Store
from replica.storage.records import AlertKind


@pytest.fixture
def capped_store(tmp_path):
    store = Store(tmp_path / "replica.sqlite3", alert_caps={"lead": 2, "question": 2})
    yield store
    store.close()


def lead(store, n: int, session: str = "s1"):
    email = f"lead{n}@example.org"
    return store.leads.record(email, "", "", Alert(AlertKind.LEAD, "New lead", (("Email", email),), session).entry())


def test_counts_are_plural_unless_one():
    assert counted(1, "lead") == "1 lead" and counted(0, "question") == "0 questions"
    assert counted(3, "address") == "3 addresses"


def test_nothing_yet_is_said_in_four_lines(capped_store):
    assert status_report(capped_store).splitlines() == [
        "<b>Alerts in the last 24 hours</b>",
        "Raised: 0 leads, 0 questions.",
        "Kept without an alert: none.",
        "Deliveries waiting: none.",
    ]


def test_leads_past_the_cap_are_counted_with_the_setting_that_raises_it(capped_store):
    for n in range(5):
        lead(capped_store, n)
    report = status_report(capped_store)
    assert "Raised: 2 leads, 0 questions." in report
    assert "Kept without an alert: 3 leads. Each is stored: /leads lists them." in report
    assert (
        "• 3 leads from 1 browser session, past the cap of 2 lead alerts per browser session"
        " (<code>LEAD_ALERTS_PER_VISITOR</code>)" in report
    )
    assert "raise <code>LEAD_ALERTS_PER_VISITOR</code>." in report and "QUESTION_ALERTS" not in report
    assert report.endswith("Deliveries waiting: 2.")
