"""Getting stored alerts to the owner without the visitor ever waiting.

``OutboxSender`` is a background thread that delivers the store's pending alerts to Telegram, oldest
first, about one a second (Telegram's per-chat pace). It retries what may pass, for as long as it takes:
network errors, timeouts and 5xx with exponential backoff and jitter; a 429 no sooner than Telegram's
``retry_after``. A message Telegram cannot parse, or finds too long, is resent as plain text (shorter);
any other refusal (bad token, unknown chat) marks the alert failed with the reason. An alert is marked
sent only after Telegram accepted it, so a crash in between may repeat one alert but never loses one;
when the database cannot record the send, the sender remembers it and retries the record, with
backoff, instead of sending the alert again. Whatever goes wrong, the thread logs it and carries on.
When more leads (or questions) than ``fold_after`` wait at once, they go as one message that lists
them, so a crowd of visitors is a few pings, not one a second.

``LogNotifier`` stands in when Telegram is not configured: the record is stored, and the alert is
written to the log.
"""

from __future__ import annotations

import logging
import time

from replica.alerts.alert import Alert
from replica.alerts.render import FOLD_HINT, fold, keyboard_for, to_plain, to_telegram_html
from replica.settings import default
from replica.storage import PendingAlert, Store
from replica.telegram.client import BLOCKED_HINT, TelegramClient, TelegramError
from replica.telegram.length import TELEGRAM_LIMIT
from replica.workers import Worker

log = logging.getLogger(__name__)

FOLDED_KINDS = ("lead", "question")
MAX_FOLD = 200  # alerts looked at for one folded message; the rest go in the next


class LogNotifier:
    """Writes alerts to the log: the app still works, and nothing is silently dropped."""

    def notify(self, alert: Alert) -> None:
        """Log ``alert`` in full."""
        log.warning(
            "Telegram is not configured (set TELEGRAM_BOT_TOKEN and TELEGRAM_CHAT_ID); alert for the owner: %s",
            alert.log_text(),
        )


