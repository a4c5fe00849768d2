"""The outbox: a record and its alert in one transaction, the per-visitor caps, and what they kept back."""

from __future__ import annotations

from dataclasses import replace

import pytest

from replica.alerts import Alert
from replica.storage import Recorded
from tests.storage.test_store import alert, for_telegram


def test_caps_count_per_visitor_and_per_kind(store):
    outcomes = [
        store.leads.record(f"{n}@example.org", "", "", alert(email=f"{n}@example.org").entry()) for n in range(5)
    ]
    assert outcomes == [Recorded.ALERTED] * 3 + [Recorded.CAPPED] * 2
    assert store.questions.record("q?", alert("question").entry()) is Recorded.ALERTED
    assert (
        store.leads.record("x@example.org", "", "", alert(session="other", email="x@example.org").entry())
        is Recorded.ALERTED
    )
    assert [row.alert_status for row in store.leads.all()] == ["pending"] * 3 + ["capped"] * 2 + ["pending"]


def test_what_the_caps_keep_back_is_counted_and_told_once_by_the_next_alert_from_the_same_address(store):
    def lead(n, address="office"):
        entry = replace(alert(session=f"s{n}", email=f"{n}@example.org").entry(), address=address)
        return store.leads.record(f"{n}@example.org", "", "", entry)

    assert [lead(n) for n in range(5)] == [Recorded.ALERTED] * 3 + [Recorded.CAPPED] * 2
    assert lead(5, address="elsewhere") is Recorded.ALERTED  # another address tells nothing of the office's
    [kept] = store.outbox.kept_within(3600)
    assert (kept.kind, kept.reason, kept.records, kept.visitors, kept.told) == ("lead", "address", 2, 1, 0)
    question = replace(alert("question", session="s9").entry(), address="office")
    assert store.questions.record("Opera?", question) is Recorded.ALERTED  # its kind has room: it tells of the leads
    assert [Alert.from_pending(p).notes for p in for_telegram(store)] == [()] * 4 + [
        ("2 more leads from the same address were kept without an alert.",)
    ]
    assert store.outbox.kept_within(3600)[0].told == 2
    assert [(c.kind, c.alerts) for c in store.outbox.raised_within(3600)] == [("lead", 4), ("question", 1)]
    store.clear_records()
    assert store.outbox.kept_within(3600) == [] and store.outbox.raised_within(3600) == []


def test_a_record_is_never_stored_without_its_alert(store, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the outbox insert failed")

    monkeypatch.setattr(store.outbox, "queue_in", broken)
    with pytest.raises(RuntimeError):
        store.leads.record("a@example.org", "Ada", "hi", alert().entry())
    monkeypatch.undo()
    assert store.leads.all() == [] and store.deliveries.rows() == []  # the transaction was rolled back whole
