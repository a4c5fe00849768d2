"""The owner's commands, defined once: ``/help``, Telegram's command menu (``setMyCommands``) and the
usage lines are all made from :data:`COMMANDS` (and the docs' table is checked against it by a test)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    """One command: its name, what it takes, what it does, and where its number comes from."""

    name: str
    arguments: str  # "N your words": shown in the menu, /help and the usage line
    summary: str  # one line for the menu and /help
    numbers: str = ""  # where N comes from, for the usage line ("a conversation number from /recent")

    @property
    def usage(self) -> str:
        """How to call it: ``/say N your words``."""
        return f"/{self.name} {self.arguments}".strip()

    @property
    def usage_line(self) -> str:
        """The reply to a call it cannot make sense of."""
        return f"Use {self.usage}, with N {self.numbers}."


COMMANDS = (
    Command("recent", "", "The latest conversations"),
    Command("show", "N", "Read conversation N", "a conversation number from /recent"),
    Command(
        "say", "N your words", "Write to the visitor of conversation N in person", "a conversation number from /recent"
    ),
    Command("pause", "N", "Take conversation N over", "a conversation number from /recent"),
    Command("resume", "N", "Hand conversation N back to the replica", "a paused conversation's number"),
    Command("leads", "", "The most recent leads"),
    Command("unanswered", "", "Open questions, oldest first"),
    Command("answer", "N your answer", "Answer open question N", "from /unanswered"),
    Command("forget", "N", "Withdraw learned answer N", "the number of a learned answer"),
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
