"""The owner's inbox in Telegram: read conversations, step into one, hand one over, triage with a tap.

Commands (``/recent``, ``/show N``, ``/say N text``, ``/pause N``, ``/resume N``) and the buttons on alerts
("Open conversation", "Mark handled", "Answer", "Dismiss"). Every button press is answered
(``answerCallbackQuery``), acts only in the owner's chat, and does the same thing however often it is
pressed. :class:`replica.owner_bot.OwnerBot` routes updates here.
"""

from __future__ import annotations

import html
import logging
import re
import time
from datetime import datetime, timezone
from typing import Any, Callable

from replica.alerts.alert import QUESTION_TITLE
from replica.alerts.render import QUOTE_BAR, one_line, quoted_lines
from replica.conversations import Conversations
from replica.storage.records import NOTICE, OWNER, VISITOR
from replica.storage.store import Store
from replica.telegram.client import TelegramClient, TelegramError
from replica.telegram.text import TELEGRAM_LIMIT, utf16_units

log = logging.getLogger(__name__)

NUMBER = re.compile(r"[1-9][0-9]{0,17}")  # ASCII digits only, and small enough for any database integer
CONVERSATION_HEADING = re.compile(r"conversation #([1-9][0-9]{0,17})\b", re.IGNORECASE)
PART_LIMIT = TELEGRAM_LIMIT - 200  # room for a part's heading
INLINE_CHARS = 300  # words longer than this are quoted lines of at most this many characters
MAX_TRANSCRIPT_MESSAGES = 3  # a longer transcript is sent as one .txt document
SAY_USAGE = "Use /say N your words, with N a conversation number from /recent."
SHOW_USAGE = "Use /show N, with N a conversation number from /recent."
PAUSE_USAGE = "Use /pause N, with N a conversation number from /recent."
RESUME_USAGE = "Use /resume N, with N a paused conversation's number."
ROLE_NAMES = {VISITOR: "Visitor", OWNER: "You, in person", NOTICE: "Note"}


def conversation_named_in(text: Any) -> int | None:
    """The conversation number a message of the bot's names in its first line ("… conversation #12")."""
    match = CONVERSATION_HEADING.search(str(text or "").split("\n", 1)[0])
    return int(match.group(1)) if match else None


