"""What is done after each answer, declared once, in order (built in :mod:`replica.wiring`).

Every reply the replica makes, with a model or without one, from the page, ``eval`` or MCP, goes through
the same :class:`Steps` once its words are written: each step reads the :class:`~replica.chat.draft.Draft`
and the run (what the tools did) and may change the words or add one of the app's sentences. A new
check is one more step in the list. A step that fails is logged and passed over: it never costs the
visitor the reply.
"""

from __future__ import annotations

import logging
from typing import Callable, Iterable, Protocol

from replica import wording
from replica.chat.draft import Draft, Note
from replica.chat.lead_net import NOTES, OUTAGE_NOTES, keep_lead
from replica.chat.reply_check.question_net import pass_question_on, records_of
from replica.chat.run import Checked, Did, Ended, Stepped
from replica.chat.without_model import WithoutModel
from replica.contacts import Verifier
from replica.storage import Store
from replica.tools import Outcome, ToolRegistry

log = logging.getLogger(__name__)


Say = Callable[[str, str], str]  # (sentence, the visitor's message) -> the sentence in its language, the owner named


class Step(Protocol):
    """One thing done after the answer: what it did, or ``None``. ``when_stopped``: also for a reply the
    visitor stopped."""

    when_stopped: bool

    def __call__(self, draft: Draft) -> Did | None: ...


class Steps:
    """The steps after the answer, run in the order given; what each did is recorded in the run."""

    def __init__(self, steps: Iterable[Step]):
        self.steps = tuple(steps)

    def run(self, draft: Draft, stopped: bool = False) -> None:
        """Run each step on ``draft`` (``stopped``: only those that also hold for a reply the visitor stopped)."""
        for step in self.steps:
            if stopped and not step.when_stopped:
                continue
            try:
                did = step(draft)
            except Exception:  # a bug in one step: the reply stands as the others leave it
                log.exception("The step %s failed after an answer", type(step).__name__)
                continue
            if did is not None:
                draft.run.add(Stepped(type(step).__name__, did))


class LeadNet:
    """An email address in the visitor's message that no tool call covered is kept through
    ``gather_user_details`` (:mod:`replica.chat.lead_net`), and the visitor told, in their language; also
    when they stopped the reply. A reply made without a model has cast this net already: it is told here
    all the same, unless its words say it."""

    when_stopped = True

    def __init__(self, registry: ToolRegistry, say: Say):
        self.registry = registry
        self.say = say

    def __call__(self, draft: Draft) -> Did | None:
        if not draft.run.lead_net_ran:
            notes = OUTAGE_NOTES if draft.apology else NOTES
            keep_lead(draft.message, self.registry, draft.context, draft.run, notes)
        if not draft.run.netted_lead:
            return None
        sentence = self.say(wording.LEAD_KEPT if draft.sorry else wording.LEAD_NOTED, draft.message)
        # After an apology, in its own words: "…try again in a minute. I did pass your email address on, though."
        if draft.apology:
            draft.apology = f"{draft.apology} {sentence}"
            return Did.NOTED_LEAD
        if draft.apologised and Note.LEAD not in draft.told:  # a reply without a model that began by apologising
            draft.words = f"{draft.words} {sentence}"
            draft.told |= {Note.LEAD}
            return Did.NOTED_LEAD
        return Did.NOTED_LEAD if draft.add_note(sentence, Note.LEAD) else None


class CheckReply:
    """The model's finished words are checked (:mod:`replica.chat.reply_check`) against the records in
    ``store``: what is not backed is withheld or made true, and a question the reply could not answer is
    passed on through ``inform_unknown``. When nothing of the model's words is left worth showing (all
    withheld or dropped, or all but a word or two), the visitor gets what a reply without a model says
    to the message (``without_model``): an approved answer, or the question passed on."""

    when_stopped = False

    def __init__(self, store: Store, registry: ToolRegistry, without_model: WithoutModel):
        self.store = store
        self.registry = registry
        self.without_model = without_model

    def __call__(self, draft: Draft) -> Did | None:
        check = draft.check
        if check is None:
            return None
        records = records_of(self.store, draft.context, draft.run)
        pass_on = lambda: pass_question_on(draft.message, self.registry, draft.context, draft.run)  # noqa: E731
        draft.words, draft.check = check.finish(draft.words, records, pass_on), None
        verdict = check.verdict
        draft.run.add(Checked(tuple(verdict.withheld), tuple(verdict.claims), tuple(verdict.voice)))
        if verdict.changed and not verdict.kept:
            log.info(
                "Reply check: nothing of the model's words was worth showing; the visitor gets the reply without a model"
            )
            reply = self.without_model.reply(draft.message, draft.context, draft.run, wording.NOT_IN_NOTES)
            draft.run.add(Ended(reply.ended))
            draft.words, draft.told, draft.apologised = reply.text, draft.told | reply.told, reply.apologised
            return Did.ANSWERED_WITHOUT_MODEL
        return Did.CHECKED


class SaveFailedNote:
    """The visitor is told, in their language, when something they gave could not be saved (the database
    was down)."""

    when_stopped = False

    def __init__(self, say: Say):
        self.say = say

    def __call__(self, draft: Draft) -> Did | None:
        if Outcome.SAVE_FAILED not in draft.run.outcomes:
            return None
        added = draft.add_note(self.say(wording.SAVE_FAILED, draft.message), Note.SAVE_FAILED)
        return Did.NOTED_SAVE_FAILED if added else None


class CodeOffer:
    """A message that left a lead gets a code mailed to the address, when verified contacts are on
    (:mod:`replica.contacts`), and the visitor is told in one sentence naming the address.

    One code per message: a visitor has one address to prove, and the chat reads one code at a time (a
    code typed back could not say which address it is for). Any further address of the message is a lead
    as well: with ``required`` it is passed on at once, marked as not confirmed."""

    when_stopped = True  # a lead the visitor stopped the reply on is offered its code all the same

    def __init__(self, verifier: Verifier | None):
        self.verifier = verifier

    def __call__(self, draft: Draft) -> Did | None:
        if self.verifier is None or not self.verifier.on:
            return None
        session, leads = draft.context.session_id, list(dict.fromkeys(draft.run.saved_leads))
        sentences = [self.verifier.offer(session, email, draft.context.address) for email in leads[:1]]
        sentences += [self.verifier.one_per_message(session, email) for email in leads[1:]]
        said = [sentence for sentence in sentences if sentence]
        if not said:
            return None
        if self.verifier.mode == "required":
            draft.drop_note(Note.LEAD)  # not passed on yet: the verifier's sentence says what became of it
        return Did.OFFERED_CODE if draft.add_note(" ".join(said), Note.CODE) else None


class BookingOffer:
    """A message that left a lead is offered the owner's booking page (``OWNER_BOOKING``), once."""

    when_stopped = False

    def __init__(self, booking_url: str | None):
        self.booking_url = booking_url

    def __call__(self, draft: Draft) -> Did | None:
        if not self.booking_url or Outcome.LEAD_SAVED not in draft.run.outcomes or self.booking_url in draft.text:
            return None
        added = draft.add_note(wording.BOOK_A_TIME.format(link=self.booking_url), Note.BOOKING)
        return Did.OFFERED_BOOKING if added else None
