"""When the model fails a visitor, an email address in their own words still becomes a lead."""

from __future__ import annotations

import json
import logging
import re

from replica.tools import Outcome, ToolContext, ToolRegistry

log = logging.getLogger(__name__)

# A candidate email address in a visitor's message; email-validator (through the tool) decides.
EMAIL_CANDIDATE = re.compile(r"[^\s<>()\[\],;:\"'@]{1,64}@[^\s<>()\[\],;:\"'@]{1,253}")
OUTAGE_NOTES = "Left while the replica's language model was unavailable. The visitor wrote: {message}"


def keep_lead(message: str, registry: ToolRegistry, context: ToolContext) -> bool:
    """Store a lead from an email address in ``message`` (through the same tool the model would call),
    unless the model's own call already did. Returns whether the visitor's lead is stored."""
    if Outcome.LEAD_SAVED not in context.outcomes:
        notes = OUTAGE_NOTES.format(message=message[:500])
        for candidate in EMAIL_CANDIDATE.findall(message)[:3]:
            registry.run("gather_user_details", json.dumps({"email": candidate.strip("."), "notes": notes}), context)
            if Outcome.LEAD_SAVED in context.outcomes:
                log.info("Stored a lead from the visitor's message while the model was unavailable")
                break
    return Outcome.LEAD_SAVED in context.outcomes
