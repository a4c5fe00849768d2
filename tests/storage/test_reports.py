"""What exports and the daily digest read: every conversation whole, and a day's figures."""

from __future__ import annotations

from replica.storage.records import OWNER, REPLICA, VISITOR


def test_export_holds_every_conversation_with_its_messages_times_in_iso(store):
    conversations = store.conversations
    first = conversations.begin("s1", "hash-1", now=0.0).id
    conversations.add_message(first, VISITOR, "Hello?", at=0.0, activity=True)
    conversations.add_message(first, REPLICA, "Hi.", at=1.5, tools=("a", "b"), model_calls=2, reply_ms=1500)
    conversations.begin("s2", "hash-2", now=86400.0)
    [one, two] = list(store.reports.records())
    assert (one["conversation"], one["started_at"], one["address_hash"]) == (
        first,
        "1970-01-01T00:00:00+00:00",
        "hash-1",
    )
    assert one["messages"] == [
        {"at": "1970-01-01T00:00:00+00:00", "role": "visitor", "text": "Hello?", "tools": []}
        | {"model_calls": 0, "reply_ms": None},
        {"at": "1970-01-01T00:00:01+00:00", "role": "replica", "text": "Hi.", "tools": ["a", "b"]}
        | {"model_calls": 2, "reply_ms": 1500},
    ]
    assert (two["started_at"], two["messages"]) == ("1970-01-02T00:00:00+00:00", [])


def test_a_days_figures_count_only_that_day_and_an_empty_day_is_zero(store):
    conversations = store.conversations
    today = conversations.begin("s1", "h", now=100.0).id
    conversations.add_message(today, VISITOR, "One", at=100.0)
    conversations.add_message(today, REPLICA, "Two", at=101.0, model_calls=3)
    conversations.add_message(today, OWNER, "From me", at=102.0)
    conversations.add_message(today, VISITOR, "Tomorrow", at=200.0)
    day = store.reports.day_stats(0.0, 200.0)
    assert (day.conversations, day.messages, day.model_calls) == (1, 1, 3)
    empty = store.reports.day_stats(1000.0, 2000.0)
    assert (empty.conversations, empty.messages, empty.model_calls) == (0, 0, 0)
    assert store.reports.texts_between(0.0, 200.0, VISITOR) == ["One"]
    assert store.reports.texts_between(0.0, 201.0, VISITOR) == ["One", "Tomorrow"]
