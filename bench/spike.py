"""The spike row: a crowd arriving at once (a post that goes around, a talk's QR code), each visitor
leaving an address, against a slow model; the app beside the floor, a bare streaming ``ChatInterface``.

The app is ``python app.py`` and the floor ``python -m bench.floor``, each in a process of its own as it
would be served (the visitors' threads in this one). Each visitor speaks Gradio's queue protocol itself
(:mod:`bench.queue_visitor`), from an address of its own (``X-Forwarded-For``, the app trusting one
proxy), and all are let go at the same instant.
Reported: visitors answered, leads stored, the 99th percentile of the time to first words, and how
many replies the model wrote (the rest were made without one, the lanes being busy).
"""

from __future__ import annotations

import contextlib
import csv
import io
import math
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import requests

from bench.queue_visitor import QueueVisitor, Visit, endpoint_of
from tests.fakes.openai_server import FakeOpenAI, say
from tests.fakes.telegram_server import FakeTelegram
from tests.fixtures.environment import bare_env, free_port

ROOT = Path(__file__).resolve().parent.parent

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
        return [
            visit for visit in self.visits if isinstance(visit, Visit) and visit.output.strip() and not visit.refused
        ]

    def first_words(self, percentile: float) -> float:
        """The ``percentile`` (0–100) of the seconds to first words, over the visitors answered."""
        times = sorted(visit.first_words for visit in self.answered)
        return times[min(len(times) - 1, math.ceil(len(times) * percentile / 100) - 1)] if times else math.inf


def crowd(url: str, visitors: int, message: Callable[[int], str] = message_of) -> Crowd:
    """``visitors`` visitors of ``url``, each with its own session and address, sending ``message(n)``
    at the same instant."""
    endpoint = endpoint_of(url)
    # Each request on a connection of its own: a kept-alive one can be closed by the server (uvicorn
    # closes one idle 5 s) just as a visitor's thread, slow in a crowd, sends on it, and the reset
    # would be the client's, not the server's (a browser sends such a request again).
    headers = {"Connection": "close"}
    people = [
        QueueVisitor(url, headers={**headers, "X-Forwarded-For": address_of(n)}, endpoint=endpoint)
        for n in range(visitors)
    ]
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


@contextlib.contextmanager
def serving(command: list[str], port: int, env: dict[str, str]) -> Iterator[str]:
    """Run ``command`` (a server on ``port``) in a process of its own until its page answers (within
    120 s); yield its URL; stop it afterwards."""
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 120
        while not answers(url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{' '.join(command)} did not start within 120 s")
            time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


def answers(url: str) -> bool:
    """Whether the page at ``url`` is served."""
    try:
        return requests.get(url, timeout=10).status_code == 200
    except requests.RequestException:  # not listening yet, or too busy starting to answer
        return False


def app_env(fake: FakeOpenAI, telegram: FakeTelegram, data: Path, port: int) -> dict[str, str]:
    """``python app.py`` as an owner runs it (the example knowledge, a model, Telegram), behind one
    trusted proxy, with no per-visitor limits in the way of the measure."""
    return bare_env(  # the app's settings empty but these: a .env in the repository is never read
        **{
            "OPENAI_API_KEY": "sk-bench",
            "OPENAI_BASE_URL": fake.base_url,
            "OPENAI_MODEL": "bench",
            "OWNER_NAME": "Jordan Avery",
            "KNOWLEDGE_DIR": str(ROOT / "knowledge"),
            "DATA_DIR": str(data),
            "GRADIO_SERVER_NAME": "127.0.0.1",
            "GRADIO_SERVER_PORT": str(port),
            "TRUSTED_PROXY_HOPS": "1",
            "VISITOR_MESSAGES_PER_HOUR": "10000",
            "ADDRESS_MESSAGES_PER_HOUR": "10000",
            "DAILY_MODEL_CALLS": "1000000",
            **telegram.env,
            "GRADIO_ANALYTICS_ENABLED": "False",
        }
    )


@contextlib.contextmanager
def app_served(fake: FakeOpenAI, data: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """``python app.py`` as an owner runs it (:func:`app_env`, Telegram at a stand-in), its data in ``data``,
    on a free port: its URL and environment, until the block ends."""
    telegram = FakeTelegram()
    port = free_port()
    env = app_env(fake, telegram, data, port)
    try:
        with serving([sys.executable, "app.py"], port, env) as url:
            yield url, env
    finally:
        telegram.close()


def leads_in(env: dict[str, str]) -> set[str]:
    """The addresses ``python app.py export leads`` lists for the app run with ``env``."""
    done = subprocess.run(
        [sys.executable, "app.py", "export", "leads"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    return {lead["email"] for lead in csv.DictReader(io.StringIO(done.stdout))}


def spike_rows(fake: FakeOpenAI, work: Path, visitors: int, model_delay: float) -> list[tuple[str, str, str]]:
    """The spike row: ``visitors`` at once against a ``model_delay`` s model; ``python app.py`` beside the
    floor (a bare streaming ChatInterface on the same model), each in a process of its own, as served."""
    fake.default = say(MODEL_WORDS, delay=model_delay)
    with app_served(fake, work / "data-spike") as (url, env):
        calls = fake.calls
        ours = crowd(url, visitors)
        calls = fake.calls - calls
    port = free_port()
    with serving([sys.executable, "-m", "bench.floor", fake.base_url, str(port)], port, dict(os.environ)) as url:
        theirs = crowd(url, visitors)
    stored = leads_in(env)
    kept = sum(f"visitor{n}@example.org" in stored for n in range(visitors))
    by_model = sum(MODEL_WORDS in visit.output for visit in ours.answered)
    return [
        (
            f"Spike: {visitors} visitors at once, each leaving an address, {model_delay:g} s model",
            f"app: {len(ours.answered)}/{visitors} answered{ours.failures}, {kept}/{visitors} leads stored, first "
            f"words p99 {ours.first_words(99):.1f} s, {by_model} answered by the model ({calls} model calls); "
            f"floor: {len(theirs.answered)}/{visitors} answered{theirs.failures}, first words p99 "
            f"{theirs.first_words(99):.1f} s",
            "target: all answered, all kept, first words p99 ≤ 10 s",
        )
    ]
