"""What a small model leaves in a reply that is no one's words: markup alone on a line (``###``, a lone
code fence), chat-template tokens that are not a turn's end (``<s>``, ``[INST]``), and a sentence said
three times or more (270M models repeat one sentence until the token limit). The turn's end and the
model's thinking are :mod:`replica.chat.markup`'s; this is what remains after them."""

from __future__ import annotations

import re

# A line of nothing but markup: heading marks, a rule, list or emphasis marks, a quote mark. A code fence
# is debris only when nothing closes it (FENCE).
MARKUP_LINE = re.compile(r"^[ \t]*(?:#{1,6}|[-*_=]{3,}|[*_>•-]{1,3})[ \t]*$", re.M)
FENCE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[\w+-]*[ \t]*$", re.M)
TEMPLATE_TOKENS = re.compile(
    r"<s>|<bos>|<eos>|<pad>|<unk>|<\|begin_of_text\|>|<\|end_of_text\|>|<\|eot\|>|\[/?INST\]|<<SYS>>|<</SYS>>|<\|[a-z_]+\|>",
    re.I,
)
SENTENCE = re.compile(r"[^.!?\n]+[.!?]+|[^.!?\n]+$", re.M)
REPEATS = 3  # a sentence said this many times is debris beyond its first saying


def without_debris(text: str) -> str:
    """``text`` without template tokens, markup-only lines, a fence nothing closes, and repeats of a
    sentence said three times or more (its first saying is kept); blank lines left over are closed up."""
    text = TEMPLATE_TOKENS.sub("", text)
    text = MARKUP_LINE.sub("", text)
    fences = list(FENCE.finditer(text))
    if len(fences) % 2:
        text = text[: fences[-1].start()] + text[fences[-1].end() :]
    text = _without_repeats(text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def key(sentence: str) -> str:
    """A sentence for comparisons: lower case, words only."""
    return " ".join(re.sub(r"[^\w]+", " ", sentence.lower()).split())


def _without_repeats(text: str) -> str:
    sentences = [m for m in SENTENCE.finditer(text) if key(m.group())]
    counts: dict[str, int] = {}
    for match in sentences:
        counts[key(match.group())] = counts.get(key(match.group()), 0) + 1
    repeated = {said for said, count in counts.items() if count >= REPEATS}
    if not repeated:
        return text
    seen: set[str] = set()
    kept, last = [], 0
    for match in sentences:
        said = key(match.group())
        if said in repeated:
            if said in seen:
                kept.append(text[last : match.start()])
                last = match.end()
                continue
            seen.add(said)
    kept.append(text[last:])
    return re.sub(r"[ \t]{2,}", " ", "".join(kept))
