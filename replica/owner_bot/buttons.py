"""The buttons on alerts: "Open conversation", "Mark handled", "Answer", "Dismiss", and "Answer with your
FAQ “…”" (an approved answer close to a question: one tap answers the asker, and keeps the phrasing).

Every press is answered (``answerCallbackQuery``), acts only when the owner presses it in the owner's
chat (in a group, anyone else's press is answered "Only the owner can press this button." and does
nothing: :mod:`replica.owner_bot.owner`), and does the same thing however often it is pressed.
"""

from __future__ import annotations

import logging
from typing import Callable

from replica.alerts.alert import QUESTION_TITLE
from replica.knowledge.faq_files import Approved
from replica.logs import EveryMinute
from replica.owner_bot.conversation_commands import ConversationCommands
from replica.owner_bot.listing_text import NUMBER
from replica.owner_bot.owner import NO_OWNER_SET, NOT_THE_OWNER, Owner
from replica.owner_bot.question_commands import QuestionCommands
from replica.storage import Store
from replica.storage.records import LeadStatus, QuestionStatus
from replica.telegram.client import ForceReply, TelegramClient, TelegramError
from replica.telegram.updates import Action, Button, ButtonPress
from replica.text import one_line

log = logging.getLogger(__name__)
STRANGERS = "Ignored %d Telegram message(s) or button press(es) from chats that are not the owner's (logged at most once a minute)"
MEMBERS = (
    "Ignored %d Telegram message(s) or button press(es) from others in the owner's group: only TELEGRAM_OWNER_ID's "
    "are acted on (logged at most once a minute)"
)


class Buttons:
    """Acts on a button press, by the action and number its data names (``handled:12``)."""

    def __init__(
        self,
        store: Store,
        client: TelegramClient,
        conversations: ConversationCommands,
        owner: Owner,
        questions: QuestionCommands | None = None,
        close: Callable[[str], Approved | None] = lambda question: None,
        mail_answers: Callable[[], None] | None = None,
    ):
        self._store = store
        self._mail_answers = mail_answers  # wakes the mailer once an answer mail is queued
        self._client = client
        self._conversations = conversations
        self._owner = owner
        self._questions = questions
        self._close = close  # the approved answer close to a question, as the alert offered it
        # Messages and presses from chats that are not the owner's, and from others in the owner's group: a
        # stranger who floods the bot costs a log line a minute (the dispatcher counts the messages here too).
        self.strangers = EveryMinute(log, STRANGERS)
        self.members = EveryMinute(log, MEMBERS)
        self._actions: dict[Action, Callable[[int, ButtonPress], str]] = {
            Action.SHOW: self._show,
            Action.HANDLED: self._handled,
            Action.ANSWER: self._answer,
            Action.DISMISS: self._dismiss,
            Action.FAQ: self._faq,
            Action.MAIL: self._mail,
        }

    def press(self, press: ButtonPress) -> None:
        """Act on a button pressed by the owner in their chat; answer every press, so no button spins."""
        if not self._owner.in_chat(press.chat_id):
            self.strangers()
            self._answer_press(press.id, "This button only works in its owner's chat.")
            return
        if not self._owner.sent(press.sender):
            self.members()
            self._answer_press(press.id, NOT_THE_OWNER if self._owner.known else NO_OWNER_SET)
            return
        action, number = Action.of(press.data), press.data.partition(":")[2]
        act = self._actions.get(action) if action else None
        try:
            text = act(int(number), press) if act and NUMBER.fullmatch(number) else "Unknown button."
        except Exception as error:
            log.error("Could not act on a button (%s)", type(error).__name__, exc_info=True)
            text = f"Sorry, that failed ({type(error).__name__})."
        self._answer_press(press.id, text)

    def _answer_press(self, query_id: str, text: str) -> None:
        try:
            self._client.answer_callback_query(query_id, text[:200])
        except TelegramError as error:
            log.warning("Could not answer a button press: %s", error)

    def _show(self, number: int, _: ButtonPress) -> str:
        if not self._conversations.send_transcript(number):
            return f"There is no conversation #{number}."
        after = f"Reply to the transcript, or send /say {number} text, to write to the visitor in person."
        self._client.send_message(after, parse_mode=None)
        return f"Conversation #{number} is below."

    def _handled(self, lead_id: int, press: ButtonPress) -> str:
        changed = self._store.leads.set_status(lead_id, LeadStatus.HANDLED)
        self._replace_keyboard(press, Action.HANDLED, lead_id, "✓ Handled")
        return "Marked handled." if changed else "Already handled."

    def _answer(self, question_id: int, _: ButtonPress) -> str:
        question = self._store.questions.get(question_id)
        if question is None:
            return "That question is gone."
        # The heading makes the owner's reply to this prompt teach the answer, like a reply to the alert.
        prompt = f"{QUESTION_TITLE} #{question_id}\n“{one_line(question.question, 1000)}”\nReply with your answer."
        self._client.send_message(prompt, parse_mode=None, reply_markup=ForceReply("Your answer"))
        return "Type your answer as a reply."

    def _faq(self, question_id: int, press: ButtonPress) -> str:
        """Answer the question with the approved answer close to it: the asker gets it as any answer the
        owner teaches, and the question's phrasing is kept, so the next visitor who asks so is answered."""
        question = self._store.questions.get(question_id)
        if question is None or question.status != QuestionStatus.OPEN or self._questions is None:
            return "That question is no longer open."
        approved = self._close(question.question)
        if approved is None:
            return "No approved answer is close to it any more; reply with your answer instead."
        self._client.send_message(self._questions.learn(question.id, question.question, approved.answer))
        self._replace_keyboard(
            press, Action.FAQ, question_id, "✓ Answered with your FAQ", drop=(Action.ANSWER, Action.DISMISS)
        )
        return "Answered with your FAQ."

    def _mail(self, mail_id: int, press: ButtonPress) -> str:
        """Mail the owner's answer to the address the asker confirmed (verified contacts), once."""
        email = self._store.answer_mails.send(mail_id)
        if email is None:
            return "That mail was sent already, or is gone."
        if self._mail_answers:
            self._mail_answers()
        self._replace_keyboard(press, Action.MAIL, mail_id, f"✓ Mailed to {email}"[:60])
        return f"Your answer goes to {email} by e-mail."

    def _dismiss(self, question_id: int, press: ButtonPress) -> str:
        changed = self._store.questions.dismiss(question_id)
        self._replace_keyboard(press, Action.DISMISS, question_id, "✓ Dismissed", drop=(Action.ANSWER,))
        return "Dismissed." if changed else "Already dismissed or answered."

    def _replace_keyboard(
        self, press: ButtonPress, action: Action, number: int, label: str, drop: tuple[Action, ...] = ()
    ) -> None:
        """Show the new state on the alert's buttons (the pressed one, ``action`` on record ``number``,
        relabelled; ``drop`` ones removed)."""
        rows = []
        for row in press.keyboard:
            kept = tuple(
                Button(label, action.data(number)) if b.action == action else b for b in row if b.action not in drop
            )
            if kept:
                rows.append(kept)
        if rows and press.message_id is not None and tuple(rows) != press.keyboard:
            try:
                self._client.edit_reply_markup(press.message_id, tuple(rows))
            except TelegramError as error:
                log.warning("Could not update an alert's buttons: %s", error)
