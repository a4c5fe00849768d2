"""The end-to-end time limit of one visitor message (replica/chat/deadline.py): the work's items come
through until it ends, its errors are raised to the caller, and at the deadline the caller is freed and
the work told to stop, however the work behaves. The deadlines are on the hand clock
(``tests/fixtures/clock.py``): none is waited out."""

from __future__ import annotations

import threading

import pytest

from replica.chat.deadline import Deadline, DeadlineExceeded, run_until
from tests.fixtures.clock import START, HandClock


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
    clock, told = HandClock(), threading.Event()

    def endless(stop):
        yield "Still thinking."
        clock.advance(29)  # a provider that never answers: the caller waits on, 29 s later
        yield "Still thinking, a little more."
        clock.advance(1)  # and 30 s after it began, the caller is freed
        stop.wait()  # the provider waits until told to stop
        told.set()

    got = []
    with pytest.raises(DeadlineExceeded):
        for item in run_until(Deadline(30, clock), endless):
            got.append(item)
    assert got == ["Still thinking.", "Still thinking, a little more."] and clock.now == START + 30
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
