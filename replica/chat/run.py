"""A visitor message's run: the list of what happened, in order, appended as it happens.

The turn loop adds a :class:`ModelCalled` for each model call, a :class:`ToolRan` for each tool call
(with its result) and :class:`Words` for each turn's words; the replica adds the tools run from the
visitor's own words or without a model, and the :class:`Ended` marks. The message's log line, the
facts recorded with its reply, and why it ended are all read from these events; nothing is kept beside them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Union

from replica.storage import figures
from replica.storage.records import REPLICA, Answered, Role
from replica.tools import Outcome, ToolResult


class Source(Enum):
    """Who asked for a tool call."""

    MODEL = "model"  # a native tool call
    TEXT = "text"  # a call the model wrote as text
    VISITORS_WORDS = "gather_user_details from the visitor's words"  # the lead net
    WITHOUT_MODEL = "without a model"
    REPLY_CHECK = "inform_unknown from the reply check"  # a reply that declined, invented or claimed


@dataclass(frozen=True)
class ModelCalled:
    """One model call was made (``turn``: its number within the message)."""

    turn: int


@dataclass(frozen=True)
class ToolRan:
    """One tool call and what it did (a repeat of an earlier call gets the earlier text, and did nothing)."""

    name: str
    source: Source
    result: ToolResult


@dataclass(frozen=True)
class Words:
    """The words one model call gave the visitor, tool syntax and markup taken out; ``trimmed``: a next
    turn the model wrote itself, or a fragment where it began a call, was cut from them."""

    text: str
    trimmed: bool = False
    tokens: int = 0  # the call's tokens, when the server reported them


@dataclass(frozen=True)
class Checked:
    """What the reply check did to the words (:class:`~replica.chat.reply_check.checker.Verdict`: kinds, never text)."""

    withheld: tuple[str, ...] = ()
    claims: tuple[str, ...] = ()
    voice: tuple[str, ...] = ()


@dataclass(frozen=True)
class LookedForAddresses:
    """The visitor's words were searched for an address no tool call covered (the lead net)."""


class Ending(Enum):
    """How a reply ended, for the message's log line."""

    WORDS = "words"  # the model answered
    CUT = "cut"  # the model's words stopped before it finished them
    TOOLS_ONLY = "tools only"  # the model ran tools and wrote nothing: the app's sentence for what they did
    NO_WORDS = "no words"
    REFUSED = "refused"  # blank, too long, or over the visitor's limits
    PASSED_TO_OWNER = "passed to the owner"  # the owner has taken the conversation over
    NO_MODEL = "no model"
    BUSY = "busy"  # no model lane free within the wait: a spike
    DEADLINE = "deadline"
    BUDGET_SPENT = "daily budget spent"
    MODEL_FAILED = "model failed"
    ERROR = "error"  # a bug or an odd stream
    GREETING = "greeting"  # the rest: how a reply without a model was made
    APPROVED_ANSWER = "approved answer"
    CLOSE_OFFERED = "close answer offered"  # "Did you mean…?": the visitor is asked before an answer is quoted
    QUESTION_PASSED_ON = "question passed on"
    LEAD_KEPT = "lead kept"
    NO_ANSWER = "no answer"
    CODE = "code"  # a contact code typed, or another asked for: answered by the app, never the model


@dataclass(frozen=True)
class Ended:
    """How the reply ended; a later mark adds to an earlier one (busy, then an approved answer).
    ``role`` is who the reply is recorded as."""

    how: Ending
    role: Role = REPLICA


class Did(Enum):
    """What a step after the answer did (:mod:`replica.chat.steps`), as the run records it."""

    NOTED_LEAD = "noted the address kept"
    CHECKED = "checked the words"
    ANSWERED_WITHOUT_MODEL = "put the reply without a model in place of the words"
    NOTED_SAVE_FAILED = "said what could not be saved"
    OFFERED_CODE = "offered a contact code"
    OFFERED_BOOKING = "offered the booking page"


@dataclass(frozen=True)
class Stepped:
    """A step after the answer did something: which step, and what."""

    step: str
    did: Did


Event = Union[ModelCalled, ToolRan, Words, Checked, LookedForAddresses, Ended, Stepped]


