"""The owner's commands, defined once: ``/help``, Telegram's command menu (``setMyCommands``), the
usage lines and which handler answers each are all made from :data:`COMMANDS` (and the docs' table is
checked against it by a test). A command's ``run`` is bound where it is declared: it is given the
bot's handlers and the words after the command."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from replica.owner_bot.lead_listing import leads_listing
from replica.owner_bot.status_report import status_report


@dataclass(frozen=True)
class Command:
    """One command: its name, what it takes, what it does, and where its number comes from."""

    name: str
    arguments: str  # "N your words": shown in the menu, /help and the usage line
    summary: str  # one line for the menu and /help
    numbers: str = ""  # where N comes from, for the usage line ("a conversation number from /recent")
    # Given the bot's handlers (replica.owner_bot.bot.Handlers: talk, questions, store) and the words after
    # the command. None only for /help, which the dispatcher answers.
    run: Callable[[Any, str], str] | None = None

    @property
    def usage(self) -> str:
        """How to call it: ``/say N your words``."""
        return f"/{self.name} {self.arguments}".strip()

    @property
    def usage_line(self) -> str:
        """The reply to a call it cannot make sense of."""
        return f"Use {self.usage}, with N {self.numbers}."


CONVERSATION = "a conversation number from /recent"
COMMANDS = (
    Command("recent", "", "The latest conversations", run=lambda h, text: h.talk.recent(text)),
    Command("show", "N", "Read conversation N", CONVERSATION, run=lambda h, text: h.talk.show(text)),
    Command(
        "say",
        "N your words",
        "Write to the visitor of conversation N in person",
        CONVERSATION,
        run=lambda h, text: h.talk.say(text),
    ),
    Command("pause", "N", "Take conversation N over", CONVERSATION, run=lambda h, text: h.talk.pause(text)),
    Command(
        "resume",
        "N",
        "Hand conversation N back to the replica",
        "a paused conversation's number",
        run=lambda h, text: h.talk.resume(text),
    ),
    Command("leads", "", "The most recent leads", run=lambda h, _: leads_listing(h.store)),
    Command("unanswered", "", "Open questions, oldest first", run=lambda h, text: h.questions.unanswered(text)),
    Command(
        "answer",
        "N your answer",
        "Answer open question N",
        "from /unanswered",
        run=lambda h, text: h.questions.answer(text),
    ),
    Command(
        "faq",
        "",
        "The answers learned from you, and how to withdraw one",
        run=lambda h, text: h.questions.learned(text),
    ),
    Command(
        "forget",
        "N",
        "Withdraw learned answer N",
        "the number of a learned answer",
        run=lambda h, text: h.questions.forget(text),
    ),
    Command(
        "status",
        "",
        "Alerts raised, and kept back by the visitor caps, in the last 24 hours",
        run=lambda h, _: status_report(h.store),
    ),
    Command(
        "stats",
        "N",
        "A picture of the last N days (7 if no N): visitors, leads, questions, costs",
        "a number of days, 1 to 366",
        run=lambda h, text: h.stats.send(text),
    ),
    Command("help", "", "What I can do"),
)
BY_NAME = {command.name: command for command in COMMANDS}


def menu() -> list[tuple[str, str]]:
    """The command menu Telegram shows: ``(command, description)`` pairs."""
    return [(c.name, f"{c.summary}: {c.usage}" if c.arguments else c.summary) for c in COMMANDS]


def help_text() -> str:
    """What ``/help`` (and ``/start``) answers."""
    lines = [
        "I alert you to new leads and to questions I could not answer, and keep every conversation.",
        "• Reply to an “Unanswered question” alert (or tap Answer) to teach me the answer; I use it from the "
        "next visitor message on.",
        "• Reply to a lead alert, a forwarded message or a transcript to write to that visitor in person.",
    ]
    return "\n".join(lines + [f"• {c.usage} — {c.summary}" for c in COMMANDS])
