"""The replica's tools. ``default_registry()`` is the one list of what the model may call."""

from replica.tools import gather_user_details, inform_unknown
from replica.tools.registry import Outcome, Tool, ToolContext, ToolRegistry


def default_registry() -> ToolRegistry:
    """The registry of every tool the replica offers the model: exactly these two."""
    return ToolRegistry([gather_user_details.TOOL, inform_unknown.TOOL])


__all__ = ["Outcome", "Tool", "ToolContext", "ToolRegistry", "default_registry"]
