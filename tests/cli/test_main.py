"""``python app.py`` (replica/cli/main.py): ``--help`` answered at once, saying what running with no
command does; and a storage problem, a busy port or a setting that cannot be read is one clear line at
start and exit code 2, never a traceback."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from tests.fixtures.environment import ROOT, bare_env, free_port
from tests.fixtures.processes import run_app, run_app_process

COMMANDS = ("export", "telegram-setup", "doctor", "reset", "eval")


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_imports_neither_gradio_nor_the_model_sdk_and_says_no_command_serves_the_page(tmp_path, flag):
    """Run as a Space would have it: a ``spaces`` package on the path that, like Hugging Face's, imports
    Gradio. Python's own import log (``-X importtime``) shows every module the help took."""
    (tmp_path / "spaces").mkdir()
    (tmp_path / "spaces" / "__init__.py").write_text('"""Stands in for Hugging Face\'s spaces."""\nimport gradio\n')
    done = subprocess.run(
        [sys.executable, "-X", "importtime", str(ROOT / "app.py"), flag],
        cwd=ROOT,
        env=bare_env(PYTHONPATH=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    imported = {
        line.rsplit("|", 1)[1].strip().split(".")[0]
        for line in done.stderr.splitlines()
        if line.startswith("import time:")
    }
    assert "replica" in imported and not {"gradio", "spaces", "openai", "apprise"} & imported
    text = " ".join(done.stdout.split())
    assert "With no command, python app.py serves the page, on http://127.0.0.1:7860" in text
    assert all(command in text for command in COMMANDS)


def test_doctors_help_names_every_channel_ping_sends_a_test_message_to():
    done = run_app("doctor", "--help")
    text = " ".join(done.stdout.split())
    assert done.returncode == 0
    assert "--ping send a real test message to your Telegram chat and to each ALERT_URLS channel" in text


def unusable_data_dirs(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "replica.sqlite3").write_bytes(b"this is not a database " * 200)
    return {
        "cannot be created": (str(blocker / "data"), "cannot be created"),
        "read-only": ("/sys", "is not writable"),  # writable by no one, root included
        "not a database": (str(broken), "cannot be used as the database"),
    }


@pytest.mark.parametrize("case", ["cannot be created", "read-only", "not a database"])
@pytest.mark.parametrize("command", [[], ["export", "leads"]], ids=["serve", "export"])
def test_an_unusable_data_dir_is_one_line_naming_the_path_and_exit_code_2(tmp_path, case, command):
    data_dir, problem = unusable_data_dirs(tmp_path)[case]
    run = run_app_process if case == "read-only" and not command else run_app  # one as users run it
    done = run(*command, DATA_DIR=data_dir, GRADIO_SERVER_PORT=str(free_port()))  # never reaches serving
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("Storage error:") and data_dir in lines[0] and problem in lines[0]
    assert "DATA_DIR" in lines[0]


def test_a_busy_port_is_one_line_naming_it_and_exit_code_2_before_any_telegram_call(fake_telegram):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_app_process(
            GRADIO_SERVER_NAME="127.0.0.1",
            GRADIO_SERVER_PORT=str(port),
            TELEGRAM_BOT_TOKEN=fake_telegram.token,
            TELEGRAM_CHAT_ID=fake_telegram.chat_id,
            TELEGRAM_API_BASE=fake_telegram.url,
        )
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert str(port) in lines[0] and "GRADIO_SERVER_PORT" in lines[0]
    assert fake_telegram.commands is None and fake_telegram.polls == []  # Telegram never called


def test_a_port_taken_between_the_check_and_gradios_bind_is_the_same_one_line(monkeypatch):
    from replica.cli import main as cli_main

    monkeypatch.setattr(cli_main, "port_is_free", lambda host, port: True)  # as if taken just after the check
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_app(GRADIO_SERVER_NAME="127.0.0.1", GRADIO_SERVER_PORT=str(port))
    lines = [line for line in done.stderr.splitlines() if line.strip() and "WARNING" not in line and "INFO" not in line]
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert lines == [
        f"Port {port} (from GRADIO_SERVER_PORT) is already in use: stop what is using it, or set "
        "GRADIO_SERVER_PORT to a free port."
    ], done.stderr


def test_a_true_or_false_setting_that_is_neither_stops_the_start_with_one_line_naming_it():
    done = run_app_process(CHECK_REPLIES="ture", GRADIO_SERVER_PORT=str(free_port()))
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert lines == [
        "Configuration error: CHECK_REPLIES must be true or false (also 1/0, yes/no, on/off), not 'ture'"
    ], done.stderr
