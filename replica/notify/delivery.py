"""Getting alerts to the owner without the visitor ever waiting.

``TelegramNotifier`` hands each alert to a worker thread that sends it, retrying what may pass
(network errors, 5xx, 429 after ``retry_after``) and falling back to plain text when Telegram
cannot parse the HTML. ``LogNotifier`` stands in when Telegram is not configured.
"""

from __future__ import annotations

import logging
import queue
import threading

from replica.notify.alerts import Alert, to_telegram_html, to_telegram_plain
from replica.notify.telegram import TelegramClient, TelegramError

log = logging.getLogger(__name__)


class LogNotifier:
    """Writes alerts to the log: the app still works, and nothing is silently dropped."""

    def notify(self, alert: Alert) -> None:
        """Log ``alert`` in full."""
        log.warning(
            "Telegram is not configured (set TELEGRAM_BOT_TOKEN and TELEGRAM_CHAT_ID); alert for the owner:\n%s",
            alert.plain_text(),
        )


class TelegramNotifier:
    """Sends alerts to Telegram from a background thread, in the order they were raised."""

    def __init__(self, client: TelegramClient, max_attempts: int = 4, base_delay: float = 1.0):
        self._client = client
        self._max_attempts = max_attempts
        self._base_delay = base_delay
        self._queue: queue.Queue[Alert | None] = queue.Queue()
        self._stopping = threading.Event()
        self._worker = threading.Thread(target=self._run, name="telegram-alerts", daemon=True)
        self._worker.start()

    def notify(self, alert: Alert) -> None:
        """Queue ``alert`` for delivery and return at once."""
        self._queue.put(alert)

    def close(self, timeout: float = 5.0) -> None:
        """Stop after the alerts already queued have been tried (waiting at most ``timeout`` seconds)."""
        self._queue.put(None)
        self._worker.join(timeout)
        self._stopping.set()

    def _run(self) -> None:
        while (alert := self._queue.get()) is not None:
            try:
                self._deliver(alert)
            except Exception:  # the worker must outlive any one alert
                log.exception("Unexpected error delivering a %s alert:\n%s", alert.kind, alert.plain_text())

    def _deliver(self, alert: Alert) -> None:
        text, parse_mode = to_telegram_html(alert), "HTML"
        attempt = 0
        while True:
            attempt += 1
            try:
                self._client.send_message(text, parse_mode=parse_mode)
                log.info("Delivered a %s alert to Telegram", alert.kind)
                return
            except TelegramError as exc:
                error = exc
            if error.is_parse_error and parse_mode:
                log.warning("Telegram could not parse the alert (%s); resending as plain text", error)
                text, parse_mode = to_telegram_plain(alert), None
                continue
            if not error.is_retryable or attempt >= self._max_attempts:
                break
            delay = error.retry_after if error.retry_after is not None else self._base_delay * 2 ** (attempt - 1)
            log.warning("Telegram send failed (%s); retrying in %.1f s", error, delay)
            if self._stopping.wait(delay):
                break
        # Keep the lead in the log, so the owner can still find it.
        log.error("Could not deliver a %s alert to Telegram (%s):\n%s", alert.kind, error, alert.plain_text())
