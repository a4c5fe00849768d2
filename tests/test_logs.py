"""The log's own helpers: a flood of the same warning costs a line a minute."""

import logging

import pytest

from replica.logs import EveryMinute, RedactingFormatter
from tests.fixtures.clock import START, HandClock


def test_a_flood_is_one_line_a_minute_and_the_next_line_counts_what_it_held_back(caplog):
    clock = HandClock()
    refused = EveryMinute(logging.getLogger("flood"), "Refused %d request(s)", clock=clock)
    with caplog.at_level(logging.WARNING, logger="flood"):
        for _ in range(300):
            refused()
            clock.now += 0.1  # 300 in 30 seconds
        assert [r.getMessage() for r in caplog.records] == ["Refused 1 request(s)"]
        clock.now = START + 60  # a minute after the first line
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


def test_log_lines_never_show_secrets():
    import logging

    formatter = RedactingFormatter(["sk-abcdef123", "777:token-xyz"])
    record = logging.LogRecord(
        "x", logging.ERROR, __file__, 1, "key %s url /bot%s/send", ("sk-abcdef123", "777:token-xyz"), None
    )
    line = formatter.format(record)
    assert "sk-abcdef123" not in line and "token-xyz" not in line and line.count("<redacted>") == 2


@pytest.mark.parametrize(
    "url, secret",
    [
        ("ntfys://ntfy.sh/news42", "news42"),  # a short topic is the channel's password all the same
        ("tgram://123456789:AAHsecretTOKEN42/4242", "AAHsecretTOKEN42"),
        ("mailtos://owner:p%40ssw0rd@mail.example.com", "p@ssw0rd"),
        ("json://hooks.example.com/in?token=Tok3nValue", "Tok3nValue"),
    ],
    ids=["ntfy short topic", "telegram token", "percent-encoded password", "query token"],
)
def test_every_secret_form_of_an_alert_url_is_redacted_from_the_log(url, secret):
    from replica.alerts.apprise_channel import secrets_of

    line = RedactingFormatter(secrets_of(url)).format(
        logging.LogRecord("x", logging.ERROR, "", 0, f"delivery failed: {secret} via {url}", (), None)
    )
    assert secret not in line and "<redacted>" in line


@pytest.mark.parametrize(
    "url, secret",
    [
        ("postgresql://replica:s%3Dcret99@db.example.com:5432/replica", "s=cret99"),
        ("https://user:base-pw-42@llm.example.com/v1?api-key=QuerySecret7", "QuerySecret7"),
        ("https://user:base-pw-42@llm.example.com/v1?api-key=QuerySecret7", "base-pw-42"),
    ],
    ids=["database password, decoded", "base URL query key", "base URL password"],
)
def test_database_and_base_url_secrets_are_redacted_from_the_log(url, secret):
    from replica.logs import url_secrets

    line = RedactingFormatter(url_secrets(url)).format(
        logging.LogRecord("x", logging.ERROR, "", 0, f"could not connect with {secret}", (), None)
    )
    assert secret not in line
