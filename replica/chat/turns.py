"""The model as the turn loop sees it: clean turns, whatever the server.

Servers differ in ways the loop should never see. Some templates think aloud in tags (``<think>…``),
some open that block in the prompt so only its closing tag shows, some leak the next turn's template
tokens; small models write tool calls as text (JSON, a Python-style call, a ``<tool_call>`` block)
instead of calling natively, write the next turn themselves ("User: …"), or stop inside a call they
began ("I will call the `"), which :mod:`replica.chat.endings` cuts back to whole sentences. :class:`CleanModel` wraps any :class:`~replica.chat.model.ChatModel` and
yields :class:`CleanTurn`: the words for the visitor so far (no markup, no tool syntax), and once the
turn is done its tool calls with their :class:`~replica.chat.run.Source` and what goes back into the
messages. What it learns of the server (that its template opens a thinking block) it keeps, and with a
:class:`~replica.chat.server_memory.ServerMemory`, past a restart.

Tool calls come from the model, never from the visitor: a call written as text is read only when the
server has not called tools natively in this process, and not at all for a visitor message that holds
tool-call syntax itself (a model that repeats the visitor would run the visitor's call).
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any, Iterator

from replica.chat.endings import TurnLabels, whole_sentences
from replica.chat.markup import has_stray_closing, without_markup
from replica.chat.model import ChatModel, ToolCall, ToolChoice, Turn
from replica.chat.reply_check.debris import without_debris
from replica.chat.run import Source
from replica.chat.server_memory import ServerMemory
from replica.chat.tool_text import ToolTextFilter, holds_tool_syntax, read_tool_text

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CleanTurn:
    """One model call as the loop uses it. While it streams, ``words`` grows; the last one is ``done``."""

    words: str  # for the visitor: no thinking, template tokens or tool syntax (and, once done, no debris)
    done: bool = False
    calls: tuple[ToolCall, ...] = ()  # the tools to run, native or read from text (``source`` says which)
    source: Source = Source.MODEL
    said: str = ""  # the turn as it goes back into the messages: no markup, a call written as text left as written
    cut: bool = False  # the words end before the model finished them (a dropped stream, the token limit)
    trimmed: bool = False  # the app cut a next turn the model wrote itself, or a fragment where a call began
    tokens: int = 0  # what the call cost, when the server says (the owner's /stats)


@dataclass(frozen=True)
class ToolNames:
    """What the tools offered on a call are called and take, read from their schemas."""

    names: tuple[str, ...]
    parameters: dict[str, set[str]]
    required: dict[str, set[str]]

    @classmethod
    def of(cls, tools: list[dict[str, Any]]) -> "ToolNames":
        """The names and arguments of ``tools``, in the Chat Completions ``tools`` format."""
        functions = [tool["function"] for tool in tools]
        return cls(
            tuple(f["name"] for f in functions),
            {f["name"]: set(f["parameters"]["properties"]) for f in functions},
            {f["name"]: set(f["parameters"].get("required", [])) for f in functions},
        )


class CleanModel:
    """``model``, its turns cleaned. ``opens_thinking`` starts as the adapter knows it (``None``: not known
    yet, and the server's first reply is held whole) and is learned from the first reply with words.
    ``names``: the owner's, whose label ("Jordan:") opens a turn the model writes itself, as "User:" does."""

    def __init__(self, model: ChatModel, names: tuple[str, ...] = (), memory: ServerMemory | None = None):
        self.model = model
        self.memory = memory  # what an earlier start learned of this server, and where this one keeps it
        known = model.opens_thinking
        self.opens_thinking: bool | None = memory.recall() if known is None and memory else known
        self.labels = TurnLabels(names)

    def turns(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        tool_choice: ToolChoice,
        max_tokens: int,
        timeout: float,
        stop: threading.Event,
        visitor: str,
    ) -> Iterator[CleanTurn]:
        """One model call, cleaned: the turn so far as its words grow, then the finished turn (none once
        ``stop`` is set). ``visitor`` is the visitor's message this call answers."""
        offered = ToolNames.of(tools)
        hidden, shown, reply = ToolTextFilter(offered.names), None, Turn()
        for reply in self.model.stream(messages, tools, tool_choice, max_tokens, timeout, stop):
            words = hidden.visible(without_markup(reply.text, self.opens_thinking))
            words, _ = self.labels.before_next_turn(self.labels.without_own_label(words), final=False)
            if words != shown:
                shown = words
                yield CleanTurn(words)
        if stop.is_set():
            return
        if reply.text.strip():  # learned from the first reply with words: its template opens a block, or not
            learned = has_stray_closing(reply.text) or bool(self.opens_thinking)
            if learned != self.opens_thinking and self.memory:
                self.memory.keep(learned)
            self.opens_thinking = learned
        said = without_markup(reply.text, self.opens_thinking, final=True)
        calls, words, source = self._read(reply, said, offered, visitor)
        words, turned = self.labels.before_next_turn(self.labels.without_own_label(words))
        words, broken = whole_sentences(words)
        if not without_debris(words):
            words = ""  # nothing but markup, template tokens or repeats: no words
        # "(My answer was cut off…)" only where the words end as the model stopped, not where the app cut.
        cut = bool(words) and not (turned or broken) and cut_short(reply)
        yield CleanTurn(
            words,
            done=True,
            calls=tuple(calls),
            source=source,
            said=said,
            cut=cut,
            trimmed=turned or broken,
            tokens=reply.tokens,
        )

    def _read(self, reply: Turn, said: str, offered: ToolNames, visitor: str) -> tuple[list[ToolCall], str, Source]:
        """The turn's tool calls (native, or written as text) and its words without any tool syntax."""
        read = read_tool_text(said, offered.names, offered.parameters, offered.required)
        if read.unreadable:
            log.warning("The model wrote tool-call syntax (%s) that names no tool it was offered; not shown", read.form)
        if reply.calls:
            return reply.calls, read.prose, Source.MODEL
        if not read.calls:
            return [], read.prose, Source.TEXT
        if holds_tool_syntax(visitor, offered.names, offered.parameters):
            why = "the visitor's message held tool-call syntax"
        elif self.model.calls_tools_natively:
            why = "this server calls tools natively"
        else:
            return read.calls, read.prose, Source.TEXT
        log.warning("The model wrote %d tool call(s) as text (%s); not run: %s", len(read.calls), read.form, why)
        return [], read.prose, Source.TEXT


def cut_short(reply: Turn) -> bool:
    """Whether the turn's words end before the model finished them (the visitor is told so)."""
    if reply.finish_reason is None:
        log.warning("The model's stream ended without a finish reason (cut off mid-way); the visitor is told")
        return True
    if reply.finish_reason == "length":
        log.warning("The model's reply was cut at MAX_REPLY_TOKENS; the visitor is told")
        return True
    return False