class OutboxSender(Worker):
    """Delivers the store's outbox to Telegram from a background worker. ``notify`` wakes it."""

    name = "telegram-outbox"

    def __init__(
        self,
        store: Store,
        client: TelegramClient,
        min_interval: float = 1.0,
        base_delay: float = 1.0,
        max_delay: float = 300.0,
        idle_poll: float = 30.0,
        unreachable_warning_after: float = 300.0,
        fold_after: int = default("alert_fold_after"),
    ):
        super().__init__(base_delay=base_delay, max_delay=max_delay)
        self._fold_after = fold_after
        self._store = store
        self._client = client
        self._min_interval = min_interval
        self._idle_poll = idle_poll
        self._unreachable_warning_after = unreachable_warning_after
        self._unreachable_since: float | None = None  # first of an unbroken run of network failures
        self._said_unreachable = False
        # Alerts Telegram accepted that the database could not yet mark sent: alert id -> (Telegram message
        # id, None for a fold, failed tries to record it, monotonic time of the next try).
        self._unrecorded: dict[int, tuple[int | None, int, float]] = {}

    def notify(self, alert: Alert) -> None:
        """A new alert was stored: look at the outbox now rather than at the next poll."""
        self.wake()

    def failed(self, error: Exception, delay: float) -> None:
        log.error("Outbox sender error (%s); retrying in %.1f s", type(error).__name__, delay, exc_info=True)

    def step(self) -> float:
        """Deliver the next alert that is due, or say how long until one may be."""
        self._retry_records()
        # An alert Telegram accepted but the database has not recorded is never sent again, even once
        # its lease runs out: it is left out until its record is written.
        waiting = self._store.outbox.waiting(MAX_FOLD, skip=self._unrecorded.keys())
        pending = waiting[0] if waiting else None
        wait = self._idle_poll if pending is None else pending.due_at - time.time()
        if self._unrecorded:
            wait = min(wait, min(retry_at for _, _, retry_at in self._unrecorded.values()) - time.monotonic())
        if pending is None or wait > 0:
            return max(wait, 0.01)
        batch = self._fold_of(waiting)
        # The lease makes the alerts this instance's alone; the pace is shared by every instance.
        wait, taken = self._store.outbox.claim_all([p.id for p in batch], self._min_interval)
        batch = [p for p in batch if p.id in taken]
        if wait > 0 or not batch:
            return wait
        if len(batch) > 1:
            self._deliver_fold(batch)
        else:
            self._deliver(batch[0])
        return 0.0

    def _fold_of(self, waiting: list[PendingAlert]) -> list[PendingAlert]:
        """What goes in the next message: the oldest alert alone, or, when more leads or questions than
        ``fold_after`` wait, all of them in one. Forwarded visitor messages and digests go one by one: the
        owner replies to each."""
        first = waiting[0]
        same = [p for p in waiting if p.kind == first.kind and p.due_at <= time.time()]
        return same if first.kind in FOLDED_KINDS and len(same) > self._fold_after else [first]

    def _send(self, alert: Alert) -> int:
        try:
            return self._client.send_message(
                to_telegram_html(alert), parse_mode="HTML", reply_markup=keyboard_for(alert)
            )
        except TelegramError as error:
            if error.is_parse_error:
                limit = TELEGRAM_LIMIT
            elif error.is_too_long:
                limit = TELEGRAM_LIMIT // 2  # Telegram measured it differently: leave a wide margin
            else:
                raise
            log.warning("Telegram refused a %s alert (%s); resending as plain text", alert.kind, error)
            return self._client.send_message(to_plain(alert, limit), parse_mode=None, reply_markup=keyboard_for(alert))

    def _deliver(self, pending: PendingAlert) -> None:
        alert = Alert.from_pending(pending)
        try:
            message_id = self._send(alert)
        except TelegramError as error:
            self._failed_send(pending, alert, error)
            return
        self._note_reachable()
        # Telegram has it: from here on, never send it again, even if the database cannot say so yet.
        self._unrecorded[pending.id] = (message_id, 0, 0.0)
        self._retry_records()

    def _failed_send(self, pending: PendingAlert, alert: Alert, error: TelegramError) -> None:
        """A refusal marks the alert failed (with the reason, and the alert in the log); anything that
        may pass is tried again later, no sooner than Telegram asks."""
        if not error.is_retryable:
            self._store.outbox.mark_failed(pending.id, str(error))
            log.error("Telegram refused a %s alert (%s); marked failed: %s", alert.kind, error, alert.log_text())
            return
        if error.is_network:
            self._note_unreachable(error)
        delay = self._retry_delay(pending.attempts, error)
        self._store.outbox.reschedule(pending.id, time.time() + delay, str(error))
        log.warning("Telegram send failed (%s); retrying alert %d in %.1f s", error, pending.id, delay)

    def _deliver_fold(self, batch: list[PendingAlert]) -> None:
        """Several alerts as one message, without buttons (replies to it teach nothing: the owner uses
        the commands its last line names)."""
        alerts = [(p.ref, Alert.from_pending(p)) for p in batch]
        try:
            try:
                title, body = fold(alerts, TELEGRAM_LIMIT, as_html=True)
                self._client.send_message(f"<b>{title}</b>\n{body}\n{FOLD_HINT}", parse_mode="HTML")
            except TelegramError as error:
                if not (error.is_parse_error or error.is_too_long):
                    raise
                title, body = fold(alerts, TELEGRAM_LIMIT // 2)
                self._client.send_message(f"{title}\n{body}\n{FOLD_HINT}", parse_mode=None)
        except TelegramError as error:
            for pending, (_, alert) in zip(batch, alerts):
                self._failed_send(pending, alert, error)
            return
        self._note_reachable()
        for p in batch:
            self._unrecorded[p.id] = (None, 0, 0.0)
        self._retry_records()

    def _retry_records(self) -> None:
        """Record, with backoff, the alerts Telegram accepted that the database could not mark sent."""
        for alert_id, (message_id, failures, retry_at) in list(self._unrecorded.items()):
            if time.monotonic() < retry_at:
                continue
            try:
                self._store.outbox.mark_sent(alert_id, message_id)
            except Exception as error:
                delay = self.backoff(failures + 1)
                self._unrecorded[alert_id] = (message_id, failures + 1, time.monotonic() + delay)
                log.error(
                    "Alert %d reached Telegram but could not be marked sent (%s); not sending it again, "
                    "retrying the record in %.1f s",
                    alert_id,
                    type(error).__name__,
                    delay,
                )
                continue
            del self._unrecorded[alert_id]
            log.info("Delivered alert %d to Telegram", alert_id)

    def _note_unreachable(self, error: TelegramError) -> None:
        """After sends have failed for network reasons for a while, say so once, with what to do."""
        now = time.monotonic()
        if self._unreachable_since is None:
            self._unreachable_since = now
        elif not self._said_unreachable and now - self._unreachable_since >= self._unreachable_warning_after:
            self._said_unreachable = True
            log.warning(
                "Telegram has been unreachable for %.0f minute(s) (%s). Alerts are kept in the outbox and go out "
                "once it is reachable. %s, or run python app.py doctor to see what fails.",
                (now - self._unreachable_since) / 60,
                error,
                BLOCKED_HINT,
            )

    def _note_reachable(self) -> None:
        if self._said_unreachable:
            log.warning("Telegram is reachable again; the alerts that waited are going out now")
        self._unreachable_since, self._said_unreachable = None, False

    def _retry_delay(self, attempts: int, error: TelegramError) -> float:
        if error.retry_after is not None:
            return float(error.retry_after)  # Telegram's own instruction; never sooner
        return self.backoff(attempts + 1)  # jitter, so many instances don't retry in lockstep
