"""What is done after each answer, declared once, in order (built in :mod:`replica.wiring`).

Every reply the replica makes, with a model or without one, from the page, ``eval`` or MCP, goes through
the same :class:`Steps` once its words are written: each step reads the :class:`~replica.chat.draft.Draft`
and the run (what the tools did) and may change the words or add one of the app's sentences. A new
check is one more step in the list. A step that fails is logged and passed over: it never costs the
visitor the reply.
"""

from __future__ import annotations

import logging
from typing import Iterable, Protocol

from replica import wording
from replica.chat.draft import Draft
from replica.chat.lead_net import NOTES, OUTAGE_NOTES, keep_lead
from replica.chat.reply_check.question_net import pass_question_on, records_of
from replica.chat.run import Checked, Ended
from replica.chat.without_model import WithoutModel
from replica.contacts import Verifier
from replica.storage import Store
from replica.tools import Outcome, ToolRegistry

log = logging.getLogger(__name__)


class Step(Protocol):
    """One thing done after the answer. ``when_stopped``: also for a reply the visitor stopped."""

    when_stopped: bool

    def __call__(self, draft: Draft) -> None: ...


class Steps:
    """The steps after the answer, run in the order given."""

    def __init__(self, steps: Iterable[Step]):
        self.steps = tuple(steps)

    def run(self, draft: Draft, stopped: bool = False) -> None:
        """Run each step on ``draft`` (``stopped``: only those that also hold for a reply the visitor stopped)."""
        for step in self.steps:
            if stopped and not step.when_stopped:
                continue
            try:
                step(draft)
            except Exception:  # a bug in one step: the reply stands as the others leave it
                log.exception("The step %s failed after an answer", type(step).__name__)


class LeadNet:
    """An email address in the visitor's message that no tool call covered is kept through
    ``gather_user_details`` (:mod:`replica.chat.lead_net`), and the visitor told; also when they stopped
    the reply. A reply made without a model has cast this net already."""

    when_stopped = True

    def __init__(self, registry: ToolRegistry):
        self.registry = registry

    def __call__(self, draft: Draft) -> None:
        if draft.run.lead_net_ran:
            return
        notes = OUTAGE_NOTES if draft.apology else NOTES
        if not keep_lead(draft.message, self.registry, draft.context, draft.run, notes):
            return
        if draft.apology:  # said in the apology's own words: "…try again in a minute. Your address is kept."
            draft.apology = f"{draft.apology} {wording.LEAD_KEPT}"
        else:
            draft.add_note(wording.LEAD_NOTED)


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

    def __call__(self, draft: Draft) -> None:
        check = draft.check
        if check is None:
            return
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
            draft.words = reply.text


class SaveFailedNote:
    """The visitor is told when something they gave could not be saved (the database was down)."""

    when_stopped = False

    def __call__(self, draft: Draft) -> None:
        if Outcome.SAVE_FAILED in draft.run.outcomes:
            draft.add_note(wording.SAVE_FAILED)


class CodeOffer:
    """A message that left a lead gets a code mailed to the address, when verified contacts are on
    (:mod:`replica.contacts`), and the visitor is told in one sentence naming the address.

    One code per message: a visitor has one address to prove, and the chat reads one code at a time (a
    code typed back could not say which address it is for). Any further address of the message is a lead
    as well: with ``required`` it is passed on at once, marked as not confirmed."""

    when_stopped = True  # a lead the visitor stopped the reply on is offered its code all the same

    def __init__(self, verifier: Verifier | None):
        self.verifier = verifier

    def __call__(self, draft: Draft) -> None:
        if self.verifier is None or not self.verifier.on:
            return
        session, leads = draft.context.session_id, list(dict.fromkeys(draft.run.saved_leads))
        sentences = [self.verifier.offer(session, email, draft.context.address) for email in leads[:1]]
        sentences += [self.verifier.one_per_message(session, email) for email in leads[1:]]
        for sentence in filter(None, sentences):
            if self.verifier.mode == "required" and wording.LEAD_NOTED in draft.notes:
                draft.notes.remove(wording.LEAD_NOTED)  # the verifier's sentence says what became of it
            draft.add_note(sentence)


class BookingOffer:
    """A message that left a lead is offered the owner's booking page (``OWNER_BOOKING``), once."""

    when_stopped = False

    def __init__(self, booking_url: str | None):
        self.booking_url = booking_url

    def __call__(self, draft: Draft) -> None:
        if self.booking_url and Outcome.LEAD_SAVED in draft.run.outcomes and self.booking_url not in draft.text:
            draft.add_note(wording.BOOK_A_TIME.format(link=self.booking_url))
