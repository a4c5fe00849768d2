"""``inform_unknown``: the replica could not answer a question; pass it to the owner."""

from __future__ import annotations

from replica.notify import Alert
from tools.registry import Tool, ToolContext


def inform_unknown(context: ToolContext, question: str) -> str:
    """Alert the owner with a question the replica could not answer from its knowledge. Returns ``ok``."""
    context.notifier.notify(
        Alert(kind="question", title="Unanswered question", fields=(("Question", question),), session_id=context.session_id)
    )
    return "ok"


TOOL = Tool(
    name="inform_unknown",
    description=(
        "Pass a visitor's question to the owner when the knowledge does not answer it. "
        "Use this instead of guessing."
    ),
    parameters={
        "type": "object",
        "properties": {"question": {"type": "string", "description": "The visitor's question, as they asked it."}},
        "required": ["question"],
        "additionalProperties": False,
    },
    function=inform_unknown,
)
