"""The one background worker (replica/runtime/workers.py), on a clock the test moves: steps come at the waits
they ask for, a failing step is logged and backed off from (doubling, capped, with jitter) and the
worker goes on, a wake cuts a wait short, and close stops it."""

from __future__ import annotations

import logging

from replica.runtime.workers import Worker
from tests.fixtures.clock import START, HandClock


class Steps(Worker):
    """Steps at the times it is run; raises for each ``True`` in ``fail``, then waits ``every``."""

    name = "test-worker"

    def __init__(self, clock: HandClock, every: float = 60.0, fail=(), **options):
        super().__init__(clock=clock, **options)
        self.every, self.fail, self.times = every, list(fail), []

    def step(self) -> float:
        self.times.append(self.clock.time() - START)
        if self.fail and self.fail.pop(0):
            raise OSError("disk busy")
        return self.every


def test_each_step_comes_when_the_last_one_asked_and_a_wake_brings_the_next_at_once():
    clock = HandClock()
    worker = Steps(clock).start()
    try:
        clock.settle()
        clock.advance(59)
        clock.settle()
        assert worker.times == [0]
        clock.next()
        clock.settle()
        assert worker.times == [0, 60]
        worker.wake()  # a new alert: no need to wait the minute out
        clock.settle()
        assert worker.times == [0, 60, 60]
    finally:
        worker.close()


def test_a_failing_step_is_logged_and_backed_off_from_doubling_then_the_worker_goes_on(caplog):
    clock = HandClock()
    worker = Steps(clock, fail=[True, True, True, False], base_delay=10, max_delay=25)
    with caplog.at_level(logging.ERROR, logger="replica.runtime.workers"):
        worker.start()
        try:
            clock.run_until(lambda: len(worker.times) == 5)
        finally:
            worker.close()
    gaps = [later - earlier for earlier, later in zip(worker.times, worker.times[1:])]
    assert 10 <= gaps[0] <= 15 and 20 <= gaps[1] <= 30 and 25 <= gaps[2] <= 37.5  # 40 capped at 25
    assert gaps[3] == 60 and worker.failures == 0  # after a step that worked, the usual pace again
    assert [r.getMessage().split(";")[0] for r in caplog.records] == ["test-worker error (OSError)"] * 3


def test_the_backoff_doubles_up_to_its_ceiling_with_jitter_above_it_never_below():
    worker = Steps(HandClock(), base_delay=2, max_delay=300)
    for failures, least in [(1, 2), (2, 4), (5, 32), (9, 300), (50, 300)]:
        assert least <= worker.backoff(failures) <= least * 1.5


def test_close_stops_the_worker_in_its_wait_and_no_step_follows():
    clock = HandClock()
    worker = Steps(clock).start()
    clock.settle()
    worker.close()
    assert worker.stopping
    clock.advance(3600)
    assert worker.times == [0]
