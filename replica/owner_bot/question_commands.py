"""The owner's questions and answers: ``/unanswered``, ``/answer``, ``/forget``, and teaching by a reply."""

from __future__ import annotations

import html
import logging
import re
from typing import Callable

from replica.alerts.alert import QUESTION_TITLE
from replica.knowledge.faq_files import Approved
from replica.owner_bot.answer_back import AnswerBack
from replica.owner_bot.commands import BY_NAME
from replica.owner_bot.listing_text import NUMBER, fit, number_and_text, when_iso
from replica.storage import Store
from replica.storage.records import QuestionStatus
from replica.storage.rows import QuestionRef
from replica.telegram.updates import RepliedTo
from replica.text import one_line

log = logging.getLogger(__name__)

# The heading of every copy of a question alert (and of the Answer button's prompt): a reply to any of
# them teaches, even to a copy whose message id was never recorded.
QUESTION_ALERT = re.compile(re.escape(QUESTION_TITLE) + r"(?: \(via [^)]{1,20}\))? #([1-9][0-9]{0,17})\s*$")


class QuestionCommands:
    """Open questions listed, answered and withdrawn; ``close`` finds the approved answer close to a
    question (an answer of the owner's that differs from it teaches "not this")."""

    def __init__(self, store: Store, answer_back: AnswerBack, close: Callable[[str], Approved | None] | None = None):
        self._store = store
        self._answer_back = answer_back
        self._close = close

    def unanswered(self, _: str) -> str:
        """``/unanswered``: open questions, oldest first, each with the number to answer it by and, when
        several visitors asked it, how many."""
        questions = self._store.questions.in_status(QuestionStatus.OPEN)
        dismissed = self._store.questions.in_status(QuestionStatus.DISMISSED)
        # Only the bold numbers are the bot's: a question is one line, in quotes, and cannot add one.
        lines = ["<b>Open questions</b>, oldest first. Reply to a question's alert, or send /answer N your answer:"] + [
            f"<b>{row.id}.</b> “{html.escape(one_line(row.question, 300))}” ({when_iso(row.created_at)}"
            + (f", asked by {row.askers} visitors)" if row.askers > 1 else ")")
            for row in questions
        ]
        if not questions:
            lines = ["No open questions."]
        if dismissed:
            lines.append("Dismissed: " + ", ".join(f"#{row.id}" for row in dismissed[-20:]))
        return fit(lines)

    def learned(self, _: str) -> str:
        """``/faq``: the answers learned from you, each with the phrasing a visitor used and the number to
        withdraw it by (the FAQ files' own entries are edited in the files)."""
        rows = self._store.answers.all(active_only=True)
        if not rows:
            return "No learned answers yet: answer a question's alert, or tap “Answer with your FAQ”."
        lines = ["<b>Learned answers</b>, each answering visitors who ask so. Send /forget N to withdraw one:"] + [
            f"<b>{row.id}.</b> “{html.escape(one_line(row.question, 200))}” → {html.escape(one_line(row.answer, 120))}"
            for row in rows
        ]
        return fit(lines)

    def answer(self, argument: str) -> str:
        """``/answer N text``: teach the answer to open question N."""
        parsed = number_and_text(argument)
        question = self._store.questions.get(parsed[0]) if parsed else None
        if parsed is None or question is None:
            return BY_NAME["answer"].usage_line
        return self.learn(question.id, question.question, parsed[1])

    def forget(self, argument: str) -> str:
        """``/forget N``: withdraw learned answer N; its question is open again."""
        withdrawn = self._store.answers.forget(int(argument)) if NUMBER.fullmatch(argument) else None
        if withdrawn is None:
            return BY_NAME["forget"].usage_line
        return f"Withdrew answer #{withdrawn.id}; “{html.escape(one_line(withdrawn.question, 200))}” is open again."

    def learn(self, question_id: int, question: str, answer: str) -> str:
        """Store ``answer`` for the question and send it to each visitor who asked; say so, with what
        each visitor will see and how to withdraw it."""
        close = self._close(question) if self._close is not None else None  # before it is answered by this
        answer_id = self._store.answers.learn(question_id, answer)
        log.info("Learned answer %d to question %d", answer_id, question_id)
        if close is not None and close.answer.strip() != answer.strip():  # the approved answer close to it is not its
            self._store.phrasings.keep(question, close.question, meant=False)
        sent = self._answer_back.deliver(question_id, answer)
        return "\n".join(
            [
                f"Learned answer #{answer_id} to “{html.escape(one_line(question, 200))}”. "
                f"Send /forget {answer_id} to withdraw it.",
                *sent,
            ]
        )

    def replied_to(self, replied: RepliedTo | None) -> QuestionRef | None:
        """The question whose alert the owner replied to: found by the alert's message id, or, for a copy
        whose id was never recorded (a crash between Telegram's accept and the record), by the
        "Unanswered question #N" heading every copy carries."""
        if replied is None:
            return None
        question = self._store.questions.for_alert(replied.message_id)
        heading = replied.text.split("\n", 1)[0]
        match = QUESTION_ALERT.fullmatch(heading.strip())
        if question is None and match:
            question = self._store.questions.get(int(match.group(1)))
        return question
