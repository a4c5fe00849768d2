"""The two tools and the registry that is the only way to call them."""

from __future__ import annotations

import dataclasses

import pytest

from replica.tools import Outcome, Tool, ToolContext, ToolRegistry, ToolResult, default_registry
from replica.tools.inform_unknown import inform_unknown


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


def test_the_schema_is_built_from_the_signature_and_docstring():
    """What the model reads of a tool is its function's: its name, its docstring's first paragraph, each
    argument's type and ``Args:`` line; an argument with a default is optional."""

    def note_city(context: ToolContext, city: str, days: int, by_train: bool | None = None) -> ToolResult:
        """Note the city the visitor wants to meet in.

        Args:
            city: The city, as the visitor
                wrote it.
            days: How many days from now.
            by_train: Whether they come by train.
        """
        return ToolResult("ok")

    tool = Tool.from_function(note_city)
    assert (tool.name, tool.description) == ("note_city", "Note the city the visitor wants to meet in.")
    assert tool.parameters == {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "The city, as the visitor wrote it."},
            "days": {"type": "integer", "description": "How many days from now."},
            "by_train": {"type": "boolean", "description": "Whether they come by train."},
        },
        "required": ["city", "days"],
        "additionalProperties": False,
    }
    registry = ToolRegistry([tool])
    assert registry.run("note_city", '{"city": "Oslo", "days": "3"}', None).text.startswith(
        "Error: days must be a whole number"
    )


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


def test_a_tool_returns_what_it_did_and_leaves_its_context_as_it_was(context):
    before = [getattr(context, f.name) for f in dataclasses.fields(context)]
    assert not any(isinstance(value, (list, set, dict)) for value in before)  # nothing in it to fill
    again = default_registry().run("inform_unknown", '{"question": "Opera?"}', context)
    repeat = default_registry().run("inform_unknown", '{"question": "Opera?"}', context)
    assert (again.outcome, repeat.outcome) == (Outcome.QUESTION_SAVED, Outcome.QUESTION_SAVED)
    assert repeat.fact == "question ('Opera?') was already recorded and passed on earlier; not again"
    after = [getattr(context, f.name) for f in dataclasses.fields(context)]
    assert all(a is b for a, b in zip(after, before)) and len(context.notifier.alerts) == 1


@pytest.mark.parametrize("email", ["not-an-email", "ada@", "ada@localhost", "a b@example.org", "ada@example..org"])
def test_invalid_email_returns_instructions_and_does_not_alert(context, email):
    result = default_registry().run("gather_user_details", f'{{"email": "{email}", "notes": "x"}}', context)
    assert result.text.startswith("Error: the email address") and "ask them for a valid email address" in result.text
    assert result.outcome is Outcome.EMAIL_REFUSED and context.notifier.alerts == []


def test_name_is_optional(context):
    result = default_registry().run("gather_user_details", '{"email": "x@example.org", "notes": "n"}', context)
    assert result.text == "ok" and dict(context.notifier.alerts[0].fields)["Name"] == "(not given)"


@pytest.mark.parametrize(
    "raw, expected",
    [
        ('["a"]', "must be a JSON object"),
        ('{"question": "q", "extra": 1}', "unexpected argument(s): extra"),
        ('{"question": ""}', "missing required argument(s): question"),
        ("", "missing required argument(s): question"),
        ('{"question": 42}', "question must be a string"),
        ('{"question": ["q"]}', "question must be a string"),
    ],
)
def test_malformed_arguments_are_errors_not_exceptions(context, raw, expected):
    result = default_registry().run("inform_unknown", raw, context)
    assert result.text.startswith("Error:") and expected in result.text and result.outcome is None
    assert context.notifier.alerts == []


def test_a_failing_tool_returns_an_error_result(context, caplog):
    def broken(context: ToolContext, question: str) -> ToolResult:
        """Break.

        Args:
            question: Anything.
        """
        raise RuntimeError("disk on fire")

    registry = ToolRegistry([Tool.from_function(broken)])
    assert registry.run("broken", '{"question": "q"}', context).text.startswith("Error: broken failed")
    assert "disk on fire" in caplog.text  # kept for the owner's log, not shown to anyone


def test_tool_definition_mistakes_are_reported_when_the_tool_is_made():
    def vague(context, a, b: str) -> ToolResult:
        return ToolResult("ok")

    with pytest.raises(ValueError) as error:
        Tool.from_function(vague)
    message = str(error.value)
    assert "vague: no description of what it is for" in message
    assert "argument 'a' has no type" in message and "argument 'b' is not described under Args:" in message
    tool = Tool.from_function(inform_unknown)
    with pytest.raises(ValueError, match="registered twice"):
        ToolRegistry([tool, tool])
