"""The replica: one visitor message in, one streamed answer out.

:meth:`Replica.stream_reply` records the message, admits it (or says why not: the limits, a blank or
over-long message; a conversation the owner has taken over is passed on to them), has it answered under
the deadline (:mod:`replica.chat.answer`), runs the steps after the answer (:mod:`replica.chat.steps`),
and records the reply. Whatever fails, the visitor gets a sentence. This module knows nothing about
Gradio or Telegram.
"""

from __future__ import annotations

import logging
from contextlib import closing
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from replica import wording
from replica.alerts import Notifier
from replica.chat.answer import Answer
from replica.chat.config import ReplyConfig
from replica.chat.draft import Draft
from replica.chat.limits import SlidingWindow, UsageLimits
from replica.chat.run import Ended, Ending, Run
from replica.chat.steps import Steps
from replica.contacts import Verifier
from replica.contacts.verifier import Caught
from replica.inbox import Conversation, Inbox
from replica.logs import EveryMinute
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.storage import Store
from replica.storage.database import storage_errors
from replica.storage.records import NOTICE, VISITOR
from replica.tools import ToolContext

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Visitor:
    """Who is asking: their chat session, and the client address they come from."""

    session_id: str
    address: str = "unknown"
    via: str = ""  # how they came, when not by the page ("MCP"): named in the owner's alerts
    counted: bool = False  # the message was counted against the hourly limits as it joined the line


