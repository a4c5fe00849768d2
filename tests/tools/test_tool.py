"""What a tool is (replica/tools/tool.py): its schema made from the function's signature and docstring,
and a definition that lacks any of them refused when it is made."""

from __future__ import annotations

import pytest

from replica.tools import Tool, ToolContext, ToolRegistry, ToolResult
from replica.tools.inform_unknown import inform_unknown


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
