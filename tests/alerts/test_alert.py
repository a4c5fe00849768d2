"""What an alert says: its heading with the record's number, the notes of what the caps kept, the JSON
the outbox keeps (older rows included), and one bounded log line."""

from __future__ import annotations

import json

from replica.alerts import Alert
from replica.storage.records import AlertKind

ALERT = Alert(
    AlertKind.LEAD,
    "New lead",
    (("Email", "ada@example.org"), ("Notes", "Hiring")),
    "s1",
    hint="Reply to answer",
    quoted=("Notes",),
    conversation=4,
)


def test_the_json_the_outbox_keeps_gives_the_same_alert_back():
    assert Alert.from_json(ALERT.to_json()) == ALERT
    entry = ALERT.entry()
    assert (entry.kind, entry.session, entry.conversation) == (AlertKind.LEAD, "s1", 4)
    assert Alert.from_json(entry.payload) == ALERT


def test_an_older_row_without_quoted_fields_quotes_the_visitors_prose():
    older = json.loads(ALERT.to_json())
    del older["quoted"], older["hint"]
    assert Alert.from_json(json.dumps(older)).quoted == ("Notes", "Question")


def test_the_heading_carries_the_records_number_and_the_notes_count_what_was_kept():
    assert ALERT.heading == "New lead" and Alert(AlertKind.QUESTION, "Unanswered question", (), ref=12).heading == (
        "Unanswered question #12"
    )
    kept = Alert(AlertKind.LEAD, "New lead", (), kept=(("lead", 1), ("question", 0), ("question", 3)))
    assert kept.notes == (
        "1 more lead from the same address was kept without an alert.",
        "3 more questions from the same address were kept without an alert.",
    )


def test_the_log_line_is_one_line_with_each_value_cut():
    line = Alert(AlertKind.LEAD, "New lead", (("Notes", "x" * 5000),), "s" * 500).log_text()
    assert line.startswith("New lead | Notes: ") and "\n" not in line and len(line) < 1000
