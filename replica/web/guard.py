"""The HTTP guard in front of the page: bounds what a visitor's browser, or a script, may send.

A pure ASGI middleware (it never buffers a streamed answer), installed into Gradio's own server:

- no uploads: the chat is text only, so ``…/upload`` is refused, whatever the size;
- no request body over ``max_body_bytes`` (1 MiB), and none over ``max_event_bytes`` (64 KiB, or more
  for a higher message limit) to the routes that run the page's events: no event takes more than one
  typed message, so a bigger body is never a visitor's;
- a query string of over 20 fields, or a form of over 50, is refused (400), and logged once a minute
  with a count;
- a ``session_hash`` must look like one that Gradio issues: 1-64 letters, digits, ``-`` or ``_``. It is
  read where Gradio reads it: the parsed JSON body (whatever its escaping), a form body, the query
  string, and the path of the heartbeat and stream routes. Anything else is refused before Gradio
  keeps state for it, logs it, or counts it.
- an event in ``closed_events`` (by id) or ``closed_names`` (by API name) runs for no one: ZeroGPU's
  placeholder (:mod:`replica.web.zerogpu`) is registered with Gradio, and refused here on every route;
  an event the app does not have (``open_events``, by the body's ``fn_index``; else ``open_names``, by
  the path's API name, so ``run/predict`` with no ``fn_index`` too) is refused (404) before Gradio,
  which would fail on it with a traceback in the log;
- every response says which sites may frame the page (``Content-Security-Policy: frame-ancestors``,
  from ``EMBED_ORIGINS``; any, when none is named);
- the MCP routes' requests carry the caller's real address to the MCP tool, signed, in
  :data:`CALLER_HEADER` (Gradio's MCP server calls the tool over loopback, forwarding the headers);
  a header of that name that this process did not sign is removed, so no client can set it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
import secrets
from typing import Any, Callable, TypeGuard
from urllib.parse import parse_qs

from starlette.types import Message, Receive, Scope, Send

from replica.logs import EveryMinute
from replica.settings import default

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 1024 * 1024
MAX_EVENT_BYTES = 64 * 1024
SESSION_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
EVENT_ROUTES = re.compile(r"/(queue/join|run/|call/|api/)")
SESSION_IN_PATH = re.compile(r"/(heartbeat|stream)/([^/]*)")
API_NAME_IN_PATH = re.compile(r"/(?:run|call|api)/([^/]+)")
MCP_ROUTE = "/gradio_api/mcp"
CALLER_HEADER = b"x-replica-caller"
FORM = "application/x-www-form-urlencoded"
MAX_QUERY_FIELDS = 20  # the page's own requests have one or two
MAX_FORM_FIELDS = 50
TOO_MANY_FIELDS = EveryMinute(
    log, "HTTP guard: refused %d request(s) with an over-long query string or form (logged at most once a minute)"
)


def trusted_hop(header: str, hops: int) -> str:
    """The entry that the outermost of ``hops`` trusted proxies appended to a comma-separated forwarding
    header (``X-Forwarded-For``, ``-Proto``, ``-Host``); "" when it has fewer. Entries left of it may be
    the client's own."""
    parts = [part.strip() for part in header.split(",") if part.strip()]
    return parts[-hops] if hops > 0 and len(parts) >= hops else ""


def caller_address(scope: Scope, trusted_proxy_hops: int) -> str:
    """As :func:`replica.web.page.client_address`: the hop our own proxies recorded, else the direct peer."""
    direct = (scope.get("client") or ("unknown", 0))[0]
    forwarded = b",".join(value for name, value in scope.get("headers") or [] if name == b"x-forwarded-for")
    return trusted_hop(forwarded.decode("latin-1"), trusted_proxy_hops) or direct


def valid_session_id(value: object) -> TypeGuard[str]:
    """True for a session id of the shape Gradio issues (its page and ``gradio_client`` alike)."""
    return isinstance(value, str) and SESSION_ID.fullmatch(value) is not None


