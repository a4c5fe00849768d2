"""The owner in the inbox: ``/recent``, ``/show``, ``/say``, ``/pause``, ``/resume``."""

from __future__ import annotations

import html

from replica.inbox import Inbox
from replica.owner_bot.commands import BY_NAME
from replica.owner_bot.confirmations import Confirmations
from replica.owner_bot.listing_text import NUMBER, conversation_named_in, number_and_text, when
from replica.owner_bot.transcripts import pack, transcript_lines
from replica.storage import Store
from replica.telegram.client import TelegramClient
from replica.telegram.updates import RepliedTo
from replica.text import one_line

MAX_TRANSCRIPT_MESSAGES = 3  # a longer transcript is sent as one .txt document
SAVED_UNSEEN = (
    "Saved in conversation #{number}, but the visitor's page is not open, so they have not seen it. "
    "The replica will take it into account if they write again."
)
SAVED_FOR_RETURN = (
    "Saved in conversation #{number}; the visitor's page is closed, and shows your words when their browser "
    "opens the page again. The replica will take them into account if they write again."
)


class ConversationCommands:
    """Reads conversations to the owner and puts the owner's words and decisions into them."""

    def __init__(self, inbox: Inbox, store: Store, client: TelegramClient, confirmations: Confirmations):
        self._page = inbox.page
        self._handoff = inbox.handoff
        self._store = store
        self._client = client
        self._confirmations = confirmations

    def recent(self, _: str) -> str:
        """``/recent``: the latest 10 conversations: number, when, first message, size, lead or question."""
        rows = self._store.conversations.recent(10)
        if not rows:
            return "No conversations yet."
        lines = ["<b>Recent conversations</b>, newest first. /show N reads one:"]
        for row in rows:
            marks = " ".join(m for m, on in (("📇 lead", row.lead), ("❓ question", row.question)) if on)
            paused = " ⏸ yours" if row.paused_until else ""
            first = html.escape(one_line(row.first, 80))
            lines.append(f"#{row.id} · {when(row.started_at)} · “{first}” · {row.size} messages {marks}{paused}")
        return "\n".join(lines)

    def show(self, argument: str) -> str:
        """``/show N``: conversation N's transcript."""
        if not NUMBER.fullmatch(argument):
            return BY_NAME["show"].usage_line
        number = int(argument)
        if not self.send_transcript(number):
            return f"There is no conversation #{number}."
        return f"Reply to the transcript, or send /say {number} text, to write to the visitor in person."

    def send_transcript(self, number: int) -> bool:
        """Send conversation ``number``'s transcript: as messages when it fits in a few, else as one
        ``.txt`` document (a long conversation never floods the chat). False when there is no such
        conversation."""
        conversation = self._store.conversations.get(number)
        if conversation is None:
            return False
        rows = self._store.conversations.messages(number)
        started = when(conversation.started_at)
        parts = pack([line for row in rows for line in transcript_lines(row, html_style=True)] or ["(no messages)"])
        if len(parts) <= MAX_TRANSCRIPT_MESSAGES:
            for index, part in enumerate(parts, start=1):
                heading = f"<b>Conversation #{number}</b> · part {index} of {len(parts)} · started {started}"
                self._store.deliveries.link(self._client.send_message(f"{heading}\n{part}", parse_mode="HTML"), number)
        else:
            text = "\n".join(line for row in rows for line in transcript_lines(row, html_style=False))
            caption = f"Conversation #{number} · {len(rows)} messages · started {started}"
            document = f"{caption}\n\n{text}\n".encode()
            self._store.deliveries.link(
                self._client.send_document(f"conversation-{number}.txt", document, caption), number
            )
        return True

    def say(self, argument: str) -> str:
        """``/say N text``: the owner's words into conversation N."""
        parsed = number_and_text(argument)
        return self.say_to(*parsed) if parsed else BY_NAME["say"].usage_line

    def say_to(self, number: int, text: str) -> str:
        """Put ``text`` into conversation ``number``; answer at once. When the visitor's page is open, the
        owner is told a moment later whether it showed the words."""
        open_page = self._page.page_open(number)
        message_id = self._handoff.say(number, text)
        if message_id is None:
            return f"There is no conversation #{number}."
        if not open_page:
            conversation = self._store.conversations.get(number)  # None: cleared meanwhile
            kept = conversation is not None and conversation.kept_by_browser
            return (SAVED_FOR_RETURN if kept else SAVED_UNSEEN).format(number=number)
        self._confirmations.watch(message_id, number)
        return f"Sent to conversation #{number}; the visitor's page is open, and I'll say when it shows your words."

    def pause(self, argument: str) -> str:
        """``/pause N``: the conversation is the owner's until ``/resume N`` or a while without a word."""
        if not NUMBER.fullmatch(argument):
            return BY_NAME["pause"].usage_line
        number = int(argument)
        if not self._handoff.pause(number):
            return f"There is no conversation #{number}."
        minutes = round(self._handoff.handoff_seconds / 60)
        return (
            f"⏸ Conversation #{number} is yours: the replica is quiet there, and the visitor's messages come here "
            f"(reply to one to answer). /resume {number} hands it back; after {minutes} minutes without a word "
            "from you it resumes by itself."
        )

    def resume(self, argument: str) -> str:
        """``/resume N``: the replica answers in conversation N again."""
        if not NUMBER.fullmatch(argument):
            return BY_NAME["resume"].usage_line
        number = int(argument)
        if not self._handoff.resume(number):
            return f"Conversation #{number} was not paused."
        return f"▶ Conversation #{number} is back with the replica; the visitor is told."

    def conversation_replied_to(self, replied: RepliedTo | None) -> int | None:
        """The conversation of a lead alert, forwarded message or transcript the owner replied to."""
        if replied is None:
            return None
        return self._store.deliveries.conversation_of(replied.message_id) or conversation_named_in(replied.text)
