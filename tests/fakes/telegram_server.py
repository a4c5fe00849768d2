"""A Telegram Bot API stand-in that answers ``sendMessage`` as the real one does.

It checks the token and chat, parses ``parse_mode=HTML`` strictly (unsupported tags and bare ``&``
are refused with "can't parse entities"), enforces the 4096-character limit on the visible text, and
can be scripted to fail: HTTP errors, 429 with ``retry_after``, slowness. Delivered messages are kept
with their visible text, as the owner would read it.
"""

from __future__ import annotations

import html
import re
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

from tests.fakes.server import LocalServer, Response

TOKEN = "123456789:AAFakeTokenForTests_abcdefghijklmno"
CHAT_ID = "4242"
ALLOWED_TAGS = {
    "b",
    "strong",
    "i",
    "em",
    "u",
    "ins",
    "s",
    "strike",
    "del",
    "a",
    "code",
    "pre",
    "tg-spoiler",
    "blockquote",
}
TAG = re.compile(r"<(/?)([a-zA-Z][\w-]*)[^<>]*>")
ENTITY = re.compile(r"&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);")


class ParseError(ValueError):
    pass


def visible_text(text: str) -> str:
    """Parse Telegram HTML the strict way and return the text a reader sees; raise ParseError if Telegram would."""
    out, stack, pos = [], [], 0
    while pos < len(text):
        char = text[pos]
        if char == "<":
            match = TAG.match(text, pos)
            if not match:
                raise ParseError(f"Unexpected character '<' at byte offset {len(text[:pos].encode())}")
            closing, name = match.group(1), match.group(2).lower()
            if name not in ALLOWED_TAGS:
                raise ParseError(f'Unsupported start tag "{name}" at byte offset {len(text[:pos].encode())}')
            if closing:
                if not stack or stack.pop() != name:
                    raise ParseError(f'Can\'t find end tag corresponding to start tag "{name}"')
            else:
                stack.append(name)
            pos = match.end()
        elif char == "&":
            match = ENTITY.match(text, pos)
            if not match:
                raise ParseError(f"Character entity expected at byte offset {len(text[:pos].encode())}")
            out.append(html.unescape(match.group(0)))
            pos = match.end()
        else:
            out.append(char)
            pos += 1
    if stack:
        raise ParseError(f'Can\'t find end tag corresponding to start tag "{stack[-1]}"')
    return "".join(out)


def png_size(data: bytes) -> tuple[int, int] | None:
    """A PNG's width and height, read from its IHDR chunk; ``None`` for anything that is no PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def photo_problem(data: bytes) -> str | None:
    """What Telegram says of a photo it refuses: no image it can read, or too large."""
    size = png_size(data)
    if size is None:
        return "IMAGE_PROCESS_FAILED"
    width, height = size
    if len(data) > 10 * 1024 * 1024 or width + height > 10000 or max(width, height) > 20 * min(width, height):
        return "PHOTO_INVALID_DIMENSIONS"
    return None


@dataclass
class Delivered:
    """A message Telegram accepted: what was sent, what the owner sees, and when (a document: its caption
    as the text, and the file). Its buttons are read from what was sent, as the owner sees them now (an
    edit of them shows here): :attr:`buttons`, :attr:`keys`, :attr:`asks_reply`."""

    payload: dict
    text: str
    at: float
    message_id: int = 0
    document: tuple[str, bytes] | None = None
    photo: tuple[str, bytes] | None = None

    @property
    def keys(self) -> list[list[tuple[str, str]]]:
        """The message's buttons, row by row: each one's label and the data a press of it sends back."""
        rows = (self.payload.get("reply_markup") or {}).get("inline_keyboard") or []
        return [[(button["text"], button["callback_data"]) for button in row] for row in rows]

    @property
    def buttons(self) -> list[list[str]]:
        """The labels of the message's buttons, row by row, as the owner sees them ([] for none)."""
        return [[label for label, _ in row] for row in self.keys]

    def data_of(self, label: str) -> str:
        """What a press of the button labelled ``label`` sends back."""
        [data] = [data for row in self.keys for shown, data in row if shown == label]
        return data

    @property
    def asks_reply(self) -> str | None:
        """The placeholder of the reply the message asks of the owner (a ``ForceReply``: "" for none
        shown), or ``None`` when it asks none."""
        markup = self.payload.get("reply_markup") or {}
        return markup.get("input_field_placeholder", "") if markup.get("force_reply") is True else None


