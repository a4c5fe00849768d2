"""Statements about the owner that the owner's notes do not hold.

A small model asked "Do you have experience with Rust in production?" answers "No, I do not have
experience with Rust in production." when the notes say nothing of Rust: an answer about the owner that
nothing backs, with no specific for :mod:`replica.chat.specifics` to catch (the visitor named Rust).
A sentence *about the owner* (a yes or no, the replica's first person, or the owner's name) is looked at
by the *topic* of the visitor's question that it takes up: the question's words less everyday ones
(``prompts/about_owner.md``, "not a topic", and common words) that the sentence repeats, or, for a
bare answer ("No.", "Yes, I do."), all of them. When most of those the owner's sources do not hold,
the sentence is an answer nothing backs. Words a reply brings in itself are not judged here: a name,
a number or an address it invents is :mod:`replica.chat.specifics`' to catch. The owner's sources are their
files, the persona with the approved and learned answers, and the owner's own words in the
conversation; never the visitor's, who cannot tell the replica what is true of the owner.

Words are compared by their Snowball stems ("relocate", "relocation"), a hyphenated word by its parts,
and a word one typing slip from a source word ("Portugl") counts as that word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from replica.knowledge.prompts import PROMPTS_DIR, pattern_sections
from replica.knowledge.terms import one_slip, stem
from replica.languages import COMMON as COMMON_IN
from replica.languages import detect, folded

ABOUT_OWNER_FILE = "about_owner.md"
WORD = re.compile(r"[^\W\d_](?:[\w+#]|['’-](?=\w))*", re.U)
NOT_WORDS = re.compile(r"\S+@\S+|https?://\S+|\b\w+\.(?:com|org|net|io|dev|example)\S*|`[^`]*`", re.I)
# What follows "your" is the visitor's ("your Kubernetes migration"), not something said of the owner.
YOURS = re.compile(r"\byour\s+(?:[\w'’-]+\s+){0,2}[\w'’-]+", re.I)
CONTRACTION = re.compile(r"(?:'s|'ve|'d|'ll|'re|'m|n't)$")
SET_PHRASES = re.compile(r"\bof course\b", re.I)  # everyday as a phrase, though "course" alone is not


class Heading(Enum):
    """A heading of ``prompts/about_owner.md``."""

    ABOUT = "about the owner"
    ANSWERS = "answers the question"
    EVERYDAY = "not a topic"


@dataclass(frozen=True)
class OwnerPatterns:
    """What ``prompts/about_owner.md`` says: which sentences speak of the owner, which answer the
    question by reference, and the everyday words."""

    about: tuple[re.Pattern, ...]
    answers: tuple[re.Pattern, ...]
    everyday: frozenset[str]

    @classmethod
    def load(cls, prompts_dir: Path = PROMPTS_DIR) -> "OwnerPatterns":
        """Read the file (:func:`~replica.knowledge.prompts.pattern_sections`)."""
        headings = [h.value for h in Heading]
        found = pattern_sections(ABOUT_OWNER_FILE, headings, (Heading.EVERYDAY.value,), prompts_dir)
        return cls(
            tuple(found[Heading.ABOUT.value]),
            tuple(found[Heading.ANSWERS.value]),
            frozenset(found[Heading.EVERYDAY.value]),
        )


class OwnerWords:
    """The words of the owner's sources, for looking topic words up."""

    def __init__(self, *texts: str):
        self.words: set[str] = set()
        for text in texts:
            found = words_of(text)
            self.words.update(found)
            self.words.update(f"{a}-{b}" for a, b in zip(found, found[1:]))  # "on site" holds "on-site"
        self.words |= {part for w in self.words if "-" in w for part in w.split("-") if part}
        self.stems = {stem(w) for w in self.words}

    def __add__(self, other: "OwnerWords") -> "OwnerWords":
        both = OwnerWords()
        both.words, both.stems = self.words | other.words, self.stems | other.stems
        return both

    def holds(self, word: str) -> bool:
        """Whether the sources hold ``word``: by its stem, each part of a hyphenated word, or one slip away."""
        if word in self.words or stem(word) in self.stems:
            return True
        if "-" in word:  # "full-time" is not held by "full" and "time" apart
            return False
        return len(word) >= 4 and any(w[0] == word[0] and one_slip(w, word) for w in self.words)


