"""The turn loop: one visitor message's model calls, at most ``max_turns`` of them.

A *turn* is one model call. The model may ask for tools on any turn but the last, which is made with
``tool_choice="none"`` so that the visitor always gets words back. Each distinct tool call runs once
per message, and at most :data:`MAX_CALLS_PER_TOOL` calls of one tool, whether the model made them
natively or wrote them as text (:mod:`replica.chat.tool_text`); tool syntax never reaches the visitor.
Tool calls come from the model, never from the visitor: a call written as text is run only when the
server has not called tools natively in this process, and not at all for a visitor message that holds
tool-call syntax itself (a model that repeats the visitor would run the visitor's call). When the model writes no words, the visitor still gets a
sentence that fits what the tools did. The loop knows the model only as a :class:`~replica.chat.model.ChatModel`.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any, Iterator

from replica import wording
from replica.chat.deadline import Deadline
from replica.chat.debris import without_debris
from replica.chat.history import join, text_of
from replica.chat.limits import UsageLimits
from replica.chat.markup import has_stray_closing, without_markup
from replica.chat.model import ChatModel, ToolCall, Turn
from replica.chat.run import Ended, ModelCalled, Run, Source, ToolRan, Words
from replica.chat.tool_text import ToolTextFilter, holds_tool_syntax, read_tool_text
from replica.knowledge.prompts import render_prompt
from replica.logs import clip
from replica.tools import Outcome, ToolContext, ToolRegistry, ToolResult

log = logging.getLogger(__name__)
MAX_CALLS_PER_TOOL = 3  # a reply that writes forty-five calls stores three leads, not forty-four


class DailyBudgetSpent(Exception):
    """The app's model calls for today are used up."""


class TurnLoop:
    """Runs the model calls for one message: ``model`` answers, ``registry`` runs the tools it asks for."""

    def __init__(self, model: ChatModel, registry: ToolRegistry, limits: UsageLimits, max_turns: int, max_tokens: int):
        self.model = model
        self.registry = registry
        self.limits = limits
        self.max_turns = max_turns
        self.max_tokens = max_tokens

    def run(
        self,
        messages: list[dict[str, Any]],
        context: ToolContext,
        deadline: Deadline,
        stop: threading.Event,
        run: Run,
    ) -> Iterator[str]:
        """Yield the words so far as they grow, the last yield being the whole reply; each model call,
        tool call and turn's words, and how it ended, are added to ``run``."""
        words = ""  # words of finished turns
        ran: dict[tuple[str, str], ToolResult] = {}  # each distinct tool call runs once per visitor message
        visitor = text_of(messages[-1].get("content")) if messages and messages[-1].get("role") == "user" else ""
        visitor_wrote_a_call = holds_tool_syntax(visitor, self.registry.names, self.registry.parameters())
        force_words = cut = False  # cut: the turn that wrote the last words ended before the model finished
        cause = "the model wrote no words"
        for turn in range(1, self.max_turns + 1):
            if stop.is_set():
                return
            if not self.limits.take_model_call():
                raise DailyBudgetSpent()
            run.add(ModelCalled(turn))
            last = turn == self.max_turns
            tool_choice = "none" if last or force_words else "auto"
            reply, shown, hidden = Turn(), words, ToolTextFilter(self.registry.names)
            tools = self.registry.schemas()
            for reply in self.model.stream(messages, tools, tool_choice, self.max_tokens, deadline.remaining(), stop):
                visible = join(words, hidden.visible(without_markup(reply.text, self.model.opens_thinking)))
                if visible != shown:
                    shown = visible
                    yield shown
            if stop.is_set():
                return
            if reply.text.strip():  # learned from the first reply with words: its template opens a block, or not
                self.model.opens_thinking = has_stray_closing(reply.text) or bool(self.model.opens_thinking)
            calls, text, source = self._read(reply, visitor_wrote_a_call)
            if not without_debris(text):
                text = ""  # nothing but markup, template tokens or repeats: no words, and the retry below
            run.add(Words(text))
            if text:
                cut = cut_short(reply)
            words = join(words, text)
            if words != shown:
                yield words  # words held back while they might have been a tool call, and were not
            if not calls:
                if words or last or force_words:
                    cause = "the model returned an empty reply" + (" twice" if force_words else "")
                    break
                log.warning("The model returned neither words nor tool calls; asking once more, for words only")
                force_words = True
                continue
            messages.extend(self._run_tools(reply, calls, source, context, ran, run))
            if tool_choice == "none":
                # Some OpenAI-compatible servers ignore tool_choice="none". The tools' effects (a stored
                # lead) are kept, but the turn budget is spent: no further model call.
                log.warning("The model asked for tools on a call sent tool_choice=none; answering without another call")
                cause = "the model asked for tools on its last turn and wrote no words"
                break
        run.add(Ended("cut" if cut and words else "words" if words else "tools only" if run.outcomes else "no words"))
        yield join(final_words(words, run.outcomes, cause), wording.CUT_OFF if cut and words else "")

    def _read(self, reply: Turn, visitor_wrote_a_call: bool) -> tuple[list[ToolCall], str, Source]:
        """The turn's tool calls (native, or written as text: the source says which) and its words
        without any tool syntax."""
        registry = self.registry
        read = read_tool_text(self._finished(reply), registry.names, registry.parameters(), registry.required())
        if read.unreadable:
            log.warning("The model wrote tool-call syntax (%s) that names no tool it was offered; not shown", read.form)
        if reply.calls:
            return reply.calls, read.prose, Source.MODEL
        if read.calls and (visitor_wrote_a_call or self.model.calls_tools_natively):
            why = (
                "the visitor's message held tool-call syntax"
                if visitor_wrote_a_call
                else "this server calls tools natively"
            )
            log.warning("The model wrote %d tool call(s) as text (%s); not run: %s", len(read.calls), read.form, why)
            return [], read.prose, Source.TEXT
        return read.calls, read.prose, Source.TEXT

    def _finished(self, reply: Turn) -> str:
        """A finished turn's text without what is not for the visitor (thinking, another turn's tokens)."""
        return without_markup(reply.text, self.model.opens_thinking, final=True)

    def _run_tools(
        self,
        reply: Turn,
        calls: list[ToolCall],
        source: Source,
        context: ToolContext,
        ran: dict[tuple[str, str], ToolResult],
        run: Run,
    ) -> list[dict[str, Any]]:
        """Run the turn's calls, each added to ``run``; return the messages that tell the model what they did."""
        results = []
        for call in calls:
            result = self._run_tool(call, context, ran)
            run.add(ToolRan(call.name, source, result))
            results.append(result.text)
        if reply.calls:
            return [
                assistant_message(self._finished(reply), calls),
                *({"role": "tool", "tool_call_id": c.id, "content": r} for c, r in zip(calls, results)),
            ]
        # A call written as text goes back as the model wrote it, its results as a note from the app: a
        # server that does not read tool calls often cannot lay out tool messages either.
        lines = "\n".join(f"- {call.name}: {result}" for call, result in zip(calls, results))
        return [
            {"role": "assistant", "content": self._finished(reply)},
            {"role": "user", "content": render_prompt("tool_results.md", results=lines)},
        ]

    def _run_tool(self, call: ToolCall, context: ToolContext, ran: dict[tuple[str, str], ToolResult]) -> ToolResult:
        """Run ``call`` unless it ran already (its text again, having done nothing) or its tool ran too often."""
        key = (call.name, canonical(call.arguments))
        if key in ran:
            log.debug("Tool %s requested again with the same arguments; not run twice", call.name)
            return ToolResult(ran[key].text)
        if sum(name == call.name for name, _ in ran) >= MAX_CALLS_PER_TOOL:
            log.warning("Tool %s asked for more than %d times for one message; not run", call.name, MAX_CALLS_PER_TOOL)
            return ToolResult(
                f"Error: {call.name} already ran {MAX_CALLS_PER_TOOL} times for this message; this call was not run."
            )
        result = ran[key] = self.registry.run(call.name, call.arguments, context)
        log.debug("Tool %s -> %s", call.name, clip(result.text, 80))
        return result


