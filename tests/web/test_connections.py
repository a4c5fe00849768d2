"""Safe to leave running: slow clients are closed at their deadline while the page keeps answering, and
requests refused or failed are answered in a line, never a traceback, and cost the log a line a minute.
Against ``python app.py``, as users run it; the watch's rules on a clock the test moves."""

from __future__ import annotations

import socket
from types import SimpleNamespace

import pytest
import requests

from replica.web.connections import ANSWERING, IDLE, IDLE_SECONDS, RECEIVING, WAITING, ConnectionWatch, state_of
from tests.fixtures.clients import app_client
from tests.fixtures.clock import HandClock
from tests.fixtures.environment import wait_until
from tests.fixtures.processes import served_app

DEADLINE = 2  # seconds, for the app this module starts


def connection(state: str, address: str = "203.0.113.7"):
    """A stand-in for a uvicorn connection (h11's) in ``state``, remembering whether it was closed."""
    cycle = {
        IDLE: None,
        WAITING: None,
        RECEIVING: SimpleNamespace(response_complete=False, more_body=True),
        ANSWERING: SimpleNamespace(response_complete=False, more_body=False),
    }[state]
    transport = SimpleNamespace(closed=False)
    transport.close = lambda: setattr(transport, "closed", True)
    parser = SimpleNamespace(trailing_data=(b"GET / HTTP/1.1\r\nX-Slow: 1" if state == WAITING else b"", False))
    return SimpleNamespace(cycle=cycle, conn=parser, client=(address, 50000), transport=transport)


def test_a_connection_waiting_for_headers_or_sending_a_body_is_closed_at_its_deadline_and_no_sooner():
    clock = HandClock()
    watch = ConnectionWatch(deadline_seconds=10, per_address=None, clock=clock)
    waiting, receiving, answering = connection(WAITING), connection(RECEIVING), connection(ANSWERING)
    every = [waiting, receiving, answering]
    assert watch.sweep(every) == 0
    clock.now += 9.9
    assert watch.sweep(every) == 0 and not waiting.transport.closed
    clock.now += 0.1
    assert watch.sweep(every) == 2
    assert waiting.transport.closed and receiving.transport.closed and not answering.transport.closed
    clock.now += 3600  # an answer streaming for an hour is the reply's deadline's business, not this one's
    assert watch.sweep([answering]) == 0


def test_an_idle_connection_a_browser_opened_ahead_is_given_a_minute():
    clock = HandClock()
    watch = ConnectionWatch(deadline_seconds=10, per_address=None, clock=clock)
    idle = connection(IDLE)  # Chromium closes an unused one itself after 10 s: never race it
    watch.sweep([idle])
    clock.now += IDLE_SECONDS - 0.1
    assert watch.sweep([idle]) == 0
    clock.now += 0.1
    assert watch.sweep([idle]) == 1 and idle.transport.closed


def test_a_connection_whose_request_arrived_starts_its_deadline_again():
    clock = HandClock()
    watch = ConnectionWatch(deadline_seconds=10, per_address=None, clock=clock)
    visitor = connection(WAITING)
    watch.sweep([visitor])
    clock.now += 8
    visitor.conn.trailing_data = (b"", False)
    visitor.cycle = SimpleNamespace(response_complete=False, more_body=False)  # its request came: answering
    watch.sweep([visitor])
    visitor.cycle.response_complete = True  # answered; the next request begins to arrive
    visitor.conn.trailing_data = (b"GET /next", False)
    assert watch.sweep([visitor]) == 0
    clock.now += 9.9
    assert watch.sweep([visitor]) == 0
    clock.now += 0.1
    assert watch.sweep([visitor]) == 1


def test_past_the_cap_the_longest_waiting_connections_of_an_address_group_are_closed():
    clock = HandClock()
    watch = ConnectionWatch(deadline_seconds=10, per_address=3, clock=clock)
    old = [connection(WAITING, f"2001:db8:1:2::{n}") for n in range(3)]  # one /64
    watch.sweep(old)
    clock.now += 5
    new = [connection(WAITING, "2001:db8:1:2:ffff::9"), connection(ANSWERING, "2001:db8:1:2::77")]
    other = [connection(WAITING, f"2001:db8:1:3::{n}") for n in range(3)]  # the next /64: a visitor of its own
    assert watch.sweep(old + new + other) == 1
    assert [c.transport.closed for c in old] == [True, False, False]  # the longest waiting, not the newcomer
    assert not any(c.transport.closed for c in new + other)
    idle = [connection(IDLE, "198.51.100.4") for _ in range(4)]  # idle ones count too, the oldest first
    watch.sweep(idle[:1])
    clock.now += 1
    assert watch.sweep(idle) == 1 and idle[0].transport.closed
    uncapped = ConnectionWatch(deadline_seconds=10, per_address=None, clock=clock)  # behind a trusted proxy
    assert uncapped.sweep([connection(WAITING) for _ in range(100)]) == 0


