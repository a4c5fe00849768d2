"""``inform_unknown``: the replica could not answer a question; store it and pass it to the owner."""

from __future__ import annotations

from replica.alerts import Alert
from replica.alerts.alert import QUESTION_TITLE
from replica.alerts.render import one_line
from replica.tools.registry import Outcome, Tool, ToolContext


def inform_unknown(context: ToolContext, question: str) -> str:
    """Store a question the knowledge does not answer, with its alert, and wake the sender. Returns ``ok``
    (also when this visitor already asked the same question: it is stored and alerted once)."""
    alert = Alert(
        kind="question",
        title=context.title(QUESTION_TITLE),
        fields=(("Question", question),),
        session_id=context.session_id,
        conversation=context.conversation,
        hint="Reply to this message with the answer, and I will use it from the next visitor message on.",
        quoted=("Question",),
    )
    return context.keep(
        alert,
        lambda entry: context.store.questions.record(question, entry),
        Outcome.QUESTION_SAVED,
        {"question": question},
        what=f"question ({one_line(question, 120)!r})",
    )


TOOL = Tool(
    name="inform_unknown",
    description=(
        "Pass a visitor's question to the owner when the knowledge does not answer it. Use this instead of guessing."
    ),
    parameters={
        "type": "object",
        "properties": {"question": {"type": "string", "description": "The visitor's question, as they asked it."}},
        "required": ["question"],
        "additionalProperties": False,
    },
    function=inform_unknown,
)