def _when(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


class InboxCommands:
    """Answers the owner's inbox commands and button presses, writing only to the owner's chat."""

    def __init__(
        self, conversations: Conversations, store: Store, client: TelegramClient, confirm_seconds: float = 6.0
    ):
        self._recorder = conversations.recorder
        self._page = conversations.page
        self._handoff = conversations.handoff
        self._store = store
        self._client = client
        self._confirm_seconds = confirm_seconds
        self._buttons: dict[str, Callable[[int, dict[str, Any]], str]] = {
            "show": self._show_button,
            "handled": self._handled_button,
            "answer": self._answer_button,
            "dismiss": self._dismiss_button,
        }

    def commands(self) -> dict[str, Callable[[str], str]]:
        """The commands this adds to the owner's bot."""
        return {
            "/recent": self.recent,
            "/show": self.show,
            "/say": self.say,
            "/pause": self.pause,
            "/resume": self.resume,
        }

    # --- commands -------------------------------------------------------------------------------------

    def recent(self, _: str) -> str:
        """The latest 10 conversations: number, when, first message, size, lead or question."""
        rows = self._recorder.recent(10)
        if not rows:
            return "No conversations yet."
        lines = ["<b>Recent conversations</b>, newest first. /show N reads one:"]
        for row in rows:
            marks = " ".join(m for m, on in (("📇 lead", row["lead"]), ("❓ question", row["question"])) if on)
            paused = " ⏸ yours" if row["paused_until"] else ""
            first = html.escape(one_line(row["first"], 80))
            lines.append(
                f"#{row['id']} · {_when(row['started_at'])} · “{first}” · {row['size']} messages {marks}{paused}"
            )
        return "\n".join(lines)

    def show(self, argument: str) -> str:
        """Send conversation N's transcript, in as many messages as Telegram's limit needs."""
        if not NUMBER.fullmatch(argument):
            return SHOW_USAGE
        return self.send_transcript(int(argument))

    def send_transcript(self, number: int) -> str:
        """Send the transcript of conversation ``number``: as messages when it fits in a few, else as one
        ``.txt`` document (a long conversation never floods the chat). Return a line to send after it."""
        conversation = self._recorder.conversation(number)
        if conversation is None:
            return f"There is no conversation #{number}."
        rows = self._recorder.transcript(number)
        started = _when(conversation["started_at"])
        parts = _pack([line for row in rows for line in transcript_lines(row, html_style=True)] or ["(no messages)"])
        if len(parts) <= MAX_TRANSCRIPT_MESSAGES:
            for index, part in enumerate(parts, start=1):
                heading = f"<b>Conversation #{number}</b> · part {index} of {len(parts)} · started {started}"
                self._store.outbox.link(self._client.send_message(f"{heading}\n{part}", parse_mode="HTML"), number)
        else:
            text = "\n".join(line for row in rows for line in transcript_lines(row, html_style=False))
            caption = f"Conversation #{number} · {len(rows)} messages · started {started}"
            document = f"{caption}\n\n{text}\n".encode()
            self._store.outbox.link(self._client.send_document(f"conversation-{number}.txt", document, caption), number)
        return f"Reply to the transcript, or send /say {number} text, to write to the visitor in person."

    def say(self, argument: str) -> str:
        """``/say N text``: the owner's words into conversation N."""
        parts = re.fullmatch(r"(\S+)\s+(.*\S.*)", argument, re.S)
        if not parts or not NUMBER.fullmatch(parts[1]):
            return SAY_USAGE
        return self.say_to(int(parts[1]), parts[2].strip())

    def say_to(self, number: int, text: str) -> str:
        """Put ``text`` into conversation ``number`` and report whether the visitor's page showed it."""
        open_page = self._page.page_open(number)
        message_id = self._handoff.say(number, text)
        if message_id is None:
            return f"There is no conversation #{number}."
        if open_page:
            deadline = time.monotonic() + self._confirm_seconds
            while time.monotonic() < deadline:
                if self._page.was_shown(message_id):
                    return f"✓ Delivered to conversation #{number}: the visitor's page shows your words."
                time.sleep(0.2)
        return (
            f"Saved in conversation #{number}, but the visitor's page is not open, so they have not seen it. "
            "The replica will take it into account if they write again."
        )

    def pause(self, argument: str) -> str:
        """``/pause N``: the conversation is the owner's until ``/resume N`` or 30 quiet minutes."""
        if not NUMBER.fullmatch(argument):
            return PAUSE_USAGE
        number = int(argument)
        if not self._handoff.pause(number):
            return f"There is no conversation #{number}."
        return (
            f"⏸ Conversation #{number} is yours: the replica is quiet there, and the visitor's messages come here "
            f"(reply to one to answer). /resume {number} hands it back; after 30 minutes without a word from you "
            "it resumes by itself."
        )

    def resume(self, argument: str) -> str:
        """``/resume N``: the replica answers in conversation N again."""
        if not NUMBER.fullmatch(argument):
            return RESUME_USAGE
        number = int(argument)
        if not self._handoff.resume(number):
            return f"Conversation #{number} was not paused."
        return f"▶ Conversation #{number} is back with the replica; the visitor is told."

    # --- buttons --------------------------------------------------------------------------------------

    def handle_callback(self, query: dict[str, Any]) -> None:
        """Act on a button press from the owner's chat; answer every press, so no button spins."""
        query_id = query.get("id")
        if not isinstance(query_id, str):
            return
        message = query.get("message") if isinstance(query.get("message"), dict) else {}
        chat = message.get("chat") if isinstance(message.get("chat"), dict) else {}
        if str(chat.get("id", "")) != str(self._client.chat_id):
            log.warning("Ignoring a button press from chat %s, which is not the owner's", str(chat.get("id", "?"))[:32])
            self._answer(query_id, "This button only works in its owner's chat.")
            return
        action, _, number = str(query.get("data") or "").partition(":")
        handler = self._buttons.get(action)
        try:
            text = handler(int(number), message) if handler and NUMBER.fullmatch(number) else "Unknown button."
        except Exception as error:
            log.error("Could not act on a button (%s)", type(error).__name__, exc_info=True)
            text = f"Sorry, that failed ({type(error).__name__})."
        self._answer(query_id, text)

    def _answer(self, query_id: str, text: str) -> None:
        try:
            self._client.answer_callback_query(query_id, text[:200])
        except TelegramError as error:
            log.warning("Could not answer a button press: %s", error)

    def _show_button(self, number: int, _: dict[str, Any]) -> str:
        after = self.send_transcript(number)
        if after.startswith("There is no"):
            return after
        self._client.send_message(after, parse_mode=None)
        return f"Conversation #{number} is below."

    def _handled_button(self, lead_id: int, message: dict[str, Any]) -> str:
        changed = self._store.leads.set_status(lead_id, "handled")
        self._replace_keyboard(message, "handled", f"handled:{lead_id}", "✓ Handled")
        return "Marked handled." if changed else "Already handled."

    def _answer_button(self, question_id: int, _: dict[str, Any]) -> str:
        question = self._store.questions.get(question_id)
        if question is None:
            return "That question is gone."
        # The heading makes the owner's reply to this prompt teach the answer, like a reply to the alert.
        prompt = f"{QUESTION_TITLE} #{question_id}\n“{one_line(question['question'], 1000)}”\nReply with your answer."
        force_reply = {"force_reply": True, "input_field_placeholder": "Your answer"}
        self._client.send_message(prompt, parse_mode=None, reply_markup=force_reply)
        return "Type your answer as a reply."

    def _dismiss_button(self, question_id: int, message: dict[str, Any]) -> str:
        changed = self._store.questions.dismiss(question_id)
        self._replace_keyboard(message, "dismiss", f"dismiss:{question_id}", "✓ Dismissed", drop=("answer",))
        return "Dismissed." if changed else "Already dismissed or answered."

    def _replace_keyboard(
        self, message: dict[str, Any], action: str, data: str, label: str, drop: tuple[str, ...] = ()
    ) -> None:
        """Show the new state on the alert's buttons (the pressed one relabelled, ``drop`` ones removed)."""
        markup = message.get("reply_markup") if isinstance(message.get("reply_markup"), dict) else {}
        rows = []
        for row in markup.get("inline_keyboard") or []:
            kept = []
            for button in row if isinstance(row, list) else []:
                kind = str(button.get("callback_data", "")).partition(":")[0] if isinstance(button, dict) else ""
                if kind in drop:
                    continue
                kept.append({"text": label, "callback_data": data} if kind == action else button)
            if kept:
                rows.append(kept)
        message_id = message.get("message_id")
        if rows and type(message_id) is int and rows != markup.get("inline_keyboard"):
            try:
                self._client.edit_reply_markup(message_id, {"inline_keyboard": rows})
            except TelegramError as error:
                log.warning("Could not update an alert's buttons: %s", error)


def transcript_lines(row: Any, html_style: bool) -> list[str]:
    """One recorded message as transcript lines: who and when, then the words. Words on one short line
    follow the heading; longer or multi-line words are quoted lines behind the "│ " bar, so no visitor
    line can pass for a line of the transcript's own."""
    escape = html.escape if html_style else str
    when = datetime.fromtimestamp(row["at"], timezone.utc).strftime("%H:%M")
    who = ROLE_NAMES.get(row["role"], "Replica")
    heading = f"[{when}] <b>{who}</b>" if html_style else f"[{when}] {who}"
    if row["role"] not in ROLE_NAMES:
        details = [f"tools: {row['tools']}"] * bool(row["tools"])
        details += [f"{row['model_calls']} model call(s)", f"{(row['reply_ms'] or 0) / 1000:.1f} s"]
        heading += f" <i>({escape('; '.join(details))})</i>" if html_style else f" ({'; '.join(details)})"
    text = row["text"]
    if "\n" not in text and "\r" not in text and len(text) <= INLINE_CHARS:
        return [f"{heading}: {escape(text)}"]
    lines = [f"{heading}:"]
    for line in quoted_lines(text):
        body = line[len(QUOTE_BAR) :]
        for start in range(0, max(len(body), 1), INLINE_CHARS):  # a very long line: several quoted lines
            lines.append(QUOTE_BAR + escape(body[start : start + INLINE_CHARS]))
    return lines


def _pack(lines: list[str], limit: int = PART_LIMIT) -> list[str]:
    """Lines joined into parts of at most ``limit`` Telegram units (every line is far shorter)."""
    parts, current, used = [], [], 0
    for line in lines:
        size = utf16_units(line) + 1
        if current and used + size > limit:
            parts.append("\n".join(current))
            current, used = [], 0
        current.append(line)
        used += size
    if current:
        parts.append("\n".join(current))
    return parts
