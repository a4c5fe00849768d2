"""Text as Telegram measures it."""

from __future__ import annotations

TELEGRAM_LIMIT = 4096  # the most characters of a message, counted in UTF-16 units


def utf16_units(text: str) -> int:
    """Length as Telegram measures it: UTF-16 code units (an emoji counts twice)."""
    return len(text.encode("utf-16-le")) // 2
