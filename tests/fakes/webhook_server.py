"""A stand-in for the services Apprise posts alerts to: a generic webhook (``json://``, ``form://``) and an
ntfy server (``ntfy://``), on 127.0.0.1. It records what arrived, and can be told to fail, or to be slow."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from tests.fakes.server import LocalServer, Response


@dataclass
class Received:
    """One message the service took: the path it was posted to, and its fields."""

    path: str
    body: dict[str, Any]

    @property
    def title(self) -> str:
        return str(self.body.get("title", ""))

    @property
    def text(self) -> str:
        """The message's text, whichever field the service's format puts it in."""
        return str(self.body.get("message") or self.body.get("body") or self.body.get("_raw") or "")


class FakeWebhook(LocalServer):
    """Takes every POST (200) unless told to fail; ``delay`` makes each answer slow."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.attempts = 0
        self.delay = 0.0
        self.gate = threading.Event()  # cleared: every post waits until it is set again (a hung service)
        self.gate.set()
        self._failures: list[int] = []
        self._lock = threading.Lock()
        super().__init__()

    def fail_next(self, status: int, times: int = 1) -> None:
        """Answer the next ``times`` posts with ``status`` (a 5xx, say)."""
        with self._lock:
            self._failures.extend([status] * times)

    def reset(self) -> None:
        with self._lock:
            self.received.clear()
            self._failures.clear()
            self.attempts, self.delay = 0, 0.0
        self.gate.set()

    def handle(self, method: str, path: str, headers: dict[str, str], body: Any) -> Response:
        if method != "POST":
            return Response(405, {"error": "POST only"})
        with self._lock:
            self.attempts += 1
            status = self._failures.pop(0) if self._failures else 200
        self.gate.wait(30)
        time.sleep(self.delay)
        if status != 200:
            return Response(status, {"error": f"fake failure {status}"})
        if isinstance(body, dict) and "_raw" in body and "=" in body["_raw"]:
            body = {key: values[-1] for key, values in parse_qs(body["_raw"]).items()}  # a form post
        with self._lock:
            self.received.append(Received(path, body if isinstance(body, dict) else {"_raw": str(body)}))
        return Response(200, {"ok": True, "id": str(len(self.received))})
