"""The system prompt for each visitor message: the persona template, the owner's knowledge chosen for
that message within the budget, and the answers the owner has taught from Telegram (read fresh each
time, so a new answer counts from the next message on)."""

from __future__ import annotations

import logging

from replica.knowledge.index import KnowledgeIndex
from replica.knowledge.prompts import render_prompt
from replica.settings import default
from replica.storage.database import storage_errors
from replica.storage.store import Store

log = logging.getLogger(__name__)


def learned_answers_text(store: Store) -> str:
    """The owner's learned answers as a knowledge section, or an empty string when there are none."""
    answers = store.answers.all(active_only=True)
    if not answers:
        return ""
    pairs = "\n\n".join(f"Q: {row.question}\nA: {row.answer}" for row in answers)
    return f"### Answers I gave to visitors' earlier questions\n\n{pairs}"


class SystemPrompt:
    """Callable: ``prompt(query)`` is the system prompt for a visitor message (``query``: that message
    plus recent history, used to pick knowledge when it does not all fit ``budget_chars``); with a
    ``booking_url``, it ends with when to offer it."""

    def __init__(
        self,
        owner_name: str,
        index: KnowledgeIndex,
        store: Store,
        budget_chars: int = default("knowledge_budget_chars"),
        booking_url: str | None = None,
    ):
        self.owner_name = owner_name
        # With a booking page, the persona may offer it to a visitor who asks to meet (prompts/booking.md).
        self.booking = render_prompt("booking.md", booking_url=booking_url) if booking_url else ""
        self.index = index
        self.store = store
        self.budget_chars = budget_chars
        self._answers = ""  # the learned answers last read: used while the database cannot be read

    def __call__(self, query: str) -> str:
        try:
            self._answers = learned_answers_text(self.store)
        except storage_errors() as error:
            log.error("Could not read the learned answers (%s); using the ones read last", type(error).__name__)
        # The owner's own answers come first; they may use up to half the budget.
        answers = self._answers[: self.budget_chars // 2]
        files = self.index.select(query, self.budget_chars - len(answers))
        knowledge = "\n\n".join(filter(None, [files, answers]))
        persona = render_prompt(
            "system.md", owner_name=self.owner_name, knowledge=knowledge or render_prompt("no_knowledge.md")
        )
        return f"{persona.rstrip()}\n\n{self.booking}" if self.booking else persona
