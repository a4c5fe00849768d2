"""The owner's links as a row under the page's header: labelled, keyboard-reachable, icons drawn inline.

Nothing is loaded from another host: each icon is a small SVG path in the page itself. Links open in a
new tab (the page may be in a frame or the widget); the email link is a ``mailto:``.
"""

from __future__ import annotations

import html

LABELS = {"website": "Website", "linkedin": "LinkedIn", "github": "GitHub", "email": "Email", "booking": "Book a call"}
# 24x24 outline icons, drawn with the text's colour.
ICONS = {
    "website": "M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M3 12h18M12 3c2.5 2.5 3.5 5.5 3.5 9s-1 6.5-3.5 9c-2.5-2.5-3.5-5.5"
    "-3.5-9s1-6.5 3.5-9",
    "linkedin": "M4 4h16v16H4zM8 10v6M8 7.5v.5M12 16v-6M12 12.5c0-1.5 1-2.5 2.2-2.5S16 11 16 12.5V16",
    "github": "M9 19c-4 1.2-4-2-6-2.5M15 21v-3.5c0-1 .1-1.4-.5-2c2.8-.3 5.5-1.4 5.5-6a4.6 4.6 0 0 0-1.3-3.2a4.2 4.2 0 "
    "0 0-.1-3.2s-1.1-.3-3.5 1.3a12.3 12.3 0 0 0-6.2 0C6.5 2.8 5.4 3.1 5.4 3.1a4.2 4.2 0 0 0-.1 3.2A4.6 4.6 0 0 0 4 "
    "9.5c0 4.6 2.7 5.7 5.5 6c-.6.6-.6 1.2-.5 2V21",
    "email": "M3 6h18v12H3zM3 7l9 6l9-6",
    "booking": "M4 6h16v14H4zM4 10h16M8 3v4M16 3v4M8 14h3",
}


def icon(kind: str) -> str:
    return (
        '<svg aria-hidden="true" focusable="false" width="16" height="16" viewBox="0 0 24 24" fill="none" '
        f'stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="{ICONS[kind]}"/></svg>'
    )


def links_row(links: list[tuple[str, str]], owner: str) -> str:
    """The row's HTML for ``links`` ((kind, address) pairs); empty when there are none."""
    if not links:
        return ""
    items = []
    for kind, address in links:
        href = f"mailto:{address}" if kind == "email" else address
        items.append(
            f'<a class="replica-link replica-link-{kind}" href="{html.escape(href)}" target="_blank" '
            f'rel="noopener me">{icon(kind)}<span>{LABELS[kind]}</span></a>'
        )
    label = html.escape(f"{owner} elsewhere")
    return f'<nav class="replica-links" aria-label="{label}">{"".join(items)}</nav>'
