"""The end-to-end time limit of one visitor message (replica/chat/deadline.py): the work's items come
through until it ends, its errors are raised to the caller, and at the deadline the caller is freed and
the work told to stop, however the work behaves."""

from __future__ import annotations

import threading

import pytest

from replica.chat.deadline import Deadline, DeadlineExceeded, run_until


class HandClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_deadline_counts_down_on_its_clock_and_never_below_zero():
    clock = HandClock()
    deadline = Deadline(30, clock)
    assert (deadline.remaining(), deadline.expired) == (30, False)
    clock.now += 29.5
    assert (deadline.remaining(), deadline.expired) == (0.5, False)
    clock.now += 10
    assert (deadline.remaining(), deadline.expired) == (0.0, True)


def test_work_that_finishes_in_time_gives_every_item_in_order():
    assert list(run_until(Deadline(30), lambda stop: iter(["Hel", "lo", "!"]))) == ["Hel", "lo", "!"]


def test_the_works_error_reaches_the_caller_after_what_it_gave():
    def work(stop):
        yield "partial"
        raise ConnectionError("stream cut")

    got = []
    with pytest.raises(ConnectionError, match="stream cut"):
        for item in run_until(Deadline(30), work):
            got.append(item)
    assert got == ["partial"]


def test_at_the_deadline_the_caller_is_freed_with_what_came_and_the_work_is_told_to_stop():
    told = threading.Event()

    def endless(stop):
        yield "Still thinking."
        stop.wait()  # a provider that never answers: it waits until told to stop
        told.set()

    got = []
    with pytest.raises(DeadlineExceeded):
        for item in run_until(Deadline(0.05), endless):
            got.append(item)
    assert got == ["Still thinking."]
    assert told.wait(5)


def test_a_caller_that_stops_reading_stops_the_work():
    stopped = threading.Event()

    def work(stop):
        yield "first"
        stop.wait()
        stopped.set()
        yield "never read"

    reading = run_until(Deadline(30), work)
    assert next(reading) == "first"
    reading.close()  # the visitor pressed stop
    assert stopped.wait(5)
