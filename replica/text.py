"""Text cut to fit where it is shown, in one place every layer may use: a quote in a log line, a
visitor's words on a single line of an alert or a listing, the page's description as a preview's line.
"""

from __future__ import annotations

import re

QUOTE_LIMIT = 300  # the most characters of visitor- or model-written text one log line quotes


def clip(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``text`` made safe to quote in a log line: newlines escaped (no forged lines), at most ``limit``
    characters, with a note of how much was left out. The store keeps the full text."""
    value = str(text)
    escaped = value[:limit].replace("\\", "\\\\").replace("\r", "\\r").replace("\n", "\\n")
    if len(value) <= limit and len(escaped) <= limit:
        return escaped
    left_out = len(value) - limit
    return f"{escaped[:limit]}…" + (f"[+{left_out} chars]" if left_out > 0 else "")


def one_line(text: object, limit: int | None = None) -> str:
    """Visitor text for a single-line place (a name, a list entry): line breaks and runs of spaces
    collapsed, so it can never start a line of its own; cut to ``limit`` characters with "…"."""
    value = " ".join(str(text or "").split())
    return value if limit is None or len(value) <= limit else value[: limit - 1] + "…"


def plain_line(markdown: str, limit: int = 200) -> str:
    """The page's description as one plain line for a preview: Markdown marks dropped, cut at a word."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)  # [label](url) -> label
    text = re.sub(r"[*_`#>]+", "", text)
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0] + "…"
