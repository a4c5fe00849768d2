"""A fresh machine: no keys, no .env. ``python app.py`` must serve, and explain itself, without a traceback."""

from __future__ import annotations

import uuid

import pytest
import requests

from tests.fixtures.clients import app_client
from tests.fixtures.environment import ROOT
from tests.fixtures.processes import run_app, served_app


def holds(folder, marker: str) -> list[str]:
    """The files under ``folder`` whose bytes hold ``marker`` (none when there is no folder). An app the
    developer runs from the same checkout may write there meanwhile; only this test's words count."""
    if not folder.exists():
        return []
    return [str(path) for path in folder.rglob("*") if path.is_file() and marker.encode() in path.read_bytes()]


@pytest.mark.smoke
def test_python_app_py_serves_without_keys_and_answers_from_the_faq(tmp_path):
    log_file = tmp_path / "app.log"
    marker = f"marker-{uuid.uuid4().hex}"
    with served_app(log_file) as (url, _):
        page = requests.get(url, timeout=10).text
        assert "Jordan Avery — AI replica" in page and "the owner" not in page  # named from the knowledge
        config = requests.get(url.rstrip("/") + "/config", timeout=10).text
        assert "answering from Jordan Avery's own written answers for now" in config
        assert "zerogpu" not in config  # without the spaces package, no placeholder for ZeroGPU (test_zerogpu.py)
        client = app_client(url)
        answer = client.predict("Will you sign an NDA?", api_name="/chat")
        assert answer == "From Jordan Avery's FAQ: Yes, before any detailed discussion of a client's data."
        assert client.predict("Hello, who are you?", api_name="/chat").startswith("Hi! I'm Jordan Avery's AI replica.")
        for chip in (ROOT / "prompts" / "examples.txt").read_text().splitlines()[1:]:  # the page's own chips
            assert client.predict(chip, api_name="/chat").startswith("From Jordan Avery's FAQ: "), chip
        assert client.predict(f"Please note {marker}", api_name="/chat")
    assert run_app("export", "conversations").returncode == 0
    assert holds(ROOT / "data", marker) == []  # the suite's apps keep their records elsewhere
    output = log_file.read_text()
    assert "Traceback" not in output
    assert "OPENAI_API_KEY is not set" in output and "Telegram is not configured" in output
