"""Asking before answering, without a model: when a message comes close to an approved question but not
close enough to quote it, the replica asks whether the visitor meant that question
(``wording.DID_YOU_MEAN``, in their language).

The question asked is the replica's last reply, so the next message is read against it: a tap on the
question's chip (the question sent back whole) or a "yes" quotes its answer; a "no" passes the earlier
question on to the owner; anything else is a new message, answered as any, never with a second such
question in a row. Nothing is kept besides the conversation itself, so every instance reads it alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Any

from replica import wording
from replica.knowledge.faq_files import Approved
from replica.languages import folded

# How people say yes and no to "Did you mean…?", in the languages a visitor may write in (their first
# word or two; tests/chat/tables/confirming.py holds the table they were written from).
YES = frozenset(
    "yes y yeah yea yep yup ya sure correct exactly right indeed ok okay k affirmative absolutely "
    "si claro exacto exactamente eso vale correcto sim isso exato exatamente certo certinho "
    "oui exactement ja genau richtig jawohl stimmt".split()
)
YES_PHRASES = ("that's it", "thats it", "that one", "that's right", "thats right", "you got it", "👍")
NO = frozenset("no n nope nah non nao nein negative negativo tampoco".split())
NO_PHRASES = ("not really", "not quite", "not that", "not exactly", "no thanks", "wrong", "nicht")
MAX_WORDS = 8  # a longer message is a message of its own, whatever its first word
WORD = re.compile(r"[\w']+|👍")


class Said(Enum):
    """What a message says to "Did you mean…?"."""

    YES = "yes"
    NO = "no"
    OTHER = "other"  # a new message


@dataclass(frozen=True)
class Pending:
    """The question the replica asked about (its approved answer), in the visitor's ``language``, and the
    visitor's message it asked about (``asked``)."""

    approved: Approved
    language: str
    asked: str

    def passed_on(self, no: str) -> str:
        """The question passed on after the visitor's ``no``: the one asked about, with what the no added
        ("no, I meant rates"), if anything."""
        rest = no.strip()
        return self.asked if len(rest.split()) < 2 else f"{self.asked}\n({rest})"


def offer_text(question: str, language: str) -> str:
    """The replica's question, in the visitor's language."""
    return wording.in_language(wording.DID_YOU_MEAN, language).format(question=question)


def _patterns() -> dict[str, re.Pattern[str]]:
    templates = {"en": wording.DID_YOU_MEAN, **wording.TRANSLATIONS[wording.DID_YOU_MEAN]}
    return {
        language: re.compile(r"(?:^|\s)" + re.escape(template).replace(r"\{question\}", "(?P<question>.+?)") + r"\s*$")
        for language, template in templates.items()
    }


PATTERNS = _patterns()


def asked_question(reply: str) -> tuple[str, str] | None:
    """The question a reply of the replica's asked about, and the language it asked in; ``None`` when it
    asked none."""
    for language, pattern in PATTERNS.items():
        found = pattern.search(reply)
        if found:
            return found.group("question"), language
    return None


def pending(earlier: list[dict[str, Any]], approved: list[Approved]) -> Pending | None:
    """What the replica's last reply asked about, when it asked "Did you mean…?" of an approved question
    still on file; ``earlier`` is the conversation before this message."""
    if len(earlier) < 2 or earlier[-1]["role"] != "assistant" or earlier[-2]["role"] != "user":
        return None
    found = asked_question(earlier[-1]["content"])
    if found is None:
        return None
    question, language = found
    entry = next((entry for entry in approved if entry.question == question), None)
    return Pending(entry, language, earlier[-2]["content"]) if entry is not None else None


def said(message: str, question: str) -> Said:
    """Whether ``message`` says yes or no to "Did you mean ``question``?", or is a message of its own. The
    question itself, as its chip sends it, is a yes."""
    if _plain(message) == _plain(question):
        return Said.YES
    text = folded(message.strip().lower()).replace("’", "'")
    words = WORD.findall(text)
    if not words or len(words) > MAX_WORDS or "?" in message:
        return Said.OTHER
    if words[0] in YES or any(text.startswith(phrase) for phrase in YES_PHRASES):
        return Said.YES
    if words[0] in NO or any(text.startswith(phrase) for phrase in NO_PHRASES):
        return Said.NO
    return Said.OTHER


def _plain(text: str) -> str:
    return " ".join(WORD.findall(folded(text.lower())))
