"""A real SMTP server on 127.0.0.1 (aiosmtpd) that keeps what it is sent, for the e-mail service tests.

The app sends to it through Apprise's ``mailto://`` exactly as it would to a mail host; the server may
be told to refuse mail for a while (a service that is down), as a real one answers ``451``.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from email import policy
from email.parser import BytesParser

from aiosmtpd.controller import Controller

from tests.fixtures.environment import free_port, wait_until


@dataclass(frozen=True)
class Mail:
    """One mail the server took: envelope sender and recipients, subject and plain text, and its ``To:``
    header as written (where a display name would show)."""

    sender: str
    to: tuple[str, ...]
    subject: str
    text: str
    to_header: str = ""

    @property
    def code(self) -> str:
        """The six-digit code the mail carries (the test fails when there is none)."""
        found = re.search(r"\b(\d{6})\b", self.text)
        assert found, self.text
        return found.group(1)


class FakeMailServer:
    """An SMTP server on a free port of 127.0.0.1; :attr:`url` is the ``VERIFY_EMAIL_URL`` that reaches it."""

    def __init__(self):
        self.mails: list[Mail] = []
        self.refusing = False
        self._lock = threading.Lock()
        self.port = free_port()
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self._controller.start()

    @property
    def url(self) -> str:
        return f"mailto://127.0.0.1:{self.port}?from=replica@example.com&mode=insecure"

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd's handler hook
        if self.refusing:
            return "451 4.3.0 Service unavailable, try again later"
        message = BytesParser(policy=policy.default).parsebytes(envelope.content)
        body = message.get_body(preferencelist=("plain",))
        with self._lock:
            self.mails.append(
                Mail(
                    envelope.mail_from,
                    tuple(envelope.rcpt_tos),
                    str(message["subject"]),
                    body.get_content(),
                    str(message["to"]),
                )
            )
        return "250 OK"

    def to(self, address: str) -> list[Mail]:
        """The mails sent to ``address``."""
        with self._lock:
            return [mail for mail in self.mails if address in mail.to]

    def wait_for(self, address: str, count: int = 1, timeout: float = 30.0) -> list[Mail]:
        """Wait until ``count`` mails reached ``address``; they, oldest first."""
        assert wait_until(lambda: len(self.to(address)) >= count, timeout), (
            f"{len(self.to(address))} mail(s) to {address}"
        )
        return self.to(address)

    def close(self) -> None:
        self._controller.stop()
