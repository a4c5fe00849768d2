"""What an alert to the owner says: a title, labelled visitor values, and what it is about.

How it looks in Telegram (escaping, quoting, length) is :mod:`replica.alerts.render`'s job; how it
travels, :mod:`replica.alerts.sender`'s.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Protocol

from replica.storage.deliveries import PendingDelivery
from replica.storage.records import AlertKind, OutboxEntry
from replica.text import clip

QUESTION_TITLE = "Unanswered question"
CONFIRMED_TITLE = "Lead confirmed"  # verified contacts: the lead's number follows, as its alert's did
CONFIRMED_LINE = "yes ✓ (the visitor typed the code mailed to the address)"
# Fields whose visitor value is shown in quotation marks, so that no part of it passes for the alert's own
# lines ("Ada Confirmed: yes ✓" is a name, the "Confirmed" line the app's); NOT_GIVEN is the app's own.
NAMED = ("Name",)
NOT_GIVEN = "(not given)"
KEPT_NOUNS = {AlertKind.LEAD: ("lead", "leads"), AlertKind.QUESTION: ("question", "questions")}
# Older outbox rows were written before alerts named their quoted fields.
DEFAULT_QUOTED = ("Notes", "Question")


@dataclass(frozen=True)
class Alert:
    """One thing the owner should know about: a title, labelled visitor values, and the visitor session.

    ``quoted`` names the fields that hold visitor prose (shown as quotations); ``ref`` is the number of
    the record the alert is about (the store sets it), shown in the title, e.g. "Unanswered question #3";
    ``kept``, how many records of each kind from the same address the visitor caps kept without an alert
    before it (the store counts them), said in its :attr:`notes`.
    """

    kind: AlertKind
    title: str
    fields: tuple[tuple[str, str], ...]
    session_id: str = ""
    hint: str = ""  # a closing line for the owner, such as how to answer
    quoted: tuple[str, ...] = ()
    ref: int | None = None
    conversation: int | None = None  # the conversation number the owner can /show, /say, /pause
    kept: tuple[tuple[AlertKind, int], ...] = ()
    close_faq: str = ""  # a question: the approved question close to it, offered as a one-tap answer
    # A digest: the owner's picture of the days (last day ISO, how many) comes with it; () for none.
    picture: tuple[()] | tuple[str, int] = ()

    @property
    def notes(self) -> tuple[str, ...]:
        """What the owner is told besides the alert: "2 more leads from the same address were kept without
        an alert." for each kind its address had kept back since its last alert."""
        return tuple(
            f"{count} more {KEPT_NOUNS.get(kind, ('record', 'records'))[count != 1]} from the same address "
            f"{'was' if count == 1 else 'were'} kept without an alert."
            for kind, count in self.kept
            if count
        )

    @property
    def heading(self) -> str:
        """The title with the record's number."""
        return f"{self.title} #{self.ref}" if self.ref else self.title

    def with_field(self, label: str, value: str, after: str = "Email") -> "Alert":
        """The alert with field ``label`` set to ``value``: in its place, or after ``after``, or last."""
        fields = list(self.fields)
        labels = [name for name, _ in fields]
        if label in labels:
            fields[labels.index(label)] = (label, value)
        else:
            fields.insert(labels.index(after) + 1 if after in labels else len(fields), (label, value))
        return replace(self, fields=tuple(fields))

    def to_json(self) -> str:
        """The alert as JSON, for the outbox."""
        return json.dumps(
            {
                "kind": self.kind,
                "title": self.title,
                "fields": self.fields,
                "session_id": self.session_id,
                "hint": self.hint,
                "quoted": self.quoted,
                "ref": self.ref,
                "conversation": self.conversation,
                "close_faq": self.close_faq,
                "picture": self.picture,
            }
        )

    def entry(self) -> OutboxEntry:
        """The alert as the outbox keeps it."""
        return OutboxEntry(self.kind, self.session_id, self.to_json(), self.conversation)

    @classmethod
    def from_pending(cls, pending: PendingDelivery) -> "Alert":
        """The alert a pending delivery carries, named by the number of the record it is about ("… #12"),
        with the records kept without an alert that it tells of."""
        alert = replace(cls.from_json(pending.payload), kept=pending.kept)
        return replace(alert, ref=pending.ref) if pending.ref else alert

    @classmethod
    def from_json(cls, text: str) -> "Alert":
        """The alert :meth:`to_json` wrote."""
        data = json.loads(text)
        fields = tuple((label, value) for label, value in data["fields"])
        quoted = tuple(data.get("quoted", DEFAULT_QUOTED))
        return cls(
            AlertKind(data["kind"]),
            data["title"],
            fields,
            data["session_id"],
            data.get("hint", ""),
            quoted,
            data.get("ref"),
            data.get("conversation"),
            close_faq=data.get("close_faq", ""),
            picture=tuple(data.get("picture") or ()),
        )

    def log_text(self) -> str:
        """The alert on one log line, each visitor value cut to the log's quoting limit."""
        values = " | ".join([*(f"{label}: {clip(value)}" for label, value in self.fields), *self.notes])
        return f"{self.heading} | {values} | Session: {clip(self.session_id, 64)}"


class Notifier(Protocol):
    """Anything that takes an alert to the owner. ``notify`` must return at once and never raise."""

    def notify(self, alert: Alert) -> None: ...
