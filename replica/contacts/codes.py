"""Codes: six digits from :mod:`secrets`, kept only as a keyed hash; and a code read as people type it.

The key is made from the app's salt (kept in the database, the same on every instance and after a
restart), so every instance checks a code the same way; the database alone never tells a code (the
hash is keyed), and a code is never written anywhere else but the visitor's mail.

A message is read for codes only in a chat waiting for one (:mod:`replica.contacts.verifier` decides
that); :func:`read` then finds the six-digit numbers that are given as a code, in the table of
``tests/contacts/tables/typed_codes.py``: alone, with a few words, or named ("my code is …"), in any
script's digits; a number the message marks as something else (a budget, a phone number, an order, a
date, a quantity) is kept whole.
"""

from __future__ import annotations

import bisect
import hashlib
import hmac
import re
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Literal

DIGITS = 6
Cue = Literal["code", "elsewhere"]  # what a word near a number names: a code, or something else
MASK = "••••••"
# CJK scripts write no spaces between words: a number beside them still stands alone ("コードは４８２９１３です").
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff66-\uff9f"
_SPACE = "[ \u00a0\u2007\u2009\u202f\u3000]"
_DASH = "[\\-\u2010-\u2015\u2212\ufe63\uff0d]"
_SEPARATOR = f"(?:{_SPACE}?{_DASH}{_SPACE}?|[.\uff0e]|{_SPACE})"
# Digit groups joined by a space, a dash or a dot ("482 913", "482-913", "٤٨٢٩١٣"), standing alone: not
# inside a word, nor part of a number written with thousands separators ("1,482,913", "150.000,00").
NUMBER = re.compile(rf"(?<![^\W{_CJK}])(?<![.,])\d+(?:{_SEPARATOR}\d+)*(?![^\W{_CJK}])(?![.,]\d)")
GROUP = re.compile(r"\d+")
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
# A dot between digits ("482.913") ends nothing, nor one after an abbreviation that names what follows ("Tel. 555 123").
SENTENCE_END = re.compile(
    r"(?<!\btel)(?<!\bref)(?<!\bnr)(?<!\bno)(?<!\bnum)(?<!\bnúm)(?<!\bext)\.(?!\d)|[!?;…\n¿¡。！？]", re.I
)
CLAUSE_BREAK = re.compile(r",(?!\d)|[:;—–()\"“”]|\s-\s")
# Right before a number: a phone's "+", a reference's "#", a currency; right after: a currency or a percentage.
MARKED_BEFORE = re.compile(r"(?:[+#№$€£¥₹₽₩]|\bn[º°]|R\$|US\$)\s*$", re.I)
MARKED_AFTER = re.compile(r"^\s*[€$£¥₹₽%‰]")
# The words that name the code the chat waits for, in the languages visitors write in.
CODE_WORDS = frozenset(
    "code codes otp pin passcode código codigo códigos clave bestätigungscode verifizierungscode zahlencode "
    "sicherheitscode einmalcode".split()
)
# A "code" that is another one: "zip code", "código postal", "promo code".
CODE_QUALIFIERS = frozenset(
    "zip postal post area promo promotional discount coupon voucher gift country dialing dialling tracking "
    "order booking reference ref qr source tax sort swift bic product item bar de descuento desconto "
    "promocional área rabatt gutschein".split()
)
# Words that make a number something else: money, a phone, a document's number, a place, a time, a count.
ELSEWHERE_WORDS = frozenset(
    (
        # money
        "budget budgets price prices pricing cost costs rate rates salary salaries pay paid payment fee fees "
        "revenue turnover funding investment quote eur euro euros usd dollar dollars gbp pound pounds chf brl "
        "reais pesos thousand million grand annual annually yearly monthly presupuesto precio coste costo "
        "salario sueldo tarifa pago facturación orçamento preço custo salário pagamento faturamento prix coût "
        "salaire tarif paiement preis kosten gehalt honorar umsatz betrag tausend "
        # a phone
        "phone telephone tel mobile cell call calling ring whatsapp fax dial extension ext teléfono telefono "
        "móvil movil llámame llamame llama llamar celular telefone ligue liga ligar telemóvel téléphone "
        "portable appelez appeler appelle joindre telefon handy anrufen rufen ruf mobil "
        # a document's or an order's number
        "order orders invoice ticket case ref reference booking reservation tracking account iban policy contract "
        "referencia referência référence referenz pedido "
        "factura reserva encomenda fatura commande facture réservation bestellung rechnung buchung auftrag "
        "vertrag kundennummer "
        # a place
        "postcode zip postal plz postleitzahl cep street road avenue room suite floor calle rua rue straße "
        "strasse "
        # a time
        "year years date born since day days month months week weeks año años fecha ano anos année ans jahr "
        "jahre datum seit "
        # a count
        "users customers clients people employees staff members visitors subscribers followers downloads views "
        "units pieces items copies rows records lines km miles kg lb lbs usuarios clientes personas empleados "
        "usuários pessoas funcionários utilisateurs personnes employés nutzer kunden mitarbeiter personen"
    ).split()
)
LEAD_IN = 120  # characters either side of a number where its words are looked for (a long message stays quick)
FEW_WORDS = 8  # a number with no word naming it is a code in a clause of at most this many words
# "send it again", "a new code", "resend", "I didn't get it": a visitor asking for another code.
AGAIN = re.compile(
    r"\b(?:re-?send|send\b.{0,20}\bagain|(?:new|another|fresh)\s+(?:one|code)"
    r"|(?:did|does|has|have|is)\s*n[o'’]?t\s+(?:(?:yet\s+)?(?:get|got|receive|received|arrive|arrived|come|reach|reached)|here)"
    r"|never\s+(?:got|came|arrived)|no\s+code|not\s+(?:received|arrived)|reenv[ií]a|otro\s+c[oó]digo|nuevo\s+c[oó]digo"
    r"|reenvi[ae]|outro\s+c[oó]digo|novo\s+c[oó]digo|renvoy|nouveau\s+code|neuen?\s+code|erneut\s+senden)",
    re.I,
)
# What may open the rest of a code's sentence that asks something else: a clause break, or "and", "also".
REST_OPENS = re.compile(r"^\s*(?:[,;:—–\-]|(?:and|also|plus|btw|y|también|e|também|et|aussi|und|auch)\b)", re.I)
REST_WORDS = 4  # other words besides the code are worth an answer past this many, or with a question mark


