"""A question the reply could not answer, or claimed to pass on, reaches the owner.

The reply check (:mod:`replica.chat.reply_check`) calls on this when a reply withheld an invented
specific, declined ("I don't know"), or said a question was passed on with none on record: the visitor's
message goes through ``inform_unknown``, the tool the model would call (the same de-duplication and alert
caps), so that what the visitor is told is true.
"""

from __future__ import annotations

import logging

from replica.chat.reply_check.checker import Records
from replica.chat.run import Run, Source, ToolRan
from replica.storage import Store
from replica.storage.database import storage_errors
from replica.tools import Outcome, ToolContext, ToolRegistry, inform_unknown

log = logging.getLogger(__name__)
QUESTION_CHARS = 500  # of a visitor's message, passed on as their question


def records_of(store: Store, context: ToolContext, run: Run) -> Records:
    """What the records say of the visitor's conversation, this message's tool calls included."""
    lead_now = lead = Outcome.LEAD_SAVED in run.outcomes
    question = Outcome.QUESTION_SAVED in run.outcomes
    try:
        lead = lead or store.leads.for_session(context.session_id)
        question = question or store.questions.for_session(context.session_id)
    except storage_errors() as error:
        log.error("Could not read the records for the reply check (%s)", type(error).__name__)
    asked_now = any(isinstance(e, ToolRan) and e.name == "inform_unknown" for e in run.events)
    return Records(lead=lead, question=question, asked_now=asked_now, lead_now=lead_now)


def pass_question_on(message: str, registry: ToolRegistry, context: ToolContext, run: Run) -> bool:
    """Pass ``message`` on as the visitor's question, the call added to ``run``; whether it is on record."""
    result = registry.call(inform_unknown, context, question=message[:QUESTION_CHARS])
    run.add(ToolRan("inform_unknown", Source.REPLY_CHECK, result))
    return result.outcome is Outcome.QUESTION_SAVED
