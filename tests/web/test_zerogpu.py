"""ZeroGPU hardware, where free Spaces run: ``python app.py`` with the real ``spaces`` package from PyPI.

On ZeroGPU (``SPACES_ZERO_GPU=true``) the package reports the app's ``@spaces.GPU`` functions to the
device API at launch, and the platform stops an app that reports none; each call of one asks the
device API for a GPU. The fake device API (tests/fakes/zerogpu_server.py) records both, so the test sees
that the app reported its placeholder, and that nothing (a visitor's chat, the API routes, a crafted
request, the MCP listing, the page in Chromium) ever ran it.
"""

from __future__ import annotations

import asyncio
import os
import site
import subprocess
import sys
import venv
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from replica.web.zerogpu import PLACEHOLDER_ID, PLACEHOLDER_NAME
from tests.fakes.openai_server import say
from tests.fakes.zerogpu_server import FakeZeroGPU
from tests.fixtures.clients import app_client
from tests.fixtures.environment import API_KEY
from tests.fixtures.processes import served_app
from tests.web.test_browser import browser, chromium, send  # noqa: F401 (fixtures)
from tests.web.test_mcp import mcp_session

pytestmark = pytest.mark.measure  # a measure: its own line of the README (docs/testing.md)

SPACES_VERSION = "0.51.3"  # the package's code was read against this release (docs/hosting.md)


@pytest.fixture(scope="module")
def spaces_python(tmp_path_factory) -> str:
    """The interpreter of a virtualenv of the test's own, with the real ``spaces`` package from PyPI in
    it and this interpreter's packages (Gradio, …) beneath it, as Spaces preinstalls ``spaces`` beside
    the app's requirements."""
    folder = tmp_path_factory.mktemp("zerogpu-venv")
    venv.create(folder, with_pip=False, symlinks=True)
    python = folder / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(purelib, "beneath.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    install = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", purelib]
    done = subprocess.run([*install, f"spaces=={SPACES_VERSION}"], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        message = f"could not install spaces=={SPACES_VERSION} from PyPI: {done.stderr.strip()[-300:]}"
        pytest.fail(message) if os.environ.get("CI") == "true" else pytest.skip(message)
    return str(python)


def placeholder_event(config: dict) -> tuple[int, int]:
    """The id of the never-shown button and of the one event bound to it, from the page's config."""
    (button,) = [c["id"] for c in config["components"] if c.get("props", {}).get("elem_id") == PLACEHOLDER_ID]
    (event,) = [d for d in config["dependencies"] if [button, "click"] in [list(t) for t in d["targets"]]]
    assert event["backend_fn"] and event["api_visibility"] == "private"
    return button, event["id"]


def test_on_zerogpu_the_placeholder_is_reported_at_start_and_nothing_ever_runs_it(
    tmp_path,
    spaces_python,
    fake_openai,
    browser,  # noqa: F811
):
    device = FakeZeroGPU()
    env = {
        "SYSTEM": "spaces",  # what Spaces sets: Gradio and the spaces package take it that they run there
        "SPACE_ID": "ada/replica",
        "SPACES_ZERO_GPU": "true",
        "SPACES_ZERO_DEVICE_API_URL": device.url,
        "SPACES_GRADIO_AUTO_WRAP": "true",  # would make every event a GPU task: app.py turns it off
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_BASE_URL": fake_openai.base_url,
        "OWNER_NAME": "Ada Lovelace",
        "MCP_ENABLED": "true",
    }
    fake_openai.default = say("I build analytical engines.")
    log_file = tmp_path / "app.log"
    try:
        with served_app(log_file, python=spaces_python, **env) as (url, _):
            assert device.requests == ["/startup-report"]  # the spaces package found a @spaces.GPU function
            button, event = placeholder_event(requests.get(url + "config", timeout=10).json())

            client = app_client(url)
            assert client.predict("What do you do?", api_name="/chat") == "I build analytical engines."
            assert PLACEHOLDER_NAME not in str(client.view_api(print_info=False, return_format="dict"))
            assert PLACEHOLDER_NAME not in requests.get(url + "gradio_api/info", timeout=10).text

            refused = []
            for fn_index in (event, str(event), float(event)):
                body = {
                    "data": [],
                    "event_data": None,
                    "fn_index": fn_index,
                    "trigger_id": button,
                    "session_hash": "s1",
                }
                refused.append(requests.post(url + "gradio_api/queue/join", json=body, timeout=10).status_code)
            for route in ("call", "call/v2", "run", "api"):
                refused.append(
                    requests.post(
                        f"{url}gradio_api/{route}/{PLACEHOLDER_NAME}", json={"data": []}, timeout=10
                    ).status_code
                )
            assert refused == [404] * 7

            async def list_tools(session):
                return [tool.name for tool in (await session.list_tools()).tools]

            with ThreadPoolExecutor(1) as thread:  # Playwright's sync API holds this thread's event loop
                tools = thread.submit(asyncio.run, mcp_session(url + "gradio_api/mcp/", list_tools)).result()
            assert tools == ["replica_ask_ada_lovelace"]  # on a Space, Gradio puts the Space's name first

            page = browser.new_page()
            page.goto(url)
            send(page, "And on a phone?")
            page.get_by_text("I build analytical engines.").first.wait_for(timeout=30_000)
            assert (
                page.locator(f"#{PLACEHOLDER_ID}").count() == 0 or not page.locator(f"#{PLACEHOLDER_ID}").is_visible()
            )
    finally:
        device.close()
    assert device.gpu_requests == []  # no GPU asked for, ever: not by the chat, a route, or the page
    output = log_file.read_text()
    assert "Traceback" not in output, output[-4000:]
    assert output.count("records will be lost at the next restart") == 1  # a Space's own disk, said once


def test_the_placeholder_gradio_runs_is_the_function_app_py_decorated(settings):
    from replica.wiring import create_app

    def placeholder() -> None:
        pass

    app = create_app(settings, gpu_placeholder=placeholder)
    try:
        (event,) = app.closed_events
        assert app.demo.fns[event].fn is placeholder and app.closed_names == {PLACEHOLDER_NAME}
    finally:
        app.close()
    plain = create_app(settings)
    try:
        assert plain.closed_events == frozenset() and not any(fn.fn is placeholder for fn in plain.demo.fns.values())
    finally:
        plain.close()
