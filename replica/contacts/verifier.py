"""What a conversation does for verified contacts: a lead's address is offered a code, and a code (or a
request for another) typed in a chat waiting for one is read by the app before any model sees it.

A chat waits for a code from the moment one is asked for until an hour after its mail went (the code
works for ten of those minutes; the rest of the hour a code typed late is told it expired); a chat that
waits for none reads no message as a code, and keeps each whole. With ``LEAD_VERIFICATION=required`` a
lead that cannot get a code (an address no mail service can carry, a cap reached, the mail given up on)
is passed on to the owner at once, marked as not confirmed and why: no lead waits for a code that
cannot come.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable

from replica import wording
from replica.alerts import Alert, Notifier
from replica.alerts.alert import CONFIRMED_LINE, CONFIRMED_TITLE
from replica.contacts.codes import CodeKey, asks_again, read
from replica.contacts.mailboxes import mailbox
from replica.contacts.mailer import CANNOT_MAIL, CODE_MINUTES
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.settings import VerificationMode
from replica.storage import Store
from replica.storage.code_mails import Code, Codes, Tried
from replica.storage.database import storage_errors
from replica.storage.records import AlertKind, CodeRequest, CodeStatus, Recorded
from replica.text import one_line
from replica.tools.gather_user_details import NOT_CONFIRMED_BECAUSE, lead_alert

log = logging.getLogger(__name__)

WAITS_SECONDS = 3600.0  # how long after its mail a chat still reads a typed code as one
REST_CHARS = 200  # what else a message with a code said, quoted back at most this long
# Why a lead is passed on unconfirmed, in the owner's words (its alert's "Confirmed" line).
ONE_PER_MESSAGE = "one code goes out per message, for the first address the visitor gave in it"
REPLACED = "the visitor gave another address before typing this one's code"
TRIES_TODAY = "the day's code tries for the address are spent"

Unconfirmed = Callable[[str, str, str], None]  # (session, email, why): a held lead passed on unconfirmed


@dataclass(frozen=True)
class Caught:
    """A message the app answers itself, in a chat waiting for a code: a code typed (``codes``), or a
    request for another (none); what else it asked (``rest``)."""

    codes: tuple[str, ...]
    masked: str  # the message as the transcript keeps it
    code: Code  # the code the conversation waits for
    rest: str = ""


class Verifier:
    """Offers codes and reads them back. ``mode``: ``off``, ``offer`` or ``required``; ``sent`` wakes the
    mailer; ``confirmed`` is told of each address confirmed (session, email); ``unconfirmed``, of each lead
    that can get no code (session, email, why)."""

    def __init__(
        self,
        codes: Codes,
        key: CodeKey,
        mode: VerificationMode = "offer",
        sent: Callable[[], None] = lambda: None,
        confirmed: Callable[[str, str], None] = lambda session, email: None,
        clock: Clock = REAL_CLOCK,
        unconfirmed: Unconfirmed = lambda session, email, why: None,
    ):
        self.codes = codes
        self.key = key
        self.mode = mode
        self._sent = sent
        self._confirmed = confirmed
        self._unconfirmed = unconfirmed
        self._clock = clock
        self._total_said = False  # the day's total was logged as reached, and no code went since

    @property
    def on(self) -> bool:
        return self.mode != "off"

    @property
    def _kept(self) -> str:
        """What follows a sentence saying no code goes: the lead kept, or (required) passed on unconfirmed."""
        return wording.CODE_PASSED_UNCONFIRMED if self.mode == "required" else wording.CODE_KEPT

    def offer(self, session: str, email: str, address: str) -> str | None:
        """A lead left ``email``: queue a code mail to it; the sentence that tells the visitor (``None`` when
        there is nothing to say: verification is off, or this conversation confirmed it already)."""
        if not self.on:
            return None
        box = mailbox(email)
        if box.problem:
            log.info("No code mail for a lead: %s", box.problem)
            self._unconfirmed(session, email, CANNOT_MAIL.format(why=box.problem))
            return f"{wording.CODE_UNSENDABLE.format(email=email)} {self._kept}"
        waiting = self.codes.current(session)
        if waiting is not None and waiting.email == email.strip().lower() and self._usable(waiting):
            return None  # the address again, while its code still works: no second mail
        sentence = wording.CODE_SENT_REQUIRED if self.mode == "required" else wording.CODE_SENT
        offered = self._request(session, email, address, sentence)
        if waiting is not None and waiting.email != email.strip().lower() and offered is not None:
            self._unconfirmed(session, waiting.email, REPLACED)  # its code is no longer read
        return offered

    def one_per_message(self, session: str, email: str) -> str | None:
        """A further address in a message whose first got the code: passed on unconfirmed (required); the
        sentence that says so, or ``None`` (offer: its alert went already)."""
        if self.mode != "required":
            return None
        self._unconfirmed(session, email, ONE_PER_MESSAGE)
        return wording.CODE_ONE_PER_MESSAGE.format(email=email)

    def _usable(self, code: Code) -> bool:
        """Whether ``code`` may still confirm: on its way, or mailed, unexpired and with tries left."""
        if code.issued_at is None:
            return code.status == CodeStatus.PENDING
        return code.tries < self.codes.caps.tries_per_code and not self._expired(code.issued_at)

    def _expired(self, issued_at: float) -> bool:
        """Whether a code mailed at ``issued_at`` has outlived its minutes."""
        return self._clock.time() > issued_at + CODE_MINUTES * 60

    def _waits(self, code: Code) -> bool:
        """Whether the chat of ``code`` still waits for it: its mail on its way, or gone within the hour."""
        if code.status == CodeStatus.PENDING:
            return True
        return self._clock.time() < (code.issued_at or code.created_at) + WAITS_SECONDS

    def catch(self, message: str, session: str) -> Caught | None:
        """``message`` when this conversation waits for a code and it gives one or asks for another; else
        ``None`` (the message is an ordinary one, kept whole)."""
        if not self.on or not isinstance(message, str):
            return None
        reading = read(message)
        if not reading.codes and not asks_again(message):
            return None
        code = self.codes.current(session)
        if code is None or not self._waits(code):
            return None
        return Caught(reading.codes, reading.masked, code, reading.rest)

    def answer(self, caught: Caught, session: str, address: str) -> str:
        """The sentence for a caught message: the code checked, or another one mailed; and, when the message
        asked more, that it be asked on its own."""
        code = caught.code
        if not caught.codes:
            return self._request(session, code.email, address, wording.CODE_RESENT) or ""
        sentence = self._check(code, caught.codes)
        if caught.rest:
            sentence += " " + wording.CODE_AND_MORE.format(rest=one_line(caught.rest, REST_CHARS))
        return sentence

    def _request(self, session: str, email: str, address: str, sentence: str) -> str | None:
        outcome, _ = self.codes.request(session, email, address, mailbox(email).key)
        if outcome is CodeRequest.QUEUED:
            self._total_said = False
            self._sent()
            return sentence.format(email=email)
        if outcome is CodeRequest.CONFIRMED:
            return None
        self._say_refused(outcome)
        self._unconfirmed(session, email, CANNOT_MAIL.format(why=outcome.value))
        capped = wording.CODE_CAPPED_TODAY if outcome.for_the_day else wording.CODE_CAPPED
        return f"{capped.format(email=email)} {self._kept}"

    def _say_refused(self, outcome: CodeRequest) -> None:
        """Log a refused code mail; the whole app's day reached, once until a code goes again."""
        if outcome is not CodeRequest.ALL_CAPPED_TODAY:
            log.warning("A code mail was refused: %s", outcome.value)
        elif not self._total_said:
            self._total_said = True
            log.warning(
                "Code mails: the day's total of %d (CODE_MAILS_PER_DAY) is reached; leads get no code until "
                "the oldest of them is a day old (/status says when)",
                self.codes.caps.mails_per_day,
            )

    def _check(self, code: Code, typed: tuple[str, ...]) -> str:
        if code.digest is None or code.issued_at is None:
            if code.status == CodeStatus.PENDING:
                return wording.CODE_ON_ITS_WAY.format(email=code.email)
            return f"{wording.CODE_NOT_SENT.format(email=code.email)} {self._kept}"
        if code.tries >= self.codes.caps.tries_per_code:
            return wording.CODE_NO_TRIES
        if self._expired(code.issued_at):
            return wording.CODE_EXPIRED.format(minutes=CODE_MINUTES)
        tries = self.codes.caps.tries_per_code  # no message checks more codes than a code has tries
        tried = self.codes.tried(code.id, [self.key.matches(code.id, digits, code.digest) for digits in typed[:tries]])
        if tried.matched:
            log.info("A visitor confirmed their address with a code (code mail %d)", code.id)
            self._confirmed(code.session, code.email)
            return wording.CODE_CONFIRMED.format(email=code.email)
        return self._wrong(code, tried)

    def _wrong(self, code: Code, tried: Tried) -> str:
        """The sentence for codes that did not match (or could not be checked): the tries left, or why none are."""
        if tried.left <= 0 and tried.bound != "code":
            log.warning("Code tries: the day's tries for a %s are spent (code mail %d)", tried.bound, code.id)
            self._unconfirmed(code.session, code.email, TRIES_TODAY)
            return f"{wording.CODE_TRIES_TODAY.format(email=code.email)} {self._kept}"
        if tried.left <= 0:
            return wording.CODE_NO_TRIES
        tries = "try" if tried.left == 1 else "tries"
        if tried.checked > 1:
            return wording.CODE_NONE_MATCH.format(checked=tried.checked, email=code.email, left=tried.left, tries=tries)
        return wording.CODE_WRONG.format(email=code.email, left=tried.left, tries=tries)


