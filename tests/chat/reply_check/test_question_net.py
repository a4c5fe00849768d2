"""A question the reply could not answer reaches the owner (replica/chat/reply_check/question_net.py): passed on
through ``inform_unknown`` as the model would, the call added to the run, and the records then read as
backing a claim that it was passed on."""

from __future__ import annotations

from replica.chat.reply_check.checker import Records
from replica.chat.reply_check.question_net import QUESTION_CHARS, pass_question_on, records_of
from replica.chat.run import Run, Source, ToolRan
from replica.tools import ToolContext, default_registry


def test_a_passed_on_question_is_on_record_in_the_run_and_alerted_once(store, notifier):
    context, run = ToolContext(session_id="s-1", store=store, notifier=notifier), Run()
    assert records_of(store, context, run) == Records()
    assert pass_question_on("Do you play the oboe?", default_registry(), context, run)
    [event] = run.events
    assert isinstance(event, ToolRan) and (event.name, event.source) == ("inform_unknown", Source.REPLY_CHECK)
    assert records_of(store, context, run) == Records(question=True, asked_now=True)
    later = Run()  # the next message of the same visitor: on record, not asked now
    assert records_of(store, context, later) == Records(question=True)
    assert pass_question_on("Do you play the oboe?", default_registry(), context, later)
    assert len(notifier.alerts) == 1  # the same question, once


def test_a_long_message_is_passed_on_cut_to_its_first_500_characters(store, notifier):
    context = ToolContext(session_id="s-2", store=store, notifier=notifier)
    pass_question_on("Why " + "x" * 2000, default_registry(), context, Run())
    [alert] = notifier.alerts
    assert dict(alert.fields)["Question"] == ("Why " + "x" * 2000)[:QUESTION_CHARS]


def test_another_visitors_records_are_not_this_ones(store, notifier):
    first = ToolContext(session_id="s-1", store=store, notifier=notifier)
    pass_question_on("Opera?", default_registry(), first, Run())
    second = ToolContext(session_id="s-2", store=store, notifier=notifier)
    assert records_of(store, second, Run()) == Records()
