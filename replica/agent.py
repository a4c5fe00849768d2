"""The replica's conversation loop: one visitor message in, one answer out.

A *turn* is one model call. Each visitor message gets at most ``max_turns`` of them: the model may ask
for tools on any turn but the last, and the last is made with ``tool_choice="none"`` so that the
visitor always gets words back. This module knows nothing about Gradio or Telegram.
"""

from __future__ import annotations

import logging
from typing import Any, Iterable

import openai

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


def _text_of(content: Any) -> str:
    """The text of a chat message's content, whether a string or a list of parts (files are left out)."""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        return content.get("text") or ""
    if isinstance(content, (list, tuple)):
        return "\n".join(filter(None, (_text_of(part) for part in content)))
    return ""


def history_messages(history: Iterable[dict[str, Any]]) -> list[dict[str, str]]:
    """The visitor's earlier user/assistant messages as plain-text Chat Completions messages."""
    messages = []
    for item in history:
        text = _text_of(item.get("content")).strip()
        if item.get("role") in ("user", "assistant") and text:
            messages.append({"role": item["role"], "content": text})
    return messages


class Replica:
    """Answers visitors as the owner, calling the model at most ``max_turns`` times per message."""

    def __init__(
        self,
        client: openai.OpenAI | None,
        model: str,
        system_prompt: str,
        registry: ToolRegistry,
        store: Store,
        notifier: Notifier,
        max_turns: int = 2,
        max_message_chars: int = 4000,
        check_deliverability: bool = False,
    ):
        self.client = client
        self.model = model
        self.system_prompt = system_prompt
        self.registry = registry
        self.store = store
        self.notifier = notifier
        self.max_turns = max_turns
        self.max_message_chars = max_message_chars
        self.check_deliverability = check_deliverability

    def reply(self, message: str, history: list[dict[str, Any]], session_id: str) -> str:
        """Answer ``message`` given this visitor's ``history``. Always returns a sentence; never raises."""
        if not message or not message.strip():
            return BLANK_MESSAGE
        if len(message) > self.max_message_chars:
            return TOO_LONG.format(length=len(message), limit=self.max_message_chars)
        if self.client is None:
            return NOT_CONFIGURED
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": self.system_prompt},
            *history_messages(history),
            {"role": "user", "content": message},
        ]
        context = ToolContext(session_id, self.store, self.notifier, self.check_deliverability)
        try:
            return self._run(messages, context)
        except openai.OpenAIError as exc:
            # The class and status say what failed; the message may quote part of the key, so it stays out.
            log.error("Model call failed: %s (HTTP status %s)", type(exc).__name__, getattr(exc, "status_code", "none"))
            return MODEL_FAILED

    def _run(self, messages: list[dict[str, Any]], context: ToolContext) -> str:
        for turn in range(1, self.max_turns + 1):
            last = turn == self.max_turns
            completion = self.client.chat.completions.create(
                model=self.model,
                messages=messages,
                tools=self.registry.schemas(),
                tool_choice="none" if last else "auto",
            )
            message = completion.choices[0].message
            if not message.tool_calls:
                return (message.content or "").strip() or NO_ANSWER
            messages.append(message.model_dump(include={"role", "content", "tool_calls"}, exclude_none=True))
            for call in message.tool_calls:
                result = self.registry.run(call.function.name, call.function.arguments, context)
                log.info("Tool %s -> %s", call.function.name, result[:80])
                messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
            if last:
                # The model asked for tools when it was told not to. Their effects (alerts) are kept,
                # but the turn budget is spent: no further model call.
                log.warning("Model requested tools on its last allowed turn; answering without another call")
                return (message.content or "").strip() or NO_ANSWER
        raise AssertionError("unreachable: the last turn always returns")
