"""gather_user_details (replica/tools/gather_user_details.py): a valid address normalised, kept and
alerted; an invalid one refused with instructions for the model and no alert."""

from __future__ import annotations

import pytest

from replica.tools import Failure, Outcome, ToolContext, ToolResult, default_registry


@pytest.fixture
def context(store, notifier):
    return ToolContext(session_id="s-1", store=store, notifier=notifier)


def test_valid_email_is_normalised_and_alerted(context):
    result = default_registry().run(
        "gather_user_details", '{"email": " Ada@Example.ORG ", "notes": "Wants a chat", "name": "Ada"}', context
    )
    assert result == ToolResult(
        "ok",
        Outcome.LEAD_SAVED,
        "lead (Ada@example.org) recorded and passed on to the owner, who was alerted",
        frozenset({"ada@example.org"}),
    )
    [alert] = context.notifier.alerts
    assert dict(alert.fields) == {"Name": "Ada", "Email": "Ada@example.org", "Notes": "Wants a chat"}


@pytest.mark.parametrize("email", ["not-an-email", "ada@", "ada@localhost", "a b@example.org", "ada@example..org"])
def test_invalid_email_returns_instructions_and_does_not_alert(context, email):
    result = default_registry().run("gather_user_details", f'{{"email": "{email}", "notes": "x"}}', context)
    assert result.text.startswith("Error: the email address") and "ask them for a valid email address" in result.text
    assert result.outcome is Outcome.EMAIL_REFUSED and result.failure is Failure.REFUSED
    assert context.notifier.alerts == []


def test_name_is_optional(context):
    result = default_registry().run("gather_user_details", '{"email": "x@example.org", "notes": "n"}', context)
    assert result.text == "ok" and dict(context.notifier.alerts[0].fields)["Name"] == "(not given)"
