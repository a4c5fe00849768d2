"""Which language a text is in, and how its words are cut to stems in it.

The owner names the languages their approved answers are written in (``LANGUAGES``, default ``en``). A
visitor's message is read as the language whose common words it uses most (``bm25s``'s stopword lists,
with a few question words, marks such as "¿" and "ç", and spellings such as "-ção" and "nh"); with no
such word, as the owner's first language. Each language has its Snowball stemmer (PyStemmer), so
"trabajas" and "trabajar" are one term in Spanish as "relocate" and "relocation" are in English.
Letters are compared without accents: visitors drop them ("disponivel", "esta").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from functools import lru_cache
from types import MappingProxyType

import Stemmer
from bm25s import stopwords

# Code → (Snowball algorithm, common words). The languages a visitor's message can be read as.
KNOWN = {
    "en": ("english", stopwords.STOPWORDS_EN_PLUS),
    "es": ("spanish", stopwords.STOPWORDS_SPANISH),
    "pt": ("portuguese", stopwords.STOPWORDS_PORTUGUESE),
    "fr": ("french", stopwords.STOPWORDS_FRENCH),
    "de": ("german", stopwords.STOPWORDS_GERMAN),
    "it": ("italian", stopwords.STOPWORDS_ITALIAN),
    "nl": ("dutch", stopwords.STOPWORDS_DUTCH),
}
# Words that mark a language though its stopword list lacks them (greetings, question words, "you").
MARKERS = {
    "en": "hi hello hey what where which would could you your anyone u r ur ya wat pls plz thx atm rn b4",
    "es": "hola donde cual cuanto cuantos tienes puedes usted ustedes estas eres quieres trabajas abierto gracias",
    "pt": "ola oi onde voce voces vc vcs pra oq tbm tb ne qual quais quanto podes tens estas obrigado obrigada trabalhas "
    "aberto nao sim assinas",
    "fr": "bonjour salut vous est ou quel quelle quels pouvez etes avez travaillez",
    "de": "hallo sie du wo welche welcher konnen kannst bist sind arbeitest arbeiten haben",
    "it": "ciao dove quale quanto puoi sei lavori",
    "nl": "hoi hallo waar welke kun kunt bent werk",
}
# Letters and marks that belong to one language or two more than the others: "ç" and "ê" are Portuguese or
# French, never Spanish ("Que serviços ofereces?", whose common words Spanish shares).
SIGNS = {
    "¿": ("es",),
    "¡": ("es",),
    "ñ": ("es",),
    "ã": ("pt",),
    "õ": ("pt",),
    "ß": ("de",),
    "ä": ("de",),
    "ö": ("de",),
    "ü": ("de",),
    "è": ("fr",),
    "ç": ("pt", "fr"),
    "ê": ("pt", "fr"),
    "ô": ("pt", "fr"),
    "â": ("pt", "fr"),
    "à": ("pt", "fr"),
}
SIGN_WEIGHT = 2
# Word endings that belong to one language ("-ção" is Portuguese, "-ción" Spanish), as folded.
ENDINGS = {"pt": ("cao", "coes", "dade", "dades", "agem", "inho", "inha"), "es": ("cion", "ciones", "dad", "dades")}
# Spellings inside a word that belong to one language: Portuguese "nh" and "lh" before a vowel ("trabalho",
# "tenho"), where Spanish writes "ñ" and "j" or "ll".
SPELLINGS = {"pt": re.compile(r"[a-z](?:nh|lh)[aeiou]")}
# A German verb of the second person before its "du" ("unterschreibst du", "arbeitest du"): "du" alone is
# French too ("du temps"), and a short German question may hold a French-looking word ("ne" for "eine").
ASKED_OF_YOU = {"de": re.compile(r"\b[a-zß]{3,}st du\b")}
LETTERS = re.compile(r"[^\W\d_]+")
LIGATURES = str.maketrans({"œ": "oe", "æ": "ae"})  # letters no accent is taken from: "cœur", "sœur"


def folded(text: str) -> str:
    """``text`` lower-cased, without accents ("Disponível" → "disponivel"; "cœur" → "coeur"; "ß" stays)."""
    decomposed = unicodedata.normalize("NFKD", text.lower().translate(LIGATURES))
    return "".join(character for character in decomposed if not unicodedata.combining(character))


def _common(code: str) -> frozenset[str]:
    return frozenset(folded(word) for word in KNOWN[code][1]) | frozenset(MARKERS[code].split())


COMMON = {code: _common(code) for code in KNOWN}


def language_codes(raw: str) -> tuple[str, ...]:
    """The codes of a ``LANGUAGES`` value ("en, es,pt" → ("en", "es", "pt")); ``ValueError`` naming an
    unknown one."""
    codes = tuple(dict.fromkeys(code.strip().lower() for code in raw.split(",") if code.strip()))
    unknown = [code for code in codes if code not in KNOWN]
    if unknown or not codes:
        raise ValueError(f"{', '.join(unknown) or 'nothing'}: use codes among {', '.join(KNOWN)}")
    return codes


@lru_cache(maxsize=4096)
def detect(text: str, first: str = "en") -> str:
    """The language ``text`` is written in, among :data:`KNOWN`: the one whose common words it uses most
    (a word several languages share counts for each in part), ``first`` when none or a tie."""
    return _likeliest(_scores(text), first)


def detect_among(text: str, first: str, own: Mapping[str, frozenset[str]]) -> str:
    """:func:`detect`, where the languages of ``own`` tie (on no common word, or the same ones) told apart
    by the words each alone uses there, folded: ``own`` holds, for each language the owner answers in,
    the words of those answers no other language's use. "Estás disponível para novos projetos?" shares
    its common words with Spanish; "novos" and "projetos" are the Portuguese answers' own."""
    score = _scores(text)
    best = max(score.values())
    tied = [code for code in own if score[code] == best]
    if len(tied) > 1:
        found = LETTERS.findall(folded(text))
        counts = {code: sum(word in own[code] for word in found) for code in tied}
        most = max(counts.values())
        if most and list(counts.values()).count(most) == 1:
            return max(counts, key=counts.__getitem__)
    return _likeliest(score, first)


