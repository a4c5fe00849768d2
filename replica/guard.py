"""The HTTP guard in front of the page: bounds what a visitor's browser, or a script, may send.

A pure ASGI middleware (it never buffers a streamed answer), installed into Gradio's own server:

- no uploads: the chat is text only, so ``…/upload`` is refused, whatever the size;
- no request body over ``max_body_bytes`` (1 MiB; a long conversation's history is far smaller);
- a ``session_hash`` (in a JSON body, the query string, or a heartbeat path) must look like one that
  Gradio issues: 1-64 letters, digits, ``-`` or ``_``. Anything else is refused before Gradio keeps
  state for it, logs it, or counts it.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any, Awaitable, Callable
from urllib.parse import parse_qs

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 1024 * 1024
SESSION_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def valid_session_id(value: Any) -> bool:
    """True for a session id of the shape Gradio issues (its page and ``gradio_client`` alike)."""
    return isinstance(value, str) and SESSION_ID.fullmatch(value) is not None


class RequestTooLarge(Exception):
    """The body grew past the limit while it was being read."""


class RequestGuard:
    """ASGI middleware: refuses uploads, oversized bodies and malformed session ids with a short JSON error."""

    def __init__(self, app: Callable, max_body_bytes: int = MAX_BODY_BYTES):
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        problem = self._header_problem(scope)
        if problem:
            await _refuse(send, *problem)
            return
        if scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        try:
            body = await self._read_body(receive)
        except RequestTooLarge:
            await _refuse(send, 413, "Request too large.")
            return
        if not valid_session_id(_session_in_body(body, default="ok")):
            await _refuse(send, 400, "Invalid session.")
            return
        await self.app(scope, _replay(body, receive), send)

    def _header_problem(self, scope: Scope) -> tuple[int, str] | None:
        path: str = scope["path"]
        if path.rstrip("/").endswith("/upload"):
            return 413, "This page takes no files."
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length", b"0")
        if not length.isdigit() or int(length) > self.max_body_bytes:
            return 413, "Request too large."
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"), max_num_fields=20)
        if any(not valid_session_id(value) for value in query.get("session_hash", [])):
            return 400, "Invalid session."
        if "/heartbeat/" in path and not valid_session_id(path.rstrip("/").rsplit("/", 1)[-1]):
            return 400, "Invalid session."
        return None

    async def _read_body(self, receive: Receive) -> bytes:
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                raise RequestTooLarge()
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        return b"".join(chunks)


def _session_in_body(body: bytes, default: str) -> Any:
    """The ``session_hash`` of a JSON object body; ``default`` when there is none to check."""
    if b"session_hash" not in body:
        return default
    try:
        data = json.loads(body)
    except ValueError:
        return default  # not JSON: Gradio refuses it itself
    if not isinstance(data, dict) or data.get("session_hash") is None:
        return default
    return data["session_hash"]


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the app the body already read, then whatever comes next (a disconnect)."""
    sent = False

    async def replay() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _refuse(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
