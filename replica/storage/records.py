"""What the repositories hand back besides rows: outcomes of recording, and alerts as the outbox keeps them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from enum import Enum

# Who wrote a message of a conversation: the visitor, the replica, the owner in person, or the app (a note).
VISITOR, REPLICA, OWNER, NOTICE = "visitor", "replica", "owner", "notice"


class Recorded(Enum):
    """What became of a lead or question handed to the store."""

    ALERTED = "stored, alert queued"
    CAPPED = "stored, alert cap reached"
    DUPLICATE = "already stored"


@dataclass(frozen=True)
class OutboxEntry:
    """An alert to queue, as the outbox keeps it: its kind, visitor session and address (for the caps), the alert
    itself as JSON (the alerts package reads and writes it), and the conversation it is about."""

    kind: str
    session: str
    payload: str
    conversation: int | None = None
    address: str = ""  # the visitor's client address, salted and hashed: the caps also hold per address


def iso(epoch: float | None) -> str | None:
    """An epoch-seconds time as ISO 8601 in UTC (how exports and listings show times)."""
    return None if epoch is None else datetime.fromtimestamp(epoch, timezone.utc).isoformat(timespec="seconds")
