"""The model lanes: at most N replies with the model, a short first-come line, and nobody kept waiting in
vain (replica/chat/lanes.py)."""

from concurrent.futures import ThreadPoolExecutor

from replica.chat.lanes import ASSUMED_HOLD_SECONDS, OTHERS_SECONDS, Hold, Lanes
from tests.fixtures.clock import HandClock
from tests.fixtures.environment import wait_until

LONG = 600.0  # a wait no test sits through: a lane given back ends it


def test_lanes_are_taken_at_once_until_all_are_held_and_one_given_back_is_free_again():
    lanes = Lanes(count=3, max_waiting=0, wait_seconds=LONG)
    taken = [lanes.take() for _ in range(3)]
    assert None not in taken
    assert lanes.take() is None  # nobody may wait: answered at once without a model
    lanes.give_back(taken[0])
    assert lanes.take() is not None


def test_a_waiting_reply_gets_the_lane_given_back_and_the_first_to_wait_is_first_served():
    lanes = Lanes(count=1, max_waiting=5, wait_seconds=LONG)
    held = lanes.take()
    with ThreadPoolExecutor(max_workers=2) as pool:
        first = pool.submit(lanes.take)
        assert wait_until(lambda: lanes.waiting == 1)
        second = pool.submit(lanes.take)
        assert wait_until(lambda: lanes.waiting == 2)
        lanes.give_back(held)
        assert first.result(timeout=30) is not None
        assert not second.done() and lanes.waiting == 1  # the later one still waits its turn
        lanes.give_back(first.result())
        assert second.result(timeout=30) is not None
    assert lanes.waiting == 0


def test_no_more_than_max_waiting_wait_and_the_next_is_answered_at_once():
    lanes = Lanes(count=1, max_waiting=2, wait_seconds=LONG)
    held = lanes.take()
    with ThreadPoolExecutor(max_workers=2) as pool:
        waiting = [pool.submit(lanes.take) for _ in range(2)]
        assert wait_until(lambda: lanes.waiting == 2)
        assert lanes.take() is None  # the third would wait past the line's places
        lanes.give_back(held)
        first = next(f for f in waiting if f.result(timeout=30) is not None)
        lanes.give_back(first.result())
        for future in waiting:
            assert future.result(timeout=30) is not None


def test_a_reply_waits_only_when_the_lanes_pace_brings_a_lane_within_the_wait():
    clock = HandClock()
    lanes = Lanes(count=3, max_waiting=64, wait_seconds=4.0, clock=clock)
    assert lanes.expected_wait() == 0  # a lane is free
    held = [lanes.take() for _ in range(3)]
    assert lanes.expected_wait() == ASSUMED_HOLD_SECONDS  # nothing timed yet: a small model's pace
    clock.advance(10)
    lanes.give_back(held.pop())
    held.append(lanes.take())
    assert lanes.expected_wait() == 10  # a reply holds its lane 10 s now: more than the 4 s wait
    with ThreadPoolExecutor(max_workers=1) as pool:
        assert pool.submit(lanes.take).result(timeout=30) is None  # answered at once, not after 4 s
    assert lanes.waiting == 0


def test_the_expected_wait_grows_with_the_line_a_lanes_worth_at_a_time():
    clock = HandClock()
    lanes = Lanes(count=2, max_waiting=64, wait_seconds=LONG, clock=clock)
    held = [lanes.take(), lanes.take()]
    clock.advance(1.5)
    lanes.give_back(held.pop())
    held.append(lanes.take())  # every lane held; replies take 1.5 s
    with ThreadPoolExecutor(max_workers=3) as pool:
        waits = []
        for line in range(3):
            waits.append(lanes.expected_wait())
            pool.submit(lanes.take)
            assert wait_until(lambda: lanes.waiting == line + 1)
        assert waits == [1.5, 1.5, 3.0]  # the first two in line share the next pair of lanes
        assert lanes.expected_wait() == 3.0 and lanes.waiting == 3
        for line in (2, 1, 0):
            lanes.give_back(Hold("", clock.monotonic()))  # a hold the test made: the lane comes free
            assert wait_until(lambda: lanes.waiting == line)


def test_a_wait_ends_after_wait_seconds_when_no_lane_comes():
    lanes = Lanes(count=1, max_waiting=5, wait_seconds=1.0)
    held = lanes.take()
    assert lanes.take() is None  # waited its 1 s, no lane came
    assert lanes.waiting == 0
    lanes.give_back(held)
    assert lanes.take() is not None


def test_a_waiting_message_of_an_address_holding_no_lane_is_served_first():
    lanes = Lanes(count=2, max_waiting=5, wait_seconds=LONG)
    greedy = [lanes.take("one-address"), lanes.take("one-address")]  # quick lanes: an address may take them all
    assert None not in greedy
    with ThreadPoolExecutor(max_workers=2) as pool:
        again = pool.submit(lanes.take, "one-address")
        assert wait_until(lambda: lanes.waiting == 1)
        newcomer = pool.submit(lanes.take, "another-address")
        assert wait_until(lambda: lanes.waiting == 2)
        lanes.give_back(greedy.pop())  # the freed lane goes to the one holding none, not to the first in line
        assert newcomer.result(timeout=30) is not None and not again.done()
        lanes.give_back(greedy.pop())
        assert again.result(timeout=30) is not None
    assert lanes.waiting == 0


def slow_lanes(clock: HandClock) -> Lanes:
    """Three lanes whose replies hold them 10 s, past the 4 s a newcomer would wait: nobody waits."""
    lanes = Lanes(count=3, max_waiting=64, wait_seconds=4.0, clock=clock)
    held = lanes.take()
    clock.advance(10)
    lanes.give_back(held)
    return lanes


def test_with_slow_lanes_an_address_holds_all_but_one_while_others_are_about_and_every_lane_when_alone():
    clock = HandClock()
    lanes = slow_lanes(clock)
    alone = [lanes.take("office") for _ in range(3)]  # every visitor as one address (a proxy, an office)
    assert None not in alone
    clock.advance(10)  # each reply held its lane 10 s: the lanes are as slow as ever
    for hold in alone:
        lanes.give_back(hold)
    elsewhere = lanes.take("someone-else")  # another address asked: it is about for ten minutes
    clock.advance(10)
    lanes.give_back(elsewhere)
    assert [lanes.take("office") is not None for _ in range(3)] == [True, True, False]  # the third: no model, at once
    newcomer = lanes.take("a-newcomer")
    assert newcomer is not None  # the lane kept free: the newcomer gets the model, not a quick reply
    lanes.give_back(newcomer)
    clock.advance(OTHERS_SECONDS + 1)
    assert lanes.take("office") is not None  # nobody else about any more: the last lane is the office's too
    single = Lanes(count=1, max_waiting=0, wait_seconds=LONG)
    single.give_back(single.take("someone-else"))
    assert single.take("office") is not None  # a single lane is anybody's
