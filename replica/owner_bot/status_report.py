"""``/status``: how the owner's alerts stand: those raised and those the visitor caps kept back in the
last 24 hours, and why, and what waits to be delivered."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Mapping

from replica.storage import Store
from replica.storage.outbox import CAP_SETTINGS
from replica.storage.records import AlertKind, CapReason
from replica.storage.rows import KeptCount

DAY_SECONDS = 86400.0
NOUNS = {AlertKind.LEAD: "lead", AlertKind.QUESTION: "question"}
LISTINGS = {AlertKind.LEAD: "/leads", AlertKind.QUESTION: "/unanswered"}


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural unless one: "1 lead", "2 leads", "3 addresses"."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}es" if noun.endswith("s") else f"{count} {noun}s"


def kept_line(row: KeptCount, caps: Mapping[AlertKind, int]) -> str:
    """One kind and reason of records kept without an alert, and why, naming the setting that caps it."""
    noun, cap, setting = NOUNS.get(row.kind, row.kind), caps.get(row.kind, 0), CAP_SETTINGS.get(row.kind, "")
    if row.reason == CapReason.ADDRESS:
        where, per = counted(row.visitors, "address"), "per address within an hour"
    else:
        where, per = counted(row.visitors, "browser session"), "per browser session"
    cap_text = counted(cap, f"{noun} alert")
    return f"• {counted(row.records, noun)} from {where}, past the cap of {cap_text} {per} (<code>{setting}</code>)"


def status_report(store: Store) -> str:
    """What ``/status`` answers: alerts raised in the last 24 hours, leads and questions kept without an
    alert (how many, from how many visitors, why, how to raise the caps), and deliveries waiting."""
    raised = {row.kind: row.alerts for row in store.outbox.raised_within(DAY_SECONDS)}
    kept = store.outbox.kept_within(DAY_SECONDS)
    caps = store.outbox.alert_caps
    lines = [
        "<b>Alerts in the last 24 hours</b>",
        "Raised: " + ", ".join(counted(raised.get(kind, 0), noun) for kind, noun in NOUNS.items()) + ".",
    ]
    if kept:
        totals = {kind: sum(row.records for row in kept if row.kind == kind) for kind in NOUNS}
        shown = ", ".join(counted(n, NOUNS[kind]) for kind, n in totals.items() if n)
        told = sum(row.told for row in kept)
        lists = " and ".join(LISTINGS[kind] for kind in NOUNS if totals[kind])
        lines += [
            f"Kept without an alert: {shown}. Each is stored: {lists} {'lists' if ' ' not in lists else 'list'} them."
        ]
        lines += [kept_line(row, caps) for row in kept]
        settings = " and ".join(f"<code>{CAP_SETTINGS[kind]}</code>" for kind in NOUNS if totals[kind])
        lines += [
            "The next alert raised from the same address says how many were kept back from it"
            + (f" ({told} of these told so far)." if told else ".")
            + f" To be alerted of more from one visitor (a trial from one address, say), raise {settings}."
        ]
    else:
        lines.append("Kept without an alert: none.")
    waiting = store.deliveries.summary().values()
    pending, failed = sum(s.pending for s in waiting), sum(s.failed for s in waiting)
    lines.append(
        f"Deliveries waiting: {pending or 'none'}"
        + (f"; given up: {failed} (<code>python app.py export alerts</code> says why)." if failed else ".")
    )
    codes, answers = store.codes.waiting(), store.answer_mails.waiting()
    if codes or answers:  # verified contacts: mails the e-mail service has not taken yet
        lines.append(f"Mails waiting: {codes} code(s), {answers} answer(s) (the leads are kept meanwhile).")
    lines += code_mails_line(store)
    return "\n".join(lines)


def code_mails_line(store: Store) -> list[str]:
    """Verified contacts: a line when the code mails of the last 24 hours reached ``CODE_MAILS_PER_DAY``,
    saying when the next may go; none otherwise."""
    count, frees_at = store.codes.day_total()
    if frees_at is None:
        return []
    at = datetime.fromtimestamp(frees_at, timezone.utc).strftime("%H:%M UTC")
    return [
        f"Code mails: {count} in the last 24 hours, the day's total (<code>CODE_MAILS_PER_DAY</code>) reached; "
        f"leads get no code until {at}, and are kept meanwhile."
    ]
