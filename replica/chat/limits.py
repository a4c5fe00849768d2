"""Usage limits that keep a public page from becoming an open tap on the owner's model bill.

In memory, per process, by default: they reset on restart, which is acceptable for their purpose (a
brake, not an invoice). With a shared database (``DATABASE_URL``), the limits per client address and
per day are counted in it instead, once across every instance, under a salted hash of the address
(never the address itself); the limit per session stays in memory (a session lives on one instance).
An address is counted by its group: an IPv4 address whole, an IPv6 address by its /64.
While the database cannot count, the same limits are counted in memory, so a visitor is never refused,
nor let through unbounded, because of a database outage.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Callable

from replica.inbox.recorder import address_group
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.storage.database import storage_errors

log = logging.getLogger(__name__)


class SlidingWindow:
    """Allows at most ``limit`` events per key within any ``window`` seconds.

    Only recorded events take memory, and a key whose events have all expired is forgotten (every
    ``window`` seconds the whole table is swept), so memory stays bounded by the traffic admitted in
    one window, whatever the callers send.
    """

    def __init__(self, limit: int, window: float = 3600.0, clock: Clock = REAL_CLOCK):
        self.limit = limit
        self.window = window
        self._clock = clock
        self._events: dict[str, deque[float]] = {}
        self._next_sweep = clock.monotonic() + window

    def has_room(self, key: str) -> bool:
        """True when ``key`` may have one more event now (forgets events older than the window)."""
        events = self._events.get(key)
        if events is None:
            return self.limit > 0
        self._expire(key, events, self._clock.monotonic())
        return len(events) < self.limit

    def take(self, key: str) -> bool:
        """Count one event for ``key`` if it has room; return whether it had."""
        if not self.has_room(key):
            return False
        self.record(key)
        return True

    def record(self, key: str) -> None:
        """Count one event for ``key`` now."""
        now = self._clock.monotonic()
        self._events.setdefault(key, deque()).append(now)
        if now >= self._next_sweep:
            for old_key, events in list(self._events.items()):
                self._expire(old_key, events, now)
            self._next_sweep = now + self.window

    def __len__(self) -> int:
        """How many keys are remembered."""
        return len(self._events)

    def _expire(self, key: str, events: deque[float], now: float) -> None:
        while events and events[0] <= now - self.window:
            events.popleft()
        if not events:
            del self._events[key]


class DailyBudget:
    """At most ``limit`` uses per UTC day (the day of ``clock``)."""

    def __init__(self, limit: int, clock: Clock = REAL_CLOCK):
        self.limit = limit
        self._clock = clock
        self._day = ""
        self._used = 0

    def take(self) -> bool:
        """Use one unit if any is left today; return whether one was."""
        today = self._clock.utc_today().isoformat()
        if today != self._day:
            self._day, self._used = today, 0
        if self._used >= self.limit:
            return False
        self._used += 1
        return True


class _Fallback:
    """Says once when a shared count falls back to memory, and once when the database counts again."""

    def __init__(self, what: str):
        self.what = what
        self.active = False

    def failed(self, error: BaseException) -> None:
        if not self.active:
            self.active = True
            log.error(
                "The database cannot count %s (%s); counting in memory until it can", self.what, type(error).__name__
            )

    def recovered(self) -> None:
        if self.active:
            self.active = False
            log.warning("The database counts %s again", self.what)


class SharedWindow:
    """A :class:`SlidingWindow` kept in the database, so every instance counts against one limit.

    Keys are stored as ``key(address)`` (a salted hash); while the database fails, an in-memory window
    with the same limit counts instead.
    """

    def __init__(
        self,
        counter: Callable[[str, int, float], bool],
        name: str,
        limit: int,
        window: float = 3600.0,
        key: Callable[[str], str] = lambda value: value,
        clock: Clock = REAL_CLOCK,
    ):
        self._counter = counter  # Store.take_usage
        self._name = name
        self._key = key
        self.limit = limit
        self.window = window
        self._memory = SlidingWindow(limit, window, clock)
        self._fallback = _Fallback(f"the {name} limit")

    def take(self, key: str) -> bool:
        """Count one event for ``key`` if it has room, across instances; return whether it had."""
        try:
            allowed = self._counter(f"{self._name}:{self._key(key)}", self.limit, self.window)
        except storage_errors() as error:
            self._fallback.failed(error)
            return self._memory.take(key)
        self._fallback.recovered()
        return allowed


class SharedBudget:
    """A :class:`DailyBudget` kept in the database, so every instance draws on one day's allowance (in
    memory while the database fails)."""

    def __init__(self, counter: Callable[[str, int], bool], limit: int, clock: Clock = REAL_CLOCK):
        self._counter = counter  # Store.take_daily
        self.limit = limit
        self._clock = clock
        self._memory = DailyBudget(limit, clock)
        self._fallback = _Fallback("the daily model calls")

    def take(self) -> bool:
        """Use one unit of today's allowance, if any is left."""
        try:
            allowed = self._counter(self._clock.utc_today().isoformat(), self.limit)
        except storage_errors() as error:
            self._fallback.failed(error)
            return self._memory.take()
        self._fallback.recovered()
        return allowed


@dataclass
class UsageLimits:
    """Messages per visitor session and per client address each hour, and model calls per day."""

    per_visitor: SlidingWindow
    per_address: SlidingWindow | SharedWindow
    model_calls: DailyBudget | SharedBudget
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def build(
        cls, visitor_per_hour: int, address_per_hour: int, model_calls_per_day: int, clock: Clock = REAL_CLOCK
    ) -> "UsageLimits":
        """Limits with the given hourly and daily allowances, counted on ``clock``."""
        return cls(
            SlidingWindow(visitor_per_hour, clock=clock),
            SlidingWindow(address_per_hour, clock=clock),
            DailyBudget(model_calls_per_day, clock),
        )

    @classmethod
    def shared(
        cls,
        store,
        visitor_per_hour: int,
        address_per_hour: int,
        model_calls_per_day: int,
        address_key: Callable[[str], str] = lambda address: address,
        clock: Clock = REAL_CLOCK,
    ) -> "UsageLimits":
        """Limits whose address and daily counts live in ``store``'s database, shared by every instance;
        an address is counted under ``address_key(address)``. ``clock`` counts what stays in memory (and
        should be the store's)."""
        return cls(
            SlidingWindow(visitor_per_hour, clock=clock),
            SharedWindow(store.usage.take, "address", address_per_hour, key=address_key, clock=clock),
            SharedBudget(store.usage.take_daily, model_calls_per_day, clock),
        )

    def admit_message(self, session_id: str, address: str) -> bool:
        """Count a visitor message if both its session and its address's group (an IPv6 address's /64:
        :func:`~replica.inbox.recorder.address_group`) have room this hour; else refuse it."""
        with self._lock:
            if not self.per_visitor.has_room(session_id) or not self.per_address.take(address_group(address)):
                return False
            self.per_visitor.record(session_id)
            return True

    def take_model_call(self) -> bool:
        """Use one of today's model calls; False when the day's budget is spent."""
        with self._lock:
            return self.model_calls.take()
