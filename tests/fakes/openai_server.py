"""A scripted OpenAI-compatible ``/v1/chat/completions`` server, streaming included.

Tests queue replies with :meth:`FakeOpenAI.script`; when the queue is empty the ``default`` reply is
used. Every request body is recorded, with the number of requests in flight at once.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from tests.fakes.server import LocalServer, Response


@dataclass
class Reply:
    """One scripted model answer: words, tool calls, or an HTTP error; optionally slow or streamed in pieces."""

    content: str | None = None
    tool_calls: list[tuple[str, str]] = field(default_factory=list)  # (name, raw JSON arguments)
    status: int = 200
    delay: float = 0.0  # before answering at all (a provider that never answers: a long delay)
    pieces: int = 1  # streamed content pieces
    piece_delay: float = 0.0
    forever: bool = False  # stream the content again and again, never finishing
    cut: bool = False  # end the stream without a finish reason or [DONE], as a dropped connection does
    finish: str | None = None  # the finish reason to send instead of "stop" / "tool_calls" ("length")
    gate: threading.Event | None = None  # when given, the last content piece waits until the test sets it
    usage: tuple[int, int] = (100, 20)  # prompt and completion tokens, streamed when stream_options asks


def say(text: str, **options: Any) -> Reply:
    """A reply in words."""
    return Reply(content=text, **options)


def call(*calls: tuple[str, Any], content: str | None = None, **options: Any) -> Reply:
    """A reply asking for tools: each call is ``(name, arguments)``; a dict is sent as JSON, a str as-is."""
    encoded = [(name, args if isinstance(args, str) else json.dumps(args)) for name, args in calls]
    return Reply(content=content, tool_calls=encoded, **options)


def fail(status: int, **options: Any) -> Reply:
    """An HTTP error answer with OpenAI's error body."""
    return Reply(status=status, **options)


class FakeOpenAI(LocalServer):
    """The fake model server. ``base_url`` goes into ``OPENAI_BASE_URL``."""

    def __init__(self) -> None:
        self.replies: deque[Reply] = deque()
        self.default: Reply | Callable[[dict], Reply] = say("Hello from the fake model.")
        self.requests: list[dict] = []
        self.auth_headers: list[str] = []
        self.api_key = ""  # when set, GET /v1/models refuses any other key with 401
        self.in_flight = 0
        self.max_in_flight = 0
        self.models: list[str] | None = ["fake-model"]  # GET /v1/models; None: the provider has no list
        self.answers_any_model = True  # as llama.cpp's server does; False: 404 for a model not in the list
        self.refuses_stream_options = False  # as a strict server: 400 for a request that carries stream_options
        self._lock = threading.Lock()
        super().__init__()

    def reset(self) -> None:
        """Forget every script, reply setting and record: as new, on the same port."""
        with self._lock:
            self.replies.clear()
            self.requests.clear()
            self.auth_headers.clear()
            self.default = say("Hello from the fake model.")
            self.api_key, self.max_in_flight = "", self.in_flight
            self.models = ["fake-model"]
            self.answers_any_model = True
            self.refuses_stream_options = False

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL, ending in ``/v1``."""
        return f"{self.url}/v1"

    def script(self, *replies: Reply) -> None:
        """Queue replies, answered in order, one per request."""
        self.replies.extend(replies)

    @property
    def calls(self) -> int:
        """How many chat-completion requests arrived."""
        return len(self.requests)

    def _next(self, body: dict) -> Reply:
        with self._lock:
            if self.replies:
                return self.replies.popleft()
        return self.default(body) if callable(self.default) else self.default

    def handle(self, method: str, path: str, headers: dict[str, str], body: Any) -> Response:
        if method == "GET" and path.endswith("/models") and self.models is not None:
            if headers.get("authorization") != "Bearer " + self.api_key and self.api_key:
                return Response(
                    401, {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}}
                )
            models = [{"id": name, "object": "model", "created": 0, "owned_by": "fake"} for name in self.models]
            return Response(200, {"object": "list", "data": models})
        if method != "POST" or not path.endswith("/chat/completions"):
            return Response(404, {"error": {"message": f"no route {path}", "type": "invalid_request_error"}})
        if not self.answers_any_model and self.models is not None and body.get("model") not in self.models:
            message = f"The model `{body.get('model')}` does not exist"
            return Response(
                404, {"error": {"message": message, "type": "invalid_request_error", "code": "model_not_found"}}
            )
        if self.refuses_stream_options and "stream_options" in body:
            error = {
                "message": "Unrecognized request argument supplied: stream_options",
                "type": "invalid_request_error",
            }
            return Response(400, {"error": error})
        with self._lock:
            self.requests.append(body)
            self.auth_headers.append(headers.get("authorization", ""))
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        reply = self._next(body)
        self.closed.wait(reply.delay)
        if reply.status != 200:
            self._done()
            error = {"error": {"message": f"fake error {reply.status}", "type": "server_error", "code": None}}
            # OpenAI sends retry hints; a short one keeps the SDK's own retries fast in tests.
            return Response(reply.status, error, headers={"retry-after-ms": "10"})
        if body.get("stream"):
            return Response(200, chunks=self._until_done(_stream(reply, body)))
        self._done()
        return Response(200, _completion(reply, body))

    def _done(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def _until_done(self, chunks: Iterator[bytes]) -> Iterator[bytes]:
        try:
            yield from chunks
        finally:
            self._done()


def _tool_call_dicts(reply: Reply) -> list[dict]:
    return [
        {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": args}}
        for i, (name, args) in enumerate(reply.tool_calls)
    ]


def _completion(reply: Reply, body: dict) -> dict:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = _tool_call_dicts(reply)
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "fake"),
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if reply.tool_calls else "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def _stream(reply: Reply, body: dict) -> Iterator[bytes]:
    """Server-sent events as OpenAI streams them; tool-call arguments arrive in pieces, keyed by index."""

    def event(delta: dict, finish: str | None = None) -> bytes:
        chunk = {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        return f"data: {json.dumps(chunk)}\n\n".encode()

    yield event({"role": "assistant", "content": ""})
    text = reply.content or ""
    size = max(1, -(-len(text) // max(reply.pieces, 1)))
    while True:
        for start in range(0, len(text), size):
            time.sleep(reply.piece_delay)
            if reply.gate is not None and start + size >= len(text):
                reply.gate.wait(timeout=60)  # a partial answer stays partial until the test has seen it
            yield event({"content": text[start : start + size]})
        if not reply.forever:
            break
    if reply.cut:
        return
    for index, call_ in enumerate(_tool_call_dicts(reply)):
        first = {
            "index": index,
            "id": call_["id"],
            "type": "function",
            "function": {"name": call_["function"]["name"], "arguments": ""},
        }
        yield event({"tool_calls": [first]})
        args = call_["function"]["arguments"]
        for start in range(0, len(args), 7):
            yield event({"tool_calls": [{"index": index, "function": {"arguments": args[start : start + 7]}}]})
    yield event({}, finish=reply.finish or ("tool_calls" if reply.tool_calls else "stop"))
    if (body.get("stream_options") or {}).get("include_usage"):  # as OpenAI: a last chunk, no choices
        prompt, completion = reply.usage
        usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
        chunk = {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [],
            "usage": usage,
        }
        yield f"data: {json.dumps(chunk)}\n\n".encode()
    yield b"data: [DONE]\n\n"
