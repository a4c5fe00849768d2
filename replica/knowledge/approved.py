"""The answers the owner approved for visitors, word for word (read from the files by
:mod:`replica.knowledge.faq_files`, and taught from Telegram), indexed for matching. Only these may be
quoted without a model; the rest of the profile and other knowledge files may hold notes the owner
never meant to show as they are.

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
from itertools import islice, takewhile
from typing import Callable, Iterable, Literal

import bm25s

from replica.knowledge.asking import (
    ACCEPTING,
    WHEN,
    WORKING,
    about_someone_else,
    asked_deeds,
    asks_how_many,
    asks_names,
    corrected,
    destinations,
    first_half,
    heads,
    in_the_first_person,
    kind_of_work,
    names_you,
    negations,
    now,
    of_now,
    of_the_visitor,
    opposed,
    others_words,
    own_words,
    qualifiers,
    roles,
    the_visitors_deed,
    things,
    times,
    topics,
    working_beside,
)
from replica.knowledge.faq_files import Approved
from replica.knowledge.meaning import Meanings
from replica.knowledge.past import past
from replica.knowledge.terms import (
    WORD,
    Vocabulary,
    common,
    mend,
    spelled,
    stem,
    terms,
    visitor_vocabulary,
    visitor_words,
    words,
)
from replica.languages import detect, detect_among, folded, words_only_in
from replica.storage.database import storage_errors
from replica.storage.phrasings import Phrasing, Phrasings
from replica.storage.questions import same_question
from replica.storage.rows import AnswerRecord

log = logging.getLogger(__name__)

MIN_SCORE = 0.5
CLOSE_SCORE = 0.4  # an approved answer this close to a message is offered: "Did you mean…?", and to the owner
# The meaning model's first candidate is offered when it is this like the message, and this much more
# than the next answer's best question (measured on the tables: python -m bench.matching).
MEANING_FLOOR = 0.85
MEANING_MARGIN = 0.02
# Where the owner has no answers in the visitor's language, the rules read only the things a message names,
# and a question and its translation are less alike than two phrasings in one language: the model's floor.
ACROSS_FLOOR = 0.82
ACROSS_MARGIN = 0.01
MIN_MENDED = 6  # across languages, a shorter word is mended no more: "mãos" of "em mãos" is no slip
MAX_EXTRA = 1  # a word a clause may add to an approved question it asks whole ("Will you sign NDAs for us?")
CANDIDATES = 5
# A clause of a message: what one question is asked in ("Hi Jordan! Do you sign NDAs?" has two).
CLAUSE = re.compile(r"[.!?;,\n—–]+|\s-\s")
CLAUSE_AND_END = re.compile(f"({CLAUSE.pattern}|:\\s)")  # the same, kept, and a colon: "Startups: do you…"
SENTENCE_END = re.compile(r"[.!?\n]")
POINTS_BACK = re.compile(
    r"\b(?:that|this|it|them|those|these|one|ones|so|such|assim|isso|isto|así|asi|eso|esto|ça|cela|das|dies)\b"
    r"|\b(?:esta|esa|essa|nesta|nessa|desta|dessa|cette|ce|diese|dieser|dieses|unserer|nuestra|nossa)\s+"
    r"(?:fase|etapa|stage|phase|stade|est[aá]gio)\b",
    re.I,
)

AND = re.compile(r"\s(?:and|but|y|pero|e|mas|et|mais|und|aber)\s", re.I)  # where a statement's parts join
# The owner's price, named beside any question ("Do you work with startups for equity only?", "What's your
# hourly rate for work with startups?"), is what it asks: an answer that does not name it does not answer.
PRICE = "rate"
# The visitor's company as "us", named in the statement before: "We're a tiny startup, would you work with us?"
US = re.compile(r"\b(?:us|nosotros|nosotras|connosco|conosco|nous|uns)\b", re.I)


@dataclass(frozen=True)
class Match:
    """The approved answer found for a message, with its score (0 to 1)."""

    approved: Approved
    score: float


@dataclass(frozen=True)
class Offer:
    """An approved answer close to a message but not sure enough to quote: the visitor is asked "Did you
    mean…?" first. ``by`` is what found it: the rules' close score, or the meaning model."""

    approved: Approved
    by: Literal["rules", "meaning"]


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
    use for the same thing or a place to go ("…relocate to London?"), and one more to a question of two
    words or more, unless that one names another thing or is one of its words: so "Do you have a CS
    degree?" meets "Do you have a degree?" answered "MSc in Computer Science", and "Are you available for
    a call?" does not meet "Are you available for new projects?". A clause is also read without the
    circumstance it adds (:func:`~replica.knowledge.asking.heads`: "Do you sign NDAs | before a first
    call?"), unless the whole of it turns the question around or asks of someone else or the past. Not
    ``strict``: how close it comes, the rules on words added, numbers and times left aside (the others
    still hold), for an answer offered (to the visitor as "Did you mean…?", to the owner on an alert),
    never quoted to a visitor unasked. All are read as ``language``."""
    vocabulary = vocabulary or Vocabulary.of([question], language)
    if read is None:
        asked = asked_as(question, answer, language)  # read once: a question is scored for every message
        read = lambda text, known: terms(text, known, language)  # noqa: E731
    else:
        asked = Asked.of(question, answer, read, language)
    clauses, ends, asking = split_clauses(message)
    if any(asked.beyond(clause, asks) for clause, asks in zip(clauses, asking)):
        return 0.0  # "Do you sign NDAs, and what's your day rate?" asks the price too
    things_of = lambda text: read(text, vocabulary) & topics(language)  # noqa: E731
    scores = []
    for at, clause in enumerate(clauses):
        follows = continues(clauses, ends, at)
        if not asking[at] or (follows and asked.of_another(clauses[at - 1])):
            continue
        if follows and POINTS_BACK.search(clause):
            clause = f"{clauses[at - 1]} {clause}"  # "Can you name your clients, | or is that under NDA?"
        clause = first_half(clause)
        mine = of_now(read(clause, vocabulary), language)
        # A clause that points back asks of what the statement before it named, not of itself: "Our
        # lawyers need an NDA. Would you sign one?", "Startups: do you work with them?" (a question
        # before it is a question of its own). One that names the visitor as "us" asks of the company the
        # statements since the last question describe: "We're a tiny startup. Would you work with us?"
        told, named = pointed_at(clause, clauses, ends, at, things_of)
        if named:
            scores.append(asked.meets(f"{told} {clause}", mine | named, strict))
        else:
            scores.append(asked.meets(clause, mine | described_as_us(clause, clauses, ends, at, things_of), strict))
        # Its head too, the circumstance it adds aside ("Do you sign NDAs | before a first call?"), unless
        # the whole clause asks something else for a reason (turned around, someone else's, the past).
        its_heads = heads(clause)
        if its_heads and not asked.refuses(clause, mine) and not opposed(clause, asked.stated):
            scores.extend(
                asked.meets(head, of_now(read(head, vocabulary), language), strict, of=clause) for head in its_heads
            )
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
    first_person: bool = False  # asked in the visitor's person: "How can I get in touch with you?"
    stated: frozenset[str] = frozenset()  # the answer's words, folded: "before" of "Yes, before any…"
    counting: bool = False  # asks how many: "How many years of experience do you have?"
    naming: bool = False  # asks for names: "What are your clients' names?"

    @classmethod
    def of(cls, question: str, answer: str, read: Callable, language: str) -> "Asked":
        """``question`` and its ``answer``, read by ``read`` as ``language``."""
        said = frozenset(read(answer, None)) if answer else frozenset()
        if answer and times(answer, language):  # an answer that says when ("from next month") answers "…now?"
            said |= now(language) | {WHEN}
        theirs = frozenset(read(question, None))
        # A word left of a phrase for a thing the question names, as "país" of "mudar de cidade ou de país",
        # is that thing's, not a term of its own that every visitor must repeat.
        named = theirs & topics(language)
        theirs -= own_words(language, named) - named - qualifiers(language)
        return cls(
            theirs,
            negations(question),
            about_someone_else(question),
            past(question),
            said,
            language,
            in_the_first_person(question),
            frozenset(WORD.findall(folded(answer))),
            asks_how_many(question),
            asks_names(question),
        )

    def apart(self, clause: str, mine: set[str], of: str = "") -> bool:
        """Whether ``clause`` (its terms ``mine``) asks something else, whatever words it shares: for a
        reason (:meth:`refuses`), by a number or a time the question and its answer do not name, or by a
        deed they do not explain (:meth:`another_deed`)."""
        return (
            self.refuses(clause, mine, of)
            or not numbers(mine) <= numbers(self.terms)
            or self.names_a_time(clause)
            or self.another_deed(clause, mine)
        )

    def another_deed(self, clause: str, mine: set[str]) -> bool:
        """Whether ``clause`` asks the owner to do what neither the question nor its answer explains, in
        place of a word of the question: "draft" of "Can you draft an NDA?" beside "Do you sign NDAs?" (a
        deed beside all of its words only says how: "Which time zone do you operate in?")."""
        deeds = terms(" ".join(asked_deeds(clause)), None, self.language) & mine
        return bool(deeds and deeds <= self.unexplained(mine, clause) and self.terms - mine)

    def unexplained(self, mine: set[str], clause: str = "") -> set[str]:
        """The terms ``mine`` that neither the question, its answer, the qualifiers, the words visitors use
        for its things nor the owner's work explains, nor, of the ``clause`` they are read from, a place to
        go."""
        core = self.terms - qualifiers(self.language)
        found = mine - self.terms - self.said - qualifiers(self.language) - own_words(self.language, core)
        found -= working_beside(mine, core)
        if not clause:
            return found
        if stem(WORKING, self.language) in core:
            found -= kind_of_work(clause, self.language)
        return found - destinations(clause, self.language) - roles(clause, self.language)

    def names_a_time(self, clause: str) -> bool:
        """Whether ``clause`` names a time, or asks when, that the question and its answer do not."""
        return bool(times(clause, self.language) - self.terms - self.said)

    def refuses(self, clause: str, mine: set[str], of: str = "") -> bool:
        """Whether ``clause`` asks something else for a reason no "yes" could mend: it turns the question
        around, asks of someone else or of the past, or names another thing than the question's. Whom it
        asks of is read in the whole clause a head is ``of`` ("Which time zone should I assume | when
        scheduling with you?" asks advice that names "you")."""
        things = topics(self.language)
        return (
            negations(clause) != self.turned
            or self.of_another(of or clause)
            or bool((mine - self.terms) & things and (self.terms - mine) & things)
            or self.prices(clause)
        )

    def beyond(self, clause: str, asks: bool = True) -> bool:
        """Whether ``clause`` asks what only an answer that says it answers, where the question does not
        ask it: the owner's price or how many, in a clause that ``asks``, or names, in any ("…right now?
        Names please.")."""
        if asks_names(clause) and not self.naming:
            return True
        return asks and (self.prices(clause) or (asks_how_many(clause) and not self.counting))

    def prices(self, clause: str) -> bool:
        """Whether ``clause`` names the owner's price (:data:`PRICE`) where the question and its answer do
        not, as typed ("preciso" is no slip of "precio")."""
        return stem(PRICE, self.language) in terms(clause, None, self.language) - self.terms - self.said

    def of_another(self, clause: str) -> bool:
        """Whether ``clause`` asks of someone else, of what the visitor must do, or of the past, where the
        question does not."""
        return (
            (about_someone_else(clause) and not self.someone_else)
            or ((the_visitors_deed(clause) or of_the_visitor(clause)) and not self.first_person)
            or (past(clause) and not self.in_the_past)
        )

    def names_another(self, mine: set[str]) -> bool:
        """Whether terms ``mine`` name another thing than the question's, by words neither it nor its
        answer explains ("Are you available for a call?" beside "…for new projects?")."""
        core = self.terms - qualifiers(self.language)
        return bool(self.unexplained(mine) & others_words(self.language, core))

    def by_its_head(self, clause: str, vocabulary: Vocabulary) -> bool:
        """Whether a head of ``clause`` (:func:`heads`) is the question, naming nothing else: the other
        thing ``clause`` names is in the circumstance it adds ("Signez-vous des NDA avant un premier
        appel ?" beside "Do you sign NDAs?", where no score is read across languages)."""
        if opposed(clause, self.stated):
            return False
        for head in heads(clause):
            mine = terms(head, vocabulary, self.language)
            if (
                not self.refuses(head, mine, of=clause)
                and not self.names_another(mine)
                and self.meets(head, mine, False, of=clause) >= CLOSE_SCORE
            ):
                return True
        return False

    def meets(self, clause: str, mine: set[str], strict: bool, of: str = "") -> float:
        """How well ``clause`` (a head ``of`` a clause, if given) meets the question (0 when it asks
        something else)."""
        theirs = self.terms
        shared, extra = len(mine & theirs), len(mine - theirs)
        if not shared or (self.apart(clause, mine, of) if strict else self.refuses(clause, mine, of)):
            return 0.0  # (how close one comes is not changed by a number or a time: "…in Q3?" may be asked about)
        plain = qualifiers(self.language)
        core = theirs - plain
        unexplained = self.unexplained(mine, clause)
        named = unexplained & others_words(self.language, core)  # another thing, or its words: "…for a call?"
        asks_more = extra > 1 or (extra and shared < 2) or (len(mine) == 1 and len(theirs) > 1)
        whole = len(theirs) > 1 and shared == len(theirs) and extra <= MAX_EXTRA  # all its words, and a few more
        allowed = 0 if named else int(len(theirs) > 1)
        one_word = len(mine) == 1 and len(core) > 1  # "zone", "startups": too little to be sure
        covers = bool(core) and core <= mine and len(unexplained) <= allowed and not one_word
        if strict and asks_more and not (whole or covers):
            return 0.0
        dice = 2 * shared / (len(mine) + len(theirs))
        return max(dice, MIN_SCORE) if covers else dice


def pointed_at(
    clause: str, clauses: list[str], ends: list[str], at: int, things_of: Callable[[str], set[str]]
) -> tuple[str, set[str]]:
    """The statement before ``clause`` (clause ``at``) that it points back at, and the things it names: of
    the statement, only the parts that name one ("We just closed our seed round | and nobody here owns data
    yet" tells of a startup; the negation is the data's)."""
    if not (at and "?" not in ends[at - 1] and POINTS_BACK.search(clause)):
        return "", set()
    told = " ".join(part for part in AND.split(clauses[at - 1]) if things_of(part))
    return told, things_of(told)


def described_as_us(
    clause: str, clauses: list[str], ends: list[str], at: int, things_of: Callable[[str], set[str]]
) -> set[str]:
    """The things the statements since the last question name, where ``clause`` (clause ``at``) names the
    visitor's company as "us" (:data:`US`)."""
    if not US.search(clause):
        return set()
    told = takewhile(lambda before: "?" not in ends[before], range(at - 1, -1, -1))
    return set().union(*(things_of(clauses[before]) for before in told))


def in_questions(ends: list[str], count: int) -> list[bool]:
    """For each of ``count`` clauses (``ends``: what ended each), whether it is part of a question: its
    sentence ends with "?". A statement beside a question is not asked ("We need an NDA. Any reason you
    wouldn't sign?"); with no question mark at all, every clause may be the question."""
    closings = [next((end for end in ends[at:] if SENTENCE_END.search(end)), "") for at in range(count)]
    asking = ["?" in closing for closing in closings]
    return asking if any(asking) else [True] * count


def allowed_for(message: str, language: str, taught: Taught) -> Callable[[Approved], bool]:
    """Whether an answer may be given or asked about for ``message``: neither refused by the rules for a
    reason (:func:`refused`) nor one the owner said it is not (``taught``)."""
    return lambda entry: not refused(message, entry, language) and not taught.not_this(message, entry, language)


def continues(clauses: list[str], ends: list[str], at: int) -> bool:
    """Whether clause ``at`` only continues the one before it, as a few words after a comma that name no
    "you" ("Which time zone should we store timestamps in, | UTC or local?"): it asks of whom that one asks."""
    clause = clauses[at]
    short = len(clause.split()) <= 4 or bool(POINTS_BACK.search(clause))
    return at > 0 and ends[at - 1].strip() == "," and short and not names_you(clause)


def split_clauses(message: str) -> tuple[list[str], list[str], list[bool]]:
    """The clauses of ``message``, from its correction on, what ended each, and whether each asks
    (:func:`in_questions`)."""
    parts = CLAUSE_AND_END.split(corrected(message))  # clause, what ended it, clause, …
    clauses, ends = parts[::2], parts[1::2]
    return clauses, ends, in_questions(ends, len(clauses))


def asking_clauses(message: str) -> list[str]:
    """The clauses of ``message`` that ask (:func:`in_questions`), from its correction on."""
    clauses, _, asking = split_clauses(message)
    return [clause for clause, asks in zip(clauses, asking) if asks]


def what_asks(message: str) -> str:
    """The clauses of ``message`` that ask, as one text: "Bonjour, je prépare une short-list. Sur quoi
    travaillez-vous en ce moment ?" asks only its last sentence."""
    return " ".join(asking_clauses(message))


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


@dataclass(frozen=True)
class Taught:
    """The phrasings taught by use, as read for one message."""

    phrasings: tuple[Phrasing, ...] = ()

    def meant_by(self, message: str, language: str) -> list[str]:
        """The approved questions a phrasing a visitor confirmed meets ``message`` for, by the rules."""
        return [
            p.question
            for p in self._near(message)
            if p.meant and score(message, p.phrasing, language=language) >= MIN_SCORE
        ]

    def meant(self) -> list[Phrasing]:
        """The phrasings visitors confirmed."""
        return [p for p in self.phrasings if p.meant]

    def not_this(self, message: str, entry: Approved, language: str) -> bool:
        """Whether the owner taught that a question ``message`` meets is not ``entry``'s."""
        return any(
            not p.meant and p.question == entry.question and score(message, p.phrasing, language=language) >= MIN_SCORE
            for p in self._near(message)
        )

    def _near(self, message: str) -> list[Phrasing]:
        """The phrasings sharing a word with ``message``: only those can meet it (the rest cost nothing)."""
        mine = set(words(message))
        return [p for p in self.phrasings if mine & set(words(p.phrasing))]


class Examples:
    """The phrasings taught by use (:mod:`replica.storage.phrasings`), read once for each message that needs
    them; the ones read last are used while they cannot be read, and none without a store."""

    def __init__(self, phrasings: Phrasings | None):
        self.phrasings = phrasings
        self._read = Taught()

    def now(self) -> Taught:
        """The phrasings as they are now."""
        if self.phrasings is not None:
            try:
                self._read = Taught(tuple(self.phrasings.all()))
            except storage_errors() as error:
                log.error("Could not read the taught phrasings (%s); using the ones read last", type(error).__name__)
        return self._read

    def keep(self, phrasing: str, question: str, meant: bool) -> None:
        """Keep an example; a store that cannot be written is logged, never the visitor's problem."""
        if self.phrasings is None:
            return
        try:
            self.phrasings.keep(phrasing, question, meant)
        except storage_errors() as error:
            log.error("Could not keep a phrasing of an approved answer (%s)", type(error).__name__)


class ApprovedAnswers:
    """The FAQ entries and the learned answers, indexed for matching, each language apart.

    ``learned()`` returns the active learned answers (rows with ``id``, ``question``, ``answer``); they are
    read for each message, and the index is made again when they changed (an answer learned or forgotten,
    on any instance). When they cannot be read, the ones read last are used. ``languages``: those the
    owner writes answers in (``LANGUAGES``); a message is read as the first of them unless its words say
    otherwise, and is answered only by an answer in its language. ``meaning``, the optional meaning model,
    finds what to offer in any language where the rules find nothing close. ``phrasings``: the examples
    taught by use (a visitor's yes, the owner's "not this"), read as :class:`Examples` says.
    """

    def __init__(
        self,
        faq: list[Approved],
        learned: Callable[[], list[AnswerRecord]],
        languages: tuple[str, ...] = ("en",),
        meaning: Meanings | None = None,
        phrasings: Phrasings | None = None,
    ):
        self.languages = languages
        self.meaning = meaning
        self.examples = Examples(phrasings)
        self.faq = faq
        self._learned = learned
        self._key: tuple = ()
        self._entries: list[Approved] = []
        self._indexes: dict[str, _Index] = {}
        self._words_only_in: dict[str, frozenset[str]] = {}  # each language's answers', no other's
        self._index(self.faq)

    @property
    def entries(self) -> list[Approved]:
        """Every approved answer, FAQ entries first."""
        self._refresh()
        return self._entries

    def language_of(self, message: str) -> str:
        """The language ``message`` is read in: the one its words are in, the owner's first when they do
        not tell; between languages the owner answers in that its common words leave tied, the one whose
        answers alone use more of its words (:func:`detect_among`)."""
        return detect_among(message, self.languages[0], self._words_only_in)

    def match(self, message: str) -> Match | None:
        """The best approved answer for ``message``, when it scores at least :data:`MIN_SCORE`, in the
        message's language; where the owner has no answers in it, the one of the owner's first language
        whose question names just what the message's asking clauses name, or their head without the
        circumstance it adds, as within one language (:func:`naming_the_same`), and no time it does not."""
        index = self._index_for(message)
        if index is None:
            language = self.language_of(message)
            allowed = allowed_for(message, language, self.examples.now())
            asks = what_asks(message)
            for text in (asks, *heads(asks)):
                named = self._naming_the_same(text, language, allowed)
                if named is not None and not untimely(text, named, language):
                    return Match(named, 1.0)
            return None
        scored = [Match(entry, index.score(message, entry)) for entry in index.candidates(message)]
        best = max(scored, key=lambda match: match.score, default=None)  # the first of equals
        if (
            best is None
            or best.score < MIN_SCORE
            or self.examples.now().not_this(message, best.approved, index.language)
        ):
            return None
        return best

    def close(self, message: str) -> Approved | None:
        """The FAQ or profile answer that comes close to ``message`` without answering it: offered to the
        owner on the question's alert, never quoted to a visitor. Close: the best candidate shares at
        least :data:`CLOSE_SCORE` of its words with a clause (:func:`score`, not strict)."""
        index = self._index_for(message)
        if index is None:
            return None
        owned = [entry for entry in index.candidates(message) if entry.source != "learned"]
        return self._closest(index, message, owned)

    def _closest(self, index: _Index, message: str, candidates: list[Approved]) -> Approved | None:
        """The best of ``candidates`` by :func:`score`, not strict, when it reaches :data:`CLOSE_SCORE` and
        none answers ``message``."""
        if any(index.score(message, entry) >= MIN_SCORE for entry in index.candidates(message)):
            return None  # answered: nothing to offer
        scored = [(index.score(message, entry, strict=False), entry) for entry in candidates]
        best = max(scored, key=lambda pair: pair[0], default=(0.0, None))
        return best[1] if best[0] >= CLOSE_SCORE else None

    def offer(self, message: str) -> Offer | None:
        """The approved answer to ask about ("Did you mean…?") when none is sure enough to quote: the
        rules' closest in the message's language (:meth:`close`, learned answers too), else the meaning
        model's first candidate, by a clear margin, in any language, else, where the owner has no answers in
        the message's language, the one naming the same things (:func:`naming_the_same`); never one the
        rules refuse for a reason (:meth:`Asked.refuses`: turned around, of someone else, of the past, of
        another thing; :meth:`Asked.names_another`: a word of another thing its answer does not cover)."""
        index = self._index_for(message)
        language = index.language if index is not None else self.language_of(message)
        taught = self.examples.now()
        allowed = allowed_for(message, language, taught)
        candidates = [self._by_question(q) for q in taught.meant_by(message, language)]
        if index is not None:
            candidates.append(self._closest(index, message, index.candidates(message)))
        for entry in candidates:
            if entry is not None and allowed(entry):
                return Offer(entry, "rules")
        if self.meaning is not None and self.meaning.available():
            meant = self._meant(message, taught, allowed, across=index is None)
            if meant is not None:
                return Offer(meant, "meaning")
        if index is not None:
            return None
        # (no index: the message's language) what asks, whole, as quoted, else without the circumstance it adds
        asks = what_asks(message)
        for text in (asks, *heads(asks)):
            named = self._naming_the_same(text, language, allowed)
            if named is not None:
                return Offer(named, "rules")
        return None

    def _naming_the_same(self, text: str, language: str, allowed: Callable[[Approved], bool]) -> Approved | None:
        """:func:`naming_the_same` among the answers of the owner's first language."""
        owners = [entry for entry in self.entries if entry.language == self.languages[0]]
        return naming_the_same(text, owners, language, allowed)

    def confirmed(self, phrasing: str, entry: Approved) -> None:
        """A visitor said yes to being asked about ``entry`` after writing ``phrasing``: an example of it,
        which makes the next visitor who writes so asked about it at once (never quoted unasked: a visitor's
        yes is not the owner's approval)."""
        self.examples.keep(phrasing, entry.question, meant=True)

    def _by_question(self, question: str) -> Approved | None:
        return next((entry for entry in self.entries if entry.question == question), None)

    def _meant(
        self, message: str, taught: Taught, allowed: Callable[[Approved], bool], across: bool
    ) -> Approved | None:
        """The meaning model's first candidate for ``message``: the best question of the answer it is most
        like, when at least :data:`MEANING_FLOOR` alike, ``allowed`` by the rules, and by
        :data:`MEANING_MARGIN` more than the next answer. Answers compete within one language, the one
        whose best question is most like the message (the model tells a short message's language better
        than its few words do): an answer and its translation are not rivals. The questions of one answer
        are one candidate; so are the phrasings visitors confirmed for it.

        ``across`` languages (the owner has no answers in the message's), the model's likenesses bunch, so
        only the answers the rules allow compete, by :data:`ACROSS_FLOOR` and :data:`ACROSS_MARGIN`:
        "¿A qué te dedicas exactamente?" is nearly as like "Do you have a degree?" as "What kind of work do
        you do?", but asks of no degree. In the message's own language an answer the rules refuse stays a
        rival, and is no candidate (measured: both asked about more near misses, "Do you train machine
        learning models?" → "What is your education?")."""
        floor, margin = (ACROSS_FLOOR, ACROSS_MARGIN) if across else (MEANING_FLOOR, MEANING_MARGIN)
        assert self.meaning is not None
        by_question = {entry.question: entry for entry in self.entries}
        said = [(p.phrasing, by_question[p.question]) for p in taught.meant() if p.question in by_question]
        texts = [*((q, e) for q, e in by_question.items()), *said]
        similarity = self.meaning.of_questions([text for text, _ in texts]) @ self.meaning.of_message(message)
        best: dict[str, dict[str, tuple[float, Approved]]] = {}  # language → answer → its best question
        for value, (_, entry) in zip(similarity.tolist(), texts):
            answers = best.setdefault(entry.language, {})
            if value > answers.get(entry.answer, (-1.0, entry))[0]:
                answers[entry.answer] = (value, entry)
        rankings = [sorted(answers.values(), key=lambda pair: -pair[0]) for answers in best.values()]
        ranked = max(rankings, key=lambda ranked: ranked[0][0], default=[])
        if not ranked or ranked[0][0] < floor:
            return None
        if across:  # (the rules asked in the model's order, until two answers are found)
            ranked = list(islice((pair for pair in ranked if allowed(pair[1])), 2))
            if not ranked or ranked[0][0] < floor:
                return None
        elif not allowed(ranked[0][1]):
            return None
        runner_up = ranked[1][0] if len(ranked) > 1 else -1.0
        return ranked[0][1] if ranked[0][0] - runner_up >= margin else None

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
        by_language: dict[str, list[Approved]] = {}
        for entry in entries:
            by_language.setdefault(entry.language, []).append(entry)
        self._words_only_in = words_only_in(
            {language: [f"{e.question} {e.answer}" for e in written] for language, written in by_language.items()}
        )
        self._indexes = {language: _Index.of(language, written) for language, written in by_language.items()}


def naming_the_same(
    message: str, entries: list[Approved], language: str, allowed: Callable[[Approved], bool]
) -> Approved | None:
    """Where the owner has no answers in the message's ``language``, the rules read only the things it
    names, which are the same in every language (:func:`things`): the one of ``entries`` (the owner's
    language's) whose question names them all, and nothing else but qualifiers ("new", "project"), when
    one answer alone does (its question naming the most) and the rules allow it: quoted, whole or without
    the circumstance the message adds (:meth:`ApprovedAnswers.match`), else asked about
    (:meth:`~ApprovedAnswers.offer`)."""
    typed = mended(message, language)
    mine = things(typed)
    plain = visitor_words().qualifiers
    # The words that name no thing cannot be compared across languages: beside a question of one thing
    # there may be none ("¿Trabajas con bancos?" is not "What kind of work do you do?"); of more, one.
    # A word of the visitor words for the question's own things is none of them ("cidade" in "Você
    # toparia se mudar de cidade?" is relocation's, as in "mudar de cidade"), as within one language.
    # Nor is a verb of accepting beside them.
    others = {
        word
        for word in words(typed)
        if word not in mine | plain and not common(word, language) and not word.startswith(ACCEPTING)
    }
    places = destinations(message, language)  # "…umzuziehen nach München?": a place to go, as within one language
    fits: dict[str, tuple[int, Approved]] = {}  # answer → the most things one of its questions names
    for entry in entries:
        theirs = things(entry.question)
        core = theirs - plain
        if not core or not core <= mine or mine - theirs - plain - working_beside(mine, core) - things(entry.answer):
            continue
        related = own_words(language, frozenset(t for thing in core for t in terms(thing, None, language)))
        added = len({word for word in others if stem(word, language) not in related | places})
        more = len(core) > fits.get(entry.answer, (0, entry))[0]
        if added <= (MAX_EXTRA if len(core) > 1 else 0) and more and allowed(entry):
            fits[entry.answer] = (len(core), entry)
    ranked = sorted(fits.values(), key=lambda pair: -pair[0])
    if not ranked or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
        return None
    return ranked[0][1]


def mended(text: str, language: str) -> str:
    """``text`` with each typing slip read as the visitor words' word it is one slip from ("in welcher
    zeitzne bist du" names the time zone): across languages no approved question of the visitor's
    language mends it. A name is no slip."""
    return " ".join(mend(spelled(text), text, visitor_vocabulary(language), language, MIN_MENDED))


def untimely(message: str, entry: Approved, language: str) -> bool:
    """Whether a clause of ``message`` that asks names a time, or asks when, that ``entry``'s question and
    answer do not (:meth:`Asked.apart`): "Wann endet Ihr aktuelles Projekt?" is only asked about."""
    asked = asked_as(entry.question, entry.answer, language)
    return any(asked.names_a_time(clause) for clause in asking_clauses(message))


def refused(message: str, entry: Approved, language: str) -> bool:
    """Whether ``message`` asks what ``entry`` does not say (:meth:`Asked.beyond`: the owner's price, how
    many, names), or every clause that asks is refused for a reason by ``entry``'s question
    (:meth:`Asked.refuses`), or names another thing (:meth:`Asked.names_another`) outside the circumstance
    it adds (:meth:`Asked.by_its_head`), all read as ``language``, the message's (a French "Êtes-vous…"
    read as English is "été", summer): then it is never asked about, whoever found it."""
    asked = asked_as(entry.question, entry.answer, language)
    clauses, _, asking = split_clauses(message)
    if any(asked.beyond(clause, asks) for clause, asks in zip(clauses, asking)):
        return True  # "Do you sign NDAs, and what's your day rate?", as :func:`score` reads it
    vocabulary = Vocabulary.of([entry.question], language)
    read = [
        (clause, of_now(terms(clause, vocabulary, language), language)) for clause, asks in zip(clauses, asking) if asks
    ]
    return all(
        asked.refuses(clause, mine) or (asked.names_another(mine) and not asked.by_its_head(clause, vocabulary))
        for clause, mine in read
        if clause.strip()
    )
