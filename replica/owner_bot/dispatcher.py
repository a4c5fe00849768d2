"""One dispatcher for every update the owner's bot receives, by polling or by webhook.

Only the owner's chat (``TELEGRAM_CHAT_ID``) is listened to: anything else is logged with its chat id
and never answered. In a group, only the owner's own messages are acted on
(:mod:`replica.owner_bot.owner`): another member's command is answered "Only the owner can use this
bot's commands." and does nothing, and their other messages (a reply to an alert or a transcript among
them) are left alone. A command goes to its handler, named in :data:`replica.owner_bot.commands.COMMANDS`;
a reply to a question alert teaches the answer; a reply to a lead alert, a forwarded message or a
transcript writes to that visitor; a button press goes to :class:`Buttons`.
"""

from __future__ import annotations

import html
import logging
from typing import Callable, Mapping

from replica.owner_bot.buttons import Buttons
from replica.owner_bot.commands import BY_NAME, help_text
from replica.owner_bot.conversation_commands import ConversationCommands
from replica.owner_bot.owner import COMMANDS_FOR_THE_OWNER, Owner
from replica.owner_bot.question_commands import QuestionCommands
from replica.telegram.client import TelegramClient, TelegramError
from replica.telegram.updates import Message, Update

log = logging.getLogger(__name__)

FAILED = "Sorry, that failed on my side ({error}); the app's log has the details."
NOT_A_QUESTION = (
    "To teach me an answer, reply to an “Unanswered question” alert (or use /answer N text); to write to a visitor, "
    "reply to a lead alert or a transcript (or use /say N text). Send /help for more."
)


class Dispatcher:
    """Routes an update to the handler of its command, reply or button; sends the handler's answer."""

    def __init__(
        self,
        client: TelegramClient,
        handlers: Mapping[str, Callable[[str], str]],
        questions: QuestionCommands,
        conversations: ConversationCommands,
        buttons: Buttons,
        owner: Owner | None = None,
    ):
        missing = set(BY_NAME) - set(handlers) - {"help"}
        if missing:
            raise ValueError(f"commands without a handler: {', '.join(sorted(missing))}")
        self._client = client
        self._handlers = {**handlers, "help": lambda _: help_text(), "start": lambda _: help_text()}
        self._questions = questions
        self._conversations = conversations
        self._buttons = buttons
        self._owner = owner or Owner(str(client.chat_id))  # by default, a private chat's own user

    def handle(self, update: Update) -> None:
        """Act on one update: only the owner's text messages and button presses in their chat are acted on."""
        if update.press is not None:
            self._buttons.press(update.press)
            return
        message = update.message
        # Nothing the bot reads (another kind of update, or a malformed one) is counted with the strangers'.
        if message is None or not self._owner.in_chat(message.chat_id):
            self._buttons.strangers()
            return
        text = message.text.strip()
        if not text:
            return
        try:
            if not self._owner.sent(message.sender):  # another member of the owner's group
                self._buttons.members()
                reply = COMMANDS_FOR_THE_OWNER if command_of(message, text) else ""
            else:
                reply = self._respond(message, text)
        except Exception as error:
            log.error("Could not act on the owner's message (%s)", type(error).__name__, exc_info=True)
            reply = FAILED.format(error=type(error).__name__)
        if reply:
            try:
                self._client.send_message(reply, parse_mode="HTML")
            except TelegramError as error:
                log.warning("Could not answer the owner on Telegram: %s", error)

    def _respond(self, message: Message, text: str) -> str:
        command = command_of(message, text)
        if command is not None:
            name, argument = command
            handler = self._handlers.get(name)
            return handler(argument) if handler else f"Unknown command /{html.escape(name)}. Send /help."
        replied = message.reply_to
        question = self._questions.replied_to(replied)
        if question is not None:
            return self._questions.learn(question.id, question.question, text)
        conversation = self._conversations.conversation_replied_to(replied)
        if conversation is not None:
            return self._conversations.say_to(conversation, text)
        return NOT_A_QUESTION


def command_of(message: Message, text: str) -> tuple[str, str] | None:
    """``(command, rest)`` when the message's ``text`` starts with a ``bot_command`` entity (``command``
    without the slash or the bot's name)."""
    for entity in message.entities:
        if entity.type == "bot_command" and entity.offset == 0:
            word = text[: entity.length]
            return word.split("@")[0].lower().lstrip("/"), text[len(word) :].strip()
    return None
