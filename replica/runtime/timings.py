"""How fast the background work goes, each default written here and nowhere else.

Not settings an owner tunes (those are :mod:`replica.settings`): the pace a service allows, how soon a
failure is tried again, how long a poll or the model may take. The wiring hands a :class:`Timings` to
the parts it builds; a part built alone (a test's sender, a test's bot) takes its defaults from the
class itself, ``Timings.alert_min_interval``, so no second copy of a number can drift from this one.
The tests make them quick (``tests/fixtures/apps.py``), or move a clock instead
(``tests/fixtures/clock.py``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Timings:
    """How fast the background work goes: a channel's pace, retries, polling, and the model client's
    patience. Not settings an owner tunes; the tests make them quick."""

    alert_min_interval: float = 1.0  # Telegram allows about one message a second per chat
    alert_retry_base: float = 1.0  # the first wait after a failed send, doubling with each failure
    unreachable_warning: float = 300.0  # warn once a channel has been unreachable this long
    # getUpdates' long-poll length: Telegram takes whole seconds; the tests' fake takes less.
    telegram_poll_seconds: float = 25
    telegram_retry_base: float = 1.0  # the first wait after a failed getUpdates, doubling to a minute
    retry_base: float = 1.0  # any other background worker's first wait after a failure (housekeeping)
    retry_ceiling: float = 60.0  # a background worker's longest wait after failures in a row
    owner_words_shown: float = 6.0  # how long the owner's /say words are watched for the visitor's page to show
    model_timeout: float = 60.0
    model_max_retries: int = 2
