"""What listings share (replica/owner_bot/listing_text.py): a list is cut to one Telegram message,
measured as Telegram measures it."""

from __future__ import annotations

from replica.alerts import Alert
from replica.owner_bot.listing_text import fit
from replica.storage.records import AlertKind
from replica.telegram.length import utf16_units


def _lead_alert(n):
    return Alert(AlertKind.LEAD, "New lead", (("Email", f"lead{n}@example.org"),), f"s{n}")


def test_lists_are_cut_by_telegram_length_where_emoji_count_twice():
    lines = ["🙂" * 300 for _ in range(20)]  # 300 characters, 600 of Telegram's units, each
    text = fit(lines)
    assert utf16_units(text) <= 4096 and text.endswith("more")
