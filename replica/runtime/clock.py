"""The clock: the one way the app reads the time and waits, so that a test hands every part a clock it
moves (``tests/fixtures/clock.py``) instead of waiting out real seconds and allowing for a busy machine.
"""

from __future__ import annotations

import threading
import time


class Clock:
    """The real time, and waiting on it. A worker takes one so that a test can hand it a clock the test
    moves, instead of waiting out real seconds and allowing for a busy machine."""

    def time(self) -> float:
        """Seconds since the epoch: the times kept in the database, which every instance compares."""
        return time.time()

    def monotonic(self) -> float:
        """Seconds that only go forward: for intervals within this process (the wall clock may be set back)."""
        return time.monotonic()

    def wait(self, event: threading.Event, seconds: float) -> None:
        """Wait ``seconds``, or until ``event`` is set, whichever comes first."""
        event.wait(max(seconds, 0.0))


REAL_CLOCK = Clock()
