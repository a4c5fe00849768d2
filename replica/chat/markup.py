"""What a model writes that is not for the visitor: its thinking, another turn, a chat template's tokens.

Models served without a reasoning parser (Qwen3, DeepSeek-R1, QwQ on llama.cpp, Ollama or vLLM) write
their thinking into the reply: ``<think>…</think>`` or ``<thinking>…</thinking>``, in any case, and
templates that open the block in the prompt leave only its closing tag, after the thinking. gpt-oss
writes the harmony format, whose answer is its ``final`` channel. Small models go on past their turn,
writing the chat template's own tokens (``<|im_end|>``, ``<|im_start|>user``, ``<end_of_turn>``) and a
dialogue of their own. :func:`without_markup` keeps what is the reply: as the text grows, the result only
ever grows too (a token still arriving is held back). Until a server's first reply has shown whether its
template opens a thinking block, that reply is held until its closing tag or its end: nothing shows
that might turn out to be thinking. OpenAI's own API writes no such blocks, and is known from the start.
"""

from __future__ import annotations

import re

THINKING = re.compile(r"<(think|thinking)>.*?</\1>\s*", re.S | re.I)
OPENING = re.compile(r"<(think|thinking)>", re.I)
CLOSING = re.compile(r"</(think|thinking)>\s*", re.I)
HARMONY_FINAL = "<|channel|>final<|message|>"
HARMONY = "<|channel|>"
# Where the model's turn is over: the template's end and start tokens (a turn of someone else's follows).
TURN_ENDS = (
    "<|im_end|>",
    "<|im_start|>",
    "<|eot_id|>",
    "<|start_header_id|>",
    "<|end|>",
    "<|return|>",
    "<|start|>",
    "<|endoftext|>",
    "<end_of_turn>",
    "<start_of_turn>",
    "</s>",
    "<|user|>",
    "<|assistant|>",
)
LEADING_TURN = re.compile(r"^\s*(<\|im_start\|>\s*assistant\s*\n|<start_of_turn>\s*model\s*\n|<\|assistant\|>\s*\n?)")
HELD = ("<think>", "<thinking>", "</think>", "</thinking>", HARMONY, *TURN_ENDS)


def without_markup(text: str, opened: bool | None = False, final: bool = False) -> str:
    """``text`` as the visitor may read it. ``opened``: the template opened a thinking block in the
    prompt, so the reply starts inside one (its closing tag may not have arrived yet); ``None``: not
    known yet, so the reply is held as if it might (until a closing tag, or its end, tells). ``final``:
    the reply is finished, so nothing is held back for a token that might still be arriving."""
    if HARMONY in text:
        text = _harmony_final(text)
    text = LEADING_TURN.sub("", text)
    closing, opening = CLOSING.search(text), OPENING.search(text)
    maybe_thinking = opened is None and opening is None
    if _stray(closing, opening) or ((opened or maybe_thinking) and not final):
        if not closing:
            return ""  # still thinking
        text = text[closing.end() :]
    text = THINKING.sub("", text)
    opening = OPENING.search(text)
    if opening:
        text = text[: opening.start()]
    cut = min((text.find(token) for token in TURN_ENDS if token in text), default=-1)
    if cut >= 0:
        return text[:cut].rstrip()  # the model's turn ended there: what follows is another's
    return text if final else _held_back(text)


def has_stray_closing(text: str) -> bool:
    """Whether ``text`` closes a thinking block it never opened: its template opens one in the prompt
    (and, once a finished reply shows it, the next replies start inside one too)."""
    return _stray(CLOSING.search(text), OPENING.search(text))


def _stray(closing: re.Match | None, opening: re.Match | None) -> bool:
    return closing is not None and (opening is None or opening.start() > closing.start())


def _harmony_final(text: str) -> str:
    """The ``final`` channel's message of a harmony-format reply; nothing while only analysis has come."""
    if HARMONY_FINAL not in text:
        return ""
    return text.split(HARMONY_FINAL)[-1]


def _held_back(text: str) -> str:
    """``text`` less any ending that may be the start of a tag or token still arriving."""
    for marker in HELD:
        for size in range(len(marker) - 1, 0, -1):
            if text.endswith(marker[:size]):
                return text[:-size]
    return text
