"""The line's door as users meet it: ``python app.py`` behind one trusted proxy (each client an address of
its own), a model at the fake. A flood is refused at once, as it joins, and costs other visitors nothing;
large joins keep nothing; a finished session's stream cannot be held open, and every stream counts against
the client's connections (replica/web/line.py, replica/web/line_guard.py; the bench's flood row measures
the others' first words)."""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from bench.queue_visitor import QueueVisitor, endpoint_of
from replica import wording
from tests.fakes.openai_server import FakeOpenAI, say
from tests.fixtures.clients import app_client
from tests.fixtures.environment import wait_until
from tests.fixtures.processes import rss_mb, served_app

MODEL_WORDS = "I am available for new projects from next month."
STREAMS_PER_ADDRESS = 20


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """``python app.py`` (the model at a fake of its own, 0.2 s a reply), its URL, process and log file."""
    folder = tmp_path_factory.mktemp("line-door")
    fake = FakeOpenAI()
    fake.default = say(MODEL_WORDS, delay=0.2)
    try:
        env = {
            "OPENAI_API_KEY": "sk-test",
            "OPENAI_BASE_URL": fake.base_url,
            "OPENAI_MODEL": "fake-model",
            "TRUSTED_PROXY_HOPS": "1",
            "CONNECTIONS_PER_ADDRESS": str(STREAMS_PER_ADDRESS),
            "DATA_DIR": str(folder / "data"),
        }
        with served_app(folder / "app.log", **env) as (url, process):
            yield url, process, folder / "app.log"
    finally:
        fake.close()


def from_address(address: str) -> requests.Session:
    """A client of its own address (the trusted proxy's header)."""
    session = requests.Session()
    session.headers["X-Forwarded-For"] = address
    return session


def refused_with(response: requests.Response) -> str:
    """The sentence a join refused at the door carries ("" for a join let in)."""
    return response.json()["detail"][0]["message"] if response.status_code == 422 else ""


def test_one_session_flooding_is_refused_at_once_and_visitors_elsewhere_are_answered_as_ever(app):
    url, _, log_file = app
    endpoint = endpoint_of(url)
    flood_body = {"data": ["hi"], "fn_index": endpoint[0], "session_hash": "flooding-session"}
    flooder, answers = from_address("10.66.0.1"), Counter()

    def flood() -> None:  # 2,000 short messages of one session, as fast as one connection sends them
        for _ in range(2000):
            joined = flooder.post(url + "gradio_api/queue/join", json=flood_body, timeout=30)
            answers[joined.status_code, refused_with(joined)] += 1

    flooding = threading.Thread(target=flood)
    flooding.start()
    visits = [
        QueueVisitor(url, headers={"X-Forwarded-For": f"10.67.0.{n}"}, endpoint=endpoint).visit(f"Free soon? {n}")
        for n in range(1, 6)
    ]
    flooding.join()
    assert [visit.output for visit in visits] == [MODEL_WORDS] * 5  # from the model, none refused or rushed
    assert max(visit.first_words for visit in visits) < 10  # before the door: 23 s and 84 s behind the flood
    let_in = answers[200, ""]
    refusals = {sentence for (status, sentence) in answers if status == 422}
    assert let_in <= 30 and sum(answers.values()) == 2000  # one at a time, and the hourly 30 at most
    assert refusals <= {wording.ONE_AT_A_TIME, wording.TOO_MANY_MESSAGES} and wording.ONE_AT_A_TIME in refusals
    door_lines = [line for line in log_file.read_text().splitlines() if "The line: refused" in line]
    assert 1 <= len(door_lines) <= 3  # counted in a line a minute, not a line a message


@pytest.mark.measure
def test_three_thousand_large_joins_from_one_client_keep_nothing_and_memory_returns_near_its_start(app):
    url, process, _ = app
    endpoint = endpoint_of(url)
    client = from_address("10.68.0.1")
    QueueVisitor(url, headers={"X-Forwarded-For": "10.68.0.2"}, endpoint=endpoint).visit("warm up")
    before = rss_mb(process.pid)
    large = "x" * 60_000  # just under the largest body an event may have

    def join(n: int) -> int:
        body = {"data": [large], "fn_index": endpoint[0], "session_hash": uuid.uuid4().hex[:12]}
        return client.post(url + "gradio_api/queue/join", json=body, timeout=60).status_code

    with ThreadPoolExecutor(max_workers=6) as pool:
        statuses = Counter(pool.map(join, range(3000)))
    assert set(statuses) <= {200, 422} and statuses[200] <= 120  # the address's hour, a few at a time
    assert wait_until(lambda: requests.get(url + "gradio_api/queue/status", timeout=10).json()["queue_size"] == 0)
    growth = rss_mb(process.pid) - before
    assert growth < 40, f"RSS grew {growth:.1f} MB and stayed"  # before the door: 238 MB to 714 MB
    elsewhere = QueueVisitor(url, headers={"X-Forwarded-For": "10.68.0.3"}, endpoint=endpoint).visit("Still there?")
    assert elsewhere.output == MODEL_WORDS


def open_files(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/fd").iterdir()))


def test_a_finished_sessions_stream_cannot_be_reopened_and_every_stream_counts_against_the_connections(app):
    url, process, _ = app
    visitor = app_client(url, headers={"X-Forwarded-For": "10.69.0.1"})
    assert visitor.predict("Hello", api_name="/chat") == MODEL_WORDS
    before = open_files(process.pid)
    again = from_address("10.69.0.1")
    reopened = [
        again.get(url + "gradio_api/queue/data", params={"session_hash": visitor.session_hash}, timeout=10)
        for _ in range(200)
    ]
    assert {response.status_code for response in reopened} == {404}  # answered at once: nothing to stream
    assert again.get(url + "gradio_api/call/chat/not-an-event", timeout=10).status_code == 404
    holder, held = from_address("10.69.0.2"), []
    try:
        for n in range(STREAMS_PER_ADDRESS + 10):  # heartbeats, each of a session of its own, held open
            response = holder.get(f"{url}gradio_api/heartbeat/held{n}", stream=True, timeout=10)
            held.append(response)
            if response.status_code != 200:
                response.close()  # refused at once: its connection is the client's to use again
        statuses = Counter(response.status_code for response in held)
        assert statuses == {200: STREAMS_PER_ADDRESS, 429: 10}
        assert open_files(process.pid) - before <= STREAMS_PER_ADDRESS + 5
        other = from_address("10.69.0.3").get(f"{url}gradio_api/heartbeat/elsewhere", stream=True, timeout=10)
        assert other.status_code == 200  # another address has its own share
        other.close()
    finally:
        for response in held:
            response.close()
    assert wait_until(lambda: open_files(process.pid) <= before + 5)
