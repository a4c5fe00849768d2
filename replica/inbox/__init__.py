"""The owner's side of the conversations: each one recorded (``recorder``), shown live in the visitor's
page (``page_channel``), opened again by a returning browser (``return_keys``), and taken over by the
owner (``handoff``). :class:`Inbox` holds the three for the wiring; the rows themselves are the store's
(``store.conversations``)."""

from __future__ import annotations

from dataclasses import dataclass

from replica.alerts import Notifier
from replica.inbox.handoff import HANDOFF_SECONDS, Handoff
from replica.inbox.page_channel import PageChannel
from replica.inbox.recorder import Conversation, Recorder
from replica.inbox.return_keys import ReturnKeys
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.storage import Store


@dataclass(frozen=True)
class Inbox:
    """The three views of the recorded conversations, sharing one store and clock."""

    recorder: Recorder
    page: PageChannel
    handoff: Handoff

    @classmethod
    def build(
        cls,
        store: Store,
        salt: str,
        owner_name: str,
        notifier: Notifier,
        handoff_seconds: float = HANDOFF_SECONDS,
        clock: Clock = REAL_CLOCK,
    ) -> "Inbox":
        """The recorder, the page channel and the handoff over ``store``."""
        recorder = Recorder(store, salt, owner_name, clock)
        page = PageChannel(recorder, ReturnKeys(salt), clock)
        return cls(recorder, page, Handoff(recorder, page, notifier, handoff_seconds, clock))


__all__ = ["Conversation", "Inbox", "Handoff", "PageChannel", "Recorder"]
