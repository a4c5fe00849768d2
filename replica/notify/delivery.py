"""Getting stored alerts to the owner without the visitor ever waiting.

``OutboxSender`` is a background thread that delivers the store's pending alerts to Telegram, oldest
first, about one a second (Telegram's per-chat pace). It retries what may pass, for as long as it takes:
network errors, timeouts and 5xx with exponential backoff and jitter; a 429 no sooner than Telegram's
``retry_after``. A message Telegram cannot parse is resent as plain text; any other refusal (bad token,
unknown chat) marks the alert failed with the reason. An alert is marked sent only after Telegram
accepted it, so a crash in between may repeat one alert but never loses one.

``LogNotifier`` stands in when Telegram is not configured: the record is stored, and the alert is
written to the log.
"""

from __future__ import annotations

import logging
import random
import threading
import time

from replica.notify.alerts import Alert, to_telegram_html, to_telegram_plain
from replica.notify.telegram import TelegramClient, TelegramError
from replica.store import PendingAlert, Store

log = logging.getLogger(__name__)


class LogNotifier:
    """Writes alerts to the log: the app still works, and nothing is silently dropped."""

    def notify(self, alert: Alert) -> None:
        """Log ``alert`` in full."""
        log.warning(
            "Telegram is not configured (set TELEGRAM_BOT_TOKEN and TELEGRAM_CHAT_ID); alert for the owner:\n%s",
            alert.plain_text(),
        )


class OutboxSender:
    """Delivers the store's outbox to Telegram from a background thread. ``notify`` wakes it."""

    def __init__(
        self,
        store: Store,
        client: TelegramClient,
        min_interval: float = 1.0,
        base_delay: float = 1.0,
        max_delay: float = 300.0,
        idle_poll: float = 30.0,
    ):
        self._store = store
        self._client = client
        self._min_interval = min_interval
        self._base_delay = base_delay
        self._max_delay = max_delay
        self._idle_poll = idle_poll
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._last_send = float("-inf")
        self._thread = threading.Thread(target=self._run, name="telegram-outbox", daemon=True)

    def start(self) -> "OutboxSender":
        """Start delivering, beginning with whatever a previous run left pending."""
        self._thread.start()
        return self

    def notify(self, alert: Alert) -> None:
        """A new alert was stored: look at the outbox now rather than at the next poll."""
        self._wake.set()

    def close(self, timeout: float = 5.0) -> None:
        """Stop the thread; alerts still pending stay in the store for the next start."""
        self._stopping.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _sleep(self, seconds: float) -> None:
        self._wake.wait(seconds)
        self._wake.clear()

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                pending = self._store.next_alert()
                if pending is None:
                    self._sleep(self._idle_poll)
                    continue
                wait = max(pending.due_at - time.time(), self._last_send + self._min_interval - time.monotonic())
                if wait > 0:
                    self._sleep(wait)
                    continue
                self._deliver(pending)
            except Exception:  # the sender must outlive any one bad row or database hiccup
                log.exception("Outbox sender error; retrying shortly")
                self._sleep(self._base_delay)

    def _send(self, alert: Alert) -> int:
        self._last_send = time.monotonic()
        try:
            return self._client.send_message(to_telegram_html(alert), parse_mode="HTML")
        except TelegramError as error:
            if not error.is_parse_error:
                raise
            log.warning("Telegram could not parse a %s alert (%s); resending as plain text", alert.kind, error)
            return self._client.send_message(to_telegram_plain(alert), parse_mode=None)

    def _deliver(self, pending: PendingAlert) -> None:
        try:
            message_id = self._send(pending.alert)
        except TelegramError as error:
            if not error.is_retryable:
                self._store.mark_failed(pending.id, str(error))
                log.error(
                    "Telegram refused a %s alert (%s); marked failed:\n%s",
                    pending.alert.kind,
                    error,
                    pending.alert.plain_text(),
                )
                return
            delay = self._retry_delay(pending.attempts, error)
            self._store.reschedule(pending.id, time.time() + delay, str(error))
            log.warning("Telegram send failed (%s); retrying alert %d in %.1f s", error, pending.id, delay)
            return
        self._store.mark_sent(pending.id, message_id)
        log.info("Delivered %s alert %d to Telegram", pending.alert.kind, pending.id)

    def _retry_delay(self, attempts: int, error: TelegramError) -> float:
        if error.retry_after is not None:
            return float(error.retry_after)  # Telegram's own instruction; never sooner
        backoff = min(self._max_delay, self._base_delay * 2 ** min(attempts, 20))
        return backoff * random.uniform(1.0, 1.5)  # jitter, so many instances don't retry in lockstep
