"""``python app.py export`` (replica/cli/export.py): the owner's records as files."""

from __future__ import annotations

import csv
import io

from tests.fakes.openai_server import call, say
from tests.fixtures.clients import app_client
from tests.fixtures.environment import wait_until
from tests.fixtures.processes import run_app


def test_export_alerts_lists_the_outbox(start_app, settings, fake_openai, fake_telegram):
    fake_telegram.fail_next(500, times=100)
    app = start_app(settings)
    fake_openai.script(call(("inform_unknown", {"question": "Opera?"})), say("I'll ask."))
    app_client(app.demo.local_url).predict("Opera?", api_name="/chat")
    assert wait_until(lambda: len(fake_telegram.attempts) >= 1)  # tried, and refused
    done = run_app("export", "alerts", DATA_DIR=str(settings.storage.data_dir))
    [row] = list(csv.DictReader(io.StringIO(done.stdout)))
    assert list(row) == ["kind", "created_at", "channel", "status", "attempts", "last_error", "sent_at"]
    assert (
        row["kind"] == "question"
        and row["channel"] == "Telegram"
        and row["status"] == "pending"
        and int(row["attempts"]) >= 1
    )
    assert row["last_error"] == "Internal Server Error" and row["sent_at"] == ""
