"""``inform_unknown``: the replica could not answer a question; store it and pass it to the owner.

``ok`` comes back also when this visitor already asked the same question (it is stored and alerted
once), and when other visitors asked it while it is open (matched as approved answers are: one open
question counts its askers, with one alert, and the owner's answer goes back to each of them).
"""

from __future__ import annotations

from replica.alerts import Alert
from replica.alerts.alert import QUESTION_TITLE
from replica.knowledge.approved import alike
from replica.storage.records import AlertKind
from replica.text import one_line
from replica.tools.keeping import keep
from replica.tools.tool import Outcome, ToolContext, ToolResult


def inform_unknown(context: ToolContext, question: str) -> ToolResult:
    """Pass a visitor's question to the owner when the knowledge does not answer it. Use this instead of guessing.

    Args:
        question: The visitor's question, as they asked it.
    """
    alert = Alert(
        kind=AlertKind.QUESTION,
        title=context.title(QUESTION_TITLE),
        fields=(("Question", question),),
        session_id=context.session_id,
        conversation=context.conversation,
        hint="Reply to this message with the answer, and I will use it from the next visitor message on.",
        quoted=("Question",),
        close_faq=context.close_faq(question),
    )
    return keep(
        context,
        alert,
        lambda entry: context.store.questions.record(question, entry, same=alike),
        Outcome.QUESTION_SAVED,
        {"question": question},
        what=f"question ({one_line(question, 120)!r})",
    )
