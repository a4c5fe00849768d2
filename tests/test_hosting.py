"""Where owners host it: a host that sets ``PORT``, a Space's ephemeral disk, SQLite on a mounted volume.

ZeroGPU hardware, where free Spaces run, has tests of its own (test_zerogpu.py).
"""

from __future__ import annotations

import csv
import io
import logging
import os
import re
import socket
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from replica.settings import load_settings
from replica.storage.database import open_database
from replica.storage.volumes import records_at_risk, sqlite_journal, volume_of
from tests.fakes.openai_server import call, say
from tests.fixtures.clients import app_client
from tests.fixtures.databases import telegram_pending
from tests.fixtures.environment import API_KEY, ROOT, wait_until
from tests.fixtures.processes import run_app, run_app_process, served_app

SHM = Path("/dev/shm")  # a mount point on Linux machines: it stands in for an attached volume


def on_a_volume(tmp_path_factory) -> Path:
    if not os.path.ismount(SHM):
        pytest.skip("/dev/shm is not a mount point here: no volume to stand in for a Storage Bucket")
    folder = SHM / f"replica-test-{tmp_path_factory.getbasetemp().name}-{os.getpid()}"
    folder.mkdir(exist_ok=True)
    return folder


# --- PORT -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "environment, port, name, variable",
    [
        ({}, 7860, "127.0.0.1", "GRADIO_SERVER_PORT"),
        ({"PORT": "10000"}, 10000, "0.0.0.0", "PORT"),
        ({"PORT": "10000", "GRADIO_SERVER_NAME": "127.0.0.1"}, 10000, "127.0.0.1", "PORT"),
        ({"PORT": "10000", "GRADIO_SERVER_PORT": "7861"}, 7861, "127.0.0.1", "GRADIO_SERVER_PORT"),
    ],
    ids=["neither", "port", "port-and-name", "gradio-wins"],
)
def test_gradio_server_port_wins_then_port_and_with_port_alone_every_address(environment, port, name, variable):
    settings = load_settings(environment, None)
    assert (settings.serving.listen_port, settings.serving.listen_name, settings.serving.port_variable) == (
        port,
        name,
        variable,
    )


@pytest.mark.smoke
def test_python_app_py_with_port_alone_chats_alerts_a_lead_and_exports_it(tmp_path, fake_openai, fake_telegram):
    """As Render or Railway start it: only ``PORT`` says where. Reached at 127.0.0.2, which an app
    listening on 127.0.0.1 alone would refuse: it listens on every address. A visitor's chat goes round
    the fake model, the lead's alert reaches the fake Telegram, and ``export leads`` lists it."""
    env = {
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_BASE_URL": fake_openai.base_url,
        **fake_telegram.env,
        "OWNER_NAME": "Ada Lovelace",
        "DATA_DIR": str(tmp_path / "data"),
        "NO_PROXY": "127.0.0.1,127.0.0.2,localhost",
    }
    with served_app(tmp_path / "app.log", port_variable="PORT", host="127.0.0.2", **env) as (url, _):
        client = app_client(url)
        fake_openai.script(say("I build analytical engines."))
        assert client.predict("What do you do?", api_name="/chat") == "I build analytical engines."
        fake_openai.script(
            call(("gather_user_details", {"email": "jane@example.com", "notes": "Hiring"})), say("Thanks!")
        )
        # The example profile names a booking page: the app offers it after the lead.
        booked = "Thanks!\n\nIf you'd rather talk sooner, you can also book a time: https://cal.com/jordan-avery-example/intro"
        assert client.predict("Reach me at jane@example.com", api_name="/chat") == booked
        assert wait_until(lambda: any("jane@example.com" in text for text in fake_telegram.sent_texts()), timeout=30)
    assert fake_openai.requests[0]["messages"][-1]["content"] == "What do you do?"
    alerts = [text for text in fake_telegram.sent_texts() if "jane@example.com" in text]
    assert len(alerts) == 1 and "Hiring" in alerts[0]
    exported = run_app("export", "leads", DATA_DIR=env["DATA_DIR"])
    assert [row["email"] for row in csv.DictReader(io.StringIO(exported.stdout))] == ["jane@example.com"]
    assert "Traceback" not in (tmp_path / "app.log").read_text()


def test_a_busy_port_from_port_is_named_as_port():
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_app_process(PORT=str(port))
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"Port {port} (from PORT) is already in use" in lines[0] and "set PORT to a free port" in lines[0]
    assert "GRADIO_SERVER_PORT" not in lines[0]


# --- a Space's own disk ------------------------------------------------------------------------------


def test_where_data_dir_lives_decides_the_journal_and_whether_records_are_at_risk(tmp_path, tmp_path_factory):
    volume = on_a_volume(tmp_path_factory)
    assert volume_of(tmp_path) is None and volume_of(volume / "not-made-yet") == SHM
    assert sqlite_journal(tmp_path) == "wal" and sqlite_journal(volume) == "delete"
    assert sqlite_journal(tmp_path, "delete") == "delete" and sqlite_journal(volume, "wal") == "wal"
    assert "records will be lost at the next restart" in records_at_risk("ada/replica", None, tmp_path)
    assert records_at_risk(None, None, tmp_path) is None  # not a Space: the owner knows their disk
    assert records_at_risk("ada/replica", "postgresql://db/replica", tmp_path) is None
    assert records_at_risk("ada/replica", None, volume) is None


