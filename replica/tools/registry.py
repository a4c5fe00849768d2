"""One explicit registry of the tools the model may call, and the only place tools are dispatched.

A tool is a plain function plus its JSON schema. Whatever the model sends (an unknown name, arguments
that are not JSON, missing or unexpected arguments), :meth:`ToolRegistry.run` answers with an error
string for the model to read; it never raises.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Callable, Iterable

from replica.alerts import Alert, Notifier
from replica.storage import OutboxEntry, Recorded, Store

log = logging.getLogger(__name__)

JSON_TYPES: dict[str, type | tuple[type, ...]] = {"string": str, "integer": int, "boolean": bool}


class Outcome(Enum):
    """What a tool did, for the loop to tell the visitor when the model gives no words of its own."""

    LEAD_SAVED = "lead saved"
    QUESTION_SAVED = "question saved"
    SAVE_FAILED = "save failed"
    EMAIL_REFUSED = "email refused"
    EMAIL_NOT_WRITTEN = "email not written by the visitor"


# What a record's fate means, as a fact the model is shown on later messages (see ``ToolContext.facts``).
FATES = {
    Recorded.ALERTED: "{what} recorded and passed on to the owner, who was alerted",
    Recorded.CAPPED: "{what} recorded for the owner, but not alerted (this visitor's alert limit is reached)",
    Recorded.DUPLICATE: "{what} was already recorded and passed on earlier; not again",
}


SAVE_FAILED_FOR_MODEL = (
    "Error: the {kind} could not be saved because of a storage failure on the owner's side. "
    "Tell the visitor honestly that saving failed, and ask them to try again later."
)


# Words right before an address that say it is not the visitor's own: "don't contact ceo@…", "my
# colleague's email is bob@…". Kept narrow: a lead wrongly refused is worse than one wrongly kept.
SOMEONE_ELSES = re.compile(
    r"(?:(?:do\s*n[o'’]?t|never)\s+(?:contact|e-?mail|write\s+to|reach|cc|copy)(?:\s+\w+)?(?:\s+(?:at|on))?"
    r"|(?:not\s+(?:my|mine)|\b(?:his|her|their)|(?:colleague|boss|manager|friend|client|partner|wife|husband"
    r"|assistant|recruiter|ceo|someone\s+else|somebody\s+else)(?:['’]s|s['’])?)\s+(?:e-?mail(?:\s+address)?"
    r"|address|contact)(?:\s+(?:is|was))?)\s*[:\-–]?\s*$",
    re.I,
)


def marked_as_someone_elses(words: str, email: str) -> bool:
    """Whether, in ``words``, each place ``email`` is written is preceded in its sentence by words that
    say it is someone else's."""
    lowered, needle = words.lower(), email.strip().lower()
    places = [m.start() for m in re.finditer(re.escape(needle), lowered)] if needle else []
    return bool(places) and all(SOMEONE_ELSES.search(words[max(0, at - 60) : at]) for at in places)


@dataclass(frozen=True)
class ToolContext:
    """What a tool may use besides its arguments: which visitor is asking, where records are kept,
    and who to tell once an alert is stored. ``outcomes`` collects what the tools did, ``facts`` the same
    in words (one line each), for the conversation's record and the model's later messages; ``emails``
    the addresses a lead was attempted for. ``visitor_words`` is everything the visitor wrote in this
    conversation: a lead's address must be among them (``None``: not known, as in a tool's own tests)."""

    session_id: str
    store: Store
    notifier: Notifier
    check_deliverability: bool = False
    conversation: int | None = None  # the conversation's number, named in alerts
    via: str = ""  # how the visitor came, when not by the page ("MCP")
    visitor_words: str | None = None
    address: str = ""  # the visitor's client address, salted and hashed: alert caps hold per address too

    def someone_elses(self, email: str) -> bool:
        """Whether the visitor marked ``email`` as not theirs where they wrote it ("don't contact …", "my
        colleague's address is …")."""
        return self.visitor_words is not None and marked_as_someone_elses(self.visitor_words, email)

    def visitor_wrote(self, text: str) -> bool:
        """Whether the visitor wrote ``text`` (case aside) in this conversation; true when not known."""
        return self.visitor_words is None or text.strip().lower() in self.visitor_words.lower()

    def title(self, title: str) -> str:
        """An alert's title, marked with how the visitor came ("New lead (via MCP)")."""
        return f"{title} (via {self.via})" if self.via else title

    outcomes: list[Outcome] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    emails: set[str] = field(default_factory=set)

    def keep(
        self,
        alert: Alert,
        store: Callable[[OutboxEntry], Recorded],
        outcome: Outcome,
        record: dict[str, Any],
        what: str,
    ) -> str:
        """Store a record with its alert in one go (``store``), note ``outcome`` (and the fact, naming the
        record as ``what``) and wake the notifier; when the store fails, write the record of last resort.
        Returns what the model is told."""
        try:
            recorded = store(replace(alert.entry(), address=self.address))
        except Exception:
            self.facts.append(f"{what}: saving failed because of a storage problem; nothing was recorded")
            return self.save_failed(alert.kind, record)
        self.outcomes.append(outcome)
        self.facts.append(FATES[recorded].format(what=what))
        if recorded is Recorded.ALERTED:
            self.notifier.notify(alert)
        return "ok"

    def save_failed(self, kind: str, record: dict[str, Any]) -> str:
        """The store refused ``record``: write it whole to the log at ERROR (the record of last resort),
        note the failure for the visitor, and return what the model is told."""
        log.exception(
            "Could not store a %s; the record of last resort follows: %s",
            kind,
            json.dumps({"kind": kind, "session": self.session_id, **record}, ensure_ascii=False),
        )
        self.outcomes.append(Outcome.SAVE_FAILED)
        return SAVE_FAILED_FOR_MODEL.format(kind=kind)