def final_words(words: str, outcomes: list[Outcome], cause: str) -> str:
    """The reply to show: the model's words, or a sentence that fits what the tools (``outcomes``) did."""
    if not words:
        if Outcome.SAVE_FAILED in outcomes:
            return wording.SAVE_FAILED
        if Outcome.LEAD_SAVED in outcomes:
            return wording.LEAD_PASSED_ON
        if Outcome.QUESTION_SAVED in outcomes:
            return wording.QUESTION_PASSED_ON
        if Outcome.EMAIL_REFUSED in outcomes:
            return wording.EMAIL_INVALID
        log.warning("The visitor got the no-answer apology: %s", cause)
        return wording.NO_ANSWER
    return join(words, wording.SAVE_FAILED if Outcome.SAVE_FAILED in outcomes else "")


def cut_short(reply: Turn) -> bool:
    """Whether the turn's words end before the model finished them (the visitor is told so)."""
    if reply.finish_reason is None:
        log.warning("The model's stream ended without a finish reason (cut off mid-way); the visitor is told")
        return True
    if reply.finish_reason == "length":
        log.warning("The model's reply was cut at MAX_REPLY_TOKENS; the visitor is told")
        return True
    return False


def assistant_message(text: str, calls: list[ToolCall]) -> dict[str, Any]:
    """The model's turn as it goes back into the messages: its words and the tools it asked for."""
    return {
        "role": "assistant",
        "content": text or None,
        "tool_calls": [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}} for c in calls
        ],
    }


def canonical(arguments: str) -> str:
    """Tool arguments in one spelling, so the same call written twice is recognised."""
    try:
        return json.dumps(json.loads(arguments or "{}"), sort_keys=True)
    except ValueError:
        return arguments