def test_on_a_space_the_own_disk_is_warned_once_at_start_and_doctor_fails_it(
    tmp_path, tmp_path_factory, start_app, settings, caplog
):
    with caplog.at_level(logging.WARNING, logger="replica"):
        start_app(settings.updated(space_id="ada/replica"))
    warnings = [r for r in caplog.records if "records will be lost at the next restart" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING
    assert "attach a Storage Bucket to the Space at /data" in warnings[0].getMessage()

    on_own_disk = run_app(
        "doctor", SPACE_ID="ada/replica", DATA_DIR=str(tmp_path / "data"), KNOWLEDGE_DIR=str(tmp_path)
    )
    lines = [line for line in on_own_disk.stdout.splitlines() if " storage: " in line]
    assert on_own_disk.returncode == 1
    assert any(
        line.startswith("✗ storage: records will be lost at the next restart")
        and "fix: attach a Storage Bucket to the Space at /data and set DATA_DIR=/data, or set DATABASE_URL" in line
        for line in lines
    ), lines

    volume = on_a_volume(tmp_path_factory)
    on_volume = run_app("doctor", SPACE_ID="ada/replica", DATA_DIR=str(volume), KNOWLEDGE_DIR=str(tmp_path))
    lines = [line for line in on_volume.stdout.splitlines() if " storage: " in line]
    assert f"✓ storage: records are kept in SQLite on the volume mounted at {SHM} (journal: delete)" in lines
    assert not any(line.startswith("✗ storage") for line in lines)


def test_off_spaces_nothing_is_said_of_the_disk(start_app, settings, caplog):
    with caplog.at_level(logging.WARNING, logger="replica"):
        app = start_app(settings)
    assert "records will be lost" not in caplog.text
    assert app.store.db.journal == "wal"


# --- SQLite on a mounted volume -------------------------------------------------------------------------


def test_on_a_volume_eight_visitors_the_sender_and_the_owner_bot_lose_nothing(
    start_app, settings, fake_openai, fake_telegram, caplog
):
    """The journal the app picks for a mounted volume, forced on in a local folder: eight visitors leave
    an address at once while the sender delivers and the owner asks the bot for the leads."""
    app = start_app(settings.updated(sqlite_journal="delete", lead_alerts_per_visitor=8))  # all from 127.0.0.1
    assert app.store.db.journal == "delete"
    other = open_database(settings.storage.database_path, None, read_only=True)  # what the file itself says
    assert other.journal == "delete"
    other.close()
    assert not settings.storage.database_path.with_name("replica.sqlite3-shm").exists()

    def respond(body):
        last = body["messages"][-1]
        if last["role"] == "tool":
            return say("Thanks!")
        return call(("gather_user_details", {"email": last["content"], "notes": "At once"}))

    fake_openai.default = respond
    emails = [f"visitor{n}@example.org" for n in range(8)]
    clients = [app_client(app.demo.local_url) for _ in emails]
    with caplog.at_level(logging.DEBUG):
        with ThreadPoolExecutor(max_workers=8) as pool:
            asked = [fake_telegram.push("/leads") for _ in range(3)]  # the owner bot reads while visitors write
            answers = list(pool.map(lambda pair: pair[0].predict(pair[1], api_name="/chat"), zip(clients, emails)))
        delivered = lambda: all(any(e in text for text in fake_telegram.sent_texts()) for e in emails)  # noqa: E731
        assert wait_until(delivered, timeout=20)
        listings = lambda: [t for t in fake_telegram.sent_texts() if "leads" in t.lower().split("\n")[0]]  # noqa: E731
        assert wait_until(lambda: len(listings()) >= len(asked))
    assert answers == ["Thanks!"] * 8
    assert sorted(lead.email for lead in app.store.leads.all()) == sorted(emails)
    assert wait_until(lambda: telegram_pending(app.store) == 0)  # each marked sent just after its delivery
    assert "database is locked" not in caplog.text.lower() and "OperationalError" not in caplog.text


def test_a_wal_database_moved_to_a_volume_is_switched_to_the_rollback_journal(tmp_path):
    from replica.storage.store import Store

    path = tmp_path / "replica.sqlite3"
    Store(path, journal="wal").close()
    store = Store(path, journal="delete")
    try:
        assert store.db.journal == "delete"
        assert not path.with_name("replica.sqlite3-wal").exists()
    finally:
        store.close()


def test_doctor_off_spaces_says_where_records_are_kept(tmp_path):
    done = run_app("doctor", DATA_DIR=str(tmp_path / "data"), KNOWLEDGE_DIR=str(tmp_path))
    assert "✓ storage: records are kept in SQLite on this machine's disk (journal: wal)" in done.stdout


# --- Python ----------------------------------------------------------------------------------------------


def test_an_older_python_gets_one_line_naming_the_versions_supported():
    older = sorted(Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"), "versions").glob("3.9.*/bin/python3.9"))
    if not older:
        pytest.skip("no Python 3.9 under pyenv to try app.py with")
    done = subprocess.run([str(older[-1]), "app.py"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"Replica needs Python 3.10 to 3.13; this is Python {older[-1].parts[-3]}."
    ]


def test_spaces_front_matter_matches_requirements():
    readme = (ROOT / "README.md").read_text()
    front = readme.split("---")[1]
    sdk_version = re.search(r"^sdk_version:\s*(\S+)", front, re.M).group(1)
    pinned = re.search(r"^gradio(?:\[\w+\])?==(\S+)", (ROOT / "requirements.txt").read_text(), re.M).group(1)
    assert sdk_version == pinned
    for key in ("title:", "emoji:", "sdk: gradio", "app_file: app.py"):
        assert key in front
