"""Each reply checked before the visitor reads it: nothing specific invented, no claim the records do not
back, no debris, nothing but the owner's voice (no framework talk, no answer about the owner their notes
do not hold, no promise the replica cannot keep); a question the reply could not answer is passed on.

The words stream as they come until the point where a specific or a claim may begin; from there the
sentence is held until it is complete and checked, so what is withheld never reaches the screen, and a
reply with nothing withheld reads exactly as the model wrote it. :meth:`ReplyCheck.visible` is asked as
the reply grows; :meth:`ReplyCheck.finish`, once it is done (its tools and the lead net run, so the
records are complete), decides the held sentences:

- a sentence holding a specific the sources do not hold is replaced by ``wording.NOT_IN_NOTES``,
  and the visitor's question is passed on (``inform_unknown``, with its de-duplication and caps);
- a claim that the visitor's address was saved, with no lead in the records, is replaced by the truth;
  a claim that a question was passed on, that the owner was told what the visitor said ("I'll let Jordan
  know you said hi"), or that the owner will follow up, is made true by passing the visitor's message on
  (or replaced, if that fails);
- a reply that declines ("I don't know") passes the question on, unless this message already did;
- framework talk (:mod:`replica.chat.voice`) is dropped; a promise is replaced by what is true (the owner
  will see the message, or an invitation to leave an address), and the question passed on;
- a yes, no or first-person answer whose topic the owner's sources do not hold
  (:mod:`replica.chat.about_owner`) is withheld like an invented specific.

The app's own sentences (:mod:`replica.wording`) are never checked. Words the model had begun a held
sentence with stay on screen, and the truth follows them after an ellipsis.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable

from replica import wording
from replica.chat.reply_check.about_owner import OwnerCheck, OwnerPatterns, OwnerTopics, OwnerWords
from replica.chat.reply_check.claims import Claim, ClaimPatterns
from replica.chat.reply_check.debris import FENCE, REPEATS, TEMPLATE_TOKENS, key, without_debris
from replica.chat.reply_check.specifics import Sources, Specific, specifics
from replica.chat.reply_check.voice import Voice, VoicePatterns
from replica.inbox.recorder import in_person
from replica.knowledge.asking import asks
from replica.knowledge.prompts import earliest

log = logging.getLogger(__name__)

# A finished sentence: up to its closing punctuation and the space after it, or to the end of its line.
SENTENCE_END = re.compile(r"[.!?…]+[\"'”’)\]*_]*(?=\s)\s*|\n\s*")
MARKUP_ONLY = re.compile(r"^[ \t]*[#`~*_>•=-]*[ \t]*$")
# Words that may open a claim ("I've …passed your question on"): held at the end of what shows, until
# the next word says whether a claim follows.
OPENERS = re.compile(
    r"(?:\b(?:i['’]?ve|i['’]?ll|i|we['’]?ve|we|have|has|had|will|been|just|already|also|your"
    r"|yes|sure|of course|absolutely|certainly|done|great|the|as|as an?|here|based|according|in|my|no)[,!]?\s+)+$",
    re.I,
)
# Where a promise may begin ("I'll …", "I'm going to …"): held from there until the sentence is whole.
FUTURE = re.compile(r"\b(?:i|we)\s*(?:['’]?ll|will|shall|am going to|['’]m going to|['’]m gonna|gonna)\b|\bill\s", re.I)
UNHELD = "statement about the owner"  # the kind the verdict names for a sentence about the owner nothing backs


class Plan(Enum):
    """What becomes of one sentence the stream did not show."""

    KEEP = "keep"
    DROP = "drop"  # debris: markup alone, a repeat, a fence nothing closes; and the machinery talking
    PROMISE = "promise"  # "I'll let you know": replaced by what is true
    WITHHOLD = "withhold"  # holds a specific the sources do not: replaced, and the question passed on
    FALSE_LEAD = "false lead"  # says the visitor's address was saved, with none on record: replaced
    MAKE_TRUE = "make true"  # says the question was passed on: made true by passing it on
    FALSE_QUESTION = "false question"  # says so of a message that asks nothing: replaced
    DECLINED = "declined"  # "I don't know": kept, and the question passed on


TRUTHS = {  # the sentence that stands in for a claim or a specific the records or sources do not back
    Plan.WITHHOLD: wording.NOT_IN_NOTES,
    Plan.FALSE_LEAD: wording.NO_ADDRESS_YET,
    Plan.FALSE_QUESTION: wording.NOTHING_PASSED_ON,
}


@dataclass(frozen=True)
class Records:
    """What this conversation's records say: a lead is kept, a question is on record, and whether this
    message already passed one on (or kept a lead: its alert carries the visitor's words too)."""

    lead: bool = False
    question: bool = False
    asked_now: bool = False
    lead_now: bool = False


@dataclass
class Verdict:
    """What the check did to one reply, for the log and the tests (kinds, never text)."""

    withheld: list[str] = field(default_factory=list)  # the kinds of the specifics withheld (and UNHELD)
    claims: list[str] = field(default_factory=list)  # the claims replaced, or made true
    voice: list[str] = field(default_factory=list)  # framework talk dropped, promises replaced
    passed_on: bool | None = None  # None: nothing needed passing on
    kept: int = 0  # sentences worth showing: the model's as it wrote them (not a word or two alone), and truths about the records

    @property
    def changed(self) -> bool:
        """Whether the check withheld, replaced or dropped any of the model's sentences."""
        return bool(self.withheld or self.claims or self.voice)


def app_sentences(owner: str) -> frozenset[str]:
    """Every sentence the app writes itself, as :func:`key` gives it: never checked."""
    found: set[str] = set()
    for name in dir(wording):
        value = getattr(wording, name)
        if name.isupper() and isinstance(value, str):
            text = value.replace("{owner}", owner)
            found.update(key(part) for part in re.split(r"(?<=[.!?])\s+", text) if "{" not in part)
    return frozenset(found - {""})


class ReplyChecker:
    """Makes each message's :class:`ReplyCheck`; what replies are checked against and for is read once:
    the owner's files whole (``knowledge``), the claim patterns, the app's own sentences."""

    def __init__(self, knowledge: str, owner: str):
        self.knowledge = Sources(knowledge, owner)  # the owner's name is always theirs to say
        self.vocabulary = OwnerWords(knowledge, owner)  # what is said of the owner is looked up here
        self.owner = owner
        self.patterns = ClaimPatterns.load()
        self.voice = VoicePatterns.load()
        self.topics = OwnerTopics(OwnerPatterns.load(), owner)
        self.exempt = app_sentences(owner)

    def begin(
        self, system: str, earlier: list[dict[str, Any]], message: str, on: bool = True
    ) -> "ReplyCheck | Unchecked":
        """The check for one message's reply (``on``: ``CHECK_REPLIES``). Its sources: the owner's files,
        the system prompt (the persona, the knowledge chosen, the learned answers, the records), the
        visitor's message, and the visitor's and the owner's words earlier in the conversation."""
        if not on:
            return Unchecked()
        owner = in_person(self.owner)
        spoken = [m["content"] for m in earlier if m["role"] == "user" or m["content"].startswith(owner)]
        owners = [m["content"] for m in earlier if m["role"] != "user" and m["content"].startswith(owner)]
        check = ReplyCheck(
            self.knowledge + Sources(system, message, *spoken),
            self.patterns,
            self.exempt,
            voice=self.voice,
            # What is said of the owner: their files, the persona with the answers, their own words; never the visitor's.
            about_owner=OwnerCheck(self.topics, message, self.vocabulary + OwnerWords(system, *owners)),
            owner_said=self.knowledge + Sources(*owners),
            owner=self.owner,
        )
        # A greeting or thanks is not passed on, nor a question about what was saved or passed on; words
        # the visitor asks to reach the owner ("tell Jordan I said hi") are.
        asking = asks(message) or self.patterns.asks_to_pass_on(message)
        check.askable = asking and not self.patterns.asks_about_records(message)
        return check


class Unchecked:
    """A reply as the model wrote it (``CHECK_REPLIES=false``): only its debris goes, once it is done."""

    verdict = Verdict()  # nothing is ever withheld

    def visible(self, text: str) -> str:
        return text

    def finish(self, text: str, records: Records, pass_on: Callable[[], bool]) -> str:
        return without_debris(text) or text


class ReplyCheck:
    """One reply's check, against ``sources``, with ``patterns`` for claims and ``voice`` for the owner's
    voice; ``exempt``: the app's own sentences (:func:`app_sentences`); ``about_owner`` finds what a
    sentence says of the owner that the owner's sources do not hold, given the visitor's question."""

    def __init__(
        self,
        sources: Sources,
        patterns: ClaimPatterns,
        exempt: frozenset[str],
        *,
        voice: VoicePatterns,
        about_owner: OwnerCheck,
        owner_said: Sources,
        owner: str = "",
    ):
        self.sources = sources
        self.patterns = patterns
        self.exempt = exempt
        self.voice = voice
        self.about_owner = about_owner
        self.owner_said = owner_said
        self.owner = owner
        self.out = ""  # the finished sentences shown, as shown
        self.pos = 0  # how much of the reply they cover
        self.partial = ""  # what is shown of the sentence being written
        self.held = False  # a sentence waits for the end: nothing after it shows before then
        self._shown: list[str] = []  # the keys of the finished sentences shown, in order
        self.askable = True  # the visitor's message asks something the owner could answer
        self.verdict = Verdict()  # what finish() did

    def visible(self, text: str) -> str:
        """What the visitor may read of ``text``, the reply so far; it only ever grows."""
        text = TEMPLATE_TOKENS.sub("", text)
        while not self.held:
            end = SENTENCE_END.search(text, self.pos)
            if not end:
                break
            sentence = text[self.pos : end.end()]
            if not self._fine_while_streaming(sentence):
                self.held = True
                break
            self.out, self.pos, self.partial = self.out + sentence, end.end(), ""
            if sentence.strip():
                self._shown.append(key(sentence))
        if not self.held:
            safe = self._safe_prefix(text[self.pos :])
            if len(safe) > len(self.partial):
                self.partial = safe
        return self.out + self.partial

    def finish(self, text: str, records: Records, pass_on: Callable[[], bool]) -> str:
        """The reply to show and record, ``text`` being the model's whole reply; ``pass_on()`` passes the
        visitor's question on (once, when needed) and says whether it is on record now. What was done
        is in :attr:`verdict`."""
        verdict = self.verdict
        self.visible(text)
        pairs = _sentences(TEMPLATE_TOKENS.sub("", text))
        # The sentences on screen stay as they are; should the finished reply differ from what streamed
        # (a turn that was all debris), the rest is checked from where they agree.
        agreed = 0
        while agreed < min(len(pairs), len(self._shown)) and key(pairs[agreed][0]) == self._shown[agreed]:
            agreed += 1
        head, rest = pairs[:agreed], pairs[agreed:]
        counts = {k: 1 for k in self._shown}
        for sentence, _ in rest:
            counts[key(sentence)] = counts.get(key(sentence), 0) + 1
        said = set(self._shown)
        code = _in_code(rest)
        plans = [
            code[i] or self._plan(sentence, records, counts, said, verdict) for i, (sentence, _) in enumerate(rest)
        ]
        unanswered = (Plan.WITHHOLD in plans or Plan.DECLINED in plans) and not records.asked_now
        promised = Plan.PROMISE in plans and not (records.question or records.asked_now)
        needs = Plan.MAKE_TRUE in plans or ((unanswered or promised) and self.askable)
        passed = pass_on() if needs else False
        verdict.passed_on = passed if needs else None
        final = "".join(sentence + space for sentence, space in head)
        verdict.kept = sum(len(key(sentence).split()) > 2 and not self._exempt(sentence) for sentence, _ in head)
        said_passed_on = False
        for index, ((sentence, space), plan) in enumerate(zip(rest, plans)):
            shown = self.partial if index == 0 and sentence.startswith(self.partial.strip()) else ""
            if plan is Plan.DROP:
                continue
            if plan in TRUTHS:
                final += _after(shown, TRUTHS[plan]) + space
                verdict.kept += plan is not Plan.WITHHOLD  # what the records say is worth reading
            elif plan is Plan.PROMISE:
                truth = wording.OWNER_WILL_SEE if records.lead else wording.LEAVE_AN_ADDRESS
                final += _after(shown, truth.format(owner=self.owner)) + space
                verdict.kept += 1  # what happens next is worth reading
            elif plan is Plan.MAKE_TRUE and not passed:
                final += _after(shown, wording.NOT_PASSED_ON) + space
                verdict.kept += 1
            else:
                final += sentence + space
                said_passed_on = said_passed_on or plan is Plan.MAKE_TRUE
                verdict.kept += len(key(sentence).split()) > 2 and not self._exempt(sentence)
        final = final.strip()
        if passed and not said_passed_on:
            final = f"{final}\n\n{wording.QUESTION_KEPT}".strip()
        log_verdict(verdict)
        return final

    def _fine_while_streaming(self, sentence: str) -> bool:
        """Whether a finished sentence may show at once (its fate does not wait for the records)."""
        if self._exempt(sentence) or not sentence.strip():
            return True
        if MARKUP_ONLY.match(sentence.strip()) or FENCE.match(sentence.strip()):
            return False  # debris, or a code block: both are settled at the end
        if key(sentence) in self._shown:
            return False  # said before: should it come a third time, it is debris, as the end tells
        if self.sources.missing(specifics(sentence)) or self.voice.fault(sentence) or self.about_owner.unheld(sentence):
            return False  # (a claim that is also a bare answer is held here, and settled as a claim at the end)
        return not self.patterns.claims(sentence) - {Claim.DECLINED}

    def _safe_prefix(self, partial: str) -> str:
        """How much of a sentence still arriving may show: up to its last whole word, and not past where
        a claim may begin (the words that may open one, "I've", "your", held with it), a specific not yet
        complete or not in the sources, or the start of a sentence said before."""
        if MARKUP_ONLY.match(partial.split("\n")[0]) and "\n" not in partial:
            return ""
        if key(partial) and any(shown.startswith(key(partial)) for shown in self._shown):
            return ""  # a sentence said before, perhaps again: a repeat is settled once it is whole
        cut = max(partial.rfind(" "), partial.rfind("\t"))
        judged = partial[: cut + 1] if cut >= 0 else ""
        stops = [len(judged)]
        holds = (self.patterns.hold_from, self.voice.hold_from, self.about_owner.hold_from, self._future)
        stops += [hold for held in holds if (hold := held(judged)) is not None]
        for found in specifics(judged):
            complete = judged[found.start + len(found.text) :].strip() != ""
            if not complete or not self.sources.holds(found):
                stops.append(len(judged[: found.start].rstrip("+($€£¥#")))
                break
        head = judged[: min(stops)]
        opener = OPENERS.search(head)
        return head[: opener.start()] if opener else head

    def _plan(self, sentence: str, records: Records, counts: dict[str, int], said: set[str], verdict: Verdict) -> Plan:
        """What becomes of one sentence the stream did not show."""
        if self._exempt(sentence) or not sentence.strip():
            return Plan.KEEP
        if MARKUP_ONLY.match(sentence.strip()):
            return Plan.DROP
        if counts.get(key(sentence), 0) >= REPEATS and key(sentence) in said:
            return Plan.DROP  # its first saying is kept; the others are debris
        said.add(key(sentence))
        fault = self.voice.fault(sentence)
        if fault is Voice.FRAMEWORK:
            verdict.voice.append(fault.value)
            return Plan.DROP
        missing: list[Specific] = self.sources.missing(specifics(sentence))
        if missing:
            verdict.withheld += [s.kind.value for s in missing]
            return Plan.WITHHOLD
        if fault is Voice.PROMISE and not self.owner_said.holds_phrase(self.voice.promised(sentence)):
            verdict.voice.append(fault.value)  # (a promise in the owner's own words is theirs to keep)
            return Plan.PROMISE
        claims = self.patterns.claims(sentence)
        if not claims - {Claim.DECLINED} and self.about_owner.unheld(sentence):  # a claim is about the records: below
            verdict.withheld.append(UNHELD)
            return Plan.WITHHOLD
        if Claim.LEAD in claims and not records.lead:
            verdict.claims.append(Claim.LEAD.value)
            return Plan.FALSE_LEAD
        unbacked = _unbacked(claims, records, self.askable)
        if unbacked:
            verdict.claims.append(unbacked.value)
            return Plan.MAKE_TRUE if self.askable else Plan.FALSE_QUESTION
        if Claim.DECLINED in claims:
            return Plan.DECLINED
        return Plan.KEEP

    def _exempt(self, sentence: str) -> bool:
        return key(sentence) in self.exempt

    def _future(self, partial: str) -> int | None:
        return earliest((FUTURE,), partial)


def _unbacked(claims: set[Claim], records: Records, askable: bool) -> Claim | None:
    """The first of the claims about what was passed on that the records do not back, or ``None``."""
    backing = {
        Claim.QUESTION: records.question,
        # "I'll let Jordan know you said hi" is about this message: what was passed on before does not back
        # it, unless this message asks nothing of the owner ("thanks!").
        Claim.TOLD: records.asked_now or records.lead_now or ((records.question or records.lead) and not askable),
        Claim.FOLLOW_UP: records.lead or records.question,
    }
    return next((claim for claim, backed in backing.items() if claim in claims and not backed), None)


def log_verdict(verdict: Verdict) -> None:
    """One line for each thing the check did (kinds, never text)."""
    if verdict.withheld:
        kinds = ", ".join(sorted(set(verdict.withheld)))
        log.warning("Reply check: withheld a sentence holding what the sources do not (%s)", kinds)
    if verdict.claims:
        log.warning("Reply check: a claim the records did not back (%s)", ", ".join(verdict.claims))
    if verdict.voice:
        log.warning("Reply check: not in the owner's voice (%s)", ", ".join(sorted(set(verdict.voice))))
    if verdict.passed_on is not None:
        log.info(
            "Reply check: the visitor's question %s", "passed on" if verdict.passed_on else "could not be passed on"
        )


def _sentences(text: str) -> list[tuple[str, str]]:
    """``text`` as (sentence, the spacing after it) pairs."""
    found, start = [], 0
    for end in SENTENCE_END.finditer(text):
        body = text[start : end.end()]
        stripped = body.rstrip()
        found.append((stripped, body[len(stripped) :]))
        start = end.end()
    if text[start:].strip():
        found.append((text[start:].rstrip(), ""))
    return found


def _in_code(pairs: list[tuple[str, str]]) -> list[Plan | None]:
    """For each sentence: keep inside a code block (a fence and what it holds: code is not checked),
    drop a fence nothing closes, ``None`` otherwise (the sentence is checked)."""
    fences = [i for i, (sentence, _) in enumerate(pairs) if FENCE.fullmatch(sentence.strip())]
    lone = fences[-1] if len(fences) % 2 else None
    marks: list[Plan | None] = [None] * len(pairs)
    inside = False
    for i, (sentence, _) in enumerate(pairs):
        if i == lone:
            marks[i] = Plan.DROP
        elif i in fences:
            marks[i], inside = Plan.KEEP, not inside
        elif inside:
            marks[i] = Plan.KEEP
    return marks


def _after(shown: str, truth: str) -> str:
    """The truth in place of a held sentence, after any words of it already on screen."""
    return f"{shown.rstrip()}… {truth}" if shown.strip() else truth