class Run:
    """The events of one visitor message, and what is read from them."""

    def __init__(self) -> None:
        self._events: list[Event] = []

    def add(self, event: Event) -> None:
        """Append ``event``."""
        self._events.append(event)

    @property
    def events(self) -> tuple[Event, ...]:
        """Everything that happened, in order."""
        return tuple(self._events)

    def _tools(self) -> list[ToolRan]:
        return [e for e in self._events if isinstance(e, ToolRan)]

    @property
    def model_calls(self) -> int:
        """How many model calls the message took."""
        return sum(isinstance(e, ModelCalled) for e in self._events)

    @property
    def tools(self) -> list[str]:
        """The tools the model had run, by name (for the conversation's record)."""
        return [e.name for e in self._tools() if e.source in (Source.MODEL, Source.TEXT)]

    @property
    def tokens(self) -> int:
        """The tokens the message's model calls took, as far as the server reported them."""
        return sum(e.tokens for e in self._events if isinstance(e, Words))

    @property
    def textual_calls(self) -> int:
        """The tool calls the model wrote as text, run."""
        return sum(e.source is Source.TEXT for e in self._tools())

    @property
    def outcomes(self) -> list[Outcome]:
        """What the tools did, in order."""
        return [e.result.outcome for e in self._tools() if e.result.outcome]

    @property
    def saved_leads(self) -> list[str]:
        """The addresses of the leads the tools saved (or found saved already) for this message, in order."""
        return [
            min(e.result.emails) for e in self._tools() if e.result.outcome is Outcome.LEAD_SAVED and e.result.emails
        ]

    @property
    def facts(self) -> list[str]:
        """What the tools did, in words, one line each (recorded with the reply; shown to the model later)."""
        return [e.result.fact for e in self._tools() if e.result.fact]

    @property
    def emails(self) -> set[str]:
        """The addresses the tools dealt with (lower-cased): the lead net leaves them alone."""
        return {email for e in self._tools() for email in e.result.emails}

    @property
    def done(self) -> list[str]:
        """Each tool call with what it did, for the log line ("inform_unknown: question saved")."""
        lines = []
        for e in self._tools():
            if e.source in (Source.MODEL, Source.TEXT):
                did = e.result.outcome or e.result.failure
                lines.append(f"{e.name}: {did.value if did else 'ok'}")
            elif e.result.outcome:  # the app's own calls are named only when they did something
                lines.append(f"{e.source.value}: {e.result.outcome.value}")
        return lines

    @property
    def words(self) -> str:
        """The model's words over every call, in order (without the app's own sentences)."""
        return " ".join(e.text for e in self._events if isinstance(e, Words) and e.text)

    @property
    def ended(self) -> str:
        """Why the reply ended, for the log line ("stopped" when no end was marked: the visitor stopped it)."""
        return ": ".join(e.how.value for e in self._events if isinstance(e, Ended)) or "stopped"

    def ended_as(self, how: Ending) -> bool:
        """Whether the reply was marked as ending ``how`` (busy, then an approved answer: both)."""
        return any(isinstance(e, Ended) and e.how is how for e in self._events)

    @property
    def answered(self) -> Answered:
        """How the visitor message was answered, as the owner's charts count it (an
        :class:`~replica.storage.records.Answered`): in person by the owner, by passing a question on, by an
        approved answer without a model, by the model's words, or another way (a greeting, a refusal)."""
        if self.ended_as(Ending.PASSED_TO_OWNER):
            return figures.OWNER
        if self.ended_as(Ending.QUESTION_PASSED_ON) or Outcome.QUESTION_SAVED in self.outcomes:
            return figures.PASSED_ON
        if self.ended_as(Ending.APPROVED_ANSWER):
            return figures.APPROVED
        if any(self.ended_as(how) for how in (Ending.WORDS, Ending.CUT, Ending.TOOLS_ONLY)):
            return figures.MODEL
        return figures.OTHER

    @property
    def role(self) -> Role:
        """Who the reply is recorded as: the replica, or the app's own note (a message passed to the owner)."""
        ends = [e for e in self._events if isinstance(e, Ended)]
        return ends[-1].role if ends else REPLICA

    @property
    def trimmed(self) -> bool:
        """Whether the app cut a next turn or a fragment from the model's words."""
        return any(isinstance(e, Words) and e.trimmed for e in self._events)

    @property
    def checked(self) -> Checked:
        """What the reply check did (nothing, when it did not run)."""
        return next((e for e in reversed(self._events) if isinstance(e, Checked)), Checked())

    @property
    def steps_did(self) -> list[Did]:
        """What the steps after the answer did, in order."""
        return [e.did for e in self._events if isinstance(e, Stepped)]

    @property
    def netted_lead(self) -> bool:
        """Whether an address in the visitor's own words was kept by the app itself (the lead net, or a reply
        made without a model), not by a call of the model's."""
        nets = (Source.VISITORS_WORDS, Source.WITHOUT_MODEL)
        return any(
            e.source in nets and e.name == "gather_user_details" and e.result.outcome is Outcome.LEAD_SAVED
            for e in self._tools()
        )

    @property
    def lead_net_ran(self) -> bool:
        """Whether the visitor's words were already searched for an address no call covered."""
        return any(isinstance(e, LookedForAddresses) for e in self._events)
