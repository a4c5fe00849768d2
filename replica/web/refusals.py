"""Requests refused or failed: each answered in a line, all counted in one log line a minute.

Anyone can send the page a request that Gradio refuses (422 for a malformed body, 404 for a path it
has not) or fails on (an API name or event it does not know raises inside it, and uvicorn would log a
5 KB traceback for each: a way to fill the disk). :class:`Refusals` is the outermost ASGI middleware:
it counts every answer of 400 or more, and catches whatever escapes the app, answering it (400 on the
routes that run events, where the request is the cause; 500 elsewhere) or ending a response already
begun. Both are logged at most once a minute with a count, the latter with the error's class and path,
never a traceback. The guard (:mod:`replica.web.guard`) refuses unknown API names and events before
Gradio sees them.
"""

from __future__ import annotations

import logging
from typing import Any

from replica.logs import EveryMinute
from replica.text import clip
from replica.web.guard import EVENT_ROUTES, Receive, Scope, Send, refuse

log = logging.getLogger(__name__)

REFUSED = EveryMinute(log, "HTTP: answered %d request(s) with an error status (logged at most once a minute)")
FAILED = EveryMinute(
    log,
    "HTTP: %d request(s) failed inside the app and were answered without a traceback (logged at most once a"
    " minute); the last: %s on %s",
)


class Refusals:
    """ASGI middleware: counts error answers, and answers whatever the app raises in a line."""

    def __init__(self, app: Any, refused: EveryMinute = REFUSED, failed: EveryMinute = FAILED):
        self.app = app
        self.refused = refused
        self.failed = failed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status, finished = 0, False

        async def sending(message: dict[str, Any]) -> None:
            nonlocal status, finished
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                finished = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as error:  # a request's end: counted with its class, never its traceback
            self.failed(type(error).__name__, clip(scope["path"], 80))
            await _answer(send, status, finished, 400 if EVENT_ROUTES.search(scope["path"]) else 500)
            return
        if status >= 400:
            self.refused()


async def _answer(send: Send, status: int, finished: bool, code: int) -> None:
    """Answer ``code`` if nothing was sent yet, else end the response begun; a client gone is let go."""
    try:
        if not status:
            await refuse(send, code, "Bad request." if code < 500 else "Something went wrong.")
        elif not finished:
            await send({"type": "http.response.body", "body": b"", "more_body": False})
    except OSError:
        log.debug("The client left before its error answer")
