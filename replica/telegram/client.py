"""A small Telegram Bot API client over ``requests``, with a timeout and checked answers.

``TELEGRAM_API_BASE`` may carry a path (a relay such as ``https://relay.example.org/telegram``): every
call goes to ``{api_base}/bot{token}/{method}``. A message's buttons are given as typed values (a
:data:`~replica.telegram.updates.Keyboard` of :class:`~replica.telegram.updates.Button` rows, or a
:class:`ForceReply`), and :func:`markup_json` is the one place they are written as the Bot API's JSON.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Literal

import requests

from replica.telegram.updates import HANDLED_KINDS, Keyboard

log = logging.getLogger(__name__)
# How Telegram reads a message's text (https://core.telegram.org/bots/api#formatting-options); the app
# writes HTML, escaped (replica.alerts.render), or sends plain text (``parse_mode=None``).
ParseMode = Literal["HTML", "MarkdownV2", "Markdown"]

# What to do when Telegram cannot be reached: said by telegram-setup, doctor and the running sender.
BLOCKED_HINT = (
    "Some hosts, Hugging Face Spaces among them, block Telegram: set TELEGRAM_API_BASE to a relay (docs/relay.md)"
)
NETWORK_REASONS = (
    "Connection refused",
    "Name or service not known",
    "Temporary failure in name resolution",
    "No route to host",
    "Network is unreachable",
    "Connection reset",
    "Read timed out",
    "timed out",
    "certificate verify failed",
)


@dataclass(frozen=True)
class ForceReply:
    """A message that asks for the owner's reply (the API's ``ForceReply``): their chat opens a reply to
    it, with ``placeholder`` in the empty field."""

    placeholder: str = ""


def markup_json(markup: Keyboard | ForceReply) -> dict[str, Any]:
    """``markup`` as the Bot API takes it (an ``InlineKeyboardMarkup``, or a ``ForceReply``): the only
    place the app writes a message's buttons."""
    if isinstance(markup, ForceReply):
        return {"force_reply": True} | ({"input_field_placeholder": markup.placeholder} if markup.placeholder else {})
    return {"inline_keyboard": [[{"text": b.text, "callback_data": b.data} for b in row] for row in markup]}


class TelegramError(Exception):
    """Telegram refused a message or could not be reached. Never carries the bot token."""

    def __init__(self, description: str, status: int | None = None, retry_after: float | None = None):
        super().__init__(description)
        self.description = description
        self.status = status
        self.retry_after = retry_after

    @property
    def is_parse_error(self) -> bool:
        """True when Telegram could not parse the message's HTML entities."""
        return self.status == 400 and "can't parse entities" in self.description.lower()

    @property
    def is_too_long(self) -> bool:
        """True when Telegram found the message longer than it accepts."""
        return self.status == 400 and "message is too long" in self.description.lower()

    @property
    def is_network(self) -> bool:
        """True when Telegram was not reached, or something else answered in its place."""
        return self.status is None

    @property
    def is_retryable(self) -> bool:
        """Network trouble, rate limits and server errors may pass; other 4xx answers will not."""
        return self.status is None or self.status == 429 or self.status >= 500


def _message_id(result: Any) -> int:
    """The id of a message Telegram accepted; an answer without one is of the wrong shape (and retried:
    it is no proof that the message was delivered)."""
    message_id = result.get("message_id") if isinstance(result, dict) else None
    if type(message_id) is not int or message_id <= 0:
        raise TelegramError("unexpected answer (HTTP 200, no message id)")
    return message_id


