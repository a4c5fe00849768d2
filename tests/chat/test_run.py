"""A visitor message's run (replica/chat/run.py): everything the log line, the recorded facts and the
reply's ending say is read from its events, in order."""

from __future__ import annotations

from replica.chat.run import Ended, Ending, LookedForAddresses, ModelCalled, Run, Source, ToolRan, Words
from replica.storage.records import REPLICA, Role
from replica.tools import Failure, Outcome, ToolResult

LEAD = ToolResult("ok", Outcome.LEAD_SAVED, "lead (ada@example.org) recorded", frozenset({"ada@example.org"}))
QUESTION = ToolResult("ok", Outcome.QUESTION_SAVED, "question ('Opera?') recorded")


def a_run() -> Run:
    run = Run()
    run.add(ModelCalled(1))
    run.add(Words(""))
    run.add(ToolRan("gather_user_details", Source.MODEL, LEAD))
    run.add(ToolRan("inform_unknown", Source.TEXT, ToolResult("Error: bad", failure=Failure.BAD_ARGUMENTS)))
    run.add(ModelCalled(2))
    run.add(Words("Thanks, Ada."))
    return run


def test_what_the_model_did_is_read_from_the_events():
    run = a_run()
    assert (run.model_calls, run.textual_calls) == (2, 1)
    assert run.tools == ["gather_user_details", "inform_unknown"]
    assert run.done == ["gather_user_details: lead saved", "inform_unknown: bad arguments"]
    assert (run.words, run.facts, run.emails) == (
        "Thanks, Ada.",
        ["lead (ada@example.org) recorded"],
        {"ada@example.org"},
    )


def test_the_apps_own_calls_are_named_only_when_they_did_something_and_are_not_the_models_tools():
    run = a_run()
    run.add(LookedForAddresses())
    run.add(ToolRan("inform_unknown", Source.REPLY_CHECK, QUESTION))
    run.add(ToolRan("gather_user_details", Source.VISITORS_WORDS, ToolResult("ok")))
    assert run.lead_net_ran and run.tools == ["gather_user_details", "inform_unknown"]
    assert run.done[-1] == "inform_unknown from the reply check: question saved" and len(run.done) == 3
    assert run.outcomes == [Outcome.LEAD_SAVED, Outcome.QUESTION_SAVED]


def test_how_it_ended_adds_up_its_marks_and_a_reply_with_none_was_stopped():
    run = a_run()
    assert (run.ended, run.role, run.lead_net_ran) == ("stopped", REPLICA, False)
    run.add(Ended(Ending.BUSY))
    run.add(Ended(Ending.APPROVED_ANSWER, role="app"))
    assert (run.ended, run.role) == ("busy: approved answer", "app")


def test_the_events_are_kept_in_order_and_cannot_be_changed_from_outside():
    run = a_run()
    events = run.events
    assert isinstance(events, tuple) and events[0] == ModelCalled(1) and events[-1] == Words("Thanks, Ada.")


def run_of(*events) -> Run:
    run = Run()
    for event in events:
        run.add(event)
    return run


def test_how_a_message_was_answered_is_read_from_its_run_for_the_owners_charts():
    words = (ModelCalled(1), Words("I build engines.", tokens=120), Ended(Ending.WORDS))
    assert run_of(*words).answered == "model" and run_of(*words).tokens == 120
    assert a_run().answered == "other"  # no end marked: the visitor stopped it
    passed = (
        ModelCalled(1),
        ToolRan("inform_unknown", Source.MODEL, QUESTION),
        Words("Passed on."),
        Ended(Ending.WORDS),
    )
    assert run_of(*passed).answered == "passed_on"
    checked = (
        ModelCalled(1),
        Words("No."),
        ToolRan("inform_unknown", Source.REPLY_CHECK, QUESTION),
        Ended(Ending.WORDS),
    )
    assert run_of(*checked).answered == "passed_on"  # the reply check declined the model's guess and passed it on
    assert run_of(Ended(Ending.NO_MODEL), Ended(Ending.APPROVED_ANSWER)).answered == "approved"
    assert run_of(Ended(Ending.BUSY), Ended(Ending.APPROVED_ANSWER)).answered == "approved"  # at a spike
    assert run_of(Ended(Ending.NO_MODEL), Ended(Ending.QUESTION_PASSED_ON)).answered == "passed_on"
    assert run_of(Ended(Ending.PASSED_TO_OWNER, role=Role.NOTICE)).answered == "owner"
    for other in (Ending.GREETING, Ending.REFUSED, Ending.CODE, Ending.NO_ANSWER, Ending.LEAD_KEPT):
        assert run_of(Ended(other)).answered == "other"
    model_failed = (ModelCalled(1), Ended(Ending.MODEL_FAILED), Ended(Ending.APPROVED_ANSWER))
    assert run_of(*model_failed).answered == "approved"  # the model failed; an approved answer stood in