class Replica:
    """Answers visitors as the owner: ``answer`` writes each reply's words, ``steps`` follow it;
    ``inbox`` records every message and reply (the history the model sees, the owner's words
    included); ``store`` and ``notifier`` are the tools' records and alerts; ``limits`` and ``config``
    bound each message; ``watch``, if given, sees each message's run."""

    def __init__(
        self,
        *,
        answer: Answer,
        steps: Steps,
        store: Store,
        notifier: Notifier,
        inbox: Inbox,
        limits: UsageLimits,
        config: ReplyConfig,
        watch: Callable[[Visitor, Run], None] | None = None,
        close_faq: Callable[[str], str] = lambda question: "",
        verifier: Verifier | None = None,
        clock: Clock = REAL_CLOCK,
    ):
        self.answer = answer
        self.steps = steps
        self.store = store
        self.notifier = notifier
        self.inbox = inbox
        self.limits = limits
        self.config = config
        self.watch = watch  # told of each message's run once it is recorded (eval and doctor score it)
        self.close_faq = close_faq  # an approved question close to one passed on, offered on its alert
        self.verifier = verifier  # verified contacts: a code typed in the chat is read here, never by the model
        self.clock = clock  # times each reply
        self._noted = SlidingWindow(1)  # sessions whose conversation noted a refused message this hour
        self._limited = EveryMinute(log, "Hourly message limits: refused %d message(s) (logged at most once a minute)")

    def reply(self, message: str, visitor: Visitor) -> str:
        """The complete answer to ``message`` (the last value :meth:`stream_reply` yields)."""
        answer = ""
        for answer in self.stream_reply(message, visitor):
            pass
        return answer

    def stream_reply(self, message: str, visitor: Visitor) -> Iterator[str]:
        """Yield the answer to ``message`` so far, each time it grows. Always ends in a sentence; never raises.

        The message and its reply are recorded (what the visitor saw, also when they stop the reply).
        """
        started = self.clock.monotonic()
        refused = None if visitor.counted else self.admit(visitor)
        if refused:
            yield refused
            return
        recorder = self.inbox.recorder
        conversation = recorder.begin(visitor.session_id, visitor.address)
        history: list[dict[str, str]] = []
        caught = self._caught(message, visitor)
        if conversation:
            history = recorder.history(conversation.id)
            text = caught.masked if caught else message if isinstance(message, str) else ""
            recorder.record(conversation.id, VISITOR, text[: self.config.max_message_chars + 1])
        run, reply, draft, done = Run(), "", None, False
        try:
            with self.inbox.page.replying(visitor.session_id):
                refusal = self._refusal(message, visitor, conversation, run, caught)
                if refusal is not None:
                    reply = refusal
                    yield reply
                    return
                draft = Draft(message, self._context(message, history, visitor, conversation), run)
                answer = self.answer.stream(draft, history, conversation.id if conversation else None)
                with closing(answer):  # closed at once when the visitor stops the reply, its slot freed
                    for words in answer:
                        if words != reply:  # the same words again would cost the page a message for nothing
                            reply = words
                            yield reply
                self.steps.run(draft)
                done = True
                if draft.text != reply:
                    reply = draft.text
                    yield reply
        finally:
            if draft is not None and not done:  # the visitor stopped the reply: an address they gave is still kept
                self.steps.run(draft, stopped=True)
            self._record(conversation, run, reply, started, opened=not history)
            if self.watch:
                self.watch(visitor, run)

    def admit(self, visitor: Visitor) -> str | None:
        """Count a message of ``visitor`` against the hourly limits: ``None`` when it may be answered, else
        the sentence that refuses it. A refused message is neither kept nor answered: its conversation notes
        that one was (once an hour), and the log counts them once a minute."""
        if self.limits.admit_message(visitor.session_id, visitor.address):
            return None
        self._limited()
        if self._noted.take(visitor.session_id):
            try:
                conversation = self.store.conversations.of_session(visitor.session_id)
            except storage_errors():
                conversation = None  # the note is for the owner's record only: the refusal stands
            if conversation is not None:
                self.inbox.recorder.record(conversation.id, NOTICE, wording.LIMITED_NOTE)
        return wording.TOO_MANY_MESSAGES

    def _refusal(
        self, message: str, visitor: Visitor, conversation: Conversation | None, run: Run, caught: Caught | None
    ) -> str | None:
        """The sentence that stands for a reply when the message is not answered (or is a contact code the
        app answers itself, even in a conversation the owner has taken over), the run marked; else ``None``."""
        refusal = refusal_for(message, self.config)
        if refusal:
            run.add(Ended(Ending.REFUSED))
            return refusal
        if caught is not None and self.verifier is not None:  # a code is caught only with a verifier
            run.add(Ended(Ending.CODE))
            return self._answer_code(self.verifier, caught, visitor)
        if conversation and conversation.paused:
            run.add(Ended(Ending.PASSED_TO_OWNER, role=NOTICE))
            return pass_to_owner(self.inbox, conversation, message)
        return None

    def _caught(self, message: str, visitor: Visitor) -> Caught | None:
        """The message, when it is a contact code (or asks for another) the app answers itself."""
        if self.verifier is None:
            return None
        try:
            return self.verifier.catch(message, visitor.session_id)
        except storage_errors():  # the database is down: the message goes on as any other
            log.error("Could not look for a contact code (the database failed)", exc_info=True)
            return None

    def _answer_code(self, verifier: Verifier, caught: Caught, visitor: Visitor) -> str:
        try:
            return verifier.answer(caught, visitor.session_id, self._address(visitor))
        except storage_errors():
            log.error("Could not check a contact code (the database failed)", exc_info=True)
            return wording.CODE_FAILED

    def _address(self, visitor: Visitor) -> str:
        """The visitor's client address as the store keeps it (a salted hash), or "" when unknown."""
        return self.inbox.recorder.address_hash(visitor.address) if visitor.address != "unknown" else ""

    def _context(
        self, message: str, history: list[dict[str, Any]], visitor: Visitor, conversation: Conversation | None
    ) -> ToolContext:
        """What the tools may use for this message besides their arguments."""
        return ToolContext(
            visitor.session_id,
            self.store,
            self.notifier,
            self.config.email_check_deliverability,
            conversation=conversation.id if conversation else None,
            via=visitor.via,
            visitor_words="\n".join([*(m["content"] for m in history if m["role"] == "user"), message]),
            address=self._address(visitor),
            close_faq=self.close_faq,
            verification=self.verifier.mode if self.verifier is not None else "off",
        )

    def _record(self, conversation: Conversation | None, run: Run, reply: str, started: float, opened: bool) -> None:
        """Record the reply the visitor saw, with what was done, and its figures for the owner's charts
        (``opened``: the message began the conversation); log the message's line."""
        elapsed_ms = int((self.clock.monotonic() - started) * 1000)
        if conversation:
            facts = tuple(run.facts)  # read from the run's events, as is everything below
            self.inbox.recorder.record(
                conversation.id, run.role, reply, tuple(run.tools), run.model_calls, elapsed_ms, facts=facts
            )
            self.inbox.recorder.count(conversation.id, opened, run.answered, run.model_calls, run.tokens, elapsed_ms)
        # At a spike, the replies made without a model are counted in one line a minute (replica.chat.answer).
        log.log(
            logging.DEBUG if run.ended_as(Ending.BUSY) else logging.INFO,
            "Conversation #%s: %d model call(s); tools: %s; tool calls written as text: %d; %d ms; ended: %s",
            conversation.id if conversation else "-",
            run.model_calls,
            "; ".join(run.done) or "none",
            run.textual_calls,
            elapsed_ms,
            run.ended,
        )


def pass_to_owner(inbox: Inbox, conversation: Conversation, message: str) -> str:
    """Hand a message of a conversation the owner has taken over to them; the notice the visitor reads."""
    try:
        return inbox.handoff.pass_to_owner(conversation, message)
    except storage_errors() as error:
        log.error("Could not pass a message on to the owner (%s)", type(error).__name__, exc_info=True)
        return wording.NOT_PASSED_ON


def refusal_for(message: str, config: ReplyConfig) -> str | None:
    """A sentence instead of a reply, when the message is blank or too long."""
    if not isinstance(message, str) or not message.strip():
        return wording.BLANK_MESSAGE
    if len(message) > config.max_message_chars:
        return wording.TOO_LONG.format(limit=config.max_message_chars)
    return None
