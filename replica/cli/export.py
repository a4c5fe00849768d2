"""``python app.py export leads|questions|answers|alerts|conversations``: the owner's records on stdout.

The records are CSV, every cell safe to open in a spreadsheet: visitor text that a spreadsheet would
run as a formula is prefixed with ``'`` (OWASP's advice on CSV injection). Conversations are JSON Lines,
one conversation per line with its messages.
"""

from __future__ import annotations

import csv
import json
from typing import TextIO

from replica.storage.store import Store

COLUMNS = {
    "leads": ["email", "name", "notes", "created_at", "session", "alert_status"],
    "questions": ["question", "created_at", "session", "status", "alert_status"],
    "answers": ["id", "question", "answer", "created_at", "status"],
    "alerts": ["kind", "created_at", "status", "attempts", "last_error", "sent_at"],
}


# A cell starting with one of these is read as a formula by Excel, LibreOffice and Google Sheets.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: object) -> str:
    """``value`` as a CSV cell that a spreadsheet shows as text and never runs."""
    text = "" if value is None else str(value)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def export_csv(store: Store, what: str, out: TextIO) -> int:
    """Write ``what`` (a key of ``COLUMNS``) from ``store`` to ``out`` as CSV with a header; return the row count."""
    rows = {
        "leads": store.leads.all,
        "questions": store.questions.all,
        "answers": store.answers.all,
        "alerts": store.outbox.rows,
    }[what]()
    writer = csv.writer(out)
    writer.writerow(COLUMNS[what])
    for row in rows:
        writer.writerow([spreadsheet_safe(row[column]) for column in COLUMNS[what]])
    return len(rows)


def export_conversations(store: Store, out: TextIO) -> int:
    """Write every conversation to ``out`` as JSON Lines, one conversation per line; return how many."""
    count = 0
    for count, conversation in enumerate(store.reports.records(), start=1):
        out.write(json.dumps(conversation, ensure_ascii=False) + "\n")
    return count


EXPORTS = [*COLUMNS, "conversations"]


def export(store: Store, what: str, out: TextIO) -> int:
    """Write ``what`` (one of ``EXPORTS``) to ``out``; return how many records."""
    return export_conversations(store, out) if what == "conversations" else export_csv(store, what, out)
