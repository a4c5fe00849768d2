"""Work that runs on a clock: conversation retention, handoffs that expire, and the owner's daily digest.

One background thread checks every ``interval`` seconds. Retention runs at start and then daily; usage
counts older than their hour are deleted each round (so the hashes of visitors' addresses are kept no
longer than the limit needs them); a handoff whose owner has been silent for 30 minutes goes back to
the replica; the digest of yesterday
is queued in the outbox once a day, at ``DIGEST_HOUR_UTC``, even across restarts (the day it was sent
for is stored with it, in one transaction); the digest of ``DIGEST_WEEKDAY`` asks its channels to send
the picture of the week before with it. The owner's figures are kept 400 days, then deleted. Any error
is logged and the next check goes on.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import replace
from datetime import date, timedelta

from replica.alerts import Alert, Notifier
from replica.inbox import Handoff, Recorder
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.runtime.workers import Worker
from replica.stats.period import KEPT_DAYS
from replica.storage.figures import day_start
from replica.storage.records import VISITOR, AlertKind
from replica.storage.store import Store

log = logging.getLogger(__name__)

DIGEST_KEY = "digest_sent_for"
RETENTION_KEY = "retention_ran_on"
USAGE_WINDOW_SECONDS = 3600.0  # the longest window a usage limit counts in
WEEK = 7


def _day_bounds(day: date) -> tuple[float, float]:
    start = day_start(day)
    return start, start + 86400


def digest(store: Store, day: date, daily_budget: int) -> Alert:
    """The digest of ``day`` (UTC): conversations, messages, leads, open questions, the most asked
    questions, and model calls against the day's budget."""
    start, end = _day_bounds(day)
    stats = store.reports.day_stats(start, end)
    day_text = day.isoformat()
    leads = store.leads.count_between(start, end)
    confirmed = store.leads.confirmed_between(start, end)
    asked = store.questions.count_between(start, end)
    still_open = store.questions.count_open()
    texts = store.reports.texts_between(start, end, VISITOR)
    counts = Counter(" ".join(text.split()).rstrip("?!. ").casefold() for text in texts if text.strip())
    top = "\n".join(f"{n}× {text[:120]}" for text, n in counts.most_common(5)) or "(none)"
    fields = (
        ("Conversations", str(stats.conversations)),
        ("Visitor messages", str(stats.messages)),
        ("Leads", f"{leads}, {confirmed} confirmed by their code" if confirmed else str(leads)),
        ("Questions passed on", f"{asked}; still open, all days: {still_open} (/unanswered)"),
        ("Model calls", f"{stats.model_calls} of {daily_budget} a day"),
        ("Most asked", top),
    )
    return Alert(AlertKind.DIGEST, f"Daily digest for {day_text}", fields, quoted=("Most asked",))


class Housekeeper(Worker):
    """Runs retention, usage sweeps, handoff expiry and the digest, every ``interval`` seconds of ``clock``,
    whose UTC day and hour say when retention and the digest are due."""

    name = "housekeeping"

    def __init__(
        self,
        store: Store,
        recorder: Recorder,
        handoff: Handoff,
        notifier: Notifier,
        retention_days: int,
        digest_hour_utc: int | None,
        daily_budget: int,
        interval: float = 60.0,
        digest_weekday: int = 0,
        clock: Clock = REAL_CLOCK,
    ):
        super().__init__(clock=clock)
        self._store = store
        self._recorder = recorder
        self._handoff = handoff
        self._notifier = notifier
        self._retention_days = retention_days
        self._digest_hour = digest_hour_utc
        self._daily_budget = daily_budget
        self._digest_weekday = digest_weekday  # its digest brings the week's picture (0: Monday)
        self._interval = interval

    def step(self) -> float:
        """One round of every task (the first, retention included, runs as soon as the worker starts)."""
        for task in (self._retention, self._sweep_usage, self._expire_handoffs, self._digest):
            try:
                task()
            except Exception as error:  # each task is tried again at the next round
                log.error("Housekeeping (%s) failed: %s", task.__name__, type(error).__name__, exc_info=True)
        return self._interval

    def _retention(self) -> None:
        today = self.clock.utc_today().isoformat()
        if self._store.state.get(RETENTION_KEY) != today:
            self._recorder.delete_older_than(self._retention_days)
            self._store.figures.delete_before((self.clock.utc_today() - timedelta(days=KEPT_DAYS)).isoformat())
            self._store.state.set(RETENTION_KEY, today)

    def _sweep_usage(self) -> None:
        self._store.usage.sweep(USAGE_WINDOW_SECONDS, self.clock.utc_today().isoformat())

    def _expire_handoffs(self) -> None:
        for number in self._handoff.resume_expired():
            log.info("Conversation %d resumed by the replica: the owner's handoff ran out", number)

    def _digest(self) -> None:
        now = self.clock.utc_now()
        if self._digest_hour is None or now.hour < self._digest_hour:
            return
        yesterday = now.date() - timedelta(days=1)
        if self._store.state.get(DIGEST_KEY) == yesterday.isoformat():
            return  # sent already: no need to count the day again every minute
        alert = digest(self._store, yesterday, self._daily_budget)
        if now.weekday() == self._digest_weekday:  # the seven days up to yesterday, drawn when it is sent
            alert = replace(alert, picture=(yesterday.isoformat(), WEEK))
        if self._store.outbox.queue(alert.entry(), once=(DIGEST_KEY, yesterday.isoformat())) is not None:
            log.info("Daily digest for %s queued", yesterday)
            self._notifier.notify(alert)