class OwnerTopics:
    """Finds, in a reply's sentence, what it says of the owner that the owner's sources do not hold."""

    def __init__(self, patterns: OwnerPatterns, owner: str):
        self.patterns = patterns
        self.names = {w for w in words_of(owner)}

    def about_owner(self, sentence: str) -> bool:
        """Whether ``sentence`` says something of the owner (it is no question)."""
        if sentence.rstrip().rstrip("*_)\"'”’").endswith("?"):
            return False
        return any(p.search(sentence) for p in self.patterns.about) or bool(self.names & set(words_of(sentence)))

    def topic(self, text: str, reply: bool = True) -> list[str]:
        """The topic words of ``text``: its words less the everyday ones and the owner's name; in a
        ``reply``, less what follows "your" too (the visitor's own)."""
        text = SET_PHRASES.sub(" ", NOT_WORDS.sub(" ", text))
        if reply:
            text = YOURS.sub(" ", text)
        words = words_of(text)
        common = COMMON_IN["en"] | COMMON_IN[detect(text)]  # English's, and the language it is in
        kept = []
        for word in words:
            if folded(word) in common or word in self.patterns.everyday or word in self.names or len(word) < 2:
                continue
            if word not in kept:
                kept.append(word)
        return kept

    def asked(self, question: str) -> list[str]:
        """The topic of what the visitor's ``question`` asks (read once for a reply, and passed to
        :meth:`unheld` for each of its sentences)."""
        return self.topic(asked_part(question), reply=False)

    def unheld(self, sentence: str, asked: list[str], sources: OwnerWords) -> list[str]:
        """The topic words of ``sentence`` that make it an answer about the owner that ``sources`` do not
        back (none when it is fine); ``asked`` is the topic of the question it answers (:meth:`asked`)."""
        if not self.about_owner(sentence):
            return []
        stems = {stem(w) for w in asked}
        own = self.topic(sentence)
        echoed = [w for w in own if stem(w) in stems]
        if echoed:  # it speaks of what the visitor asked about, perhaps with what the notes say of it
            topic = echoed + [w for w in own if w not in echoed and sources.holds(w)]
        elif any(p.search(sentence) for p in self.patterns.answers):  # "No.", "Yes, I do.": of the question's topic
            topic = asked
        else:
            return []  # words it brings in itself are the specifics' to check (a name, a number)
        missing = [w for w in topic if not sources.holds(w)]
        return missing if len(missing) * 2 > len(topic) else []


class OwnerCheck:
    """One reply's check of what it says of the owner: the topic of the visitor's ``question``, against the
    owner's ``sources``, read with ``topics``."""

    def __init__(self, topics: OwnerTopics, question: str, sources: OwnerWords):
        self.topics = topics
        self.sources = sources
        self.asked = topics.asked(question)
        # Asked about what the sources do not hold: a sentence about the owner is held from its start ("No,
        # I do not have…" says as much as the topic that follows it).
        self.asks_unheld = mostly_unheld(self.asked, sources)

    def unheld(self, sentence: str) -> list[str]:
        """The words that make ``sentence`` an answer about the owner their sources do not back."""
        return self.topics.unheld(sentence, self.asked, self.sources)

    def hold_from(self, partial: str) -> int | None:
        """Where a sentence still arriving must stop showing (``None``: nothing here holds it): at its start
        when the question's topic is unheld and it speaks of the owner, else at the first word nothing backs."""
        if self.asks_unheld and self.topics.about_owner(partial):
            return 0
        unheld = self.unheld(partial)
        if not unheld:
            return None
        return min((m.start() for w in unheld if (m := re.search(rf"(?<!\w){re.escape(w)}", partial, re.I))), default=0)


def mostly_unheld(topic: list[str], sources: OwnerWords) -> bool:
    """Whether most words of ``topic`` are ones ``sources`` do not hold."""
    return sum(not sources.holds(w) for w in topic) * 2 > len(topic) > 0


def asked_part(message: str) -> str:
    """What ``message`` asks: its questions ("Hi, I'm Dana from Acme. Do you know Rust?" → the last), or
    all of it when it has none."""
    questions = re.findall(r"[^.!?\n]*\?", message)
    return " ".join(questions) if questions else message


def words_of(text: str) -> list[str]:
    """The words of ``text``, lower case: a contraction's ending ("'ve", "n't") and a possessive's "'s"
    dropped, and edge hyphens."""
    found = []
    for match in WORD.finditer(text.lower().replace("’", "'")):
        word = CONTRACTION.sub("", match.group()).strip("-'")
        if word:
            found.append(word)
    return found