def words_only_in(texts: Mapping[str, Iterable[str]]) -> dict[str, frozenset[str]]:
    """For each language's ``texts``, their words (folded) that no other language's texts use."""
    found = {code: frozenset(LETTERS.findall(folded(" ".join(written)))) for code, written in texts.items()}
    return {
        code: words - frozenset().union(*(w for other, w in found.items() if other != code))
        for code, words in found.items()
    }


def _likeliest(score: Mapping[str, float], first: str) -> str:
    best = max(score.values())
    if best == 0 or score[first] == best:
        return first
    return max(score, key=score.__getitem__)


@lru_cache(maxsize=4096)  # each step that reads a message asks its language (match, offer, the reply's words)
def _scores(text: str) -> Mapping[str, float]:
    score = dict.fromkeys(KNOWN, 0.0)
    plain = folded(text)
    for word in LETTERS.findall(plain):
        sharing = [code for code in KNOWN if word in COMMON[code]]
        for code in sharing:
            score[code] += 1 / len(sharing)
        for code, endings in ENDINGS.items():
            score[code] += word.endswith(endings) and not sharing
        for code, spelling in SPELLINGS.items():
            score[code] += bool(spelling.search(word)) and not sharing
    lower = text.lower()
    for code, asked in ASKED_OF_YOU.items():
        score[code] += SIGN_WEIGHT * bool(asked.search(plain))
    for sign, codes in SIGNS.items():
        for code in codes:
            score[code] += SIGN_WEIGHT * (sign in lower) / len(codes)
    return MappingProxyType(score)


@lru_cache(maxsize=16)
def _stemmer(code: str) -> Stemmer.Stemmer:
    return Stemmer.Stemmer(KNOWN[code][0])


@lru_cache(maxsize=8192)
def stem_in(word: str, code: str) -> str:
    """``word``'s Snowball stem in language ``code``."""
    return _stemmer(code).stemWord(word)
