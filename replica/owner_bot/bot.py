"""The owner's side of the Telegram chat: teaching answers and reading leads, by long polling.

Only messages from ``TELEGRAM_CHAT_ID`` are acted on; anything else is logged with its chat id and
never answered. Replies go through :class:`TelegramClient`, which can only write to the owner's chat.
The ``getUpdates`` offset is stored, so no update is handled twice across restarts. The polling thread
survives anything: an answer of the wrong shape, an odd update, a database error. It logs the error's
class, backs off, and goes on with the next update.
"""

from __future__ import annotations

import html
import logging
import re
import threading
from typing import Any, Callable

from replica.alerts.alert import QUESTION_TITLE
from replica.alerts.render import one_line
from replica.logs import clip
from replica.owner_bot.inbox_commands import NUMBER, InboxCommands, conversation_named_in
from replica.owner_bot.webhook import ALLOWED_UPDATES
from replica.storage.store import Store
from replica.telegram.client import TelegramClient, TelegramError
from replica.telegram.text import TELEGRAM_LIMIT, utf16_units

log = logging.getLogger(__name__)

OFFSET_KEY = "telegram_update_offset"
COMMANDS = [
    ("recent", "The latest conversations"),
    ("show", "Read a conversation: /show N"),
    ("say", "Write to a visitor in person: /say N your words"),
    ("pause", "Take a conversation over: /pause N"),
    ("resume", "Hand a conversation back to the replica: /resume N"),
    ("leads", "The most recent leads"),
    ("unanswered", "Open questions, oldest first"),
    ("answer", "Answer a question by number: /answer N your answer"),
    ("forget", "Withdraw a learned answer: /forget N"),
    ("help", "What I can do"),
]
HELP = (
    "I alert you to new leads and to questions I could not answer, and keep every conversation.\n"
    "• Reply to an “Unanswered question” alert (or tap Answer) to teach me the answer; I use it from the next "
    "visitor message on.\n"
    "• Reply to a lead alert, a forwarded message or a transcript to write to that visitor in person.\n"
    "• /recent — the latest conversations; /show N — read conversation N\n"
    "• /say N text — write to conversation N in person; /pause N — take it over; /resume N — hand it back\n"
    "• /leads — the most recent leads\n"
    "• /unanswered — open questions, oldest first\n"
    "• /answer N text — answer open question N\n"
    "• /forget N — withdraw learned answer N"
)
ANSWER_USAGE = "Use /answer N your answer, with N from /unanswered."
FORGET_USAGE = "Use /forget N, with N the number of a learned answer."
FAILED = "Sorry, that failed on my side ({error}); the app's log has the details."
QUESTION_ALERT = re.compile(re.escape(QUESTION_TITLE) + r"(?: \(via [^)]{1,20}\))? #([1-9][0-9]{0,17})\s*$")
NOT_A_QUESTION = (
    "To teach me an answer, reply to an “Unanswered question” alert (or use /answer N text); to write to a visitor, "
    "reply to a lead alert or a transcript (or use /say N text). Send /help for more."
)


def fit(lines: list[str], limit: int = TELEGRAM_LIMIT - 100) -> str:
    """Join ``lines`` with newlines, leaving out whole lines past ``limit`` (in Telegram's units), with a note."""
    kept, used = [], 0
    for index, line in enumerate(lines):
        size = utf16_units(line) + 1  # an emoji counts twice, as Telegram counts it
        if used + size > limit:
            kept.append(f"… and {len(lines) - index} more")
            break
        kept.append(line)
        used += size
    return "\n".join(kept)


