"""The replica's conversation loop: one visitor message in, one streamed answer out.

A *turn* is one model call. Each visitor message gets at most ``max_turns`` of them: the model may ask
for tools on any turn but the last, and the last is made with ``tool_choice="none"`` so that the
visitor always gets words back. Answers are streamed: :meth:`Replica.stream_reply` yields the reply so
far each time more of it arrives. This module knows nothing about Gradio or Telegram.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

import openai

from replica.limits import UsageLimits
from replica.notify import Notifier
from replica.store import Store
from tools import ToolContext, ToolRegistry

log = logging.getLogger(__name__)

NOT_CONFIGURED = (
    "I'm not connected to a language model yet, so I can't answer. The site owner can fix this by setting "
    "OPENAI_API_KEY (in the environment, a .env file, or the Space's secrets) and restarting the app."
)
MODEL_FAILED = "Sorry, I can't answer right now because my language model is unavailable. Please try again in a minute."
BLANK_MESSAGE = "Your message looks empty. What would you like to know?"
TOO_LONG = "That message is too long for me ({length:,} characters). Please keep it under {limit:,} characters."
NO_ANSWER = "Sorry, I couldn't put an answer together just now. Could you ask again, perhaps in other words?"
TOO_MANY_MESSAGES = "You've sent a lot of messages in the last hour. Please take a break and try again a little later."
DAILY_LIMIT = "I've answered as many questions as I can for today. Please come back tomorrow."


@dataclass(frozen=True)
class Visitor:
    """Who is asking: their chat session, and the client address they come from."""

    session_id: str
    address: str = "unknown"


@dataclass
class _ToolCall:
    id: str = ""
    name: str = ""
    arguments: str = ""


def _text_of(content: Any) -> str:
    """The text of a chat message's content, whether a string or a list of parts (files are left out)."""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        return content.get("text") or ""
    if isinstance(content, (list, tuple)):
        return "\n".join(filter(None, (_text_of(part) for part in content)))
    return ""


def history_messages(history: Iterable[dict[str, Any]], budget_chars: int | None = None) -> list[dict[str, str]]:
    """The visitor's earlier user/assistant messages as plain-text Chat Completions messages.

    With ``budget_chars``, only the most recent messages whose text fits the budget are kept, so a long
    conversation never overflows the model's context.
    """
    messages = []
    for item in history:
        text = _text_of(item.get("content")).strip()
        if item.get("role") in ("user", "assistant") and text:
            messages.append({"role": item["role"], "content": text})
    if budget_chars is None:
        return messages
    kept, used = [], 0
    for message in reversed(messages):
        used += len(message["content"])
        if used > budget_chars:
            break
        kept.append(message)
    return kept[::-1]


def retrieval_query(message: str, earlier: list[dict[str, str]], recent: int = 2) -> str:
    """What knowledge is picked for: the new message, then the visitor's last ``recent`` messages."""
    previous = [m["content"] for m in earlier if m["role"] == "user"][-recent:]
    return "\n".join([message, *previous])


