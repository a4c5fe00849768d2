"""The OpenAI-compatible chat model: the real ``openai`` SDK, streaming, with a per-call timeout.

Some servers refuse any request that carries ``tools`` (HTTP 400: llama.cpp without ``--jinja``, a model
Ollama has no tool template for). Then the call is made again without them, the tools described in the
system prompt instead (``prompts/tools_as_text.md``), so the model can still write its calls as text,
which the loop reads; once such a retry succeeds, later calls go that way at once, for
:data:`RETRY_TOOLS_SECONDS`, after which tools are offered again (a 400 may have had another cause).
Each call asks for its token counts (``stream_options.include_usage``: a last chunk with the usage,
for the owner's ``/stats``); a server that refuses the field with a 400 naming it is asked again
without it, and never again.
The adapter is made once per process for the configured base URL and model, so what it learns of the
server (that it refused tools, that it calls them natively) is learned for that server and model.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any, Iterator, Mapping, Sequence

import httpx
import openai
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from openai.types.chat.chat_completion_chunk import Choice

from replica.chat.model import ModelError, ToolCall, ToolChoice, Turn
from replica.knowledge.prompts import render_prompt
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.settings import OPENAI_API

log = logging.getLogger(__name__)
RETRY_TOOLS_SECONDS = 600.0  # how long a server that refused tools gets them described in the prompt instead


class OpenAIChatModel:
    """Any OpenAI-compatible ``/chat/completions`` endpoint, through ``client``."""

    def __init__(self, client: openai.OpenAI, model: str, clock: Clock = REAL_CLOCK):
        self.client = client
        self.model = model
        self.calls_tools_natively = False  # the server made a native tool call: text is never a call then
        # Whether the template opens a thinking block in the prompt: learned from the first reply (None until
        # then: the loop holds that reply whole); OpenAI's own API never does.
        self.opens_thinking: bool | None = False if str(client.base_url).startswith(OPENAI_API) else None
        self._tools_refused_at: float | None = None  # when the server last refused a request with tools
        self.asks_usage = True  # stream_options.include_usage, until a server refuses the field
        self._clock = clock

    @property
    def tools_refused(self) -> bool:
        """Whether the tools are described in the prompt instead of sent (the server refused them lately)."""
        refused_at = self._tools_refused_at
        return refused_at is not None and self._clock.monotonic() - refused_at < RETRY_TOOLS_SECONDS

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        tool_choice: ToolChoice,
        max_tokens: int,
        timeout: float,
        stop: threading.Event,
    ) -> Iterator[Turn]:
        """One streamed model call. Tool-call deltas are put together by ``index``: the id and name come
        once, the arguments in pieces. The call's timeout is the client's own, never past ``timeout``."""
        try:
            refused = self.tools_refused
            if tools and not refused:
                try:
                    yield from self._call(messages, tools, tool_choice, max_tokens, timeout, stop)
                    return
                except openai.BadRequestError:
                    log.warning(
                        "The model server refused a request with tools (HTTP 400); asking without them "
                        "(docs/models.md#turning-native-tool-calls-on)"
                    )
            described = with_tools_described(messages, tools) if tools and tool_choice != "none" else messages
            yield from self._call(described, None, None, max_tokens, timeout, stop)
            if tools and not refused:
                self._tools_refused_at = self._clock.monotonic()
                log.warning(
                    "For the next %.0f minutes the tools are described in the prompt; the model writes its calls as text",
                    RETRY_TOOLS_SECONDS / 60,
                )
        except (openai.OpenAIError, httpx.HTTPError) as error:
            raise ModelError(type(error).__name__, getattr(error, "status_code", None)) from None

    def _call(
        self,
        messages: Sequence[Mapping[str, Any]],
        tools: list[dict[str, Any]] | None,
        tool_choice: ToolChoice | None,
        max_tokens: int,
        timeout: float,
        stop: threading.Event,
    ) -> Iterator[Turn]:
        body: dict[str, Any] = {"model": self.model, "messages": messages, "max_tokens": max_tokens, "stream": True}
        if tools:
            body |= {"tools": tools, "tool_choice": tool_choice}
        if self.asks_usage:  # the call's tokens, in a last chunk (for the owner's /stats)
            body["stream_options"] = {"include_usage": True}
        # Not chat.completions.create(): it walks every message and schema field by field to transform
        # its params, 2.5 ms a message at ten messages and 13 ms at ninety, and these are plain JSON
        # already. The client's post() (the SDK's README, "Undocumented endpoints") sends them as they
        # are, with the client's key, retries and errors all the same.
        try:
            stream = self._post(body, timeout)
        except openai.BadRequestError as error:
            if "stream_options" not in body or "stream_options" not in str(error.body or error.message):
                raise
            log.warning("The model server refused stream_options (HTTP 400); its token counts are not asked for")
            self.asks_usage = False
            stream = self._post({k: v for k, v in body.items() if k != "stream_options"}, timeout)
        turn = Turn()
        calls: dict[int, ToolCall] = {}  # by the index the stream gives each call's pieces
        with stream:
            for chunk in stream:
                if stop.is_set():
                    return  # leaving the block closes the stream, so the provider stops generating
                if chunk.usage is not None:  # the last chunk, when usage is asked for (or sent unasked)
                    turn.tokens = chunk.usage.total_tokens or 0
                if chunk.choices:
                    _add(turn, calls, chunk.choices[0])
                    yield turn
        if turn.calls and tools:
            self.calls_tools_natively = True
        yield turn

    def _post(self, body: dict[str, Any], timeout: float) -> openai.Stream[ChatCompletionChunk]:
        return self.client.post(
            "/chat/completions",
            body=body,
            cast_to=ChatCompletion,
            options={"timeout": self._timeout(timeout)},
            stream=True,
            stream_cls=openai.Stream[ChatCompletionChunk],
        )

    def _timeout(self, remaining: float) -> float:
        configured = self.client.timeout
        remaining = max(remaining, 0.1)
        return min(configured, remaining) if isinstance(configured, (int, float)) else remaining


def _add(turn: Turn, calls: dict[int, ToolCall], choice: Choice) -> None:
    """One streamed chunk's words, tool-call pieces and finish reason, into ``turn``."""
    for part in choice.delta.tool_calls or []:
        call = calls.setdefault(part.index, ToolCall())
        call.id = part.id or call.id
        if part.function:
            call.name = part.function.name or call.name
            call.arguments += part.function.arguments or ""
    turn.text += choice.delta.content or ""
    turn.finish_reason = choice.finish_reason or turn.finish_reason
    turn.calls = [calls[i] for i in sorted(calls)]


def with_tools_described(
    messages: Sequence[Mapping[str, Any]], tools: Sequence[Mapping[str, Any]]
) -> list[Mapping[str, Any]]:
    """``messages`` with the tools and how to call them in words added to the system prompt."""
    described = "\n".join(json.dumps(tool["function"], ensure_ascii=False) for tool in tools)
    note = render_prompt("tools_as_text.md", tools=described)
    if messages and messages[0].get("role") == "system":
        return [{**messages[0], "content": f"{messages[0]['content']}\n\n{note}"}, *messages[1:]]
    return [{"role": "system", "content": note}, *messages]
