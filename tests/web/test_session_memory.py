"""What one client can cost the server, against ``python app.py`` as users run it: per-session memory
stays bounded whatever is posted to the page's events, and a malformed request costs a short log line."""

from __future__ import annotations

import json
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from tests.fixtures.clients import app_client
from tests.fixtures.environment import wait_until
from tests.fixtures.processes import rss_mb, served_app

pytestmark = pytest.mark.measure  # a measure: its own line of the README (docs/testing.md)

HISTORY = [{"role": "user", "content": "x" * 900}] * 950  # about 900 KB as JSON
NEAR_LIMIT = [{"role": "user", "content": "x" * 900}] * 60  # about 57 KB: under the guard's 64 KB for events


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """``python app.py`` (no model: every event still runs), its URL, process and log file. Every event is
    posted to a hundred times from this one address, the reply's events among them: the hourly limit of
    an address is not what is measured here, so it is raised."""
    log_file = tmp_path_factory.mktemp("session-memory") / "app.log"
    with served_app(log_file, ADDRESS_MESSAGES_PER_HOUR="100000") as (url, process):
        yield url, process, log_file


def page_events(url: str) -> tuple[list[dict], dict]:
    """Every event the page registers except the chat itself, and the page's config."""
    config = requests.get(url + "config", timeout=10).json()
    return [d for d in config["dependencies"] if d.get("api_name") != "chat"], config


def served_everything(url: str) -> None:
    """Return once the app's queue holds nothing waiting: what was sent has been taken up."""
    assert wait_until(lambda: requests.get(url + "gradio_api/queue/status", timeout=10).json()["queue_size"] == 0, 60)


def post_event(client: requests.Session, url: str, event: dict, data, session: str) -> int:
    route = "gradio_api/run/predict" if event.get("queue") is False else "gradio_api/queue/join"
    body = json.dumps(
        {"data": data, "fn_index": event["id"], "session_hash": session, "event_data": None, "trigger_id": None}
    )
    headers = {"content-type": "application/json"}
    if len(body) > 64 * 1024:  # refused before it is read: the server may close the connection mid-body
        headers["connection"] = "close"
    try:
        answer = client.post(url + route, data=body, headers=headers, timeout=30)
    except requests.ConnectionError:  # a kept-alive connection the server closed as it was reused: as a
        answer = requests.post(url + route, data=body, headers=headers, timeout=30)  # browser does, once more
    return answer.status_code


def test_no_event_but_the_chat_takes_the_history_from_the_browser(app):
    url, _, _ = app
    events, config = page_events(url)
    chatbots = {c["id"] for c in config["components"] if c.get("type") == "chatbot"}
    assert chatbots and events
    takes_history = [e.get("api_name") for e in events if chatbots & set(e["inputs"])]
    assert takes_history == []


def test_histories_posted_to_every_event_with_new_sessions_grow_memory_by_under_60_mb(app):
    url, process, log_file = app
    events, _ = page_events(url)
    client = requests.Session()
    post_event(client, url, events[0], ["warm up"], "warmup")
    served_everything(url)
    before = rss_mb(process.pid)
    statuses = set()
    for event in events:
        for n in range(100):  # each with a new session id: ~900 KB, or just under the event body limit
            history = HISTORY if n % 2 else NEAR_LIMIT
            data = [history] * max(len(event["inputs"]), 1)
            statuses.add(post_event(client, url, event, data[:1] + [None] * (len(data) - 1), uuid.uuid4().hex[:12]))
    served_everything(url)
    growth = rss_mb(process.pid) - before
    assert growth < 60, f"RSS grew {growth:.1f} MB"
    assert 413 in statuses  # the 900 KB ones: no event needs such a body
    assert 404 in statuses  # an event that runs in the browser alone: refused, not failed in the queue
    assert "Traceback" not in log_file.read_text()


