"""The rows the repositories hand back, typed: one frozen dataclass for each shape a query reads.

Times are epoch seconds where the app computes with them (conversations, messages) and ISO 8601 in
UTC where the owner reads them (leads, questions, answers and deliveries: exports and listings).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING, Any, Mapping, TypeVar, get_type_hints

from replica.storage.records import (
    AlertKind,
    AlertStatus,
    AnswerStatus,
    CapReason,
    DeliveryStatus,
    LeadStatus,
    QuestionStatus,
    Role,
)

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

R = TypeVar("R", bound="DataclassInstance")


def typed(cls: type[R], row: Mapping[str, Any], **changed: Any) -> R:
    """``row`` (a database row) as ``cls``, with the fields in ``changed`` replaced. A field typed as an
    enum (a status, a kind, a role) holds its member, read from the text the database keeps."""
    values = {f.name: changed[f.name] if f.name in changed else row[f.name] for f in fields(cls)}
    for name, enum in _enum_fields(cls):
        if values[name] is not None:
            values[name] = enum(values[name])
    return cls(**values)


@cache
def _enum_fields(cls: type[DataclassInstance]) -> tuple[tuple[str, type[Enum]], ...]:
    """The fields of ``cls`` typed as an enum, with their enum."""
    hints = get_type_hints(cls)
    return tuple(
        (f.name, hints[f.name])
        for f in fields(cls)
        if isinstance(hints[f.name], type) and issubclass(hints[f.name], Enum)
    )


@dataclass(frozen=True)
class LeadRecord:
    """A lead as exports show it, with the state of its alert (``capped`` when none was raised)."""

    email: str
    name: str
    notes: str
    created_at: str
    session: str
    status: LeadStatus
    alert_status: AlertStatus
    confirmed_at: str | None = None  # when the visitor confirmed the address with a code (verified contacts)


@dataclass(frozen=True)
class LeadListing:
    """A lead as the owner's ``/leads`` lists it, with its conversation's number (or ``None``)."""

    id: int
    email: str
    name: str
    notes: str
    created_at: str
    status: LeadStatus
    conversation: int | None
    confirmed_at: str | None = None  # when the visitor confirmed the address with a code


@dataclass(frozen=True)
class QuestionRef:
    """A question by its number, and where it stands."""

    id: int
    question: str
    status: QuestionStatus


@dataclass(frozen=True)
class QuestionRecord:
    """A question passed on, as exports show it, with the state of its alert and how many asked it."""

    question: str
    created_at: str
    session: str
    status: QuestionStatus
    alert_status: AlertStatus
    askers: int = 1  # visitors who asked it (the first, and those counted with it while it was open)


@dataclass(frozen=True)
class QuestionListing:
    """A question as ``/unanswered`` lists it, with how many visitors asked it."""

    id: int
    question: str
    created_at: str
    askers: int = 1


@dataclass(frozen=True)
class Asker:
    """A visitor who asked a question: their session, their wording, and the conversation, when recorded
    (and whether their browser keeps it)."""

    session: str
    question: str
    conversation: int | None = None
    kept_by_browser: bool = False


@dataclass(frozen=True)
class AnswerRecord:
    """A learned answer with its question."""

    id: int
    question: str
    answer: str
    created_at: str
    status: AnswerStatus


@dataclass(frozen=True)
class WithdrawnAnswer:
    """The answer ``/forget`` withdrew, and the question that is open again."""

    id: int
    question_id: int
    question: str


@dataclass(frozen=True)
class ConversationStart:
    """A visitor session's conversation as a message begins: its number, and until when the owner has it."""

    id: int
    paused_until: float | None


@dataclass(frozen=True)
class ConversationState:
    """A session's conversation as its page checks it."""

    id: int
    last_at: float
    paused_until: float | None


@dataclass(frozen=True)
class ConversationInfo:
    """One conversation by number."""

    id: int
    session: str
    started_at: float
    last_at: float
    paused_until: float | None
    kept_by_browser: bool = False  # the visitor's browser keeps it: it shows it again when they come back


@dataclass(frozen=True)
class ConversationListing:
    """A conversation as ``/recent`` lists it: its first visitor message, size, and whether it left a
    lead or a question."""

    id: int
    started_at: float
    paused_until: float | None
    first: str | None
    size: int
    lead: bool
    question: bool


@dataclass(frozen=True)
class MessageRecord:
    """One message of a conversation, with what its reply took."""

    role: Role
    text: str
    at: float
    tools: str  # the tools the reply called, comma-separated
    model_calls: int
    reply_ms: int | None


@dataclass(frozen=True)
class MessageText:
    """Who wrote a message, and its words: what the visitor's page shows."""

    role: Role
    text: str


@dataclass(frozen=True)
class DeliveryRecord:
    """One alert's delivery to one channel, as ``export alerts`` shows it."""

    kind: AlertKind
    created_at: str
    channel: str  # "telegram", or an ALERT_URLS channel's key ("apprise-…")
    status: DeliveryStatus
    attempts: int
    last_error: str | None
    sent_at: str | None
    folded: int


@dataclass(frozen=True)
class DayStats:
    """A day's figures for the digest."""

    conversations: int
    messages: int
    model_calls: int


@dataclass(frozen=True)
class AlertCount:
    """How many alerts of one kind were raised over a period (``/status``)."""

    kind: AlertKind
    alerts: int


@dataclass(frozen=True)
class KeptCount:
    """Leads or questions of one kind kept without an alert over a period, for one reason (``session``: a
    visitor session had had its alerts; ``address``: one address had had them within the hour): how many,
    from how many visitors (addresses, or sessions where none was known), and how many of them a later
    alert from the same address has told the owner of (``/status``)."""

    kind: AlertKind
    reason: CapReason
    records: int
    visitors: int
    told: int
