"""The replica's conversation loop: one visitor message in, one streamed answer out.

A *turn* is one model call. Each visitor message gets at most ``max_turns`` of them: the model may ask
for tools on any turn but the last, and the last is made with ``tool_choice="none"`` so that the
visitor always gets words back. Answers are streamed: :meth:`Replica.stream_reply` yields the reply so
far each time more of it arrives. The whole answer, SDK retries and tool round included, is bounded by
a deadline. This module knows nothing about Gradio or Telegram.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

import openai

from replica import wording
from replica.alerts import Notifier
from replica.chat.deadline import Deadline, DeadlineExceeded, run_until
from replica.chat.limits import UsageLimits
from replica.conversations import Conversation, Conversations
from replica.logs import clip
from replica.storage.records import NOTICE, REPLICA, VISITOR
from replica.storage.store import Store
from replica.tools import Outcome, ToolContext, ToolRegistry

log = logging.getLogger(__name__)

OUTAGE_NOTES = "Left while the replica's language model was unavailable. The visitor wrote: {message}"

# A candidate email address in a visitor's message; email-validator decides whether it is one.
EMAIL_CANDIDATE = re.compile(r"[^\s<>()\[\],;:\"'@]{1,64}@[^\s<>()\[\],;:\"'@]{1,253}")


class DailyBudgetSpent(Exception):
    """The app's model calls for today are used up."""


@dataclass(frozen=True)
class Visitor:
    """Who is asking: their chat session, and the client address they come from."""

    session_id: str
    address: str = "unknown"
    via: str = ""  # how they came, when not by the page ("MCP"): named in the owner's alerts


@dataclass
class _ToolCall:
    id: str = ""
    name: str = ""
    arguments: str = ""


@dataclass
class _Run:
    """What answering one visitor message took, for the conversation record."""

    model_calls: int = 0
    tools: list[str] = field(default_factory=list)
    role: str = REPLICA  # NOTICE when the reply was the app's own note (a handoff), not the replica's words


@dataclass
class _Turn:
    """One model call's answer so far."""

    text: str = ""
    calls: list[_ToolCall] = field(default_factory=list)
    finish_reason: str | None = None


def _text_of(content: Any) -> str:
    """The text of a chat message's content, whether a string or a list of parts (files are left out)."""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        return content.get("text") or ""
    if isinstance(content, (list, tuple)):
        return "\n".join(filter(None, (_text_of(part) for part in content)))
    return ""


def _join(*parts: str) -> str:
    return "\n\n".join(part for part in parts if part).strip()