class FakeTelegram(LocalServer):
    """The stand-in. Script failures with :meth:`fail_next`; read :attr:`delivered` and :attr:`attempts`."""

    def __init__(self, token: str = TOKEN, chat_id: str = CHAT_ID, prefix: str = "") -> None:
        self.token = token
        self.chat_id = chat_id
        self.prefix = prefix.rstrip("/")  # served under this path only, as behind a relay
        self.username = "replica_test_bot"
        self.webhook_url = ""  # while set, getUpdates is refused with 409, as Telegram does
        self.webhook: dict = {}  # what setWebhook registered: url, secret_token, allowed_updates
        self.chat_actions: list[dict] = []
        self.callbacks: dict[str, dict] = {}  # callback_query id -> the query, for answerCallbackQuery
        self.callback_answers: list[dict] = []  # every answerCallbackQuery accepted
        self.markup_edits: list[dict] = []  # every editMessageReplyMarkup accepted
        self.text_edits: list[dict] = []  # every editMessageText accepted
        self.delivered: list[Delivered] = []
        self.attempts: list[tuple[float, int]] = []  # (time, status answered)
        self.failures: deque[tuple[int, float | None]] = deque()
        self.delay = 0.0
        self.gate: threading.Event | None = None  # while set to an unset Event, every send waits for it
        self.parse_errors_next = 0  # refuse this many HTML messages as unparsable, whatever they hold
        self.hangs: deque[float] = deque()  # hang this long, then fail without delivering (a timeout)
        self.updates: list[dict] = []  # incoming messages served by getUpdates
        self.polls: list[dict] = []  # every getUpdates request body
        self.conflicts_next = 0  # answer this many getUpdates with 409 Conflict
        self.commands: list[dict] | None = None  # what setMyCommands registered
        self.raw_answers: dict[str, deque[bytes]] = {}  # method -> raw HTTP 200 bodies for its next calls
        self.too_long_next = 0  # refuse this many messages as "message is too long", whatever they hold
        self.on_send: Callable[[], None] | None = None  # called as each sendMessage arrives (a test's hook)
        self._lock = threading.Lock()
        self._message_id = 0
        super().__init__()

    @property
    def env(self) -> dict[str, str]:
        """The settings that point ``python app.py`` at this stand-in."""
        return {"TELEGRAM_BOT_TOKEN": self.token, "TELEGRAM_CHAT_ID": str(self.chat_id), "TELEGRAM_API_BASE": self.url}

    def reset(self) -> None:
        """Forget every delivery, script and record: as new, on the same port. Update ids go on from
        where they were, so a bot that already polled still takes the next ones."""
        with self._lock:
            for kept in (self.delivered, self.attempts, self.failures, self.hangs, self.chat_actions, self.polls):
                kept.clear()
            self.callback_answers.clear()
            self.markup_edits.clear()
            self.text_edits.clear()
            self.raw_answers.clear()
            self.callbacks.clear()
            self.delay, self.parse_errors_next, self.conflicts_next, self.too_long_next = 0.0, 0, 0, 0
            self.gate = None
            self.on_send = None

    def fail_next(self, status: int, times: int = 1, retry_after: float | None = None) -> None:
        """Answer the next ``times`` sendMessage calls with ``status`` (a 429 carries ``retry_after``)."""
        self.failures.extend([(status, retry_after)] * times)

    def wait_for(self, count: int, timeout: float = 30.0) -> list[Delivered]:
        """Wait until ``count`` messages were delivered (or ``timeout`` passed) and return them."""
        deadline = time.monotonic() + timeout
        while len(self.delivered) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return list(self.delivered)

    def answer_raw(self, method: str, *bodies: bytes) -> None:
        """Answer the next calls of ``method`` with these raw bodies (HTTP 200), whatever they hold."""
        with self._lock:
            self.raw_answers.setdefault(method, deque()).extend(bodies)

    def _raw_answer(self, method: str) -> Response | None:
        with self._lock:
            queued = self.raw_answers.get(method)
            return Response(200, raw=queued.popleft()) if queued else None

    def hang_next(self, seconds: float, times: int = 1) -> None:
        """Make the next ``times`` calls hang for ``seconds`` and then fail, delivering nothing."""
        self.hangs.extend([seconds] * times)

    def push(
        self, text: str, reply_to: int | None = None, chat_id: str | None = None, sender: str | None = None
    ) -> int:
        """Queue an incoming message for ``getUpdates``; a leading ``/word`` is marked as a bot command.
        ``sender``: the user who wrote it (in a private chat, as by default, the chat's own)."""
        message: dict[str, Any] = {
            "message_id": 10_000 + len(self.updates),
            "chat": chat_of(chat_id or self.chat_id),
            "from": {"id": int(sender or chat_id or self.chat_id), "is_bot": False, "first_name": "Someone"},
            "date": int(time.time()),
            "text": text,
        }
        if text.startswith("/"):
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
        if reply_to is not None:
            # As Telegram does, the reply carries the message it answers, with the text the owner saw.
            replied = next((d for d in self.delivered if d.message_id == reply_to), None)
            message["reply_to_message"] = {
                "message_id": reply_to,
                "chat": message["chat"],
                "text": replied.text if replied else "(a message)",
            }
        with self._lock:
            update_id = 500 + len(self.updates)
            self.updates.append({"update_id": update_id, "message": message})
        return update_id

    @property
    def base(self) -> str:
        """What ``TELEGRAM_API_BASE`` is set to, prefix included."""
        return self.url + self.prefix

    def push_callback(self, data: str, message_id: int, chat_id: str | None = None, sender: str | None = None) -> str:
        """Queue a button press on delivered message ``message_id``, as a ``callback_query`` update; return its
        id. ``sender``: the user who pressed it (in a private chat, as by default, the chat's own)."""
        delivered = next(d for d in self.delivered if d.message_id == message_id)
        chat = chat_of(chat_id or self.chat_id)
        with self._lock:
            update_id = 500 + len(self.updates)
            query_id = f"cq{update_id}"
            query = {
                "id": query_id,
                "from": {"id": int(sender or chat["id"]), "is_bot": False, "first_name": "Someone"},
                "chat_instance": "1",
                "data": data,
                "message": {
                    "message_id": message_id,
                    "chat": chat,
                    "date": int(time.time()),
                    "text": delivered.text,
                    "reply_markup": delivered.payload.get("reply_markup"),
                },
            }
            self.callbacks[query_id] = query
            self.updates.append({"update_id": update_id, "callback_query": query})
        return query_id

    def handle(self, method: str, path: str, headers: dict[str, str], body: Any) -> Response:
        if not path.startswith(self.prefix + "/"):
            return _error(404, "Not Found")
        path = path[len(self.prefix) :]
        name = path.rsplit("/", 1)[-1]
        if name != "sendMessage" and not path.startswith(f"/bot{self.token}/"):
            return _error(401, "Unauthorized")
        if name == "getUpdates":
            return self._get_updates(body)
        if name in ("setMyCommands", "getMe", "getWebhookInfo", "deleteWebhook", "sendChatAction", "setWebhook"):
            return self._bot_method(name, body)
        if name == "answerCallbackQuery":
            return self._answer_callback_query(body)
        if name == "editMessageReplyMarkup":
            return self._edit_reply_markup(body)
        if name == "editMessageText":
            return self._edit_text(body)
        if name == "sendDocument":
            return self._send_document(body)
        if name == "sendPhoto":
            return self._send_photo(body)
        if self.on_send:
            self.on_send()
        with self._lock:
            hang = self.hangs.popleft() if self.hangs else None
        if hang is not None:
            self.attempts.append((time.monotonic(), 0))
            time.sleep(hang)
            return _error(504, "Gateway Timeout")
        if self.gate is not None:
            self.gate.wait(timeout=120)  # a Telegram that holds every send until the test lets it go
        time.sleep(self.delay)
        response = self._answer(path, body)
        with self._lock:
            self.attempts.append((time.monotonic(), response.status))
        return response

    def _bot_method(self, name: str, body: dict) -> Response:
        """The small methods: the bot's identity, its webhook, its command menu, chat actions."""
        if name == "getMe":
            me = {
                "id": int(self.token.split(":")[0]),
                "is_bot": True,
                "first_name": "Replica",
                "username": self.username,
            }
            return Response(200, {"ok": True, "result": me})
        if name == "getWebhookInfo":
            return Response(200, {"ok": True, "result": {"url": self.webhook_url, "pending_update_count": 0}})
        if name == "deleteWebhook":
            self.webhook_url = ""
        elif name == "setWebhook":
            self.webhook_url, self.webhook = body.get("url", ""), body
        elif name == "setMyCommands":
            self.commands = body.get("commands")
        elif name == "sendChatAction":
            if str(body.get("chat_id")) != self.chat_id:
                return _error(400, "Bad Request: chat not found")
            self.chat_actions.append(body)
        return Response(200, {"ok": True, "result": True})

    def _answer_callback_query(self, body: dict) -> Response:
        """As the Bot API: a known query id, answered once, with at most 200 characters of text."""
        query_id = body.get("callback_query_id")
        with self._lock:
            known = isinstance(query_id, str) and query_id in self.callbacks
            answered = any(a["callback_query_id"] == query_id for a in self.callback_answers)
        if not known or answered:
            return _error(400, "Bad Request: query is too old and response timeout expired or query ID is invalid")
        if len(body.get("text") or "") > 200:
            return _error(400, "Bad Request: MESSAGE_TOO_LONG")
        with self._lock:
            self.callback_answers.append(body)
        return Response(200, {"ok": True, "result": True})

    def _edit_reply_markup(self, body: dict) -> Response:
        """As the Bot API: the bot's own message in that chat, a valid inline keyboard, and a real change."""
        if str(body.get("chat_id")) != self.chat_id:
            return _error(400, "Bad Request: chat not found")
        delivered = next((d for d in self.delivered if d.message_id == body.get("message_id")), None)
        if delivered is None:
            return _error(400, "Bad Request: message to edit not found")
        markup = body.get("reply_markup")
        problem = markup_problem(markup, inline_only=True)
        if problem:
            return _error(400, f"Bad Request: {problem}")
        if markup == delivered.payload.get("reply_markup"):
            return _error(400, "Bad Request: message is not modified")
        with self._lock:
            delivered.payload["reply_markup"] = markup
            self.markup_edits.append(body)
        return Response(200, {"ok": True, "result": True})

    def _edit_text(self, body: dict) -> Response:
        """As the Bot API: the bot's own message in that chat, text that parses, and a real change; the
        message's buttons are those the edit gives (none when it gives none), and the edited message returned."""
        if str(body.get("chat_id")) != self.chat_id:
            return _error(400, "Bad Request: chat not found")
        delivered = next((d for d in self.delivered if d.message_id == body.get("message_id")), None)
        if delivered is None:
            return _error(400, "Bad Request: message to edit not found")
        text = body.get("text") or ""
        shown = shown_text(body)
        if isinstance(shown, Response):
            return shown
        if "reply_markup" in body and markup_problem(body["reply_markup"], inline_only=True):
            return _error(400, f"Bad Request: {markup_problem(body['reply_markup'], inline_only=True)}")
        if shown == delivered.text and body.get("reply_markup") == delivered.payload.get("reply_markup"):
            return _error(400, "Bad Request: message is not modified")
        with self._lock:
            delivered.text = shown
            delivered.payload.update(text=text, parse_mode=body.get("parse_mode"))
            delivered.payload.pop("reply_markup", None)
            if "reply_markup" in body:
                delivered.payload["reply_markup"] = body["reply_markup"]
            self.text_edits.append(body)
        result = {
            "message_id": delivered.message_id,
            "chat": chat_of(self.chat_id),
            "date": int(time.time()),
            "text": shown,
        }
        return Response(200, {"ok": True, "result": result})

    def _send_document(self, body: dict) -> Response:
        """As the Bot API: a multipart form with the chat, a file, and a caption of at most 1024 characters."""
        return self._send_file(body, "document", lambda content: None)

    def _send_photo(self, body: dict) -> Response:
        """As the Bot API: a document's rules, and a photo of at most 10 MB whose width and height add up to
        at most 10000 with a ratio of at most 20 (read from the PNG itself)."""
        return self._send_file(body, "photo", photo_problem)

    def _send_file(self, body: dict, field: str, problem: Callable[[bytes], str | None]) -> Response:
        """A file sent in ``field`` of a multipart form, with the chat and a caption; ``problem`` says what
        Telegram would refuse in its content."""
        self.attempts.append((time.monotonic(), 200))
        if str(body.get("chat_id")) != self.chat_id:
            return _error(400, "Bad Request: chat not found")
        sent = body.get(field)
        if not isinstance(sent, tuple) or not sent[1]:
            return _error(400, f"Bad Request: there is no {field} in the request")
        refused = problem(sent[1])
        if refused:
            return _error(400, f"Bad Request: {refused}")
        caption = body.get("caption") or ""
        if len(caption) > 1024:
            return _error(400, "Bad Request: message caption is too long")
        with self._lock:
            self._message_id += 1
            delivered = Delivered(body, caption, time.monotonic(), self._message_id, **{field: sent})
            self.delivered.append(delivered)
        return Response(200, {"ok": True, "result": {"message_id": delivered.message_id, "caption": caption}})

    def photos(self) -> list[Delivered]:
        """The pictures delivered to the owner's chat, in order."""
        return [d for d in self.delivered if d.photo is not None]

    def _get_updates(self, body: dict) -> Response:
        """Long polling as Telegram does it: updates from ``offset`` on, waiting up to ``timeout`` for one."""
        self.polls.append(body)
        raw = self._raw_answer("getUpdates")
        if raw:
            return raw
        if self.webhook_url:
            return _error(
                409,
                "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
            )
        if self.conflicts_next:
            self.conflicts_next -= 1
            return _error(
                409, "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"
            )
        offset = body.get("offset") or 0
        deadline = time.monotonic() + min(float(body.get("timeout") or 0), 5.0)
        while True:
            with self._lock:
                pending = [u for u in self.updates if u["update_id"] >= offset]
            if pending or time.monotonic() >= deadline:
                return Response(200, {"ok": True, "result": pending})
            time.sleep(0.02)

    def sent_texts(self) -> list[str]:
        """The visible text of every message delivered to the owner's chat."""
        return [d.text for d in self.delivered]

    def _answer(self, path: str, body: Any) -> Response:
        if not path.startswith(f"/bot{self.token}/"):
            return _error(401, "Unauthorized")
        if not path.endswith("/sendMessage"):
            return _error(404, "Not Found")
        raw = self._raw_answer("sendMessage")
        if raw:
            return raw
        with self._lock:
            scripted = self.failures.popleft() if self.failures else None
        if scripted:
            status, retry_after = scripted
            if status == 429:
                return _error(429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after})
            return _error(status, "Internal Server Error" if status >= 500 else "Bad Request")
        if str(body.get("chat_id")) != self.chat_id:
            return _error(400, "Bad Request: chat not found")
        if body.get("parse_mode") and self.parse_errors_next:
            self.parse_errors_next -= 1
            return _error(400, 'Bad Request: can\'t parse entities: Unsupported start tag "x" at byte offset 0')
        shown = shown_text(body)
        if isinstance(shown, Response):
            return shown
        if self.too_long_next:
            self.too_long_next -= 1
            return _error(400, "Bad Request: message is too long")
        if "reply_markup" in body:
            problem = markup_problem(body["reply_markup"])
            if problem:
                return _error(400, f"Bad Request: {problem}")
        if len(shown.encode("utf-16-le")) // 2 > 4096:
            return _error(400, "Bad Request: message is too long")
        with self._lock:
            self._message_id += 1
            message_id = self._message_id
            self.delivered.append(Delivered(payload=body, text=shown, at=time.monotonic(), message_id=message_id))
        result = {
            "message_id": message_id,
            "chat": chat_of(self.chat_id),
            "date": int(time.time()),
            "text": shown,
        }
        return Response(200, {"ok": True, "result": result})


