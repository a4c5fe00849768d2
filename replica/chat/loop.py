"""The turn loop: one visitor message's model calls, at most ``max_turns`` of them.

A *turn* is one model call. The model may ask for tools on any turn but the last, which is made with
``tool_choice="none"`` so that the visitor always gets words back. Each distinct tool call runs once
per message, and at most :data:`MAX_CALLS_PER_TOOL` calls of one tool, whether the model made them
natively or wrote them as text. When the model writes no words, the visitor still gets a sentence that
fits what the tools did. The loop sees the model only as clean turns (:mod:`replica.chat.turns`):
what a server's template or a small model adds to its words is taken out before they get here.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any, Iterator

from replica import wording
from replica.chat.deadline import Deadline
from replica.chat.history import join, text_of
from replica.chat.limits import UsageLimits
from replica.chat.model import ToolCall, ToolChoice
from replica.chat.run import Ended, Ending, ModelCalled, Run, Source, ToolRan, Words
from replica.chat.turns import CleanModel, CleanTurn
from replica.knowledge.prompts import render_prompt
from replica.text import clip
from replica.tools import Failure, Outcome, ToolContext, ToolRegistry, ToolResult

log = logging.getLogger(__name__)
MAX_CALLS_PER_TOOL = 3  # a reply that writes forty-five calls stores three leads, not forty-four


class DailyBudgetSpent(Exception):
    """The app's model calls for today are used up."""


class TurnLoop:
    """Runs the model calls for one message: ``model`` answers, ``registry`` runs the tools it asks for."""

    def __init__(self, model: CleanModel, registry: ToolRegistry, limits: UsageLimits, max_turns: int, max_tokens: int):
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
        force_words = cut = False  # cut: the turn that wrote the last words ended before the model finished
        cause = "the model wrote no words"
        tools = self.registry.schemas()
        for turn in range(1, self.max_turns + 1):
            if stop.is_set():
                return
            if not self.limits.take_model_call():
                raise DailyBudgetSpent()
            run.add(ModelCalled(turn))
            last = turn == self.max_turns
            tool_choice: ToolChoice = "none" if last or force_words else "auto"
            shown, done = words, CleanTurn("")
            remaining = deadline.remaining()
            for done in self.model.turns(messages, tools, tool_choice, self.max_tokens, remaining, stop, visitor):
                visible = join(words, done.words)
                if visible != shown:
                    shown = visible
                    yield shown
            if stop.is_set() or not done.done:
                return
            run.add(Words(done.words, trimmed=done.trimmed, tokens=done.tokens))
            cut = done.cut if done.words else cut
            words = join(words, done.words)
            if words != shown:
                yield words  # words held back while they might have been a tool call, and were not
            if not done.calls:
                if words or last or force_words:
                    cause = "the model returned an empty reply" + (" twice" if force_words else "")
                    break
                log.warning("The model returned neither words nor tool calls; asking once more, for words only")
                force_words = True
                continue
            messages.extend(self._run_tools(done, context, ran, run))
            if tool_choice == "none":
                # Some OpenAI-compatible servers ignore tool_choice="none". The tools' effects (a stored
                # lead) are kept, but the turn budget is spent: no further model call.
                log.warning("The model asked for tools on a call sent tool_choice=none; answering without another call")
                cause = "the model asked for tools on its last turn and wrote no words"
                break
        ending = Ending.CUT if cut and words else Ending.WORDS if words else None
        run.add(Ended(ending or (Ending.TOOLS_ONLY if run.outcomes else Ending.NO_WORDS)))
        yield join(final_words(words, run.outcomes, cause), wording.CUT_OFF if cut and words else "")

    def _run_tools(
        self, turn: CleanTurn, context: ToolContext, ran: dict[tuple[str, str], ToolResult], run: Run
    ) -> list[dict[str, Any]]:
        """Run the turn's calls, each added to ``run``; return the messages that tell the model what they did."""
        results = []
        for call in turn.calls:
            result = self._run_tool(call, context, ran)
            run.add(ToolRan(call.name, turn.source, result))
            results.append(result.text)
        if turn.source is Source.MODEL:
            return [
                assistant_message(turn.said, turn.calls),
                *({"role": "tool", "tool_call_id": c.id, "content": r} for c, r in zip(turn.calls, results)),
            ]
        # A call written as text goes back as the model wrote it, its results as a note from the app: a
        # server that does not read tool calls often cannot lay out tool messages either.
        lines = "\n".join(f"- {call.name}: {result}" for call, result in zip(turn.calls, results))
        return [
            {"role": "assistant", "content": turn.said},
            {"role": "user", "content": render_prompt("tool_results.md", results=lines)},
        ]

    def _run_tool(self, call: ToolCall, context: ToolContext, ran: dict[tuple[str, str], ToolResult]) -> ToolResult:
        """Run ``call`` unless it ran already (its text again, having done nothing) or its tool ran too often."""
        key = (call.name, canonical(call.arguments))
        if key in ran:
            log.debug("Tool %s requested again with the same arguments; not run twice", call.name)
            return ToolResult(ran[key].text, failure=ran[key].failure)
        if sum(name == call.name for name, _ in ran) >= MAX_CALLS_PER_TOOL:
            log.warning("Tool %s asked for more than %d times for one message; not run", call.name, MAX_CALLS_PER_TOOL)
            return ToolResult(
                f"Error: {call.name} already ran {MAX_CALLS_PER_TOOL} times for this message; this call was not run.",
                failure=Failure.REFUSED,
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
    return words  # a save that failed is told by the step after the answer (replica.chat.steps)


def assistant_message(text: str, calls: tuple[ToolCall, ...]) -> dict[str, Any]:
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
