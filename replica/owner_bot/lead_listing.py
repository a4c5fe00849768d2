"""``/leads``: the most recent leads, each on one line."""

from __future__ import annotations

import html

from replica.alerts.render import quoted_name
from replica.owner_bot.listing_text import fit, when_iso
from replica.storage import Store
from replica.storage.records import LeadStatus
from replica.text import one_line


def leads_listing(store: Store, limit: int = 20) -> str:
    """The ``limit`` most recent leads, newest first: handled or not, name, email (marked when the visitor
    confirmed it with a code), note, when.

    Each visitor value is on one line, the name and the note in quotes: a name or note can never add a line,
    nor pass for the "(confirmed ✓)" mark."""
    leads = store.leads.recent(limit)
    if not leads:
        return "No leads yet."
    lines = ["<b>Recent leads</b>, newest first:"] + [
        f"• {'✓ handled · ' if row.status is LeadStatus.HANDLED else ''}"
        f"{html.escape(quoted_name(row.name, 80)) if row.name.strip() else '(no name)'} — {html.escape(one_line(row.email))}"
        f"{' (confirmed ✓)' if row.confirmed_at else ''} — "
        f"“{html.escape(one_line(row.notes, 300))}” ({when_iso(row.created_at)}"
        + (f", conversation <b>{row.conversation}</b>: /show {row.conversation})" if row.conversation else ")")
        for row in leads
    ]
    return fit(lines)
