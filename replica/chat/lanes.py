"""The model lanes: how many replies talk to the model at once, and who may wait for one.

At most ``count`` replies hold a lane (the design's queue concurrency). A message that finds every lane
taken waits, first come first served, only while a lane can be expected within ``wait_seconds``: the
time the replies ahead of it would take at the pace the lanes have kept lately, and never past
``wait_seconds`` itself nor more than ``max_waiting`` at once. Any other message is answered at once
without a model (a spike: :mod:`replica.chat.answer`), so a crowd never stands in a line that refuses.
"""

from __future__ import annotations

import math
import statistics
import threading
import time
from collections import deque
from typing import Callable

RECENT = 16  # lane holds the pace is read from
ASSUMED_HOLD_SECONDS = 2.0  # a small model's reply, until the lanes have timed some of their own


class Lanes:
    """``count`` model lanes; see the module's text. ``clock`` times each hold (injected in tests)."""

    def __init__(self, count: int, max_waiting: int, wait_seconds: float, clock: Callable[[], float] = time.monotonic):
        self.count = count
        self.max_waiting = max_waiting
        self.wait_seconds = wait_seconds
        self._clock = clock
        self._changed = threading.Condition()
        self._held = 0
        self._line: deque[object] = deque()  # the waiting messages' tickets, first come first
        self._holds: deque[float] = deque(maxlen=RECENT)

    def take(self) -> float | None:
        """A lane for one reply: the time it was taken (for :meth:`give_back`), or ``None`` when none
        is expected within the wait, or none came in it."""
        with self._changed:
            if self._held < self.count and not self._line:
                return self._hold()
            if not self._worth_waiting():
                return None
            ticket = object()
            self._line.append(ticket)
            try:
                free = self._changed.wait_for(
                    lambda: self._held < self.count and self._line[0] is ticket, self.wait_seconds
                )
                return self._hold() if free else None
            finally:
                self._line.remove(ticket)
                self._changed.notify_all()  # the next in line may be at the front now

    def give_back(self, taken: float) -> None:
        """The reply that took its lane at ``taken`` is done with it."""
        with self._changed:
            self._held -= 1
            self._holds.append(self._clock() - taken)
            self._changed.notify_all()

    @property
    def waiting(self) -> int:
        """Messages waiting for a lane now."""
        with self._changed:
            return len(self._line)

    def expected_wait(self) -> float:
        """Seconds a message arriving now would wait for a lane, at the lanes' recent pace."""
        with self._changed:
            return self._expected_wait()

    def _hold(self) -> float:
        self._held += 1
        return self._clock()

    def _worth_waiting(self) -> bool:
        return len(self._line) < self.max_waiting and self._expected_wait() <= self.wait_seconds

    def _expected_wait(self) -> float:
        if self._held < self.count and not self._line:
            return 0.0
        pace = statistics.median(self._holds) if self._holds else ASSUMED_HOLD_SECONDS
        return math.ceil((len(self._line) + 1) / self.count) * pace
