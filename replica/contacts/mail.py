"""The e-mail service mails to visitors go out through: one Apprise URL with no recipient
(``VERIFY_EMAIL_URL``); each mail names its recipient as the URL's ``to`` (every Apprise e-mail service,
SMTP or an HTTP API, reads it so).
"""

from __future__ import annotations

import logging
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import apprise

from replica.alerts.apprise_channel import CAPTURE_FORMAT, redact


def addressed(url: str, email: str) -> str:
    """``url`` with ``email`` as its only recipient (a ``to`` the owner's URL may hold is replaced)."""
    parts = urlsplit(url)
    query = [(key, value) for key, value in parse_qsl(parts.query, keep_blank_values=True) if key.lower() != "to"]
    return urlunsplit(parts._replace(query=urlencode([*query, ("to", email)])))


class MailService:
    """Sends one plain-text mail to one address through the service at ``url``; the URL is never shown."""

    def __init__(self, url: str):
        self._url = url
        plugin = apprise.Apprise.instantiate(url, suppress_exceptions=True)
        self.problem = "" if plugin is not None else "VERIFY_EMAIL_URL is not a URL Apprise knows"
        self.label = plugin.service_name if plugin is not None else "unknown service"

    def send(self, to: str, subject: str, body: str) -> str | None:
        """Mail ``body`` to ``to``: ``None`` when the service took it, else why not (no part of the URL in it)."""
        if self.problem:
            return self.problem
        plugin = apprise.Apprise.instantiate(addressed(self._url, to), suppress_exceptions=True)
        if plugin is None:
            return "the address cannot be given to the service"
        try:
            with apprise.LogCapture(level=logging.WARNING) as captured:
                delivered = plugin.notify(body=body, title=subject, body_format=apprise.NotifyFormat.TEXT)
        except Exception as error:  # a plugin bug must not stop the sender
            return f"{type(error).__name__} in the {self.label} plugin"
        if delivered:
            return None
        lines = [CAPTURE_FORMAT.sub("", line) for line in captured.getvalue().splitlines() if line.strip()]
        return redact(lines[-1] if lines else "the service refused the mail", addressed(self._url, to))[:300]
