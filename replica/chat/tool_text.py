"""Tool calls a model wrote as text instead of making them natively, recognised, and never shown.

Models behind llama.cpp, Ollama, vLLM or cheap hosted APIs often answer a tool call as words:
``<tool_call>{…}</tool_call>`` (Hermes, Qwen), ``<tools>{…}</tools>``, ``[TOOL_CALLS][…]`` or
``[TOOL_CALLS]name[ARGS]{…}`` (Mistral), ``<|python_tag|>{…}`` or ``<function=name>{…}</function>``
(Llama 3), a JSON object alone or in a
Markdown code fence, ``functions.name: {…}``, or ``name(key="value")``. :class:`ToolTextFilter` holds
such text back while it streams (prose waits only while its last few characters could still begin a
marker), and :func:`read_tool_text` reads the finished text into tool calls for the tools offered.

The arguments are read leniently with ``json-repair``, since small models write ``{{…}}``, leave
objects open or put the arguments beside ``name``. Words after a recognised call are dropped: they were
written before the tool ran, so they cannot know how it went.

What is read is what a model writes to call a tool, not what a reply quotes: a fenced code block that
is not the whole reply is a sample, shown whole and never read (``gather_user_details(email=…)`` in a
Python block stays an example); JSON that names no tool is read as a tool's arguments only when it is
the whole reply and carries every argument that tool requires. :func:`holds_tool_syntax` tells whether
a visitor's message holds anything a model could repeat as a call, so that the loop runs no textual
call for it.
"""

from __future__ import annotations

import ast
import functools
import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

import json_repair

from replica.chat.markup import readings
from replica.chat.model import ToolCall

DEEPSEEK_CALLS = "<｜tool▁calls▁begin｜>"  # DeepSeek's own, with full-width bars
DEEPSEEK_CALL = re.compile(r"<｜tool▁sep｜>([\w.-]+)\s*```(?:json)?\s*(\{.*?\})\s*```", re.S)
# Literal markers (matched in any case), and the form each names in the log.
TAGS = {
    "<tool_call>": "<tool_call> tag",
    "<tools>": "<tools> tag",
    "<function_call>": "<function_call> tag",
    "[TOOL_CALLS]": "[TOOL_CALLS] marker",
    "<|python_tag|>": "<|python_tag|> marker",
    "<function=": "<function=name> tag",
    DEEPSEEK_CALLS: "DeepSeek tool-calls marker",
}
TAG_CASE = re.compile(r"</?(tool_call|tools|function_call|function=)", re.I)
FENCE = "```"
JSON_KEY = re.compile(r"\[?\{\s*\{?\s*\"")
FENCE_OPENING = re.compile(r"```[ \t]*(json|tool_call|tool_code|)[ \t]*\n?\s*[\[{]")
ARGUMENT_KEYS = ("arguments", "parameters", "args", "input")
NAME_KEYS = ("name", "tool", "tool_name", "function")
FULL, PARTIAL, NONE = "full", "partial", "none"


@dataclass
class ToolText:
    """A finished reply read for tool calls: the words to show, the calls found, and the form they
    were written in (``None`` for plain prose). ``unreadable`` when it looked like a tool call but
    named no offered tool in a shape that could be read."""

    prose: str
    calls: list[ToolCall] = field(default_factory=list)
    form: str | None = None
    unreadable: bool = False


