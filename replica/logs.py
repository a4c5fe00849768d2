"""Logging set-up that keeps secrets out of every log line, tracebacks included, and every line short.

Gradio prints some tracebacks itself, straight to stderr (a malformed request to one of its routes):
stderr is wrapped too, so that what a visitor sends costs one short line there, whatever its size, and
a traceback printed there is left out, counted in one line a minute with its last line. The app's own
log records, written beside stderr's wrapper, keep theirs.
"""

from __future__ import annotations

import logging
import sys
import threading
from typing import Any, Iterable, TextIO
from urllib.parse import unquote, urlsplit

from replica.runtime.clock import REAL_CLOCK, Clock
from replica.text import clip

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LINE_LIMIT = 1000  # the most characters of any line written to stderr; the rest is counted, not written


SHORTEST_SECRET = 4  # shorter pieces are left alone: redacting them would blank ordinary words


def url_secrets(url: str | None) -> list[str]:
    """The parts of a URL with credentials (``DATABASE_URL``, ``OPENAI_BASE_URL``) that are secret: the
    URL itself, its password (as written and percent-decoded) and its query values."""
    if not url:
        return []
    parts = urlsplit(url)
    pieces = [url, parts.password or "", unquote(parts.password or "")]
    pieces += [value for pair in parts.query.split("&") for value in pair.split("=")[1:]]
    pieces += [unquote(piece) for piece in pieces[3:]]
    return [piece for piece in pieces if len(piece) >= SHORTEST_SECRET]


def shown_url(url: str) -> str:
    """A URL as it may be shown (doctor, the log): no user or password, and each query value hidden."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    query = "&".join(f"{pair.split('=')[0]}=…" for pair in parts.query.split("&") if pair)
    return f"{parts.scheme}://{netloc}{parts.path}" + (f"?{query}" if query else "")


class EveryMinute:
    """A warning logged at most once a minute, with how many times it happened since the last one: a
    flood of the same thing (refused requests, strangers writing to the bot) costs a line a minute.

    ``message`` has one ``%d``, for the count, then one ``%s`` for each of the ``details`` the call is
    given (the last call's are logged). Call the object each time the thing happens."""

    def __init__(self, logger: logging.Logger, message: str, seconds: float = 60.0, clock: Clock = REAL_CLOCK):
        self._logger = logger
        self._message = message
        self._seconds = seconds
        self._clock = clock
        self._count = 0
        self._logged_at = float("-inf")
        self._lock = threading.Lock()

    def __call__(self, *details: object) -> None:
        with self._lock:
            self._count += 1
            now = self._clock.monotonic()
            if now - self._logged_at < self._seconds:
                return
            count, self._count, self._logged_at = self._count, 0, now
        self._logger.warning(self._message, count, *details)


class RedactingFormatter(logging.Formatter):
    """Formats as usual, then replaces each secret with ``<redacted>`` in the finished line."""

    def __init__(self, secrets: Iterable[str | None], fmt: str = FORMAT):
        super().__init__(fmt)
        self._secrets = sorted({s for s in secrets if s and len(s) >= SHORTEST_SECRET}, key=len, reverse=True)

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        for secret in self._secrets:
            text = text.replace(secret, "<redacted>")
        return text


class ClippedStream:
    """A text stream that writes at most ``limit`` characters of each line to ``stream`` (the rest is
    replaced by a count), with ``secrets`` redacted: for whatever prints to stderr directly."""

    def __init__(self, stream: TextIO, secrets: Iterable[str | None] = (), limit: int = LINE_LIMIT):
        self._stream = stream
        self._secrets = sorted({s for s in secrets if s and len(s) >= SHORTEST_SECRET}, key=len, reverse=True)
        self._limit = limit
        self._column = 0  # characters of the current line written so far
        self._dropped = 0  # characters of the current line left out so far

    def write(self, text: str) -> int:
        for secret in self._secrets:
            text = text.replace(secret, "<redacted>")
        out = []
        for index, piece in enumerate(text.split("\n")):
            if index:  # a line ends: say how much of it was left out, then start the next
                if self._dropped:
                    out.append(f"…[+{self._dropped} chars]")
                out.append("\n")
                self._column = self._dropped = 0
            room = max(self._limit - self._column, 0)
            out.append(piece[:room])
            self._column += min(len(piece), room)
            self._dropped += max(len(piece) - room, 0)
        self._stream.write("".join(out))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


class FoldedTracebacks:
    """A text stream that passes lines on to ``stream``, but for tracebacks: from "Traceback (most recent
    call last):" (or a chained one's "During handling…" / "The above exception…") to the exception's
    own line, a traceback is left out and counted (``folded``, once a minute, with that last line).
    Lines are passed on whole, as they end."""

    STARTS = ("Traceback (most recent call last):", "During handling of the above exception", "The above exception")

    def __init__(self, stream: Any, folded: EveryMinute | None = None):
        self._stream = stream
        self._folded = folded or EveryMinute(
            logging.getLogger(__name__),
            "stderr: left out %d traceback(s) a library printed (logged at most once a minute); the last: %s",
        )
        self._partial = ""
        self._in_traceback = False
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            *lines, self._partial = (self._partial + text).split("\n")
            if len(self._partial) > LINE_LIMIT:  # a line with no end in sight: pass it on as it comes
                lines.append(self._partial)
                self._partial = ""
            kept, last = [], None
            for line in lines:
                if line.startswith(self.STARTS) or (self._in_traceback and (not line.strip() or line[0].isspace())):
                    self._in_traceback = True
                elif self._in_traceback:
                    self._in_traceback, last = False, line  # the exception's own line ends it
                else:
                    kept.append(line + "\n")
            if kept:
                self._stream.write("".join(kept))
        if last is not None:
            self._folded(clip(last, 200))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def setup_logging(secrets: Iterable[str | None], level: int = logging.INFO) -> None:
    """Log to stderr at ``level`` with ``secrets`` redacted and every line clipped (stderr itself is
    wrapped so, and a traceback printed straight to it is left out and counted); quiet the HTTP
    libraries that log URLs."""
    secrets = list(secrets)
    if not isinstance(sys.stderr, FoldedTracebacks):
        sys.stderr = FoldedTracebacks(ClippedStream(sys.stderr, secrets))
    handler = logging.StreamHandler(sys.stderr._stream)  # the app's own records keep their tracebacks
    handler.setFormatter(RedactingFormatter(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # urllib3 logs request paths (the Telegram path holds the bot token) at DEBUG; httpx logs every call.
    # The MCP SDK logs every stateless request ("Terminating session: None").
    for noisy in ("urllib3", "httpx", "httpcore", "httpx2", "bm25s", "mcp.server.streamable_http"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
