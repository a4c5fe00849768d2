"""The owner's answer goes back to each visitor who asked the question.

It is put in each asker's conversation as the owner's own words, so their page shows it at its next
check when it is open, or when their browser opens the page again (within the retention period).
The owner hears, per visitor, which it will be; when it can be neither (no conversation kept, or a
visitor who came by MCP or the API, whose browser keeps nothing), the email address they left, if any;
and, with verified contacts on, a visitor who confirmed their address is offered the answer by mail (a
button: nothing is mailed until the owner taps it, and never to an address not confirmed).
"""

from __future__ import annotations

import html
import logging

from replica import wording
from replica.contacts.mailer import answer_mail
from replica.inbox import Inbox
from replica.inbox.recorder import OWNER
from replica.owner_bot.confirmations import Confirmations
from replica.storage import Store
from replica.storage.rows import Asker
from replica.telegram.client import TelegramClient, TelegramError
from replica.telegram.updates import Action, Button
from replica.text import one_line

log = logging.getLogger(__name__)

OPEN = "#{number}: their page is open; I'll say when it shows your answer."
ON_RETURN = (
    "#{number}: their page is closed; it shows your answer when they open the page again in the same "
    "browser (conversations are kept {days} days after their last message)."
)
NEITHER = "{who}: this visitor cannot see your answer (they came without a browser that keeps the conversation)"
MAIL_OFFER = (
    "{who} cannot see your answer to “{question}” in a page, but confirmed {email} with a code. Mail it to them?"
)
MAIL_BUTTON = "Send by e-mail"
NOT_SAVED = "#{number}: your answer could not be saved in their conversation (the database failed)."


class AnswerBack:
    """Puts the owner's answer into every asker's conversation and says what each will see."""

    def __init__(
        self,
        store: Store,
        inbox: Inbox,
        confirmations: Confirmations,
        retention_days: int,
        client: TelegramClient | None = None,
        owner_name: str = "",
    ):
        self._store = store
        self._client = client  # with verified contacts on: where the owner is offered an answer by mail
        self._owner_name = owner_name
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
            return self._neither("A visitor whose conversation is gone", asker, answer)
        open_page = self._page.page_open(number)
        text = wording.ANSWER_BACK.format(question=one_line(asker.question, 300), answer=answer)
        message_id = self._recorder.record(number, OWNER, text, shown=False)
        if message_id is None:  # the database failed (logged): their page has nothing to show
            return NOT_SAVED.format(number=number)
        if open_page:
            self._confirmations.watch(message_id, number)
            return OPEN.format(number=number)
        if asker.kept_by_browser:
            return ON_RETURN.format(number=number, days=self._retention_days)
        return self._neither(f"#{number}", asker, answer)

    def _neither(self, who: str, asker: Asker, answer: str) -> str:
        if self._client is not None:  # verified contacts on: a confirmed address may be mailed the answer
            confirmed = self._store.codes.confirmed_in(asker.session)
            if confirmed and self._offer_mail(self._client, who, asker, answer, confirmed):
                return (
                    NEITHER.format(who=who) + f"; they confirmed {html.escape(confirmed)}: the button below mails it."
                )
        email = self._store.leads.latest_email(asker.session)
        reach = f"; write to them at {html.escape(email)}." if email else ", and they left no email address."
        return NEITHER.format(who=who) + reach

    def _offer_mail(self, client: TelegramClient, who: str, asker: Asker, answer: str, email: str) -> bool:
        """Keep the answer as a mail to ``email`` and offer it to the owner with a button in ``client``'s
        chat; False when the offer could not be made."""
        mail_id = self._store.answer_mails.offer(
            asker.session, email, *answer_mail(self._owner_name, one_line(asker.question, 1000), answer)
        )
        text = MAIL_OFFER.format(who=who, question=one_line(asker.question, 200), email=email)
        button = ((Button(MAIL_BUTTON, Action.MAIL.data(mail_id)),),)
        try:
            client.send_message(text, parse_mode=None, reply_markup=button)
        except TelegramError as error:
            log.warning("Could not offer an answer by mail: %s", error)
            return False
        return True
