"""A visitor who comes back: the page opens their conversation again from the key their browser kept.

The key (``replica-conversation`` in the browser's localStorage, through Gradio's ``BrowserState``) is
given after the first reply and read when the page loads. A page that opened a conversation again
speaks for it from then on: this maps the page's own Gradio session to the conversation's session, in
the instance that serves the page (Gradio's queue keeps a page on one instance anyway).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Callable

import gradio as gr

from replica.web.guard import valid_session_id

STORAGE_KEY = "replica-conversation"
CAPACITY = 10_000  # pages that came back, the least recently active forgotten first

Remember = Callable[[str], "str | None"]  # session -> the key its browser keeps (None: no conversation yet)
ComeBack = Callable[[object], "str | None"]  # a kept key -> the session it opens (None: not valid, or gone)


def session_id(request: gr.Request | None) -> str:
    """The visitor's session id as Gradio issued it; any other value is replaced by a short digest of it
    (the HTTP guard refuses such requests first: this covers any route it does not see)."""
    raw = getattr(request, "session_hash", None)
    if valid_session_id(raw):
        return raw
    if not raw:
        return "anonymous"
    return "unusual-" + hashlib.sha256(str(raw).encode("utf-8", "replace")).hexdigest()[:16]


class ReturningPages:
    """Which conversation each page speaks for: its own session's, or the one its browser's key opened.
    ``remember(session)`` gives the key a browser keeps; ``come_back(key)`` the session a kept key opens;
    ``browser_secret`` is for what Gradio keeps in the browser (stable across restarts)."""

    def __init__(self, remember: Remember, come_back: ComeBack, browser_secret: str):
        self._remember = remember
        self._come_back = come_back
        self.browser_secret = browser_secret
        self._lock = threading.Lock()
        self._opened: OrderedDict[str, str] = OrderedDict()  # the page's session -> the conversation's

    def session_of(self, request: gr.Request | None) -> str:
        """The session of the conversation this page shows."""
        return self.session_for(session_id(request))

    def session_for(self, own: str) -> str:
        """The session of the conversation the page of session ``own`` shows."""
        with self._lock:
            opened = self._opened.get(own)
            if opened is not None:
                self._opened.move_to_end(own)
        return opened or own

    def open_again(self, key: object, request: gr.Request) -> bool:
        """Open the conversation the browser's ``key`` names, for this page; False when it opens none."""
        session = self._come_back(key)
        own = session_id(request)
        if session is None or session == own:
            return False
        with self._lock:
            self._opened[own] = session
            while len(self._opened) > CAPACITY:
                self._opened.popitem(last=False)
        return True

    def key(self, request: gr.Request) -> str | None:
        """The key for this page's browser to keep; ``None`` while the conversation has no message."""
        return self._remember(self.session_of(request))
