"""The replica's tools. ``default_registry()`` is the one list of what the model may call.

The two built-in tools come first, then a fork's own (:mod:`replica.tools.extra`): the app, ``eval`` and
the tests get them all from it, so none offers the model a list of its own.
"""

from typing import Sequence

from replica.tools.extra import extra_tools
from replica.tools.gather_user_details import gather_user_details
from replica.tools.inform_unknown import inform_unknown
from replica.tools.registry import ToolRegistry
from replica.tools.tool import Failure, Outcome, Tool, ToolContext, ToolResult, ToolRetry

BUILT_IN = (gather_user_details, inform_unknown)


def default_registry(extra: Sequence[str] = ()) -> ToolRegistry:
    """The registry of every tool the replica offers the model: the two built in first, then each
    installed package's ``replica.tools`` entry points, then the functions ``extra`` names
    (``EXTRA_TOOLS``: ``package.module:function``). A tool that cannot be made, or a name offered twice,
    raises :class:`~replica.settings.ConfigError` in one line."""
    built_in = [Tool.from_function(function) for function in BUILT_IN]
    return ToolRegistry([*built_in, *extra_tools(extra, taken=[tool.name for tool in built_in])])


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