class OwnerBot:
    """Polls ``getUpdates`` on a background thread and answers the owner's replies and commands."""

    def __init__(
        self,
        store: Store,
        client: TelegramClient,
        poll_seconds: int = 25,
        base_delay: float = 1.0,
        inbox: InboxCommands | None = None,
    ):
        self._store = store
        self._inbox = inbox
        self._client = client
        self._poll_seconds = poll_seconds
        self._base_delay = base_delay
        self._stopping = threading.Event()
        self._offset: int | None = None  # the next update wanted; kept here too, should the database fail
        self._thread = threading.Thread(target=self._run, name="telegram-owner-bot", daemon=True)
        self._commands: dict[str, Callable[[str], str]] = {
            "/leads": self._leads,
            "/unanswered": self._unanswered,
            "/answer": self._answer_command,
            "/forget": self._forget,
            "/help": lambda _: HELP,
            "/start": lambda _: HELP,
            **(inbox.commands() if inbox else {}),
        }

    def start(self, webhook: tuple[str, str] | None = None) -> "OwnerBot":
        """Register the command menu; then, with ``webhook=(url, secret)``, have Telegram push updates there
        (they come to :meth:`handle`), else delete any webhook and start polling."""
        try:
            self._client.set_my_commands(COMMANDS)
            if webhook:
                self._client.set_webhook(webhook[0], webhook[1], ALLOWED_UPDATES)
                log.info("Telegram pushes the owner's messages to the webhook")
            else:
                self._client.delete_webhook()  # switching modes: a webhook would block polling
        except TelegramError as error:
            log.warning("Could not set up the bot with Telegram: %s", error)
        if not webhook:
            self._thread.start()
        return self

    def close(self, timeout: float = 2.0) -> None:
        """Stop polling; a poll under way is abandoned (its updates are fetched again next time)."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        failures = 0
        while not self._stopping.is_set():
            try:
                self._poll_once()
                failures = 0
            except Exception as error:  # the bot must outlive any answer, update or database hiccup
                failures += 1
                if isinstance(error, TelegramError) and error.status == 409:
                    log.error("Telegram says another getUpdates poller or a webhook holds this bot (409); backing off")
                elif isinstance(error, TelegramError):
                    log.warning("Polling Telegram failed (%s); backing off", error)
                else:
                    log.error("Owner bot error (%s); backing off", type(error).__name__, exc_info=True)
                self._stopping.wait(min(60.0, self._base_delay * 2 ** min(failures, 6)))

    def _poll_once(self) -> None:
        """Fetch the next updates and handle each; any exception is left to :meth:`_run`."""
        if self._offset is None:
            stored = self._store.state.get(OFFSET_KEY)
            self._offset = int(stored) if stored and stored.isdigit() else 0
        for update in self._client.get_updates(self._offset or None, self._poll_seconds):
            if self._stopping.is_set():
                return
            update_id = update.get("update_id") if isinstance(update, dict) else None
            if type(update_id) is not int or update_id < 0:
                log.warning("Skipping a Telegram update without a usable update_id")
                continue
            if update_id < self._offset:
                continue  # already handled
            try:
                self.handle(update)
            except Exception as error:  # one bad update must not stop the bot, nor be retried forever
                log.error("Could not handle Telegram update %d (%s)", update_id, type(error).__name__, exc_info=True)
            self._offset = update_id + 1
            self._store.state.set(OFFSET_KEY, str(self._offset))

    def handle(self, update: dict[str, Any]) -> None:
        """Act on one update: only text messages and button presses from the owner's chat are answered."""
        query = update.get("callback_query")
        if isinstance(query, dict) and self._inbox:
            self._inbox.handle_callback(query)
            return
        message = update.get("message")
        chat = message.get("chat") if isinstance(message, dict) else None
        chat_id = str(chat.get("id", "")) if isinstance(chat, dict) else ""
        if chat_id != str(self._client.chat_id):
            log.warning(
                "Ignoring a Telegram message from chat %s, which is not the owner's", clip(chat_id, 32) or "unknown"
            )
            return
        text = message.get("text")
        if not isinstance(text, str) or not text.strip():
            return
        try:
            reply = self._respond(message, text.strip())
        except Exception as error:
            log.error("Could not act on the owner's message (%s)", type(error).__name__, exc_info=True)
            reply = FAILED.format(error=type(error).__name__)
        if reply:
            try:
                self._client.send_message(reply, parse_mode="HTML")
            except TelegramError as error:
                log.warning("Could not answer the owner on Telegram: %s", error)

    def _respond(self, message: dict[str, Any], text: str) -> str:
        command = self._command_of(message, text)
        if command is not None:
            name, argument = command
            handler = self._commands.get(name)
            return handler(argument) if handler else f"Unknown command {html.escape(name)}. Send /help."
        replied = message.get("reply_to_message")
        question = self._question_replied_to(replied)
        if question is not None:
            return self._learn(question["id"], question["question"], text)
        conversation = self._conversation_replied_to(replied)
        if conversation is not None and self._inbox:
            return self._inbox.say_to(conversation, text)
        return NOT_A_QUESTION

    def _conversation_replied_to(self, replied: Any) -> int | None:
        """The conversation of a lead alert, forwarded message or transcript the owner replied to."""
        if not isinstance(replied, dict):
            return None
        message_id = replied.get("message_id")
        found = self._store.outbox.conversation_of(message_id) if type(message_id) is int else None
        return found or conversation_named_in(replied.get("text"))

    def _question_replied_to(self, replied: Any) -> Any:
        """The question whose alert the owner replied to: found by the alert's message id, or, for a copy
        whose id was never recorded (a crash between Telegram's accept and the record), by the
        "Unanswered question #N" heading every copy carries."""
        if not isinstance(replied, dict):
            return None
        message_id = replied.get("message_id")
        question = self._store.questions.for_alert(message_id) if type(message_id) is int else None
        heading = str(replied.get("text") or "").split("\n", 1)[0]
        match = QUESTION_ALERT.fullmatch(heading.strip())
        if question is None and match:
            question = self._store.questions.get(int(match.group(1)))
        return question

    @staticmethod
    def _command_of(message: dict[str, Any], text: str) -> tuple[str, str] | None:
        """``(/command, rest)`` when the message starts with a ``bot_command`` entity."""
        entities = message.get("entities")
        for entity in entities if isinstance(entities, list) else []:
            if isinstance(entity, dict) and entity.get("type") == "bot_command" and entity.get("offset") == 0:
                length = entity.get("length")
                word = text[: length if type(length) is int and length > 0 else 0]
                return word.split("@")[0].lower(), text[len(word) :].strip()
        return None

    def _learn(self, question_id: int, question: str, answer: str) -> str:
        answer_id = self._store.answers.learn(question_id, answer)
        log.info("Learned answer %d to question %d", answer_id, question_id)
        return f"Learned answer #{answer_id} to “{html.escape(one_line(question, 200))}”. Send /forget {answer_id} to withdraw it."

    def _leads(self, _: str) -> str:
        leads = self._store.leads.recent(20)
        if not leads:
            return "No leads yet."
        # Visitor values on one line each, the notes in quotes: a name or note can never add a line.
        lines = ["<b>Recent leads</b>, newest first:"] + [
            f"• {'✓ handled · ' if row['status'] == 'handled' else ''}{html.escape(one_line(row['name'], 80) or '(no name)')} — "
            f"{html.escape(one_line(row['email']))} — “{html.escape(one_line(row['notes'], 300))}” ({row['created_at']})"
            for row in leads
        ]
        return fit(lines)

    def _unanswered(self, _: str) -> str:
        questions = self._store.questions.in_status()
        dismissed = self._store.questions.in_status(status="dismissed")
        lines = ["<b>Open questions</b>, oldest first. Reply to a question's alert, or send /answer N your answer:"] + [
            f"<b>{row['id']}.</b> “{html.escape(one_line(row['question'], 300))}” ({row['created_at']})"
            for row in questions
        ]
        if not questions:
            lines = ["No open questions."]
        if dismissed:
            lines.append("Dismissed: " + ", ".join(f"#{row['id']}" for row in dismissed[-20:]))
        return fit(lines)

    def _answer_command(self, argument: str) -> str:
        parts = re.fullmatch(r"(\S+)\s+(.*\S.*)", argument, re.S)
        question = self._store.questions.get(int(parts[1])) if parts and NUMBER.fullmatch(parts[1]) else None
        if question is None:
            return ANSWER_USAGE
        return self._learn(question["id"], question["question"], parts[2].strip())

    def _forget(self, argument: str) -> str:
        withdrawn = self._store.answers.forget(int(argument)) if NUMBER.fullmatch(argument) else None
        if withdrawn is None:
            return FORGET_USAGE
        return (
            f"Withdrew answer #{withdrawn['id']}; “{html.escape(one_line(withdrawn['question'], 200))}” is open again."
        )
