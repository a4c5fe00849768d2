"""The key a visitor's browser keeps to its conversation, so the page opens it again when they come back.

A key is the conversation's session id and a signature of it made with the app's own salt (kept in the
database, so every instance and every restart signs alike): the server stores nothing per key, and
no browser can make a key to a conversation it was not in. A key to a conversation the retention
period removed opens nothing.
"""

from __future__ import annotations

import hashlib
import hmac

SIGNATURE_CHARS = 32


class ReturnKeys:
    """Makes and checks the keys browsers keep; ``salt`` is the app's secret salt."""

    def __init__(self, salt: str):
        self._key = hmac.new(salt.encode(), b"replica return key", hashlib.sha256).digest()

    def key_for(self, session: str) -> str:
        """The key to ``session``'s conversation: ``session.signature``."""
        return f"{session}.{self._sign(session)}"

    def session_of(self, key: object) -> str | None:
        """The session a key opens, when its signature is this app's; ``None`` for anything else."""
        if not isinstance(key, str) or len(key) > 200 or "." not in key:
            return None
        session, _, signature = key.rpartition(".")
        return session if session and hmac.compare_digest(signature, self._sign(session)) else None

    def browser_secret(self) -> str:
        """A stable secret for what Gradio keeps in the browser (its ``BrowserState`` is unreadable after a
        restart with a secret of its own making)."""
        return hmac.new(self._key, b"browser state", hashlib.sha256).hexdigest()[:32]

    def _sign(self, session: str) -> str:
        return hmac.new(self._key, session.encode("utf-8", "replace"), hashlib.sha256).hexdigest()[:SIGNATURE_CHARS]