def max_event_bytes(max_message_chars: int) -> int:
    """The largest body the page's events need: one message of ``max_message_chars`` characters, each
    escaped as JSON may escape it (up to 12 bytes for an emoji), and the envelope."""
    return max(MAX_EVENT_BYTES, 12 * max_message_chars + 4096)


class CallerSignature:
    """Signs and checks the caller address the guard hands to the MCP tool (a key per process)."""

    def __init__(self, key: bytes | None = None):
        self._key = key or secrets.token_bytes(32)

    def sign(self, address: str) -> bytes:
        mac = hmac.new(self._key, address.encode("utf-8", "replace"), hashlib.sha256).hexdigest()[:32]
        return f"{address};{mac}".encode("latin-1", "replace")

    def address(self, header: str | None) -> str | None:
        """The address in a header this process signed; ``None`` for anything else."""
        address, _, mac = (header or "").rpartition(";")
        if not address or not hmac.compare_digest(self.sign(address), f"{address};{mac}".encode("latin-1", "replace")):
            return None
        return address


SIGNATURE = CallerSignature()


class RequestTooLarge(Exception):
    """The body grew past the limit while it was being read."""


class RequestGuard:
    """ASGI middleware: refuses uploads, oversized bodies and malformed session ids with a short JSON error."""

    def __init__(
        self,
        app: Callable,
        max_body_bytes: int = MAX_BODY_BYTES,
        max_event_bytes: int = MAX_EVENT_BYTES,
        trusted_proxy_hops: int = default("trusted_proxy_hops"),
        signature: CallerSignature = SIGNATURE,
        closed_events: frozenset[int] = frozenset(),
        closed_names: frozenset[str] = frozenset(),
        frame_ancestors: str = "*",
        open_names: frozenset[str] | None = None,
        open_events: frozenset[int] | None = None,
    ):
        self.app = app
        self.open_names, self.open_events = open_names, open_events  # None: not checked
        self._frame_policy = (b"content-security-policy", f"frame-ancestors {frame_ancestors}".encode("latin-1"))
        self.closed_events = closed_events
        self.closed_names = closed_names
        self.max_body_bytes = max_body_bytes
        self.max_event_bytes = max_event_bytes
        self.trusted_proxy_hops = trusted_proxy_hops
        self.signature = signature

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = self._with_frame_policy(send)
        scope = self._with_caller(scope)
        limit = self.max_event_bytes if EVENT_ROUTES.search(scope["path"]) else self.max_body_bytes
        problem = self._header_problem(scope, limit)
        if problem:
            await refuse(send, *problem)
            return
        if self.closed_names.intersection(scope["path"].split("/")):
            await refuse(send, 404, "No such event.")
            return
        if scope["method"] not in ("POST", "PUT", "PATCH"):
            if self._unknown_name(scope["path"]):
                await refuse(send, 404, "No such event.")
                return
            await self.app(scope, receive, send)
            return
        try:
            body = await self._read_body(receive, limit)
        except RequestTooLarge:
            await refuse(send, 413, "Request too large.")
            return
        content_type = _content_type(scope)
        try:
            data = _json_object(body) if content_type != FORM else None  # read once, for both checks below
        except RecursionError:  # nested deeper than the JSON decoder reads: neither the page nor Telegram sends that
            await refuse(send, 400, "Malformed body.")
            return
        try:
            sessions = _sessions_in_body(body, content_type, data)
        except ValueError:
            TOO_MANY_FIELDS()
            await refuse(send, 400, "Too many fields.")
            return
        if not all(valid_session_id(value) for value in sessions):
            await refuse(send, 400, "Invalid session.")
            return
        if self._unknown_event(_event_in(data), scope["path"]):
            await refuse(send, 404, "No such event.")
            return
        await self.app(scope, replay(body, receive), send)

    def _unknown_name(self, path: str) -> bool:
        """Whether ``path`` (on the routes that run an event by name) names an API name the app lacks."""
        named = API_NAME_IN_PATH.search(path)
        return bool(named and self.open_names is not None and named.group(1) not in self.open_names)

    def _unknown_event(self, event: int | None, path: str) -> bool:
        """Whether a request runs an event that is closed or that the app lacks: by the ``fn_index`` its body
        names (Gradio then ignores the path's name: the page's own requests go to ``run/predict``), else
        by the path's API name."""
        if event is None:
            return self._unknown_name(path)
        return event in self.closed_events or (self.open_events is not None and event not in self.open_events)

    def _with_frame_policy(self, send: Send) -> Send:
        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), self._frame_policy]}
            await send(message)

        return sending

    def _with_caller(self, scope: Scope) -> Scope:
        """The request without any caller header this process did not sign (Gradio's own loopback call
        carries the one it signed); on the MCP routes, with the caller's real address, signed."""
        headers = [
            (name, value)
            for name, value in scope.get("headers") or []
            if name != CALLER_HEADER or self.signature.address(value.decode("latin-1")) is not None
        ]
        if scope["path"].startswith(MCP_ROUTE):
            headers = [(name, value) for name, value in headers if name != CALLER_HEADER]
            headers.append((CALLER_HEADER, self.signature.sign(caller_address(scope, self.trusted_proxy_hops))))
        return {**scope, "headers": headers}

    def _header_problem(self, scope: Scope, limit: int) -> tuple[int, str] | None:
        path: str = scope["path"]
        if path.rstrip("/").endswith("/upload"):
            return 413, "This page takes no files."
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length", b"0")
        if not length.isdigit() or int(length) > limit:
            return 413, "Request too large."
        try:
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"), max_num_fields=MAX_QUERY_FIELDS)
        except ValueError:  # more fields than any of the page's requests has
            TOO_MANY_FIELDS()
            return 400, "Too many fields."
        if not all(valid_session_id(value) for value in query.get("session_hash", [])):
            return 400, "Invalid session."
        in_path = SESSION_IN_PATH.search(path)
        if in_path and not valid_session_id(in_path.group(2)):
            return 400, "Invalid session."
        if b"session_hash" in headers and not valid_session_id(headers[b"session_hash"].decode("latin-1")):
            return 400, "Invalid session."
        return None

    async def _read_body(self, receive: Receive, limit: int) -> bytes:
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise RequestTooLarge()
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        return b"".join(chunks)


