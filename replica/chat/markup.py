"""What a model writes that is not for the visitor: its thinking, another turn, a chat template's tokens.

Models served without a reasoning parser (Qwen3, DeepSeek-R1, QwQ on llama.cpp, Ollama or vLLM) write
their thinking into the reply: ``<think>…</think>`` or ``<thinking>…</thinking>``, in any case, and
templates that open the block in the prompt leave only its closing tag, after the thinking. gpt-oss
writes the harmony format, whose answer is its ``final`` channel. Small models go on past their turn,
writing the chat template's own tokens (``<|im_end|>``, ``<|im_start|>user``, ``<end_of_turn>``) and a
dialogue of their own, or repeat the app's own note to them. :func:`without_markup` keeps what is the
reply: a token still arriving is held back, and a closing tag that closes nothing ends thinking that
began before it, wherever it stands. Until a server's first reply has shown whether its template opens
a thinking block, that reply is held to its end (but for words before an opening tag): nothing shows
that might turn out to be thinking. Later replies stream after their
block, and once one shows a second block the rest of it is held to its end. OpenAI's own API writes no
such blocks, and is known from the start.
"""

from __future__ import annotations

import re
import unicodedata

from replica.knowledge.prompts import render_prompt


def note_words(note: str) -> str:
    """The opening words of the app's own ``note`` to the model (up to its first ``]``, ``.``, ``:`` or
    comma), lower case, single-spaced: a model that repeats them is writing the app's turn."""
    return " ".join(re.split(r"[].:,]", note.strip().lstrip("["), maxsplit=1)[0].lower().split())


TAG = re.compile(r"<(/?)(think|thinking)>\s*", re.I)  # either tag of a thinking block, in any case
OPENING = re.compile(r"<(think|thinking)>", re.I)
ANY_TAG = re.compile(r"<[^<>\n]{0,40}>")  # an HTML tag or a template token, which a repeat may drop
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
APP_NOTE_WORDS = note_words(render_prompt("tool_results.md", results=""))
APP_NOTE = re.compile(r"\[?\s*" + r"\s+".join(map(re.escape, APP_NOTE_WORDS.split())), re.I)  # any case, spacing
HELD = ("<think>", "<thinking>", "</think>", "</thinking>", HARMONY, *TURN_ENDS)


def without_markup(text: str, opened: bool | None = False, final: bool = False) -> str:
    """``text`` as the visitor may read it. ``opened``: the template opened a thinking block in the
    prompt, so the reply starts inside one (its closing tag may not have arrived yet); ``None``: not
    known yet, so the reply is held as if it might (until a closing tag, or its end, tells). ``final``:
    the reply is finished, so nothing is held back for a token that might still be arriving."""
    if HARMONY in text:
        text = _harmony_final(text)
    text = LEADING_TURN.sub("", text)
    if note := APP_NOTE.search(text):
        text = text[: note.start()]  # the app's own note to the model, repeated: another's turn
    first_tag = TAG.search(text)
    inside = (opened is True or (opened is None and not OPENING.search(text))) and not (
        first_tag and not first_tag.group(1)  # the reply opens its own block: it did not begin inside one
    )
    if final and inside and not any(tag.group(1) for tag in TAG.finditer(text)):
        inside = False  # finished and nothing closed: this reply did not begin as thinking after all
    text = _outside_thinking(text, inside, final, hold=opened is None)
    cut = min((text.find(token) for token in TURN_ENDS if token in text), default=-1)
    if cut >= 0:
        return text[:cut].rstrip()  # the model's turn ended there: what follows is another's
    return text if final else _held_back(text)


def readings(text: str) -> set[str]:
    """Every way ``text`` may read once a model repeats it and the app reads the repeat: as written, and
    with compatibility forms folded (full-width letters, ligatures) and invisible characters dropped
    (zero-width spaces and joiners, soft hyphens); each of these with its thinking blocks dropped, with
    the tags alone dropped, with any tag or template token dropped, and as :func:`without_markup` reads
    it finished, begun inside a block or not."""
    found = set()
    for base in (text, folded(text)):
        found |= {
            base,
            _outside_thinking(base, False, True),
            TAG.sub("", base),
            ANY_TAG.sub("", base),
            without_markup(base, False, True),
            without_markup(base, True, True),
        }
    return found


def folded(text: str) -> str:
    """``text`` with Unicode compatibility forms folded (NFKC) and format characters (category Cf) dropped."""
    return "".join(c for c in unicodedata.normalize("NFKC", text) if unicodedata.category(c) != "Cf")


def has_stray_closing(text: str) -> bool:
    """Whether ``text`` closes a thinking block it never opened: its template opens one in the prompt
    (and, once a finished reply shows it, the next replies start inside one too)."""
    depth = 0
    for tag in TAG.finditer(text):
        if tag.group(1) and not depth:
            return True
        depth += -1 if tag.group(1) else 1
    return False


def _outside_thinking(text: str, inside: bool, final: bool, hold: bool = True) -> str:
    """The words of ``text`` outside every thinking block. Blocks are followed tag by tag, whatever their
    spelling or case; a closing tag that closes nothing ends a block its template opened, so all before
    it, wherever it stands, was thinking. An unclosed block is thinking to the end. While the reply
    grows (not ``final``), a later closing tag may yet make thinking of what follows a closed block, so
    with ``hold`` nothing after a closing tag shows until the end; without it, nothing after a second
    block's first tag does."""
    depth, kept, start, closed = int(inside), [], 0, False
    for tag in TAG.finditer(text):
        if not depth:
            kept.append(text[start : tag.start()])
        if closed and not final:  # held from here to the end of the reply
            return "" if tag.group(1) and not depth else "".join(kept)
        if tag.group(1):
            closed = True
            if depth:
                depth -= 1
            else:
                kept = []  # a stray closing tag: everything before it was thinking
            if hold and not final:
                return "".join(kept)
        else:
            depth += 1
        start = tag.end()
    if not depth:
        kept.append(text[start:])
    return "".join(kept)


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
    start = len(text) - len(APP_NOTE_WORDS) - 8  # the note's first words may be arriving, in any spacing
    for i in range(max(start, 0), len(text)):
        if text[i] in "[Tt" and (i == 0 or not text[i - 1].isalnum()):
            arriving = " ".join(text[i:].lstrip("[").lower().split()) + (" " if text[-1].isspace() else "")
            if APP_NOTE_WORDS.startswith(arriving.lstrip()):
                return text[:i]
    return text
