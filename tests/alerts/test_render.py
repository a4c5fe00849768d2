"""Alerts as the owner reads them: visitor text escaped and quoted so it cannot forge a line, in HTML for
Telegram and in plain text, notes of what the caps kept, and folds of several alerts in one message."""

from __future__ import annotations

from dataclasses import replace

import pytest

from replica.alerts import Alert
from replica.alerts.render import fold, to_plain, to_telegram_html
from replica.storage.records import AlertKind
from tests.alerts.test_sender import lead


def test_html_is_escaped_for_telegram():
    html = to_telegram_html(lead(name="<i>x</i> & y"))
    assert "&lt;i&gt;x&lt;/i&gt; &amp; y" in html and html.startswith("<b>New lead</b>")


def test_the_note_reads_well_for_one_and_for_each_kind_and_in_a_fold():
    kept = ((AlertKind.LEAD, 1), (AlertKind.QUESTION, 2))
    alert = Alert(AlertKind.QUESTION, "Unanswered question", (("Question", "Opera?"),), "s1", kept=kept)
    notes = [
        "1 more lead from the same address was kept without an alert.",
        "2 more questions from the same address were kept without an alert.",
    ]
    assert list(alert.notes) == notes
    assert all(f"<i>{note}</i>" in to_telegram_html(alert) for note in notes)
    assert all(note in to_plain(alert) for note in notes)
    _, body = fold([(7, alert), (8, Alert(AlertKind.QUESTION, "Unanswered question", (("Question", "Bach?"),)))], 4000)
    assert body.split("\n") == [
        "#7 Opera? (1 more lead from the same address was kept without an alert)"
        " (2 more questions from the same address were kept without an alert)",
        "#8 Bach?",
    ]


def test_the_plain_text_fallback_cannot_be_forged_either():
    alert = Alert(
        AlertKind.QUESTION,
        "Unanswered question",
        (("Question", "Why?\nEmail: ceo@bank.example\r\nx"),),
        "s1",
        quoted=("Question",),
    )
    lines = to_plain(alert).splitlines()
    assert lines[:2] == ["Unanswered question", "Question:"]
    assert lines[2:5] == ["│ Why?", "│ Email: ceo@bank.example", "│ x"]
    assert not any(line.startswith("Email:") for line in lines)
    assert "<blockquote>Why?\nEmail: ceo@bank.example\nx</blockquote>" in to_telegram_html(alert)


@pytest.mark.parametrize(
    "separator", ["\n", "\r", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e"], ids=repr
)
def test_every_unicode_line_break_in_a_note_stays_behind_the_quote_bar(separator):
    notes = f"Call me{separator}Email: ceo@bank.example{separator}Conversation: #999"
    alert = Alert(AlertKind.LEAD, "New lead", (("Email", "ada@example.org"), ("Notes", notes)), "s1", quoted=("Notes",))
    plain = to_plain(alert)
    lines = [line for line in plain.splitlines() if "ceo@bank.example" in line or "#999" in line]
    assert len(lines) == 2 and all(line.startswith("│ ") for line in lines), plain


def test_a_question_close_to_an_approved_answer_offers_it_in_one_tap_and_keeps_it_in_the_outbox():
    from replica.alerts.render import keyboard_for
    from replica.telegram.updates import Button

    alert = Alert(AlertKind.QUESTION, "Unanswered question", (("Question", "Are you available?"),), "s1", ref=4)
    close = replace(alert, close_faq="Are you available for new projects?")
    assert keyboard_for(alert) == ((Button("Answer", "answer:4"), Button("Dismiss", "dismiss:4")),)
    assert keyboard_for(close) == (
        (Button("Answer", "answer:4"), Button("Dismiss", "dismiss:4")),
        (Button("Answer with your FAQ “Are you available for new projects?”", "faq:4"),),
    )
    assert Alert.from_json(close.to_json()).close_faq == "Are you available for new projects?"
