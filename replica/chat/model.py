"""The seam between the loop and whatever model answers: a small chat-model interface.

The loop (:mod:`replica.chat.loop`) talks only to a :class:`ChatModel`; the OpenAI-compatible adapter
(:mod:`replica.chat.openai_model`) is one implementation, and the tests have an in-process double.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Iterator, Literal, Protocol

ToolChoice = Literal["auto", "none"]  # what a model call may do: call tools or write words, or only write words
# Why a model call ended, as the Chat Completions API (and the OpenAI SDK's chunk) names it.
FinishReason = Literal["stop", "length", "tool_calls", "content_filter", "function_call"]


@dataclass
class ToolCall:
    """A tool the model asked for: the call's id, the tool's name, and its arguments as JSON text."""

    id: str = ""
    name: str = ""
    arguments: str = ""


@dataclass
class Turn:
    """One model call's answer so far: its words, the tools it asks for, and why it ended (once it has)."""

    text: str = ""
    calls: list[ToolCall] = field(default_factory=list)
    finish_reason: FinishReason | None = None  # None until the call ended
    tokens: int = 0  # the call's prompt and completion tokens, when the server reports its usage


class ModelError(Exception):
    """The model could not answer: unreachable, refused or failed. Carries what failed (the error's
    class) and the HTTP status, never the provider's message, which may quote part of the key."""

    def __init__(self, kind: str, status: int | None = None):
        super().__init__(f"{kind} (HTTP status {status if status is not None else 'none'})")
        self.kind = kind
        self.status = status


class ChatModel(Protocol):
    """A chat model that streams its answer. ``calls_tools_natively`` is true once its server has made a
    native tool call in this process: from then on, tool calls written as text are not its own."""

    calls_tools_natively: bool
    opens_thinking: bool | None  # its template opens a thinking block in the prompt (None: not known yet)

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        tool_choice: ToolChoice,
        max_tokens: int,
        timeout: float,
        stop: threading.Event,
    ) -> Iterator[Turn]:
        """Yield the turn so far as it grows; stop early once ``stop`` is set. ``timeout`` is the most
        this call may take; a failure raises :class:`ModelError`."""
        ...