class Replica:
    """Answers visitors as the owner, calling the model at most ``max_turns`` times per message.

    ``system_prompt(message)`` gives the system prompt for each visitor message, so knowledge can change
    (or be chosen for the message) without a restart.
    """

    def __init__(
        self,
        client: openai.OpenAI | None,
        model: str,
        system_prompt: Callable[[str], str],
        registry: ToolRegistry,
        store: Store,
        notifier: Notifier,
        limits: UsageLimits | None = None,
        max_turns: int = 2,
        max_message_chars: int = 4000,
        history_budget_chars: int = 16000,
        check_deliverability: bool = False,
    ):
        self.client = client
        self.model = model
        self.system_prompt = system_prompt
        self.registry = registry
        self.store = store
        self.notifier = notifier
        self.limits = limits or UsageLimits.build(10**9, 10**9, 10**9)
        self.max_turns = max_turns
        self.max_message_chars = max_message_chars
        self.history_budget_chars = history_budget_chars
        self.check_deliverability = check_deliverability

    def reply(self, message: str, history: list[dict[str, Any]], visitor: Visitor) -> str:
        """The complete answer to ``message`` (the last value :meth:`stream_reply` yields)."""
        answer = ""
        for answer in self.stream_reply(message, history, visitor):
            pass
        return answer

    def stream_reply(self, message: str, history: list[dict[str, Any]], visitor: Visitor) -> Iterator[str]:
        """Yield the answer to ``message`` so far, each time it grows. Always ends in a sentence; never raises."""
        refusal = self._refusal(message, visitor)
        if refusal:
            yield refusal
            return
        earlier = history_messages(history, self.history_budget_chars)
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": self.system_prompt(retrieval_query(message, earlier))},
            *earlier,
            {"role": "user", "content": message},
        ]
        context = ToolContext(visitor.session_id, self.store, self.notifier, self.check_deliverability)
        shown = ""
        try:
            for shown in self._turns(messages, context):
                yield shown
        except openai.OpenAIError as exc:
            # The class and status say what failed; the message may quote part of the key, so it stays out.
            log.error("Model call failed: %s (HTTP status %s)", type(exc).__name__, getattr(exc, "status_code", "none"))
            yield f"{shown}\n\n{MODEL_FAILED}".strip()
        except Exception:  # e.g. the connection dropping mid-stream: still a sentence, never a traceback
            log.exception("Unexpected error while talking to the model")
            yield f"{shown}\n\n{MODEL_FAILED}".strip()

    def _refusal(self, message: str, visitor: Visitor) -> str | None:
        """A sentence instead of a model call, when the message or the visitor's usage rules one out."""
        if not message or not message.strip():
            return BLANK_MESSAGE
        if len(message) > self.max_message_chars:
            return TOO_LONG.format(length=len(message), limit=self.max_message_chars)
        if self.client is None:
            return NOT_CONFIGURED
        if not self.limits.admit_message(visitor.session_id, visitor.address):
            log.warning("Message limit reached for session %s / address %s", visitor.session_id, visitor.address)
            return TOO_MANY_MESSAGES
        return None

    def _turns(self, messages: list[dict[str, Any]], context: ToolContext) -> Iterator[str]:
        earlier = ""  # words from turns that also asked for tools
        for turn in range(1, self.max_turns + 1):
            if not self.limits.take_model_call():
                log.warning("Daily model-call budget spent")
                yield f"{earlier}\n\n{DAILY_LIMIT}".strip()
                return
            last = turn == self.max_turns
            text, calls, last_text = "", [], ""
            for text, calls in self._stream_turn(messages, tool_choice="none" if last else "auto"):
                if text and text != last_text:
                    last_text = text
                    yield f"{earlier}\n\n{text}".strip()
            if not calls:
                if not (earlier or text):
                    yield NO_ANSWER
                return
            messages.append(self._assistant_message(text, calls))
            for call in calls:
                result = self.registry.run(call.name, call.arguments, context)
                log.info("Tool %s -> %s", call.name, result[:80])
                messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
            earlier = f"{earlier}\n\n{text}".strip()
            if last:
                # The model asked for tools when told not to. Their effects (stored leads) are kept,
                # but the turn budget is spent: no further model call.
                log.warning("Model requested tools on its last allowed turn; answering without another call")
                yield earlier or NO_ANSWER
                return

    def _stream_turn(self, messages: list[dict[str, Any]], tool_choice: str) -> Iterator[tuple[str, list[_ToolCall]]]:
        """One streamed model call: yields (text so far, tool calls so far) as chunks arrive.

        Tool-call deltas are assembled by ``index``: the id and name come once, the arguments in pieces.
        """
        stream = self.client.chat.completions.create(
            model=self.model,
            messages=messages,
            tools=self.registry.schemas(),
            tool_choice=tool_choice,
            stream=True,
        )
        text, calls = "", {}
        with stream:
            for chunk in stream:
                if not chunk.choices:
                    continue
                delta = chunk.choices[0].delta
                for part in delta.tool_calls or []:
                    call = calls.setdefault(part.index, _ToolCall())
                    call.id = part.id or call.id
                    if part.function:
                        call.name = part.function.name or call.name
                        call.arguments += part.function.arguments or ""
                text += delta.content or ""
                yield text, [calls[i] for i in sorted(calls)]
        yield text, [calls[i] for i in sorted(calls)]

    @staticmethod
    def _assistant_message(text: str, calls: list[_ToolCall]) -> dict[str, Any]:
        return {
            "role": "assistant",
            "content": text or None,
            "tool_calls": [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}} for c in calls
            ],
        }
