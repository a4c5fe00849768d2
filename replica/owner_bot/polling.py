"""The owner's bot by long polling ``getUpdates``; the offset is stored, so nothing is handled twice
across restarts."""

from __future__ import annotations

import logging
from typing import Callable

from replica.runtime.clock import REAL_CLOCK, Clock
from replica.runtime.timings import Timings
from replica.runtime.workers import Worker
from replica.storage import Store
from replica.telegram.client import TelegramClient, TelegramError
from replica.telegram.updates import Update, parse_update

log = logging.getLogger(__name__)

OFFSET_KEY = "telegram_update_offset"


class Polling(Worker):
    """Fetches the owner's updates and hands each to ``handle``; survives any answer, update or database hiccup."""

    name = "telegram-owner-bot"

    def __init__(
        self,
        store: Store,
        client: TelegramClient,
        handle: Callable[[Update], None],
        poll_seconds: float,  # the bot's: the defaults are Timings', written there once
        base_delay: float,
        clock: Clock = REAL_CLOCK,
    ):
        super().__init__(base_delay=base_delay, max_delay=Timings.retry_ceiling, clock=clock)
        self._store = store
        self._client = client
        self._handle = handle
        self._poll_seconds = poll_seconds
        self._offset: int | None = None  # the next update wanted; kept here too, should the database fail

    def step(self) -> float:
        """Fetch the next updates and handle each."""
        if self._offset is None:
            stored = self._store.state.get(OFFSET_KEY)
            self._offset = int(stored) if stored and stored.isdigit() else 0
        for raw in self._client.get_updates(self._offset or None, self._poll_seconds):
            if self.stopping:
                break
            update = parse_update(raw)  # the one place polled updates are read
            if update is None:
                log.warning("Skipping a Telegram update without a usable update_id")
                continue
            update_id = update.update_id
            if update_id < self._offset:
                continue  # already handled
            try:
                self._handle(update)
            except Exception as error:  # one bad update must not stop the bot, nor be retried forever
                log.error("Could not handle Telegram update %d (%s)", update_id, type(error).__name__, exc_info=True)
            self._offset = update_id + 1
            self._store.state.set(OFFSET_KEY, str(self._offset))
        return 0.0

    def failed(self, error: Exception, delay: float) -> None:
        if isinstance(error, TelegramError) and error.status == 409:
            log.error(
                "Telegram says another getUpdates poller or a webhook holds this bot (409); backing off "
                "(docs/inbox.md says what to do)"
            )
        elif isinstance(error, TelegramError):
            log.warning("Polling Telegram failed (%s); backing off", error)
        else:
            log.error("Owner bot error (%s); backing off", type(error).__name__, exc_info=True)