def test_what_a_connection_is_doing_is_read_from_its_request():
    assert state_of(connection(WAITING)) == WAITING
    assert state_of(connection(IDLE)) == IDLE
    answered = SimpleNamespace(cycle=SimpleNamespace(response_complete=True, more_body=False))
    assert state_of(answered) == IDLE  # a parser that shows nothing of what arrived (httptools): idle
    assert state_of(connection(RECEIVING)) == RECEIVING
    assert state_of(SimpleNamespace(transport=None)) == ANSWERING  # another kind of connection


@pytest.fixture(scope="module")
def slow_app(tmp_path_factory):
    log_file = tmp_path_factory.mktemp("slow") / "app.log"
    with served_app(log_file, CLIENT_DEADLINE_SECONDS=str(DEADLINE), CONNECTIONS_PER_ADDRESS="50") as (url, _):
        yield url, log_file


def open_(sock: socket.socket) -> bool:
    """Whether the server still holds ``sock`` open (it has not closed or reset it)."""
    sock.setblocking(False)
    try:
        return sock.recv(1) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def test_two_hundred_slow_clients_are_closed_within_the_deadline_while_the_page_keeps_answering(slow_app):
    url, log_file = slow_app
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    headers, bodies = [], []
    for n in range(200):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        if n % 4:  # headers, a line at a time
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n")
            headers.append(sock)
        else:  # a body, a byte at a time
            head = "POST /gradio_api/queue/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            sock.sendall((head + "Content-Length: 900\r\n\r\n{").encode())
            bodies.append(sock)

    def trickle_and_visit() -> bool:  # while they trickle on, a visitor's page still loads
        for sock, more in [(s, b"X-More: 1\r\n") for s in headers] + [(s, b" ") for s in bodies]:
            try:
                sock.sendall(more)
            except OSError:
                pass
        try:
            assert requests.get(url, timeout=30).status_code == 200
        except requests.ConnectionError:  # from the same address as the 200, over its cap until they close
            return False
        return not any(open_(sock) for sock in headers + bodies)

    assert wait_until(trickle_and_visit, timeout=20 * DEADLINE)  # closed: far sooner on a quiet machine
    assert app_client(url).predict("Are you there?", api_name="/chat")
    assert "slow or surplus connection" in log_file.read_text()
    for sock in headers + bodies:
        sock.close()


def test_a_thousand_refused_requests_are_answered_4xx_without_a_traceback_and_barely_grow_the_log(slow_app):
    url, log_file = slow_app
    base = url.rstrip("/")
    before = log_file.stat().st_size
    bad = [
        ("post", "/gradio_api/run/predict", {"json": {"data": ["hi"]}}),
        ("post", "/gradio_api/run/no_such_name", {"json": {"data": ["hi"]}}),
        ("post", "/gradio_api/call/no_such_name", {"json": {"data": ["hi"]}}),
        ("post", "/gradio_api/api/no_such_name", {"json": {"data": ["hi"]}}),
        ("get", "/gradio_api/call/no_such_name/abc", {}),
        ("post", "/gradio_api/queue/join", {"json": {"data": ["hi"], "fn_index": 999, "session_hash": "abc"}}),
        ("post", "/gradio_api/queue/join", {"data": "not json", "headers": {"content-type": "application/json"}}),
        ("post", "/gradio_api/call/chat", {"data": "{broken", "headers": {"content-type": "application/json"}}),
        ("post", "/gradio_api/queue/join", {"json": {"data": 5, "fn_index": "x", "session_hash": "abc"}}),
        ("get", "/no/such/page", {}),
        ("post", "/gradio_api/queue/join", {"data": "[" * 100_000, "headers": {"content-type": "application/json"}}),
    ]
    statuses = set()
    with requests.Session() as session:
        for n in range(1000):
            method, path, options = bad[n % len(bad)]
            statuses.add(session.request(method, base + path, timeout=30, **options).status_code)
    assert statuses and all(400 <= status < 500 for status in statuses), statuses
    wait_until(lambda: "answered" in log_file.read_text(), timeout=5)
    grown = log_file.read_text()[before:] if log_file.stat().st_size > before else ""
    assert "Traceback" not in log_file.read_text()
    assert log_file.stat().st_size - before < 20_000, grown[-2000:]
    assert requests.get(url, timeout=30).status_code == 200