class ToolTextFilter:
    """What of a growing reply may be shown: everything before the first place tool syntax starts,
    or may be starting. Feed it the whole text so far each time; it only looks at what is new. A code
    sample (a fenced block after some words) is passed through whole."""

    def __init__(self, tool_names: Iterable[str]):
        self.names = tuple(tool_names)
        self._checked = 0  # every position before this one starts no tool syntax
        self._in_sample = False  # inside a fenced code sample: nothing there is tool syntax
        self.start: int | None = None  # where tool syntax certainly starts

    def visible(self, text: str) -> str:
        """The part of ``text`` that can be shown now."""
        if self.start is not None:
            return text[: self.start]
        for i in range(self._checked, len(text)):
            if self._in_sample or (text[i] == "`" and text[:i].strip()):
                if text[i] == "`" and len(text) - i < 3 and FENCE.startswith(text[i:]):
                    return text[:i]  # a fence, perhaps: opening or closing the sample
                if text.startswith(FENCE, i) and _at_line_start(text, i):
                    self._in_sample = not self._in_sample
                    self._checked = i + 3
                elif i >= self._checked:
                    self._checked = i + 1
                continue
            if i < self._checked:
                continue
            kind = _starts_here(text, i, self.names)
            if kind == FULL:
                self.start = i
                return text[:i]
            if kind == PARTIAL:
                return text[:i]
            self._checked = i + 1
        return text


def read_tool_text(
    text: str,
    tool_names: Iterable[str],
    parameters: dict[str, set[str]],
    required: dict[str, set[str]] | None = None,
) -> ToolText:
    """Read a finished reply's text for tool calls to the tools named (``parameters``: each tool's
    argument names, and ``required`` those it cannot do without, to recognise a whole reply that is a
    bare argument object). Plain prose comes back unchanged."""
    names = tuple(tool_names)
    finder = ToolTextFilter(names)
    finder.visible(text)
    if finder.start is None:
        return ToolText(text)
    start = finder.start
    prose, region = text[:start].rstrip(), text[start:]
    end = _block_end(region) if region.startswith((FENCE, "{", "[")) else None
    whole = not prose and (end is None or not region[end:].strip())
    if region.startswith(FENCE) and not whole:  # a code sample that opens the reply: read what follows it
        rest = read_tool_text(region[end:], names, parameters, required)
        return ToolText(text[:start] + region[:end] + rest.prose, rest.calls, rest.form, rest.unreadable)
    form, payloads = _payloads(region, names)
    calls: list[ToolCall] = []
    tool_like = form not in ("JSON object", "code fence")
    fits = (parameters, required or {}) if whole else None  # bare arguments count only as the whole reply
    for payload in payloads:
        for name, arguments, looks in _calls_in(payload, names, fits):
            tool_like = tool_like or looks
            if name:
                calls.append(ToolCall(f"text_call_{len(calls)}", name, json.dumps(arguments, ensure_ascii=False)))
    if calls:
        return ToolText(prose, calls, form)
    if not tool_like:  # JSON or a fenced block that is no tool call: prose after all; read what follows it
        if end is None:
            return ToolText(text)
        rest = read_tool_text(region[end:], names, parameters, required)
        return ToolText(text[:start] + region[:end] + rest.prose, rest.calls, rest.form, rest.unreadable)
    return ToolText(prose, [], form, unreadable=True)


def _block_end(region: str) -> int | None:
    """Where a fenced block or a JSON value that opens ``region`` ends (``None`` when it cannot be told)."""
    if region.startswith(FENCE):
        closing = region.find(FENCE, region.find("\n") + 1)
        return closing + len(FENCE) if region.find("\n") > 0 and closing > 0 else None
    try:
        return json.JSONDecoder().raw_decode(region)[1]
    except ValueError:
        return None


def _starts_here(text: str, i: int, names: tuple[str, ...]) -> str:
    """Whether tool syntax starts at ``text[i]``: certainly, perhaps (more text will tell), or not."""
    char, left = text[i], len(text) - i
    literals, first_chars = _literals(names)
    if char.lower()[:1] in first_chars:  # most characters start no literal: no slicing for them
        for literal in literals:
            here = text[i : i + len(literal)].lower()
            if here == literal:
                return FULL
            if left < len(literal) and literal.startswith(here):
                return PARTIAL
    if char == "{" or text.startswith("[{", i):
        # A JSON object: at the start of a line it is never prose; inside a line, once a quoted key follows.
        if _at_line_start(text, i) or JSON_KEY.match(text, i):
            return FULL
        return PARTIAL if left < 6 and not text[i + 1 :].strip("[{ \n") else NONE
    if char == "[" and left == 1 and _at_line_start(text, i):
        return PARTIAL
    if char == "`":
        if FENCE_OPENING.match(text, i):
            return FULL
        if text.startswith(FENCE, i):
            first_line, _, second = text[i + 3 : i + 40].partition("\n")
            return NONE if second.strip() or len(first_line) > 12 else PARTIAL
        return PARTIAL if left < 3 and FENCE.startswith(text[i:]) else NONE
    return NONE


