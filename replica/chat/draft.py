"""A visitor message's reply while it is made: the words, the app's sentences after them, and the run.

The answer (:mod:`replica.chat.answer`) writes the words; the steps after it (:mod:`replica.chat.steps`)
check them and add the app's own sentences, each reading the run to see what was done.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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


@dataclass
class Draft:
    """The reply to ``message`` as it stands. ``words`` are the model's (or a reply made without one);
    ``check`` is set while they still await their check; ``apology`` says why the model did not finish
    ("" when it did); ``notes``, the app's sentences that follow, in the order the steps added them."""

    message: str
    context: ToolContext
    run: Run
    words: str = ""
    check: WordsCheck | None = None
    apology: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """What the visitor reads."""
        return join(self.words, self.apology, *self.notes)

    def add_note(self, sentence: str) -> None:
        """Add one of the app's sentences after the reply, unless the reply says it already."""
        if sentence not in self.text:
            self.notes.append(sentence)