@dataclass(frozen=True)
class Tool:
    """A tool: its name, what it is for, its JSON-schema parameters, and the function that does it.

    ``function(context, **arguments)`` returns the text the model reads as the tool's result.
    """

    name: str
    description: str
    parameters: dict[str, Any]
    function: Callable[..., str]

    def schema(self) -> dict[str, Any]:
        """The tool in the Chat Completions ``tools`` format."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


def _schema_problems(tool: Tool) -> list[str]:
    params = tool.parameters
    properties = params.get("properties", {})
    problems = []
    if params.get("type") != "object":
        problems.append(f"{tool.name}: parameters must be a JSON object schema")
    problems += [
        f"{tool.name}: required {r!r} is not a property" for r in params.get("required", []) if r not in properties
    ]
    problems += [
        f"{tool.name}: property {p!r} has unsupported type {spec.get('type')!r}"
        for p, spec in properties.items()
        if spec.get("type") not in JSON_TYPES
    ]
    return problems


class ToolRegistry:
    """Maps tool names to tools. Schema mistakes are reported together, when the registry is built."""

    def __init__(self, tools: Iterable[Tool]):
        self._tools: dict[str, Tool] = {}
        problems = []
        for tool in tools:
            if tool.name in self._tools:
                problems.append(f"{tool.name}: registered twice")
            problems += _schema_problems(tool)
            self._tools[tool.name] = tool
        if problems:
            raise ValueError("invalid tool definitions: " + "; ".join(problems))

    @property
    def names(self) -> list[str]:
        """The registered tool names, in registration order."""
        return list(self._tools)

    def parameters(self) -> dict[str, set[str]]:
        """Each tool's argument names, by tool name."""
        return {name: set(tool.parameters.get("properties", {})) for name, tool in self._tools.items()}

    def required(self) -> dict[str, set[str]]:
        """Each tool's required argument names, by tool name."""
        return {name: set(tool.parameters.get("required", [])) for name, tool in self._tools.items()}

    def schemas(self) -> list[dict[str, Any]]:
        """Every tool in the Chat Completions ``tools`` format."""
        return [tool.schema() for tool in self._tools.values()]

    def run(self, name: str, raw_arguments: str | None, context: ToolContext) -> str:
        """Run tool ``name`` with the model's JSON ``raw_arguments``; return its result or an error string."""
        tool = self._tools.get(name)
        if tool is None:
            return f'Error: tool "{name}" does not exist. Available tools: {", ".join(self._tools)}.'
        try:
            arguments = json.loads(raw_arguments or "{}")
        except json.JSONDecodeError as exc:
            return f"Error: the arguments for {name} are not valid JSON ({exc.msg}). Send a JSON object."
        problem = _argument_problem(tool, arguments)
        if problem:
            return f"Error: {problem} Call {name} again with arguments that match its schema."
        try:
            return tool.function(context, **arguments)
        except Exception:  # a tool bug must not reach the visitor; the log keeps the traceback
            log.exception("Tool %s failed", name)
            return f"Error: {name} failed unexpectedly. Do not retry; apologise and continue the conversation."


def _argument_problem(tool: Tool, arguments: Any) -> str | None:
    if not isinstance(arguments, dict):
        return "the arguments must be a JSON object."
    properties = tool.parameters.get("properties", {})
    missing = [r for r in tool.parameters.get("required", []) if arguments.get(r) in (None, "")]
    if missing:
        return f"missing required argument(s): {', '.join(missing)}."
    unexpected = sorted(set(arguments) - set(properties))
    if unexpected:
        return f"unexpected argument(s): {', '.join(unexpected)}."
    wrong = [
        f"{key} must be a {properties[key]['type']}"
        for key, value in arguments.items()
        if value is not None and not isinstance(value, JSON_TYPES[properties[key]["type"]])
    ]
    return ("; ".join(wrong) + ".") if wrong else None
