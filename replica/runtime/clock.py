"""The clock: the one way the app reads the time and waits, so that a test hands every part a clock it
moves (``tests/fixtures/clock.py``) instead of waiting out real seconds and allowing for a busy machine.

Nothing else in ``replica/`` reads the time (``tests/test_structure.py`` holds it): a part that needs it
takes a :class:`Clock`, :data:`REAL_CLOCK` unless the wiring or a test hands it another.
"""

from __future__ import annotations

import threading
import time
from datetime import date, datetime, timezone


class Clock:
    """The real time, and waiting on it. A part takes one so that a test can hand it a clock the test
    moves, instead of waiting out real seconds and allowing for a busy machine."""

    def time(self) -> float:
        """Seconds since the epoch: the times kept in the database, which every instance compares."""
        return time.time()

    def monotonic(self) -> float:
        """Seconds that only go forward: for intervals within this process (the wall clock may be set back)."""
        return time.monotonic()

    def utc_now(self) -> datetime:
        """:meth:`time` as an aware datetime in UTC (the hour the digest goes, the weekday of its picture)."""
        return datetime.fromtimestamp(self.time(), timezone.utc)

    def utc_today(self) -> date:
        """The UTC day of :meth:`time`: the day the app counts by (the daily budget, the figures, ``/stats``)."""
        return self.utc_now().date()

    def wait(self, event: threading.Event, seconds: float) -> None:
        """Wait ``seconds``, or until ``event`` is set, whichever comes first."""
        event.wait(max(seconds, 0.0))


REAL_CLOCK = Clock()
