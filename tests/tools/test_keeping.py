"""Keeping a tool's record with its alert (replica/tools/keeping.py): the owner is woken only for an alert
that was queued, each fate is told to the model as a fact, and a store that fails leaves the record of
last resort in the log and the model an honest error to pass on."""

from __future__ import annotations

import logging

import pytest

from replica.alerts import Alert
from replica.cli.evaluate import RecordingNotifier
from replica.storage import Recorded
from replica.storage.records import AlertKind
from replica.tools import Outcome, ToolContext
from replica.tools.keeping import keep

ALERT = Alert(kind=AlertKind.QUESTION, title="Unanswered question", fields=(("Question", "Opera?"),))


def context(notifier) -> ToolContext:
    return ToolContext(session_id="s-7", store=None, notifier=notifier, address="hashed-address")


@pytest.mark.parametrize(
    "fate, fact, alerted",
    [
        (Recorded.ALERTED, "q recorded and passed on to the owner, who was alerted", 1),
        (Recorded.CAPPED, "q recorded for the owner, but not alerted (this visitor's alert limit is reached)", 0),
        (Recorded.DUPLICATE, "q was already recorded and passed on earlier; not again", 0),
        (Recorded.JOINED, "q recorded for the owner, who already has the same question from another visitor", 0),
    ],
)
def test_each_fate_is_a_fact_for_the_model_and_only_a_queued_alert_wakes_the_notifier(fate, fact, alerted):
    notifier, stored = RecordingNotifier(), []
    result = keep(
        context(notifier),
        ALERT,
        lambda entry: stored.append(entry) or fate,
        Outcome.QUESTION_SAVED,
        {"question": "Opera?"},
        "q",
        frozenset({"ada@example.org"}),
    )
    assert (result.text, result.outcome, result.fact) == ("ok", Outcome.QUESTION_SAVED, fact)
    assert result.emails == {"ada@example.org"} and len(notifier.alerts) == alerted
    [entry] = stored
    assert entry.address == "hashed-address" and entry.kind == AlertKind.QUESTION  # the caps count per address


def test_a_failing_store_logs_the_whole_record_and_tells_the_model_to_say_saving_failed(caplog):
    def broken(entry):
        raise OSError("disk full")

    notifier = RecordingNotifier()
    with caplog.at_level(logging.ERROR, logger="replica.tools.keeping"):
        result = keep(context(notifier), ALERT, broken, Outcome.QUESTION_SAVED, {"question": "Opera?"}, "q")
    assert result.outcome is Outcome.SAVE_FAILED and notifier.alerts == []
    assert result.text.startswith("Error: the question could not be saved") and "try again later" in result.text
    assert result.fact == "q: saving failed because of a storage problem; nothing was recorded"
    [record] = caplog.records
    assert '"question": "Opera?"' in record.getMessage() and '"session": "s-7"' in record.getMessage()
