"""Whether a question asks of the past, in the languages the replica reads: the owner's approved
answers speak of the present, so "Have you ever relocated?", "¿Has trabajado con startups?" or "Já
viveste fora?" is not what "Are you open to relocation?" asks.

Read from the words as typed (lower-cased, accents folded, shorthand spelled out): English by its
auxiliaries and words of time; Spanish, Portuguese, French and German by their perfect (an auxiliary
and a participle), the simple past of "you" (its endings are few and regular: "-aste", "-iste",
"-este"), their past forms of "be", "have" and "do", and their words that place a question in the
past ("alguna vez", "no passado", "l'année dernière", "früher"). Endings that the present shares are
read only where that present cannot be meant ("este", "existe", "contraste" are not the past).
"""

from __future__ import annotations

import re

from replica.knowledge.terms import spelled
from replica.languages import detect

ENGLISH = re.compile(
    r"\b(?:did|didnt|were|was|went|ago|used to|have you ever|has \w+ ever|ever been|previously|formerly|in the past"
    r"|back then|last year|last (?:month|week)(?! of)|have you (?:\w+ed|been|done|had|gone|taken|seen|made)"
    # what would have been: "If you had joined us in 2021, would you have relocated?"
    r"|(?:would|could|might) you have (?:\w+ed|been|done|had|gone|taken|seen|made))\b"
)
GERMAN_WHAT = re.compile(r"\bwas\b")
POLITE = re.compile(r"\b(?:was|were|i was|we were) (?:wondering|hoping|curious|thinking|told|asked|referred)\b")

_AGO_COUNT = r"(?:\d+|un|una|um|uma|unos|unas|uns|umas|dos|dois|duas|tres|cuatro|quatro|cinco|varios|varias|muchos|muitos|mucho|muito)"
_AGO_UNIT = r"(?:anos?|mes|meses|semanas?|dias?|tiempo|tempo)"
ELSEWHERE = re.compile(
    r"\b(?:"
    # Spanish and Portuguese: the perfect ("has trabajado", "ha firmado", "habías visto")
    r"(?:has|ha|han|habeis|hemos|habias|habia|hubieras|hubiera)\s+(?:\w+\s+)?"
    r"(?:\w{2,}(?:ado|ido|ados|idos)|hecho|dicho|visto|escrito|vuelto|puesto|abierto|roto|cubierto|resuelto)"
    # their past forms of be, have and do, and words of time
    r"|fuiste|fue|fuisteis|estuviste|estuvo|tuviste|tuvo|hiciste|hizo|estabas|estaba|tenias|tenia|eras"
    r"|foste|foi|fui|estiveste|esteve|tiveste|teve|fizeste|fez|estavas|estava|tinhas|tinha|eram"
    r"|alguna vez|alguma vez|anteriormente|en el pasado|no passado|el ano pasado|ano passado"
    r"|el mes pasado|la semana pasada|mes passado|semana passada"
    r"|hace "
    + _AGO_COUNT
    + r" "
    + _AGO_UNIT
    + r"|ha "
    + _AGO_COUNT
    + r" "
    + _AGO_UNIT
    # French and German words of time
    + r"|il y a (?:\d+|un|une|deux|trois|quelques|plusieurs) (?:ans?|annees?|mois|semaines?|jours?)"
    r"|lannee derniere|lan dernier|lannee passee|lan passe|le mois dernier|la semaine derniere"
    r"|auparavant|par le passe|autrefois|etiez vous|etais tu|vous etiez|tu etais"
    r"|schon mal|schonmal|schon einmal|jemals|fruher|letztes jahr|letzten monat|letzte woche"
    r"|vergangenes jahr"
    r"|vor (?:\d+|einem|einer|zwei|drei|vier|funf|ein paar|einigen|vielen) (?:jahr|jahren|monat|monaten|wochen?)"
    r"|damals|zuvor"
    r")\b"
)
# French and German perfect asked of "you", read with the accents and capitals as typed: a French
# participle by its accent ("signé", not "accès"), a German one in lower case ("gearbeitet", not the
# noun "Gespräch").
FRENCH = re.compile(
    r"\b(?:avez[- ]vous|as[- ]tu|vous avez|tu as|aviez[- ]vous|avais[- ]tu)\s+(?:(?:déjà|deja|jamais|souvent|bien|aussi)\s+)?"
    r"(?!(?:du|un|une|des|de|le|la|les|aussi|ici|besoin|envie|encore|toujours|tout)\b)\w+(?:é|ée|és|ées|i|is|it|u|us)\b",
    re.I,
)
GERMAN = re.compile(
    r"(?i:\b(?:hast du|haben sie|habt ihr|bist du|sind sie|seid ihr)\b).*\b(?=[a-zäöüß])\w*ge\w{3,}(?:t|en)\b"
    # the simple past of "be" and "have" ("warst du"), told by its vowel from "would" ("wärst du")
    r"|(?i:\b(?:warst du|waren sie|wart ihr|hattest du|hatten sie)\b)"
)
# The simple past of "you" in Spanish and Portuguese ("trabajaste", "hiciste", "viveste") and the
# imperfect ("trabajabas", "você trabalhava"; not Portuguese "-avas", which in Portugal asks "would you"
# as often as "did you": "mudavas-te para o Porto?"). The present shares these endings in a few words,
# named here.
YOU_DID = re.compile(r"\b\w{3,}(?:aste|iste|este|abas|aba|ava)\b")
PRESENT_ALIKE = frozenset(
    """contraste desgaste engaste traste toothpaste existe insiste consiste asiste resiste persiste desiste
    subsiste triste chiste artiste batiste investe veste reveste conteste proteste moleste empreste preste
    manifeste celeste agreste nordeste sudeste noroeste sudoeste oeste leste teste peste neste deste este
    aqueste contestes oitava""".split()
)
# English "you" as the subject of a past verb after a noun, not after an auxiliary or "if": "the NDA you
# signed", "an invoice you sent" (not "Are you based in…?", "if you moved…").
YOU_DID_EN = re.compile(r"\b(\w+) you (\w+)\b")
NOT_AFTER = frozenset(
    "are were do did does can could would will have has had should shall may might must r is was am if when whether".split()
)
DONE = frozenset(
    """sent made did wrote gave took built led ran told said sold bought brought taught thought found met left got
    knew saw spent won began chose drew drove flew grew held kept lost paid""".split()
)


