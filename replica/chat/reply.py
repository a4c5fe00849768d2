"""The replica: one visitor message in, one streamed answer out.

:meth:`Replica.stream_reply` runs the checks before the answer (:mod:`replica.chat.admission`: the
limits, a blank or over-long message, a contact code, a conversation the owner has taken over), records
the message, has it answered under the deadline (:mod:`replica.chat.answer`), runs the steps after the
answer (:mod:`replica.chat.steps`), and records the reply. Whatever fails, the visitor gets a sentence. This module knows nothing about
Gradio or Telegram.
"""

from __future__ import annotations

import logging
from contextlib import closing
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from replica.alerts import Notifier
from replica.chat.admission import Admission, Incoming, OverTheLimits
from replica.chat.answer import Answer
from replica.chat.draft import Draft
from replica.chat.limits import UsageLimits
from replica.chat.run import Ended, Ending, Run
from replica.chat.steps import Steps
from replica.contacts import Verifier
from replica.inbox import Conversation, Inbox
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.settings import ReplySettings
from replica.storage import Store
from replica.storage.records import VISITOR
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
    included); ``store`` and ``notifier`` are the tools' records and alerts; ``limits`` and ``settings``
    (the replies' own) bound each message; ``watch``, if given, sees each message's run."""

    def __init__(
        self,
        *,
        answer: Answer,
        steps: Steps,
        store: Store,
        notifier: Notifier,
        inbox: Inbox,
        limits: UsageLimits,
        settings: ReplySettings,
        watch: Callable[[Visitor, Run], None] | None = None,
        close_faq: Callable[[str], str] = lambda question: "",
        verifier: Verifier | None = None,
        clock: Clock = REAL_CLOCK,
        admission: Admission | None = None,
    ):
        self.answer = answer
        self.steps = steps
        self.store = store
        self.notifier = notifier
        self.inbox = inbox
        self.limits = limits
        self.settings = settings
        self.watch = watch  # told of each message's run once it is recorded (eval and doctor score it)
        self.close_faq = close_faq  # an approved question close to one passed on, offered on its alert
        self.verifier = verifier  # verified contacts: the mode a lead is offered a code in
        self.clock = clock  # times each reply
        # What is checked before the answer (replica.chat.admission); none given: the limits alone.
        self.admission = admission or Admission([OverTheLimits(limits, store, inbox, clock)])

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
        incoming = Incoming(message, visitor.session_id, visitor.address, self._address(visitor), visitor.counted)
        stop = self.admission.before_keeping(incoming)
        if stop is not None:  # not kept, not answered: the sentence alone
            yield stop.sentence
            return
        self.admission.read(incoming)
        recorder = self.inbox.recorder
        conversation = incoming.conversation = recorder.begin(visitor.session_id, visitor.address)
        history: list[dict[str, str]] = []
        if conversation:
            history = recorder.history(conversation.id)
            recorder.record(conversation.id, VISITOR, incoming.kept_text[: self.settings.max_message_chars + 1])
        run, reply, draft, done = Run(), "", None, False
        # The page is left alone until the reply is recorded: the owner's words arriving meanwhile redraw
        # it from the record, which must hold the reply by then, or the reply would vanish from the page.
        with self.inbox.page.replying(visitor.session_id):
            try:
                stop = self.admission.once_kept(incoming)
                if stop is not None:
                    run.add(Ended(stop.ending, role=stop.role))
                    reply = stop.sentence
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
            self.settings.email_check_deliverability,
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
