"""Alert channels beside Telegram: any service Apprise knows, by URL (``ALERT_URLS``).

Apprise does the sending; this module names each channel without its secrets, renders an alert (or a
fold of several) as plain text within the service's length, and reports why a send failed in words
that hold no part of the URL. Apprise says only whether a send went through, so every failure is one
that may pass: the sender retries it until its limits (``ALERT_MAX_ATTEMPTS``, ``ALERT_GIVE_UP_HOURS``).
"""

from __future__ import annotations

import hashlib
import logging
import re
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import apprise

from replica.alerts.alert import Alert
from replica.alerts.channel import ChannelError
from replica.alerts.pictures import Pictures, drawn_for
from replica.alerts.render import fold, to_plain
from replica.stats.report import PICTURE_NAME

log = logging.getLogger(__name__)
# Apprise's own log lines may name a URL's parts (an ntfy topic is the secret): they stay out of the
# app's log; each send captures them, and the sender logs the reason with those parts redacted.
logging.getLogger("apprise").propagate = False

CAPTURE_FORMAT = re.compile(r"^[\d-]+ [\d:,]+ - \w+ - ")


@dataclass
class AppriseChannel:
    """One Apprise URL: ``key`` identifies it in the database (a hash: no secret), ``label`` in logs,
    ``doctor`` and exports ("ntfy, channel 2"); the URL itself is never shown."""

    place: int
    url: str = field(repr=False)
    plugin: Any = field(repr=False)
    pictures: Pictures | None = field(default=None, repr=False)  # draws a digest's picture of the week
    unreachable_hint = "check the URL and the network (docs/alerts.md#other-alert-channels)"

    @property
    def key(self) -> str:
        return "apprise-" + hashlib.sha256(self.url.encode()).hexdigest()[:16]

    @property
    def label(self) -> str:
        return f"{self.plugin.service_name}, channel {self.place}"

    @property
    def body_limit(self) -> int:
        return int(getattr(self.plugin, "body_maxlen", 0) or 32768)

    @property
    def title_limit(self) -> int:
        return int(getattr(self.plugin, "title_maxlen", 0) or 250)

    def send(self, alert: Alert) -> None:
        """Send one alert (see :func:`render`). A digest with a picture carries it as an attachment where
        the service takes files, and its totals in words (the picture's caption) where it does not."""
        title, body = render(alert, self)
        drawn = drawn_for(alert, self.pictures)
        if drawn is None:
            self._raise_on(self.send_text(title, body))
        elif self.plugin.attachment_support:
            with tempfile.TemporaryDirectory(prefix="replica-") as folder:
                picture = Path(folder) / PICTURE_NAME
                picture.write_bytes(drawn.png)
                self._raise_on(self.send_text(title, body, attach=str(picture)))
        else:
            self._raise_on(self.send_text(title, f"{body}\n\n{drawn.caption}"[: self.body_limit]))

    def send_fold(self, alerts: list[tuple[int | None, Alert]]) -> None:
        """Send several alerts of one kind as one message (see :func:`render_fold`)."""
        self._raise_on(self.send_text(*render_fold(alerts, self)))

    @staticmethod
    def _raise_on(problem: str | None) -> None:
        if problem:
            raise ChannelError(problem)

    def send_text(self, title: str, body: str, attach: str | None = None) -> str | None:
        """Send one message (with the file at ``attach``, for a service that takes files); ``None`` when the
        service took it, else why not (no part of the URL in it)."""
        files = {"attach": apprise.AppriseAttachment(attach)} if attach else {}
        try:
            with apprise.LogCapture(level=logging.WARNING) as captured:
                delivered = self.plugin.notify(
                    body=body, title=title[: self.title_limit], body_format=apprise.NotifyFormat.TEXT, **files
                )
        except Exception as error:  # a plugin bug must not stop the sender
            return f"{type(error).__name__} in the {self.plugin.service_name} plugin"
        if delivered:
            return None
        lines = [CAPTURE_FORMAT.sub("", line) for line in captured.getvalue().splitlines() if line.strip()]
        return redact(lines[-1] if lines else "the service refused the message", self.url)[:300]


def parse_channels(urls: tuple[str, ...]) -> tuple[list[AppriseChannel], list[str]]:
    """The channels of ``ALERT_URLS``, and a problem line for each URL Apprise cannot read (named by place)."""
    channels, problems = [], []
    for place, url in enumerate(urls, 1):
        plugin = apprise.Apprise.instantiate(url, suppress_exceptions=True)
        if plugin is None:
            scheme = url.split("://", 1)[0][:20]
            problems.append(f"ALERT_URLS URL {place} ({scheme}://…) is not a URL Apprise knows")
        else:
            channels.append(AppriseChannel(place, url, plugin))
    return channels, problems


def secrets_of(url: str) -> list[str]:
    """The parts of an Apprise URL that may be secret, for the log's redaction: the whole URL, user and
    password, a host that is no domain or address (Discord's webhook id), and path parts and query values
    of eight characters or more (a topic or a token is as good as a password)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    pieces = [
        url,
        parts.username or "",
        parts.password or "",
        unquote(parts.username or ""),
        unquote(parts.password or ""),
    ]
    pieces += [host] if "." not in host and host != "localhost" else []
    if "@" not in parts.netloc:  # tgram://123456:TOKEN/chat: the bot's token is the netloc itself
        pieces += [parts.netloc, *parts.netloc.split(":")]
    paths = [unquote(piece) for piece in parts.path.split("/")]
    queries = [unquote(value) for pair in parts.query.split("&") for value in pair.split("=")[1:]]
    shortest = 4 if parts.scheme.lower().startswith("ntfy") else 8  # an ntfy topic is its password, whatever its length
    return [piece for piece in pieces if len(piece) >= 4] + [
        piece for piece in paths + queries if len(piece) >= shortest
    ]


def redact(text: str, url: str) -> str:
    """``text`` with every secret-looking part of ``url`` replaced."""
    for secret in sorted(secrets_of(url), key=len, reverse=True):
        text = text.replace(secret, "<redacted>")
    return text


def render(alert: Alert, channel: AppriseChannel) -> tuple[str, str]:
    """An alert as (title, plain-text body) within the channel's length: visitor text quoted, as in Telegram.
    The body does not repeat the title (the service shows it), and Telegram's hint ("reply to this
    message") is left out: the owner answers in Telegram."""
    alert = replace(alert, hint="")
    body = to_plain(alert, channel.body_limit)
    return alert.heading, body.split("\n", 1)[1] if body.startswith(alert.heading + "\n") else body  # the title once


def render_fold(alerts: list[tuple[int | None, Alert]], channel: AppriseChannel) -> tuple[str, str]:
    """Several alerts of one kind as one plain-text message within the channel's length."""
    return fold(alerts, channel.body_limit)
