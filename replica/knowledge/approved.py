"""The answers the owner approved for visitors, word for word: the FAQ files, the sections of other
Markdown files the owner marked as approved, and the answers taught from Telegram. Only these may be
quoted without a model; the rest of the profile and other knowledge files may hold notes the owner
never meant to show as they are.

A FAQ file is any file named ``faq.md``, ``faq.markdown`` or ``faq.txt`` in the knowledge folder (nested
folders included): a question line (or several, one per phrasing, each ending in "?"), then its answer
paragraph, a blank line between entries. A line
alone (a title) is skipped; Markdown marks around the question (``## ``, ``**``, ``Q:``) and an ``A:``
before the answer are left out.

A marked section is a Markdown heading's section (up to the next heading of its level or higher)
holding the line ``<!-- approved: Question one? | Question two? -->``: it answers the questions the mark
lists (with a bare ``<!-- approved -->``, its heading), and is quoted whole, without the mark.

Matching (the terms of :mod:`replica.knowledge.terms`: shorthand spelled out, typing slips read as the
word meant, stems): ``bm25s`` ranks the approved questions for a message; the best is used only when
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
from pathlib import Path
from typing import Callable

import bm25s

from replica.knowledge.files import knowledge_files
from replica.knowledge.terms import Vocabulary, about_someone_else, corrected, negations, terms
from replica.storage.database import storage_errors
from replica.storage.questions import same_question

log = logging.getLogger(__name__)

FAQ_FILE = re.compile(r"^faq\.(md|markdown|txt)$", re.I)
MARKDOWN_FILE = re.compile(r"\.(md|markdown)$", re.I)
APPROVED_MARK = re.compile(r"^\s*<!--\s*approved\s*(?::\s*(.*?))?\s*-->\s*$", re.I)
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
MIN_SCORE = 0.5
CLOSE_SCORE = 0.4  # an approved answer this close to an unanswered question is offered to the owner
MAX_EXTRA = 1  # a word a clause may add to an approved question it asks whole ("Will you sign NDAs for us?")
CANDIDATES = 5
# A clause of a message: what one question is asked in ("Hi Jordan! Do you sign NDAs?" has two).
CLAUSE = re.compile(r"[.!?;,\n—–]+|\s-\s")


@dataclass(frozen=True)
class Approved:
    """One approved answer: the question it answers, the answer word for word, and where it comes from
    (``faq``, ``profile``: a marked section, or ``learned``)."""

    question: str
    answer: str
    source: str


@dataclass(frozen=True)
class Match:
    """The approved answer found for a message, with its score (0 to 1)."""

    approved: Approved
    score: float


def score(
    message: str,
    question: str,
    vocabulary: Vocabulary | None = None,
    read: Callable[[str, Vocabulary | None], set[str]] = terms,
    strict: bool = True,
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
    Not ``strict``: how close it comes, the rules on words added left aside (those on negations, numbers
    and someone else still hold), for an answer offered to the owner, never quoted to a visitor."""
    vocabulary = vocabulary or Vocabulary.of([question])
    theirs = read(question, None)
    turned = negations(question)
    best = 0.0
    for clause in CLAUSE.split(corrected(message)):
        mine = read(clause, vocabulary)
        shared, extra = len(mine & theirs), len(mine - theirs)
        if not shared or negations(clause) != turned or not numbers(mine) <= numbers(theirs):
            continue
        if about_someone_else(clause) and not about_someone_else(question):
            continue
        whole = len(theirs) > 1 and shared == len(theirs) and extra <= MAX_EXTRA  # all its words, and a few more
        asks_more = extra > 1 or (extra and shared < 2) or (len(mine) == 1 and len(theirs) > 1)
        if strict and not whole and asks_more:
            continue
        best = max(best, 2 * shared / (len(mine) + len(theirs)))
    return best


def numbers(found: set[str]) -> set[str]:
    """The terms that hold a digit: "5 years" and "10 years" are different questions."""
    return {term for term in found if any(character.isdigit() for character in term)}


