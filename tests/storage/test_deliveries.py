"""The deliveries: an alert's tries for a channel, rescheduled, given up, summarised."""

from __future__ import annotations

from replica.storage.deliveries import TELEGRAM
from tests.storage.test_store import alert, next_for_telegram


def test_failed_and_rescheduled_alerts(store):
    store.leads.record("a@example.org", "", "", alert().entry())
    pending = next_for_telegram(store)
    store.deliveries.reschedule([pending.id], due_at=pending.due_at + 60, error="HTTP 500")
    again = next_for_telegram(store)
    assert again.attempts == 1 and again.due_at == pending.due_at + 60
    store.deliveries.give_up([pending.id], "refused: Unauthorized")
    assert next_for_telegram(store) is None and store.leads.all()[0].alert_status == "failed"
    assert store.deliveries.summary()[TELEGRAM].last_failure == "refused: Unauthorized"
