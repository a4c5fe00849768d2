"""The visitor's page as a live channel: what it shows, whether it is open, and what has reached it.

The page checks every few seconds for the owner's words (and the app's notices); while a reply
streams, it is left alone, since an update would be overwritten by the stream.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Iterator

from replica import wording
from replica.inbox.recorder import NOTICE, Recorder
from replica.inbox.return_keys import ReturnKeys
from replica.runtime.clock import REAL_CLOCK, Clock

IDLE_SECONDS = 30 * 60  # the page stops checking for the owner's words after this long without activity
PAGE_OPEN_SECONDS = 15  # a page that checked this recently is open


class PageChannel:
    """What each open page is shown, from the recorded conversation."""

    def __init__(self, recorder: Recorder, keys: ReturnKeys, clock: Clock = REAL_CLOCK):
        self._recorder = recorder
        self._keys = keys
        self._store = recorder.store
        self._clock = clock
        self._lock = threading.Lock()
        self._busy: set[str] = set()  # sessions with a reply under way: their page is not updated meanwhile
        self._seen: dict[str, float] = {}  # session -> when its page last checked
        self._next_sweep = 0.0

    @contextlib.contextmanager
    def replying(self, session: str) -> Iterator[None]:
        """While a reply streams, the page is left alone."""
        with self._lock:
            self._busy.add(session)
        try:
            yield
        finally:
            with self._lock:
                self._busy.discard(session)

    def page_messages(self, session: str) -> list[tuple[str, str]]:
        """Every recorded message of ``session``'s conversation, oldest first, as (role, text): what its
        page shows."""
        return [(row.role, row.text) for row in self._store.conversations.messages_of_session(session)]

    def for_page(self, session: str) -> tuple[bool, bool]:
        """Whether the owner's words or a notice arrived for ``session``'s page since it last checked (now
        marked shown), and whether the page should keep checking: while there was activity in the last
        30 minutes, for as long as the owner has the conversation (so the notice that the replica is
        back reaches it), and while a question the visitor asked waits for the owner's answer."""
        now = self._clock.time()
        with self._lock:
            self._seen[session] = now
            if now >= self._next_sweep:  # forget pages that stopped checking, once a minute
                self._seen = {s: at for s, at in self._seen.items() if now - at <= PAGE_OPEN_SECONDS * 4}
                self._next_sweep = now + 60
            if session in self._busy:
                return False, True
        conversation = self._store.conversations.of_session(session)
        if conversation is None:
            return False, True  # no conversation yet: the page goes on checking until the visitor writes
        news = self._store.conversations.take_unshown(conversation.id) > 0
        until = conversation.paused_until
        paused = until is not None
        if until is not None and until > now and self.claim_handoff_notice(conversation.id):
            owner = self._recorder.owner_name
            self._recorder.record(conversation.id, NOTICE, wording.HANDED_OVER.format(owner=owner))
            news = True
        active = paused or now - conversation.last_at < IDLE_SECONDS
        return news, active or self._store.questions.open_for_session(session)

    def keep_in_browser(self, session: str) -> str | None:
        """The key for the visitor's browser to keep, to open ``session``'s conversation again (marked as
        kept, so the owner hears their answer will be shown there); ``None`` before its first message."""
        return self._keys.key_for(session) if self._store.conversations.mark_kept_by_browser(session) else None

    def come_back(self, key: object) -> str | None:
        """The session whose conversation a returning browser's ``key`` opens; ``None`` when the key is not
        the app's, or the conversation is gone (the retention period passed)."""
        session = self._keys.session_of(key)
        return session if session and self._store.conversations.of_session(session) else None

    @property
    def browser_secret(self) -> str:
        """The secret for what Gradio keeps in the browser (stable across restarts and instances)."""
        return self._keys.browser_secret()

    def claim_handoff_notice(self, conversation_id: int) -> bool:
        """True for the one caller that gets to tell the visitor of the handoff (the page or the reply)."""
        return self._store.conversations.claim_handoff_notice(conversation_id)

    def page_open(self, conversation_id: int) -> bool:
        """True when the conversation's page checked for messages in the last few seconds."""
        row = self._store.conversations.get(conversation_id)
        with self._lock:
            seen = self._seen.get(row.session) if row else None
        return seen is not None and self._clock.time() - seen <= PAGE_OPEN_SECONDS

    def was_shown(self, message_id: int) -> bool:
        """True once the visitor's page has shown the message."""
        return self._store.conversations.was_shown(message_id)
