"""The two tools and the registry that is the only way to call them."""

from __future__ import annotations

import pytest

from replica.tools import Tool, ToolContext, ToolRegistry, default_registry


@pytest.fixture
def context(store, notifier):
    return ToolContext(session_id="s-1", store=store, notifier=notifier)


def test_registry_offers_exactly_the_two_tools_with_their_parameters():
    schemas = {s["function"]["name"]: s["function"]["parameters"] for s in default_registry().schemas()}
    assert set(schemas) == {"gather_user_details", "inform_unknown"}
    assert set(schemas["gather_user_details"]["properties"]) == {"email", "notes", "name"}
    assert schemas["gather_user_details"]["required"] == ["email", "notes"]
    assert set(schemas["inform_unknown"]["properties"]) == {"question"}
    assert schemas["inform_unknown"]["required"] == ["question"]


def test_valid_email_is_normalised_and_alerted(context):
    result = default_registry().run(
        "gather_user_details", '{"email": " Ada@Example.ORG ", "notes": "Wants a chat", "name": "Ada"}', context
    )
    assert result == "ok"
    [alert] = context.notifier.alerts
    assert dict(alert.fields) == {"Name": "Ada", "Email": "Ada@example.org", "Notes": "Wants a chat"}


@pytest.mark.parametrize("email", ["not-an-email", "ada@", "ada@localhost", "a b@example.org", "ada@example..org"])
def test_invalid_email_returns_instructions_and_does_not_alert(context, email):
    result = default_registry().run("gather_user_details", f'{{"email": "{email}", "notes": "x"}}', context)
    assert result.startswith("Error: the email address") and "ask them for a valid email address" in result
    assert context.notifier.alerts == []


def test_name_is_optional(context):
    assert default_registry().run("gather_user_details", '{"email": "x@example.org", "notes": "n"}', context) == "ok"
    assert dict(context.notifier.alerts[0].fields)["Name"] == "(not given)"


@pytest.mark.parametrize(
    "raw, expected",
    [
        ('["a"]', "must be a JSON object"),
        ('{"question": "q", "extra": 1}', "unexpected argument(s): extra"),
        ('{"question": ""}', "missing required argument(s): question"),
        ("", "missing required argument(s): question"),
    ],
)
def test_malformed_arguments_are_errors_not_exceptions(context, raw, expected):
    result = default_registry().run("inform_unknown", raw, context)
    assert result.startswith("Error:") and expected in result
    assert context.notifier.alerts == []


def test_a_failing_tool_returns_an_error_string(context, caplog):
    def broken(context, question):
        raise RuntimeError("disk on fire")

    registry = ToolRegistry(
        [Tool("broken", "d", {"type": "object", "properties": {"question": {"type": "string"}}}, broken)]
    )
    assert registry.run("broken", '{"question": "q"}', context).startswith("Error: broken failed")
    assert "disk on fire" in caplog.text  # kept for the owner's log, not shown to anyone


def test_schema_mistakes_are_reported_at_definition_time():
    bad = Tool("t", "d", {"type": "object", "properties": {"a": {"type": "date"}}, "required": ["b"]}, lambda c: "")
    with pytest.raises(ValueError) as error:
        ToolRegistry([bad, bad])
    message = str(error.value)
    assert "registered twice" in message and "'b' is not a property" in message and "unsupported type 'date'" in message
