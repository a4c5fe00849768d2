"""How an alert is written for Telegram, and how visitor text is kept from passing for the owner's own lines.

Visitor text is shown exactly as typed: it is HTML-escaped for ``parse_mode=HTML`` and never
interpreted. It cannot pass for the alert's own lines either: single-line values (name, email) have
their line breaks collapsed, a name is in quotation marks (so "Ada Confirmed: yes ✓" reads as the name it
is, and the "Confirmed" line stays the app's), and visitor prose (notes, a question) is shown as a quotation, inside
``<blockquote>`` in HTML and behind a "│ " bar on every line in plain text. Messages are kept within
Telegram's 4096-character limit by cutting the longest visitor-supplied values, with a visible marker.
"""

from __future__ import annotations

import html
import re
from typing import Callable, NamedTuple

from replica.alerts.alert import NAMED, NOT_GIVEN, Alert
from replica.storage.records import AlertKind
from replica.telegram.length import TELEGRAM_LIMIT, utf16_units
from replica.telegram.updates import Action, Button, Keyboard
from replica.text import one_line

CUT_MARKER = " … [cut: {n} more characters]"
QUOTE_BAR = "│ "


class _Style(NamedTuple):
    escape: Callable[[str], str]
    bold: Callable[[str], str]
    italic: Callable[[str], str]
    quote: Callable[[str], str]


def _same(text: str) -> str:
    return text


HTML = _Style(
    escape=lambda s: html.escape(s, quote=False),
    bold=lambda s: f"<b>{s}</b>",
    italic=lambda s: f"<i>{s}</i>",
    quote=lambda s: f"<blockquote>{s}</blockquote>",
)
HTML_AS_SEEN = _Style(_same, _same, _same, _same)  # what the owner reads of an HTML alert
PLAIN = _Style(_same, _same, _same, quote=lambda s: "\n".join(QUOTE_BAR + line for line in s.split("\n")))


def quoted_name(text: object, limit: int | None = None) -> str:
    """A visitor's name as the owner reads it: on one line, in quotation marks (its own made plain ones),
    so that no part of it can pass for words of the app's ("Ada” Confirmed: yes ✓ “" is one name)."""
    return "“" + re.sub(r"[“”\"]", "'", one_line(text, limit)) + "”"


def _shown(label: str, value: str, limit: int | None = None) -> str:
    """A single-line value of an alert as shown: a name quoted (but the app's "(not given)"), else on one line."""
    named = label in NAMED and value.strip() and value != NOT_GIVEN
    return quoted_name(value, limit) if named else one_line(value, limit)


def as_newlines(text: str) -> str:
    """``text`` with every line break a reader may show as one (``\\r``, VT, FF, FS, GS, RS, NEL, U+2028,
    U+2029, as ``str.splitlines`` knows them) made ``\\n``, so that quoting puts its bar on each line."""
    return "\n".join(text.splitlines())


def quoted_lines(text: str) -> list[str]:
    """Visitor prose as quoted lines, each behind the "│ " bar, so no line of it can pass for the
    listing's own (blank lines inside are kept once)."""
    lines = re.sub(r"\n\s*\n\s*(\n\s*)+", "\n\n", as_newlines(text)).strip().split("\n")
    return [QUOTE_BAR + line for line in lines]


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


def _clean_values(alert: Alert) -> dict[str, str]:
    """Single-line values on one line; quoted prose with its line breaks kept, but no blank runs."""
    values = {}
    for label, value in alert.fields:
        if label in alert.quoted:
            value = re.sub(r"\n\s*\n\s*(\n\s*)+", "\n\n", as_newlines(value)).strip()
        else:
            value = _shown(label, value)
        values[label] = value or "(none)"
    return values


def _render(alert: Alert, values: dict[str, str], style: _Style) -> str:
    lines = [style.bold(style.escape(alert.heading))]
    for label, _ in alert.fields:
        if label in alert.quoted:
            lines += [style.bold(style.escape(label) + ":"), style.quote(style.escape(values[label]))]
        else:
            lines.append(f"{style.bold(style.escape(label) + ':')} {style.escape(values[label])}")
    if alert.conversation:
        lines.append(f"{style.bold('Conversation:')} #{alert.conversation} (/show {alert.conversation})")
    elif alert.session_id:
        lines.append(f"{style.bold('Session:')} {style.escape(alert.session_id)}")
    lines += [style.italic(style.escape(note)) for note in alert.notes]
    if alert.hint:
        lines.append(style.italic(style.escape(alert.hint)))
    return "\n".join(lines)


