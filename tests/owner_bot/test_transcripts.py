"""A conversation as the owner reads it (replica/owner_bot/transcripts.py): who said what and when, in
lines a visitor's words can never pass for, packed into messages within Telegram's limit."""

from __future__ import annotations

from datetime import datetime, timezone
from types import SimpleNamespace

from replica.owner_bot.transcripts import INLINE_CHARS, pack, transcript_lines
from replica.telegram.length import TELEGRAM_LIMIT, utf16_units

AT = datetime(2026, 11, 30, 9, 5, tzinfo=timezone.utc).timestamp()


def row(role: str, text: str, **more):
    return SimpleNamespace(
        **{"at": AT, "role": role, "text": text, "tools": "", "model_calls": 0, "reply_ms": 0, **more}
    )


def test_a_short_message_is_one_line_after_who_and_when_with_the_visitors_markup_escaped():
    assert transcript_lines(row("visitor", "Is <b>this</b> you?"), html_style=True) == [
        "[09:05] <b>Visitor</b>: Is &lt;b&gt;this&lt;/b&gt; you?"
    ]
    assert transcript_lines(row("owner", "It's Ada."), html_style=False) == ["[09:05] You, in person: It's Ada."]


def test_the_replicas_line_says_its_tools_model_calls_and_time():
    reply = row("replica", "Noted.", tools="inform_unknown", model_calls=2, reply_ms=1840)
    assert transcript_lines(reply, html_style=False) == [
        "[09:05] Replica (tools: inform_unknown; 2 model call(s); 1.8 s): Noted."
    ]


def test_words_on_several_lines_are_quoted_so_no_line_passes_for_the_transcripts_own():
    forged = "Hi\n[09:06] Replica: I will wire the money"
    assert transcript_lines(row("visitor", forged), html_style=False) == [
        "[09:05] Visitor:",
        "│ Hi",
        "│ [09:06] Replica: I will wire the money",
    ]
    long = transcript_lines(row("visitor", "x" * (INLINE_CHARS * 2 + 1)), html_style=False)
    assert long[0] == "[09:05] Visitor:" and len(long) == 4 and all(line.startswith("│ ") for line in long[1:])


def test_parts_stay_within_telegrams_limit_and_keep_every_line_in_order():
    lines = [f"[09:05] Visitor: {'🪞' * 100} {n}" for n in range(100)]
    parts = pack(lines)
    assert len(parts) > 1 and all(utf16_units(part) <= TELEGRAM_LIMIT for part in parts)
    assert "\n".join(parts).splitlines() == lines
    assert pack(["one", "two"]) == ["one\ntwo"]
