"""The door of the line for a reply: an ASGI middleware that asks the :class:`~replica.web.line.Line` as a
message joins Gradio's queue, and watches the event streams that carry the replies.

- ``…/queue/join`` and ``…/call/<api>`` (a message joining): a client address already at its share of the
  line is refused before the body is even read; then a session with a message in the line, or a full
  line, is refused; then, for the replies, the hourly limits are counted (``admit``, off the event loop:
  it may ask the database). A refusal is answered at once, as Gradio answers an input its validator
  refuses (422, the sentence for the visitor as the failed validation's message: the page shows it above
  the box, the words given back, the box open again; ``gradio_client`` raises it): it never waits its
  turn, and a flood never delays anyone else. A message let in carries its ticket (:data:`TICKET_HEADER`), so its reply says
  when it is written, and :data:`COUNTED_HEADER`, so its reply does not count it again; a client's own
  headers of those names are removed from every request.
- ``…/queue/data`` and ``…/call/<api>/<event>`` (a reply's event stream) open only while the session has a
  message in the line, one at a time; ``…/heartbeat/<session>`` one a session; every stream counts against
  the client's share of connections. A reply's last message on its stream takes it out of the line, and
  a stream that ends first (the client gone: Gradio drops the session's events) takes the session's.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from typing import Any, Callable
from urllib.parse import parse_qs

from replica.inbox.recorder import address_group
from replica.logs import EveryMinute
from replica.settings import default
from replica.web.guard import Message, Receive, Scope, Send, caller_address, refuse, replay
from replica.web.line import Line, Refusal, Ticket

log = logging.getLogger(__name__)

TICKET_HEADER = b"x-replica-ticket"  # the message's ticket in the line: its reply says when it is written
COUNTED_HEADER = b"x-replica-counted"  # the hourly limits counted the message at the door
JOIN = re.compile(r"/(?:queue/join|call/(?:v2/)?([^/]+))/?$")
STREAM = re.compile(r"/(?:queue/(data)|(heartbeat)/([^/]+)|call/(?:v2/)?[^/]+/([^/]+))/?$")
REFUSED = EveryMinute(log, "The line: refused %d message(s) or stream(s) at the door (logged at most once a minute)")
STATUS = {Refusal.NOTHING_TO_STREAM: 404, Refusal.STREAM_OPEN: 409}

Admit = Callable[[str, str], "str | None"]  # (session, client address) -> the refusal's sentence, or None


class LineGuard:
    """ASGI middleware: the line's door (see the module's text). ``replies``: the events whose messages the
    hourly limits count (by ``fn_index``, and by API name for ``/call/``); ``admit`` counts them."""

    def __init__(
        self,
        app: Callable,
        line: Line,
        replies: frozenset[int] = frozenset(),
        reply_names: frozenset[str] = frozenset(),
        admit: Admit | None = None,
        trusted_proxy_hops: int = default("trusted_proxy_hops"),
        refused: EveryMinute = REFUSED,
    ):
        self.app = app
        self.line = line
        self.replies = replies
        self.reply_names = reply_names
        self.admit = admit
        self.trusted_proxy_hops = trusted_proxy_hops
        self.refused = refused
        self._told_of_proxy = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        own = (TICKET_HEADER, COUNTED_HEADER)
        scope = {**scope, "headers": [(k, v) for k, v in scope.get("headers") or [] if k not in own]}
        path, method = scope["path"], scope["method"]
        joining = JOIN.search(path) if method == "POST" else None
        streaming = STREAM.search(path) if method == "GET" else None
        if joining:
            await self._join(scope, receive, send, joining.group(1))
        elif streaming:
            await self._stream(scope, receive, send, streaming)
        else:
            await self.app(scope, receive, send)

    async def _refuse(self, send: Send, refusal: Refusal | str) -> None:
        self.refused()
        sentence = refusal.value if isinstance(refusal, Refusal) else refusal
        await refuse(send, STATUS.get(refusal, 429) if isinstance(refusal, Refusal) else 429, sentence)

    async def _turn_away(self, send: Send, refusal: Refusal | str) -> None:
        """Refuse a message as it joins, the way Gradio refuses an input its validator rejects (422, the
        sentence as a failed validation): the page ends the event quietly (no error in place of the chat,
        the box open again) and shows the sentence; ``gradio_client`` raises it as a ``ValidationError``."""
        self.refused()
        sentence = refusal.value if isinstance(refusal, Refusal) else refusal
        detail = [{"__type__": "validate", "is_valid": False, "message": sentence, "parameter_name": "message"}]
        await respond(send, 422, {"detail": detail}, [(b"retry-after", b"5")])

    async def _join(self, scope: Scope, receive: Receive, send: Send, api_name: str | None) -> None:
        if not self.trusted_proxy_hops and not self._told_of_proxy:
            self._tell_of_proxy(scope)
        address = caller_address(scope, self.trusted_proxy_hops)
        group = address_group(address)
        refusal = self.line.room_for(group)
        if refusal is not None:
            await self._turn_away(send, refusal)
            return
        body = await read_body(receive)
        data = json_object(body)
        named = data.get("session_hash")
        session = named if isinstance(named, str) else ""
        joined = self.line.join(session, group)
        if isinstance(joined, Refusal):
            await self._turn_away(send, joined)
            return
        try:
            headers = [*scope["headers"], (TICKET_HEADER, str(joined.number).encode())]
            if self._is_reply(data, api_name) and self.admit is not None:
                sentence = await asyncio.to_thread(self.admit, session, address)
                if sentence:
                    await self._turn_away(send, sentence)
                    return
                headers.append((COUNTED_HEADER, b"1"))
            await self.app({**scope, "headers": headers}, replay(body, receive), self._taking_event(joined, send))
        finally:
            if joined.event is None:  # refused by Gradio, or failed: never in its queue
                self.line.leave(joined)

    def _tell_of_proxy(self, scope: Scope) -> None:
        """Say once when messages seem to come through a proxy the app is not told of: every visitor would
        then be the proxy's address to the line and the limits."""
        if any(name == b"x-forwarded-for" for name, _ in scope.get("headers") or []):
            self._told_of_proxy = True
            log.warning(
                "Messages come with an X-Forwarded-For header, and TRUSTED_PROXY_HOPS is 0: if a proxy of your "
                "host's stands in front of the app, every visitor counts as its address for the line and the "
                "limits; set TRUSTED_PROXY_HOPS to the proxies in front of it (docs/hosting.md)"
            )

    def _is_reply(self, data: dict[str, Any], api_name: str | None) -> bool:
        if api_name is not None:
            return api_name in self.reply_names
        event = data.get("fn_index")
        return isinstance(event, int) and event in self.replies

    def _taking_event(self, ticket: Ticket, send: Send) -> Send:
        """``send``, reading the event id Gradio answers a join with (``{"event_id": …}``) into the line."""
        status = 0

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body" and status == 200:
                event = json_object(message.get("body", b"")).get("event_id")
                if isinstance(event, str):
                    self.line.joined(ticket, event)
            await send(message)

        return sending

    async def _stream(self, scope: Scope, receive: Receive, send: Send, route: re.Match) -> None:
        data, heartbeat, beating, event = route.groups()
        if heartbeat:
            kind, session = "heartbeat", beating
        elif data:
            kind, session = "data", first_value(scope, "session_hash")
            if not self.line.has_work(session):
                await self._refuse(send, Refusal.NOTHING_TO_STREAM)
                return
        else:
            kind, session = "call", event
            if not self.line.has_event(event):
                await self._refuse(send, Refusal.NOTHING_TO_STREAM)
                return
        group = address_group(caller_address(scope, self.trusted_proxy_hops))
        refusal = self.line.open_stream(kind, session, group)
        if refusal is not None:
            await self._refuse(send, refusal)
            return
        try:
            if kind == "heartbeat":
                await self.app(scope, receive, send)
            else:
                await self._watched(scope, receive, send, kind, session)
        finally:
            self.line.close_stream(kind, session, group)

    async def _watched(self, scope: Scope, receive: Receive, send: Send, kind: str, session: str) -> None:
        """Run a reply's stream, taking each reply that reaches it out of the line; when the session has
        nothing left in the line (its replies expired), the stream is ended at its next heartbeat."""
        ended = asyncio.Event()

        async def sending(message: Message) -> None:
            if ended.is_set():
                return  # ended here: Gradio's last messages go nowhere
            if message["type"] == "http.response.body":
                chunk = message.get("body", b"")
                for event in answered_events(chunk, kind, session):
                    self.line.answered(event)
                if b'"heartbeat"' in chunk and not self._has_work(kind, session):
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                    ended.set()
                    return
            await send(message)

        async def receiving() -> Message:
            if ended.is_set():
                return {"type": "http.disconnect"}
            return await receive()

        try:
            await self.app(scope, receiving, sending)
        finally:
            if self._has_work(kind, session):  # the stream ended before its replies: Gradio dropped them
                self.line.session_left(session)

    def _has_work(self, kind: str, session: str) -> bool:
        return self.line.has_event(session) if kind == "call" else self.line.has_work(session)


