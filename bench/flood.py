"""The flood row: what one client flooding the page costs everyone else, measured as their first words.

``python app.py`` (behind one trusted proxy, so each visitor has an address of its own) is met by visitors
one after another, each a session and an address of its own, first in quiet, then while one client
floods: one session sending messages as fast as a connection carries them, and the same address sending
others from a new session each, neither ever listening for a reply. The line's door
(:mod:`replica.web.line_guard`) refuses the flood as it joins, so the visitors' first words should not
move: the row gives both medians and their ratio.
"""

from __future__ import annotations

import statistics
import threading
import uuid
from collections import Counter
from pathlib import Path

import requests

from bench.queue_visitor import QueueVisitor, endpoint_of
from bench.spike import app_served
from tests.fakes.openai_server import FakeOpenAI, say

MODEL_WORDS = "I am available for new projects from next month, remote or on-site in Lisbon."
FLOODER = "10.99.99.1"


class Flood:
    """One client flooding ``url`` from :data:`FLOODER` on two connections until :meth:`stop`: one session's
    messages again and again, and messages of a new session each; counts how each join was answered."""

    def __init__(self, url: str, event: int):
        self.url, self.event = url, event
        self.answers: Counter[int] = Counter()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._send, args=(same,), daemon=True) for same in (True, False)]

    def __enter__(self) -> "Flood":
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=60)

    def _send(self, same_session: bool) -> None:
        client = requests.Session()
        client.headers["X-Forwarded-For"] = FLOODER
        session = uuid.uuid4().hex[:12]
        while not self._stop.is_set():
            body = {
                "data": ["Hi"],
                "fn_index": self.event,
                "session_hash": session if same_session else uuid.uuid4().hex[:12],
            }
            try:
                self.answers[client.post(self.url + "gradio_api/queue/join", json=body, timeout=30).status_code] += 1
            except requests.RequestException:
                self.answers[0] += 1


def first_words(url: str, endpoint: tuple[int, int], visitors: int, first: int) -> float:
    """The median seconds to first words of ``visitors`` visitors one after another (addresses from ``first``)."""
    times = []
    for n in range(first, first + visitors):
        visitor = QueueVisitor(url, headers={"X-Forwarded-For": f"10.98.{n // 250}.{n % 250 + 1}"}, endpoint=endpoint)
        visit = visitor.visit(f"Are you available for new projects? ({n})")
        if MODEL_WORDS not in visit.output:
            raise RuntimeError(f"a visitor got no words from the model: {visit.output[:200]!r}")
        times.append(visit.first_words)
    return statistics.median(times)


def flood_rows(fake: FakeOpenAI, work: Path, visitors: int, model_delay: float) -> list[tuple[str, str, str]]:
    """The flood row: ``visitors`` visitors' median first words in quiet and while one client floods, against
    a ``model_delay`` s model; ``python app.py`` in a process of its own, as served."""
    fake.default = say(MODEL_WORDS, delay=model_delay)
    with app_served(fake, work / "data-flood") as (url, _):
        endpoint = endpoint_of(url)
        first_words(url, endpoint, 2, 0)  # warm: the first replies of a process pay for imports
        quiet = first_words(url, endpoint, visitors, 10)
        with Flood(url, endpoint[0]) as flood:
            flooded = first_words(url, endpoint, visitors, 1000)
    refused, let_in = flood.answers[422], flood.answers[200]
    return [
        (
            f"First words while one client floods ({visitors} visitors one after another, {model_delay:g} s model; median)",
            f"quiet {quiet * 1000:.0f} ms, flooding {flooded * 1000:.0f} ms; the flood: {sum(flood.answers.values()):,} "
            f"messages, {refused:,} refused at the door, {let_in} let in",
            f"{flooded / quiet:.2f}x (target ≤ 1.10x)",
        )
    ]
