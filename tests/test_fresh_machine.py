"""A fresh machine: no keys, no .env. ``python app.py`` must serve, and explain itself, without a traceback."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import requests
from gradio_client import Client

from tests.conftest import ROOT, bare_env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_python_app_py_serves_without_keys_and_says_what_to_configure(tmp_path):
    port = free_port()
    env = bare_env(GRADIO_SERVER_PORT=str(port), GRADIO_SERVER_NAME="127.0.0.1", GRADIO_ANALYTICS_ENABLED="False")
    log_file = tmp_path / "app.log"
    with open(log_file, "w") as log:
        process = subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if requests.get(url, timeout=2).status_code == 200:
                    break
            except requests.ConnectionError:
                time.sleep(0.3)
        else:
            raise AssertionError(f"app did not start:\n{log_file.read_text()}")
        answer = Client(url, verbose=False).predict("Hello, who are you?", api_name="/chat")
        assert "not connected to a language model" in answer and "OPENAI_API_KEY" in answer
    finally:
        process.terminate()
        process.wait(timeout=20)
    output = log_file.read_text()
    assert "Traceback" not in output
    assert "OPENAI_API_KEY is not set" in output and "Telegram is not configured" in output
