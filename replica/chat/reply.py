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
from replica.chat.history import as_visitor_words, history_messages, join, retrieval_query
from replica.chat.lead_net import NOTES, OUTAGE_NOTES, keep_lead
from replica.chat.limits import UsageLimits
from replica.chat.loop import DailyBudgetSpent, TurnLoop
from replica.chat.model import ChatModel, ModelError
from replica.chat.question_net import pass_question_on, records_of
from replica.chat.reply_check import ReplyChecker
from replica.chat.run import Ended, Run
from replica.chat.without_model import WithoutModel, in_steps
from replica.conversations import Conversation, Conversations
from replica.knowledge.prompts import render_prompt
from replica.settings import Settings
from replica.storage import Store
from replica.storage.database import storage_errors
from replica.storage.records import NOTICE, VISITOR
from replica.tools import Outcome, ToolContext, ToolRegistry

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Visitor:
    """Who is asking: their chat session, and the client address they come from."""

    session_id: str
    address: str = "unknown"
    via: str = ""  # how they came, when not by the page ("MCP"): named in the owner's alerts


class Replica:
    """Answers visitors as the owner.

    ``model`` is ``None`` when no model is configured (no key, no ``OPENAI_BASE_URL``);
    ``system_prompt(query)`` is each message's system prompt; ``conversations`` records every message and reply (the history the model sees, the owner's
    words included); ``without_model`` answers from the owner's approved answers when there is no model;
    ``settings`` bound each message; ``knowledge``, the owner's files whole, is what replies are checked
    against (:mod:`replica.chat.reply_check`)."""

    def __init__(
        self,
        *,
        model: ChatModel | None,
        system_prompt: Callable[[str], str],
        registry: ToolRegistry,
        store: Store,
        notifier: Notifier,
        conversations: Conversations,
        without_model: WithoutModel,
        limits: UsageLimits | None = None,
        settings: Settings = Settings(),
        knowledge: str = "",
    ):
        self.model = model
        self.system_prompt = system_prompt
        self.registry = registry
        self.store = store
        self.notifier = notifier
        self.conversations = conversations
        self.without_model = without_model
        self.limits = limits or UsageLimits.build(10**9, 10**9, 10**9)
        self.settings = settings
        self._slots = threading.BoundedSemaphore(settings.queue_concurrency)
        self.checker = ReplyChecker(knowledge, settings.owner_name)  # each reply checked against these

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
            recorder.record(conversation.id, VISITOR, text[: self.settings.max_message_chars + 1])
        run, reply = Run(), ""
        try:
            with self.conversations.page.replying(visitor.session_id):
                shown = None
                for reply in self._reply(message, history, visitor, conversation, run):
                    if reply != shown:  # the same words again would cost the page a message for nothing
                        shown = reply
                        yield reply
                offered = with_booking(reply, run, self.settings.owner_booking)
                if offered != reply:
                    reply = offered
                    yield reply
        finally:
            elapsed_ms = int((time.monotonic() - started) * 1000)
            if conversation:
                facts = tuple(run.facts)  # read from the run's events, as is everything below
                recorder.record(
                    conversation.id, run.role, reply, tuple(run.tools), run.model_calls, elapsed_ms, facts=facts
                )
            log.info(
                "Conversation #%s: %d model call(s); tools: %s; tool calls written as text: %d; %d ms; ended: %s",
                conversation.id if conversation else "-",
                run.model_calls,
                "; ".join(run.done) or "none",
                run.textual_calls,
                elapsed_ms,
                run.ended,
            )

    def _reply(
        self, message: str, history: list[dict[str, Any]], visitor: Visitor, conversation: Conversation | None, run: Run
    ) -> Iterator[str]:
        refusal = refusal_for(message, visitor, self.settings, self.limits)
        if refusal:
            run.add(Ended("refused"))
            yield refusal
            return
        if conversation and conversation.paused:
            run.add(Ended("passed to the owner", role=NOTICE))
            yield pass_to_owner(self.conversations, conversation, message)
            return
        context = ToolContext(
            visitor.session_id,
            self.store,
            self.notifier,
            self.settings.email_check_deliverability,
            conversation=conversation.id if conversation else None,
            via=visitor.via,
            visitor_words="\n".join([*(m["content"] for m in history if m["role"] == "user"), message]),
            address=self.conversations.recorder.address_hash(visitor.address) if visitor.address != "unknown" else "",
        )
        try:
            yield from self._answer(message, history, conversation, context, run)
        finally:
            if not run.lead_net_ran:  # the visitor stopped the reply: an address they gave is still kept
                keep_lead(message, self.registry, context, run, NOTES)

    def _answer(
        self,
        message: str,
        history: list[dict[str, Any]],
        conversation: Conversation | None,
        context: ToolContext,
        run: Run,
    ) -> Iterator[str]:
        if self.model is None:
            run.add(Ended("no model"))
            yield from self._reply_without_model(message, context, run, "")
            return
        deadline = Deadline(self.settings.reply_deadline_seconds)
        if not self._slots.acquire(timeout=deadline.remaining()):
            log.warning("No free reply slot within the deadline; visitor %s told to try again", context.session_id)
            run.add(Ended("busy"))
            yield from self._reply_without_model(message, context, run, wording.BUSY)
            return
        try:
            yield from self._model_reply(message, history, conversation, context, deadline, run)
        finally:
            self._slots.release()

    def _model_reply(
        self,
        message: str,
        history: list[dict[str, Any]],
        conversation: Conversation | None,
        context: ToolContext,
        deadline: Deadline,
        run: Run,
    ) -> Iterator[str]:
        earlier = history_messages(history, self.settings.history_budget_chars)
        facts = self.conversations.recorder.facts(conversation.id) if conversation else None
        system = join(self.system_prompt(retrieval_query(message, earlier)), facts_section(facts))
        messages = [
            {"role": "system", "content": system},
            *earlier,
            {"role": "user", "content": as_visitor_words(message)},
        ]
        loop = TurnLoop(self.model, self.registry, self.limits, self.settings.max_turns, self.settings.max_reply_tokens)
        check = self.checker.begin(system, earlier, message, on=self.settings.check_replies)
        shown = words = ""
        try:
            for words in run_until(deadline, lambda stop: loop.run(messages, context, deadline, stop, run)):
                shown = check.visible(words)
                yield shown
            mark = run.mark()
            kept = keep_lead(message, self.registry, context, run, NOTES)
            records = records_of(self.store, context, run)
            shown = check.finish(words, records, lambda: pass_question_on(message, self.registry, context, run))
            if kept:
                yield join(shown, wording.LEAD_NOTED)
            elif Outcome.SAVE_FAILED in run.outcomes_since(mark) and wording.SAVE_FAILED not in shown:
                yield join(shown, wording.SAVE_FAILED)  # the net's lead could not be saved: the visitor is told
            else:
                yield shown
            return
        except DeadlineExceeded:
            log.warning("Reply deadline of %.0f s passed; the visitor gets what streamed so far", deadline.seconds)
            apology, ended = wording.TOO_SLOW, "deadline"
        except DailyBudgetSpent:
            log.warning("Daily model-call budget spent")
            apology, ended = wording.DAILY_LIMIT, "daily budget spent"
        except ModelError as error:
            log.error("Model call failed: %s", error)
            apology, ended = wording.MODEL_FAILED, "model failed"
        except Exception as error:  # a bug or an odd stream: still a sentence, never a traceback
            log.error("Unexpected error while talking to the model: %s", type(error).__name__, exc_info=True)
            apology, ended = wording.MODEL_FAILED, "error"
        run.add(Ended(ended))
        if shown:
            yield join(shown, self._apology(apology, message, context, run))
        else:  # no words yet: the visitor gets what a reply without a model gives
            yield from self._reply_without_model(message, context, run, apology)

    def _reply_without_model(self, message: str, context: ToolContext, run: Run, apology: str) -> Iterator[str]:
        """The reply :class:`WithoutModel` makes, streamed in steps; what it did added to ``run``."""
        reply = self.without_model.reply(message, context, run, apology)
        run.add(Ended(reply.ended))
        yield from in_steps(reply.text)

    def _apology(self, apology: str, message: str, context: ToolContext, run: Run) -> str:
        """An apology for not answering, saying so when the visitor's address was kept all the same."""
        if keep_lead(message, self.registry, context, run, OUTAGE_NOTES):
            apology = f"{apology} {wording.LEAD_KEPT}"
        return join(apology, wording.SAVE_FAILED if Outcome.SAVE_FAILED in run.outcomes else "")


