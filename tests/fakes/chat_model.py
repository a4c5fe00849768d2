"""An in-process chat model for the loop's unit tests: the :class:`~replica.chat.model.ChatModel` seam,
scripted with the same replies as the HTTP fake (``say``, ``call``, ``fail``), recording what each call
was sent. The HTTP fake (``openai_server``) stays for the OpenAI adapter and end-to-end tests."""

from __future__ import annotations

import copy
import threading
from collections import deque
from typing import Any, Iterator

from replica.chat.model import ModelError, ToolCall, Turn
from tests.fakes.openai_server import Reply, say


class ScriptedModel:
    """Answers each call with the next scripted :class:`Reply` (then ``default``)."""

    def __init__(self) -> None:
        self.replies: deque[Reply] = deque()
        self.default: Reply = say("Hello from the fake model.")
        self.requests: list[dict[str, Any]] = []
        self.calls_tools_natively = False  # as the adapter learns it: once a call came natively
        self.opens_thinking: bool | None = None

    def script(self, *replies: Reply) -> None:
        """Queue replies, answered in order, one per call."""
        self.replies.extend(replies)

    @property
    def calls(self) -> int:
        """How many calls were made."""
        return len(self.requests)

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        tool_choice: str,
        max_tokens: int,
        timeout: float,
        stop: threading.Event,
    ) -> Iterator[Turn]:
        self.requests.append(
            {"messages": copy.deepcopy(messages), "tools": tools, "tool_choice": tool_choice, "max_tokens": max_tokens}
        )
        reply = self.replies.popleft() if self.replies else self.default
        if reply.delay and stop.wait(min(reply.delay, timeout)) or reply.delay > timeout:
            raise ModelError("APITimeoutError")
        if reply.status != 200:
            raise ModelError("InternalServerError" if reply.status >= 500 else "APIStatusError", reply.status)
        turn, text = Turn(), reply.content or ""
        size = max(1, -(-len(text) // max(reply.pieces, 1)))
        for start in range(0, len(text), size):
            if reply.piece_delay and stop.wait(reply.piece_delay):
                return  # the caller stopped listening
            turn.text += text[start : start + size]
            yield turn
        if reply.cut:
            yield turn
            return
        turn.calls = [ToolCall(f"call_{i}", name, arguments) for i, (name, arguments) in enumerate(reply.tool_calls)]
        self.calls_tools_natively = self.calls_tools_natively or bool(turn.calls and tools)
        turn.finish_reason = reply.finish or ("tool_calls" if reply.tool_calls else "stop")
        yield turn
