"""An end-to-end time limit for one visitor message.

The openai SDK bounds each HTTP read, not a whole answer: a stream that trickles a token a second, or
SDK retries after timeouts, can run far past any per-call timeout. :func:`run_until` runs the work on a
thread of its own and stops waiting for it at the deadline, so the visitor's worker is free again
whatever the provider does; the work is told to stop, and stops at its next chunk.
"""

from __future__ import annotations

import queue
import threading
import time
from typing import Callable, Iterator, TypeVar

T = TypeVar("T")
_DONE = object()


class DeadlineExceeded(Exception):
    """The deadline passed before the work finished."""


class Deadline:
    """A point in time ``seconds`` from now."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic):
        self.seconds = seconds
        self._clock = clock
        self.at = clock() + seconds

    def remaining(self) -> float:
        """Seconds left, never below zero."""
        return max(0.0, self.at - self._clock())

    @property
    def expired(self) -> bool:
        """True once the deadline has passed."""
        return self.remaining() <= 0


def run_until(deadline: Deadline, work: Callable[[threading.Event], Iterator[T]]) -> Iterator[T]:
    """Yield what ``work(stop)`` yields, until it ends or ``deadline`` passes.

    ``work`` runs on a daemon thread and should return soon after ``stop`` is set. Its exceptions are
    raised here. At the deadline (or when the caller stops iterating) ``stop`` is set and, at the
    deadline, :class:`DeadlineExceeded` is raised.
    """
    items: queue.Queue = queue.Queue()
    stop = threading.Event()

    def produce() -> None:
        try:
            for item in work(stop):
                items.put((item, None))
                if stop.is_set():
                    return
        except BaseException as error:  # handed to the consumer, which decides what the visitor sees
            items.put((None, error))
        finally:
            items.put((_DONE, None))

    threading.Thread(target=produce, name="reply-worker", daemon=True).start()
    try:
        while True:
            try:
                item, error = items.get(timeout=deadline.remaining())
            except queue.Empty:
                raise DeadlineExceeded() from None
            if error is not None:
                raise error
            if item is _DONE:
                return
            yield item
    finally:
        stop.set()