@functools.lru_cache(maxsize=8)
def _literals(names: tuple[str, ...]) -> tuple[tuple[str, ...], frozenset[str]]:
    """Every literal that starts tool syntax for the tools ``names``, lower-cased (they are matched in any
    case), and their first characters. Made once per set of tools, not once per character of a reply."""
    literals = tuple(literal.lower() for literal in (*TAGS, *names, *(f"functions.{n}" for n in names)))
    return literals, frozenset(literal[0] for literal in literals)


def _at_line_start(text: str, i: int) -> bool:
    line_start = text.rfind("\n", 0, i) + 1
    return not text[line_start:i].strip()


def _payloads(region: str, names: tuple[str, ...]) -> tuple[str, list[str]]:
    """The form the tool syntax in ``region`` is written in, and the text of each call in it."""
    region = TAG_CASE.sub(lambda tag: tag.group(0).lower(), region)  # <TOOL_CALL> is <tool_call>
    if region.startswith(DEEPSEEK_CALLS):
        calls = DEEPSEEK_CALL.findall(region)
        return TAGS[DEEPSEEK_CALLS], [json.dumps({"name": n, "arguments": _lenient(a)}) for n, a in calls]
    if region.startswith("<function="):  # Llama 3.1's own tools: <function=name>{…}</function>
        named = re.findall(r"<function=([\w.-]+)>(.*?)(?:</function>|$)", region, re.S)
        return TAGS["<function="], [json.dumps({"name": n, "arguments": _lenient(a)}) for n, a in named]
    for tag, form in TAGS.items():
        if region.startswith(tag):
            if tag.startswith("<") and not tag.startswith("<|"):
                closing = "</" + tag[1:]
                inner = [part.split(closing, 1)[0] for part in region.split(tag)[1:]]
                return form, [part for part in inner if part.strip()]
            body = region[len(tag) :]
            if tag == "[TOOL_CALLS]":
                # Newer Mistral writes name[ARGS]{…} for each call instead of one JSON list.
                named = re.findall(
                    r"([A-Za-z_][\w.-]*)\[ARGS\](\{.*?\})(?=\s*(?:[A-Za-z_][\w.-]*\[ARGS\]|$))", body, re.S
                )
                if named:
                    return form, [json.dumps({"name": n, "arguments": _lenient(a)}) for n, a in named]
            return form, [body]
    if region.startswith(FENCE):
        body = region.split("\n", 1)[1] if "\n" in region else region[3:]
        return "code fence", [body.split(FENCE, 1)[0]]
    for name in names:
        for prefix, form in ((f"functions.{name}", "functions.name line"), (name, "tool name in words")):
            if region.startswith(prefix):
                rest = region[len(prefix) :].lstrip(" :\t")
                if rest.startswith("("):
                    return "name(arguments) call", [json.dumps({"name": name, "arguments": _python_call(rest)})]
                arguments = _lenient(rest) if rest.lstrip().startswith("{") else None
                if not isinstance(arguments, dict) or not arguments:
                    return form, []  # a tool named with nothing to run it with
                return form, [json.dumps({"name": name, "arguments": arguments})]
    return "JSON object", [region]


