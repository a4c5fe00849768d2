"""The registry (replica/tools/registry.py), the only way to call a tool: the tools it offers (the one
default registry, replica/tools/__init__.py), arguments checked against their schema, and every failure a
typed result for the model, never an exception."""

from __future__ import annotations

import ast
import dataclasses

import pytest

from replica.tools import Failure, Outcome, Tool, ToolContext, ToolRegistry, ToolResult, ToolRetry, default_registry
from replica.tools.gather_user_details import gather_user_details
from replica.tools.inform_unknown import inform_unknown
from tests.fixtures.environment import ROOT


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


def test_the_app_gets_its_tools_from_the_one_default_registry():
    """``default_registry(settings.reply.extra_tools)`` is the one way to the tools the model is offered, a fork's
    own included (tests/tools/test_extra.py): no other module of the app builds a registry of its own."""
    builders = []
    for path in (ROOT / "replica").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", "")) == "ToolRegistry"
            ):
                builders.append(path.relative_to(ROOT).as_posix())
    assert builders == ["replica/tools/__init__.py"]


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
    assert result.failure is Failure.BAD_ARGUMENTS and context.notifier.alerts == []


def test_a_failing_tool_returns_an_error_result(context, caplog):
    def broken(context: ToolContext, question: str) -> ToolResult:
        """Break.

        Args:
            question: Anything.
        """
        raise RuntimeError("disk on fire")

    registry = ToolRegistry([Tool.from_function(broken)])
    result = registry.run("broken", '{"question": "q"}', context)
    assert result.text.startswith("Error: broken failed") and result.failure is Failure.CRASHED
    assert "disk on fire" in caplog.text  # kept for the owner's log, not shown to anyone


def test_a_tool_refuses_by_raising_and_the_model_reads_why_with_the_failure_typed(context):
    """As pydantic-ai's ``ModelRetry``: the tool raises, the registry gives the model ``Error: <message>``
    and its caller the failure, with whatever the tool said it did."""

    def book(context: ToolContext, day: str) -> ToolResult:
        """Book a call.

        Args:
            day: The day.
        """
        raise ToolRetry("the owner takes no calls on Sundays; offer another day.", fact="no call booked")

    result = ToolRegistry([Tool.from_function(book)]).run("book", '{"day": "Sunday"}', context)
    assert result == ToolResult(
        "Error: the owner takes no calls on Sundays; offer another day.",
        fact="no call booked",
        failure=Failure.REFUSED,
    )


def test_each_failure_is_typed_and_a_call_that_ran_has_none(context):
    registry = default_registry()
    assert registry.run("drop_database", "{}", context).failure is Failure.UNKNOWN_TOOL
    assert registry.run("inform_unknown", '{"question": ', context).failure is Failure.BAD_ARGUMENTS
    assert registry.run("inform_unknown", '{"question": "Opera?"}', context).failure is None
    heard = dataclasses.replace(context, visitor_words="Write to my colleague's email is bob@example.org")
    never_written = registry.run("gather_user_details", '{"email": "ada@example.org", "notes": "n"}', heard)
    someone_elses = registry.run("gather_user_details", '{"email": "bob@example.org", "notes": "n"}', heard)
    assert never_written.outcome is Outcome.EMAIL_NOT_WRITTEN and never_written.failure is Failure.REFUSED
    assert someone_elses.emails == {"bob@example.org"} and someone_elses.failure is Failure.REFUSED
    assert len(context.notifier.alerts) == 1  # the question's alone


def test_the_app_calls_a_tool_by_its_function_with_python_arguments_checked_as_the_models_are(context):
    registry = default_registry()
    result = registry.call(gather_user_details, context, email="ada@example.org", notes="Wants a chat")
    assert result.outcome is Outcome.LEAD_SAVED and result.failure is None
    assert registry.call("inform_unknown", context, question="Opera?").outcome is Outcome.QUESTION_SAVED
    assert registry.call(inform_unknown, context, question=42).failure is Failure.BAD_ARGUMENTS

    def inform_unknown_namesake(context: ToolContext, question: str) -> ToolResult:
        return ToolResult("ok")

    inform_unknown_namesake.__name__ = "inform_unknown"  # a function of that name, not the registered one
    assert registry.call(inform_unknown_namesake, context, question="q").failure is Failure.UNKNOWN_TOOL
    assert len(context.notifier.alerts) == 2
