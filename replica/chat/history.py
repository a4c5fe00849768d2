"""What the model is given of the conversation so far, and what knowledge is picked for."""

from __future__ import annotations

import re
from typing import Any, Iterable

# The app's own notes to the model begin "[This note is from the Replica app…" (prompts/tool_results.md);
# a visitor who types that is marked as having typed it, so their words cannot pass for the app's.
APP_NOTE = re.compile(r"replica\s+app", re.I)
TYPED = "Replica app (as the visitor typed it)"


def as_visitor_words(text: str) -> str:
    """A visitor's message as the model is given it: any copy of the app's note marked as the visitor's."""
    return APP_NOTE.sub(TYPED, text)


def text_of(content: Any) -> str:
    """The text of a chat message's content, whether a string or a list of parts (files are left out)."""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        return content.get("text") or ""
    if isinstance(content, (list, tuple)):
        return "\n".join(filter(None, (text_of(part) for part in content)))
    return ""


def history_messages(history: Iterable[dict[str, Any]], budget_chars: int | None = None) -> list[dict[str, str]]:
    """The visitor's earlier user/assistant messages as plain-text Chat Completions messages.

    With ``budget_chars``, only the most recent messages whose text fits the budget are kept, so a long
    conversation never overflows the model's context.
    """
    messages = []
    for item in history:
        if not isinstance(item, dict):
            continue
        text = text_of(item.get("content")).strip()
        if item.get("role") in ("user", "assistant") and text:
            messages.append(
                {"role": item["role"], "content": as_visitor_words(text) if item["role"] == "user" else text}
            )
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


def join(*parts: str) -> str:
    """Paragraphs of a reply, the empty ones left out."""
    return "\n\n".join(part for part in parts if part).strip()
