"""Nothing lost: leads and questions are stored first, and the outbox delivers through outages and restarts."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from replica.storage.records import AlertKind
from replica.storage.store import Store
from tests.fakes.openai_server import call, say
from tests.fixtures.clients import app_client
from tests.fixtures.databases import telegram_pending
from tests.fixtures.environment import ROOT, bare_env, wait_until
from tests.fixtures.processes import run_app, run_app_process


def lead_reply(email, name="Ada", notes="Wants to talk"):
    return call(("gather_user_details", {"email": email, "notes": notes, "name": name}))


def export(data_dir, what):
    done = run_app("export", what, DATA_DIR=str(data_dir))
    assert done.returncode == 0, done.stderr
    return list(csv.DictReader(io.StringIO(done.stdout)))


def test_telegram_down_then_restart_then_back_the_alert_arrives_once(start_app, settings, fake_openai, fake_telegram):
    down = settings.updated(telegram_api_base="http://127.0.0.1:9")  # connection refused
    first = start_app(down)
    fake_openai.script(lead_reply("survivor@example.org"), say("Thanks!"))
    assert app_client(first.demo.local_url).predict("survivor@example.org", api_name="/chat") == "Thanks!"
    first.close()
    assert fake_telegram.delivered == []

    second = start_app(settings)  # a new app instance, same DATA_DIR, Telegram reachable again
    [message] = fake_telegram.wait_for(1)
    assert "survivor@example.org" in message.text
    # Once the outbox records it sent, nothing is left to send: it arrived once.
    assert wait_until(lambda: second.store.leads.all()[0].alert_status == "sent")
    assert telegram_pending(second.store) == 0 and len(fake_telegram.delivered) == 1


def test_a_slow_telegram_does_not_slow_the_reply(visitor, fake_openai, fake_telegram):
    def lead(email):
        fake_openai.script(lead_reply(email), say("Noted."))
        assert visitor().predict(email, api_name="/chat") == "Noted."

    lead("fast@example.org")
    assert len(fake_telegram.wait_for(1, timeout=30)) == 1
    fake_telegram.gate = threading.Event()  # Telegram now holds every send until the test lets it go
    lead("slow@example.org")  # answered while Telegram holds its alert
    assert len(fake_telegram.delivered) == 1
    fake_telegram.gate.set()
    assert len(fake_telegram.wait_for(2, timeout=30)) == 2


def test_one_visitor_flooding_leads_gets_at_most_three_alerts_and_all_are_stored(
    visitor, fake_openai, fake_telegram, shared_app
):
    emails = [
        "a1@example.org",
        "a2@example.org",
        "a3@example.org",
        "a1@example.org",
        "a4@example.org",
        "a5@example.org",
        "a6@example.org",
    ]
    client = visitor()
    for email in emails:
        fake_openai.script(lead_reply(email), say("Noted."))
        assert client.predict(f"Contact me at {email}", api_name="/chat") == "Noted."
    fake_telegram.wait_for(3)
    assert wait_until(lambda: telegram_pending(shared_app.store) == 0)  # the capped ones never had a delivery
    assert len(fake_telegram.delivered) == 3
    rows = export(shared_app.settings.storage.data_dir, "leads")
    assert sorted(r["email"] for r in rows) == sorted(set(emails))  # 6 distinct, the repeated one once
    assert [r["alert_status"] for r in rows] == ["sent"] * 3 + ["capped"] * 3
    tool_results = [r["messages"][-1]["content"] for r in fake_openai.requests[1::2]]
    assert tool_results == ["ok"] * 7  # the model is told ok either way


def test_question_alerts_are_capped_per_visitor_but_all_stored(visitor, fake_openai, fake_telegram, shared_app):
    client = visitor()
    for n in range(4):
        fake_openai.script(call(("inform_unknown", {"question": f"Question {n}?"})), say("I'll ask."))
        client.predict(f"Question {n}?", api_name="/chat")
    fake_telegram.wait_for(3)
    assert wait_until(lambda: telegram_pending(shared_app.store) == 0)
    assert len(fake_telegram.delivered) == 3
    rows = export(shared_app.settings.storage.data_dir, "questions")
    assert [r["question"] for r in rows] == [f"Question {n}?" for n in range(4)]
    assert {r["status"] for r in rows} == {"open"}


def test_eight_visitors_leaving_a_lead_at_once_all_stored_and_alerted(start_app, settings, fake_openai, fake_telegram):
    app = start_app(settings.updated(lead_alerts_per_visitor=8))  # the eight come from one address, 127.0.0.1

    def respond(body):
        user = body["messages"][-1]
        if user["role"] == "tool":
            return say("Thanks!")
        return lead_reply(user["content"], notes="concurrent")

    fake_openai.default = respond
    emails = [f"visitor{n}@example.org" for n in range(8)]
    clients = [app_client(app.demo.local_url) for _ in emails]
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(lambda pair: pair[0].predict(pair[1], api_name="/chat"), zip(clients, emails)))
    assert answers == ["Thanks!"] * 8
    # One message each, or (when more than ALERT_FOLD_AFTER wait at once) some of them in one.
    assert wait_until(lambda: all(any(e in d.text for d in fake_telegram.delivered) for e in emails), timeout=20)
    assert len(fake_telegram.delivered) <= 8
    assert sorted(r["email"] for r in export(app.settings.storage.data_dir, "leads")) == sorted(emails)


def test_export_prints_csv_with_headers_even_when_empty(tmp_path):
    for what, header in [
        ("leads", "email,name,notes,created_at,session,alert_status,confirmed_at"),
        ("questions", "question,created_at,session,status,alert_status,askers"),
    ]:
        done = run_app_process("export", what, DATA_DIR=str(tmp_path / "empty"))  # as users run it
        assert done.returncode == 0 and done.stdout.strip() == header
        assert "Running on" not in done.stdout + done.stderr  # no server was started


def test_reset_asks_then_clears_every_record_and_learned_answer_and_keeps_the_state(tmp_path):
    from replica.alerts import Alert

    data = tmp_path / "data"
    store = Store(data / "replica.sqlite3")
    alert = Alert(AlertKind.LEAD, "New lead", (("Email", "trial@example.org"),), "s1")
    store.leads.record("trial@example.org", "", "", alert.entry())
    question = store.questions.record("Trial question?", Alert(AlertKind.QUESTION, "Q", (), "s1").entry())
    salt = store.state.shared("address_salt", "kept-salt")
    store.close()
    env = {"DATA_DIR": str(data)}
    declined = subprocess.run(
        [sys.executable, str(ROOT / "app.py"), "reset"],
        input="no\n",
        env=bare_env(**env),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert declined.returncode == 1 and "Nothing was deleted." in declined.stdout
    assert [r["email"] for r in export(data, "leads")] == ["trial@example.org"]
    done = run_app("reset", "--yes", **env)
    assert done.returncode == 0 and "was deleted" in done.stdout
    assert export(data, "leads") == [] and export(data, "questions") == [] and export(data, "answers") == []
    store = Store(data / "replica.sqlite3")
    try:
        assert store.state.shared("address_salt", "new") == salt and question is not None
    finally:
        store.close()
