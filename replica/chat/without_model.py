"""Replies without a model: with none configured, and whenever the model cannot answer (unreachable or
failing after retries, the deadline before any words, the day's budget spent, every model lane busy).

The visitor gets the owner's approved answer when one matches (framed to say where it comes from), the
greeting when they greet; anything else is captured as the tools would capture it: an email address in
their words becomes a lead, a question is passed on to the owner, and the visitor is told so honestly.
No network call is made.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from replica import wording
from replica.chat.did_you_mean import Said, offer_text, pending, said
from replica.chat.draft import Note
from replica.chat.lead_net import OUTAGE_NOTES, keep_lead
from replica.chat.run import Ending, Run, Source, ToolRan
from replica.knowledge.approved import ApprovedAnswers
from replica.knowledge.asking import is_greeting, is_question
from replica.knowledge.faq_files import Approved
from replica.tools import Outcome, ToolContext, ToolRegistry, inform_unknown

QUESTION_CHARS = 500  # of a message passed on as a question
STEP_WORDS = 4  # a reply without a model streams this many words at a time
FRAMES = {"faq": wording.FROM_FAQ, "profile": wording.FROM_PROFILE, "learned": wording.FROM_LEARNED}  # by source


@dataclass(frozen=True)
class Reply:
    """A reply made without a model, and why it ended that way (for the message's log line); ``told``, what
    its words already tell that a step after the answer would otherwise add (:mod:`replica.chat.steps`);
    ``apologised``, that they begin by saying why the model did not answer."""

    text: str
    ended: Ending
    told: frozenset[Note] = frozenset()
    apologised: bool = False


class WithoutModel:
    """Answers from ``answers`` as ``owner``; captures through the tools in ``registry``; greets with ``greeting``."""

    def __init__(self, answers: ApprovedAnswers, registry: ToolRegistry, owner: str, greeting: str):
        self.answers = answers
        self.registry = registry
        self.owner = owner
        self.greeting = greeting

    def reply(
        self,
        message: str,
        context: ToolContext,
        run: Run,
        apology: str = "",
        spike: bool = False,
        earlier: Sequence[dict[str, Any]] = (),
    ) -> Reply:
        """The reply to ``message``, what its tools did added to ``run``; ``apology`` says why the model did
        not answer ("" when there is no model); with ``spike`` (every model lane busy), the reply is the one
        made with no model, after a sentence saying why it is short. ``earlier``, the conversation before
        it: when the last reply asked "Did you mean…?" (:mod:`replica.chat.did_you_mean`), a yes quotes that
        answer and a no passes the earlier question on."""
        language = self.answers.language_of(message)
        reply = self._made(message, context, run, apology, earlier, language)
        if spike:
            return Reply(f"{self._in(wording.SPIKE, language)} {reply.text}", reply.ended, reply.told, reply.apologised)
        return reply

    def _made(
        self,
        message: str,
        context: ToolContext,
        run: Run,
        apology: str,
        earlier: Sequence[dict[str, Any]],
        language: str,
    ) -> Reply:
        offered = pending(list(earlier), self.answers.entries) if not apology else None
        answer = said(message, offered.approved.question) if offered is not None else Said.OTHER
        if offered is not None and answer is Said.YES:
            self.answers.confirmed(offered.asked, offered.approved)  # the next visitor who asks so is asked at once
            return self._quote(offered.approved, offered.language)
        # The address kept and what could not be saved are told by the steps after the answer, as for a
        # model's reply (replica.chat.steps): one way, in the visitor's language, for both.
        lead = keep_lead(message, self.registry, context, run, OUTAGE_NOTES, Source.WITHOUT_MODEL)
        question = message
        if offered is not None and answer is Said.NO:  # the question asked about before, and any word added
            language, question = offered.language, offered.passed_on(message)
        elif is_greeting(message, self.owner) and not lead:
            return Reply(self.greeting, Ending.GREETING)
        elif match := self.answers.match(message):
            return self._quote(match.approved, language)
        elif offered is None and not apology and is_question(message) and (offer := self.answers.offer(message)):
            return Reply(offer_text(offer.approved.question, language), Ending.CLOSE_OFFERED)  # never two in a row
        passed = Outcome.QUESTION_SAVED in run.outcomes  # the model passed it on before it failed
        if not passed and (answer is Said.NO or is_question(message) and not (lead and "?" not in message)):
            result = self.registry.call(inform_unknown, context, question=question[:QUESTION_CHARS])
            run.add(ToolRan("inform_unknown", Source.WITHOUT_MODEL, result))
            passed = Outcome.QUESTION_SAVED in run.outcomes
        if lead and not passed and not apology:  # an address, and nothing asked: no "I don't have one for that"
            return Reply(self._in(wording.LEAD_ONLY, language), Ending.LEAD_KEPT, told=frozenset({Note.LEAD}))
        sentences = [self._in(apology or wording.NO_WRITTEN_ANSWER, language)]
        sentences += [self._in(wording.QUESTION_KEPT, language)] * passed
        if not (apology or passed or lead):
            sentences.append(self._in(wording.LEAVE_AN_ADDRESS, language))
        ending = Ending.QUESTION_PASSED_ON if passed else Ending.LEAD_KEPT if lead else Ending.NO_ANSWER
        return Reply(" ".join(sentences), ending, apologised=bool(apology))

    def _quote(self, approved: Approved, language: str) -> Reply:
        """``approved``'s answer, framed to say where it comes from, in the visitor's ``language``; one line
        first when the answer is written in another."""
        text = self._in(FRAMES[approved.source], language).replace("{answer}", approved.answer)
        if approved.language != language:
            name = wording.language_name(approved.language, language)
            text = f"{self._in(wording.IN_ANOTHER_LANGUAGE, language).format(language=name)}\n\n{text}"
        return Reply(text, Ending.APPROVED_ANSWER)

    def _in(self, sentence: str, language: str) -> str:
        """``sentence`` in ``language`` where the shipped wording has it, the owner named."""
        return wording.in_language(sentence, language).replace("{owner}", self.owner)

    def said(self, sentence: str, message: str) -> str:
        """``sentence`` in the language ``message`` is written in, where the shipped wording has it, the
        owner named."""
        return self._in(sentence, self.answers.language_of(message))


def in_steps(text: str) -> Iterator[str]:
    """``text`` growing a few words at a time, as a model's reply streams."""
    words = re.findall(r"\S+\s*", text)
    for end in range(STEP_WORDS, len(words), STEP_WORDS):
        yield "".join(words[:end]).rstrip()
    yield text