async def respond(send: Send, status: int, content: Any, headers: list[tuple[bytes, bytes]]) -> None:
    """Answer ``status`` with ``content`` as JSON, and ``headers``."""
    body = json.dumps(content).encode()
    start = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *headers]
    await send({"type": "http.response.start", "status": status, "headers": start})
    await send({"type": "http.response.body", "body": body})


def answered_events(chunk: bytes, kind: str, session: str) -> list[str]:
    """The events whose reply ends in this piece of an event stream: ``process_completed`` on
    ``…/queue/data``; ``complete`` or ``error`` on ``…/call/<api>/<event>`` (``session`` is the event there)."""
    if kind == "call":
        return [session] if re.search(rb"^event: (?:complete|error)$", chunk, re.M) else []
    if b"process_completed" not in chunk:
        return []
    events = []
    for line in chunk.split(b"\n"):
        if line.startswith(b"data:") and b"process_completed" in line:  # the words may say it too: read the JSON
            message = json_object(line[5:])
            if message.get("msg") == "process_completed" and isinstance(message.get("event_id"), str):
                events.append(message["event_id"])
    return events


async def read_body(receive: Receive) -> bytes:
    """The request's whole body (the guard in front has bounded it)."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            break
    return b"".join(chunks)


def json_object(body: bytes) -> dict[str, Any]:
    """The JSON object ``body`` holds, or an empty one."""
    try:
        data = json.loads(body) if body.strip() else {}
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def first_value(scope: Scope, name: str) -> str:
    """The first value of the query string's field ``name``, or ""."""
    values = parse_qs(scope.get("query_string", b"").decode("latin-1"), max_num_fields=20).get(name, [""])
    return values[0]
