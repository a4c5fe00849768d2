"""What the repositories hand back besides rows: outcomes of recording, and alerts as the outbox keeps them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from enum import Enum
from typing import overload


class TextEnum(str, Enum):
    """An enum whose members are their text everywhere: in SQL, JSON, f-strings and comparisons with
    ``str`` (``enum.StrEnum`` is Python 3.11+, and 3.10 is supported)."""

    __str__ = str.__str__

    def __format__(self, spec: str) -> str:
        return str.__format__(self, spec)


class Role(TextEnum):
    """Who wrote a message of a conversation: the visitor, the replica, the owner in person, or the app (a note)."""

    VISITOR = "visitor"
    REPLICA = "replica"
    OWNER = "owner"
    NOTICE = "notice"


VISITOR, REPLICA, OWNER, NOTICE = Role.VISITOR, Role.REPLICA, Role.OWNER, Role.NOTICE


class AlertKind(TextEnum):
    """What an alert is about: a lead, a question passed on, a visitor's message forwarded to the owner
    who has the conversation, or the daily digest."""

    LEAD = "lead"
    QUESTION = "question"
    VISITOR = "visitor"
    DIGEST = "digest"
    CONFIRMED = "confirmed"  # a lead's address confirmed with a code (verified contacts)


class LeadStatus(TextEnum):
    """Where the owner is with a lead."""

    NEW = "new"
    HANDLED = "handled"


class QuestionStatus(TextEnum):
    """Where a question passed on stands."""

    OPEN = "open"
    ANSWERED = "answered"
    DISMISSED = "dismissed"


class AnswerStatus(TextEnum):
    """A learned answer: in use, replaced by a newer one, or withdrawn by the owner."""

    ACTIVE = "active"
    REPLACED = "replaced"
    WITHDRAWN = "withdrawn"


class DeliveryStatus(TextEnum):
    """One alert's delivery to one channel."""

    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"


class AlertStatus(TextEnum):
    """An alert's state in the owner's records: some channel took it, one may yet, every one gave up,
    none was raised (the visitor's cap was reached), or it waits for the lead's address to be confirmed."""

    SENT = "sent"
    PENDING = "pending"
    FAILED = "failed"
    CAPPED = "capped"
    HELD = "held"  # a lead's alert waiting for its address to be confirmed (LEAD_VERIFICATION=required)


class CapReason(TextEnum):
    """Why a lead or question was kept without an alert: its visitor session had had its alerts of that
    kind, or its client address had had them within the hour (however many sessions it opened)."""

    SESSION = "session"
    ADDRESS = "address"


class CodeStatus(TextEnum):
    """A code's mail to a visitor: waiting to go, sent, given up, or replaced by a newer code before it went."""

    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"
    REPLACED = "replaced"


class MailStatus(TextEnum):
    """An answer mail: offered to the owner, waiting to go once they tapped, sent, or given up."""

    OFFERED = "offered"
    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"


class Answered(TextEnum):
    """How a visitor message was answered, as the owner's charts count it (``reply_figures.answered``)."""

    MODEL = "model"
    APPROVED = "approved"  # an approved or taught answer, without a model
    PASSED_ON = "passed_on"  # a question passed on to the owner
    OWNER = "owner"  # the owner has the conversation: answered in person
    OTHER = "other"  # a greeting, a refusal, a limit, a contact code, no answer

    @classmethod
    def read(cls, text: str) -> Answered:
        """The way ``text`` (as the database holds it) names; :attr:`OTHER` for one this version does not know."""
        try:
            return cls(text)
        except ValueError:
            return cls.OTHER


class CodeRequest(Enum):
    """What became of a visitor's request for a code: a mail queued, refused by a cap (the mailbox's or the
    client's, per hour or per day, or the whole app's day), or none needed (the address is confirmed
    already in this conversation). The value says why, in the owner's words."""

    QUEUED = "a code mail queued"
    ADDRESS_CAPPED = "the address had its code mails for the hour"
    ADDRESS_CAPPED_TODAY = "the address had its code mails for the day"
    CLIENT_CAPPED = "the visitor's network had its code mails for the hour"
    CLIENT_CAPPED_TODAY = "the visitor's network had its code mails for the day"
    ALL_CAPPED_TODAY = "the day's code mails (CODE_MAILS_PER_DAY) are all sent"
    CONFIRMED = "already confirmed"

    @property
    def for_the_day(self) -> bool:
        """Whether the cap that refused is a day's (else an hour's)."""
        return self.name.endswith("_TODAY")


class Recorded(Enum):
    """What became of a lead or question handed to the store."""

    ALERTED = "stored, alert queued"
    CAPPED = "stored, alert cap reached"
    DUPLICATE = "already stored"
    JOINED = "the same as an open question: counted with it"
    HELD = "stored, alert held until the address is confirmed"


@dataclass(frozen=True)
class OutboxEntry:
    """An alert to queue, as the outbox keeps it: its kind, visitor session and address (for the caps), the alert
    itself as JSON (the alerts package reads and writes it), and the conversation it is about."""

    kind: AlertKind
    session: str
    payload: str
    conversation: int | None = None
    address: str = ""  # the visitor's client address, salted and hashed: the caps also hold per address


@overload
def iso(epoch: float) -> str: ...


@overload
def iso(epoch: None) -> None: ...


@overload
def iso(epoch: float | None) -> str | None: ...


def iso(epoch: float | None) -> str | None:
    """An epoch-seconds time as ISO 8601 in UTC (how exports and listings show times); ``None`` for none."""
    return None if epoch is None else datetime.fromtimestamp(epoch, timezone.utc).isoformat(timespec="seconds")
