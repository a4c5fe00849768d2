"""The log's own helpers: a flood of the same warning costs a line a minute."""

import logging

from replica.logs import EveryMinute


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_flood_is_one_line_a_minute_and_the_next_line_counts_what_it_held_back(caplog):
    clock = Clock()
    refused = EveryMinute(logging.getLogger("flood"), "Refused %d request(s)", clock=clock)
    with caplog.at_level(logging.WARNING, logger="flood"):
        for _ in range(300):
            refused()
            clock.now += 0.1  # 300 in 30 seconds
        assert [r.getMessage() for r in caplog.records] == ["Refused 1 request(s)"]
        clock.now += 30.0  # a minute after the first line
        refused()
    assert [r.getMessage() for r in caplog.records] == ["Refused 1 request(s)", "Refused 300 request(s)"]
