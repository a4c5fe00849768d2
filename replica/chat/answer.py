"""A visitor message's words, under the reply deadline: the model's, or a reply made without a model.

:class:`Answer` takes one of the model lanes (:mod:`replica.chat.lanes`) and runs the turn loop
(:mod:`replica.chat.loop`) on a worker thread until the deadline, streaming the words as the reply check
lets them show. When there is no model, or the model fails before it wrote anything, the reply is made
without a model (:mod:`replica.chat.without_model`); when it fails after some words, they stay and an
apology follows. When no lane is expected within the short wait (a spike: more visitors at once than
the lanes serve), the reply is made without a model at once, and says so. Either way the words end up
in the :class:`~replica.chat.draft.Draft`, for the steps after the answer.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Generator, Iterator

from replica import wording
from replica.chat.deadline import Deadline, DeadlineExceeded, run_until
from replica.chat.draft import Draft
from replica.chat.history import as_visitor_words, history_messages, join, retrieval_query
from replica.chat.lanes import Lanes
from replica.chat.loop import DailyBudgetSpent, TurnLoop
from replica.chat.model import ModelError
from replica.chat.reply_check.checker import ReplyChecker
from replica.chat.run import Ended, Ending
from replica.chat.without_model import WithoutModel, in_steps
from replica.knowledge.prompts import render_prompt
from replica.logs import EveryMinute
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.settings import ReplySettings

log = logging.getLogger(__name__)
SPIKE = EveryMinute(
    log, "A spike: %d message(s) answered without a model, every model lane busy (logged at most once a minute)"
)


class Answer:
    """Writes each message's words. ``loop`` is ``None`` when no model is configured; ``system_prompt(query)``
    is each message's system prompt; ``facts(conversation)`` what the tools did in it so far (``None``
    when unreadable); ``checker`` begins each reply's check; ``lanes`` are the model lanes replies wait
    for; ``settings`` the replies' own, which bound each one."""

    def __init__(
        self,
        *,
        loop: TurnLoop | None,
        system_prompt: Callable[[str], str],
        facts: Callable[[int], list[str] | None],
        checker: ReplyChecker,
        without_model: WithoutModel,
        settings: ReplySettings,
        lanes: Lanes,
        clock: Clock = REAL_CLOCK,
    ):
        self.loop = loop
        self.system_prompt = system_prompt
        self.facts = facts
        self.checker = checker
        self.without_model = without_model
        self.settings = settings
        self.lanes = lanes
        self.clock = clock  # the lanes' pace and each reply's deadline

    def stream(
        self, draft: Draft, history: list[dict[str, Any]], conversation: int | None
    ) -> Generator[str, None, None]:
        """Yield the words so far as they grow, ``draft`` holding them; what was done goes into its run.
        Closing it (the visitor stopped the reply) gives its model lane back at once."""
        if self.loop is None:
            draft.run.add(Ended(Ending.NO_MODEL))
            yield from self._without_model(draft, "", earlier=history)
            return
        taken = self.lanes.take(draft.context.address)
        if taken is None:
            SPIKE()
            draft.run.add(Ended(Ending.BUSY))
            yield from self._without_model(draft, "", spike=True, earlier=history)
            return
        deadline = Deadline(
            self.settings.reply_deadline_seconds, self.clock
        )  # from the lane: the wait has a bound of its own
        try:
            yield from self._with_model(self.loop, draft, history, conversation, deadline)
        finally:
            self.lanes.give_back(taken)

    def _with_model(
        self,
        loop: TurnLoop,
        draft: Draft,
        history: list[dict[str, Any]],
        conversation: int | None,
        deadline: Deadline,
    ) -> Iterator[str]:
        earlier = history_messages(history, self.settings.history_budget_chars)
        facts = self.facts(conversation) if conversation is not None else None
        system = join(self.system_prompt(retrieval_query(draft.message, earlier)), facts_section(facts))
        messages = [
            {"role": "system", "content": system},
            *earlier,
            {"role": "user", "content": as_visitor_words(draft.message)},
        ]
        check = self.checker.begin(system, earlier, draft.message, on=self.settings.check_replies)
        shown = words = ""
        try:
            for words in run_until(deadline, lambda stop: loop.run(messages, draft.context, deadline, stop, draft.run)):
                shown = check.visible(words)
                yield shown
            draft.words, draft.check = words, check  # checked once the steps after the answer have their records
            return
        except DeadlineExceeded:
            log.warning("Reply deadline of %.0f s passed; the visitor gets what streamed so far", deadline.seconds)
            apology, ending = wording.TOO_SLOW, Ending.DEADLINE
        except DailyBudgetSpent:
            log.warning("Daily model-call budget spent")
            apology, ending = wording.DAILY_LIMIT, Ending.BUDGET_SPENT
        except ModelError as error:
            log.error("Model call failed: %s", error)
            apology, ending = wording.MODEL_FAILED, Ending.MODEL_FAILED
        except Exception as error:  # a bug or an odd stream: still a sentence, never a traceback
            log.error("Unexpected error while talking to the model: %s", type(error).__name__, exc_info=True)
            apology, ending = wording.MODEL_FAILED, Ending.ERROR
        draft.run.add(Ended(ending))
        if shown:
            draft.words, draft.apology = shown, apology
            yield draft.text
        else:  # no words yet: the visitor gets what a reply without a model gives
            yield from self._without_model(draft, apology)

    def _without_model(
        self, draft: Draft, apology: str, spike: bool = False, earlier: list[dict[str, Any]] | None = None
    ) -> Iterator[str]:
        """The reply :class:`WithoutModel` makes, streamed in steps; ``apology`` says why the model did not
        answer; ``spike``, that no lane was free; ``earlier``, the conversation before the message."""
        reply = self.without_model.reply(
            draft.message, draft.context, draft.run, apology, spike=spike, earlier=earlier or []
        )
        draft.run.add(Ended(reply.ended))
        draft.words, draft.told, draft.apologised = reply.text, reply.told, reply.apologised
        if spike:  # at once, whole: every message the page is sent costs the crowd's server time
            yield reply.text
        else:
            yield from in_steps(reply.text)


def facts_section(facts: list[str] | None) -> str:
    """What the conversation's tools did, for the system prompt: the app's records, never the visitor's words."""
    if facts is None:
        lines = "- The records could not be read just now: do not say whether anything was saved or passed on."
    elif not facts:
        lines = "- Nothing yet: no email address has been recorded and no question passed on in this conversation."
    else:
        lines = "\n".join(f"- {fact}" for fact in facts)
    return render_prompt("facts.md", facts=lines)
