"""The owner stepping into a conversation from Telegram.

- **Takeover.** The owner's words (``/say``) are stored in the conversation, shown by the visitor's page
  at its next check, and part of the history the model sees afterwards.
- **Handoff.** A paused conversation is the owner's: the replica does not answer there, and the
  visitor's messages are forwarded to Telegram at once. It resumes on ``/resume``, or by itself after
  ``handoff_seconds`` without a word from the owner.
"""

from __future__ import annotations

from replica import wording
from replica.alerts import Alert, Notifier
from replica.inbox.page_channel import PageChannel
from replica.inbox.recorder import NOTICE, OWNER, Conversation, Recorder
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.storage.records import AlertKind

HANDOFF_SECONDS = 30 * 60


class Handoff:
    """The owner's side of a conversation: their words, taking it over, handing it back."""

    def __init__(
        self,
        recorder: Recorder,
        page: PageChannel,
        notifier: Notifier,
        handoff_seconds: float = HANDOFF_SECONDS,
        clock: Clock = REAL_CLOCK,
    ):
        self._recorder = recorder
        self._store = recorder.store
        self._page = page
        self._notifier = notifier
        self.handoff_seconds = handoff_seconds
        self._clock = clock

    @property
    def _owner(self) -> str:
        return self._recorder.owner_name

    def say(self, conversation_id: int, text: str) -> int | None:
        """Put the owner's words into the conversation (shown at the page's next check); keeps a handoff alive."""
        if self._store.conversations.get(conversation_id) is None:
            return None
        message_id = self._recorder.record(conversation_id, OWNER, text, shown=False)
        self._store.conversations.extend_pause(conversation_id, self._clock.time() + self.handoff_seconds)
        return message_id

    def pause(self, conversation_id: int) -> bool:
        """Hand the conversation to the owner; False if there is no such conversation."""
        return self._store.conversations.pause(conversation_id, self._clock.time() + self.handoff_seconds)

    def resume(self, conversation_id: int, by_itself: bool = False) -> bool:
        """Give the conversation back to the replica and tell the visitor; False if it was not paused."""
        resumed = self._store.conversations.resume(conversation_id)
        if resumed:
            notice = wording.OWNER_STEPPED_AWAY if by_itself else wording.OWNER_HANDED_BACK
            self._recorder.record(conversation_id, NOTICE, notice.format(owner=self._owner), shown=False)
        return resumed

    def resume_expired(self) -> list[int]:
        """Resume every handoff whose owner has been silent for ``handoff_seconds``; return their numbers."""
        expired = self._store.conversations.paused_until_before(self._clock.time())
        return [number for number in expired if self.resume(number, by_itself=True)]

    def pass_to_owner(self, conversation: Conversation, message: str) -> str:
        """In a handed-over conversation: forward the visitor's message to the owner; return what the
        visitor is told (that the owner answers in person, the first time; a short receipt after)."""
        alert = Alert(
            kind=AlertKind.VISITOR,
            title=f"Message in conversation #{conversation.id}",
            fields=(("Visitor", message),),
            session_id=conversation.session,
            hint=f"Reply to this message to answer them in person, or /resume {conversation.id} to hand back to the replica.",
            quoted=("Visitor",),
            conversation=conversation.id,
        )
        self._store.outbox.queue(alert.entry())
        self._notifier.notify(alert)
        told_now = self._page.claim_handoff_notice(conversation.id)
        return (wording.HANDED_OVER if told_now else wording.PASSED_ON).format(owner=self._owner)
