"""A visitor that speaks Gradio's queue protocol itself, timing each message to the millisecond.

``gradio_client`` hands each event's server messages to the waiting call through a queue it polls
every 50 ms (``time.sleep(0.05)`` in ``gradio_client.utils.stream_sse_v1plus``, version 2.7), so the
times it gives are rounded up to its next poll: a message the server finishes in 72 ms takes 74 ms or
124 ms, as the poll's phase falls. This visitor sends what ``gradio_client`` sends (``queue/join``, then
the session's ``queue/data`` event stream) and stops the clock on the ``process_completed`` line.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass

import requests


def endpoint_of(url: str, api_name: str = "chat") -> tuple[int, int]:
    """The event index of ``url``'s endpoint ``api_name``, and how many inputs it takes."""
    config = requests.get(url.rstrip("/") + "/config", timeout=30).json()
    named = [d for d in config["dependencies"] if d.get("api_name") == api_name]
    if not named:
        raise LookupError(f"{url} has no endpoint named /{api_name}")
    return named[0]["id"], len(named[0]["inputs"])


class QueueVisitor:
    """One visitor (one Gradio session) of the app at ``url``, calling the endpoint ``api_name`` (or the
    ``endpoint`` :func:`endpoint_of` gave, for a crowd), each request with ``headers`` (a proxy's
    ``X-Forwarded-For``, say)."""

    def __init__(
        self,
        url: str,
        api_name: str = "chat",
        headers: dict[str, str] | None = None,
        endpoint: tuple[int, int] | None = None,
    ):
        self.url = url.rstrip("/") + "/"
        self.session = requests.Session()
        self.session.headers.update(headers or {})
        self.session_hash = secrets.token_hex(6)
        # As gradio_client does: a value for each input, None for those the server keeps (a gr.State).
        self.fn_index, self.inputs = endpoint or endpoint_of(url, api_name)

    def send(self, message: str) -> tuple[str, float]:
        """Send ``message``; return the final output (or the sentence that refused it at the door) and the
        seconds from sending to the last line."""
        visit = self.visit(message)
        return visit.output, visit.done

    def visit(self, message: str) -> Visit:
        """Send ``message``; return its output, with the seconds to its first words and to its last line."""
        started = time.perf_counter()
        body = {
            "data": [message] + [None] * (self.inputs - 1),
            "fn_index": self.fn_index,
            "session_hash": self.session_hash,
        }
        joined = self.session.post(self.url + "gradio_api/queue/join", json=body, timeout=60)
        if joined.status_code == 422:  # refused at the line's door, at once, in a sentence (as a failed validation)
            elapsed = time.perf_counter() - started
            return Visit(" ".join(part["message"] for part in joined.json()["detail"]), elapsed, elapsed, refused=True)
        joined.raise_for_status()
        event_id = joined.json()["event_id"]
        stream = self.session.get(
            self.url + "gradio_api/queue/data", params={"session_hash": self.session_hash}, stream=True, timeout=60
        )
        first = None
        with stream:
            for line in stream.iter_lines(chunk_size=None):
                if not line.startswith(b"data:"):
                    continue
                event = json.loads(line[5:])
                if event.get("event_id") != event_id:
                    continue
                if event.get("msg") in ("process_generating", "process_completed") and first is None:
                    first = time.perf_counter() - started
                if event.get("msg") == "process_completed":
                    elapsed = time.perf_counter() - started
                    if not event.get("success", False):
                        raise RuntimeError(f"the message failed: {event.get('output')}")
                    return Visit(event["output"]["data"][0], first, elapsed)
        raise RuntimeError("the event stream ended before the message was answered")


@dataclass(frozen=True)
class Visit:
    """A message's reply, and the seconds from sending it to its first words and to its last line."""

    output: str
    first_words: float
    done: float
    refused: bool = False  # the line's door refused the message: ``output`` is its sentence
