"""A reasoning model's thinking, kept from the visitor.

Reasoning models served without a reasoning parser (Qwen3 or DeepSeek-R1 on llama.cpp, Ollama or vLLM)
write their thinking into the reply as ``<think>…</think>``. It is never shown: a closed block is left
out, an open one (still streaming) hides the rest, and a tag that is still arriving is held back.
"""

from __future__ import annotations

import re

OPEN, CLOSE = "<think>", "</think>"
CLOSED_BLOCK = re.compile(r"<think>.*?</think>\s*", re.S)


def without_thinking(text: str) -> str:
    """``text`` without its thinking: as it grows, the result only ever grows too."""
    text = CLOSED_BLOCK.sub("", text)
    if OPEN in text:
        return text[: text.index(OPEN)]
    for size in range(len(OPEN) - 1, 0, -1):  # "<thi" may be the start of a block still arriving
        if text.endswith(OPEN[:size]):
            return text[:-size]
    return text
