"""One explicit registry of the tools the model may call, and the only place tools are dispatched.

A tool is a typed function (:mod:`replica.tools.tool`). Whatever the model sends (an unknown name,
arguments that are not JSON, missing, unexpected or mistyped arguments), and whatever the tool raises
(:class:`ToolRetry` to refuse, anything else by mistake), :meth:`ToolRegistry.run` answers with a result
whose text the model reads (``Error: …``) and whose ``failure`` says which; it never raises.
:meth:`ToolRegistry.call` is the app's own way to call a tool, with Python arguments.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Callable, Iterable

from pydantic import ValidationError

from replica.tools.tool import Failure, Tool, ToolContext, ToolResult, ToolRetry

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
        """Run tool ``name`` with the model's JSON ``raw_arguments``: its result, or a result with a failure."""
        tool = self._tools.get(name)
        if tool is None:
            return self._unknown(name)
        try:
            arguments = json.loads(raw_arguments or "{}")
        except json.JSONDecodeError as exc:
            return ToolResult(
                f"Error: the arguments for {name} are not valid JSON ({exc.msg}). Send a JSON object.",
                failure=Failure.BAD_ARGUMENTS,
            )
        problem = _argument_problem(tool, arguments)
        if problem:
            return ToolResult(
                f"Error: {problem} Call {name} again with arguments that match its schema.",
                failure=Failure.BAD_ARGUMENTS,
            )
        try:
            return tool.function(context, **arguments)
        except ToolRetry as refusal:  # the tool said no, and why: the model reads it and asks again
            return ToolResult(
                f"Error: {refusal.message}", refusal.outcome, refusal.fact, refusal.emails, Failure.REFUSED
            )
        except Exception:  # a tool bug must not reach the visitor; the log keeps the traceback
            log.exception("Tool %s failed", name)
            return ToolResult(
                f"Error: {name} failed unexpectedly. Do not retry; apologise and continue the conversation.",
                failure=Failure.CRASHED,
            )

    def call(self, tool: Callable[..., ToolResult] | str, context: ToolContext, /, **arguments: Any) -> ToolResult:
        """The app's own call of ``tool`` (its function, or its name) with ``arguments`` (JSON values, as
        Python's): checked and run exactly as a model's call is. A function is called only if it is the
        one registered under its name; else the result is an unknown tool's."""
        name = tool if isinstance(tool, str) else tool.__name__
        registered = self._tools.get(name)
        if registered is None or not (isinstance(tool, str) or registered.function is tool):
            return self._unknown(name)
        return self.run(name, json.dumps(arguments), context)

    def _unknown(self, name: str) -> ToolResult:
        """The result of a call of a tool that is not registered."""
        return ToolResult(
            f'Error: tool "{name}" does not exist. Available tools: {", ".join(self._tools)}.',
            failure=Failure.UNKNOWN_TOOL,
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