def alike(a: str, b: str) -> bool:
    """Whether two visitors' questions are the same question: the same wording (case, spacing and closing
    punctuation aside, as the store compares them), or matching as above, either way round. "what
    timezone r u in" and "Which time zone are you in?" are; "Do you sign NDAs?" and "Do you refuse to
    sign NDAs?" are not; "What do you do?" is itself, though it has no term to match by."""
    return same_question(a, b) or max(score(a, b), score(b, a)) >= MIN_SCORE


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


def approved_entries(folder: Path) -> list[Approved]:
    """Every approved answer in ``folder``'s files: the FAQ files' entries, then the marked sections of
    the other Markdown files; a file that cannot be read is skipped with a log line."""
    faq, marked = [], []
    for path in knowledge_files(folder):
        is_faq = bool(FAQ_FILE.match(path.name))
        if not is_faq and not MARKDOWN_FILE.search(path.name):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            if is_faq:  # another unreadable file is named once, by the knowledge reader
                log.warning("Skipping FAQ file %s: %s", path, type(error).__name__)
            continue
        if is_faq:
            faq += [Approved(question, answer, "faq") for question, answer in parse_faq(text)]
        else:
            marked += [Approved(question, answer, "profile") for question, answer in marked_sections(text)]
    return faq + marked


class ApprovedAnswers:
    """The FAQ entries and the learned answers, indexed for matching.

    ``learned()`` returns the active learned answers (rows with ``id``, ``question``, ``answer``); they are
    read for each message, and the index is made again when they changed (an answer learned or forgotten,
    on any instance). When they cannot be read, the ones read last are used.
    """

    def __init__(self, faq: list[Approved], learned: Callable[[], list[dict]]):
        self.faq = faq
        self._learned = learned
        self._key: tuple = ()
        self._entries: list[Approved] = []
        self._vocabulary = Vocabulary()
        self._retriever: bm25s.BM25 | None = None
        self._index(faq)

    @property
    def entries(self) -> list[Approved]:
        """Every approved answer, FAQ entries first."""
        self._refresh()
        return self._entries

    def match(self, message: str) -> Match | None:
        """The best approved answer for ``message``, when it scores at least :data:`MIN_SCORE`."""
        scored = [Match(entry, score(message, entry.question, self._vocabulary)) for entry in self._candidates(message)]
        best = max(scored, key=lambda match: match.score, default=None)  # the first of equals
        return best if best is not None and best.score >= MIN_SCORE else None

    def close(self, message: str) -> Approved | None:
        """The FAQ or profile answer that comes close to ``message`` without answering it: offered to the
        owner on the question's alert, never quoted to a visitor. Close: the best candidate shares at
        least :data:`CLOSE_SCORE` of its words with a clause (:func:`score`, not strict)."""
        candidates = self._candidates(message)
        if any(score(message, entry.question, self._vocabulary) >= MIN_SCORE for entry in candidates):
            return None  # answered: nothing to offer
        owned = [entry for entry in candidates if entry.source != "learned"]
        scored = [(score(message, entry.question, self._vocabulary, strict=False), entry) for entry in owned]
        best = max(scored, key=lambda pair: pair[0], default=(0.0, None))
        return best[1] if best[0] >= CLOSE_SCORE else None

    def _candidates(self, message: str) -> list[Approved]:
        """The approved answers ``bm25s`` ranks first for ``message`` (the learned ones read afresh)."""
        self._refresh()
        query = sorted(terms(corrected(message), self._vocabulary))
        if not query or self._retriever is None:
            return []
        ids, _ = self._retriever.retrieve([query], k=min(CANDIDATES, len(self._entries)), show_progress=False)
        return [self._entries[int(i)] for i in ids[0]]

    def _refresh(self) -> None:
        try:
            rows = self._learned()
        except storage_errors() as error:
            log.error("Could not read the learned answers (%s); using the ones read last", type(error).__name__)
            return
        key = tuple((row.id, row.answer) for row in rows)
        if key != self._key:
            self._key = key
            self._index(self.faq + [Approved(row.question, row.answer, "learned") for row in rows])

    def _index(self, entries: list[Approved]) -> None:
        self._entries = entries
        self._retriever = None
        self._vocabulary = Vocabulary.of([entry.question for entry in entries])
        documents = [sorted(terms(entry.question)) or ["·"] for entry in entries]
        if entries:
            self._retriever = bm25s.BM25()
            self._retriever.index(documents, show_progress=False)
