"""Requests refused or failed: whatever escapes the app is answered in a line (400 where a request runs
an event, 500 elsewhere, a response begun ended), and each is counted, never logged with a traceback."""

from __future__ import annotations

import asyncio
import logging

from replica.logs import EveryMinute
from replica.web.refusals import Refusals
from tests.fixtures.clock import HandClock


def served(app, path: str):
    """``(messages sent, refused lines, failed lines)`` for one request to ``Refusals(app)``."""
    sent, clock = [], HandClock()
    log = logging.getLogger("test_refusals")
    refused, failed = [], []

    class Lines(logging.Handler):
        def emit(self, record):
            (refused if "error status" in record.msg else failed).append(record.getMessage())

    handler = Lines()
    log.addHandler(handler)
    try:
        guarded = Refusals(
            app,
            refused=EveryMinute(log, "error status %d", clock=clock),
            failed=EveryMinute(log, "failed %d: %s on %s", clock=clock),
        )

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        asyncio.run(guarded({"type": "http", "path": path, "method": "GET", "headers": []}, receive, send))
    finally:
        log.removeHandler(handler)
    return sent, refused, failed


def answering(status: int, raise_after_start: bool = False):
    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": status, "headers": []})
        if raise_after_start:
            raise KeyError("gradio's own")
        await send({"type": "http.response.body", "body": b"ok", "more_body": False})

    return app


async def raising(scope, receive, send):
    raise KeyError("an unknown fn_index")


def test_an_error_answer_is_counted_and_a_good_one_is_not():
    _, refused, failed = served(answering(200), "/")
    assert refused == [] and failed == []
    sent, refused, failed = served(answering(404), "/nothing")
    assert sent[0]["status"] == 404 and refused == ["error status 1"] and failed == []


def test_an_event_route_that_raises_is_answered_400_and_any_other_500_with_the_class_and_path_logged():
    sent, _, failed = served(raising, "/gradio_api/queue/join")
    assert sent[0]["status"] == 400 and failed == ["failed 1: KeyError on /gradio_api/queue/join"]
    sent, _, failed = served(raising, "/config")
    assert sent[0]["status"] == 500 and failed == ["failed 1: KeyError on /config"]
    assert not any("Traceback" in line for line in failed)


def test_a_response_begun_before_the_app_raised_is_ended_not_started_again():
    sent, _, failed = served(answering(200, raise_after_start=True), "/")
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[1] == {"type": "http.response.body", "body": b"", "more_body": False}
    assert failed == ["failed 1: KeyError on /"]