def new_code() -> str:
    """Six digits, from :mod:`secrets`."""
    return f"{secrets.randbelow(10**DIGITS):0{DIGITS}d}"


class CodeKey:
    """Hashes codes with the app's key (made from ``salt``): a code's hash is bound to its row."""

    def __init__(self, salt: str):
        self._key = hmac.new(salt.encode(), b"replica contact code", hashlib.sha256).digest()

    def digest(self, code_id: int, code: str) -> str:
        """The keyed hash of ``code`` for the code row ``code_id``."""
        return hmac.new(self._key, f"{code_id}:{code}".encode(), hashlib.sha256).hexdigest()

    def matches(self, code_id: int, code: str, digest: str | None) -> bool:
        """Whether ``code`` is the one hashed as ``digest`` for row ``code_id`` (in constant time)."""
        return digest is not None and hmac.compare_digest(self.digest(code_id, code), digest)


@dataclass(frozen=True)
class Reading:
    """A message read for codes: the codes given, in order (ASCII digits), the message with each of them
    masked, and what else it says that asks for an answer ("" when nothing does)."""

    codes: tuple[str, ...]
    masked: str
    rest: str


def ascii_digits(text: str) -> str:
    """The decimal digits of ``text``, of any script (Arabic-Indic, full-width, …), as ASCII digits."""
    return "".join(str(unicodedata.decimal(char)) for char in text if char.isdecimal())


def read(message: str) -> Reading:
    """The codes ``message`` gives, as a chat waiting for a code reads it (see the module's docstring)."""
    spans = [span for number in NUMBER.finditer(message or "") for span in _candidates(number)]
    if not spans:
        return Reading((), message, "")
    breaks = _Breaks(message, SENTENCE_END), _Breaks(message, CLAUSE_BREAK)
    codes = [(start, end) for start, end in spans if _given_as_code(message, start, end, *breaks)]
    if not codes:
        return Reading((), message, "")
    masked, last = [], 0
    for start, end in codes:
        masked += [message[last:start], MASK]
        last = end
    masked.append(message[last:])
    return Reading(
        tuple(ascii_digits(message[start:end]) for start, end in codes), "".join(masked), _rest(message, codes)
    )


def _candidates(number: re.Match) -> list[tuple[int, int]]:
    """The six-digit codes a run of digit groups may be: the whole run when it has six digits ("482 913"),
    or each of its groups when every one has six ("482913 482913"); else none."""
    groups = list(GROUP.finditer(number.group()))
    if sum(len(group.group()) for group in groups) == DIGITS:
        return [number.span()]
    if len(groups) > 1 and all(len(group.group()) == DIGITS for group in groups):
        return [(number.start() + group.start(), number.start() + group.end()) for group in groups]
    return []


