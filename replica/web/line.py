"""The line for a reply: who may join it, decided when a message joins, never when its turn comes.

Gradio's queue takes whatever joins it and decides nothing until a message's turn: one session that sent
2,000 messages in ten seconds made visitors from elsewhere wait over a minute, while each of its messages
was refused, one by one, as its turn came. :class:`Line` is the bookkeeping the HTTP side of the line
(:mod:`replica.web.line_guard`) asks at the door, in memory, in constant time:

- a session has at most one message waiting or being answered (the page locks its box while a reply is
  written, so a visitor never meets this; a script does);
- a client address (its group: an IPv6 /64 is one) at most ``per_address`` at once (an office shares one);
- the whole line at most ``total`` (so its memory has a bound whatever the number of addresses).

A message (a :class:`Ticket`) counts from its join until its reply is written (:meth:`Line.replied`). Its
session may then open the stream that carries the reply until the reply's last message reached it
(:meth:`Line.answered`), or the stream ended first (Gradio then drops the session's events), or, never
listened for, ``hold_seconds`` after the join. The line also counts the event streams each client holds
open (``per_address_streams``), one of each kind a session: a stream is the client's connection as surely
as an idle one is.
"""

from __future__ import annotations

import itertools
import threading
from collections import Counter
from dataclasses import dataclass
from enum import Enum

from replica import wording
from replica.runtime.clock import REAL_CLOCK, Clock

# Messages waiting for a reply or being answered, at most (the door refuses the next at once, and Gradio's
# queue has the same bound): the line is bounded by time (the lanes' wait), and this bounds its memory,
# each message's body bounded by the guard; a crowd never nears it, as replies made without a model take
# milliseconds. A number, not None: on ZeroGPU Gradio reads None as 1 (Gradio 6.31's Blocks.queue).
LINE_BOUND = 1_000


class Refusal(Enum):
    """Why a message, or a stream, was turned away at the door; its value is the sentence the client reads."""

    ONE_AT_A_TIME = wording.ONE_AT_A_TIME
    ADDRESS_BUSY = wording.ADDRESS_BUSY
    LINE_FULL = wording.LINE_FULL
    NOTHING_TO_STREAM = "Nothing is waiting for this session."
    STREAM_OPEN = "This session's stream is open already."
    TOO_MANY_STREAMS = "Too many open connections from this address."


@dataclass
class Ticket:
    """One message in the line: its session ("" until known: a ``/call/`` join names none), the client's
    address group, when it joined, its Gradio event once known; whether its reply is written, and whether
    a stream of its session was opened."""

    number: int
    session: str
    group: str
    since: float
    event: str | None = None
    replied: bool = False
    streamed: bool = False