def with_booking(reply: str, run: Run, booking_url: str | None) -> str:
    """The reply, offering the owner's booking page when this message left a lead (unless it already does)."""
    if not booking_url or Outcome.LEAD_SAVED not in run.outcomes or booking_url in reply:
        return reply
    return join(reply, wording.BOOK_A_TIME.format(link=booking_url))


def pass_to_owner(conversations: Conversations, conversation: Conversation, message: str) -> str:
    """Hand a message of a conversation the owner has taken over to them; the notice the visitor reads."""
    try:
        return conversations.handoff.pass_to_owner(conversation, message)
    except storage_errors() as error:
        log.error("Could not pass a message on to the owner (%s)", type(error).__name__, exc_info=True)
        return wording.NOT_PASSED_ON


def refusal_for(message: str, visitor: Visitor, settings: Settings, limits: UsageLimits) -> str | None:
    """A sentence instead of a reply, when the message or the visitor's usage rules one out."""
    if not isinstance(message, str) or not message.strip():
        return wording.BLANK_MESSAGE
    if len(message) > settings.max_message_chars:
        return wording.TOO_LONG.format(limit=settings.max_message_chars)
    if not limits.admit_message(visitor.session_id, visitor.address):
        log.warning("Message limit reached for session %s", visitor.session_id)
        return wording.TOO_MANY_MESSAGES
    return None


def facts_section(facts: list[str] | None) -> str:
    """What the conversation's tools did, for the system prompt: the app's records, never the visitor's words."""
    if facts is None:
        lines = "- The records could not be read just now: do not say whether anything was saved or passed on."
    elif not facts:
        lines = "- Nothing yet: no email address has been recorded and no question passed on in this conversation."
    else:
        lines = "\n".join(f"- {fact}" for fact in facts)
    return render_prompt("facts.md", facts=lines)