def _calls_in(
    payload: str, names: tuple[str, ...], fits: tuple[dict[str, set[str]], dict[str, set[str]]] | None
) -> Iterable[tuple[str, dict, bool]]:
    """Each call in one payload: (tool name or "" when none offered fits, its arguments, whether the
    text looked like a tool call at all). An object that names no tool is taken for one tool's
    arguments only with ``fits`` (each tool's parameters and required ones)."""
    value = _lenient(payload)
    items = value if isinstance(value, list) else [value]
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("function"), dict):
            item = item["function"]  # the OpenAI shape, written out: {"type": "function", "function": {…}}
        if not isinstance(item, dict):
            continue
        name = next((item[k] for k in NAME_KEYS if isinstance(item.get(k), str) and item[k] in names), "")
        looks = bool(name) or any(k in item for k in (*ARGUMENT_KEYS, "function", "tool", "tool_name"))
        arguments = next((item[k] for k in ARGUMENT_KEYS if k in item), None)
        if isinstance(arguments, str):
            arguments = _lenient(arguments)
        if not isinstance(arguments, dict):
            # Arguments beside the name, or a bare argument object: whatever is not the name.
            arguments = {k: v for k, v in item.items() if not (k in NAME_KEYS and v == name)}
            arguments = {k: v for k, v in arguments.items() if k not in ("type", "id")}
        if not name and fits:
            name = _tool_for(arguments, *fits)
            looks = looks or bool(name)
        yield name, arguments if isinstance(arguments, dict) else {}, looks


def _tool_for(arguments: dict, parameters: dict[str, set[str]], required: dict[str, set[str]]) -> str:
    """The one offered tool whose parameters a bare argument object fits, required ones included, or ""."""
    fits = [
        name
        for name, params in parameters.items()
        if arguments and required.get(name, set()) <= set(arguments) <= params
    ]
    return fits[0] if len(fits) == 1 else ""


def holds_tool_syntax(text: str, tool_names: Iterable[str], parameters: dict[str, set[str]]) -> bool:
    """Whether a visitor's message holds anything that reads as a tool call, wherever it stands (in a
    code block, mid-sentence), in any of its :func:`~replica.chat.markup.readings`: a model that repeats
    the visitor would write it back as its own call, and the app would read the repeat as the reply is
    read (thinking blocks dropped, and so on). A tool's name counts in any case, and with anything but
    letters between its words ("gather user details" too: a message that only names a tool runs no
    call written as text, and loses nothing, since the lead net keeps its address)."""
    names = tuple(tool_names)
    return any(_holds_tool_syntax(reading, names, parameters) for reading in readings(text))


def _holds_tool_syntax(text: str, names: tuple[str, ...], parameters: dict[str, set[str]]) -> bool:
    lowered = text.lower()
    letters = re.sub(r"[^a-z]", "", lowered)
    if any(tag.lower() in lowered for tag in TAGS) or any(re.sub(r"[^a-z]", "", n.lower()) in letters for n in names):
        return True
    decoder = json.JSONDecoder()
    for opening in re.finditer(r"[\[{]", text):
        try:
            value = decoder.raw_decode(text, opening.start())[0]
        except ValueError:
            closing = text.find("}", opening.start())
            value = _lenient(text[opening.start() : closing + 1]) if closing > 0 else None
        if isinstance(value, (dict, list)):
            found = _calls_in(json.dumps(value), names, (parameters, {}))
            if any(name or looks for name, _, looks in found):
                return True
    return False


def _lenient(text: str) -> Any:
    """JSON as small models write it, mended where it can be; ``None`` when nothing can be read."""
    text = text.strip()
    while text.startswith("{{") and text.endswith("}}"):
        text = text[1:-1]
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        return json_repair.loads(text)
    except (
        ValueError,
        TypeError,
        IndexError,
        KeyError,
        RecursionError,
    ):  # json-repair is lenient; what it still cannot read is no call
        return None


def _python_call(text: str) -> dict[str, Any]:
    """``(key="value", …)`` as written after a tool's name, read without evaluating anything."""
    for closing in (m.start() for m in re.finditer(r"\)", text)):
        try:
            node = ast.parse("f" + text[: closing + 1], mode="eval").body
            if isinstance(node, ast.Call):
                return {kw.arg: ast.literal_eval(kw.value) for kw in node.keywords if kw.arg}
        except (SyntaxError, ValueError):
            continue
    return {}