def history_messages(history: Iterable[dict[str, Any]], budget_chars: int | None = None) -> list[dict[str, str]]:
    """The visitor's earlier user/assistant messages as plain-text Chat Completions messages.

    With ``budget_chars``, only the most recent messages whose text fits the budget are kept, so a long
    conversation never overflows the model's context.
    """
    messages = []
    for item in history:
        if not isinstance(item, dict):
            continue  # the page sends history; a scripted client may send anything
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
    (or be chosen for the message) without a restart. Each message is answered within
    ``reply_deadline_seconds``; at most ``max_concurrent`` messages are worked on at once, whatever
    route they arrive by.
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
        reply_deadline_seconds: float = 45.0,
        max_reply_tokens: int = 600,
        max_concurrent: int | None = None,
        conversations: Conversations | None = None,
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
        self.reply_deadline_seconds = reply_deadline_seconds
        self.max_reply_tokens = max_reply_tokens
        self._slots = threading.BoundedSemaphore(max_concurrent) if max_concurrent else None
        self.conversations = conversations

    def reply(self, message: str, history: list[dict[str, Any]], visitor: Visitor) -> str:
        """The complete answer to ``message`` (the last value :meth:`stream_reply` yields)."""
        answer = ""
        for answer in self.stream_reply(message, history, visitor):
            pass
        return answer

    def stream_reply(self, message: str, history: list[dict[str, Any]], visitor: Visitor) -> Iterator[str]:
        """Yield the answer to ``message`` so far, each time it grows. Always ends in a sentence; never raises.

        With conversations, the message and its reply are recorded, and the history the model sees is the
        conversation as recorded (the owner's own words included), not what the client sent.
        """
        started = time.monotonic()
        recorder = self.conversations.recorder if self.conversations else None
        conversation = recorder.begin(visitor.session_id, visitor.address) if recorder else None
        if conversation:
            history = recorder.history(conversation.id)
            text = message if isinstance(message, str) else ""
            recorder.record(conversation.id, VISITOR, text[: self.max_message_chars + 1])
        run, reply = _Run(), ""
        try:
            page = self.conversations.page if self.conversations else None
            with page.replying(visitor.session_id) if page else contextlib.nullcontext():
                for reply in self._reply(message, history, visitor, conversation, run):
                    yield reply
        finally:  # also when the visitor stops the reply: what they saw is recorded
            if conversation:
                elapsed_ms = int((time.monotonic() - started) * 1000)
                recorder.record(conversation.id, run.role, reply, tuple(run.tools), run.model_calls, elapsed_ms)

    def _reply(
        self,
        message: str,
        history: list[dict[str, Any]],
        visitor: Visitor,
        conversation: Conversation | None,
        run: _Run,
    ) -> Iterator[str]:
        refusal = self._refusal(message, visitor)
        if refusal:
            yield refusal
            return
        if conversation and conversation.paused:
            run.role = NOTICE
            try:
                yield self.conversations.handoff.pass_to_owner(conversation, message)
            except Exception as error:
                log.error("Could not pass a message on to the owner (%s)", type(error).__name__, exc_info=True)
                yield wording.NOT_PASSED_ON
            return
        if self.client is None:
            yield wording.NOT_CONFIGURED
            return
        deadline = Deadline(self.reply_deadline_seconds)
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
        if len(message) > self.max_message_chars:
            return wording.TOO_LONG.format(limit=self.max_message_chars)
        if not self.limits.admit_message(visitor.session_id, visitor.address):
            log.warning("Message limit reached for session %s", visitor.session_id)
            return wording.TOO_MANY_MESSAGES
        return None

    def _answer(
        self,
        message: str,
        history: list[dict[str, Any]],
        visitor: Visitor,
        deadline: Deadline,
        conversation: Conversation | None,
        run: _Run,
    ) -> Iterator[str]:
        earlier = history_messages(history, self.history_budget_chars)
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": self.system_prompt(retrieval_query(message, earlier))},
            *earlier,
            {"role": "user", "content": message},
        ]
        context = ToolContext(
            visitor.session_id,
            self.store,
            self.notifier,
            self.check_deliverability,
            conversation=conversation.id if conversation else None,
            via=visitor.via,
        )
        shown = ""
        try:
            for shown in run_until(deadline, lambda stop: self._turns(messages, context, deadline, stop, run)):
                yield shown
            return
        except DeadlineExceeded:
            log.warning(
                "Reply deadline of %.0f s passed; the visitor gets what streamed so far", self.reply_deadline_seconds
            )
            apology = wording.TOO_SLOW
        except DailyBudgetSpent:
            log.warning("Daily model-call budget spent")
            apology = wording.DAILY_LIMIT
        except openai.OpenAIError as exc:
            # The class and status say what failed; the message may quote part of the key, so it stays out.
            log.error("Model call failed: %s (HTTP status %s)", type(exc).__name__, getattr(exc, "status_code", "none"))
            apology = wording.MODEL_FAILED
        except Exception as exc:  # e.g. the connection dropping mid-stream: still a sentence, never a traceback
            log.error("Unexpected error while talking to the model: %s", type(exc).__name__, exc_info=True)
            apology = wording.MODEL_FAILED
        if self._keep_lead(message, context):
            apology = f"{apology} {wording.LEAD_KEPT}"
        yield _join(shown, apology, wording.SAVE_FAILED if Outcome.SAVE_FAILED in context.outcomes else "")

    def _keep_lead(self, message: str, context: ToolContext) -> bool:
        """When the model failed us, store a lead from an email address in the visitor's own words.

        Returns whether the visitor's lead is stored (by the model's tool call earlier, or now).
        """
        if Outcome.LEAD_SAVED not in context.outcomes:
            notes = OUTAGE_NOTES.format(message=message[:500])
            for candidate in EMAIL_CANDIDATE.findall(message)[:3]:
                arguments = json.dumps({"email": candidate.strip("."), "notes": notes})
                self.registry.run("gather_user_details", arguments, context)
                if Outcome.LEAD_SAVED in context.outcomes:
                    log.info("Stored a lead from the visitor's message while the model was unavailable")
                    break
        return Outcome.LEAD_SAVED in context.outcomes

    def _turns(
        self,
        messages: list[dict[str, Any]],
        context: ToolContext,
        deadline: Deadline,
        stop: threading.Event,
        run: _Run,
    ) -> Iterator[str]:
        """Run the model calls for one message (on the deadline's worker thread); yield the words so far."""
        words = ""  # words of finished turns
        ran: dict[tuple[str, str], str] = {}  # each distinct tool call runs once per visitor message
        force_words = False
        cut = False  # the turn that wrote the last words ended before the model finished
        cause = "the model wrote no words"
        for turn in range(1, self.max_turns + 1):
            if stop.is_set():
                return
            if not self.limits.take_model_call():
                raise DailyBudgetSpent()
            run.model_calls += 1
            last = turn == self.max_turns
            tool_choice = "none" if last or force_words else "auto"
            reply, shown = _Turn(), words
            for reply in self._stream_turn(messages, tool_choice, deadline, stop):
                if _join(words, reply.text) != shown:
                    shown = _join(words, reply.text)
                    yield shown
            if stop.is_set():
                return
            if reply.text:
                cut = self._cut_short(reply)
            words = shown
            if not reply.calls:
                if words or last or force_words:
                    cause = "the model returned an empty reply" + (" twice" if force_words else "")
                    break
                log.warning("The model returned neither words nor tool calls; asking once more, for words only")
                force_words = True
                continue
            messages.append(self._assistant_message(reply.text, reply.calls))
            for call in reply.calls:
                messages.append(
                    {"role": "tool", "tool_call_id": call.id, "content": self._run_tool(call, context, ran)}
                )
                run.tools.append(call.name)
            if tool_choice == "none":
                # Some OpenAI-compatible servers ignore tool_choice="none". The tools' effects (a stored
                # lead) are kept, but the turn budget is spent: no further model call.
                log.warning("The model asked for tools on a call sent tool_choice=none; answering without another call")
                cause = "the model asked for tools on its last turn and wrote no words"
                break
        yield _join(self._final_words(words, context, cause), wording.CUT_OFF if cut and words else "")

    def _run_tool(self, call: _ToolCall, context: ToolContext, ran: dict[tuple[str, str], str]) -> str:
        key = (call.name, _canonical(call.arguments))
        if key in ran:
            log.info("Tool %s requested again with the same arguments; not run twice", call.name)
            return ran[key]
        result = ran[key] = self.registry.run(call.name, call.arguments, context)
        log.info("Tool %s -> %s", call.name, clip(result, 80))
        return result

    @staticmethod
    def _final_words(words: str, context: ToolContext, cause: str) -> str:
        """The reply to show: the model's words, or a sentence that fits what the tools did."""
        outcomes = context.outcomes
        if not words:
            if Outcome.SAVE_FAILED in outcomes:
                return wording.SAVE_FAILED
            if Outcome.LEAD_SAVED in outcomes:
                return wording.LEAD_PASSED_ON
            if Outcome.QUESTION_SAVED in outcomes:
                return wording.QUESTION_PASSED_ON
            log.warning("The visitor got the no-answer apology: %s", cause)
            return wording.NO_ANSWER
        return _join(words, wording.SAVE_FAILED if Outcome.SAVE_FAILED in outcomes else "")

    @staticmethod
    def _cut_short(reply: _Turn) -> bool:
        """Whether the turn's words end before the model finished them (the visitor is told so)."""
        if reply.finish_reason is None:
            log.warning("The model's stream ended without a finish reason (cut off mid-way); the visitor is told")
            return True
        if reply.finish_reason == "length":
            log.warning("The model's reply was cut at MAX_REPLY_TOKENS; the visitor is told")
            return True
        return False

    def _call_timeout(self, deadline: Deadline) -> float:
        """Per-call timeout: the client's own, but never past the deadline."""
        configured = self.client.timeout
        remaining = max(deadline.remaining(), 0.1)
        return min(configured, remaining) if isinstance(configured, (int, float)) else remaining

    def _stream_turn(
        self, messages: list[dict[str, Any]], tool_choice: str, deadline: Deadline, stop: threading.Event
    ) -> Iterator[_Turn]:
        """One streamed model call: yields the turn so far as chunks arrive; stops early when ``stop`` is set.

        Tool-call deltas are assembled by ``index``: the id and name come once, the arguments in pieces.
        """
        stream = self.client.chat.completions.create(
            model=self.model,
            messages=messages,
            tools=self.registry.schemas(),
            tool_choice=tool_choice,
            max_tokens=self.max_reply_tokens,
            stream=True,
            timeout=self._call_timeout(deadline),
        )
        turn, calls = _Turn(), {}
        with stream:
            for chunk in stream:
                if stop.is_set():
                    return  # leaving the block closes the stream, so the provider stops generating
                if not chunk.choices:
                    continue
                choice = chunk.choices[0]
                for part in choice.delta.tool_calls or []:
                    call = calls.setdefault(part.index, _ToolCall())
                    call.id = part.id or call.id
                    if part.function:
                        call.name = part.function.name or call.name
                        call.arguments += part.function.arguments or ""
                turn.text += choice.delta.content or ""
                turn.finish_reason = choice.finish_reason or turn.finish_reason
                turn.calls = [calls[i] for i in sorted(calls)]
                yield turn
        yield turn

    @staticmethod
    def _assistant_message(text: str, calls: list[_ToolCall]) -> dict[str, Any]:
        return {
            "role": "assistant",
            "content": text or None,
            "tool_calls": [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}} for c in calls
            ],
        }


def _canonical(arguments: str) -> str:
    """Tool arguments in one spelling, so the same call written twice is recognised."""
    try:
        return json.dumps(json.loads(arguments or "{}"), sort_keys=True)
    except ValueError:
        return arguments
