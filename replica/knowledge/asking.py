"""What a question asks besides its terms: whether it turns around ("Do you refuse to sign NDAs?"),
asks of the past (:mod:`replica.knowledge.past`), names a time ("…next week?"), asks of someone else
("What time zone is your colleague in?") or of what the visitor must do ("Will I have to sign an
NDA?"), which of the things the visitor words name it names, and
where a visitor who corrects themselves meant to start. :func:`~replica.knowledge.approved.score`
keeps a question apart from an approved one that shares its words but not these. And, read once for
every message, whether it asks anything at all, or only greets (:func:`asks`, :func:`is_question`,
:func:`is_greeting`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

from replica.knowledge import terms as reading
from replica.knowledge.terms import (
    common,
    mend,
    singular,
    spelled,
    stem,
    terms,
    visitor_vocabulary,
    visitor_words,
    words,
)
from replica.languages import detect, folded

# "your" in the languages read: "your colleague" asks of someone else.
YOUR = frozenset(
    "your ur tu tus teu tua teus tuas seu sua seus suas su sus ton ta tes votre vos dein deine deinen deiner deines ihr ihre ihren".split()
)
# One of the visitor's own people: "Are you working with any of our competitors?" asks of them.
OUR = frozenset("our nuestro nuestra nuestros nuestras nosso nossa nossos nossas notre nos unserer unseren".split())
ANY_OF = re.compile(
    r"\b(?:(?:any|some|one) of|(?:alguno|alguna|algun|algum|alguma|uno|una|um|uma) (?:de|dos|das)|(?:un|une) de"
    r"|einem|einer|irgendeinem)$"
)
# Words that turn a question around: an answer to "Do you sign NDAs?" does not answer "Do you refuse to…".
NEGATIONS = frozenset(
    {
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
)
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
    # and in the other languages read ("rechazas", "recusaste", "rejeitas", "evitas", "refusez",
    # "lehnst … ab", "verweigerst", "vermeidest"), whatever the ending
    "rechaz",
    "rehus",
    "recus",
    "rejeit",
    "rejet",
    "evit",
    "esquiv",
    "lehn",
    "verweiger",
    "weiger",
    "vermeid",
    "meid",
)
# "Te niegas a…", "se nega a…": the forms of Spanish and Portuguese "negar" asked of "you" (a stem would
# take in "negocio" too).
REFUSING = frozenset("niegas niega niegan negarias negaria negas nega negam negarse negarte negaste".split())
# Where a visitor takes back what they asked and asks again: "I mean" and the like anywhere; "actually",
# "wait", "no," and the like where a clause begins ("no wait", "oh actually" too). What they meant is
# what follows the last one.
CORRECTION = re.compile(
    r"\b(?:i\s+mean|i\s+meant|or\s+rather|scratch\s+that|strike\s+that|let\s+me\s+rephrase|never\s*mind)\b"
    r"|(?:^|[.!?;,:\n—–-])\s*(?:(?:no|oh|um|uh|er|hmm)[\s,]+)?"
    r"(?:(?:actually|rather|wait|oops|correction|nvm)\b|(?:no|sorry)\s*[,.:;!—–-])",
    re.I,
)
# Words that turn a question around in English but not in the language the text is in: Portuguese "no"
# and "na" are "in the" ("no momento").
GREETING = re.compile(
    r"^(hi|hello|hey|hiya|howdy|greetings|good (morning|afternoon|evening|day)|hallo|hola|bonjour|ciao|ola|olá)\b",
    re.I,
)
SMALL_TALK = re.compile(r"\b(there|who are you|how are you( doing)?|what's up|nice to meet you)\b", re.I)
# Words that turn a question around but mean something else in the message's language: Portuguese "no",
# "na" (in the), and "so", which is Portuguese "só" (only) read without its accent ("So what do you do?").
NOT_NEGATIONS = {
    "pt": frozenset({"no", "na", "nos", "nas"}),
    **{language: frozenset({"so"}) for language in ("en", "es", "fr")},
    "de": frozenset({"so", "ne", "nen"}),  # "unterschreibst du ne NDA?": "ne" is "eine" typed short
}
# A time a question may be asked about ("…next week?", "…on weekends?"): answered only by an answer that names it.
TIMES = frozenset(
    """today tonight tomorrow weekend weekends week weeks monday tuesday wednesday thursday friday saturday sunday
    morning mornings afternoon afternoons evening evenings night month year summer winter spring autumn christmas
    holiday holidays hoy manana semana semanas finde mes ano hoje amanha aujourdhui demain semaine
    mois annee heute morgen woche wochenende monat jahr january february march april june july august september
    october november december jan feb apr jun jul aug sep sept oct nov dec enero febrero marzo abril mayo junio julio
    agosto septiembre octubre noviembre diciembre janeiro fevereiro marco maio junho julho setembro outubro novembro
    dezembro janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre januar februar marz
    juni juli oktober dezember lunes martes miercoles jueves viernes sabado domingo terca quarta quinta sexta feira
    lundi mardi mercredi jeudi vendredi samedi dimanche montag dienstag mittwoch donnerstag freitag samstag sonntag
    immediately asap instantly straightaway inmediatamente enseguida imediatamente immediatement illico sofort
    umgehend unverzuglich schnellstmoglich baldmoglichst""".split()
)


# A question that begins by asking when asks a time, which only an answer that names one answers: "When does
# your current project end?" is not "What are you working on at the moment?", "When are you available?" is.
WHEN = "when"
ASKING_WHEN = frozenset("when cuando quando quand wann".split())
LEADING = frozenset("and so but ok y e et und".split())  # words before it: "And when…?"


# Where the circumstance a visitor adds to a question begins: "Do you sign NDAs | before a first call about our
# data?", "How can I reach you | to discuss a dbt audit?". What it names may be another thing while the
# question stays the owner's: the head is read as a question of its own, quoted as it would be alone
# (measured on issue 55's ninth table, written before: quoted rightly 43% → 49%, one near miss quoted,
# whose head alone is quoted too; python -m bench.matching). "for" and "from" are not among them: "Are you
# available | for a call?" asks of the call, "Do you need us to sign an NDA | from your side?" of who signs.
CIRCUMSTANCE = re.compile(
    r"\s(?:before|after|when|while|during|if|once|so that|so we|so i|because|since|to discuss|to talk about|about"
    r"|regarding|ahead of|prior to|in order to|(?<=you\s)to|(?<=contigo\s)para|(?<=com voce\s)para|(?<=com você\s)para"
    r"|starting|antes de|antes del|antes da|antes do|antes das|antes dos|después de|después del|despues de"
    r"|depois de|depois da|depois do|cuando|quando|mientras|enquanto|durante|si|se"
    r"|para hablar de|para falar de|sobre|acerca de|a partir de|desde|porque|avant de|avant|après|apres|lorsque"
    r"|quand|pendant|pour parler de|à partir de|dès|parce que|bevor|vor|wenn|falls|während|um über|über|ab|weil)\s"
    r"|\s(?:pour parler d|avant d|avant qu|après qu|apres qu|lorsqu|parce qu)['’]",  # French elides: "d'un"
    re.I,
)


# A place named as where the owner would go: "Would you relocate to London?", "¿Te mudarías a Madrid?",
# "vc toparia se mudar pra São Paulo?". It qualifies the question as "new" does: an answer about going
# answers it for any place (measured: read so, 14 more paraphrases quoted across the tables, no near miss;
# a name after "with" or "in" is not one: "Do you work with Databricks?", "What time is it in Lisbon?").
WHERE_TO = {"en": "to", "es": "a|para", "pt": "a|pra|para", "fr": "à|a|au", "de": "nach"}  # by language
# A place's name may hold a lower-case particle ("Ciudad de México", "Rio de Janeiro") and follow an
# article ("se mudar para o Brasil").
PLACE = r"(?:(?:the|el|la|o|os|a|as|le|les)\s+)?([A-ZÀ-Ý][\wÀ-ÿ]+(?:\s+(?:(?:de|do|da|del|dos|das|di)\s+)?[A-ZÀ-Ý][\wÀ-ÿ]+)*)"
DESTINATION = re.compile(
    rf"\b(?:{'|'.join(sorted({word for words in WHERE_TO.values() for word in words.split('|')}))})\s+{PLACE}"
)
# In a question of moving, a place one would be in is where one would go ("relocation for a contract in
# Zurich", "¿te reubicarías en Madrid?"), and so is "here" ("¿Te plantearías mudarte aquí?").
MOVING_IN = re.compile(rf"\b(?:in|en|em|no|na|nach)\s+{PLACE}")
HERE = frozenset("here aqui aca ca ici hier hierher".split())


# The owner having the visitor do something: the question's deed is then the visitor's ("Do you need us to
# sign an NDA?" is not "Do you sign NDAs?"), in English, Spanish and Portuguese (read folded).
VISITOR_DOES = re.compile(
    r"\b(?:ask|need|want|require|expect|make|force|tell)s?\s+(?:us|me)\s+to\b"
    r"|\b(?:nos|me)\s+(?:haras|haces|hara|hace|pediras|pides|pedira|pide|obligaras|obligas|exigiras|exiges"
    r"|faras|fazes|fara|faz|pedes|pede|obrigaras|obrigas|exige|pedir|obrigar|exigir)\b"
    # and Portuguese with the pronoun after the verb: "Vais pedir-nos para assinar…?"
    r"|\b(?:pedir|obrigar|exigir|fazer|pedes|pede|obrigas|obriga|exiges|exige)-(?:nos|me)\b"
)


# The deed a question asks the owner to do: the verb after "can you", "¿puedes…?", "pode…?", "pouvez-vous…?",
# read folded. Where it is none the question or its answer explains, the question asks another deed than
# the approved one, however much it shares ("Can you draft an NDA?" is not "Do you sign NDAs?").
ASKED_DEED = re.compile(
    r"\b(?:can|could|would|will|do|does)\s+(?:you|u|ya)\s+"
    r"(?:(?:also|ever|still|actually|maybe|possibly|please|even|really|usually|normally|generally|typically)\s+)*"
    r"([a-z]+)"
    r"|\b(?:puedes|podrias|podria|puede|podeis|pode|podes|poderia|poderias|podia|podias|consegue|consegues)"
    r"\s+(?:(?:nos|me|tambem|tambien)\s+)?([a-z]+)"
    r"|\b(?:pouvez|peux|pourriez|pourrais)[- ](?:vous|tu)\s+(?:(?:nous|me|aussi)\s+)?([a-z]+)"
)


def asked_deeds(text: str) -> list[str]:
    """The verbs ``text`` asks the owner to do (:data:`ASKED_DEED`): "draft" of "Can you draft an NDA?"."""
    return [word for found in ASKED_DEED.findall(folded(text)) for word in found if word]


ASKING = re.compile(
    r"\W*(?:what|who|whom|whose|where|when|why|how|which|do|does|did|are|is|was|were|can|could|would|will|have|has"
    r"|should|may|tell|share|give|send|show|explain|describe|list|let me know)\b",
    re.I,
)


def asks(message: str) -> bool:
    """Whether ``message`` asks something the owner could answer (a question, or a request to tell,
    share or explain), not a greeting or thanks."""
    return "?" in message or bool(ASKING.match(message))


def is_greeting(message: str, owner: str) -> bool:
    """A hello, perhaps with "who are you?", and nothing else to answer."""
    text = message.strip()
    if not GREETING.match(text):
        return False
    rest = SMALL_TALK.sub(" ", GREETING.sub(" ", text))
    return not (terms(rest) - terms(owner))


def is_question(message: str) -> bool:
    """Whether a message asks something worth passing on: a question mark or a question's first word
    ("what", "do", "are", "tell", …) with a meaningful word, or two meaningful words, besides any email
    address ("thanks!" and "my email is …" are not; "what about wrk" is)."""
    unaddressed = " ".join(word for word in message.split() if "@" not in word)  # an address is one "word"
    meaningful = terms(unaddressed) - {"email", "mail", "address"}
    return ("?" in message or asks(message)) and bool(meaningful) or len(meaningful) >= 2


@lru_cache(maxsize=16)
def topics(language: str = "en") -> frozenset[str]:
    """The terms of the things ``prompts/visitor_words.md`` names (availability, rates, NDAs…): a question
    of one of them is not a question of another ("How much do you charge for new projects?" is not
    "Are you available for new projects?")."""
    named = set(visitor_words().same.values()) - visitor_words().qualifiers
    return frozenset(term for word in named for term in terms(word, None, language))


@lru_cache(maxsize=16)
def now(language: str = "en") -> frozenset[str]:
    """The terms of the time of asking ("right now", "currently", "ahora": the visitor words' *moment*)."""
    return frozenset(terms("moment", None, language))


def things(text: str) -> frozenset[str]:
    """The things ``prompts/visitor_words.md`` names that ``text`` names, in whatever language it is
    written: they are the same words in all ("¿Firmas acuerdos de confidencialidad?" names sign and nda, as
    "Do you sign NDAs?" does)."""
    return frozenset(words(text)) & _thing_words()


@lru_cache(maxsize=1)
def _thing_words() -> frozenset[str]:
    return frozenset(word for thing in visitor_words().same.values() for word in thing.split())


@lru_cache(maxsize=16)
def qualifiers(language: str = "en") -> frozenset[str]:
    """The terms of the words ``prompts/visitor_words.md`` lists as qualifying a question rather than
    naming its thing ("new", "project"): a question need not repeat them, and may add them."""
    return frozenset(term for word in visitor_words().qualifiers for term in terms(word, None, language))


# Circumstances that say the opposite of each other: a question that adds one beside an answer that states
# the other ("Do you sign NDAs | after the project has started?" beside "Yes, before any detailed discussion")
# asks something else, whatever its head asks.
OPPOSITE_CIRCUMSTANCES = (
    ("before", "after"),
    ("antes", "despues"),
    ("antes", "depois"),
    ("avant", "apres"),
    ("bevor", "nachdem"),
    ("vor", "nach"),
)


def opposed(clause: str, stated: frozenset[str]) -> bool:
    """Whether a circumstance ``clause`` adds opens with the opposite of a word of ``stated`` (an answer's
    words, folded)."""
    for found in CIRCUMSTANCE.finditer(clause):
        opener = folded(found.group().split()[0])
        for one, other in OPPOSITE_CIRCUMSTANCES:
            if (opener == one and other in stated) or (opener == other and one in stated):
                return True
    return False


def heads(clause: str) -> list[str]:
    """``clause`` up to each place a circumstance begins (:data:`CIRCUMSTANCE`), each of two words or more:
    "Do you sign NDAs before we call about our data" has "Do you sign NDAs" and "Do you sign NDAs before we
    call"."""
    found = (clause[: at.start()] for at in CIRCUMSTANCE.finditer(clause))
    return [head for head in found if len(head.split()) >= 2]


def destinations(text: str, language: str = "en") -> set[str]:
    """The terms of the places ``text`` names as where the owner would go (:data:`DESTINATION`), and,
    where it asks of moving, of what the owner would go for (:data:`GOING_FOR`)."""
    places = DESTINATION.findall(text)
    if of_moving(text, language):
        places += MOVING_IN.findall(text) + [word for word in spelled(text) if word in HERE]
        after = LOWER_DESTINATION.get(language)
        if after and text == text.lower():  # "te mudarias a madrid": no capitals
            typed = [place for place in after.findall(text) if not common(folded(place), language)]
            vocabulary = visitor_vocabulary(language)  # and as a slip would be mended: "germany" as "german"
            places += typed + [word for place in typed for word in mend((folded(place),), place, vocabulary, language)]
        places += GOING_FOR.findall(folded(text))
    return {term for place in places for term in terms(place, None, language)}


# What one would move for, in a question of moving: an engagement of any kind ("Would you relocate for a
# full-time position?", "¿Te mudarías por un buen puesto?", "…moving here for the right engagement?"). Its
# words qualify the question as a place to go does; they would name other things (contracts, full-time work).
GOING_FOR = re.compile(
    r"\b(?:for|por|para|pelo|pela|pour|fur|fuer)\s+((?:[^\W\d_]+[\s-]+){0,3}?"
    r"(?:jobs?|roles?|positions?|engagements?|contracts?|projects?|opportunit(?:y|ies)|gigs?|offers?|clients?"
    r"|trabajos?|puestos?|empleos?|contratos?|proyectos?|oportunidad(?:es)?|laburos?|chambas?|emprego|empregos"
    r"|trabalhos?|vagas?|cargos?|projetos?|projectos?|oportunidades?|postes?|emplois?|travail|contrats?"
    r"|missions?|projets?|opportunites?|stellen?|vertrage?|vertraege|projekte?|auftrage?|auftraege|jobangebot))\b"
)
# A place typed without its capital, read only where the question is of moving ("r u willing to relocate to
# london"), after the word of its own language that says where to (English "a" is an article) or where in.
RELOCATION = "relocation"
WHERE_IN = {"en": "in", "es": "en", "pt": "em|no|na", "fr": "en", "de": "in"}
LOWER_DESTINATION = {
    language: re.compile(rf"\b(?:{where_to}|{WHERE_IN[language]})\s+([^\W\d_]+)")
    for language, where_to in WHERE_TO.items()
}


# The owner's role, named as what the owner is: "…as a freelancer?", "¿…como ingeniero de datos?", "What does a
# data engineer like you do?". It describes the one asked, as "you" does, and names no thing of its own; a
# role read as a thing ("contractor" as contract) still names it.
AS_ROLE = tuple(
    tuple(words.split())
    for words in "as a|as an|as|como un|como una|como um|como uma|como|enquanto|en tant que|comme|als".split("|")
)
LIKE_YOU = tuple(
    tuple(words.split())
    for words in "like you|como tu|como vos|como usted|como voce|como vc|comme vous|comme toi|wie sie|wie du".split("|")
)
ROLE_OF = frozenset("de do da des".split())  # "ingeniero de datos"
ROLE_WORDS = 3  # words a role may take: "freelance data engineer"
DROPS_YOU = ("es", "pt")


def roles(text: str, language: str = "en") -> set[str]:
    """The terms of the role ``text`` names the owner by (:data:`AS_ROLE`, :data:`LIKE_YOU`): where it asks
    of "you" ("What's it like relocating to Lisbon as a tech worker?" names no one), which Spanish and
    Portuguese may leave to the verb ("que servicios ofreces como freelance")."""
    if language not in DROPS_YOU and not names_you(text):
        return set()
    typed = spelled(text)
    people = visitor_words().others | {"freelance"}
    found: list[str] = []
    for at in range(len(typed)):
        for opening in AS_ROLE:
            if typed[at : at + len(opening)] == opening:
                after = at + len(opening)
                role = next((i for i in range(after, min(after + ROLE_WORDS, len(typed))) if typed[i] in people), None)
                if role is not None:
                    of = typed[role + 1 : role + 3] if typed[role + 1 : role + 2] and typed[role + 1] in ROLE_OF else ()
                    found += [*typed[after : role + 1], *of]
                break
        for closing in LIKE_YOU:
            if typed[at : at + len(closing)] == closing:
                before = [i for i in range(max(0, at - ROLE_WORDS), at) if typed[i] in people]
                if before:
                    found += typed[max(0, before[-1] - ROLE_WORDS + 1) : before[-1] + 1]
    return terms(" ".join(found), None, language) - topics(language) if found else set()


@lru_cache(maxsize=1024)
def of_moving(text: str, language: str) -> bool:
    """Whether ``text`` asks of moving, in the visitor words or with a slip of them ("would u relocat")."""
    if RELOCATION in words(text):
        return True
    return RELOCATION in words(" ".join(mend(spelled(text), text, visitor_vocabulary(language), language)))


def times(text: str, language: str = "en") -> set[str]:
    """The times ``text`` names ("next week" → week), as terms: read as the visitor words are, so that a
    time inside a phrase or an engagement's length ("for a 12-month contract") is none; in the plural too
    ("…on Fridays?"); and :data:`WHEN` when it asks when ("When does your current project end?")."""
    found = {stem(word, language) for word in words(text) if word in TIMES or singular(word) in TIMES}
    typed = [word for word in spelled(text) if word not in LEADING]
    return found | {WHEN} if typed and typed[0] in ASKING_WHEN else found


@lru_cache(maxsize=256)
def own_words(language: str, things: frozenset[str]) -> frozenset[str]:
    """The terms of the words visitors use for ``things`` (a question's own terms)."""
    return frozenset().union(*(fields(language).get(thing, frozenset()) for thing in things))


# The verb of the owner's work ("do you work", "trabajas", "arbeiten Sie"): beside a thing the question
# names, it only says the owner does it ("In welcher Zeitzone arbeiten Sie?" asks the time zone, as "What
# time zone do you work in?" does); alone, it asks the kind of work.
WORKING = "work"
# So do the verbs of accepting ("Aceitarias uma relocalização…?", "¿Aceptas firmar un NDA?"): beside a thing
# they frame the question; alone they may ask of availability ("accepting new clients"). Terms begin so.
ACCEPTING = ("accept", "aceit", "acept", "akzept")


# A question that asks how many, or for names, is answered only by an answer that counts or names: "How many
# clients are you working with at the moment?", "Which companies are you working for right now? Names please."
HOW_MANY = re.compile(r"\b(?:how many|cuant[oa]s|quant[oa]s|combien|wie viele|wieviele)\b")
NAMES = re.compile(
    r"\b(?:names|nombres|nomes|noms|namen|by name|por nombre|por nome|(?:the|el|o|le|den|die) (?:name|nombre|nome|nom)\b)"
)


def asks_how_many(text: str) -> bool:
    """Whether ``text`` asks how many."""
    return bool(HOW_MANY.search(folded(text)))


def asks_names(text: str) -> bool:
    """Whether ``text`` asks for names ("Any names I'd know?", "¿Me dices el nombre?"; not "my name is")."""
    return bool(NAMES.search(folded(text)))


# The kind of work a question of the owner's work names: "What kind of data engineering work do you do?",
# "¿Qué tipo de trabajo de ingeniería de datos haces?". It is the kind asked, which an answer of the owner's
# work tells.
KIND_OF_WORK = re.compile(
    r"\b(?:kinds?|types?|sorts?) of ((?:[^\W\d_]+[\s-]+){1,3}?)(?:work|projects?|engagements?)\b"
    r"|\b(?:tipos?|clases?) de (?:trabajos?|trabalhos?|proyectos?|projetos?|projectos?) de ((?:[^\W\d_]+\s+){0,2}[^\W\d_]+)"
)


def kind_of_work(text: str, language: str = "en") -> set[str]:
    """The terms of the kind of work ``text`` asks of (:data:`KIND_OF_WORK`), in words of meaning alone (not
    "What kind of laptop do you work on?")."""
    kinds = [kind.split() for match in KIND_OF_WORK.finditer(folded(text)) for kind in match.groups() if kind]
    found = [
        word
        for kind in kinds
        if not any(common(word, language) and word not in ROLE_OF for word in kind)
        for word in kind
    ]
    return terms(" ".join(found), None, language) if found else set()


# The owner's work asked of now is what the owner is working on: "Which clients are you working with at the moment?",
# "¿En qué andas trabajando ahora?", "What kind of work are you doing these days?" (beside no other thing).
WORKING_ON = "workingon"


def of_now(mine: set[str], language: str = "en") -> set[str]:
    """Terms ``mine`` with the owner's work, asked of now and of nothing else, read as what the owner is
    working on."""
    working = {stem(WORKING, language)}
    current = now(language)
    if not (mine & current and mine & working) or (mine & topics(language)) - working - current:
        return mine
    return (mine - working) | {stem(WORKING_ON, language)}


def working_beside(mine: set[str] | frozenset[str], core: frozenset[str]) -> frozenset[str]:
    """The terms of ``mine`` that name the owner's work (``WORKING``) or accepting beside a term of a
    question's ``core`` that lacks them: there they name no thing of their own."""
    if not mine & core:
        return frozenset()
    framing = {term for term in mine if term == WORKING or term.startswith(ACCEPTING)}
    return frozenset(framing) if not framing & core else frozenset()


@lru_cache(maxsize=256)
def others_words(language: str, things: frozenset[str]) -> frozenset[str]:
    """The terms that name another thing than ``things``: the other things, and the words visitors use
    for them ("call" is contact's)."""
    others = [words for thing, words in fields(language).items() if thing not in things]
    return (topics(language) - things).union(*others) - own_words(language, things)


# Words of advice in the visitor's deed ("should I", "¿qué me recomiendas?") and the words of "you", folded.
ADVICE = frozenset(
    """should shall ought recommend suggest advise better deberia deberiamos conviene recomiendas recomienda
    aconsejas aconseja recomiendan aconsejan deveria deveriamos devia deviamos recomenda recomendas aconselha
    aconselhas melhor devrais devrions devrait conseillez conseilles recommandez soll sollte sollen sollten
    empfehlen empfiehlst raten ratst""".split()
)
YOU = frozenset(
    """you youve your yours yourself u ur tu te ti contigo tus usted ustedes vos voce vc teu tua teus tuas seu sua
    consigo vous votre toi ton ta tes du dich dir dein deine ihr ihnen sie""".split()
)
# Others by a pronoun ("What time zone are they in?", "¿Ellos firman…?"): a question that names them, before
# any circumstance it adds, and not "you" asks of them ("Startups: do you work with them?" names you).
THEY = frozenset("they them their theirs ellos ellas eles elas ils elles eux leur leurs".split())
# Others named first, as what the question is about ("The agency you work with: does it sign NDAs?").
THE = frozenset("the el la los las o os as le les der die das".split())
# Who asks: a question in the first person ("How can I get in touch with you?") is asked of the visitor's deed.
FIRST_PERSON = frozenset("i we me us my our yo nosotros puedo podemos eu nos posso je nous puis ich wir".split())


def the_visitors_deed(text: str) -> bool:
    """Whether ``text`` asks what the visitor must or should do, or asks advice for themselves ("Will I
    have to sign an NDA?", "Where should I study?"), or whether the owner would have someone else do a
    thing ("¿Exiges que el cliente firme un NDA?"): ``prompts/visitor_words.md``'s "the visitor's deed"."""
    typed = spelled(text)
    found = phrases_in(typed, _deeds()) + _naming_whom(typed)
    # Advice that names the owner asks of the owner: "Which time zone should I assume for you?"
    return any(not (ADVICE & set(deed) and names_you(text)) for deed in found)


LINKING = frozenset("que a".split())  # "pides | al cliente | que firme": whom one has do it, named between


def _naming_whom(typed: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The deeds of two words that ``typed`` holds with up to three words between them, naming whom the owner
    would have do it: "¿Le pides al cliente que firme un NDA?" holds "pides que"."""
    return [
        deed
        for at, word in enumerate(typed)
        for deed in _deeds().get(word, ())
        if len(deed) == 2 and deed[1] in LINKING and deed[1] in typed[at + 2 : at + 5]
    ]


# A statement of the visitor's own state, as a clause opens, naming no "you": "I'm available from next month
# as well", "FYI our team is on Central European Time" are the visitor's news, not a question of the owner
# (by its pronoun: "Somos una startup, ¿trabajas con empresas así?" names no "you" either).
VISITOR_IS = frozenset(
    tuple(phrase.split())
    for phrase in """i am,i have,we are,we have,yo soy,yo estoy,nosotros somos,eu sou,eu estou,nos somos,je suis,
    nous sommes,j ai,nous avons,ich bin,wir sind,ich habe,wir haben""".split(",")
)
OURS = frozenset("my our mi nuestro nuestra meu minha nosso nossa mon ma notre mein meine unser unsere".split())
BEING = frozenset("is are es son esta estan e sao est sont ist sind".split())
OPENING = frozenset("fyi btw also and but so well ok oh hi hey y e et und".split())


def of_the_visitor(text: str) -> bool:
    """Whether ``text`` opens by telling of the visitor ("I'm free next month too", "our team is on CET"),
    naming no "you": it tells, and does not ask the owner."""
    typed = spelled(text)
    while typed and typed[0] in OPENING:
        typed = typed[1:]
    if not typed or names_you(text):
        return False
    ours = typed[0] in OURS and bool(BEING & set(typed[2:4]))
    return ours or typed[:2] in VISITOR_IS


def names_you(text: str) -> bool:
    """Whether ``text``, as typed, names the owner ("you", "tu", "vous", "dich"…)."""
    return bool(YOU & set(spelled(text)))


def in_the_first_person(question: str) -> bool:
    """Whether ``question`` is asked in the visitor's person ("How can I get in touch with you?")."""
    return bool(FIRST_PERSON & set(spelled(question))) or the_visitors_deed(question)


@lru_cache(maxsize=1)
def _deeds() -> dict[str, list[tuple[str, ...]]]:
    return by_first_word(deed for deed in visitor_words().deeds if deed)


def by_first_word(phrases: Iterable[tuple[str, ...]]) -> dict[str, list[tuple[str, ...]]]:
    """``phrases`` (each a tuple of words) by their first word, to find them in a text (:func:`phrases_in`)."""
    found: dict[str, list[tuple[str, ...]]] = {}
    for phrase in phrases:
        found.setdefault(phrase[0], []).append(phrase)
    return found


def phrases_in(typed: tuple[str, ...], phrases: dict[str, list[tuple[str, ...]]]) -> list[tuple[str, ...]]:
    """The ``phrases`` (:func:`by_first_word`) that the words ``typed`` hold, one for each place one begins."""
    return [
        phrase
        for at, word in enumerate(typed)
        for phrase in phrases.get(word, ())
        if typed[at : at + len(phrase)] == phrase
    ]


# Two named between which a question asks: of them, not of the owner ("…between Lisbon and Tokyo?").
BETWEEN = re.compile(r"\b(?:between|entre|zwischen)\s+([^\W_]+)\s+(?:and|y|e|et|und)\s+([^\W_]+)")


# Someone else the visitor asks the owner to know of: "Do you know anyone in Berlin who'd relocate?",
# "¿Me recomiendas a alguien que firme NDAs?" (not "We'd love someone who can move here").
SOMEONE_KNOWN = re.compile(
    r"\b(?:know|recommend|suggest|refer|conoces|conoce|recomiendas|recomienda|conheces|conhece|indicas|indica"
    r"|recomendas|recomenda|connaissez|connais|recommandez|kennst|kennen|empfiehlst|empfehlen)\b(?:\s+\S+){0,2}?"
    r"\s+(?:anyone|anybody|someone|somebody|alguien|alguem|quelqu.un|jemand|jemanden)\b"
)


def about_someone_else(text: str) -> bool:
    """Whether ``text`` asks about someone besides the owner ("What time zone is your colleague in?",
    "Which time zone are most of your clients in?"), or between two others ("What's the time difference
    between Lisbon and Tokyo?"), or of what the owner would have the visitor do
    ("Will you ask us to sign an NDA?", "¿Nos harás firmar un NDA?"), or names others and not you ("Are
    they all under NDA?"), or one of the visitor's own ("…any of our competitors?")."""
    plain = folded(text)
    if VISITOR_DOES.search(plain) or SOMEONE_KNOWN.search(plain):
        return True
    for pair in BETWEEN.findall(plain):  # "the time difference between Lisbon and Singapore"
        if not (YOU | FIRST_PERSON) & set(pair) and not any(word.isdigit() for word in pair):
            return True
    asked = text[: at.start()] if (at := CIRCUMSTANCE.search(text)) else text  # not "…before they share it"
    typed = spelled(asked)
    named_first = typed[:1] and typed[0] in THE and visitor_words().others & set(typed[1:2])
    if (THEY & set(typed) or named_first) and not names_you(text):
        return True
    found = words(text)
    others = visitor_words().others  # the next word or the one after: "your business partner"
    if any(
        ANY_OF.search(" ".join(found[max(0, at - 3) : at])) and others & set(found[at + 1 : at + 3])
        for at, word in enumerate(found)
        if word in OUR
    ):
        return True  # "Are you working with any of our competitors?"
    return any(word in YOUR and others & set(found[at + 1 : at + 3]) for at, word in enumerate(found))


def forget() -> None:
    """Empty the caches of words read (the bench times each message as a new visitor's)."""
    reading.forget()
    negations.cache_clear()


# A question that offers two halves asks its first: what turns the second around does not turn the question
# ("Do you take on tiny startups or only big cos?", "open 4 new work or fully booked"). (The plainer half was
# measured: it quoted "Você só trabalha com startups ou também com multinacionais?")
ALTERNATIVE = re.compile(r"\s(?:or|ou|oder)\s(?=\S)", re.I)
ALTERNATIVE_ES = re.compile(r"\s(?:o|u)\s(?=\S)", re.I)  # Portuguese "o" is "the"
SHORT_ALTERNATIVE = 4  # words: "…new projects | or fully booked?", "pegas startups pequeninas | ou só empresas grandes"


def halves(text: str) -> list[str]:
    """``text`` split where it offers an alternative (:data:`ALTERNATIVE`; in Spanish also "o", "u"): one
    piece, or the first half and the second."""
    found = ALTERNATIVE.split(text, maxsplit=1)
    return ALTERNATIVE_ES.split(text, maxsplit=1) if len(found) == 1 and detect(text) == "es" else found


def first_half(text: str) -> str:
    """``text`` up to the short alternative it offers, which is the "no" to what it asks (a longer second half
    may ask a question of its own)."""
    parts = halves(text)
    if len(parts) < 2 or len(parts[1].split()) > SHORT_ALTERNATIVE or FIRST_PERSON & set(spelled(parts[1])):
        return text  # "…take on, or are we too early?" asks of the visitor too
    return parts[0]


@lru_cache(maxsize=4096)
def negations(text: str) -> int:
    """How many words of ``text`` turn a question around ("not", "never", "refuse", "dont", "nunca", …), and
    phrases ("too busy", "booked up": ``prompts/visitor_words.md``; read before the visitor words, so that
    "too busy with" is not "too" and "working on"). A phrase that holds such a word counts as that word."""
    text = halves(text)[0]  # "…tiny startups | or only big cos?": the first half asks
    found, typed = words(text), spelled(text)
    singles, phrases = _turning()
    turning = len(phrases_in(typed, phrases))
    other_sense = NOT_NEGATIONS.get(detect(text), frozenset())
    negating = [
        word in singles or word in REFUSING or stem(word).startswith(NEGATING_STEMS)
        for word in found
        if word not in other_sense
    ]
    return turning + sum(negating)


@lru_cache(maxsize=1)
def _turning() -> tuple[frozenset[str], dict[str, list[tuple[str, ...]]]]:
    """The words that turn a question around, and the phrases that do (by their first word) which hold
    none of those words."""
    read = visitor_words()
    singles = NEGATIONS | read.turning_words
    return singles, by_first_word(phrase for phrase in read.turning if len(phrase) > 1 and not singles & set(phrase))


def corrected(text: str) -> str:
    """What the visitor meant to ask: ``text`` from its last correction on ("Do you sign NDAs? no, I mean
    do you avoid them" → " do you avoid them"); the whole of it when there is none, or when nothing
    that asks or turns around follows the correction ("Do you sign NDAs? I mean it.")."""
    found = list(CORRECTION.finditer(text))
    if not found:
        return text
    rest = text[found[-1].end() :]
    return rest if terms(rest) or negations(rest) else text


@lru_cache(maxsize=16)
def fields(language: str = "en") -> dict[str, frozenset[str]]:
    """For each thing ``prompts/visitor_words.md`` names (as its term), the terms of the words visitors
    use for it: "abroad" and "country" are relocation's, "meeting" contact's; a verb of accepting only frames
    one ("aceitas" of "aceitas projetos com…" is no word of work's)."""
    found: dict[str, set[str]] = {}
    for phrase, word in visitor_words().same.items():
        for thing in terms(word, None, language):
            found.setdefault(thing, set()).update(
                stem(w, language) for w in phrase if not common(w, language) and not folded(w).startswith(ACCEPTING)
            )
    return {thing: frozenset(field) for thing, field in found.items()}
