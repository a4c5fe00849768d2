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


def test_a_traceback_printed_straight_to_stderr_is_one_counted_line_and_the_rest_passes(caplog):
    import io
    import logging

    from replica.logs import EveryMinute, FoldedTracebacks

    out = io.StringIO()
    folded = EveryMinute(logging.getLogger("test.folded"), "left out %d traceback(s); the last: %s")
    stream = FoldedTracebacks(out, folded)
    with caplog.at_level(logging.WARNING, logger="test.folded"):
        for _ in range(3):
            stream.write("* Running on local URL\nTraceback (most recent call last):\n")
            stream.write('  File "x.py", line 1, in f\n    data["index"]\n\nDuring handling of the above')
            stream.write(" exception, another exception occurred:\n\nTraceback (most recent call last):\n")
            stream.write("  File \"y.py\"\nTypeError: 'NoneType' object is not subscriptable\nafter")
        stream.write(" it\n")
    assert out.getvalue() == "* Running on local URL\n" + "after* Running on local URL\n" * 2 + "after it\n"
    assert [r.getMessage() for r in caplog.records] == [
        "left out 1 traceback(s); the last: TypeError: 'NoneType' object is not subscriptable"
    ]  # the next two fall within the minute: counted in the next line
