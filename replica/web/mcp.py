"""The replica as one MCP tool, for AI assistants: ``ask_<owner>(question, conversation_id?)``.

Served by Gradio's own MCP server (streamable HTTP at ``/gradio_api/mcp/``) when ``MCP_ENABLED`` is
true. Exactly one tool: nothing else of the app (the page's endpoint, exports, learned answers) is
exposed. A question goes through the same loop as a visitor's message: knowledge, the two tools (an
agent may leave its user's contact details; the alert says "via MCP"), learned answers, ``MAX_TURNS``,
the reply deadline, and the usage limits (an MCP conversation counts as a visitor session, and its
caller's real address as the address).

Conversation ids are signed with a key kept in the database: only an id this tool issued (on any
instance) continues a conversation; any other starts a new one, so no page visitor's session, and no
made-up id, is ever reachable.

What a caller reads names nothing of the app's inside: the tool's description says whom it speaks for,
not which files it knows, and a question over ``MAX_MESSAGE_CHARS`` is refused by :class:`QuestionLimit`
in a plain sentence before Gradio's loopback call (whose refusal would name the app's own address).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from typing import Any, Callable

import gradio as gr
from starlette.middleware import Middleware
from starlette.types import ASGIApp

from replica import wording
from replica.chat.reply import Visitor
from replica.web.guard import CALLER_HEADER, MCP_ROUTE, SIGNATURE, Receive, Scope, Send, replay
from replica.web.page import client_address

AskFunction = Callable[..., str]
CONVERSATION_ID = re.compile(r"mcp-([0-9a-f]{16})([0-9a-f]{16})")
KEY_NAME = "mcp_conversation_key"


def tool_name(owner_name: str) -> str:
    """``ask_jordan_avery`` for Jordan Avery: letters, digits and underscores only."""
    slug = re.sub(r"[^a-z0-9]+", "_", owner_name.casefold()).strip("_")[:40] or "owner"
    return f"ask_{slug}"


class ConversationIds:
    """Issues conversation ids (``mcp-`` and 32 hex digits: 16 random, 16 of signature) and recognises them."""

    def __init__(self, key: str):
        self._key = key.encode()

    def _mac(self, nonce: str) -> str:
        return hmac.new(self._key, nonce.encode(), hashlib.sha256).hexdigest()[:16]

    def new(self) -> str:
        """A fresh id, signed."""
        nonce = secrets.token_hex(8)
        return f"mcp-{nonce}{self._mac(nonce)}"

    def issued(self, conversation_id: str) -> bool:
        """True when this tool (with this key) issued ``conversation_id``."""
        match = CONVERSATION_ID.fullmatch(conversation_id)
        return match is not None and hmac.compare_digest(match.group(2), self._mac(match.group(1)))


def caller_address(request: gr.Request | None, trusted_proxy_hops: int) -> str:
    """Who calls the tool. Gradio's MCP server calls it over loopback, so the caller's address is the
    one the HTTP guard signed for the MCP request; without a valid signature, the request's own."""
    forwarded = request.headers.get(CALLER_HEADER.decode()) if request is not None else None
    return SIGNATURE.address(forwarded) or client_address(request, trusted_proxy_hops)


def make_ask(
    reply: Callable[[str, Visitor], str],
    owner_name: str,
    trusted_proxy_hops: int,
    ids: ConversationIds,
) -> AskFunction:
    """The tool's function: ``reply(message, visitor)`` answers, each caller a visitor by its
    conversation and its :func:`caller_address`. Its name and docstring are what MCP clients see."""

    def ask(question: str, conversation_id: str = "", request: gr.Request | None = None) -> str:
        given = conversation_id.strip()
        session = given if ids.issued(given) else ids.new()
        visitor = Visitor(session, caller_address(request, trusted_proxy_hops), via="MCP")
        answer = reply(question, visitor)
        return f"{answer}\n\nconversation_id: {visitor.session_id} (pass it back to continue this conversation)"

    ask.__name__ = tool_name(owner_name)
    ask.__doc__ = (  # whom it speaks for, never the names of the owner's files
        f"Ask {owner_name}'s AI replica a question about {owner_name}: their work, experience, projects and "
        f"availability; it answers as {owner_name}, from what {owner_name} wrote for it. It passes on what it "
        f"cannot answer, and to get in touch, include the email address to reply to in the question: "
        f"{owner_name} is told at once.\n\n"
        "Args:\n"
        f"    question: The question for {owner_name}, in plain words.\n"
        "    conversation_id: To ask a follow-up, the conversation_id a previous answer ended with; "
        "leave empty to start a new conversation.\n"
    )
    return ask


class QuestionLimit:
    """ASGI middleware on the MCP route: a call of ``tool`` whose question is over ``max_chars`` characters
    is answered here with the tool's error (:data:`~replica.wording.QUESTION_TOO_LONG`), never handed to
    Gradio, whose loopback call to the queue would be refused for its size with an error that names the
    app's own address and port."""

    def __init__(self, app: ASGIApp, tool: str, max_chars: int):
        self.app = app
        self.tool = tool
        self.max_chars = max_chars

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or not scope["path"].startswith(MCP_ROUTE):
            await self.app(scope, receive, send)
            return
        body = await _body(receive)
        call = _json(body)
        if self._over_long(call):
            error = {"type": "text", "text": wording.QUESTION_TOO_LONG.format(limit=self.max_chars)}
            result = {"jsonrpc": "2.0", "id": call["id"], "result": {"content": [error], "isError": True}}
            await _answer(send, json.dumps(result).encode())
            return
        await self.app(scope, replay(body, receive), send)

    def _over_long(self, call: Any) -> bool:
        if not isinstance(call, dict) or call.get("method") != "tools/call" or "id" not in call:
            return False
        params = call.get("params")
        if not isinstance(params, dict):
            return False
        arguments = params.get("arguments")
        question = arguments.get("question") if isinstance(arguments, dict) else None
        return params.get("name") == self.tool and isinstance(question, str) and len(question) > self.max_chars


def question_limit(tool: str, max_chars: int) -> Middleware:
    """The :class:`QuestionLimit` for the tool named ``tool``, as the page's server takes middleware."""
    return Middleware(QuestionLimit, tool=tool, max_chars=max_chars)


async def _body(receive: Receive) -> bytes:
    body = b""  # already bounded by the HTTP guard in front
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            return body


def _json(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return None


async def _answer(send: Send, body: bytes) -> None:
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})
