"""``python app.py export leads|questions|answers``: the owner's records as CSV on stdout."""

from __future__ import annotations

import csv
from typing import TextIO

from replica.store import Store

COLUMNS = {
    "leads": ["email", "name", "notes", "created_at", "session", "alert_status"],
    "questions": ["question", "created_at", "session", "status", "alert_status"],
    "answers": ["id", "question", "answer", "created_at", "status"],
}


def export_csv(store: Store, what: str, out: TextIO) -> int:
    """Write ``what`` (a key of ``COLUMNS``) from ``store`` to ``out`` as CSV with a header; return the row count."""
    rows = {"leads": store.leads, "questions": store.questions, "answers": store.answers}[what]()
    writer = csv.writer(out)
    writer.writerow(COLUMNS[what])
    for row in rows:
        writer.writerow([row[column] for column in COLUMNS[what]])
    return len(rows)
