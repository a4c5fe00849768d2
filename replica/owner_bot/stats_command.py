"""``/stats [N]``: the picture of the last N days (7 by default) with its totals as the caption, then the
period's open questions, the most asked first, each with an Answer button."""

from __future__ import annotations

import logging

from replica.alerts.telegram_channel import send_picture
from replica.owner_bot.listing_text import NUMBER
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.stats.period import MAX_DAYS
from replica.stats.report import Report
from replica.storage import Store
from replica.telegram.client import TelegramClient

log = logging.getLogger(__name__)
DEFAULT_DAYS = 7
USAGE = f"Use /stats for the last {DEFAULT_DAYS} days, or /stats N for the last N days (1 to {MAX_DAYS})."


class StatsCommand:
    """Sends the owner the period's picture and open questions through ``client``, up to ``clock``'s UTC day."""

    def __init__(self, store: Store, client: TelegramClient, report: Report, clock: Clock = REAL_CLOCK):
        self._store = store
        self._client = client
        self._report = report
        self._clock = clock

    def send(self, argument: str) -> str:
        """``/stats [N]``: the picture and the questions are sent here; what is returned is only for a
        wrong N (the dispatcher sends nothing for an empty answer)."""
        argument = argument.strip()
        if argument and not (NUMBER.fullmatch(argument) and 1 <= int(argument) <= MAX_DAYS):
            return USAGE
        days = int(argument) if argument else DEFAULT_DAYS
        send_picture(self._client, self._report.draw(self._store, self._clock.utc_today(), days))
        log.info("Sent the owner the picture of the last %d day(s)", days)
        return ""
