"""A public page is attacked: no route skips the queue, no file is accepted, and what a visitor sends
(session ids, bodies, text) is bounded before it reaches logs, limits or memory."""

from __future__ import annotations

import http.client
import logging
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlparse

import pytest
import requests

from replica import wording
from replica.chat.limits import UsageLimits
from replica.chat.reply import Visitor
from replica.storage.records import AlertKind
from tests.fakes.openai_server import call, say
from tests.fakes.tcp_proxy import TcpProxy
from tests.fixtures.clients import app_client, ask
from tests.fixtures.clock import HandClock
from tests.fixtures.environment import wait_until

SPIKE = "Many visitors are here at once right now"


def post(url, path, payload, timeout=30):
    return requests.post(url.rstrip("/") + path, json=payload, timeout=timeout)


def test_twenty_direct_requests_on_every_chat_route_keep_model_calls_within_the_queue_limit(app_url, fake_openai):
    fake_openai.default = say("Answered.", delay=0.5)

    def run_route(n):  # the REST routes that skip the queue when the API is open
        return post(app_url, "/gradio_api/run/chat", {"data": [f"hi {n}", []]}).status_code

    def api_route(n):
        return post(app_url, "/gradio_api/api/chat", {"data": [f"hi {n}", []]}).status_code

    def call_route(n):  # the queued REST route: join, then read the result
        joined = post(app_url, "/gradio_api/call/chat", {"data": [f"hi {n}"]})
        if joined.status_code == 422:  # past the address's share of the line: refused at once, in a sentence
            return joined.json()["detail"][0]["message"]
        event = joined.json()["event_id"]
        return requests.get(f"{app_url.rstrip('/')}/gradio_api/call/chat/{event}", timeout=60).text

    with ThreadPoolExecutor(max_workers=60) as pool:
        direct = list(pool.map(run_route, range(20))) + list(pool.map(api_route, range(20)))
        queued = list(pool.map(call_route, range(20)))
    assert set(direct) == {404}  # refused: they would skip the queue
    by_model = [text for text in queued if "Answered." in text]
    at_once = [text for text in queued if SPIKE in text]  # lanes busy past the short wait: without a model
    refused = [text for text in queued if text == wording.ADDRESS_BUSY]
    assert len(by_model) + len(at_once) + len(refused) == 20 and fake_openai.calls == len(by_model)
    assert len(by_model) + len(at_once) >= 8  # the address's share of the line (ADDRESS_MESSAGES_AT_ONCE)
    assert fake_openai.max_in_flight <= 3
    assert app_client(app_url).predict("Still there?", api_name="/chat") == "Answered."


def test_the_loop_itself_allows_only_its_concurrency_whatever_calls_it(fake_openai, make_replica):
    fake_openai.default = say("Answered.", delay=0.3)
    replica = make_replica(queue_concurrency=3, queue_max_size=20, queue_wait_seconds=60)  # all wait their turn
    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(lambda n: replica.reply("Hi", Visitor(f"s{n}")), range(20)))
    assert answers == ["Answered."] * 20 and fake_openai.max_in_flight == 3


