"""A valid email address in a visitor's message is never lost.

Small models often answer "thanks, I'll pass that on" without calling ``gather_user_details``, and a
model that fails cannot call it at all. After every message, an address in the visitor's own words that
no call of the tool covered goes through the same tool (the same validation, de-duplication and alert
caps); an invalid one invents nothing.
"""

from __future__ import annotations

import re

from replica.chat.run import LookedForAddresses, Run, Source, ToolRan
from replica.tools import Outcome, ToolContext, ToolRegistry, gather_user_details

# A candidate email address in a visitor's message; email-validator (through the tool) decides.
EMAIL_CANDIDATE = re.compile(r"[^\s<>()\[\],;:\"'@]{1,64}@[^\s<>()\[\],;:\"'@]{1,253}")
NOTES = "The visitor wrote: {message}"
OUTAGE_NOTES = "Left while the replica could not answer. The visitor wrote: {message}"
NOTES_CHARS = 500


def keep_lead(
    message: str,
    registry: ToolRegistry,
    context: ToolContext,
    run: Run,
    notes: str = NOTES,
    source: Source = Source.VISITORS_WORDS,
) -> bool:
    """Store a lead for each address in ``message`` that no call in ``run`` covered (at most three),
    through the tool the model would call, each call added to ``run`` as from ``source``; ``notes`` says
    how it came. Returns whether this stored one."""
    run.add(LookedForAddresses())
    stored = False
    for candidate in EMAIL_CANDIDATE.findall(message)[:3]:
        address = candidate.strip(".")
        if address.lower() in run.emails:
            continue
        result = registry.call(
            gather_user_details, context, email=address, notes=notes.format(message=message[:NOTES_CHARS])
        )
        run.add(ToolRan("gather_user_details", source, result))
        stored = stored or result.outcome is Outcome.LEAD_SAVED
    return stored