def _release(store: Store, notifier: Notifier, session: str, email: str, confirmed: str) -> bool:
    """Pass on the held lead ``session`` left with ``email`` (``required``), its alert saying ``confirmed``;
    False when there is no such lead, or its alert is not held."""
    lead = store.leads.id_of(session, email)
    held = store.leads.held(lead) if lead is not None else None
    if lead is None or held is None:
        return False
    conversation = store.conversations.of_session(session)
    email, name, notes = held
    alert = lead_alert("New lead", name, email, notes, session, conversation.id if conversation else None, confirmed)
    if store.leads.release(lead, alert.entry()) is Recorded.ALERTED:
        notifier.notify(alert)
    return True


def announce_confirmed(store: Store, notifier: Notifier) -> Callable[[str, str], None]:
    """What tells the owner a lead's address was confirmed: with ``required``, the lead's alert held until
    now (saying so); else an alert about the lead (its number), which edits the lead's own alert where the
    channel can (Telegram) and follows it elsewhere."""

    def announce(session: str, email: str) -> None:
        try:
            if _release(store, notifier, session, email, CONFIRMED_LINE):
                return
            lead = store.leads.id_of(session, email)
            if lead is None:
                return
            conversation = store.conversations.of_session(session)
            alert = Alert(
                AlertKind.CONFIRMED,
                CONFIRMED_TITLE,
                (("Email", email), ("Confirmed", CONFIRMED_LINE)),
                session,
                ref=lead,
                conversation=conversation.id if conversation else None,
            )
            if store.outbox.queue(alert.entry()) is Recorded.ALERTED:
                notifier.notify(alert)
        except storage_errors():  # the address is confirmed all the same; /leads shows it
            log.error("Could not queue the alert for a confirmed lead (the database failed)", exc_info=True)

    return announce


def announce_unconfirmed(store: Store, notifier: Notifier) -> Unconfirmed:
    """What passes on, at once, a lead held for a code that cannot come (``required``): its alert, saying
    the address is not confirmed and why. A lead whose alert went already (``offer``) is left as it is."""

    def announce(session: str, email: str, why: str) -> None:
        try:
            if _release(store, notifier, session, email, NOT_CONFIRMED_BECAUSE.format(why=why)):
                log.info("A lead held for its code was passed on unconfirmed: %s", why)
        except storage_errors():  # the lead is stored all the same; /leads shows it
            log.error("Could not pass on a lead held for its code (the database failed)", exc_info=True)

    return announce
