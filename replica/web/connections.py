"""Slow clients bounded: a deadline for a request's headers and its body, and connections per address capped.

Uvicorn, the server Gradio starts, has no deadline for a request that arrives a byte at a time: a client
trickling one header line every few seconds keeps its connection, and a file, forever (its keep-alive
timeout only counts while a connection is idle between requests), and the ASGI app, our guard
included, only sees a request once its headers are whole. :class:`ConnectionWatch` looks at the server's
open connections every second, on the server's own event loop, through uvicorn's public attributes
(``Server.servers``, ``Server.server_state.connections``; each connection's ``client``, ``transport``
and current request ``cycle``), and closes:

- a connection that has sent part of a request's headers, and not the rest, for longer than the deadline;
- a connection idle, sending nothing at all, for longer than :data:`IDLE_SECONDS`: browsers open a
  connection before they need it and close it themselves if unused (Chromium after 10 s), so an idle
  one is given the time servers usually give (nginx 60-75 s), and a browser never races its close;
- a connection still receiving a request's body the deadline after its headers;
- past ``per_address`` connections from one address group (:func:`address_group`: an IPv6 /64 is one)
  that are idle or waiting for headers, the longest waiting first, so that a new visitor's connection, whose
  headers arrive at once, is never the one closed. Behind a trusted proxy every connection comes from
  the proxy, so there is no cap then.

A request being answered (an answer streaming for minutes included) has no deadline here: the reply's
own deadline bounds it. Part of a request's headers is seen where uvicorn parses with h11 (Gradio's
own install); behind another parser (httptools) every connection waiting for headers counts as idle.
What is closed is counted in one log line a minute.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from typing import Any, Iterable

from replica.inbox.recorder import address_group
from replica.logs import EveryMinute
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.settings import default

log = logging.getLogger(__name__)

SWEEP_SECONDS = 1.0
IDLE_SECONDS = 60.0
IDLE, WAITING, RECEIVING, ANSWERING = "idle", "waiting for headers", "receiving a body", "answering"
CLOSED = EveryMinute(log, "HTTP: closed %d slow or surplus connection(s) (logged at most once a minute); the last: %s")


def state_of(connection: Any) -> str:
    """What a uvicorn connection is doing: idle (no request under way, nothing of the next one sent),
    waiting for the rest of a request's headers, receiving its body, or answering it (a connection of
    another kind, a WebSocket's, counts as answering)."""
    if not hasattr(connection, "cycle"):
        return ANSWERING
    cycle = connection.cycle
    if cycle is None or cycle.response_complete:
        parser = getattr(connection, "conn", None)  # h11's: what it holds is a request's start, unparsed
        return WAITING if parser is not None and parser.trailing_data[0] else IDLE
    return RECEIVING if cycle.more_body else ANSWERING


class ConnectionWatch:
    """Closes the connections past their deadline or past the per-address cap (see the module's text).
    ``clock`` is injected, so a test moves it."""

    def __init__(
        self,
        deadline_seconds: float = default("client_deadline_seconds"),
        per_address: int | None = default("connections_per_address"),
        clock: Clock = REAL_CLOCK,
        closed: EveryMinute = CLOSED,
    ):
        self.deadline_seconds = deadline_seconds
        self.per_address = per_address  # None: not capped (behind a trusted proxy)
        self.clock = clock
        self.closed = closed
        # id(connection) -> (the connection, its state, since when); holding the connection keeps its id
        # from being reused by a new one before the next sweep.
        self._since: dict[int, tuple[Any, str, float]] = {}

    def sweep(self, connections: Iterable[Any]) -> int:
        """Close what is past its deadline or the cap among ``connections``; return how many were closed."""
        now, seen, waiting = self.clock.monotonic(), {}, defaultdict(list)
        doomed: list[tuple[Any, str]] = []
        for connection in list(connections):
            state = state_of(connection)
            previous = self._since.get(id(connection))
            since = previous[2] if previous and previous[0] is connection and previous[1] == state else now
            seen[id(connection)] = (connection, state, since)
            if state != ANSWERING and now - since >= (IDLE_SECONDS if state == IDLE else self.deadline_seconds):
                doomed.append((connection, f"{state} for {now - since:.0f} s"))
            elif state in (IDLE, WAITING):
                waiting[_group(connection)].append((since, connection))
        self._since = seen
        for group in waiting.values():
            if self.per_address is not None and len(group) > self.per_address:
                group.sort(key=lambda entry: entry[0])
                doomed += [(c, "past the connections per address") for _, c in group[: len(group) - self.per_address]]
        for connection, why in doomed:
            self.closed(why)
            connection.transport.close()
        return len(doomed)

    def start(self, server: Any) -> None:
        """Sweep ``server``'s connections (a running ``uvicorn.Server``) every second, on its own loop."""
        loop = server.servers[0].get_loop()
        asyncio.run_coroutine_threadsafe(self._run(server), loop)

    async def _run(self, server: Any) -> None:
        while not server.should_exit:
            self.sweep(server.server_state.connections)
            await asyncio.sleep(SWEEP_SECONDS)


def _group(connection: Any) -> str:
    client = getattr(connection, "client", None)
    return address_group(client[0]) if client else "unknown"
