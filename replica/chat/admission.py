"""What is checked before a visitor's message is answered, declared once, in order (built in
:mod:`replica.wiring`), as the steps after the answer are (:mod:`replica.chat.steps`).

Each check reads the :class:`Incoming` message and either lets it on (``None``) or stops it with a
:class:`Stop`: the sentence that stands for the reply, how the reply ended, and who says it. The first
stop wins. A check that says ``keeps_message = False`` stops a message before it is kept at all (one over
the hourly limits); the others run once the message is recorded, masked where it held a contact code.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Callable, Iterable, Protocol

from replica import wording
from replica.chat.limits import SlidingWindow, UsageLimits
from replica.chat.run import Ending
from replica.contacts import Verifier
from replica.contacts.verifier import Caught
from replica.inbox import Conversation, Inbox
from replica.logs import EveryMinute
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.storage import Store
from replica.storage.database import storage_errors
from replica.storage.records import NOTICE, REPLICA, Role

log = logging.getLogger(__name__)


@dataclass
class Incoming:
    """A visitor's message before its answer: its text, its session, its client address (as it came, and as
    the store keeps it: a salted hash, "" when unknown), and its conversation once it is recorded (``None``
    before, or when the record cannot be written). A contact code it gives is ``caught`` by the check that
    reads codes."""

    message: str
    session: str
    client: str = "unknown"  # the client address as the request came (the limits group it)
    address: str = ""
    counted: bool = False  # counted against the hourly limits already, as it joined the line
    conversation: Conversation | None = None
    caught: Caught | None = field(default=None)

    @property
    def kept_text(self) -> str:
        """The message as its conversation keeps it: a code masked."""
        return self.caught.masked if self.caught else self.message if isinstance(self.message, str) else ""


@dataclass(frozen=True)
class Stop:
    """A message not answered: the sentence that stands for the reply, how it ended, who says it."""

    sentence: str
    ending: Ending
    role: Role = REPLICA


class AdmissionCheck(Protocol):
    """One thing checked before the answer. ``keeps_message``: whether the message is kept when it stops;
    ``read`` looks at a message before it is kept."""

    keeps_message: bool

    def read(self, incoming: Incoming) -> None: ...

    def __call__(self, incoming: Incoming) -> Stop | None: ...


class ReadsNothing:
    """A check that reads nothing of a message before it is kept (most of them)."""

    keeps_message = True

    def read(self, incoming: Incoming) -> None:
        """Nothing to read before the message is kept."""


class Admission:
    """The checks before the answer, run in the order given."""

    def __init__(self, checks: Iterable[AdmissionCheck]):
        self.checks = tuple(checks)

    def before_keeping(self, incoming: Incoming) -> Stop | None:
        """The first stop of the checks that stop a message before it is kept."""
        return _first(check for check in self.checks if not check.keeps_message)(incoming)

    def read(self, incoming: Incoming) -> None:
        """Let each check read the message before it is kept (a contact code is caught, to be kept masked)."""
        for check in self.checks:
            check.read(incoming)

    def at_the_door(self, session: str, client: str) -> str | None:
        """What the checks that stop a message before it is kept say of one joining the line (the line's
        door asks, before the message's turn: :mod:`replica.web.line_guard`); ``None`` lets it in."""
        stop = self.before_keeping(Incoming("", session, client))
        return stop.sentence if stop else None

    def once_kept(self, incoming: Incoming) -> Stop | None:
        """The first stop of the other checks, in order, once the message is recorded."""
        return _first(check for check in self.checks if check.keeps_message)(incoming)


def _first(checks: Iterable[AdmissionCheck]) -> Callable[[Incoming], Stop | None]:
    def run(incoming: Incoming) -> Stop | None:
        for check in checks:
            stop = check(incoming)
            if stop is not None:
                return stop
        return None

    return run


class OverTheLimits(ReadsNothing):
    """A message past the hourly limits (``VISITOR_MESSAGES_PER_HOUR``, ``ADDRESS_MESSAGES_PER_HOUR``) is
    refused and kept nowhere: its conversation notes that one was (once an hour), and the log counts them
    once a minute. A message counted as it joined the line (:mod:`replica.web.line_guard`, which asks
    :meth:`admit`) is not counted again."""

    keeps_message = False

    def __init__(self, limits: UsageLimits, store: Store, inbox: Inbox, clock: Clock = REAL_CLOCK):
        self.limits = limits
        self.store = store
        self.inbox = inbox
        self._noted = SlidingWindow(1, clock=clock)  # sessions whose conversation noted a refused message this hour
        self._limited = EveryMinute(
            log, "Hourly message limits: refused %d message(s) (logged at most once a minute)", clock=clock
        )

    def admit(self, session: str, client: str) -> str | None:
        """Count a message of ``session`` from the client address ``client``: ``None`` when it may be
        answered, else the sentence that refuses it."""
        if self.limits.admit_message(session, client):
            return None
        self._limited()
        if self._noted.take(session):
            try:
                conversation = self.store.conversations.of_session(session)
            except storage_errors():
                conversation = None  # the note is for the owner's record only: the refusal stands
            if conversation is not None:
                self.inbox.recorder.record(conversation.id, NOTICE, wording.LIMITED_NOTE)
        return wording.TOO_MANY_MESSAGES

    def __call__(self, incoming: Incoming) -> Stop | None:
        if incoming.counted:
            return None
        sentence = self.admit(incoming.session, incoming.client)
        return Stop(sentence, Ending.REFUSED) if sentence else None


class Blank(ReadsNothing):
    """An empty message is asked what the visitor would like to know."""

    def __call__(self, incoming: Incoming) -> Stop | None:
        message = incoming.message
        blank = not isinstance(message, str) or not message.strip()
        return Stop(wording.BLANK_MESSAGE, Ending.REFUSED) if blank else None


class TooLong(ReadsNothing):
    """A message over ``MAX_MESSAGE_CHARS`` is refused without a model call."""

    def __init__(self, max_message_chars: int):
        self.limit = max_message_chars

    def __call__(self, incoming: Incoming) -> Stop | None:
        too_long = len(incoming.message) > self.limit
        return Stop(wording.TOO_LONG.format(limit=self.limit), Ending.REFUSED) if too_long else None


class ContactCode(ReadsNothing):
    """A contact code typed in a chat waiting for one (or a request for another) is answered by the app
    itself, never by a model, even where the owner has taken the conversation over
    (:mod:`replica.contacts`). It is read before the message is kept, so that the record holds it masked."""

    def __init__(self, verifier: Verifier | None):
        self.verifier = verifier  # None: verified contacts are off, and no message is a code

    def read(self, incoming: Incoming) -> None:
        """Catch the code ``incoming`` gives, if any (a failing database lets the message on as any other)."""
        if self.verifier is None:
            return
        try:
            incoming.caught = self.verifier.catch(incoming.message, incoming.session)
        except storage_errors():
            log.error("Could not look for a contact code (the database failed)", exc_info=True)

    def __call__(self, incoming: Incoming) -> Stop | None:
        if incoming.caught is None or self.verifier is None:
            return None
        try:
            sentence = self.verifier.answer(incoming.caught, incoming.session, incoming.address)
        except storage_errors():
            log.error("Could not check a contact code (the database failed)", exc_info=True)
            sentence = wording.CODE_FAILED
        return Stop(sentence, Ending.CODE)


class TakenOver(ReadsNothing):
    """A message of a conversation the owner has taken over goes to the owner, and the visitor is told."""

    def __init__(self, inbox: Inbox):
        self.inbox = inbox

    def __call__(self, incoming: Incoming) -> Stop | None:
        conversation = incoming.conversation
        if conversation is None or not conversation.paused:
            return None
        try:
            sentence = self.inbox.handoff.pass_to_owner(conversation, incoming.message)
        except storage_errors() as error:
            log.error("Could not pass a message on to the owner (%s)", type(error).__name__, exc_info=True)
            sentence = wording.NOT_PASSED_ON
        return Stop(sentence, Ending.PASSED_TO_OWNER, role=NOTICE)
