"""inform_unknown (replica/tools/inform_unknown.py): a question passed on once, saying what it did."""

from __future__ import annotations

import dataclasses

import pytest

from replica.tools import Outcome, ToolContext, default_registry


@pytest.fixture
def context(store, notifier):
    return ToolContext(session_id="s-1", store=store, notifier=notifier)


def test_a_tool_returns_what_it_did_and_leaves_its_context_as_it_was(context):
    before = [getattr(context, f.name) for f in dataclasses.fields(context)]
    assert not any(isinstance(value, (list, set, dict)) for value in before)  # nothing in it to fill
    again = default_registry().run("inform_unknown", '{"question": "Opera?"}', context)
    repeat = default_registry().run("inform_unknown", '{"question": "Opera?"}', context)
    assert (again.outcome, repeat.outcome) == (Outcome.QUESTION_SAVED, Outcome.QUESTION_SAVED)
    assert repeat.fact == "question ('Opera?') was already recorded and passed on earlier; not again"
    after = [getattr(context, f.name) for f in dataclasses.fields(context)]
    assert all(a is b for a, b in zip(after, before)) and len(context.notifier.alerts) == 1


def test_the_owner_is_alerted_with_the_question_quoted_and_how_to_answer_it(context):
    via_mcp = dataclasses.replace(context, via="MCP", conversation=4)
    result = default_registry().run("inform_unknown", '{"question": "Do you play the <oboe>?"}', via_mcp)
    assert result.text == "ok" and result.failure is None
    [alert] = context.notifier.alerts
    assert alert.title == "Unanswered question (via MCP)" and dict(alert.fields) == {
        "Question": "Do you play the <oboe>?"
    }
    assert alert.quoted == ("Question",) and alert.conversation == 4 and "Reply to this message" in alert.hint
