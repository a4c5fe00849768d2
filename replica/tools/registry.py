"""One explicit registry of the tools the model may call, and the only place tools are dispatched.

A tool is a typed function (:mod:`replica.tools.tool`). Whatever the model sends (an unknown name,
arguments that are not JSON, missing, unexpected or mistyped arguments), :meth:`ToolRegistry.run`
answers with an error result for the model to read; it never raises.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Iterable

from pydantic import ValidationError

from replica.tools.tool import Tool, ToolContext, ToolResult

log = logging.getLogger(__name__)

JSON_TYPE_WORDS = {"string": "a string", "integer": "a whole number", "number": "a number", "boolean": "true or false"}


class ToolRegistry:
    """Maps tool names to tools. A name registered twice is refused when the registry is built."""

    def __init__(self, tools: Iterable[Tool]):
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            if tool.name in self._tools:
                raise ValueError(f"invalid tool definitions: {tool.name}: registered twice")
            self._tools[tool.name] = tool

    @property
    def names(self) -> list[str]:
        """The registered tool names, in registration order."""
        return list(self._tools)

    def parameters(self) -> dict[str, set[str]]:
        """Each tool's argument names, by tool name."""
        return {name: set(tool.parameters["properties"]) for name, tool in self._tools.items()}

    def required(self) -> dict[str, set[str]]:
        """Each tool's required argument names, by tool name."""
        return {name: set(tool.parameters["required"]) for name, tool in self._tools.items()}

    def schemas(self) -> list[dict[str, Any]]:
        """Every tool in the Chat Completions ``tools`` format."""
        return [tool.schema() for tool in self._tools.values()]

    def run(self, name: str, raw_arguments: str | None, context: ToolContext) -> ToolResult:
        """Run tool ``name`` with the model's JSON ``raw_arguments``: its result, or an error result."""
        tool = self._tools.get(name)
        if tool is None:
            return ToolResult(f'Error: tool "{name}" does not exist. Available tools: {", ".join(self._tools)}.')
        try:
            arguments = json.loads(raw_arguments or "{}")
        except json.JSONDecodeError as exc:
            return ToolResult(f"Error: the arguments for {name} are not valid JSON ({exc.msg}). Send a JSON object.")
        problem = _argument_problem(tool, arguments)
        if problem:
            return ToolResult(f"Error: {problem} Call {name} again with arguments that match its schema.")
        try:
            return tool.function(context, **arguments)
        except Exception:  # a tool bug must not reach the visitor; the log keeps the traceback
            log.exception("Tool %s failed", name)
            return ToolResult(
                f"Error: {name} failed unexpectedly. Do not retry; apologise and continue the conversation."
            )


def _argument_problem(tool: Tool, arguments: Any) -> str | None:
    """What is wrong with ``arguments`` for ``tool``, in a sentence the model can act on; ``None`` if nothing."""
    if not isinstance(arguments, dict):
        return "the arguments must be a JSON object."
    schema = tool.parameters
    missing = [r for r in schema["required"] if arguments.get(r) in (None, "")]
    if missing:
        return f"missing required argument(s): {', '.join(missing)}."
    unexpected = sorted(set(arguments) - set(schema["properties"]))
    if unexpected:
        return f"unexpected argument(s): {', '.join(unexpected)}."
    try:
        tool.arguments.model_validate(arguments)
    except ValidationError as error:
        wrong = [
            f"{field} must be {JSON_TYPE_WORDS.get(schema['properties'][field].get('type'), 'of its type')}"
            for field in dict.fromkeys(str(e["loc"][0]) for e in error.errors() if e["loc"])
        ]
        return "; ".join(wrong) + "."
    return None