def fit_values(alert: Alert, limit: int = TELEGRAM_LIMIT, seen_as: _Style = HTML_AS_SEEN) -> dict[str, str]:
    """Return the alert's values, the longest cut first, so the text the owner sees (rendered in
    ``seen_as``) fits ``limit`` units."""
    full = _clean_values(alert)
    budget = limit - utf16_units(_render(alert, {label: "" for label in full}, seen_as))
    for _ in range(8):  # the quote bars depend on how many lines survive the cut: measure, then tighten
        values, room = dict(full), budget
        # Short values keep their full text; whatever budget remains is shared by the longer ones.
        remaining = sorted(values, key=lambda label: utf16_units(values[label]))
        for index, label in enumerate(remaining):
            values[label] = _cut(values[label], max(room // (len(remaining) - index), 0))
            room -= utf16_units(values[label])
        excess = utf16_units(_render(alert, values, seen_as)) - limit
        if excess <= 0:
            return values
        budget -= excess
    return {label: "" for label in full}


def keyboard_for(alert: Alert) -> Keyboard:
    """The alert's one-tap buttons (an inline keyboard; empty for none).

    A lead: "Open conversation", "Mark handled". A question: "Answer", "Dismiss", "Open conversation", and
    when an approved answer comes close, "Answer with your FAQ “…”". A forwarded visitor message: "Open
    conversation". Each button's data names its action and record.
    """
    opener = [Button("Open conversation", Action.SHOW.data(alert.conversation))] if alert.conversation else []
    if alert.kind == AlertKind.LEAD and alert.ref:
        rows = [opener + [Button("Mark handled", Action.HANDLED.data(alert.ref))]]
    elif alert.kind == AlertKind.QUESTION and alert.ref:
        answer = Button("Answer", Action.ANSWER.data(alert.ref))
        rows = [[answer, Button("Dismiss", Action.DISMISS.data(alert.ref))]] + [opener] * bool(opener)
        if alert.close_faq:
            label = f"Answer with your FAQ “{one_line(alert.close_faq, 48)}”"
            rows.insert(1, [Button(label, Action.FAQ.data(alert.ref))])
    else:
        rows = [opener] * bool(opener)
    return tuple(tuple(row) for row in rows)


def to_telegram_html(alert: Alert, limit: int = TELEGRAM_LIMIT) -> str:
    """The alert as Telegram HTML: bold labels, visitor text escaped and quoted, visible length within ``limit``."""
    return _render(alert, fit_values(alert, limit, HTML_AS_SEEN), HTML)


def to_plain(alert: Alert, limit: int = TELEGRAM_LIMIT) -> str:
    """The alert as plain text within ``limit``: for channels beside Telegram, and the fallback when
    Telegram rejects the HTML."""
    return _render(alert, fit_values(alert, limit, PLAIN), PLAIN)


FOLD_TITLES = {
    AlertKind.LEAD: "new leads",
    AlertKind.QUESTION: "new questions",
    AlertKind.VISITOR: "visitor messages",
    AlertKind.DIGEST: "digests",
}
FOLD_HINT = "Reply to none of these: /leads and /unanswered list them, /answer N answers question N."
FOLD_REST = "… and {n} more (python app.py export lists them)"


def fold(alerts: list[tuple[int | None, Alert]], limit: int, as_html: bool = False) -> tuple[str, str]:
    """Several alerts of one kind as one message: the title ("7 new leads") and the body, one line each
    with its record's number, every value collapsed to one line (no forged lines), cut within ``limit``
    characters with the rest counted. ``alerts`` pairs each alert with its number."""
    style = HTML if as_html else PLAIN
    kind = alerts[0][1].kind
    title = f"{len(alerts)} {FOLD_TITLES.get(kind, 'alerts')}"
    lines: list[str] = []
    room = limit - len(title) - 1 - (len(FOLD_HINT) + 1) * as_html  # Telegram: title and hint in the message
    for shown, (number, alert) in enumerate(alerts):
        values = " — ".join(style.escape(_shown(label, value, 160)) for label, value in alert.fields if value)
        notes = "".join(f" ({style.escape(note.rstrip('.'))})" for note in alert.notes)
        line = (style.bold(f"#{number}") + " " if number else "") + values + notes
        rest = FOLD_REST.format(n=len(alerts) - shown)
        used = sum(len(x) + 1 for x in lines)
        if used + len(line) > room or shown < len(alerts) - 1 and used + len(line) + 1 + len(rest) > room:
            lines.append(rest)
            break
        lines.append(line)
    return title, "\n".join(lines)
