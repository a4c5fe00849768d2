"""The owner's privacy text (``prompts/privacy.md``) as the page at ``/privacy``, and the line under the box.

The text is the owner's to edit: headings, paragraphs, ``-`` lists, ``**bold**`` and ``[links](https://…)``
are shown as such; everything else is shown as written (escaped, never run as HTML).
"""

from __future__ import annotations

import html
import re

LINK = re.compile(r"\[([^\]]+)\]\(((?:https?://|mailto:)[^)\s]+)\)")
BOLD = re.compile(r"\*\*([^*]+)\*\*")
STYLE = (
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:42rem;margin:2rem auto;"
    "padding:0 1rem;line-height:1.55;color:#1f2937;background:#fff}a{color:#3730a3}"
    "@media (prefers-color-scheme: dark){body{color:#e5e7eb;background:#0b0f19}a{color:#a5b4fc}}"
)


def inline(text: str) -> str:
    """One line's text as HTML: escaped, then its bold and links."""
    escaped = html.escape(text, quote=False)
    escaped = BOLD.sub(r"<strong>\1</strong>", escaped)
    return LINK.sub(lambda m: f'<a href="{html.escape(m.group(2))}">{m.group(1)}</a>', escaped)


def privacy_html(markdown: str, title: str) -> str:
    """The whole ``/privacy`` page for the owner's ``markdown``, with ``title`` and a way back to the chat."""
    parts: list[str] = []
    paragraph: list[str] = []  # the lines of the paragraph being read
    items: list[str] = []  # the items of the list being read

    def close() -> None:
        if paragraph:
            parts.append(f"<p>{inline(' '.join(paragraph))}</p>")
            paragraph.clear()
        if items:
            parts.append("<ul>" + "".join(f"<li>{inline(item)}</li>" for item in items) + "</ul>")
            items.clear()

    for line in markdown.splitlines():
        stripped = line.strip()
        heading = re.match(r"(#{1,3})\s+(.*)", stripped)
        if not stripped or heading:
            close()
            if heading:
                level = len(heading.group(1))
                parts.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
        elif stripped.startswith(("- ", "* ")):
            if paragraph:
                close()
            items.append(stripped[2:])
        elif items:  # a list item's next line
            items[-1] += " " + stripped
        else:
            paragraph.append(stripped)
    close()
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width, initial-scale=1"><title>{html.escape(title)}</title>'
        f"<style>{STYLE}</style></head><body><main>{''.join(parts)}"
        '<p><a href="./">Back to the chat</a></p></main></body></html>'
    )


def privacy_line(retention_days: int) -> str:
    """The short line under the box: how long conversations are kept, and the link to the whole text."""
    kept = "a day" if retention_days == 1 else f"{retention_days} days"
    return (
        f'<p class="replica-privacy">Conversations are kept for {kept} after their last message. '
        '<a href="privacy" target="_blank" rel="noopener">Privacy</a></p>'
    )
