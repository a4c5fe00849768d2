"""An end-to-end time limit for one visitor message.

The openai SDK bounds each HTTP read, not a whole answer: a stream that trickles a token a second, or
SDK retries after timeouts, can run far past any per-call timeout. :func:`run_until` runs the work on a
thread of its own and stops waiting for it at the deadline, so the visitor's worker is free again
whatever the provider does; the work is told to stop, and stops at its next chunk.
"""

from __future__ import annotations

import queue
import threading
from typing import Callable, Iterator, TypeVar

from replica.runtime.clock import REAL_CLOCK, Clock

T = TypeVar("T")
_DONE = object()


class DeadlineExceeded(Exception):
    """The deadline passed before the work finished."""


class Deadline:
    """A point in time ``seconds`` from now, on ``clock``."""

    def __init__(self, seconds: float, clock: Clock = REAL_CLOCK):
        self.seconds = seconds
        self.clock = clock
        self.at = clock.monotonic() + seconds

    def remaining(self) -> float:
        """Seconds left, never below zero."""
        return max(0.0, self.at - self.clock.monotonic())

    @property
    def expired(self) -> bool:
        """True once the deadline has passed."""
        return self.remaining() <= 0


def run_until(deadline: Deadline, work: Callable[[threading.Event], Iterator[T]]) -> Iterator[T]:
    """Yield what ``work(stop)`` yields, until it ends or ``deadline`` passes.

    ``work`` runs on a daemon thread and should return soon after ``stop`` is set. Its exceptions are
    raised here. At the deadline (or when the caller stops iterating) ``stop`` is set and, at the
    deadline, :class:`DeadlineExceeded` is raised. The wait for the next item is on the deadline's clock.
    """
    items: queue.Queue = queue.Queue()
    stop = threading.Event()
    arrived = threading.Event()  # set with each item put: ends the consumer's wait on the clock

    def put(entry: tuple) -> None:
        items.put(entry)
        arrived.set()

    def produce() -> None:
        try:
            for item in work(stop):
                put((item, None))
                if stop.is_set():
                    return
        except BaseException as error:  # handed to the consumer, which decides what the visitor sees
            put((None, error))
        finally:
            put((_DONE, None))

    threading.Thread(target=produce, name="reply-worker", daemon=True).start()
    try:
        while True:
            arrived.clear()  # before looking: an item put from here on sets it again
            try:
                item, error = items.get_nowait()
            except queue.Empty:
                if deadline.expired:
                    raise DeadlineExceeded() from None
                deadline.clock.wait(arrived, deadline.remaining())
                continue
            if error is not None:
                raise error
            if item is _DONE:
                return
            yield item
    finally:
        stop.set()
