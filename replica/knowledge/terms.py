"""How people type, undone: the terms a question is matched by.

A message is lower-cased; apostrophes may be missing ("whats", "dont"); chat shorthand is spelled out
("r u" → "are you", "tz" → "time zone"); common words are dropped; each word is cut to its stem (Snowball's
English stemmer, so "relocate", "relocation" and "relocating" are one term, and plurals too); a word the
approved questions do not have, but one of theirs is one typing slip away from ("timezome", "availible"),
is read as that word. Negations are counted apart ("dont" counts like "don't"), so a question that turns
an approved one around never meets it; and a visitor who corrects themselves ("Do you sign NDAs? no, I
mean do you avoid them") is read from their correction on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

import Stemmer
from bm25s.stopwords import STOPWORDS_PORTUGUESE, STOPWORDS_SPANISH

from replica.knowledge.prompts import pattern_sections

WORD = re.compile(r"[^\W_]+", re.U)
VISITOR_WORDS_FILE = "visitor_words.md"
APOSTROPHE = re.compile(r"(?<=\w)['’](?=\w)")
COMMON = (
    set(
        """a an the and or but if of to in on at by for with from about into over as is are was were be been being
    am do does did done have has had having i me my mine you your yours we our us he she it its they them their
    this that these those there here what which who whom whose when where why how can could would will shall
    should may might must not no yes so than then too very just also any some all more most other such own same
    tell know please hi hello hey dear thanks thank ok okay s t d ll m re ve still usually ever currently
    before after during while until since now later soon first again up out off via per like
    open willing happy able keen interested consider wonder wondering doing kind kinds sort sorts type types
    best way""".split()
    )
    | set(STOPWORDS_SPANISH)
    | set(STOPWORDS_PORTUGUESE)
)  # the example's owner speaks both; visitors write them
# Spelled out before anything else (after apostrophes are dropped, so "what's" and "whats" are one).
SHORTHAND = {
    "r": "are",
    "u": "you",
    "ur": "your",
    "ya": "you",
    "yu": "you",
    "w": "with",
    "thx": "thanks",
    "pls": "please",
    "plz": "please",
    "tz": "time zone",
    "timezone": "time zone",
    "timezones": "time zones",
    "im": "i am",
    "whats": "what is",
    "wats": "what is",
    "wat": "what",
    "hows": "how is",
    "youre": "you are",
    "ive": "i have",
    "dont": "do not",
    "doesnt": "does not",
    "didnt": "did not",
    "wont": "will not",
    "wouldnt": "would not",
    "cant": "can not",
    "cannot": "can not",
    "couldnt": "could not",
    "shouldnt": "should not",
    "isnt": "is not",
    "arent": "are not",
    "wasnt": "was not",
    "havent": "have not",
    "hasnt": "has not",
    "b4": "before",
    "avail": "available",
    "proj": "project",
    "projs": "projects",
    "gonna": "going to",
    "wanna": "want to",
    # "now" in all its forms is one term: "What are you working on right now?" is "…at the moment?"
    "atm": "moment",
    "now": "moment",
    "currently": "moment",
    "presently": "moment",
    "nowadays": "moment",
    "lately": "moment",
}
# Runs of words that are one term ("start-ups" and "e-mail" are split by the word pattern).
PHRASES = {
    ("start", "up"): "startup",
    ("start", "ups"): "startups",
    ("e", "mail"): "email",
    ("non", "disclosure", "agreement"): "nda",
    ("non", "disclosure", "agreements"): "nda",
    ("get", "in", "touch"): "contact",
    ("reach", "you"): "contact you",
    ("right", "moment"): "moment",
    ("these", "days"): "moment",
    ("at", "present"): "moment",
    ("full", "time"): "fulltime",
    ("part", "time"): "parttime",
}
LONGEST_PHRASE = max(len(phrase) for phrase in PHRASES)
# Words that turn a question around: an answer to "Do you sign NDAs?" does not answer "Do you refuse to…".
NEGATIONS = {
    "not",
    "no",
    "never",
    "none",
    "nor",
    "neither",
    "against",
    "without",
    "except",
    "unwilling",
    "unable",
    "unavailable",
    "uninterested",
}
# Stems of words that turn one around too: "Do you avoid…", "refrain from…", "hesitate to…", "mind signing…".
NEGATING_STEMS = (
    "refus",
    "declin",
    "reject",
    "avoid",
    "stop",
    "refrain",
    "hesit",
    "reluct",
    "avers",
    "shun",
    "dodg",
    "evad",
    "eschew",
    "boycott",
    "sidestep",
    "object",
    "dislik",
    "hate",
    "mind",
)
# Where a visitor takes back what they asked and asks again: "I mean" and the like anywhere; "actually",
# "wait", "no," and the like where a clause begins ("no wait", "oh actually" too). What they meant is
# what follows the last one.
CORRECTION = re.compile(
    r"\b(?:i\s+mean|i\s+meant|or\s+rather|scratch\s+that|strike\s+that|let\s+me\s+rephrase|never\s*mind)\b"
    r"|(?:^|[.!?;,:\n—–-])\s*(?:(?:no|oh|um|uh|er|hmm)[\s,]+)?"
    r"(?:(?:actually|rather|wait|oops|correction|nvm)\b|(?:no|sorry)\s*[,.:;!—–-])",
    re.I,
)
MIN_TYPO_LENGTH = 4  # shorter words are too easily another word one slip away

_stemmer = Stemmer.Stemmer("english")


@lru_cache(maxsize=4096)
def stem(word: str) -> str:
    """The word's Snowball stem ("relocation" → "reloc"), and a plural ``s`` Snowball keeps after a vowel
    cut too ("NDAs" → "nda", as it is for "projects")."""
    stemmed = _stemmer.stemWord(word)
    if len(stemmed) > 3 and stemmed.endswith("s") and not stemmed.endswith(("ss", "us", "is")):
        stemmed = stemmed[:-1]
    return stemmed


def words(text: str) -> list[str]:
    """The message's words as typed, lower-cased, shorthand spelled out, phrases made one word, and the
    words visitors use for a thing read as the one the matcher reads (``prompts/visitor_words.md``)."""
    return list(_words(text))


@lru_cache(maxsize=4096)  # a message is read against several candidates, clause by clause
def _words(text: str) -> tuple[str, ...]:
    spelled: list[str] = []
    for word in WORD.findall(APOSTROPHE.sub("", text.lower())):
        spelled += SHORTHAND.get(word, word).split()
    same = visitor_words().same
    joined = _joined(spelled, PHRASES, LONGEST_PHRASE, shortest=2)
    return tuple(_joined(joined, same, max(map(len, same), default=1), shortest=1))


def _joined(spelled: list[str], phrases: dict[tuple[str, ...], str], longest: int, shortest: int) -> list[str]:
    """``spelled`` with each run of ``shortest`` to ``longest`` words that ``phrases`` names replaced by
    what it stands for."""
    joined: list[str] = []
    at = 0
    while at < len(spelled):
        for size in range(longest, shortest - 1, -1):
            one = phrases.get(tuple(spelled[at : at + size]))
            if one:
                joined += one.split()
                at += size
                break
        else:
            joined.append(spelled[at])
            at += 1
    return joined


@dataclass(frozen=True)
class VisitorWords:
    """What ``prompts/visitor_words.md`` says: the words visitors use for a thing (``same``: each as a
    tuple of words, to the word the matcher reads), the phrases that turn a question around, and the
    everyday words that never carry what a question asks."""

    same: dict[tuple[str, ...], str]
    turning: tuple[tuple[str, ...], ...]
    everyday: frozenset[str]
    others: frozenset[str]  # who a question may be about besides the owner: "your colleague", "your clients"


@lru_cache(maxsize=1)
def visitor_words() -> VisitorWords:
    """The file, read once (a line that does not parse stops the start, naming it)."""
    headings = ["same as", "turns it around", "everyday", "someone else"]
    found = pattern_sections(VISITOR_WORDS_FILE, headings, lines=tuple(headings))
    same: dict[tuple[str, ...], str] = {}
    for line in found["same as"]:
        word, _, used = line.partition(":")
        for phrase in used.split(","):
            spelled = tuple(WORD.findall(APOSTROPHE.sub("", phrase.lower())))
            if spelled:
                same[spelled] = word.strip().lower()
    turning = tuple(
        tuple(WORD.findall(phrase.lower()))
        for line in found["turns it around"]
        for phrase in line.split(",")
        if phrase.strip()
    )
    everyday = frozenset(w for line in found["everyday"] for w in WORD.findall(line.lower()))
    others = frozenset(w for line in found["someone else"] for w in WORD.findall(line.lower()))
    return VisitorWords(same, turning, everyday, others)


def about_someone_else(text: str) -> bool:
    """Whether ``text`` asks about someone besides the owner ("What time zone is your colleague in?",
    "Which time zone are most of your clients in?")."""
    found = words(text)
    return any(a in ("your", "ur") and b in visitor_words().others for a, b in zip(found, found[1:]))


def common(word: str) -> bool:
    """Whether ``word`` is a common or everyday word, which carries nothing of what a question asks."""
    return word in COMMON or word in visitor_words().everyday


def forget() -> None:
    """Empty the caches of words read (the bench times each message as a new visitor's)."""
    _words.cache_clear()
    negations.cache_clear()


@lru_cache(maxsize=4096)
def negations(text: str) -> int:
    """How many words of ``text`` turn a question around ("not", "never", "refuse", "dont", …), and
    phrases ("too busy", "booked up": ``prompts/visitor_words.md``)."""
    found = words(text)
    turning = sum(
        found[at : at + len(phrase)] == list(phrase) for phrase in visitor_words().turning for at in range(len(found))
    )
    return turning + sum(word in NEGATIONS or stem(word).startswith(NEGATING_STEMS) for word in found)


def corrected(text: str) -> str:
    """What the visitor meant to ask: ``text`` from its last correction on ("Do you sign NDAs? no, I mean
    do you avoid them" → " do you avoid them"); the whole of it when there is none, or when nothing
    that asks or turns around follows the correction ("Do you sign NDAs? I mean it.")."""
    found = list(CORRECTION.finditer(text))
    if not found:
        return text
    rest = text[found[-1].end() :]
    return rest if terms(rest) or negations(rest) else text


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def one_slip(a: str, b: str) -> bool:
    """True when ``b`` is ``a`` with one letter added, dropped, changed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return a == b
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return short in _deletions(long)


@dataclass
class Vocabulary:
    """The words of the approved questions, for reading a typing slip as the word meant."""

    stems: set[str] = field(default_factory=set)
    _by_deletion: dict[str, set[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, questions: list[str]) -> "Vocabulary":
        """The vocabulary of these questions' meaningful words."""
        vocabulary = cls()
        for question in questions:
            for word in words(question):
                if not common(word):
                    vocabulary.add(word)
        return vocabulary

    def add(self, word: str) -> None:
        self.stems.add(stem(word))
        if len(word) >= MIN_TYPO_LENGTH:
            for key in _deletions(word) | {word}:
                self._by_deletion.setdefault(key, set()).add(word)

    def meant(self, word: str) -> str:
        """``word`` as the approved questions spell it, when it is one slip from one of theirs (the
        first in alphabetical order when several are); else ``word``."""
        if len(word) < MIN_TYPO_LENGTH or stem(word) in self.stems:
            return word
        near = set()
        for key in _deletions(word) | {word}:
            near |= self._by_deletion.get(key, set())
        slips = sorted(candidate for candidate in near if one_slip(word, candidate))
        return slips[0] if slips else word


def terms(text: str, vocabulary: Vocabulary | None = None) -> set[str]:
    """The stems that carry ``text``'s meaning: common words dropped, typing slips read as the
    ``vocabulary`` word meant, each cut to its stem."""
    found = set()
    for word in words(text):
        if common(word):
            continue
        found.add(stem(vocabulary.meant(word) if vocabulary else word))
    return found
