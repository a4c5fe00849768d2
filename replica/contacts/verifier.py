"""What a conversation does for verified contacts: a lead's address is offered a code, and a code (or a
request for another) typed in the chat is read by the app before any model sees it.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Callable

from replica import wording
from replica.alerts import Alert, Notifier
from replica.alerts.alert import CONFIRMED_LINE, CONFIRMED_TITLE
from replica.contacts.codes import CodeKey, asks_again, codes_in, masked
from replica.contacts.mailer import CODE_MINUTES
from replica.storage import Store
from replica.storage.code_mails import Code, Codes
from replica.storage.database import storage_errors
from replica.storage.records import AlertKind, CodeRequest, CodeStatus, Recorded
from replica.tools.gather_user_details import lead_alert

log = logging.getLogger(__name__)

MAX_TRIES = 5  # wrong codes before a code stops working
PER_HOUR = 3  # code mails per address, and per client address, per hour


@dataclass(frozen=True)
class Caught:
    """A message the app answers itself: a code typed (``codes``), or a request for another (none)."""

    codes: tuple[str, ...]
    masked: str  # the message as the transcript keeps it
    code: Code | None  # the code the conversation waits for; None for a code typed where none was (a reloaded page)


class Verifier:
    """Offers codes and reads them back. ``mode``: ``off``, ``offer`` or ``required``; ``sent`` wakes the
    mailer; ``confirmed`` is told of each address confirmed (session, email)."""

    def __init__(
        self,
        codes: Codes,
        key: CodeKey,
        mode: str = "offer",
        sent: Callable[[], None] = lambda: None,
        confirmed: Callable[[str, str], None] = lambda session, email: None,
        clock: Callable[[], float] = time.time,
    ):
        self.codes = codes
        self.key = key
        self.mode = mode
        self._sent = sent
        self._confirmed = confirmed
        self._clock = clock

    @property
    def on(self) -> bool:
        return self.mode != "off"

    def offer(self, session: str, email: str, address: str) -> str | None:
        """A lead left ``email``: queue a code mail to it; the sentence that tells the visitor (``None`` when
        there is nothing to say: verification is off, or this conversation confirmed it already)."""
        if not self.on:
            return None
        waiting = self.codes.current(session)
        if waiting is not None and waiting.email == email.strip().lower() and self._usable(waiting):
            return None  # the address again, while its code still works: no second mail
        sentence = wording.CODE_SENT_REQUIRED if self.mode == "required" else wording.CODE_SENT
        return self._request(session, email, address, sentence)

    def _usable(self, code: Code) -> bool:
        """Whether ``code`` may still confirm: on its way, or mailed, unexpired and with tries left."""
        if code.issued_at is None:
            return code.status == CodeStatus.PENDING
        return code.tries < MAX_TRIES and not self._expired(code.issued_at)

    def _expired(self, issued_at: float) -> bool:
        """Whether a code mailed at ``issued_at`` has outlived its minutes."""
        return self._clock() > issued_at + CODE_MINUTES * 60

    def catch(self, message: str, session: str) -> Caught | None:
        """``message`` when it is a code or asks for another while this conversation waits for one; else ``None``."""
        if not self.on or not isinstance(message, str):
            return None
        typed = codes_in(message)
        if not typed and not asks_again(message):
            return None
        code = self.codes.current(session)
        if code is None and not typed:
            return None
        # A code typed where none was asked for (the page was opened again) is caught all the same: masked,
        # never handed to a model or passed on to the owner.
        return Caught(tuple(typed), masked(message), code)

    def answer(self, caught: Caught, session: str, address: str) -> str:
        """The sentence for a caught message: the code checked, or another one mailed."""
        code = caught.code
        if code is None:
            confirmed = self.codes.confirmed_in(session)
            return wording.CODE_CONFIRMED.format(email=confirmed) if confirmed else wording.CODE_ELSEWHERE
        if not caught.codes:
            return self._request(session, code.email, address, wording.CODE_RESENT) or ""
        return self._check(code, caught.codes)

    def _request(self, session: str, email: str, address: str, sentence: str) -> str | None:
        outcome, _ = self.codes.request(session, email, address, PER_HOUR)
        if outcome is CodeRequest.QUEUED:
            self._sent()
            return sentence.format(email=email)
        if outcome is CodeRequest.CONFIRMED:
            return None
        log.warning("A code mail was refused: %s", outcome.value)
        return wording.CODE_CAPPED.format(email=email)

    def _check(self, code: Code, typed: tuple[str, ...]) -> str:
        if code.digest is None or code.issued_at is None:
            waiting = code.status == CodeStatus.PENDING
            return (wording.CODE_ON_ITS_WAY if waiting else wording.CODE_NOT_SENT).format(email=code.email)
        if code.tries >= MAX_TRIES:
            return wording.CODE_NO_TRIES
        if self._expired(code.issued_at):
            return wording.CODE_EXPIRED.format(minutes=CODE_MINUTES)
        matched = any(self.key.matches(code.id, digits, code.digest) for digits in typed)
        tries = self.codes.tried(code.id, matched)
        if matched:
            log.info("A visitor confirmed their address with a code (code mail %d)", code.id)
            self._confirmed(code.session, code.email)
            return wording.CODE_CONFIRMED.format(email=code.email)
        left = MAX_TRIES - tries
        if left <= 0:
            return wording.CODE_NO_TRIES
        return wording.CODE_WRONG.format(email=code.email, left=left, tries="try" if left == 1 else "tries")


def announce_confirmed(store: Store, notifier: Notifier) -> Callable[[str, str], None]:
    """What tells the owner a lead's address was confirmed: with ``required``, the lead's alert held until
    now (saying so); else an alert about the lead (its number), which edits the lead's own alert where the
    channel can (Telegram) and follows it elsewhere."""

    def announce(session: str, email: str) -> None:
        try:
            lead = store.leads.id_of(session, email)
            if lead is None:
                return
            conversation = store.conversations.of_session(session)
            number = conversation.id if conversation else None
            held = store.leads.held(lead)
            if held is not None:
                email, name, notes = held
                alert = lead_alert("New lead", name, email, notes, session, number, CONFIRMED_LINE)
                recorded = store.leads.release(lead, alert.entry())
            else:
                alert = Alert(
                    AlertKind.CONFIRMED,
                    CONFIRMED_TITLE,
                    (("Email", email), ("Confirmed", CONFIRMED_LINE)),
                    session,
                    ref=lead,
                    conversation=number,
                )
                recorded = store.outbox.queue(alert.entry())
            if recorded is Recorded.ALERTED:
                notifier.notify(alert)
        except storage_errors():  # the address is confirmed all the same; /leads shows it
            log.error("Could not queue the alert for a confirmed lead (the database failed)", exc_info=True)

    return announce
