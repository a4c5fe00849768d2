"""Storing what a tool records (a lead, a question) with its alert, and what the tool then reports.

A record and its alert are stored in one go; the sender is woken only for an alert that was queued.
When the store fails, the record is written whole to the log at ERROR (the record of last resort), and
the model is told to say so.
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from typing import Any, Callable

from replica.alerts import Alert
from replica.storage import OutboxEntry, Recorded
from replica.tools.tool import Outcome, ToolContext, ToolResult

log = logging.getLogger(__name__)

# What a record's fate means, as a fact the model is shown on later messages.
FATES = {
    Recorded.ALERTED: "{what} recorded and passed on to the owner, who was alerted",
    Recorded.CAPPED: "{what} recorded for the owner, but not alerted (this visitor's alert limit is reached)",
    Recorded.DUPLICATE: "{what} was already recorded and passed on earlier; not again",
    Recorded.JOINED: "{what} recorded for the owner, who already has the same question from another visitor",
    Recorded.HELD: "{what} recorded for the owner, who is alerted once the visitor confirms it with the code mailed to it",
}

SAVE_FAILED_FOR_MODEL = (
    "Error: the {kind} could not be saved because of a storage failure on the owner's side. "
    "Tell the visitor honestly that saving failed, and ask them to try again later."
)


def keep(
    context: ToolContext,
    alert: Alert,
    store: Callable[[OutboxEntry], Recorded],
    outcome: Outcome,
    record: dict[str, Any],
    what: str,
    emails: frozenset[str] = frozenset(),
) -> ToolResult:
    """Store a record with its alert (``store``) and wake the notifier; the result names the record as
    ``what`` in its fact. ``emails``: the addresses the call dealt with, whatever becomes of it."""
    try:
        recorded = store(replace(alert.entry(), address=context.address))
    except Exception:  # any storage failure: the record of last resort, and the visitor is told
        log.exception(
            "Could not store a %s; the record of last resort follows: %s",
            alert.kind,
            json.dumps({"kind": alert.kind, "session": context.session_id, **record}, ensure_ascii=False),
        )
        return ToolResult(
            SAVE_FAILED_FOR_MODEL.format(kind=alert.kind),
            Outcome.SAVE_FAILED,
            f"{what}: saving failed because of a storage problem; nothing was recorded",
            emails,
        )
    if recorded is Recorded.ALERTED:
        context.notifier.notify(alert)
    return ToolResult("ok", outcome, FATES[recorded].format(what=what), emails)