class Line:
    """The line's bookkeeping (see the module's text); safe to call from any thread."""

    def __init__(
        self,
        per_address: int,
        total: int,
        hold_seconds: float,
        per_address_streams: int | None = None,
        clock: Clock = REAL_CLOCK,
    ):
        self.per_address = per_address
        self.total = total
        self.hold_seconds = hold_seconds
        self.per_address_streams = per_address_streams  # None: not counted
        self._clock = clock
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)
        self._tickets: dict[int, Ticket] = {}
        self._unreplied: dict[str, int] = {}  # session -> its message waiting or being answered
        self._groups: Counter[str] = Counter()  # messages waiting or being answered, per address group
        self._in_line = 0  # messages waiting or being answered in all
        self._to_stream: Counter[str] = Counter()  # session -> its messages whose reply has not reached it
        self._by_event: dict[str, int] = {}
        self._streams: Counter[str] = Counter()  # open streams per address group
        self._open: set[tuple[str, str]] = set()  # (kind, session) of each open stream
        self._next_expiry = 0.0

    def room_for(self, group: str) -> Refusal | None:
        """Whether ``group`` may join at all now (asked before a join's body is read: a flood costs nothing)."""
        with self._lock:
            self._expire()
            if self._groups[group] >= self.per_address:
                return Refusal.ADDRESS_BUSY
            return Refusal.LINE_FULL if self._in_line >= self.total else None

    def join(self, session: str, group: str) -> Ticket | Refusal:
        """A message of ``session`` from ``group`` joins: its ticket, or why it may not."""
        with self._lock:
            self._expire()
            if session in self._unreplied:
                return Refusal.ONE_AT_A_TIME
            if self._groups[group] >= self.per_address:
                return Refusal.ADDRESS_BUSY
            if self._in_line >= self.total:
                return Refusal.LINE_FULL
            ticket = Ticket(next(self._numbers), session, group, self._clock.monotonic())
            self._tickets[ticket.number] = ticket
            self._groups[group] += 1
            self._in_line += 1
            if session:
                self._unreplied[session] = ticket.number
                self._to_stream[session] += 1
            return ticket

    def joined(self, ticket: Ticket, event: str) -> None:
        """Gradio took ``ticket``'s message as ``event`` (a join with no session is its event's own session)."""
        with self._lock:
            if ticket.number in self._tickets:
                ticket.event = event
                self._by_event[event] = ticket.number
                if not ticket.session:
                    ticket.session = event
                    self._to_stream[event] += 1

    def replied(self, number: int) -> None:
        """Ticket ``number``'s reply is written: its session and address may send the next message (its
        stream may still carry the reply to the client)."""
        with self._lock:
            ticket = self._tickets.get(number)
            if ticket is not None:
                self._out_of_line(ticket)

    def answered(self, event: str) -> None:
        """The reply to ``event`` reached its stream whole (or its event failed, or was cancelled)."""
        with self._lock:
            number = self._by_event.get(event)
            if number is not None:
                self._drop(number)

    def leave(self, ticket: Ticket) -> None:
        """``ticket``'s message left the line before Gradio took it (refused after all, or failed)."""
        with self._lock:
            self._drop(ticket.number)

    def session_left(self, session: str) -> None:
        """``session``'s stream ended before its replies did: Gradio has dropped its events, waiting or not."""
        with self._lock:
            for number in [n for n, ticket in self._tickets.items() if ticket.session == session]:
                self._drop(number)

    def has_work(self, session: str) -> bool:
        """Whether ``session`` has a message whose reply has not reached it yet."""
        with self._lock:
            self._expire()
            return self._to_stream[session] > 0

    def has_event(self, event: str) -> bool:
        """Whether the reply to the message Gradio took as ``event`` has not reached its client yet."""
        with self._lock:
            return event in self._by_event

    def open_stream(self, kind: str, session: str, group: str) -> Refusal | None:
        """A client of ``group`` opens a stream of ``kind`` for ``session``: ``None`` when it may (then
        :meth:`close_stream` when it ends), else why not. Only one of each kind a session."""
        with self._lock:
            if (kind, session) in self._open:
                return Refusal.STREAM_OPEN
            if self.per_address_streams is not None and self._streams[group] >= self.per_address_streams:
                return Refusal.TOO_MANY_STREAMS
            self._open.add((kind, session))
            self._streams[group] += 1
            for ticket in self._tickets.values():
                if ticket.session == session:
                    ticket.streamed = True
            return None

    def close_stream(self, kind: str, session: str, group: str) -> None:
        """The stream :meth:`open_stream` let open has ended."""
        with self._lock:
            self._open.discard((kind, session))
            self._streams[group] -= 1
            if self._streams[group] <= 0:
                del self._streams[group]

    def __len__(self) -> int:
        """Messages waiting or being answered now."""
        with self._lock:
            return self._in_line

    def streams(self, group: str) -> int:
        """Streams ``group`` holds open now."""
        with self._lock:
            return self._streams[group]

    def _out_of_line(self, ticket: Ticket) -> None:
        if ticket.replied:
            return
        ticket.replied = True
        self._in_line -= 1
        self._groups[ticket.group] -= 1
        if self._groups[ticket.group] <= 0:
            del self._groups[ticket.group]
        if self._unreplied.get(ticket.session) == ticket.number:
            del self._unreplied[ticket.session]

    def _drop(self, number: int) -> None:
        ticket = self._tickets.pop(number, None)
        if ticket is None:
            return
        self._out_of_line(ticket)
        if ticket.event is not None:
            self._by_event.pop(ticket.event, None)
        if ticket.session:
            self._to_stream[ticket.session] -= 1
            if self._to_stream[ticket.session] <= 0:
                del self._to_stream[ticket.session]

    def _expire(self) -> None:
        """Forget, once a second at most, the tickets never listened for in ``hold_seconds`` (a client that
        joined and never opened its stream): a ticket listened for ends with its reply or its stream."""
        now = self._clock.monotonic()
        if now < self._next_expiry:
            return
        self._next_expiry, oldest = now + 1.0, now - self.hold_seconds
        for number in [n for n, t in self._tickets.items() if t.since < oldest and not t.streamed]:
            self._drop(number)
