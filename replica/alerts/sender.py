"""Getting stored alerts to the owner without the visitor ever waiting: one sender per channel.

``AlertSender`` is a background worker that delivers one channel's pending deliveries (Telegram's, or
one Apprise URL's), oldest first, at the channel's pace (one message per ``min_interval`` seconds,
kept in the database, so several instances together keep to the service's rate). What may pass
(network errors, timeouts, 5xx, rate limits) is retried with exponential backoff and jitter, never
sooner than the service asks; a refusal for good, or a delivery tried ``max_attempts`` times or for
``give_up_after`` seconds, is given up with its reason recorded (``doctor`` and ``export alerts`` show
it). A delivery is marked sent only after the service took it, so a crash in between may repeat one
alert but never loses one; when the database cannot record the send, the sender remembers it and
retries the record, with backoff, instead of sending the alert again. When more leads (or questions)
than ``fold_after`` wait at once, they go as one message that lists them, so a crowd of visitors is a
few pings, not one a second. Each channel has its own worker and rows: one failing never delays or
repeats another.

``LogNotifier`` stands in when no channel is configured: the record is stored, and the alert is
written to the log.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from replica.alerts.alert import CONFIRMED_LINE, Alert, Notifier
from replica.alerts.channel import Channel, ChannelError, Editing
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.runtime.timings import Timings
from replica.runtime.workers import Worker
from replica.settings import default
from replica.storage import PendingDelivery, Store
from replica.storage.database import storage_errors
from replica.storage.records import AlertKind

log = logging.getLogger(__name__)

FOLDED_KINDS = (
    AlertKind.LEAD,
    AlertKind.QUESTION,
)  # forwarded visitor messages and digests go one by one: the owner replies to each
MAX_FOLD = 200  # alerts looked at for one folded message; the rest go in the next


class LogNotifier:
    """Writes alerts to the log: the app still works, and nothing is silently dropped."""

    def notify(self, alert: Alert) -> None:
        """Log ``alert`` in full."""
        log.warning(
            "Telegram is not configured (set TELEGRAM_BOT_TOKEN and TELEGRAM_CHAT_ID: docs/telegram.md); alert for "
            "the owner: %s",
            alert.log_text(),
        )


class AlertSender(Worker):
    """Delivers ``channel``'s deliveries from the store. ``notify`` wakes it.

    ``clock`` is what it reads the time from and waits on; it must tell the time the store stamps due
    times and leases with (the store's ``clock``), as the real clock does for both.
    """

    def __init__(
        self,
        store: Store,
        channel: Channel,
        fold_after: int = default("alert_fold_after"),
        min_interval: float = Timings.alert_min_interval,
        base_delay: float = Timings.alert_retry_base,
        max_delay: float = 300.0,
        idle_poll: float = 30.0,
        unreachable_warning_after: float = Timings.unreachable_warning,
        max_attempts: int = default("alert_max_attempts"),
        give_up_after: float = default("alert_give_up_hours") * 3600.0,
        clock: Clock = REAL_CLOCK,
    ):
        self.name = f"alerts-{channel.key}"
        super().__init__(base_delay=base_delay, max_delay=max_delay, clock=clock)
        self.channel = channel
        self._store = store
        self._fold_after = fold_after
        self._min_interval = min_interval
        self._idle_poll = idle_poll
        self._unreachable_warning_after = unreachable_warning_after
        self._max_attempts = max_attempts
        self._give_up_after = give_up_after
        self._unreachable_since: float | None = None  # first of an unbroken run of network failures
        self._said_unreachable = False
        # Messages the channel took that the database could not yet mark sent: their delivery ids ->
        # (the channel's message id, failed tries to record it, the clock's monotonic time of the next try).
        self._unrecorded: dict[tuple[int, ...], tuple[int | None, int, float]] = {}

    def notify(self, alert: Alert) -> None:
        """A new alert was stored: look now rather than at the next poll."""
        self.wake()

    def failed(self, error: Exception, delay: float) -> None:
        log.error(
            "%s sender error (%s); retrying in %.1f s", self.channel.label, type(error).__name__, delay, exc_info=True
        )

    def step(self) -> float:
        """Send the next due message (one alert, or a fold), or say how long until one may be."""
        self._retry_records()
        # A delivery the channel took but the database has not recorded is never sent again, even once
        # its lease runs out: it is left out until its record is written.
        unrecorded = [i for ids in self._unrecorded for i in ids]
        waiting = self._store.deliveries.waiting(self.channel.key, MAX_FOLD, skip=unrecorded)
        wait = self._idle_poll if not waiting else waiting[0].due_at - self.clock.time()
        if self._unrecorded:
            wait = min(wait, min(retry_at for _, _, retry_at in self._unrecorded.values()) - self.clock.monotonic())
        if not waiting or wait > 0:
            return min(max(wait, 0.01), self._idle_poll)
        batch = self._fold_of(waiting)
        # The lease makes the deliveries this instance's alone; the pace is shared by every instance.
        wait, taken = self._store.deliveries.claim(self.channel.key, [d.id for d in batch], self._min_interval)
        batch = [d for d in batch if d.id in taken]
        if wait > 0 or not batch:
            return wait
        self._deliver(batch)
        return 0.0

    def _fold_of(self, waiting: list[PendingDelivery]) -> list[PendingDelivery]:
        """What goes in the next message: the oldest alert alone, or, when more leads or questions than
        ``fold_after`` wait, all of them in one."""
        first = waiting[0]
        same = [d for d in waiting if d.kind == first.kind and d.due_at <= self.clock.time()]
        return same if first.kind in FOLDED_KINDS and len(same) > self._fold_after else [first]

    def _deliver(self, batch: list[PendingDelivery]) -> None:
        alerts = [(d.ref, Alert.from_pending(d)) for d in batch]
        message_id: int | None = None  # a fold's: none (replies to it teach nothing)
        try:
            if len(batch) > 1:
                self.channel.send_fold(alerts)
            elif batch[0].kind == AlertKind.CONFIRMED:
                message_id = self._confirm(alerts[0][1])
            else:
                message_id = self.channel.send(alerts[0][1])
        except ChannelError as error:
            self._failed_send(batch, [alert for _, alert in alerts], error)
            return
        self._note_reachable()
        # The channel has it: from here on, never send it again, even if the database cannot say so yet.
        self._unrecorded[tuple(d.id for d in batch)] = (message_id, 0, 0.0)
        self._retry_records()

    def _confirm(self, alert: Alert) -> int | None:
        """A lead's address was confirmed: where the channel can edit its messages and the lead's alert went
        alone, that alert is edited to say so (Telegram's ``editMessageText``); elsewhere a short follow-up."""
        channel = self.channel
        if not isinstance(channel, Editing) or not alert.ref:
            return channel.send(alert)
        original = self._store.deliveries.lead_message(channel.key, alert.ref)
        if original is None:
            return channel.send(alert)
        message_id, payload = original
        lead = replace(Alert.from_json(payload), ref=alert.ref).with_field("Confirmed", CONFIRMED_LINE)
        try:
            channel.edit(message_id, lead)
        except ChannelError as error:
            if not error.final:
                raise
            log.warning("%s could not edit a lead's alert (%s); sending a follow-up", self.channel.label, error.reason)
            return self.channel.send(alert)
        return message_id

    def _failed_send(self, batch: list[PendingDelivery], alerts: list[Alert], error: ChannelError) -> None:
        """Give up (with the reason, and the alerts in the log) on a refusal for good or past the limits;
        else try again later, no sooner than the service asks."""
        ids = [d.id for d in batch]
        attempts = max(d.attempts for d in batch) + 1
        reason = self._give_up_reason(attempts, min(d.created_at for d in batch), error)
        if reason:
            self._store.deliveries.give_up(ids, reason)
            for alert in alerts:
                log.error(
                    "%s: %s alert marked failed (%s): %s", self.channel.label, alert.kind, reason, alert.log_text()
                )
            return
        if error.unreachable:
            self._note_unreachable(error)
        delay = float(error.retry_after) if error.retry_after is not None else self.backoff(attempts)
        self._store.deliveries.reschedule(ids, self.clock.time() + delay, error.reason)
        log.warning(
            "%s did not take %d alert(s) (%s); retrying in %.1f s", self.channel.label, len(ids), error.reason, delay
        )

    def _give_up_reason(self, attempts: int, raised_at: float, error: ChannelError) -> str | None:
        if error.final:
            return f"refused: {error.reason}"
        if attempts >= self._max_attempts:
            return f"gave up after {attempts} tries: {error.reason}"
        age = self.clock.time() - raised_at
        if age >= self._give_up_after:
            return f"gave up after {age / 3600:.0f} h of tries: {error.reason}"
        return None

    def _retry_records(self) -> None:
        """Record, with backoff, the messages the channel took that the database could not mark sent."""
        for ids, (message_id, failures, retry_at) in list(self._unrecorded.items()):
            if self.clock.monotonic() < retry_at:
                continue
            try:
                self._store.deliveries.mark_sent(ids, message_id)
            except storage_errors() as error:  # the database is down: keep the send in memory, try the record later
                delay = self.backoff(failures + 1)
                self._unrecorded[ids] = (message_id, failures + 1, self.clock.monotonic() + delay)
                log.error(
                    "Alert delivery %s reached %s but could not be marked sent (%s); not sending it again, "
                    "retrying the record in %.1f s",
                    ",".join(map(str, ids)),
                    self.channel.label,
                    type(error).__name__,
                    delay,
                )
                continue
            del self._unrecorded[ids]
            log.info("Delivered %d alert(s) to %s%s", len(ids), self.channel.label, " as one message" * (len(ids) > 1))

    def _note_unreachable(self, error: ChannelError) -> None:
        """After sends have failed for network reasons for a while, say so once, with what to do."""
        now = self.clock.monotonic()
        if self._unreachable_since is None:
            self._unreachable_since = now
        elif not self._said_unreachable and now - self._unreachable_since >= self._unreachable_warning_after:
            self._said_unreachable = True
            log.warning(
                "%s has been unreachable for %.0f minute(s) (%s). Alerts are kept in the outbox and go out "
                "once it is reachable. %s, or run python app.py doctor to see what fails.",
                self.channel.label,
                (now - self._unreachable_since) / 60,
                error.reason,
                self.channel.unreachable_hint,
            )

    def _note_reachable(self) -> None:
        if self._said_unreachable:
            log.warning("%s is reachable again; the alerts that waited are going out now", self.channel.label)
        self._unreachable_since, self._said_unreachable = None, False


class Notifiers:
    """Wakes every channel's sender for a new alert; closes them all."""

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
