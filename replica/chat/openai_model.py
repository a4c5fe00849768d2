"""The OpenAI-compatible chat model: the real ``openai`` SDK, streaming, with a per-call timeout."""

from __future__ import annotations

import threading
from typing import Any, Iterator

import httpx
import openai

from replica.chat.model import ModelError, ToolCall, Turn


class OpenAIChatModel:
    """Any OpenAI-compatible ``/chat/completions`` endpoint, through ``client``."""

    def __init__(self, client: openai.OpenAI, model: str):
        self.client = client
        self.model = model

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        tool_choice: str,
        max_tokens: int,
        timeout: float,
        stop: threading.Event,
    ) -> Iterator[Turn]:
        """One streamed model call. Tool-call deltas are put together by ``index``: the id and name come
        once, the arguments in pieces. The call's timeout is the client's own, never past ``timeout``."""
        try:
            stream = self.client.chat.completions.create(
                model=self.model,
                messages=messages,
                tools=tools,
                tool_choice=tool_choice,
                max_tokens=max_tokens,
                stream=True,
                timeout=self._timeout(timeout),
            )
            turn, calls = Turn(), {}
            with stream:
                for chunk in stream:
                    if stop.is_set():
                        return  # leaving the block closes the stream, so the provider stops generating
                    if chunk.choices:
                        _add(turn, calls, chunk.choices[0])
                        yield turn
            yield turn
        except (openai.OpenAIError, httpx.HTTPError) as error:
            raise ModelError(type(error).__name__, getattr(error, "status_code", None)) from None

    def _timeout(self, remaining: float) -> float:
        configured = self.client.timeout
        remaining = max(remaining, 0.1)
        return min(configured, remaining) if isinstance(configured, (int, float)) else remaining


def _add(turn: Turn, calls: dict[int, ToolCall], choice: Any) -> None:
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