def _content_type(scope: Scope) -> str:
    headers = dict(scope.get("headers") or [])
    return headers.get(b"content-type", b"").decode("latin-1").split(";")[0].strip().lower()


def _json_object(body: bytes) -> dict | None:
    """The JSON object a body holds (parsed, so escaping cannot hide a key), or ``None``."""
    if not body.strip():
        return None
    try:
        data = json.loads(body)
    except ValueError:
        return None  # not JSON: Gradio refuses it itself
    return data if isinstance(data, dict) else None


def _sessions_in_body(body: bytes, content_type: str, data: dict | None) -> list[Any]:
    """Every ``session_hash`` Gradio could read from this body: the top-level key of its JSON object
    (``data``), or a form field. Raises ``ValueError`` for a form of more than :data:`MAX_FORM_FIELDS`
    fields."""
    if content_type == FORM:
        return parse_qs(body.decode("latin-1"), max_num_fields=MAX_FORM_FIELDS).get("session_hash", [])
    if data is None or data.get("session_hash") is None:
        return []
    return [data["session_hash"]]


def _event_in(data: dict | None) -> int | None:
    """The event a JSON body names (``fn_index``, as the page's queue requests do), read as leniently as
    Gradio's pydantic model reads it (``"0"``, ``0.0`` and ``true`` are numbers there too)."""
    value = data.get("fn_index") if data else None
    if not isinstance(value, (str, int, float)):  # JSON's other values (null, lists, objects) name none
        return None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return int(number) if number.is_integer() else None


def replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the app the body already read, then whatever comes next (a disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def refuse(send: Send, status: int, detail: str) -> None:
    """Answer ``status`` with a short JSON ``detail``."""
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
