"""What a channel is to the sender: any object with a key, a label, a hint and two ways to send, and a
ChannelError that says whether trying again can help. A channel of a fork's own is delivered to as
Telegram and Apprise are, on the hand clock (``tests/fixtures/clock.py``)."""

from __future__ import annotations

import pytest

from replica.alerts import Alert
from replica.alerts.channel import ChannelError
from replica.alerts.sender import AlertSender
from replica.storage.records import AlertKind
from replica.storage.store import Store
from tests.fixtures.clock import HandClock


class Pager:
    """A channel of a fork's own: it refuses its first send as passing trouble, then takes every alert."""

    key = "pager"
    label = "Pager"
    unreachable_hint = "check the pager"

    def __init__(self, refusal: ChannelError | None = None):
        self.refusal = refusal
        self.sent: list[tuple[float, str]] = []
        self.clock: HandClock | None = None

    def send(self, alert: Alert) -> int:
        if self.refusal:
            refusal, self.refusal = self.refusal, None
            raise refusal
        self.sent.append((self.clock.now, dict(alert.fields)["Email"]))
        return len(self.sent)

    def send_fold(self, alerts):
        self.sent.append((self.clock.now, f"{len(alerts)} folded"))


@pytest.fixture
def clock():
    return HandClock()


def delivered(clock, pager, tmp_path, count=1):
    store = Store(tmp_path / "replica.sqlite3", alert_channels=(pager.key,), clock=clock)
    pager.clock = clock
    sender = AlertSender(store, pager, clock=clock).start()
    try:
        for n in range(count):
            alert = Alert(AlertKind.LEAD, "New lead", (("Email", f"{n}@example.org"),), f"s{n}")
            store.leads.record(f"{n}@example.org", "", "", alert.entry())
            sender.notify(alert)
        clock.run_until(lambda: len(pager.sent) == count)
        return [row.status for row in store.deliveries.rows() if row.channel == pager.key]
    finally:
        sender.close()
        store.close()


def test_a_channel_error_passes_unless_it_says_otherwise_and_its_words_are_its_reason():
    error = ChannelError("HTTP 502")
    assert (str(error), error.reason, error.final, error.retry_after, error.unreachable) == (
        "HTTP 502",
        "HTTP 502",
        False,
        None,
        False,
    )


def test_a_channel_of_a_forks_own_gets_each_alert_once_at_the_senders_pace(clock, tmp_path):
    pager = Pager()
    assert delivered(clock, pager, tmp_path, count=2) == ["sent", "sent"]
    (first, a), (second, b) = pager.sent
    assert (a, b) == ("0@example.org", "1@example.org") and second - first == 1.0  # one a second


def test_its_passing_trouble_is_tried_again_no_sooner_than_it_asks(clock, tmp_path):
    pager = Pager(ChannelError("busy", retry_after=30))
    started = clock.now
    assert delivered(clock, pager, tmp_path) == ["sent"]
    assert pager.sent[0][0] - started >= 30
