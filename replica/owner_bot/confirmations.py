"""The owner hears, a moment later, whether the visitor's page showed their words.

``/say`` (or a reply to an alert) answers at once; this worker then watches the message and, once the
page has shown it, says so. Nothing waits on the thread that handles the owner's updates.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from replica.inbox import PageChannel
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.runtime.timings import Timings
from replica.runtime.workers import Worker
from replica.telegram.client import TelegramClient, TelegramError

log = logging.getLogger(__name__)

DELIVERED = "✓ Delivered to conversation #{number}: the visitor's page shows your words."
NOT_SHOWN = (
    "Your words are saved in conversation #{number}, but the visitor's page has not shown them: it may have "
    "been closed. It shows them if that browser opens the page again, and the replica takes them into "
    "account if they write again."
)


@dataclass
class _Watched:
    message_id: int
    number: int
    until: float


class Confirmations(Worker):
    """Watches the owner's words until the page shows them (or ``wait_seconds`` pass), then tells the owner."""

    name = "owner-confirmations"

    def __init__(
        self,
        page: PageChannel,
        client: TelegramClient,
        wait_seconds: float = Timings.owner_words_shown,
        every: float = 0.2,
        clock: Clock = REAL_CLOCK,
    ):
        super().__init__(clock=clock)
        self._page = page
        self._client = client
        self._wait_seconds = wait_seconds
        self._every = every
        self._watched: list[_Watched] = []

    def watch(self, message_id: int, number: int) -> None:
        """Confirm message ``message_id`` of conversation ``number`` once the page shows it."""
        self._watched.append(_Watched(message_id, number, self.clock.monotonic() + self._wait_seconds))
        self.wake()

    def step(self) -> float:
        for watched in list(self._watched):
            shown = self._page.was_shown(watched.message_id)
            if shown or self.clock.monotonic() >= watched.until:
                self._watched.remove(watched)
                self._tell((DELIVERED if shown else NOT_SHOWN).format(number=watched.number))
        return self._every if self._watched else 3600.0

    def _tell(self, text: str) -> None:
        try:
            self._client.send_message(text, parse_mode=None)
        except TelegramError as error:
            log.warning("Could not tell the owner whether their words were shown: %s", error)
