"""The system prompt for each visitor message: the persona template, the owner's files, and the
answers the owner has taught from Telegram (read fresh each time, so a new answer counts at once)."""

from __future__ import annotations

from replica.knowledge import Document, render_knowledge
from replica.prompts import render_prompt
from replica.store import Store


def learned_answers_text(store: Store) -> str:
    """The owner's learned answers as a knowledge section, or an empty string when there are none."""
    answers = store.answers(active_only=True)
    if not answers:
        return ""
    pairs = "\n\n".join(f"Q: {row['question']}\nA: {row['answer']}" for row in answers)
    return f"### Answers I gave to visitors' earlier questions\n\n{pairs}"


class SystemPrompt:
    """Callable: ``prompt(message)`` is the system prompt to send with the visitor's ``message``."""

    def __init__(self, owner_name: str, documents: list[Document], store: Store):
        self.owner_name = owner_name
        self.files_text = render_knowledge(documents)
        self.store = store

    def __call__(self, message: str) -> str:
        knowledge = "\n\n".join(filter(None, [self.files_text, learned_answers_text(self.store)]))
        return render_prompt(
            "system.md", owner_name=self.owner_name, knowledge=knowledge or render_prompt("no_knowledge.md")
        )
