"""``python app.py export leads|questions|answers|alerts|conversations|stats``: the owner's records on stdout.

The records are CSV, every cell safe to open in a spreadsheet: visitor text that a spreadsheet would
run as a formula is prefixed with ``'`` (OWASP's advice on CSV injection). Conversations are JSON Lines,
one conversation per line with its messages. Stats are the per-day figures the owner's picture draws
(``/stats``), one row a day, the last ``--days`` days (90 by default), today included.
"""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from typing import Callable, Sequence, TextIO

from replica.runtime.clock import REAL_CLOCK, Clock
from replica.stats.period import COLUMNS as STATS_COLUMNS
from replica.stats.period import period
from replica.storage.deliveries import TELEGRAM
from replica.storage.rows import DeliveryRecord
from replica.storage.store import Store

COLUMNS = {
    "leads": ["email", "name", "notes", "created_at", "session", "alert_status", "confirmed_at"],
    "questions": ["question", "created_at", "session", "status", "alert_status", "askers"],
    "answers": ["id", "question", "answer", "created_at", "status"],
    "alerts": ["kind", "created_at", "channel", "status", "attempts", "last_error", "sent_at"],
}


# A cell starting with one of these is read as a formula by Excel, LibreOffice and Google Sheets.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: object) -> str:
    """``value`` as a CSV cell that a spreadsheet shows as text and never runs."""
    text = "" if value is None else str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def alert_rows(store: Store, channels: dict[str, str]) -> list[DeliveryRecord]:
    """Each alert's delivery to Telegram and to each other channel (named by ``channels``: key to label;
    a channel no longer in ``ALERT_URLS`` is "a removed channel"), oldest alert first."""
    names = {TELEGRAM: "Telegram", **channels}
    return [replace(row, channel=names.get(row.channel, "a removed channel")) for row in store.deliveries.rows()]


def export_csv(store: Store, what: str, out: TextIO, channels: dict[str, str] | None = None) -> int:
    """Write ``what`` (a key of ``COLUMNS``) from ``store`` to ``out`` as CSV with a header; return the row count."""
    readers: dict[str, Callable[[], Sequence[object]]] = {  # each a list of rows, typed by its repository
        "leads": store.leads.all,
        "questions": store.questions.all,
        "answers": store.answers.all,
        "alerts": lambda: alert_rows(store, channels or {}),
    }
    rows = readers[what]()
    writer = csv.writer(out)
    writer.writerow(COLUMNS[what])
    for row in rows:
        writer.writerow([spreadsheet_safe(getattr(row, column)) for column in COLUMNS[what]])
    return len(rows)


def export_conversations(store: Store, out: TextIO) -> int:
    """Write every conversation to ``out`` as JSON Lines, one conversation per line; return how many."""
    count = 0
    for count, conversation in enumerate(store.reports.records(), start=1):
        out.write(json.dumps(conversation, ensure_ascii=False) + "\n")
    return count


def export_stats(store: Store, out: TextIO, days: int, clock: Clock = REAL_CLOCK) -> int:
    """Write the per-day figures of the last ``days`` days (to ``clock``'s UTC day) to ``out`` as CSV;
    return how many days."""
    figures = period(store, clock.utc_today(), days)
    writer = csv.DictWriter(out, STATS_COLUMNS)
    writer.writeheader()
    writer.writerows(day.row() for day in figures.days)
    return len(figures.days)


EXPORTS = [*COLUMNS, "conversations", "stats"]
STATS_DAYS = 90


def export(store: Store, what: str, out: TextIO, channels: dict[str, str] | None = None, days: int = STATS_DAYS) -> int:
    """Write ``what`` (one of ``EXPORTS``) to ``out``; return how many records. ``channels`` names the alert
    channels beside Telegram by key; ``days``, how many days ``stats`` has."""
    if what == "stats":
        return export_stats(store, out, days)
    return export_conversations(store, out) if what == "conversations" else export_csv(store, what, out, channels)