def _you_did(plain: str) -> bool:
    return any(
        before not in NOT_AFTER and (verb in DONE or verb.endswith("ed")) for before, verb in YOU_DID_EN.findall(plain)
    )


# Portuguese "você trabalhou", "viveu", "partiu"; Spanish "usted trabajó" (its accent is what tells it
# from "trabajo"): read only in a text in that language, where these endings are the past's.
PORTUGUESE_DID = re.compile(r"\b\w{3,}(?:ou|eu|iu)\b")
PORTUGUESE_PRESENT = frozenset("estou sou vou dou tou moscou europeu museu chapeu judeu ateu liceu trofeu".split())
SPANISH_DID = re.compile(r"\b\w{3,}ó\b")


def past(text: str) -> bool:
    """Whether ``text`` asks of the past ("Have you ever relocated?", "What did you do at Mareva?",
    "¿Has trabajado antes con startups?", "Já viveste fora?", "Avez-vous déjà signé un NDA ?")."""
    plain = " ".join(spelled(text))
    language = detect(text)
    english = GERMAN_WHAT.sub(" ", plain) if language == "de" else plain  # German "was" is "what"
    if ENGLISH.search(POLITE.sub(" ", english)) or ELSEWHERE.search(plain) or (language == "en" and _you_did(plain)):
        return True
    if FRENCH.search(text) or GERMAN.search(text):
        return True
    if any(word not in PRESENT_ALIKE for word in YOU_DID.findall(plain)):
        return True
    if language == "pt":
        return any(word not in PORTUGUESE_PRESENT for word in PORTUGUESE_DID.findall(plain))
    if language == "es":
        return bool(SPANISH_DID.search(text.lower()))
    return False
