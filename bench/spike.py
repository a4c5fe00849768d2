"""The spike row: a crowd arriving at once (a post that goes around, a talk's QR code), each visitor
leaving an address, against a slow model; the app beside the floor, a bare streaming ``ChatInterface``.

Each visitor speaks Gradio's queue protocol itself (:mod:`bench.queue_visitor`), from an address of
its own (``X-Forwarded-For``, the app trusting one proxy), and all are let go at the same instant.
Reported: visitors answered, leads stored, the 99th percentile of the time to first words, and how
many replies the model wrote (the rest were made without one, the lanes being busy).
"""

from __future__ import annotations

import math
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Callable

from bench.queue_visitor import QueueVisitor, Visit, endpoint_of
from replica.settings import Settings
from replica.wiring import create_app
from tests.fakes.openai_server import FakeOpenAI, say

MODEL_WORDS = "I am available for new projects from next month, remote or on-site in Lisbon."


def message_of(n: int) -> str:
    """Visitor ``n``'s message: a question and an address of their own."""
    return f"Hi, I'm visitor {n}. Are you available for new projects? Reach me at visitor{n}@example.org"


def address_of(n: int) -> str:
    """Visitor ``n``'s own client address (a proxy's header; 2 × 250 × 250 of them)."""
    return f"10.{n // 62_500}.{n // 250 % 250}.{n % 250 + 1}"


@dataclass(frozen=True)
class Crowd:
    """What a crowd of visitors got: each one's :class:`Visit` (or the error it met instead)."""

    visits: list[Visit | Exception]

    @property
    def failures(self) -> str:
        """How many visitors got no reply, and what the first of them met ("" when none)."""
        errors = [visit for visit in self.visits if isinstance(visit, Exception)]
        return f" ({len(errors)} failed: {type(errors[0]).__name__}: {str(errors[0])[:120]})" if errors else ""

    @property
    def answered(self) -> list[Visit]:
        return [visit for visit in self.visits if isinstance(visit, Visit) and visit.output.strip()]

    def first_words(self, percentile: float) -> float:
        """The ``percentile`` (0–100) of the seconds to first words, over the visitors answered."""
        times = sorted(visit.first_words for visit in self.answered)
        return times[min(len(times) - 1, math.ceil(len(times) * percentile / 100) - 1)] if times else math.inf


def crowd(url: str, visitors: int, message: Callable[[int], str] = message_of) -> Crowd:
    """``visitors`` visitors of ``url``, each with its own session and address, sending ``message(n)``
    at the same instant."""
    endpoint = endpoint_of(url)
    people = [QueueVisitor(url, headers={"X-Forwarded-For": address_of(n)}, endpoint=endpoint) for n in range(visitors)]
    start = threading.Barrier(visitors)

    def visit(n: int) -> Visit | Exception:
        start.wait()
        try:
            return people[n].visit(message(n))
        except Exception as error:  # counted as not answered; the run goes on
            return error
        finally:
            people[n].session.close()  # the visitor leaves: their connections close

    with ThreadPoolExecutor(max_workers=visitors) as pool:
        return Crowd(list(pool.map(visit, range(visitors))))


def spike_rows(
    fake: FakeOpenAI, settings: Settings, floor, visitors: int, model_delay: float, free_port: Callable[[], int]
) -> list[tuple[str, str, str]]:
    """The spike row: ``visitors`` at once against a ``model_delay`` s model, the app (from ``settings``)
    beside ``floor`` (a bare ChatInterface on the same model)."""
    fake.default = say(MODEL_WORDS, delay=model_delay)
    app = create_app(replace(settings, trusted_proxy_hops=1))
    app.serve(block=False, quiet=True, server_port=free_port())
    floor.launch(prevent_thread_lock=True, quiet=True, server_port=free_port())
    try:
        model_calls = len(fake.requests)
        ours = crowd(app.demo.local_url, visitors)
        by_model = sum(MODEL_WORDS in visit.output for visit in ours.answered)
        model_calls = len(fake.requests) - model_calls
        stored = {lead.email for lead in app.store.leads.all()}
        kept = sum(f"visitor{n}@example.org" in stored for n in range(visitors))
        theirs = crowd(floor.local_url, visitors)
    finally:
        app.close()
        floor.close()
    return [
        (
            f"Spike: {visitors} visitors at once, each leaving an address, {model_delay:g} s model",
            f"app: {len(ours.answered)}/{visitors} answered{ours.failures}, {kept}/{visitors} leads stored, first words p99 "
            f"{ours.first_words(99):.1f} s, {by_model} answered by the model ({model_calls} model calls); "
            f"floor: {len(theirs.answered)}/{visitors} answered{theirs.failures}, first words p99 {theirs.first_words(99):.1f} s",
            "target: all answered, all kept, first words p99 ≤ 10 s",
        )
    ]
