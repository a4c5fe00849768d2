"""Where the model's own words end: before a next turn it writes itself, and before a call it began.

Small models go on past their turn in plain labels ("User: …", "**Assistant:** …", "Visitor:", "Human:",
"Q:"/"A:", the owner's name), inventing the visitor's next message and their own answer to it; the
reply is cut where the first such line begins (template tokens are :mod:`replica.chat.markup`'s). And a
reply that stops inside something it opened, a backtick, a tag, a brace, a code fence, a ReAct label
("Action:"), ends in a fragment ("I will call the `"): the words go back to the last whole sentence.
A label inside a code block is code, not a turn.
"""

from __future__ import annotations

import re

SPEAKERS = ("user", "assistant", "visitor", "human", "ai", "bot", "model", "system", "q", "a")
# An opening that, left unclosed at the end of a reply, began a call or markup rather than words.
OPENERS = re.compile(r"```|`|<(?=[^\s\d=])|<$|\{|\[(?=[A-Z_]{4,}\]|\{|\"|$)")
TAG = re.compile(r"<([A-Za-z_][\w-]*)[^<>]*>")  # an opening tag, closed by its closing tag
TOKEN = re.compile(r"\[[A-Z_]{4,}\]")  # [TOOL_CALLS], [INST]
CLOSERS = {"```": "```", "`": "`", "<": ">", "{": "}", "[": "]"}
REACT_LABEL = re.compile(
    r"(?:^|(?<=[.!?:]\s)|(?<=\n))[ \t]*(?:action(?: input)?|observation|thought|function|tool(?: call)?)\s*:",
    re.I | re.M,
)
SENTENCE_END = re.compile(r"[.!?…]+[\"'”’)\]*_]*(?=\s)|\n")
FENCE = re.compile(r"^[ \t]*```.*$", re.M)


class TurnLabels:
    """The labels that open a turn in plain text: the speakers', and the owner's ``names``. A reply may
    open with its own (the assistant's, the owner's): that one is dropped, not cut at."""

    def __init__(self, names: tuple[str, ...] = ()):
        own = {n.lower() for n in names if n}
        self.words = sorted({*SPEAKERS, *own}, key=len, reverse=True)
        self.own = {"assistant", "ai", "bot", "model", "a", *own}
        spoken = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in self.words)
        self.pattern = re.compile(rf"^[ \t]*(?:\*\*|__)?({spoken})(?:\*\*|__)?[ \t]*:(?:\*\*|__)?", re.I | re.M)

    def before_next_turn(self, text: str, final: bool = True) -> tuple[str, bool]:
        """``text`` up to the first line that opens another turn (outside code blocks), and whether it
        was cut there. Not ``final``: a last line that may yet become a label ("Us") is held back."""
        code = _code_spans(text)
        for match in self.pattern.finditer(text):
            if match.start() == 0 and match.group(1).lower() in self.own:
                continue  # the reply opens with its own label: without_own_label drops it
            if not any(start <= match.start() < end for start, end in code):
                return text[: match.start()].rstrip(), True
        if not final:
            line_start = text.rfind("\n") + 1
            last = " ".join(text[line_start:].strip(" \t*_").lower().split())
            if last and ":" not in last and any(w.startswith(last) for w in self.words):
                return text[:line_start].rstrip(), False
        return text, False

    def without_own_label(self, text: str) -> str:
        """``text`` without its own speaker's label at its start ("Assistant: Hello" → "Hello")."""
        match = self.pattern.match(text)
        return text[match.end() :].lstrip() if match and match.group(1).lower() in self.own else text


def whole_sentences(text: str) -> tuple[str, bool]:
    """``text`` without a fragment at its end where a call or markup began and was not finished, back to
    the last whole sentence; and whether anything was dropped."""
    start = _first_unclosed(text)
    if start is None:
        return text, False
    ends = [m.end() for m in SENTENCE_END.finditer(text, 0, start)]
    return (text[: ends[-1]].rstrip() if ends else ""), True


def _first_unclosed(text: str) -> int | None:
    """Where the first opening that nothing closes begins (code blocks and tags that close are left alone)."""
    found: list[int] = []
    label = REACT_LABEL.search(text)
    if label:
        found.append(label.start())
    position = 0
    while opener := OPENERS.search(text, position):
        close = _close(text, opener)
        if close is None:
            found.append(opener.start())
            break
        position = close
    return min(found, default=None)


def _close(text: str, opener: re.Match) -> int | None:
    """Where what ``opener`` opened is closed, or ``None``: a template token (``<|…|>``, ``[TOOL_CALLS]``)
    never is; a tag (``<tool_call>``) by its closing tag; anything else by its closing mark."""
    token, start = opener.group(), opener.start()
    if text.startswith("<|", start) or TOKEN.match(text, start):
        return None
    tag = TAG.match(text, start)
    if tag:
        closing = text.find(f"</{tag.group(1)}", tag.end())
        return None if closing < 0 else closing + 2 + len(tag.group(1))
    mark = CLOSERS["```" if token == "```" else token[:1] or "<"]
    close = text.find(mark, opener.end())
    return None if close < 0 else close + len(mark)


def _code_spans(text: str) -> list[tuple[int, int]]:
    fences = [m.start() for m in FENCE.finditer(text)]
    return [(fences[i], fences[i + 1]) for i in range(0, len(fences) - 1, 2)]