def shown_text(body: dict) -> str | Response:
    """What the owner sees of a message's text (its HTML read as Telegram reads it), or the Bot API's
    refusal of it: entities that do not parse, or nothing to show."""
    text = body.get("text") or ""
    try:
        shown = visible_text(text) if body.get("parse_mode") == "HTML" else text
    except ParseError as exc:
        return _error(400, f"Bad Request: can't parse entities: {exc}")
    return shown if shown.strip() else _error(400, "Bad Request: message text is empty")


def chat_of(chat_id: str) -> dict[str, Any]:
    """A chat as updates carry it: a positive id is a private chat with one user, a negative one a group."""
    if int(chat_id) > 0:
        return {"id": int(chat_id), "type": "private", "first_name": "Someone"}
    return {"id": int(chat_id), "type": "supergroup", "title": "The owner's group"}


def markup_problem(markup: Any, inline_only: bool = False) -> str | None:
    """What the Bot API would refuse in a ``reply_markup``: an InlineKeyboardMarkup of rows of buttons,
    each with text and 1-64 bytes of ``callback_data``; or a ForceReply."""
    if not isinstance(markup, dict):
        return "can't parse reply keyboard markup JSON object"
    if "force_reply" in markup and not inline_only:
        placeholder = markup.get("input_field_placeholder", "")
        if markup["force_reply"] is not True or not isinstance(placeholder, str) or len(placeholder) > 64:
            return "can't parse reply keyboard markup JSON object"
        return None
    rows = markup.get("inline_keyboard")
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        return 'field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays'
    for button in (b for row in rows for b in row):
        if not isinstance(button, dict) or not isinstance(button.get("text"), str) or not button["text"]:
            return "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
        data = button.get("callback_data")
        if not isinstance(data, str) or not 1 <= len(data.encode()) <= 64:
            return "BUTTON_DATA_INVALID"
    return None


def _error(code: int, description: str, parameters: dict | None = None) -> Response:
    body: dict[str, Any] = {"ok": False, "error_code": code, "description": description}
    if parameters:
        body["parameters"] = parameters
    return Response(code, body)
