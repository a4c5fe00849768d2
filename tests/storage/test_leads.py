"""The leads: each stored once per visitor, with its alert."""

from __future__ import annotations

from dataclasses import replace

from replica.alerts import Alert
from replica.storage import Recorded
from tests.storage.test_store import alert, for_telegram, next_for_telegram


def test_lead_and_its_alert_are_stored_together_once(store):
    assert store.leads.record("a@example.org", "Ada", "hi", alert().entry()) is Recorded.ALERTED
    assert store.leads.record("a@example.org", "Ada", "hi again", alert().entry()) is Recorded.DUPLICATE
    assert [row.notes for row in store.leads.all()] == ["hi"]
    pending = next_for_telegram(store)
    assert Alert.from_pending(pending) == replace(alert(), ref=1) and len(for_telegram(store)) == 1  # #1


def test_the_same_email_from_another_visitor_is_a_new_lead(store):
    store.leads.record("a@example.org", "Ada", "hi", alert(session="s1").entry())
    assert store.leads.record("a@example.org", "Ada", "hi", alert(session="s2").entry()) is Recorded.ALERTED
