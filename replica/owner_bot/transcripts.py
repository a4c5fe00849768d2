"""A conversation as the owner reads it in Telegram: lines that visitor text can never forge, packed
into messages within Telegram's limit."""

from __future__ import annotations

import html
from datetime import datetime, timezone
from typing import Callable

from replica.alerts.render import QUOTE_BAR, quoted_lines
from replica.storage.records import NOTICE, OWNER, VISITOR
from replica.storage.rows import MessageRecord
from replica.telegram.length import TELEGRAM_LIMIT, utf16_units

PART_LIMIT = TELEGRAM_LIMIT - 200  # room for a part's heading
INLINE_CHARS = 300  # words longer than this are quoted lines of at most this many characters
ROLE_NAMES = {VISITOR: "Visitor", OWNER: "You, in person", NOTICE: "Note"}


def transcript_lines(row: MessageRecord, html_style: bool) -> list[str]:
    """One recorded message as transcript lines: who and when, then the words. Words on one short line
    follow the heading; longer or multi-line words are quoted lines behind the "│ " bar, so no visitor
    line can pass for a line of the transcript's own."""
    escape: Callable[[str], str] = html.escape if html_style else str
    clock = datetime.fromtimestamp(row.at, timezone.utc).strftime("%H:%M")
    who = ROLE_NAMES.get(row.role, "Replica")
    heading = f"[{clock}] <b>{who}</b>" if html_style else f"[{clock}] {who}"
    if row.role not in ROLE_NAMES:
        details = [f"tools: {row.tools}"] * bool(row.tools)
        details += [f"{row.model_calls} model call(s)", f"{(row.reply_ms or 0) / 1000:.1f} s"]
        heading += f" <i>({escape('; '.join(details))})</i>" if html_style else f" ({'; '.join(details)})"
    text = row.text
    if "\n" not in text and "\r" not in text and len(text) <= INLINE_CHARS:
        return [f"{heading}: {escape(text)}"]
    lines = [f"{heading}:"]
    for line in quoted_lines(text):
        body = line[len(QUOTE_BAR) :]
        for start in range(0, max(len(body), 1), INLINE_CHARS):  # a very long line: several quoted lines
            lines.append(QUOTE_BAR + escape(body[start : start + INLINE_CHARS]))
    return lines


def pack(lines: list[str], limit: int = PART_LIMIT) -> list[str]:
    """Lines joined into parts of at most ``limit`` Telegram units (every line is far shorter)."""
    parts: list[str] = []
    current: list[str] = []
    used = 0
    for line in lines:
        size = utf16_units(line) + 1
        if current and used + size > limit:
            parts.append("\n".join(current))
            current, used = [], 0
        current.append(line)
        used += size
    if current:
        parts.append("\n".join(current))
    return parts