def upload_status(url: str, size: int) -> int:
    """Announce a ``size``-byte multipart upload, send its first 64 KB, and return the answer's status."""
    parts = urlparse(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    connection.putrequest("POST", "/gradio_api/upload")
    connection.putheader("Content-Type", "multipart/form-data; boundary=xyz")
    connection.putheader("Content-Length", str(size))
    connection.endheaders()
    try:
        connection.send(b'--xyz\r\nContent-Disposition: form-data; name="files"; filename="a.html"\r\n\r\n')
        connection.send(b"<script>x</script>" * (65536 // 18))
    except OSError:
        pass  # the server may already have answered and closed
    status = connection.getresponse().status
    connection.close()
    return status


def test_uploads_are_refused_large_and_small(app_url, tmp_path):
    assert upload_status(app_url, 50 * 1024 * 1024) == 413
    small = requests.post(
        app_url.rstrip("/") + "/gradio_api/upload", files={"files": ("a.html", b"<script>x</script>")}, timeout=10
    )
    assert small.status_code == 413 and "takes no files" in small.text


def test_a_request_body_over_one_megabyte_is_refused(app_url):
    huge = {"data": ["x" * (1024 * 1024 + 1), []], "fn_index": 0, "session_hash": "abc123"}
    assert post(app_url, "/gradio_api/queue/join", huge).status_code == 413


def test_session_ids_not_of_gradios_shape_are_refused_on_every_route(app_url, fake_openai):
    bad = ["x" * 65, "../../etc", "a b", "é"]
    for value in bad:
        join = {"data": ["hi", []], "fn_index": 0, "session_hash": value}
        assert post(app_url, "/gradio_api/queue/join", join).status_code == 400
        assert post(app_url, "/gradio_api/call/chat", {"data": ["hi"], "session_hash": value}).status_code == 400
        data = requests.get(f"{app_url}gradio_api/queue/data", params={"session_hash": value}, timeout=10)
        assert data.status_code == 400
    assert fake_openai.calls == 0


def test_the_guard_reads_session_ids_where_gradio_reads_them(app_url):
    bad = "s" * 100
    escaped = '{"\\u0073ession_hash": "%s", "data": ["hi"], "fn_index": 0}'  # the key JSON-escaped
    for path in ("/gradio_api/run/chat", "/gradio_api/queue/join"):
        refused = requests.post(app_url.rstrip("/") + path, data=escaped % bad, timeout=10)
        assert refused.status_code == 400 and "Invalid session" in refused.text
        allowed = requests.post(app_url.rstrip("/") + path, data=escaped % "k3j4h5g6f7", timeout=10)
        assert allowed.status_code != 400  # the same request with an id of Gradio's shape goes through
    form = requests.post(app_url.rstrip("/") + "/gradio_api/queue/join", data={"session_hash": bad}, timeout=10)
    assert form.status_code == 400
    for path in (f"/gradio_api/heartbeat/{bad}", f"/gradio_api/stream/{bad}/run/1/playlist.m3u8"):
        assert requests.get(app_url.rstrip("/") + path, timeout=10).status_code == 400
    header = requests.get(app_url.rstrip("/") + "/config", headers={"session_hash": bad}, timeout=10)
    assert header.status_code == 400


def test_the_limiter_remembers_only_admitted_messages_and_forgets_expired_windows():
    clock = HandClock()
    limits = UsageLimits.build(visitor_per_hour=10, address_per_hour=1, model_calls_per_day=100, clock=clock)
    assert limits.admit_message("s0", "203.0.113.7")
    assert not any(limits.admit_message(f"s{n}", "203.0.113.7") for n in range(1, 1000))  # the address is spent
    assert (len(limits.per_visitor), len(limits.per_address)) == (1, 1)
    clock.now += 3601
    assert limits.admit_message("late", "198.51.100.1")
    assert (len(limits.per_visitor), len(limits.per_address)) == (1, 1)  # the expired hour was swept


def test_log_lines_quote_at_most_300_characters_of_visitor_or_model_text(fake_openai, make_replica, caplog):
    long_email = "x" * 5000 + "@example.org"
    fake_openai.script(call(("gather_user_details", {"email": long_email, "notes": "y" * 5000})), say("Hm."))
    replica = make_replica(limits=UsageLimits.build(1, 100, 100))
    with caplog.at_level(logging.INFO):
        replica.reply("Here you go", Visitor("s1"))
        replica.reply("Again", Visitor("s1"))  # refused by the limiter: counted in the log
    assert "Hourly message limits: refused 1 message(s)" in caplog.text
    longest = max((len(run) for run in re.findall(r"x+|y+", caplog.text)), default=0)
    assert longest <= 300


def test_without_telegram_a_logged_alert_is_one_bounded_line(caplog):
    from replica.alerts import Alert
    from replica.alerts.sender import LogNotifier

    alert = Alert(AlertKind.LEAD, "New lead", (("Name", "Ada"), ("Notes", "z" * 5000 + "\nEmail: forged")), "s1")
    with caplog.at_level(logging.WARNING):
        LogNotifier().notify(alert)
    [record] = caplog.records
    assert "\n" not in record.getMessage() and max(len(r) for r in re.findall(r"z+", record.getMessage())) <= 300


def test_a_thread_running_the_loop_is_never_left_behind_after_the_deadline(fake_openai, make_replica):
    fake_openai.default = say("Still thinking. ", forever=True, piece_delay=0.1)
    before = threading.active_count()
    make_replica(reply_deadline_seconds=1).reply("Hi", Visitor("s1"))
    left = lambda: threading.active_count() <= before and fake_openai.in_flight == 0  # noqa: E731
    assert wait_until(left, timeout=30)  # waited for, not slept on: a busy machine ends the stream later


@pytest.mark.parametrize("hops, both_answered", [(0, False), (1, True)], ids=["no trusted proxy", "one trusted"])
def test_behind_a_local_proxy_the_address_is_the_one_trusted_proxy_hops_says(
    start_app, settings, fake_openai, hops, both_answered, caplog
):
    """A proxy on 127.0.0.1 that passes the client's X-Forwarded-For through. With no trusted hop the
    TCP peer is the address whatever the header says: one message an hour for that address, the second
    client refused. With one, the last entry is: two clients, each answered."""
    fake_openai.default = say("Hello.")
    app = start_app(settings.updated(address_messages_per_hour=1, trusted_proxy_hops=hops))
    proxy = TcpProxy("127.0.0.1", urlparse(app.demo.local_url).port)
    try:
        answers = [
            ask(app_client(f"http://127.0.0.1:{proxy.port}/", headers={"X-Forwarded-For": claimed}), "Hi")
            for claimed in ("10.9.0.1", "10.9.0.2")
        ]
    finally:
        proxy.cut()
    assert answers[0] == "Hello."
    assert (answers[1] == "Hello.") is both_answered
    if not both_answered:
        assert answers[1] == wording.TOO_MANY_MESSAGES
        assert caplog.text.count("X-Forwarded-For header, and TRUSTED_PROXY_HOPS is 0") == 1  # said once
