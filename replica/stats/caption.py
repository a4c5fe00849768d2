"""The period's totals in words: the caption under the picture (what a screen reader and a notification
read), the digest's text where no picture can go, and the list of open questions that follows it."""

from __future__ import annotations

import html

from replica.stats.period import OpenQuestion, Period, Totals
from replica.storage.figures import APPROVED, MODEL, OTHER, OWNER, PASSED_ON
from replica.telegram.updates import Action, Button, Keyboard
from replica.text import one_line

CAPTION_LIMIT = 1024  # Telegram's limit on a photo's caption
QUESTIONS_LISTED = 10  # open questions named in the message after the picture, each with its button


def thousands(n: int) -> str:
    """``12,345``."""
    return f"{n:,}"


def seconds(ms: int | None) -> str:
    """A reply time in seconds ("2.1 s"), or "–" for none."""
    return "–" if ms is None else f"{ms / 1000:.1f} s"


def counted_days(n: int) -> str:
    """``7 days``, ``1 day``."""
    return f"{n} day" if n == 1 else f"{n} days"


def percent(share: float | None) -> str:
    """A share as a percentage ("29%"), or "–" for none."""
    return "–" if share is None else f"{share:.0%}"


def was(n: int) -> str:
    """What the period before had ("was 12")."""
    return f"was {thousands(n)}"


def caption(figures: Period, daily_budget: int) -> str:
    """The totals of ``figures`` against the period before, in plain text within Telegram's caption limit."""
    now, before = figures.totals, figures.before
    days = len(figures.days)
    span = figures.last.isoformat() if days == 1 else f"{figures.first.isoformat()} to {figures.last.isoformat()}"
    if figures.empty:
        return f"Last {counted_days(days)}, {span}: nobody opened the page or wrote. (The {days} before: {_before(before)}.)"
    answered = now.answered
    lines = [
        f"Last {counted_days(days)}, {span}; in brackets the {days} before.",
        f"Page opens: {thousands(now.page_opens)} ({thousands(before.page_opens)})",
        f"Conversations: {thousands(now.conversations)} ({thousands(before.conversations)})",
        f"Leads: {thousands(now.leads)}"
        + (f", {now.confirmed_leads} confirmed" if now.confirmed_leads else "")
        + f" ({thousands(before.leads)})",
        f"Questions passed on: {now.questions}, {now.questions_answered} answered since ({before.questions})",
        f"Visitor messages: {thousands(now.visitor_messages)} ({thousands(before.visitor_messages)}): "
        f"model {answered[MODEL]}, approved answers without a model {answered[APPROVED]}, passed on "
        f"{answered[PASSED_ON]}, you in person {answered[OWNER]}, other {answered[OTHER]}",
        f"Answered from approved or taught answers: {percent(now.approved_share)}",
        f"Model calls: {thousands(now.model_calls)}, busiest day {thousands(now.busiest_day_calls)} "
        f"of {thousands(daily_budget)} a day; tokens: {thousands(now.tokens)}",
        f"Median reply time: {seconds(now.median_reply_ms)} ({seconds(before.median_reply_ms)})",
    ]
    if figures.sources:
        lines.append("From: " + ", ".join(f"{one_line(name, 40)} {n}" for name, n in figures.sources[:4]))
    return "\n".join(lines)[:CAPTION_LIMIT]


def _before(before: Totals) -> str:
    return (
        f"{thousands(before.page_opens)} page opens, {thousands(before.conversations)} conversations, "
        f"{thousands(before.leads)} leads"
    )


def questions_text(questions: list[OpenQuestion], days: int) -> str:
    """The message after the picture: the period's open questions, the most asked first (Telegram HTML)."""
    if not questions:
        return f"No open questions from the last {counted_days(days)}: your files answered everything asked."
    lines = [
        f"<b>What visitors asked that your files don't answer</b> (last {counted_days(days)}, the most asked first):"
    ]
    for question in questions[:QUESTIONS_LISTED]:
        times = f"{question.count}×"
        lines.append(f"<b>#{question.id}</b> {times} “{html.escape(one_line(question.question, 200))}”")
    if len(questions) > QUESTIONS_LISTED:
        lines.append(f"…and {len(questions) - QUESTIONS_LISTED} more: /unanswered lists them all.")
    lines.append("Tap Answer under a question, or send /answer N your answer.")
    return "\n".join(lines)


def questions_keyboard(questions: list[OpenQuestion]) -> Keyboard:
    """An Answer button for each question the message names (the same button a question's alert has)."""
    return tuple(
        (Button(f"Answer #{q.id}: {one_line(q.question, 40)}", Action.ANSWER.data(q.id)),)
        for q in questions[:QUESTIONS_LISTED]
    )
