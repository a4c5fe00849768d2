"""Telegram webhook mode for the owner's bot: updates pushed to the app instead of polled.

With ``TELEGRAM_WEBHOOK_URL`` set, the app registers that address with ``setWebhook`` (with a secret
token and the update types it handles) and serves it from the same server as the page
(:class:`WebhookReceiver`). A request without the right ``X-Telegram-Bot-Api-Secret-Token`` is refused
with 401 and nothing is handled; refusals are logged at most once a minute, with a count. Telegram gets
its 200 at once; the update is handled afterwards by a worker (:class:`WebhookUpdates`), and each
``update_id`` once, even when Telegram retries or several instances receive it (the database says who
was first).
"""

from __future__ import annotations

import hmac
import json
import logging
import queue
import secrets
from typing import Callable

from replica.logs import EveryMinute
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.runtime.workers import Worker
from replica.storage import Store
from replica.telegram.updates import HANDLED_KINDS, Update, parse_update

log = logging.getLogger(__name__)

SECRET_KEY = "telegram_webhook_secret"
ALLOWED_UPDATES = list(HANDLED_KINDS)


def webhook_secret(store: Store, given: str | None) -> str:
    """The secret token: the one given, else one generated once and kept in the database (shared by
    every instance, and the same after a restart)."""
    return given or store.state.shared(SECRET_KEY, secrets.token_urlsafe(32))


class WebhookUpdates(Worker):
    """Updates received by the webhook, handled one by one, each ``update_id`` once across instances."""

    name = "telegram-webhook"

    def __init__(self, store: Store, handle: Callable[[Update], None], clock: Clock = REAL_CLOCK):
        super().__init__(clock=clock)
        self._store = store
        self._handle = handle
        self._updates: queue.Queue = queue.Queue(maxsize=1000)

    def accept(self, update: Update) -> None:
        """Queue ``update`` for handling (at once: Telegram is waiting for its answer)."""
        try:
            self._updates.put_nowait(update)
        except queue.Full:
            log.error("Telegram webhook: too many updates waiting; this one is dropped")

    def step(self) -> float:
        try:
            update = self._updates.get(timeout=0.5)
        except queue.Empty:
            return 0.0
        self.receive(update)
        return 0.0

    def receive(self, update: Update) -> bool:
        """Handle ``update`` unless this or another instance already did; return whether it was handled."""
        if not self._store.handled_updates.first_time(update.update_id):
            return False
        self._handle(update)
        return True

    def failed(self, error: Exception, delay: float) -> None:
        log.error("Telegram webhook: could not handle an update (%s)", type(error).__name__, exc_info=True)


class WebhookReceiver:
    """ASGI middleware that takes Telegram's POSTs at ``path`` and hands each update to ``accept``."""

    def __init__(self, app: Callable, path: str, secret: str, accept: Callable[[Update], None]):
        self.app = app
        self.path = path.rstrip("/") or "/"
        self._secret = secret.encode()
        self._accept = accept
        # A flood of wrong secrets costs one log line a minute, not one each.
        self._refusals = EveryMinute(
            log,
            "Refused %d request(s) to the Telegram webhook without the right secret token (logged at most once a minute)",
        )

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http" or scope["path"].rstrip("/") != self.path:
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        given = headers.get(b"x-telegram-bot-api-secret-token", b"")
        if scope["method"] != "POST" or not hmac.compare_digest(given, self._secret):
            self._refusals()
            await _respond(send, 401)
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        try:
            update = parse_update(json.loads(body))  # the one place pushed updates are read
        except (ValueError, RecursionError):  # not JSON, or nested deeper than the decoder goes
            update = None
        if update is None:
            log.warning("Telegram webhook: a body that is not an update with an update_id is skipped")
        else:
            self._accept(update)
        await _respond(send, 200)  # at once: the work is done after Telegram has its answer


async def _respond(send: Callable, status: int) -> None:
    await send({"type": "http.response.start", "status": status, "headers": [(b"content-length", b"0")]})
    await send({"type": "http.response.body", "body": b""})
