"""One kind of background worker: a thread, a stop event, backoff on errors, and ``close()``.

The outbox sender, the owner bot's transports, the webhook's update handler, the confirmations of the
owner's words and the housekeeper are each a :class:`Worker`: they say what one step is, and how long
to wait before the next. Whatever a step raises is logged and backed off from; the worker goes on.

A worker reads the time and waits on a :class:`Clock`: the real one in the app; in a test, one the test
moves (``tests/fixtures/clock.py``), so a minute's pace or a day's give-up is shown in no time at all.
"""

from __future__ import annotations

import logging
import random
import threading
from typing import TypeVar

from replica.runtime.clock import REAL_CLOCK, Clock
from replica.runtime.timings import Timings

log = logging.getLogger(__name__)
W = TypeVar("W", bound="Worker")  # typing.Self is Python 3.11+, and 3.10 is supported


class Worker:
    """Runs :meth:`step` on a daemon thread until :meth:`close`.

    ``step()`` returns the seconds to wait before the next step (0 for at once); :meth:`wake` cuts a wait
    short. An exception in a step is passed to :meth:`failed` (which logs it) and the next step comes
    after a backoff that doubles with each failure in a row, from ``base_delay`` up to ``max_delay``,
    with jitter so that several instances do not retry in lockstep. Waits are on ``clock``.
    """

    name = "worker"

    def __init__(
        self,
        base_delay: float = Timings.retry_base,
        max_delay: float = Timings.retry_ceiling,
        clock: Clock = REAL_CLOCK,
    ):
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.clock = clock
        self.failures = 0  # failed steps in a row
        self._stopping = threading.Event()
        self._wake = threading.Event()
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)

    def step(self) -> float:
        """Do one piece of work; return the seconds to wait before the next."""
        raise NotImplementedError

    def failed(self, error: Exception, delay: float) -> None:
        """A step raised ``error``; the next comes in ``delay`` seconds. Logs it; override to say more."""
        log.error("%s error (%s); retrying in %.1f s", self.name, type(error).__name__, delay, exc_info=True)

    def start(self: W) -> W:
        """Start the thread."""
        self._thread.start()
        return self

    def wake(self) -> None:
        """Cut the current wait short."""
        self._wake.set()

    def close(self, timeout: float = 5.0) -> None:
        """Stop: the step under way finishes (or is abandoned after ``timeout``), no other starts."""
        self._stopping.set()
        self._wake.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    @property
    def stopping(self) -> bool:
        """True once :meth:`close` was called."""
        return self._stopping.is_set()

    def wait(self, seconds: float) -> None:
        """Wait ``seconds`` on the worker's clock, or until woken or closed."""
        self.clock.wait(self._wake, seconds)
        self._wake.clear()

    def backoff(self, failures: int) -> float:
        """The wait after ``failures`` failures in a row: doubling, capped, with jitter."""
        return min(self.max_delay, self.base_delay * 2 ** min(failures - 1, 20)) * random.uniform(1.0, 1.5)

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                delay = self.step()
                self.failures = 0
            except Exception as error:  # a worker must outlive any bad row, answer or database hiccup
                self.failures += 1
                delay = self.backoff(self.failures)
                self.failed(error, delay)
            if delay and not self._stopping.is_set():
                self.wait(delay)