@dataclass
class TelegramClient:
    """Sends messages to one chat. ``timeout`` is (connect, read) seconds for every call."""

    api_base: str
    token: str = field(repr=False)  # a secret: never in a repr, a log line or an error
    chat_id: str
    timeout: tuple[float, float] = (3.05, 10.0)
    session: requests.Session = field(default_factory=requests.Session)

    def _redact(self, text: str) -> str:
        return text.replace(self.token, "<token>")

    def _network_reason(self, exc: Exception) -> str:
        """The cause in a few words: requests' own message is long, and puts the URL (the token) in it."""
        text = str(exc)
        for known in NETWORK_REASONS:
            if known.lower() in text.lower():
                return known
        return self._redact(text)[:160]

    def call(
        self, method: str, payload: dict[str, Any], read_timeout: float | None = None, files: dict | None = None
    ) -> Any:
        """Call Bot API ``method`` with ``payload`` (as JSON; as a multipart form with ``files``) and return
        its ``result``.

        Raises :class:`TelegramError` on any failure, with the token redacted.
        """
        url = f"{self.api_base}/bot{self.token}/{method}"
        timeout = (self.timeout[0], read_timeout or self.timeout[1])
        sent = {"data": payload, "files": files} if files else {"json": payload}
        try:
            response = self.session.post(url, timeout=timeout, **sent)
        except requests.RequestException as exc:
            raise TelegramError(f"{type(exc).__name__}: {self._network_reason(exc)}") from None
        try:
            body = response.json()
        except ValueError:
            body = None
        if not isinstance(body, dict) or (response.ok and (body.get("ok") is not True or "result" not in body)):
            # A proxy's error page, or a relay answering something else: worth another try later.
            raise TelegramError(f"unexpected answer (HTTP {response.status_code}, not a Bot API object)")
        if response.ok:
            return body["result"]
        description = self._redact(str(body.get("description") or f"HTTP {response.status_code}"))[:300]
        parameters = body.get("parameters")
        retry_after = parameters.get("retry_after") if isinstance(parameters, dict) else None
        if not isinstance(retry_after, (int, float)):
            retry_after = None
        raise TelegramError(description, status=response.status_code, retry_after=retry_after)

    def send_message(
        self, text: str, parse_mode: ParseMode | None = "HTML", reply_markup: Keyboard | ForceReply = ()
    ) -> int:
        """Send ``text`` to the owner's chat (the only chat this client ever writes to), with buttons or a
        forced reply if given (an empty keyboard: none); return its message id."""
        payload: dict[str, Any] = {"chat_id": self.chat_id, "text": text, "link_preview_options": {"is_disabled": True}}
        if parse_mode:
            payload["parse_mode"] = parse_mode
        if reply_markup:
            payload["reply_markup"] = markup_json(reply_markup)
        return _message_id(self.call("sendMessage", payload))

    def send_document(self, filename: str, content: bytes, caption: str) -> int:
        """Send ``content`` as a file named ``filename`` to the owner's chat, with a plain ``caption`` (at
        most 1024 characters, as Telegram allows); return its message id."""
        payload = {"chat_id": self.chat_id, "caption": caption[:1024]}
        files = {"document": (filename, content, "text/plain; charset=utf-8")}
        return _message_id(self.call("sendDocument", payload, files=files))

    def send_photo(self, filename: str, content: bytes, caption: str) -> int:
        """Send the picture ``content`` (PNG) to the owner's chat with a plain ``caption`` (at most 1024
        characters, as Telegram allows); return its message id."""
        payload = {"chat_id": self.chat_id, "caption": caption[:1024]}
        return _message_id(self.call("sendPhoto", payload, files={"photo": (filename, content, "image/png")}))

    def get_updates(self, offset: int | None, poll_seconds: float) -> list[dict[str, Any]]:
        """Long-poll for new messages to the bot, from ``offset`` on: the raw updates, for
        :func:`replica.telegram.updates.parse_update` to read."""
        payload: dict[str, Any] = {"timeout": poll_seconds, "allowed_updates": list(HANDLED_KINDS)}
        if offset is not None:
            payload["offset"] = offset
        updates = self.call("getUpdates", payload, read_timeout=poll_seconds + 10)
        if updates is None:
            return []
        if not isinstance(updates, list):
            raise TelegramError(f"unexpected getUpdates result: {type(updates).__name__}, not a list")
        return updates

    def set_my_commands(self, commands: list[tuple[str, str]]) -> None:
        """Register the bot's command menu: ``(command, description)`` pairs."""
        self.call("setMyCommands", {"commands": [{"command": c, "description": d} for c, d in commands]})

    def get_me(self) -> dict[str, Any]:
        """The bot itself (``username``, ``id``): proves the token is valid."""
        me = self.call("getMe", {})
        if not isinstance(me, dict):
            raise TelegramError("unexpected getMe result")
        return me

    def webhook_url(self) -> str:
        """The webhook set for the bot, or an empty string (while one is set, ``getUpdates`` is refused)."""
        info = self.call("getWebhookInfo", {})
        return str(info.get("url") or "") if isinstance(info, dict) else ""

    def set_webhook(self, url: str, secret_token: str, allowed_updates: list[str]) -> None:
        """Have Telegram push updates to ``url``, with ``secret_token`` in each request's header."""
        self.call("setWebhook", {"url": url, "secret_token": secret_token, "allowed_updates": allowed_updates})

    def delete_webhook(self) -> None:
        """Remove the bot's webhook, so that updates can be polled."""
        self.call("deleteWebhook", {})

    def send_chat_action(self, action: str = "typing") -> None:
        """Show a chat action in the owner's chat: proves the chat exists and the bot may write to it."""
        self.call("sendChatAction", {"chat_id": self.chat_id, "action": action})

    def answer_callback_query(self, query_id: str, text: str = "") -> None:
        """Answer a button press (the button stops spinning; ``text`` shows as a brief notice)."""
        self.call("answerCallbackQuery", {"callback_query_id": query_id, "text": text})

    def edit_message_text(
        self,
        message_id: int,
        text: str,
        parse_mode: ParseMode | None = "HTML",
        reply_markup: Keyboard = (),
    ) -> None:
        """Replace the text of one of the bot's messages in the owner's chat (its buttons: ``reply_markup``;
        an edit without them removes them)."""
        payload: dict[str, Any] = {"chat_id": self.chat_id, "message_id": message_id, "text": text}
        if parse_mode:
            payload["parse_mode"] = parse_mode
        if reply_markup:
            payload["reply_markup"] = markup_json(reply_markup)
        self.call("editMessageText", payload)

    def edit_reply_markup(self, message_id: int, keyboard: Keyboard) -> None:
        """Replace the buttons of one of the bot's messages in the owner's chat with ``keyboard``."""
        markup = markup_json(keyboard)
        self.call("editMessageReplyMarkup", {"chat_id": self.chat_id, "message_id": message_id, "reply_markup": markup})
