"""How people type, undone: the terms a question is matched by.

A message is lower-cased, accents folded; apostrophes may be missing ("whats", "dont"); chat shorthand
is spelled out ("r u" → "are you", "tz" → "time zone"); a word the approved questions or the visitor
words do not have, but one of theirs is one typing slip away from ("timezome", "get in tuch"), is read
as that word; the words visitors use for a thing are read as the one the matcher reads
(``prompts/visitor_words.md``: "bandwidth" is *available*); common words are dropped; each word is cut
to its stem (Snowball's stemmer for the language, so "relocate", "relocation" and "relocating" are one
term, and plurals too). What a question asks besides its terms (a negation, the past, a time, someone
else) is :mod:`replica.knowledge.asking`'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Callable

from bm25s.stopwords import STOPWORDS_PORTUGUESE, STOPWORDS_SPANISH

from replica.knowledge.prompts import pattern_sections
from replica.languages import COMMON as COMMON_IN
from replica.languages import folded, stem_in

WORD = re.compile(r"[^\W_]+", re.U)
VISITOR_WORDS_FILE = "visitor_words.md"
APOSTROPHE = re.compile(r"(?<=\w)['’](?=\w)")
# A pronoun's contraction, spelled out before apostrophes are dropped: "we're" is not "were", nor "we'd" "wed"
# ("you've" stays "youve": the past reads "youve worked" as it is).
CONTRACTED = re.compile(r"\b(i|you|we|they|he|she|it|who|what|there|that)['’](re|ll|d|m)\b")
SPELLED_OUT = {"re": "are", "ll": "will", "d": "would", "m": "am"}
# A digit typed for the word it sounds like, between two words and before no plural: "r u available 4 new
# work", "best way 2 reach u" ("2 projects", "in 4 weeks" stay numbers).
SOUNDED = re.compile(r"(?<=[a-z] )([24])(?= (?![a-z]+s\b)[a-z])")
SOUNDED_OUT = {"2": "to", "4": "for"}
COMMON = frozenset(
    folded(word)
    for word in set(
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
)  # Spanish and Portuguese ones too: a question in them may be read as English (LANGUAGES=en)
# "now" in all its forms is one term: "What are you working on right now?" is "…at the moment?" (read as chat
# shorthand is, prompts/visitor_words.md's, before anything else).
NOW = {
    "atm": "moment",
    "now": "moment",
    "currently": "moment",
    "presently": "moment",
    "nowadays": "moment",
    "lately": "moment",
}
# The span of time one is in is now, not a time an answer must name: "What are you working on this quarter?"
# is "…at the moment?" (folded, in the languages read: "este año" is "este ano"). A phrase of terms.py, not
# of the visitor words, whose every word would name the moment ("mes" in "un proyecto de tres meses").
THIS_SPAN = (
    "this week, this month, this quarter, this year, esta semana, este mes, este trimestre, este ano, neste mes, "
    "nesta semana, neste trimestre, neste ano, cette semaine, ce mois ci, ce trimestre, cette annee, diese woche, "
    "diesen monat, dieses quartal, dieses jahr"
)
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
    **{tuple(phrase.split()): "moment" for phrase in THIS_SPAN.split(", ")},
    ("full", "time"): "fulltime",
    ("part", "time"): "parttime",
}
LONGEST_PHRASE = max(len(phrase) for phrase in PHRASES)


# An engagement of a length, what a question is asked for, says how long, not what ("Are you available for a
# 6-month contract?", "¿Te mudarías por un contrato de dos años?"): its words carry nothing of what the
# question asks, or "contract" and "year" would name other things (contract terms, years of experience), and
# "month" a time the answer must name ("Would you relocate to London for a 12-month contract?" asks of no
# month). The object of a question's verb is not one ("Would you sign a 12-month contract?" asks of no NDA).
_AMOUNT = (
    r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|eighteen|un|una|uno|dos|tres|cuatro|cinco"
    r"|seis|siete|ocho|nueve|diez|doce|dieciocho|um|uma|duas|quatro|sete|oito|nove|dez|doze|dezoito|deux|trois"
    r"|quatre|cinq|sept|huit|neuf|dix|douze|ein|eine|einen|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn"
    r"|zwölf|half a|medio|meio)"
)
_SPAN = r"(?:months?|years?|weeks?|mes|meses|años?|anos?|semanas?|mois|ans?|semaines?|monate?n?|jahre?n?|wochen?)"
_ENGAGEMENT = (
    r"(?:contracts?|engagements?|contratos?|contrat|contrats|missions?|vertrag|verträge|vertrage|einsatz"
    r"|projects?|proyectos?|projetos?|projectos?|projets?|projekte?)"
)
_NEW = r"(?:new|nouvelle|nouveau|nuevo|nueva|novo|nova|neues|neuen)"
ENGAGEMENT_LENGTH = re.compile(
    r"\b(for|para|por|pour|für|fuer)\s+(?:(?:a|an|un|una|um|uma|une|ein|einen|einem)\s+)?"
    rf"(?:{_AMOUNT}[- ]{_SPAN}(?:[- ]long)? {_ENGAGEMENT}|(?:{_NEW} )?{_ENGAGEMENT} (?:de |of |von |d')?{_AMOUNT} {_SPAN})",
    re.IGNORECASE,
)
# How many people or how much money the visitor's company has, or a share, says how big it is, not what the
# question asks: "Do you work with startups of fewer than 20 employees?", "…a $1.5M seed round", "¿…menos de
# 10 personas?", "100% presencial" ask of no number (a number of anything else still does: "…in 2027?").
COUNTED = re.compile(
    r"\b(?:team|equipo|equipa|equipe|équipe)\s+(?:of|de)\s+\d+\b"
    r"|(?:[$€£]|r\$|\b)\s?\d[\d,.]*\+?\s?(?:%|(?:k|m|mm|bn|mil|million|millions|millones|milhões|milhoes|mio"
    r"|euros?|dollars?|dólares|dolares|reais|eur|usd|gbp)\b|[- ]?(?:person|people|ppl|employees?|staff|engineers?"
    r"|developers?|devs?|personas?|pessoas?|empleados?|funcionários?|funcionarios?|colaboradores?"
    r"|mitarbeiter(?:innen)?|personnes?|salariés?)\b)",
    re.IGNORECASE,
)
# A word written with a capital where no sentence begins: a name ("Are you on Slack?"), never a slip.
NAME = re.compile(r"(?<![.!?¿¡\n]\s)(?<![.!?¿¡\n])(?<!^)\b[A-ZÀ-Ý][a-zà-ÿ]+\b")
MIN_TYPO_LENGTH = 4  # shorter words are too easily another word one slip away
SHORTHAND_SLIP = re.compile(r"[b-df-hj-np-tv-xz]{3}")  # but "wrk" is a word typed without its vowel


@lru_cache(maxsize=4096)
def stem(word: str, language: str = "en") -> str:
    """The word's Snowball stem in ``language`` ("relocation" → "reloc"); in English, a plural ``s``
    Snowball keeps after a vowel is cut too ("NDAs" → "nda", as it is for "projects")."""
    stemmed = stem_in(word, language)
    if language == "en" and len(stemmed) > 3 and stemmed.endswith("s") and not stemmed.endswith(("ss", "us", "is")):
        stemmed = stemmed[:-1]
    return stemmed


def words(text: str) -> list[str]:
    """The message's words as typed, lower-cased, shorthand spelled out, phrases made one word, and the
    words visitors use for a thing read as the one the matcher reads (``prompts/visitor_words.md``); a
    length of engagement is not read (:data:`ENGAGEMENT_LENGTH`), nor a count of people or money
    (:data:`COUNTED`)."""
    return list(_words(text))


@lru_cache(maxsize=4096)  # a message is read against several candidates, clause by clause
def _words(text: str) -> tuple[str, ...]:
    return _read(_spelled_whole(text))


@lru_cache(maxsize=4096)
def _read(spelled: tuple[str, ...]) -> tuple[str, ...]:
    """``spelled`` with the words visitors use for a thing read as the one the matcher reads."""
    read = visitor_words()
    return tuple(_joined(list(spelled), read.same, read.longest, 1, _insertable(), read.either_number))


@lru_cache(maxsize=1)
def _insertable() -> frozenset[str]:
    """The words that may sit inside a visitor phrase (:func:`_joined`): qualifiers, everyday and common
    words, and "now" in its forms (read once: every message's words are joined with them)."""
    read = visitor_words()
    return read.qualifiers | read.everyday | COMMON | frozenset(NOW.values())


def spelled(text: str) -> tuple[str, ...]:
    """The words as typed, lower-cased, shorthand spelled out (before the visitor words are read)."""
    return _spelled(text)


def forget() -> None:
    """Empty the caches of words read."""
    _words.cache_clear()
    _spelled.cache_clear()
    _spelled_whole.cache_clear()
    _read.cache_clear()


@lru_cache(maxsize=4096)
def _spelled(text: str) -> tuple[str, ...]:
    """The words as typed, shorthand spelled out and :data:`PHRASES` joined (the visitor words not yet read)."""
    spelled: list[str] = []
    spelled_out = shorthand()
    plain = CONTRACTED.sub(lambda found: f"{found[1]} {SPELLED_OUT[found[2]]}", folded(text))
    plain = SOUNDED.sub(lambda found: SOUNDED_OUT[found[1]], plain)
    for word in WORD.findall(APOSTROPHE.sub("", plain)):
        spelled += spelled_out.get(word, word).split()
    return tuple(_joined(spelled, PHRASES, LONGEST_PHRASE, shortest=2))


@lru_cache(maxsize=4096)
def _spelled_whole(text: str) -> tuple[str, ...]:
    """``text`` spelled (:func:`_spelled`) without the length of an engagement or the counts it names."""
    return _spelled(COUNTED.sub(" ", ENGAGEMENT_LENGTH.sub(r"\1 ", text)))


def _joined(
    spelled: list[str],
    phrases: dict[tuple[str, ...], str],
    longest: int,
    shortest: int,
    inserted: frozenset[str] = frozenset(),
    either_number: dict[tuple[str, ...], str] | None = None,
) -> list[str]:
    """``spelled`` with each run of ``shortest`` to ``longest`` words that ``phrases`` names replaced by
    what it stands for (or, of two words or more, ``either_number`` names without their plurals); a phrase
    of two words or more may have one of ``inserted`` inside it, and one of three words or more two, which
    are kept after it ("open for new work" is "open for work" and "new"; "move for the right role" is "move
    for the role" and "right"; "so what exactly is it that you do" holds "what is it you do")."""

    def named(run: tuple[str, ...]) -> str | None:
        one = phrases.get(run)
        if not one and either_number and len(run) > 1:
            one = either_number.get(tuple(map(singular, run)))
        return one

    joined: list[str] = []
    at = 0
    while at < len(spelled):
        for size in range(longest, shortest - 1, -1):
            one = named(tuple(spelled[at : at + size]))
            if one:
                joined += one.split()
                at += size
                break
        else:
            found = _with_some_inside(spelled[at : at + longest + 2], named, inserted)
            if found:
                joined += found[0]
                at += found[1]
            else:
                joined.append(spelled[at])
                at += 1
    return joined


def _with_some_inside(
    window: list[str], named: Callable[[tuple[str, ...]], str | None], inserted: frozenset[str]
) -> tuple[list[str], int] | None:
    """The longest phrase ``named`` at the start of ``window`` with one word of ``inserted`` inside it, else the
    longest of three words or more with two: what it stands for, with those words, and how many words it
    took; ``None`` when there is none."""
    for size in range(len(window), 2, -1):
        for inside in range(1, size - 1):
            if window[inside] in inserted:
                one = named(tuple(window[:inside] + window[inside + 1 : size]))
                if one:
                    return [*one.split(), window[inside]], size
    for size in range(len(window), 4, -1):
        for first in range(1, size - 2):
            for second in range(first + 1, size - 1):
                if window[first] in inserted and window[second] in inserted:
                    rest = window[:first] + window[first + 1 : second] + window[second + 1 : size]
                    one = named(tuple(rest))
                    if one:
                        return [*one.split(), window[first], window[second]], size
    return None


IN_ONE_LANGUAGE = re.compile(r"([a-z]{2}):\s")  # a line of everyday words of one language: "fr: comment quel…"


@dataclass(frozen=True)
class VisitorWords:
    """What ``prompts/visitor_words.md`` says: the words visitors use for a thing (``same``: each as a
    tuple of words, to the word the matcher reads), the phrases that turn a question around, and the
    everyday words that never carry what a question asks."""

    same: dict[tuple[str, ...], str]
    turning: tuple[tuple[str, ...], ...]
    turning_words: frozenset[str]  # the phrases of one word: "nunca", "nicht"
    # the everyday words of every language; ``everyday_in``: of one language only (French "mes", my, is
    # Portuguese "mes", months)
    everyday: frozenset[str]
    others: frozenset[str]  # who a question may be about besides the owner: "your colleague", "your clients"
    qualifiers: frozenset[str]  # words that qualify a question rather than name its thing: "new", "project"
    deeds: tuple[tuple[str, ...], ...] = ()  # openings of a question of the visitor's deed: "will i have to"
    # ``same``'s phrases of two words or more, each word without a plural "s": "what projects are you on" is
    # "what project are you on" (the file lists one number; visitors write either).
    either_number: dict[tuple[str, ...], str] = field(default_factory=dict)
    everyday_in: dict[str, frozenset[str]] = field(default_factory=dict)

    @cached_property
    def longest(self) -> int:
        """The words of ``same``'s longest phrase (counted once: every message's words are joined by it)."""
        return max(map(len, self.same), default=1)


HEADINGS = ("same as", "turns it around", "everyday", "someone else", "the visitor's deed", "qualifiers", "shorthand")


@lru_cache(maxsize=1)
def _sections() -> dict[str, list]:
    """``prompts/visitor_words.md``'s sections, each as its lines (a line that does not parse stops the start)."""
    return pattern_sections(VISITOR_WORDS_FILE, list(HEADINGS), lines=HEADINGS)


@lru_cache(maxsize=1)
def shorthand() -> dict[str, str]:
    """Chat shorthand and what it spells out (``prompts/visitor_words.md``'s ``shorthand``: "cn" is "can",
    "cntg" "contigo"), and "now" in its forms (:data:`NOW`); read before anything else, in every language,
    after apostrophes are dropped ("what's" and "whats" are one)."""
    spelled_out = {}
    for line in _sections()["shorthand"]:
        meant, _, typed = line.partition(":")
        for short in typed.split(","):
            if short.strip():
                spelled_out[folded(short.strip())] = " ".join(WORD.findall(folded(meant)))
    return spelled_out | NOW


@lru_cache(maxsize=1)
def visitor_words() -> VisitorWords:
    """The file, read once (a line that does not parse stops the start, naming it)."""
    found = _sections()
    same: dict[tuple[str, ...], str] = {}
    for line in found["same as"]:
        word, _, used = line.partition(":")
        for phrase in used.split(","):
            spelled = tuple(WORD.findall(APOSTROPHE.sub("", folded(phrase))))
            if spelled:
                same[spelled] = word.strip().lower()
    turning = tuple(
        tuple(WORD.findall(folded(phrase)))
        for line in found["turns it around"]
        for phrase in line.split(",")
        if phrase.strip()
    )
    everyday_lines = [(IN_ONE_LANGUAGE.match(line), line) for line in found["everyday"]]
    everyday = frozenset(w for one, line in everyday_lines if not one for w in WORD.findall(folded(line)))
    everyday_in: dict[str, set[str]] = {}
    for one, line in everyday_lines:
        if one:
            everyday_in.setdefault(one[1], set()).update(WORD.findall(folded(line[one.end() :])))
    others = frozenset(w for line in found["someone else"] for w in WORD.findall(folded(line)))
    words = frozenset(phrase[0] for phrase in turning if len(phrase) == 1)
    qualifying = frozenset(w for line in found["qualifiers"] for w in WORD.findall(folded(line)))
    either = {tuple(map(singular, phrase)): word for phrase, word in same.items() if len(phrase) > 1}
    deeds = tuple(
        _spelled(phrase) for line in found["the visitor's deed"] for phrase in line.split(",") if phrase.strip()
    )
    return VisitorWords(
        same,
        turning,
        words,
        everyday,
        others,
        qualifying,
        either_number=either,
        deeds=deeds,
        everyday_in={language: frozenset(found) for language, found in everyday_in.items()},
    )


def singular(word: str) -> str:
    """``word`` without a plural "s" (of a word of five letters or more, not "…ss"): "projects",
    "proyectos", "clients"; in any of the languages read, as typed, for finding a phrase."""
    return word[:-1] if len(word) > 4 and word.endswith("s") and not word.endswith("ss") else word


def common(word: str, language: str = "en") -> bool:
    """Whether ``word`` is a common or everyday word (in English, or in ``language``), which carries
    nothing of what a question asks."""
    read = visitor_words()
    return (
        word in COMMON
        or word in read.everyday
        or word in COMMON_IN[language]
        or word in read.everyday_in.get(language, ())
    )


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


# The letter rows of the keyboards visitors type on (QWERTY, AZERTY, QWERTZ), each row set half a key right
# of the one above: a typing slip that changes a letter hits a key beside it ("tume" for "time"); a word
# one far letter from another is a word of its own ("viene" is not German "viele", "leste" not "feste").
KEYBOARDS = (
    ("qwertyuiop", "asdfghjkl", "zxcvbnm"),
    ("azertyuiop", "qsdfghjklm", "wxcvbn"),
    ("qwertzuiop", "asdfghjkl", "yxcvbnm"),
)
VOWELS = frozenset("aeiouy")
SOUNDING_ALIKE = ({"c", "s"}, {"c", "k"}, {"s", "z"})  # English spells these sounds either way: "servises"


@lru_cache(maxsize=1)
def _beside() -> frozenset[tuple[str, str]]:
    """The pairs of letters on keys side by side, on any of :data:`KEYBOARDS`."""
    pairs = set()
    for rows in KEYBOARDS:
        for r, row in enumerate(rows):
            for c, key in enumerate(row):
                near = [row[c - 1 : c], row[c + 1 : c + 2]]
                if r:
                    near += [rows[r - 1][c : c + 2]]
                if r + 1 < len(rows):
                    near += [rows[r + 1][max(c - 1, 0) : c + 1]]
                pairs |= {(key, other) for letters in near for other in letters}
    return frozenset(pairs | {(b, a) for a, b in pairs})


def keyed(typed: str, meant: str, language: str) -> bool:
    """Whether ``typed``, one slip from ``meant`` (:func:`one_slip`), could be ``meant`` mistyped: a letter
    added, dropped or swapped with its neighbour, or changed for one on a key beside it; or, in English,
    which spells sounds unlike it says them, one vowel for another ("availible") or "s" for "c"."""
    if len(typed) != len(meant):
        return True
    changed = [(a, b) for a, b in zip(typed, meant) if a != b]
    if len(changed) != 1:
        return True  # two neighbours swapped
    pair = changed[0]
    return pair in _beside() or (language == "en" and (set(pair) <= VOWELS or set(pair) in SOUNDING_ALIKE))


@dataclass
class Vocabulary:
    """The words of the approved questions, for reading a typing slip as the word meant; and, through
    :func:`visitor_vocabulary`, those of ``prompts/visitor_words.md`` (of five letters or more)."""

    language: str = "en"
    stems: set[str] = field(default_factory=set)
    _by_deletion: dict[str, set[str]] = field(default_factory=dict)
    base: "Vocabulary | None" = None

    @classmethod
    def of(cls, questions: list[str], language: str = "en") -> "Vocabulary":
        """The vocabulary of these questions' words (in ``language``), as typed: "kidn" is their "kind"."""
        vocabulary = cls(language, base=visitor_vocabulary(language))
        for question in questions:
            for word in _spelled(question):
                vocabulary.add(word)
        return vocabulary

    def add(self, word: str) -> None:
        self.stems.add(stem(word, self.language))
        if len(word) >= MIN_TYPO_LENGTH:
            for key in _deletions(word) | {word}:
                self._by_deletion.setdefault(key, set()).add(word)

    def known(self, word: str) -> bool:
        """Whether ``word`` (by its stem) is one of the vocabulary's, or of its ``base``, or one the visitor
        words hold, of any length, or an everyday word of its language ("ndas" is nda, not a slip of Spanish
        "andas"; "chat" of "chat with you" is not "what")."""
        return (
            stem(word, self.language) in self.stems
            or word in typed_words(self.language)
            or bool(self.base and self.base.known(word))
        )

    def meant(self, word: str) -> str:
        """``word`` as the approved questions (or the visitor words) spell it, when it is one slip from
        one of theirs (the first in alphabetical order when several are), or a word of three consonants
        that is one of theirs without its vowel ("wrk"); else ``word``."""
        if self.known(word) or not (len(word) >= MIN_TYPO_LENGTH or SHORTHAND_SLIP.fullmatch(word)):
            return word
        slips = sorted(self._slips(word)) or (sorted(self.base._slips(word)) if self.base else [])
        return slips[0] if slips else word

    def _slips(self, word: str) -> set[str]:
        near = set()
        for key in _deletions(word) | {word}:
            near |= self._by_deletion.get(key, set())
        return {candidate for candidate in near if one_slip(word, candidate) and keyed(word, candidate, self.language)}


@lru_cache(maxsize=16)
def typed_words(language: str) -> frozenset[str]:
    """The words ``prompts/visitor_words.md`` knows as visitors type them: its phrases' (of every length),
    and the everyday words of ``language``; never read as a slip of another word."""
    read = visitor_words()
    return (
        frozenset(word for phrase in read.same for word in phrase)
        | read.everyday
        | read.everyday_in.get(language, frozenset())
    )


@lru_cache(maxsize=16)
def visitor_vocabulary(language: str) -> Vocabulary:
    """The words of ``prompts/visitor_words.md``'s phrases, of five letters or more, for typing slips, and
    "now" in its forms ("currenly" is "currently")."""
    vocabulary = Vocabulary(language)
    for phrase in visitor_words().same:
        for word in phrase:
            if len(word) >= MIN_TYPO_LENGTH + 1 and not common(word, language):
                vocabulary.add(word)
    for word in NOW:
        if len(word) >= MIN_TYPO_LENGTH + 1:
            vocabulary.add(word)
    return vocabulary


def terms(text: str, vocabulary: Vocabulary | None = None, language: str = "en") -> set[str]:
    """The stems that carry ``text``'s meaning (read as ``language``): common words dropped, typing slips
    read as the ``vocabulary`` word meant, each cut to its stem; a length of engagement is not read
    (:data:`ENGAGEMENT_LENGTH`), nor a count of people or money (:data:`COUNTED`)."""
    spelled = _spelled_whole(text)
    if vocabulary:  # a slip is mended before the visitor words are read: "get in tuch" is "get in touch"
        spelled = mend(spelled, text, vocabulary, language)
    read = _read(spelled)
    return {stem(word, language) for word in read if not common(word, language)}


def mend(
    typed: tuple[str, ...], text: str, vocabulary: Vocabulary, language: str, shortest: int = 0
) -> tuple[str, ...]:
    """``typed`` (the words of ``text``) with each typing slip read as the ``vocabulary`` word meant; a
    common word, a name ("Slack" is not "stack") or a word shorter than ``shortest`` is none; in German,
    which writes every noun with a capital, a capital names no one ("Vertraulichkeitsvereinbrung")."""
    named = names(text) if language != "de" else frozenset()
    spelled_out = shorthand()  # a word mended is then read as typed so: "currenly" is "currently", "now"
    found: list[str] = []
    for word in typed:
        if len(word) < shortest or common(word, language) or word in named:
            found.append(word)
        else:
            meant = vocabulary.meant(word)
            found += spelled_out.get(meant, meant).split() if meant != word else [word]
    return tuple(found)


@lru_cache(maxsize=4096)
def names(text: str) -> frozenset[str]:
    """The words of ``text`` written as names are (:data:`NAME`), folded as :func:`spelled` folds them."""
    return frozenset(folded(name) for name in NAME.findall(text.strip()))
