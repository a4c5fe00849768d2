"""The usage counts the limits keep: under salted hashes, swept when their window has passed."""

from __future__ import annotations

from replica.chat.limits import UsageLimits
from replica.cli.evaluate import RecordingNotifier
from replica.inbox import Inbox
from replica.owner_bot.housekeeping import USAGE_WINDOW_SECONDS, Housekeeper
from replica.storage import Store
from tests.fixtures.clock import START, HandClock


def test_usage_is_counted_under_salted_hashes_and_swept_on_a_clock(tmp_path, database_url):
    clock = HandClock()
    store = Store(tmp_path / "usage" / "replica.sqlite3", database_url=database_url, clock=clock)
    inbox = Inbox.build(store, "salt", "Ada", RecordingNotifier(), clock=clock)
    limits = UsageLimits.shared(store, 10, 10, 10, address_key=inbox.recorder.address_hash, clock=clock)
    assert limits.admit_message("s1", "203.0.113.9") and limits.take_model_call()
    [key] = store.usage.keys()
    assert key == "address:" + inbox.recorder.address_hash("203.0.113.9") and "203.0.113" not in key
    keeper = Housekeeper(store, inbox.recorder, inbox.handoff, RecordingNotifier(), 90, None, 10, clock=clock).start()
    try:
        clock.settle()  # its first round, at once: the count is kept while its hour lasts
        assert store.usage.keys() == [key]
        swept_at = clock.run_until(lambda: store.usage.keys() == [])  # a round a minute
    finally:
        keeper.close()
        store.close()
    assert swept_at == START + USAGE_WINDOW_SECONDS  # the round at the hour's end, not one before
