"""The replica: one visitor message in, one streamed answer out.

:meth:`Replica.stream_reply` records the message and its reply, refuses what the limits rule out, passes
a message on to the owner when they have the conversation, holds one of the concurrency slots, and
runs the turn loop (:mod:`replica.chat.loop`) on a worker thread under the reply deadline. Whatever
fails, the visitor gets a sentence; a lead in their words is kept when the model cannot answer. This
module knows nothing about Gradio or Telegram.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from replica import wording
from replica.alerts import Notifier
from replica.chat.deadline import Deadline, DeadlineExceeded, run_until
from replica.chat.history import history_messages, join, retrieval_query
from replica.chat.limits import UsageLimits
from replica.chat.loop import DailyBudgetSpent, Run, TurnLoop
from replica.chat.model import ChatModel, ModelError
from replica.chat.outage import keep_lead
from replica.conversations import Conversation, Conversations
from replica.storage import Store
from replica.storage.records import NOTICE, VISITOR
from replica.tools import Outcome, ToolContext, ToolRegistry

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Visitor:
    """Who is asking: their chat session, and the client address they come from."""

    session_id: str
    address: str = "unknown"
    via: str = ""  # how they came, when not by the page ("MCP"): named in the owner's alerts


@dataclass(frozen=True)
class Bounds:
    """How much one visitor message may take: model calls, characters, seconds, tokens, and slots."""

    max_turns: int = 2
    max_message_chars: int = 4000
    history_budget_chars: int = 16000
    reply_deadline_seconds: float = 45.0
    max_reply_tokens: int = 600
    max_concurrent: int | None = None  # messages worked on at once, whatever route they arrive by
    check_deliverability: bool = False  # also check by DNS that an email's domain accepts mail


class Replica:
    """Answers visitors as the owner.

    ``model`` is ``None`` when no key is configured (the visitor is told so). ``system_prompt(query)``
    gives the system prompt for each message, so knowledge can change (or be chosen for the message)
    without a restart. ``conversations`` records every message and reply; the history the model sees
    is the recorded conversation, the owner's own words included.
    """

    def __init__(
        self,
        model: ChatModel | None,
        system_prompt: Callable[[str], str],
        registry: ToolRegistry,
        store: Store,
        notifier: Notifier,
        conversations: Conversations,
        limits: UsageLimits | None = None,
        bounds: Bounds = Bounds(),
    ):
        self.model = model
        self.system_prompt = system_prompt
        self.registry = registry
        self.store = store
        self.notifier = notifier
        self.conversations = conversations
        self.limits = limits or UsageLimits.build(10**9, 10**9, 10**9)
        self.bounds = bounds
        self._slots = threading.BoundedSemaphore(bounds.max_concurrent) if bounds.max_concurrent else None

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
        started = time.monotonic()
        recorder = self.conversations.recorder
        conversation = recorder.begin(visitor.session_id, visitor.address)
        history: list[dict[str, str]] = []
        if conversation:
            history = recorder.history(conversation.id)
            text = message if isinstance(message, str) else ""
            recorder.record(conversation.id, VISITOR, text[: self.bounds.max_message_chars + 1])
        run, reply = Run(), ""
        try:
            with self.conversations.page.replying(visitor.session_id):
                for reply in self._reply(message, history, visitor, conversation, run):
                    yield reply
        finally:
            if conversation:
                elapsed_ms = int((time.monotonic() - started) * 1000)
                recorder.record(conversation.id, run.role, reply, tuple(run.tools), run.model_calls, elapsed_ms)

    def _reply(
        self, message: str, history: list[dict[str, Any]], visitor: Visitor, conversation: Conversation | None, run: Run
    ) -> Iterator[str]:
        refusal = self._refusal(message, visitor)
        if refusal:
            yield refusal
            return
        if conversation and conversation.paused:
            run.role = NOTICE
            yield self._pass_to_owner(conversation, message)
            return
        if self.model is None:
            yield wording.NOT_CONFIGURED
            return
        deadline = Deadline(self.bounds.reply_deadline_seconds)
        if self._slots and not self._slots.acquire(timeout=deadline.remaining()):
            log.warning("No free reply slot within the deadline; visitor %s told to try again", visitor.session_id)
            yield wording.BUSY
            return
        try:
            yield from self._answer(message, history, visitor, deadline, conversation, run)
        finally:
            if self._slots:
                self._slots.release()

    def _refusal(self, message: str, visitor: Visitor) -> str | None:
        """A sentence instead of a model call, when the message or the visitor's usage rules one out."""
        if not isinstance(message, str) or not message.strip():
            return wording.BLANK_MESSAGE
        if len(message) > self.bounds.max_message_chars:
            return wording.TOO_LONG.format(limit=self.bounds.max_message_chars)
        if not self.limits.admit_message(visitor.session_id, visitor.address):
            log.warning("Message limit reached for session %s", visitor.session_id)
            return wording.TOO_MANY_MESSAGES
        return None

    def _pass_to_owner(self, conversation: Conversation, message: str) -> str:
        try:
            return self.conversations.handoff.pass_to_owner(conversation, message)
        except Exception as error:
            log.error("Could not pass a message on to the owner (%s)", type(error).__name__, exc_info=True)
            return wording.NOT_PASSED_ON

    def _answer(
        self,
        message: str,
        history: list[dict[str, Any]],
        visitor: Visitor,
        deadline: Deadline,
        conversation: Conversation | None,
        run: Run,
    ) -> Iterator[str]:
        earlier = history_messages(history, self.bounds.history_budget_chars)
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": self.system_prompt(retrieval_query(message, earlier))},
            *earlier,
            {"role": "user", "content": message},
        ]
        context = ToolContext(
            visitor.session_id,
            self.store,
            self.notifier,
            self.bounds.check_deliverability,
            conversation=conversation.id if conversation else None,
            via=visitor.via,
        )
        loop = TurnLoop(self.model, self.registry, self.limits, self.bounds.max_turns, self.bounds.max_reply_tokens)
        shown = ""
        try:
            for shown in run_until(deadline, lambda stop: loop.run(messages, context, deadline, stop, run)):
                yield shown
            return
        except DeadlineExceeded:
            log.warning("Reply deadline of %.0f s passed; the visitor gets what streamed so far", deadline.seconds)
            apology = wording.TOO_SLOW
        except DailyBudgetSpent:
            log.warning("Daily model-call budget spent")
            apology = wording.DAILY_LIMIT
        except ModelError as error:
            log.error("Model call failed: %s", error)
            apology = wording.MODEL_FAILED
        except Exception as error:  # a bug or an odd stream: still a sentence, never a traceback
            log.error("Unexpected error while talking to the model: %s", type(error).__name__, exc_info=True)
            apology = wording.MODEL_FAILED
        if keep_lead(message, self.registry, context):
            apology = f"{apology} {wording.LEAD_KEPT}"
        yield join(shown, apology, wording.SAVE_FAILED if Outcome.SAVE_FAILED in context.outcomes else "")
