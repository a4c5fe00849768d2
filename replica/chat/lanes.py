"""The model lanes: how many replies talk to the model at once, and who may wait for one.

At most ``count`` replies hold a lane (the design's queue concurrency). A message that finds every lane
taken waits, first come first served, only while a lane can be expected within ``wait_seconds``: the
time the replies ahead of it would take at the pace the lanes have kept lately, and never past
``wait_seconds`` itself nor more than ``max_waiting`` at once. Any other message is answered at once
without a model (a spike: :mod:`replica.chat.answer`), so a crowd never stands in a line that refuses.

A waiting message of a client address that holds no lane is served before one of an address that holds
some. And when the lanes are slow (a reply holds one longer than ``wait_seconds``, so a newcomer would not
wait for it), one address holds at most all lanes but one while other addresses are about (seen in the
last :data:`OTHERS_SECONDS`), so another visitor finds one free: a slow model's lanes are never all one
address's while others come. Where every visitor comes as one address (a proxy the app is not told of, an
office), every lane still serves.
"""

from __future__ import annotations

import math
import statistics
import threading
from collections import Counter, OrderedDict, deque
from dataclasses import dataclass

from replica.runtime.clock import REAL_CLOCK, Clock

RECENT = 16  # lane holds the pace is read from
OTHERS_SECONDS = 600.0  # an address that asked this recently is about: one lane is kept from a greedy other
KNOWN_CLIENTS = 1_000  # addresses remembered for it, the least recent forgotten first
ASSUMED_HOLD_SECONDS = 2.0  # a small model's reply, until the lanes have timed some of their own


@dataclass(frozen=True)
class Hold:
    """A lane held: by which client (its address as the store keeps it; "" when unknown), since when."""

    client: str
    since: float


class Lanes:
    """``count`` model lanes; see the module's text. ``clock`` times each hold (injected in tests)."""

    def __init__(self, count: int, max_waiting: int, wait_seconds: float, clock: Clock = REAL_CLOCK):
        self.count = count
        self.max_waiting = max_waiting
        self.wait_seconds = wait_seconds
        self.per_client = max(1, count - 1)  # one lane is always left for another address
        self._clock = clock
        self._changed = threading.Condition()
        self._held = 0
        self._by_client: Counter[str] = Counter()
        self._line: deque[tuple[object, str]] = deque()  # the waiting messages' tickets and clients, first come first
        self._holds: deque[float] = deque(maxlen=RECENT)
        self._seen: OrderedDict[str, float] = OrderedDict()  # client -> when it last asked for a lane

    def take(self, client: str = "") -> Hold | None:
        """A lane for one reply of ``client`` (for :meth:`give_back`), or ``None`` when none is expected
        within the wait, or none came in it."""
        with self._changed:
            self._saw(client)
            if not self._line and self._may_hold(client):
                return self._hold(client)
            if not self._worth_waiting():
                return None
            ticket = (object(), client)
            self._line.append(ticket)
            try:
                free = self._changed.wait_for(lambda: self._next_in_line() is ticket, self.wait_seconds)
                return self._hold(client) if free else None
            finally:
                self._line.remove(ticket)
                self._changed.notify_all()  # the next in line may be served now

    def give_back(self, hold: Hold) -> None:
        """The reply that took ``hold`` is done with its lane."""
        with self._changed:
            self._held -= 1
            self._by_client[hold.client] -= 1
            if self._by_client[hold.client] <= 0:
                del self._by_client[hold.client]
            self._holds.append(self._clock.monotonic() - hold.since)
            self._changed.notify_all()

    @property
    def waiting(self) -> int:
        """Messages waiting for a lane now."""
        with self._changed:
            return len(self._line)

    def expected_wait(self) -> float:
        """Seconds a message arriving now would wait for a lane, at the lanes' recent pace."""
        with self._changed:
            return self._expected_wait()

    def _hold(self, client: str) -> Hold:
        self._held += 1
        self._by_client[client] += 1
        return Hold(client, self._clock.monotonic())

    def _may_hold(self, client: str) -> bool:
        """Whether a lane is free for ``client`` (an unknown client, or one alone, is never capped)."""
        if self._held >= self.count:
            return False
        if not client or self._by_client[client] < self.per_client:
            return True
        return not (self._pace() > self.wait_seconds and self._others_about(client))

    def _saw(self, client: str) -> None:
        if client:
            self._seen[client] = self._clock.monotonic()
            self._seen.move_to_end(client)
            while len(self._seen) > KNOWN_CLIENTS:
                self._seen.popitem(last=False)

    def _others_about(self, client: str) -> bool:
        """Whether an address other than ``client`` asked for a lane in the last :data:`OTHERS_SECONDS`."""
        since = self._clock.monotonic() - OTHERS_SECONDS
        for other, seen in reversed(self._seen.items()):  # the most recent first
            if seen < since:
                return False
            if other != client:
                return True
        return False

    def _next_in_line(self) -> tuple[object, str] | None:
        """The waiting ticket a free lane goes to: the first whose client may hold one, a client holding none
        before one holding some."""
        ready = [ticket for ticket in self._line if self._may_hold(ticket[1])]
        fresh = [ticket for ticket in ready if not ticket[1] or not self._by_client[ticket[1]]]
        chosen = fresh or ready
        return chosen[0] if chosen else None

    def _worth_waiting(self) -> bool:
        return len(self._line) < self.max_waiting and self._expected_wait() <= self.wait_seconds

    def _expected_wait(self) -> float:
        if self._held < self.count and not self._line:
            return 0.0
        return math.ceil((len(self._line) + 1) / self.count) * self._pace()

    def _pace(self) -> float:
        """How long a reply holds its lane lately."""
        return statistics.median(self._holds) if self._holds else ASSUMED_HOLD_SECONDS
