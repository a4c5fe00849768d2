"""What the owner's bot writes and reads: lists cut to Telegram's limit, numbers, and conversation headings."""

from __future__ import annotations

import re
from datetime import datetime, timezone

from replica.telegram.length import TELEGRAM_LIMIT, utf16_units

NUMBER = re.compile(r"[1-9][0-9]{0,17}")  # ASCII digits only, and small enough for any database integer
CONVERSATION_HEADING = re.compile(r"conversation #([1-9][0-9]{0,17})\b", re.IGNORECASE)


def fit(lines: list[str], limit: int = TELEGRAM_LIMIT - 100) -> str:
    """Join ``lines`` with newlines, leaving out whole lines past ``limit`` (in Telegram's units), with a note."""
    kept, used = [], 0
    for index, line in enumerate(lines):
        size = utf16_units(line) + 1  # an emoji counts twice, as Telegram counts it
        if used + size > limit:
            kept.append(f"… and {len(lines) - index} more")
            break
        kept.append(line)
        used += size
    return "\n".join(kept)


def conversation_named_in(text: str) -> int | None:
    """The conversation number a message of the bot's names in its first line ("… conversation #12")."""
    match = CONVERSATION_HEADING.search(text.split("\n", 1)[0])
    return int(match.group(1)) if match else None


def when_iso(stamp: str) -> str:
    """An ISO 8601 time (as the store gives it) as the owner's listings show times."""
    return when(datetime.fromisoformat(stamp).timestamp())


def when(epoch: float) -> str:
    """A time as the owner's listings show it: ``2026-12-01 09:30 UTC``."""
    return datetime.fromtimestamp(epoch, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def number_and_text(argument: str) -> tuple[int, str] | None:
    """``N text`` as ``(N, text)``, or ``None`` when it is not a number followed by words."""
    parts = re.fullmatch(r"(\S+)\s+(.*\S.*)", argument, re.S)
    return (int(parts[1]), parts[2].strip()) if parts and NUMBER.fullmatch(parts[1]) else None
