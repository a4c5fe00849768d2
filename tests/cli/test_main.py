"""``python app.py --help``: answered at once, and saying what running with no command does."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.fixtures.environment import ROOT, bare_env
from tests.fixtures.processes import run_app

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
