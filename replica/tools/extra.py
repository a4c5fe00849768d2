"""A fork's own tools beside the two built in, added without editing ``replica/``.

They are each installed package's ``replica.tools`` entry points, then the functions ``EXTRA_TOOLS``
names (``package.module:function``).

Each is a plain tool function (:mod:`replica.tools.tool`). One that cannot be loaded, is not a tool, or
has a name already offered is a :class:`ConfigError`, in one line naming where it came from.
"""

from __future__ import annotations

import logging
import pkgutil
from importlib.metadata import entry_points
from typing import Any, Callable, Iterable, Sequence

from replica.settings import ConfigError
from replica.tools.tool import Tool

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "replica.tools"  # in a fork's pyproject.toml: [project.entry-points."replica.tools"]
SETTING = "EXTRA_TOOLS"


def extra_tools(names: Sequence[str], taken: Iterable[str]) -> list[Tool]:
    """The tools of every ``replica.tools`` entry point (by package, then name), then of each
    ``package.module:function`` in ``names`` (``EXTRA_TOOLS``), in order. ``taken``: the names already
    offered (the built-in tools'), which none may have. Raises :class:`ConfigError` in one line."""
    found: list[tuple[str, Callable[..., Any]]] = []
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: (_package(p), p.name)):
        where = f"the {ENTRY_POINT_GROUP} entry point {point.name!r} of {_package(point)}"
        try:
            found.append((where, point.load()))
        except (ImportError, AttributeError) as error:
            raise ConfigError(f"{where} ({point.value}) cannot be loaded: {error}") from None
    for name in names:  # the setting's parser imported each already: a bad name stopped the start there
        found.append((f"{SETTING}'s {name}", pkgutil.resolve_name(name)))
    offered = {name: "a built-in tool" for name in taken}
    tools: list[Tool] = []
    for where, function in found:
        if any(tool.function is function for tool in tools):
            continue  # the same function by two ways (an entry point and EXTRA_TOOLS): offered once
        if not callable(function):
            raise ConfigError(f"{where} is not a function")
        try:
            tool = Tool.from_function(function)
        except (ValueError, TypeError, NameError) as error:  # no docstring or types; a type it cannot read
            raise ConfigError(f"{where} is not a tool: {error}") from None
        if tool.name in offered:
            raise ConfigError(
                f"{where} is named {tool.name!r}, as {offered[tool.name]} is: tool names must differ, rename the function"
            )
        offered[tool.name] = where
        tools.append(tool)
    if tools:
        log.info("Tools beside the built-in ones: %s", ", ".join(f"{t.name} ({offered[t.name]})" for t in tools))
    return tools


def _package(point: Any) -> str:
    """The name of the installed package that declares entry point ``point``."""
    return point.dist.name if point.dist is not None else "an unknown package"
