"""Logging set-up that keeps secrets out of every log line, tracebacks included."""

from __future__ import annotations

import logging
from typing import Iterable

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
QUOTE_LIMIT = 300  # the most characters of visitor- or model-written text one log line quotes


def clip(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``text`` made safe to quote in a log line: newlines escaped (no forged lines), at most ``limit``
    characters, with a note of how much was left out. The store keeps the full text."""
    value = str(text)
    escaped = value[:limit].replace("\\", "\\\\").replace("\r", "\\r").replace("\n", "\\n")
    if len(value) <= limit and len(escaped) <= limit:
        return escaped
    left_out = len(value) - limit
    return f"{escaped[:limit]}…" + (f"[+{left_out} chars]" if left_out > 0 else "")


class RedactingFormatter(logging.Formatter):
    """Formats as usual, then replaces each secret with ``<redacted>`` in the finished line."""

    def __init__(self, secrets: Iterable[str | None], fmt: str = FORMAT):
        super().__init__(fmt)
        self._secrets = [s for s in secrets if s and len(s) >= 6]

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        for secret in self._secrets:
            text = text.replace(secret, "<redacted>")
        return text


def setup_logging(secrets: Iterable[str | None], level: int = logging.INFO) -> None:
    """Log to stderr at ``level`` with ``secrets`` redacted; quiet the HTTP libraries that log URLs."""
    handler = logging.StreamHandler()
    handler.setFormatter(RedactingFormatter(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # urllib3 logs request paths (the Telegram path holds the bot token) at DEBUG; httpx logs every call.
    for noisy in ("urllib3", "httpx", "httpcore", "httpx2", "bm25s"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
