"""The owner's answer goes back to each visitor who asked the question.

It is put in each asker's conversation as the owner's own words, so their page shows it at its next
check when it is open, or when their browser opens the page again (within the retention period).
The owner hears, per visitor, which it will be; when it can be neither (no conversation kept, or a
visitor who came by MCP or the API, whose browser keeps nothing), the email address they left, if any.
"""

from __future__ import annotations

import html

from replica import wording
from replica.alerts.render import one_line
from replica.inbox import Inbox
from replica.inbox.recorder import OWNER
from replica.owner_bot.confirmations import Confirmations
from replica.storage import Store
from replica.storage.rows import Asker

OPEN = "#{number}: their page is open; I'll say when it shows your answer."
ON_RETURN = (
    "#{number}: their page is closed; it shows your answer when they open the page again in the same "
    "browser (conversations are kept {days} days after their last message)."
)
NEITHER = "{who}: this visitor cannot see your answer (they came without a browser that keeps the conversation)"


class AnswerBack:
    """Puts the owner's answer into every asker's conversation and says what each will see."""

    def __init__(self, store: Store, inbox: Inbox, confirmations: Confirmations, retention_days: int):
        self._store = store
        self._recorder = inbox.recorder
        self._page = inbox.page
        self._confirmations = confirmations
        self._retention_days = retention_days

    def deliver(self, question_id: int, answer: str) -> list[str]:
        """Send ``answer`` to each visitor who asked question ``question_id``; one line (HTML) per visitor."""
        askers = self._store.questions.askers(question_id)
        lines = [self._deliver_to(asker, answer) for asker in askers]
        if len(askers) > 1:
            lines.insert(0, f"Asked by {len(askers)} visitors:")
        return lines

    def _deliver_to(self, asker: Asker, answer: str) -> str:
        number = asker.conversation
        if number is None:
            return self._neither("A visitor whose conversation is gone", asker)
        open_page = self._page.page_open(number)
        text = wording.ANSWER_BACK.format(question=one_line(asker.question, 300), answer=answer)
        message_id = self._recorder.record(number, OWNER, text, shown=False)
        if open_page:
            self._confirmations.watch(message_id, number)
            return OPEN.format(number=number)
        if asker.kept_by_browser:
            return ON_RETURN.format(number=number, days=self._retention_days)
        return self._neither(f"#{number}", asker)

    def _neither(self, who: str, asker: Asker) -> str:
        email = self._store.leads.latest_email(asker.session)
        reach = f"; write to them at {html.escape(email)}." if email else ", and they left no email address."
        return NEITHER.format(who=who) + reach
