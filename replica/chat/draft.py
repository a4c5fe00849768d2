"""A visitor message's reply while it is made: the words, the app's sentences after them, and the run.

The answer (:mod:`replica.chat.answer`) writes the words; the steps after it (:mod:`replica.chat.steps`)
check them and add the app's own sentences, each reading the run to see what was done.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Protocol

from replica.chat.history import join
from replica.chat.reply_check.checker import Records, Verdict
from replica.chat.run import Run
from replica.tools import ToolContext


class WordsCheck(Protocol):
    """A reply's check, begun while its words streamed (:class:`~replica.chat.reply_check.checker.ReplyCheck`)."""

    verdict: Verdict  # what the check did, once finished

    def visible(self, text: str) -> str: ...

    def finish(self, text: str, records: Records, pass_on: Callable[[], bool]) -> str: ...


class Note(Enum):
    """What one of the app's sentences after the words tells, one of each at most."""

    LEAD = "lead"  # an address in the visitor's words was kept
    SAVE_FAILED = "save failed"  # something the visitor gave could not be saved
    CODE = "code"  # what became of a contact code for the lead's address
    BOOKING = "booking"  # the owner's booking page


@dataclass
class Draft:
    """The reply to ``message`` as it stands. ``words`` are the model's (or a reply made without one);
    ``check`` is set while they still await their check; ``apology`` says why the model did not finish
    ("" when it did), and ``apologised`` that words made without a model begin by saying so; ``told``,
    what the words already tell (a reply without a model that says the address was passed on); ``notes``,
    the app's sentences that follow, by what each tells, in the order the steps added them."""

    message: str
    context: ToolContext
    run: Run
    words: str = ""
    check: WordsCheck | None = None
    apology: str = ""
    apologised: bool = False
    told: frozenset[Note] = frozenset()
    notes: dict[Note | str, str] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """What the visitor reads."""
        return join(self.words, self.apology, *self.notes.values())

    @property
    def sorry(self) -> bool:
        """Whether the reply says the model could not answer."""
        return bool(self.apology) or self.apologised

    def add_note(self, sentence: str, note: Note | None = None) -> bool:
        """Add one of the app's sentences after the reply, telling ``note`` (a step of a fork's own may name
        none), unless the reply tells it already; whether it was added."""
        key: Note | str = note or sentence
        if (note is not None and note in self.told) or key in self.notes or sentence in self.text:
            return False
        self.notes[key] = sentence
        return True

    def drop_note(self, note: Note) -> None:
        """Take back the sentence that tells ``note`` (another sentence tells what became of it)."""
        self.notes.pop(note, None)
