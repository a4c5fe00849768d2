"""``python app.py export leads|questions``: the owner's records as CSV on stdout."""

from __future__ import annotations

import csv
from typing import TextIO

from replica.store import Store

COLUMNS = {
    "leads": ["email", "name", "notes", "created_at", "session", "alert_status"],
    "questions": ["question", "created_at", "session", "status", "alert_status"],
}


def export_csv(store: Store, what: str, out: TextIO) -> int:
    """Write ``what`` ("leads" or "questions") from ``store`` to ``out`` as CSV with a header; return the row count."""
    rows = store.leads() if what == "leads" else store.questions()
    writer = csv.writer(out)
    writer.writerow(COLUMNS[what])
    for row in rows:
        writer.writerow([row[column] for column in COLUMNS[what]])
    return len(rows)