class _Breaks:
    """Where ``pattern`` breaks ``text`` (its marks' spans), found once, and the stretch around a place."""

    def __init__(self, text: str, pattern: re.Pattern):
        self.marks = [mark.span() for mark in pattern.finditer(text)]
        self.starts = [start for start, _ in self.marks]
        self.length = len(text)

    def around(self, start: int, end: int) -> tuple[int, int]:
        """Where the stretch holding ``start``–``end`` begins (after the break before it) and ends (at the
        break after it)."""
        before = bisect.bisect_left(self.starts, start) - 1
        after = bisect.bisect_left(self.starts, end)
        begins = self.marks[before][1] if before >= 0 else 0
        return begins, self.marks[after][0] if after < len(self.marks) else self.length


def _words(text: str) -> list[str]:
    return [word.lower() for word in WORD.findall(text)]


def _given_as_code(message: str, start: int, end: int, sentences: _Breaks, clauses: _Breaks) -> bool:
    """Whether the number at ``start``–``end`` is given as a code: nothing beside it marks it as money, a
    phone or a reference; then the nearest word naming a code or something else decides (words before it
    in its sentence, words after it in its clause); with neither, a clause of few words."""
    if MARKED_BEFORE.search(message[max(0, start - 4) : start]) or MARKED_AFTER.match(message[end : end + 3]):
        return False
    sentence_start, sentence_end = sentences.around(start, end)
    clause_start, clause_end = clauses.around(start, end)
    # Nearest first.
    before = _words(message[max(sentence_start, start - LEAD_IN) : start])[::-1]
    after = _words(message[end : max(end, min(clause_end, sentence_end, end + LEAD_IN))])
    cues = [(distance, kind) for words in (before, after) for distance, kind in _cues(words)]
    if _date_shaped(message[start:end]):
        return any(kind == "code" for _, kind in cues)
    if cues:
        return min(cues, key=lambda cue: (cue[0], cue[1] != "elsewhere"))[1] == "code"
    clause = message[max(clause_start, sentence_start, start - LEAD_IN) : min(clause_end, sentence_end, end + LEAD_IN)]
    return len(_words(clause)) <= FEW_WORDS


def _cues(words: list[str]) -> list[tuple[int, Cue]]:
    """Each word of ``words`` (nearest the number first) that names a code ("code") or something else
    ("elsewhere"), with its distance."""
    found: list[tuple[int, Cue]] = []
    for index, word in enumerate(words):
        if word in CODE_WORDS:
            qualified = {*words[max(0, index - 1) : index], *words[index + 1 : index + 2]} & CODE_QUALIFIERS
            found.append((index + 1, "elsewhere" if qualified else "code"))
        elif word in ELSEWHERE_WORDS:
            found.append((index + 1, "elsewhere"))
    return found


def _date_shaped(number: str) -> bool:
    """Whether ``number`` reads as a date: three groups of two digits, joined by dots or dashes, one of them
    a month and another a day ("04.12.26", "26-12-04")."""
    groups = GROUP.findall(number)
    if len(groups) != 3 or re.search(_SPACE, number) or any(len(group) != 2 for group in groups):
        return False
    first, second, third = (int(ascii_digits(group)) for group in groups)
    return (second <= 12 and (first <= 31 or third <= 31)) or (first <= 12 and second <= 31)


def _sentences(message: str) -> list[tuple[int, int]]:
    """Where each sentence of ``message`` begins and ends (its closing mark with it; "¿" and "¡" open one)."""
    spans, start = [], 0
    for mark in SENTENCE_END.finditer(message):
        cut = mark.start() if mark.group() in "¿¡" else mark.end()
        spans.append((start, cut))
        start = cut
    spans.append((start, len(message)))
    return [(start, end) for start, end in spans if message[start:end].strip()]


def _rest(message: str, codes: list[tuple[int, int]]) -> str:
    """What ``message`` says besides its codes that asks for an answer: its sentences that hold no code,
    and what follows the last code of a sentence after a clause break or an "and" ("482913, and your rate?")."""
    parts = []
    for start, end in _sentences(message):
        last = max((code_end for code_start, code_end in codes if start <= code_start < end), default=None)
        if last is None:
            parts.append(message[start:end])
        elif REST_OPENS.match(message[last:end]):
            trailing = message[last:end].strip()
            parts.append(trailing.lstrip(",;:—–- ") if trailing[:1] in ",;:—–-" else trailing)
    rest = " ".join(" ".join(part.split()) for part in parts)
    asks = re.search(r"[?¿？]", rest) or len(_words(rest)) > REST_WORDS
    return rest if asks else ""


def asks_again(message: str) -> bool:
    """Whether ``message`` asks for another code."""
    return bool(AGAIN.search(message or ""))
