"""The usage counts the limits keep: under salted hashes, swept when their window has passed."""

from __future__ import annotations


def test_usage_is_counted_under_salted_hashes_and_swept_on_a_clock(store, monkeypatch):
    from replica import housekeeping
    from replica.chat.limits import UsageLimits
    from replica.cli.evaluate import RecordingNotifier
    from replica.inbox import Inbox
    from replica.owner_bot.housekeeping import Housekeeper
    from tests.fixtures.environment import wait_until

    inbox = Inbox.build(store, "salt", "Ada", RecordingNotifier())
    limits = UsageLimits.shared(store, 10, 10, 10, address_key=inbox.recorder.address_hash)
    assert limits.admit_message("s1", "203.0.113.9") and limits.take_model_call()
    [key] = store.usage.keys()
    assert key == "address:" + inbox.recorder.address_hash("203.0.113.9") and "203.0.113" not in key
    monkeypatch.setattr(housekeeping, "USAGE_WINDOW_SECONDS", 0.0)  # every count is past its window
    keeper = Housekeeper(store, inbox.recorder, inbox.handoff, RecordingNotifier(), 90, None, 10, interval=0.05).start()
    try:
        assert wait_until(lambda: store.usage.keys() == [])
    finally:
        keeper.close()