def test_fifteen_hundred_new_session_ids_to_the_poll_grow_memory_by_under_80_mb(app):
    url, process, _ = app
    events, _ = page_events(url)
    [poll] = [e for e in events if e.get("api_name") == "check"]
    clients = [requests.Session() for _ in range(4)]
    before = rss_mb(process.pid)
    with ThreadPoolExecutor(max_workers=4) as pool:
        sent = pool.map(
            lambda n: post_event(clients[n % 4], url, poll, [], uuid.uuid4().hex[:12]), range(1500)
        )  # three times the sessions kept
        statuses = set(sent)
    served_everything(url)
    growth = rss_mb(process.pid) - before
    assert statuses == {200} and growth < 80, f"RSS grew {growth:.1f} MB"


def test_forty_malformed_megabyte_requests_grow_the_log_by_under_400_kb(app):
    url, _, log_file = app
    events, _ = page_events(url)
    client = requests.Session()
    before = log_file.stat().st_size
    malformed = [
        {"data": [{"role": "user", "content": [{"x": "y" * 1000}] * 1000}], "fn_index": 0},  # ~1 MB, wrong type
        {"data": ["y" * 60_000, {"no": "such"}], "fn_index": 0},  # under the event limit, wrong shape
        {"data": "not a list " * 90_000, "fn_index": 0},
        {"data": [["z" * 1000] * 50], "fn_index": 10**6},  # no such event
    ]
    for n in range(40):
        body = {**malformed[n % 4], "session_hash": uuid.uuid4().hex[:12], "event_data": "e" * 30_000}
        event = events[n % len(events)]
        body["fn_index"] = body["fn_index"] if body["fn_index"] == 10**6 else event["id"]
        route = "gradio_api/run/predict" if n % 2 else "gradio_api/queue/join"
        client.post(url + route, data=json.dumps(body), headers={"content-type": "application/json"}, timeout=30)
    # What a refusal logs is written before its answer is sent: the log is complete now.
    growth = log_file.stat().st_size - before
    assert growth < 400_000, f"the log grew {growth} bytes"
    assert max(map(len, log_file.read_text().splitlines()), default=0) <= 1100  # every line clipped


def test_150_requests_with_megabyte_session_ids_grow_neither_log_nor_memory(app):
    url, process, log_file = app
    app_client(url).predict("warm up", api_name="/chat")
    log_before, rss_before = log_file.stat().st_size, rss_mb(process.pid)
    session = requests.Session()
    statuses = set()
    for n in range(150):
        huge = f"{n}" + "s" * 1_000_000
        path, body = [
            ("/gradio_api/queue/join", {"data": ["hi", []], "fn_index": 0, "session_hash": huge}),
            ("/gradio_api/call/chat", {"data": ["hi"], "session_hash": huge}),
            ("/gradio_api/cancel", {"session_hash": huge, "fn_index": 0, "event_id": "e"}),
        ][n % 3]
        statuses.add(session.post(url.rstrip("/") + path, data=json.dumps(body), timeout=30).status_code)
    served_everything(url)
    log_growth, rss_growth = log_file.stat().st_size - log_before, rss_mb(process.pid) - rss_before
    assert statuses <= {400, 413}  # refused before Gradio: a bad session id, or a body no event needs
    assert log_growth < 1024 * 1024, log_growth
    assert rss_growth < 20, rss_growth


def test_200_over_long_query_strings_and_forms_get_400_and_grow_the_log_by_under_20_kb(app):
    url, _, log_file = app
    session = requests.Session()
    before = log_file.stat().st_size
    query = "&".join(f"a{n}=1" for n in range(21))  # one field over the guard's 20
    form = "&".join(f"f{n}=1" for n in range(60)) + "&session_hash=abc"
    statuses = []
    for n in range(200):
        if n % 2:
            response = session.get(f"{url}?{query}", timeout=10)
        else:
            headers = {"content-type": "application/x-www-form-urlencoded"}
            response = session.post(url + "gradio_api/queue/join", data=form, headers=headers, timeout=10)
        statuses.append(response.status_code)
    written = log_file.read_bytes()[before:].decode()  # logged before each answer was sent
    refusals = [line for line in written.splitlines() if "over-long query string or form" in line]
    assert statuses == [400] * 200 and len(written) < 20_000, len(written)
    assert len(refusals) == 1 and "refused 1 request(s)" in refusals[0]  # the first, then one a minute with a count
    assert "Traceback" not in written
