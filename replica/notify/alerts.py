"""What an alert to the owner says, and how it is written for Telegram.

Visitor text is shown exactly as typed: it is HTML-escaped for ``parse_mode=HTML`` and never
interpreted. Messages are kept within Telegram's 4096-character limit by cutting the longest
visitor-supplied values, with a visible marker.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from typing import Protocol

TELEGRAM_LIMIT = 4096
CUT_MARKER = " … [cut: {n} more characters]"


@dataclass(frozen=True)
class Alert:
    """One thing the owner should know about: a title, labelled visitor values, and the visitor session."""

    kind: str  # "lead" or "question"
    title: str
    fields: tuple[tuple[str, str], ...]
    session_id: str = ""
    hint: str = ""  # a closing line for the owner, such as how to answer

    def to_json(self) -> str:
        """The alert as JSON, for the outbox."""
        return json.dumps(
            {
                "kind": self.kind,
                "title": self.title,
                "fields": self.fields,
                "session_id": self.session_id,
                "hint": self.hint,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> "Alert":
        """The alert :meth:`to_json` wrote."""
        data = json.loads(text)
        fields = tuple((label, value) for label, value in data["fields"])
        return cls(data["kind"], data["title"], fields, data["session_id"], data.get("hint", ""))

    def plain_text(self) -> str:
        """The whole alert as plain text, uncut (for logs and the plain-text fallback)."""
        return _render(self, {label: value for label, value in self.fields}, escape=lambda s: s, bold=False)


class Notifier(Protocol):
    """Anything that takes an alert to the owner. ``notify`` must return at once and never raise."""

    def notify(self, alert: Alert) -> None: ...


def utf16_units(text: str) -> int:
    """Length as Telegram measures it: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def _cut(text: str, max_units: int) -> str:
    """Shorten ``text`` to at most ``max_units`` UTF-16 units, marker included."""
    if utf16_units(text) <= max_units:
        return text
    room = max_units - utf16_units(CUT_MARKER.format(n=len(text)))  # the marker's widest form
    kept = used = 0
    for char in text:
        used += utf16_units(char)
        if used > room:
            break
        kept += 1
    return text[:kept] + CUT_MARKER.format(n=len(text) - kept)


def _render(alert: Alert, values: dict[str, str], escape, bold: bool) -> str:
    def strong(s: str) -> str:
        return f"<b>{s}</b>" if bold else s

    lines = [strong(escape(alert.title))]
    lines += [f"{strong(escape(label) + ':')} {escape(values[label])}" for label, _ in alert.fields]
    if alert.session_id:
        lines.append(f"{strong('Session:')} {escape(alert.session_id)}")
    if alert.hint:
        lines.append(f"<i>{escape(alert.hint)}</i>" if bold else alert.hint)
    return "\n".join(lines)


def fit_values(alert: Alert, limit: int = TELEGRAM_LIMIT) -> dict[str, str]:
    """Return the alert's values, the longest cut first, so the visible text fits ``limit`` units."""
    values = {label: value for label, value in alert.fields}
    overhead = utf16_units(_render(alert, {label: "" for label in values}, escape=lambda s: s, bold=False))
    budget = limit - overhead
    # Short values keep their full text; whatever budget remains is shared by the longer ones.
    remaining = sorted(values, key=lambda label: utf16_units(values[label]))
    for index, label in enumerate(remaining):
        share = budget // (len(remaining) - index)
        values[label] = _cut(values[label], max(share, 0))
        budget -= utf16_units(values[label])
    return values


def to_telegram_html(alert: Alert, limit: int = TELEGRAM_LIMIT) -> str:
    """The alert as Telegram HTML: bold labels, visitor text escaped, visible length within ``limit``."""
    return _render(alert, fit_values(alert, limit), escape=lambda s: html.escape(s, quote=False), bold=True)


def to_telegram_plain(alert: Alert, limit: int = TELEGRAM_LIMIT) -> str:
    """The alert as plain text within ``limit``: the fallback when Telegram rejects the HTML."""
    return _render(alert, fit_values(alert, limit), escape=lambda s: s, bold=False)
