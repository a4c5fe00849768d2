"""The replica's tools. ``default_registry()`` is the one list of what the model may call."""

from replica.tools.gather_user_details import gather_user_details
from replica.tools.inform_unknown import inform_unknown
from replica.tools.registry import ToolRegistry
from replica.tools.tool import Failure, Outcome, Tool, ToolContext, ToolResult, ToolRetry


def default_registry() -> ToolRegistry:
    """The registry of every tool the replica offers the model: exactly these two."""
    return ToolRegistry([Tool.from_function(gather_user_details), Tool.from_function(inform_unknown)])


__all__ = [
    "Failure",
    "Outcome",
    "Tool",
    "ToolContext",
    "ToolRegistry",
    "ToolResult",
    "ToolRetry",
    "default_registry",
    "gather_user_details",
    "inform_unknown",
]
