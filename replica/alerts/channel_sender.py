"""Delivering stored alerts to one channel beside Telegram, as the Telegram sender does: oldest first,
at the channel's own pace, retried with backoff for as long as it takes, each delivery leased to one
instance, marked sent only after the service took it. When more alerts of one kind than ``fold_after``
wait, they go as one message. Each channel has its own worker and its own rows: one failing never
delays or repeats another.
"""

from __future__ import annotations

import logging
import time

from replica.alerts.alert import Alert, Notifier
from replica.alerts.channels import Channel, render, render_fold
from replica.settings import default
from replica.storage import Store
from replica.storage.deliveries import PendingDelivery
from replica.workers import Worker

log = logging.getLogger(__name__)

MAX_FOLD = 200  # alerts looked at for one folded message; the rest go in the next


class ChannelSender(Worker):
    """Delivers the deliveries queued for ``channel``. ``notify`` wakes it."""

    name = "alert-channel"

    def __init__(
        self,
        store: Store,
        channel: Channel,
        fold_after: int = default("alert_fold_after"),
        min_interval: float = 1.0,
        base_delay: float = 1.0,
        max_delay: float = 300.0,
        idle_poll: float = 30.0,
    ):
        super().__init__(base_delay=base_delay, max_delay=max_delay)
        self._store = store
        self.channel = channel
        self._fold_after = fold_after
        self._min_interval = min_interval
        self._idle_poll = idle_poll
        self._last_send = 0.0
        # Deliveries the service took that the database could not yet mark sent: never sent again.
        self._unrecorded: set[int] = set()

    def notify(self, alert: Alert) -> None:
        """A new alert was stored: look now rather than at the next poll."""
        self.wake()

    def failed(self, error: Exception, delay: float) -> None:
        log.error("Alert channel %s: error (%s); retrying in %.1f s", self.channel.label, type(error).__name__, delay)

    def step(self) -> float:
        """Send the next due message (one alert, or a fold), or say how long until one may be."""
        self._record_unrecorded()
        waiting = self._store.deliveries.waiting(self.channel.key, MAX_FOLD, skip=self._unrecorded)
        if not waiting:
            return self._idle_poll if not self._unrecorded else self.base_delay
        wait = max(waiting[0].due_at - time.time(), self._last_send + self._min_interval - time.monotonic())
        if wait > 0:
            return min(wait, self._idle_poll)
        same = [d for d in waiting if d.kind == waiting[0].kind and d.due_at <= time.time()]
        batch = same if len(same) > self._fold_after else same[:1]
        claimed = self._store.deliveries.claim([d.id for d in batch])
        batch = [d for d in batch if d.id in claimed]
        if not batch:
            return 0.1  # another instance has them
        self._send(batch)
        return 0.0

    def _send(self, batch: list[PendingDelivery]) -> None:
        alerts = [(d.ref, Alert.from_pending(d)) for d in batch]
        title, body = render_fold(alerts, self.channel) if len(batch) > 1 else render(alerts[0][1], self.channel)
        self._last_send = time.monotonic()
        problem = self.channel.send(title, body)
        ids = [d.id for d in batch]
        if problem:
            delay = self.backoff(max(d.attempts for d in batch) + 1)
            self._store.deliveries.reschedule(ids, time.time() + delay, problem)
            log.warning(
                "Alert channel %s did not take %d alert(s) (%s); retrying in %.1f s",
                self.channel.label,
                len(ids),
                problem,
                delay,
            )
            return
        self._unrecorded.update(ids)
        self._record_unrecorded()
        log.info("Delivered %d alert(s) to %s%s", len(ids), self.channel.label, " as one message" * (len(ids) > 1))

    def _record_unrecorded(self) -> None:
        if not self._unrecorded:
            return
        try:
            self._store.deliveries.mark_sent(sorted(self._unrecorded))
        except Exception as error:
            log.error(
                "Alert channel %s took %d alert(s) the database could not mark sent (%s); not sending them again",
                self.channel.label,
                len(self._unrecorded),
                type(error).__name__,
            )
            return
        self._unrecorded.clear()


class Notifiers:
    """Wakes every sender (Telegram's and each channel's) for a new alert; closes them all."""

    def __init__(self, notifiers: list[Notifier]):
        self.notifiers = notifiers

    def notify(self, alert: Alert) -> None:
        for notifier in self.notifiers:
            notifier.notify(alert)

    def close(self) -> None:
        for notifier in self.notifiers:
            close = getattr(notifier, "close", None)
            if close:
                close()
