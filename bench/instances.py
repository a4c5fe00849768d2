"""``python -m bench --instances 2``: several app instances on one PostgreSQL, against one SQLite instance.

A crowd of visitors, each leaving a lead, spread over the instances; a scripted model on 127.0.0.1
turns each message into a ``gather_user_details`` call. Reported for each setup: leads stored, alerts
delivered to the Telegram stand-in, duplicates, and the time from the first visitor to the last alert.
The per-chat pace is set to 20 messages a second here, so the run measures the app, not the pace.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

from gradio_client import Client

from replica.settings import Settings
from replica.storage.provisioning import scratch_database
from replica.wiring import Timings, create_app
from tests.fakes.openai_server import call, say
from tests.fakes.telegram_server import FakeTelegram

VISITORS = 40


def lead_or_thanks(body: dict):
    """The scripted model: a visitor's email becomes a lead; the tool's result gets thanks."""
    last = body["messages"][-1]
    if last["role"] == "tool":
        return say("Thanks, passed on!")
    return call(("gather_user_details", {"email": last["content"], "notes": "bench"}))


# The per-chat pace set to 20 messages a second, and quick polling: the run measures the app, not Telegram.
FAST = Timings(alert_min_interval=0.05, telegram_poll_seconds=1)


def crowd(instances: list[str], telegram: FakeTelegram, visitors: int) -> tuple[float, int]:
    """Send ``visitors`` leads over the instances' URLs; return (seconds until every alert arrived, delivered)."""
    started = time.monotonic()

    def visit(n: int) -> str:
        return Client(instances[n % len(instances)], verbose=False).predict(f"v{n}@example.org", api_name="/chat")

    with ThreadPoolExecutor(max_workers=12) as pool:
        list(pool.map(visit, range(visitors)))
    telegram.wait_for(visitors, timeout=120)
    return time.monotonic() - started, len(telegram.delivered)


def measure(label: str, settings_list: list[Settings], visitors: int, count_leads: Callable) -> tuple[str, ...]:
    telegram = FakeTelegram()
    apps = []
    try:
        for settings in settings_list:
            app = create_app(settings.updated(telegram_api_base=telegram.url), FAST)
            app.serve(block=False, quiet=True)
            apps.append(app)
        seconds, delivered = crowd([app.demo.local_url for app in apps], telegram, visitors)
        time.sleep(1.0)  # a late duplicate would show now
        emails = [d.text.split("Email: ")[1].split("\n")[0] for d in telegram.delivered]
        leads = count_leads(apps[0])
    finally:
        for app in apps:
            app.close()
        telegram.close()
    duplicates = len(emails) - len(set(emails))
    return (label, f"{leads}/{visitors}", f"{delivered}/{visitors}", str(duplicates), f"{seconds:.1f} s")


def run(
    instances: int, database_url: str, work: Path, base: Callable[[Path], Settings], visitors: int = VISITORS
) -> list[tuple[str, ...]]:
    """The table's rows: one SQLite instance, then ``instances`` instances on a fresh PostgreSQL database."""
    rows = [
        measure(
            "SQLite, 1 instance",
            [base(work / "sqlite")],
            visitors,
            lambda app: len(app.store.leads.all()),
        )
    ]
    with scratch_database(database_url, "replica_bench") as url:
        settings = [base(work / f"pg-{n}").updated(database_url=url) for n in range(instances)]
        rows.append(
            measure(f"PostgreSQL, {instances} instances", settings, visitors, lambda app: len(app.store.leads.all()))
        )
    return rows


def print_table(rows: list[tuple[str, ...]], visitors: int = VISITORS) -> None:
    """The Markdown table docs/benchmark.md shows."""
    print(f"{visitors} visitors leaving a lead, 12 at a time")
    print()
    print("| Setup | Leads stored | Alerts sent | Duplicates | First visitor to last alert |")
    print("|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
