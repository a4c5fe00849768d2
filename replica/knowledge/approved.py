"""The answers the owner approved for visitors, word for word: the FAQ files, the sections of other
Markdown files the owner marked as approved, and the answers taught from Telegram. Only these may be
quoted without a model; the rest of the profile and other knowledge files may hold notes the owner
never meant to show as they are.

A FAQ file is any file named ``faq.md``, ``faq.markdown`` or ``faq.txt`` in the knowledge folder (nested
folders included; ``faq.es.md`` and the like for another language): a question line (or several, one
per phrasing, each ending in "?"), then its answer paragraph, a blank line between entries. A line
alone (a title) is skipped; Markdown marks around the question (``## ``, ``**``, ``Q:``) and an ``A:``
before the answer are left out.

A marked section is a Markdown heading's section (up to the next heading of its level or higher)
holding the line ``<!-- approved: Question one? | Question two? -->``: it answers the questions the mark
lists (with a bare ``<!-- approved -->``, its heading), and is quoted whole, without the mark.

Matching (the terms of :mod:`replica.knowledge.terms`: shorthand spelled out, typing slips read as the
word meant, the words visitors use read as the owner's, stems), in the message's own language:
``bm25s`` ranks the approved questions for a message; the best is used only when
its *score* reaches :data:`MIN_SCORE`: the share of terms the message and the approved question have in
common (2·shared / (message terms + question terms)), so "Will you sign an NDA?" meets "Do you sign
NDAs?" (1.0), "what timezone r u in" meets "What time zone are you in?", and "Do you work with banks?"
does not meet "Do you work with early-stage startups?" (0.33). Why stems and slips, not character
n-grams or an embedding model: docs/knowledge.md (measured by ``python -m bench.matching``).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

import bm25s

from replica.knowledge.asking import (
    about_someone_else,
    corrected,
    negations,
    others_words,
    own_words,
    past,
    qualifiers,
    times,
    topics,
)
from replica.knowledge.files import knowledge_files
from replica.knowledge.terms import Vocabulary, terms
from replica.languages import KNOWN, detect
from replica.storage.database import storage_errors
from replica.storage.questions import same_question
from replica.storage.rows import AnswerRecord

log = logging.getLogger(__name__)

FAQ_FILE = re.compile(r"^faq(?:[._-]([a-z]{2}))?\.(?:md|markdown|txt)$", re.I)  # faq.md, faq.es.md
MARKDOWN_FILE = re.compile(r"\.(md|markdown)$", re.I)
APPROVED_MARK = re.compile(r"^\s*<!--\s*approved\s*(?::\s*(.*?))?\s*-->\s*$", re.I)
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
MIN_SCORE = 0.5
CLOSE_SCORE = 0.4  # an approved answer this close to an unanswered question is offered to the owner
MAX_EXTRA = 1  # a word a clause may add to an approved question it asks whole ("Will you sign NDAs for us?")
CANDIDATES = 5
# A clause of a message: what one question is asked in ("Hi Jordan! Do you sign NDAs?" has two).
CLAUSE = re.compile(r"[.!?;,\n—–]+|\s-\s")
CLAUSE_AND_END = re.compile(f"({CLAUSE.pattern}|:\\s)")  # the same, kept, and a colon: "Startups: do you…"
SENTENCE_END = re.compile(r"[.!?\n]")
POINTS_BACK = re.compile(
    r"\b(?:that|this|it|them|those|these|one|ones|so|such|assim|isso|isto|así|asi|eso|esto|ça|cela|das|dies)\b", re.I
)


@dataclass(frozen=True)
class Approved:
    """One approved answer: the question it answers, the answer word for word, where it comes from
    (``faq``, ``profile``: a marked section, or ``learned``), and the language it is written in."""

    question: str
    answer: str
    source: str
    language: str = "en"


@dataclass(frozen=True)
class Match:
    """The approved answer found for a message, with its score (0 to 1)."""

    approved: Approved
    score: float


def score(
    message: str,
    question: str,
    vocabulary: Vocabulary | None = None,
    read: Callable[[str, Vocabulary | None], set[str]] | None = None,
    strict: bool = True,
    language: str = "en",
    answer: str = "",
) -> float:
    """How well ``message`` meets an approved ``question``, 0 to 1: the best of its clauses, each by the
    terms it shares with the question (Dice's coefficient; a typing slip read as the word of
    ``vocabulary``, the question's own words by default, it is one slip from). A clause that asks more
    than the question (two terms the question lacks, or one beside a single shared one: "…NDAs for
    money-laundering clients?"), turns it around (a negation the question lacks: "Do you refuse to sign
    NDAs?", "dont you sign NDAs"), names a number the question lacks ("…in 2027?") or is one word of a
    longer question ("zone") meets it not at all: the approved answer would not be its answer. A
    message that corrects itself is read from its correction on ("Do you sign NDAs? no, I mean do you
    avoid them" is "do you avoid them"). (``read``: how a text becomes terms; the bench compares ways.)
    A clause also asks of something else when it asks of the past the question does not ("Have you ever
    relocated?"), names a time neither the question nor its ``answer`` names ("…next week?"), or names
    one of the things ``prompts/visitor_words.md`` lists where the question names another ("How much do
    you charge for new projects?"). It meets a question whose every word it holds, the qualifiers aside
    ("new", "project": it "covers" it), though it adds words the ``answer`` holds or the words visitors
    use for the same thing, and one more to a question of two words or more, unless that one names
    another thing or is one of its words: so "Do you have a CS degree?" meets "Do you have a degree?"
    answered "MSc in Computer Science", and "Are you available for a call?" does not meet "Are you
    available for new projects?". Not ``strict``: how close it comes, the rules on words added left aside
    (the others still hold), for an answer offered to the owner, never quoted to a visitor. All are read
    as ``language``."""
    vocabulary = vocabulary or Vocabulary.of([question], language)
    if read is None:
        asked = asked_as(question, answer, language)  # read once: a question is scored for every message
        read = lambda text, known: terms(text, known, language)  # noqa: E731
    else:
        asked = Asked.of(question, answer, read, language)
    parts = CLAUSE_AND_END.split(corrected(message))  # clause, what ended it, clause, …
    clauses, ends = parts[::2], parts[1::2]
    asking = in_questions(ends, len(clauses))
    scores = []
    for at, clause in enumerate(clauses):
        if not asking[at]:
            continue
        mine = read(clause, vocabulary)
        # A clause that points back asks of what the statement before it named, not of itself: "Our
        # lawyers need an NDA. Would you sign one?", "Startups: do you work with them?" (a question
        # before it is a question of its own).
        named = set()
        if at and "?" not in ends[at - 1] and POINTS_BACK.search(clause):
            named = read(clauses[at - 1], vocabulary) & topics(language)
        if named:
            scores.append(asked.meets(f"{clauses[at - 1]} {clause}", mine | named, strict))
        else:
            scores.append(asked.meets(clause, mine, strict))
    return max(scores, default=0.0)


@dataclass(frozen=True)
class Asked:
    """An approved question as :func:`score` reads it: its terms, what it says of negation, someone else
    and the past, and the terms of its answer."""

    terms: frozenset[str]
    turned: int
    someone_else: bool
    in_the_past: bool
    said: frozenset[str]
    language: str

    @classmethod
    def of(cls, question: str, answer: str, read: Callable, language: str) -> "Asked":
        """``question`` and its ``answer``, read by ``read`` as ``language``."""
        said = frozenset(read(answer, None)) if answer else frozenset()
        theirs = frozenset(read(question, None))
        return cls(theirs, negations(question), about_someone_else(question), past(question), said, language)

    def apart(self, clause: str, mine: set[str]) -> bool:
        """Whether ``clause`` (its terms ``mine``) asks something else, whatever words it shares."""
        things = topics(self.language)
        return (
            negations(clause) != self.turned
            or not numbers(mine) <= numbers(self.terms)
            or (about_someone_else(clause) and not self.someone_else)
            or (past(clause) and not self.in_the_past)
            or bool(times(clause, self.language) - self.terms - self.said)
            or bool((mine - self.terms) & things and (self.terms - mine) & things)
        )

    def meets(self, clause: str, mine: set[str], strict: bool) -> float:
        """How well ``clause`` meets the question (0 when it asks something else)."""
        theirs = self.terms
        shared, extra = len(mine & theirs), len(mine - theirs)
        if not shared or self.apart(clause, mine):
            return 0.0
        whole = len(theirs) > 1 and shared == len(theirs) and extra <= MAX_EXTRA  # all its words, and a few more
        asks_more = extra > 1 or (extra and shared < 2) or (len(mine) == 1 and len(theirs) > 1)
        plain = qualifiers(self.language)
        core = theirs - plain
        related = own_words(self.language, core)
        unexplained = mine - theirs - self.said - plain - related
        named = unexplained & others_words(self.language, core)  # another thing, or its words: "…for a call?"
        allowed = 0 if named else int(len(theirs) > 1)
        one_word = len(mine) == 1 and len(core) > 1  # "zone", "startups": too little to be sure
        covers = bool(core) and core <= mine and len(unexplained) <= allowed and not one_word
        if strict and asks_more and not (whole or covers):
            return 0.0
        dice = 2 * shared / (len(mine) + len(theirs))
        return max(dice, MIN_SCORE) if covers else dice


def in_questions(ends: list[str], count: int) -> list[bool]:
    """For each of ``count`` clauses (``ends``: what ended each), whether it is part of a question: its
    sentence ends with "?". A statement beside a question is not asked ("We need an NDA. Any reason you
    wouldn't sign?"); with no question mark at all, every clause may be the question."""
    closings = [next((end for end in ends[at:] if SENTENCE_END.search(end)), "") for at in range(count)]
    asking = ["?" in closing for closing in closings]
    return asking if any(asking) else [True] * count


@lru_cache(maxsize=1024)
def asked_as(question: str, answer: str, language: str) -> Asked:
    """:class:`Asked` for ``question`` and its ``answer``, read with :func:`terms` as ``language``."""
    return Asked.of(question, answer, lambda text, known: terms(text, known, language), language)


def numbers(found: Iterable[str]) -> set[str]:
    """The terms that hold a digit: "5 years" and "10 years" are different questions."""
    return {term for term in found if any(character.isdigit() for character in term)}


def alike(a: str, b: str) -> bool:
    """Whether two visitors' questions are the same question: the same wording (case, spacing and closing
    punctuation aside, as the store compares them), or matching as above, either way round. "what
    timezone r u in" and "Which time zone are you in?" are; "Do you sign NDAs?" and "Do you refuse to
    sign NDAs?" are not; "What do you do?" is itself, though it has no term to match by."""
    language = detect(a)
    if detect(b) != language:
        return same_question(a, b)
    return same_question(a, b) or max(score(a, b, language=language), score(b, a, language=language)) >= MIN_SCORE


def parse_faq(text: str) -> list[tuple[str, str]]:
    """The (question, answer) entries of a FAQ file's text: one for each question line of an entry (an
    entry may open with several, one per phrasing, each ending in "?"), all with the entry's answer."""
    entries = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = [line.strip() for line in block.strip().splitlines() if line.strip()]
        if len(lines) < 2:
            continue
        asked = 1
        while asked < len(lines) - 1 and _question_line(lines[asked]).endswith("?"):
            asked += 1  # another phrasing of the same question
        answer = re.sub(r"^A:\s*", "", " ".join(lines[asked:]), flags=re.I).strip()
        questions = [_question_line(line) for line in lines[:asked]]
        entries += [(question, answer) for question in questions if question and answer]
    return entries


def _question_line(line: str) -> str:
    """A question line without its Markdown marks (``## ``, ``**``, ``Q:``)."""
    return re.sub(r"^(#+\s*|\*\*|__|Q:\s*)+|(\*\*|__)$", "", line, flags=re.I).strip()


def marked_sections(text: str) -> list[tuple[str, str]]:
    """The (question, answer) pairs of a Markdown file's sections marked ``<!-- approved: … -->``: one per
    question the mark lists (its heading when it lists none), the section's text without the mark."""
    lines = text.splitlines()
    headings = [(at, len(m.group(1)), m.group(2)) for at, line in enumerate(lines) if (m := HEADING.match(line))]
    entries = []
    for at, line in enumerate(lines):
        mark = APPROVED_MARK.match(line)
        above = [heading for heading in headings if heading[0] < at]
        if not mark or not above:
            continue
        start, level, title = above[-1]
        end = next((h[0] for h in headings if h[0] > start and h[1] <= level), len(lines))
        answer = "\n".join(kept for kept in lines[start + 1 : end] if not APPROVED_MARK.match(kept)).strip()
        questions = [q.strip() for q in (mark.group(1) or "").split("|") if q.strip()] or [title]
        entries += [(question, answer) for question in questions if answer]
    return entries


def approved_entries(folder: Path, languages: tuple[str, ...] = ("en",)) -> list[Approved]:
    """Every approved answer in ``folder``'s files written in one of ``languages``: the FAQ files'
    entries, then the marked sections of the other Markdown files; a file that cannot be read is skipped
    with a log line. Each is in the language its FAQ file's name gives (``faq.es.md``), else the one its
    words are in (the first of ``languages`` when they do not tell); those in another language are left
    out, with a log line for each file."""
    faq: list[Approved] = []
    marked: list[Approved] = []
    for path in knowledge_files(folder):
        named = FAQ_FILE.match(path.name)
        is_faq = bool(named)
        if not is_faq and not MARKDOWN_FILE.search(path.name):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            if is_faq:  # another unreadable file is named once, by the knowledge reader
                log.warning("Skipping FAQ file %s: %s", path, type(error).__name__)
            continue
        code = named.group(1).lower() if named and named.group(1) else None
        code = code if code in KNOWN else None

        def language(question: str, answer: str) -> str:
            return code or detect(f"{question} {answer}", languages[0])

        if is_faq:
            found = [Approved(q, a, "faq", language(q, a)) for q, a in parse_faq(text)]
        else:
            found = [Approved(q, a, "profile", language(q, a)) for q, a in marked_sections(text)]
        left = sorted({entry.language for entry in found} - set(languages))
        if left:
            log.info(
                "Answers in %s in %s are not quoted without a model: add it to LANGUAGES", ", ".join(left), path.name
            )
        (faq if is_faq else marked).extend(entry for entry in found if entry.language in languages)
    return faq + marked


@dataclass
class _Index:
    """The approved answers in one language, ranked by ``bm25s`` and mended for typing slips."""

    language: str
    entries: list[Approved]
    vocabulary: Vocabulary
    retriever: bm25s.BM25

    @classmethod
    def of(cls, language: str, entries: list[Approved]) -> "_Index":
        vocabulary = Vocabulary.of([entry.question for entry in entries], language)
        retriever = bm25s.BM25()
        retriever.index(
            [sorted(terms(entry.question, None, language)) or ["·"] for entry in entries], show_progress=False
        )
        return cls(language, entries, vocabulary, retriever)

    def candidates(self, message: str) -> list[Approved]:
        """The answers ranked first for ``message``."""
        query = sorted(terms(corrected(message), self.vocabulary, self.language))
        if not query:
            return []
        ids, _ = self.retriever.retrieve([query], k=min(CANDIDATES, len(self.entries)), show_progress=False)
        return [self.entries[int(i)] for i in ids[0]]

    def score(self, message: str, entry: Approved, strict: bool = True) -> float:
        return score(
            message, entry.question, self.vocabulary, strict=strict, language=self.language, answer=entry.answer
        )


class ApprovedAnswers:
    """The FAQ entries and the learned answers, indexed for matching, each language apart.

    ``learned()`` returns the active learned answers (rows with ``id``, ``question``, ``answer``); they are
    read for each message, and the index is made again when they changed (an answer learned or forgotten,
    on any instance). When they cannot be read, the ones read last are used. ``languages``: those the
    owner writes answers in (``LANGUAGES``); a message is read as the first of them unless its words say
    otherwise, and is answered only by an answer in its language.
    """

    def __init__(
        self, faq: list[Approved], learned: Callable[[], list[AnswerRecord]], languages: tuple[str, ...] = ("en",)
    ):
        self.languages = languages
        self.faq = faq
        self._learned = learned
        self._key: tuple = ()
        self._entries: list[Approved] = []
        self._indexes: dict[str, _Index] = {}
        self._index(self.faq)

    @property
    def entries(self) -> list[Approved]:
        """Every approved answer, FAQ entries first."""
        self._refresh()
        return self._entries

    def language_of(self, message: str) -> str:
        """The language ``message`` is read in: the one its words are in, the owner's first when they do
        not tell."""
        return detect(message, self.languages[0])

    def match(self, message: str) -> Match | None:
        """The best approved answer for ``message``, when it scores at least :data:`MIN_SCORE`; only an
        answer in the message's language is one."""
        index = self._index_for(message)
        if index is None:
            return None
        scored = [Match(entry, index.score(message, entry)) for entry in index.candidates(message)]
        best = max(scored, key=lambda match: match.score, default=None)  # the first of equals
        return best if best is not None and best.score >= MIN_SCORE else None

    def close(self, message: str) -> Approved | None:
        """The FAQ or profile answer that comes close to ``message`` without answering it: offered to the
        owner on the question's alert, never quoted to a visitor. Close: the best candidate shares at
        least :data:`CLOSE_SCORE` of its words with a clause (:func:`score`, not strict)."""
        index = self._index_for(message)
        if index is None:
            return None
        candidates = index.candidates(message)
        if any(index.score(message, entry) >= MIN_SCORE for entry in candidates):
            return None  # answered: nothing to offer
        owned = [entry for entry in candidates if entry.source != "learned"]
        scored = [(index.score(message, entry, strict=False), entry) for entry in owned]
        best = max(scored, key=lambda pair: pair[0], default=(0.0, None))
        return best[1] if best[0] >= CLOSE_SCORE else None

    def _index_for(self, message: str) -> _Index | None:
        self._refresh()
        return self._indexes.get(self.language_of(message))

    def _refresh(self) -> None:
        try:
            rows = self._learned()
        except storage_errors() as error:
            log.error("Could not read the learned answers (%s); using the ones read last", type(error).__name__)
            return
        key = tuple((row.id, row.answer) for row in rows)
        if key != self._key:
            self._key = key
            first = self.languages[0]
            learned = [Approved(row.question, row.answer, "learned", detect(row.question, first)) for row in rows]
            self._index(self.faq + learned)

    def _index(self, entries: list[Approved]) -> None:
        self._entries = entries
        languages = dict.fromkeys(entry.language for entry in entries)
        self._indexes = {
            language: _Index.of(language, [entry for entry in entries if entry.language == language])
            for language in languages
        }
