"""What a tool is: a plain typed function, its schema built from its signature and docstring (pydantic).

A tool function takes the :class:`ToolContext` first, then its arguments, each with a type and a line
in the docstring's ``Args:`` section; the docstring's first paragraph tells the model what the tool is
for. It returns a :class:`ToolResult`: the text the model reads, and what it did (an outcome, a fact
in words, the addresses it covered), which the registry hands back to its caller. It refuses a call
by raising :class:`ToolRetry` (as pydantic-ai's ``ModelRetry``): the registry gives the model the
message and the caller a result whose ``failure`` says so.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, create_model

from replica.alerts import Notifier
from replica.settings import VerificationMode
from replica.storage import Store


class Outcome(Enum):
    """What a tool did, for the loop to tell the visitor when the model gives no words of its own."""

    LEAD_SAVED = "lead saved"
    QUESTION_SAVED = "question saved"
    SAVE_FAILED = "save failed"
    EMAIL_REFUSED = "email refused"
    EMAIL_NOT_WRITTEN = "email not written by the visitor"


class Failure(Enum):
    """Why a tool call did not run to its end, as the registry found it (never read from the text)."""

    UNKNOWN_TOOL = "unknown tool"  # no tool of that name: nothing ran
    BAD_ARGUMENTS = "bad arguments"  # not JSON, not an object, missing, unexpected or mistyped: nothing ran
    REFUSED = "refused"  # the tool raised ToolRetry: the model is told why, and what to do instead
    CRASHED = "crashed"  # the tool raised anything else: a bug, whose traceback is in the log


@dataclass(frozen=True)
class ToolResult:
    """What one tool call did: ``text`` for the model; ``outcome`` and ``fact`` (one line, for the
    conversation's record and the model's later messages) when it did something; ``emails``, the
    addresses it dealt with (the lead net leaves those alone); ``failure``, set by the registry, when
    the call did not run to its end (``None`` when it did, whatever its outcome: a store that failed is
    the outcome ``SAVE_FAILED``)."""

    text: str
    outcome: Outcome | None = None
    fact: str | None = None
    emails: frozenset[str] = frozenset()
    failure: Failure | None = None


class ToolRetry(Exception):
    """Raised by a tool to refuse a call (pydantic-ai's ``ModelRetry``): the model reads
    ``Error: <message>``, so the message says what was wrong and what to do instead ("ask the visitor for
    a valid email address"); the result's ``failure`` is :attr:`Failure.REFUSED`. ``outcome``, ``fact``
    and ``emails`` are the result's, as a returned :class:`ToolResult` would give them."""

    def __init__(
        self,
        message: str,
        *,
        outcome: Outcome | None = None,
        fact: str | None = None,
        emails: frozenset[str] = frozenset(),
    ):
        super().__init__(message)
        self.message, self.outcome, self.fact, self.emails = message, outcome, fact, emails


@dataclass(frozen=True)
class ToolContext:
    """What a tool may use besides its arguments: which visitor is asking, where records are kept, and
    who to tell once an alert is stored. ``visitor_words`` is everything the visitor wrote in this
    conversation: a lead's address must be among them (``None``: not known, as in a tool's own tests)."""

    session_id: str
    store: Store
    notifier: Notifier
    check_deliverability: bool = False
    conversation: int | None = None  # the conversation's number, named in alerts
    via: str = ""  # how the visitor came, when not by the page ("MCP")
    visitor_words: str | None = None
    address: str = ""  # the visitor's address group (an IPv6 /64), salted and hashed: alert caps hold per address too
    close_faq: Callable[[str], str] = lambda question: ""  # the approved question close to one, or ""
    # Verified contacts (LEAD_VERIFICATION): "offer", a lead's alert says its address is not confirmed yet;
    # "required", the alert waits until the visitor confirms it with the code.
    verification: VerificationMode = "off"

    def visitor_wrote(self, text: str) -> bool:
        """Whether the visitor wrote ``text`` (case aside) in this conversation; true when not known."""
        return self.visitor_words is None or text.strip().lower() in self.visitor_words.lower()

    def title(self, title: str) -> str:
        """An alert's title, marked with how the visitor came ("New lead (via MCP)")."""
        return f"{title} (via {self.via})" if self.via else title


ARGS_ENTRY = re.compile(r"^ {4}(\w+): (.*)$")  # "    email: The visitor's email address, ..."


def _docstring_parts(function: Callable[..., Any]) -> tuple[str, dict[str, str]]:
    """A function's docstring as (its first paragraph on one line, each ``Args:`` entry by name)."""
    doc = inspect.getdoc(function) or ""
    summary = " ".join(doc.split("\n\n", 1)[0].split())
    described: dict[str, str] = {}
    _, _, args = doc.partition("\nArgs:\n")
    name = None
    for line in args.splitlines():
        if not line.strip():
            break
        entry = ARGS_ENTRY.match(line)
        if entry:
            name, described[entry.group(1)] = entry.group(1), entry.group(2)
        elif name:  # the entry above goes on
            described[name] += " " + line.strip()
    return summary, described


def _plain(schema: dict[str, Any]) -> dict[str, Any]:
    """pydantic's schema as models read it best: no titles, and an optional argument given as its type
    (``{"type": "string"}``), not as "string or null, default null"."""
    properties = {}
    for name, spec in schema["properties"].items():
        spec = {key: value for key, value in spec.items() if key not in ("title", "default")}
        options = [option for option in spec.pop("anyOf", []) if option.get("type") != "null"]
        properties[name] = {**options[0], **spec} if options else spec
    return {
        "type": "object",
        "properties": properties,
        "required": schema.get("required", []),
        "additionalProperties": False,
    }


@dataclass(frozen=True)
class Tool:
    """A tool: its name and purpose for the model, its arguments' model and their JSON schema (made once),
    and the function that does it. Made by :meth:`from_function`."""

    name: str
    description: str
    arguments: type[BaseModel]
    parameters: dict[str, Any]
    function: Callable[..., ToolResult]

    @classmethod
    def from_function(cls, function: Callable[..., ToolResult]) -> "Tool":
        """The tool ``function`` is: named as it is, described and typed by its docstring and signature.
        Raises ``ValueError`` naming what is missing (a description, a type)."""
        summary, described = _docstring_parts(function)
        hints = get_type_hints(function)
        problems = [] if summary else [f"{function.__name__}: no description of what it is for"]
        fields: dict[str, Any] = {}
        for parameter in list(inspect.signature(function).parameters.values())[1:]:  # the context comes first
            if parameter.name not in hints:
                problems.append(f"{function.__name__}: argument {parameter.name!r} has no type")
            if parameter.name not in described:
                problems.append(f"{function.__name__}: argument {parameter.name!r} is not described under Args:")
            default = ... if parameter.default is inspect.Parameter.empty else parameter.default
            described_field = Field(default, description=described.get(parameter.name))
            fields[parameter.name] = (hints.get(parameter.name, Any), described_field)
        if problems:
            raise ValueError("invalid tool definition: " + "; ".join(problems))
        config = ConfigDict(extra="forbid", strict=True)
        model = create_model(f"{function.__name__}_arguments", __config__=config, **fields)
        return cls(function.__name__, summary, model, _plain(model.model_json_schema()), function)

    def schema(self) -> dict[str, Any]:
        """The tool in the Chat Completions ``tools`` format."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }
