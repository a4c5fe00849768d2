"""The specifics in a reply, and whether what the replica may speak from holds each of them.

A *specific* is what a visitor would act on or repeat: an email address, a URL or domain, a phone
number, a street address, an amount of money, a year or date, a percentage, any other number of two
digits or more, and a proper name that is not the first word of a sentence. A model that invents one
(a phone number, an employer, a price) says it as confidently as a true one, so each is looked up in
the :class:`Sources`: the owner's knowledge, the persona, the app's records, and this conversation's
visitor and owner words. Lookups are normalised (case, spacing, punctuation; a phone number by its
digits), never fuzzy: a specific is there, or it is not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Iterable


class Kind(Enum):
    """What sort of specific; the log names these, never the text."""

    EMAIL = "email address"
    URL = "URL"
    PHONE = "phone number"
    ADDRESS = "street address"
    MONEY = "amount of money"
    DATE = "date"
    PERCENT = "percentage"
    NUMBER = "number"
    NAME = "name"


@dataclass(frozen=True)
class Specific:
    """One specific: its kind, its text as written, and where it starts in the sentence."""

    kind: Kind
    text: str
    start: int


TLDS = (
    "com|org|net|io|dev|ai|co|app|me|info|biz|edu|gov|uk|de|fr|pt|es|it|nl|eu|us|ca|au|ch|se|no|dk|fi|ie|be|at|pl|in|jp"
)
MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
# Order matters: a span found by an earlier pattern is not found again by a later one.
PATTERNS: list[tuple[Kind, re.Pattern]] = [
    (Kind.EMAIL, re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")),
    (
        Kind.URL,
        re.compile(rf"(?:https?://|www\.)[^\s<>()\[\]]+|\b[\w-]+(?:\.[\w-]+)*\.(?:{TLDS})\b(?:/[^\s<>()\[\]]*)?", re.I),
    ),
    (Kind.PHONE, re.compile(r"(?<![\w.])\+?\(?\d[\d\s().-]{5,}\d(?![\w.]*\d)")),
    (
        Kind.ADDRESS,
        re.compile(
            r"\b\d{1,5}\s+(?:[A-Z][\w'-]*\s+){1,3}"
            r"(?:St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Lane|Ln|Dr|Drive|Way|Court|Ct|Place|Pl|Square|Sq|Rua|Straße|Strasse)\b\.?"
        ),
    ),
    (
        Kind.MONEY,
        re.compile(
            r"[$€£¥]\s?\d[\d,.]*\s?(?:[kKmM]\b|million|billion)?|\b\d[\d,.]*\s?(?:USD|EUR|GBP|CHF|dollars?|euros?|pounds?)\b"
        ),
    ),
    (Kind.PERCENT, re.compile(r"\b\d+(?:[.,]\d+)?\s?(?:%|percent\b|per cent\b)")),
    (
        Kind.DATE,
        re.compile(
            rf"\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b\d{{1,2}}/\d{{1,2}}/\d{{2,4}}\b|\b(?:{MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?\b"
            rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{MONTHS})\b|\b(?:1[89]|20)\d{{2}}s?\b",
            re.I,
        ),
    ),
    (Kind.NUMBER, re.compile(r"\b\d[\d,.]*\d\b")),
]
# A proper name: a run of capitalised words. Its first word is exempt at the start of a sentence (any
# sentence starts with a capital) and so is the pronoun "I" in its forms.
NAME = re.compile(r"\b[A-Z][\w'’-]*(?:[ \t]+(?:of|de|da|van|von|der|the|and|&)?[ \t]*[A-Z][\w'’-]*)*")
PRONOUN = re.compile(r"I(?:['’](?:m|ve|d|ll))?$")
# Capitals that name nothing a visitor could act on: common abbreviations, and the words of a title.
COMMON = frozenset(
    "AI API APIs FAQ FAQs OK PDF CV URL UTC GMT AM PM ASAP FYI TV IT HR CEO CTO Q A Mr Mrs Ms Dr".split()
)
SENTENCE_START = re.compile(r"^[\s\"'“‘(\[*_#>•-]*(?:\d+[.)]\s+)?")


def specifics(sentence: str) -> list[Specific]:
    """Every specific in ``sentence``, in order."""
    found: list[Specific] = []
    taken: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= a or start >= b for a, b in taken)

    for kind, pattern in PATTERNS:
        for match in pattern.finditer(sentence):
            text = match.group().rstrip(".,;:")
            if kind is Kind.PHONE and len(re.sub(r"\D", "", text)) < 7:
                continue
            if free(match.start(), match.start() + len(text)):
                found.append(Specific(kind, text, match.start()))
                taken.append((match.start(), match.start() + len(text)))
    opening = SENTENCE_START.match(sentence)
    start = opening.end() if opening else 0  # it always matches: all of it is optional
    for match in NAME.finditer(sentence):
        words = match.group().split()
        if match.start() == start:
            words = words[1:]  # the sentence's own capital
        words = [re.sub(r"['’]s?$", "", w) for w in words]  # a possessive is its name
        words = [w for w in words if w and not PRONOUN.match(w) and w[0].isupper() and w not in COMMON]
        if words and free(match.start(), match.end()):
            found.append(Specific(Kind.NAME, " ".join(words), match.start()))
    return sorted(found, key=lambda s: s.start)


def normalised(text: str) -> str:
    """``text`` for lookups: lower case, every run of punctuation and spacing one space."""
    return " " + " ".join(re.sub(r"[^\w@+]+", " ", text.lower()).split()) + " "


def digits(text: str) -> str:
    return re.sub(r"\D", "", text)


class Sources:
    """What the replica may speak from, ready for lookups; ``Sources(*texts)``, and ``a + b`` for both."""

    def __init__(self, *texts: str):
        joined = "\n".join(texts)
        self._parts = [normalised(joined)]
        self._words = set(self._parts[0].split())
        self._phones = {digits(m.group()) for m in PATTERNS[2][1].finditer(joined)}

    def __add__(self, other: "Sources") -> "Sources":
        both = Sources()
        both._parts = self._parts + other._parts
        both._words = self._words | other._words
        both._phones = self._phones | other._phones
        return both

    def holds(self, specific: Specific) -> bool:
        """Whether the sources hold ``specific`` (a phone number by its digits, a number by its value)."""
        if specific.kind is Kind.PHONE:
            wanted = digits(specific.text)
            return any(p.endswith(wanted[-9:]) or wanted.endswith(p[-9:]) for p in self._phones if len(p) >= 7)
        if specific.kind is Kind.NAME:
            return all(word in self._words for word in normalised(specific.text).split())
        if specific.kind is Kind.URL:
            bare = re.sub(r"^(?:https?://)?(?:www\.)?", "", specific.text.lower()).rstrip("/")
            return self._has(normalised(bare))
        if specific.kind in (Kind.NUMBER, Kind.MONEY, Kind.PERCENT):
            return all(self._has_number(n) for n in re.findall(r"\d[\d,.]*\d|\d", specific.text))
        return self._has(normalised(specific.text))

    def holds_phrase(self, phrase: str) -> bool:
        """Whether the sources hold ``phrase`` as written (case, spacing and punctuation aside)."""
        return bool(phrase.strip()) and self._has(normalised(phrase))

    def _has(self, phrase: str) -> bool:
        return any(phrase in part for part in self._parts)

    def _has_number(self, number: str) -> bool:
        plain = number.replace(",", "")
        return self._has(normalised(number)) or self._has(f" {plain} ")

    def missing(self, found: Iterable[Specific]) -> list[Specific]:
        """Those of ``found`` the sources do not hold."""
        return [s for s in found if not self.holds(s)]
