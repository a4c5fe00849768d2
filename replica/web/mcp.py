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
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Callable

import gradio as gr

from replica.chat.reply import Visitor
from replica.web.guard import CALLER_HEADER, SIGNATURE
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
        return bool(match) and hmac.compare_digest(match.group(2), self._mac(match.group(1)))


def caller_address(request: gr.Request | None, trusted_proxy_hops: int) -> str:
    """Who calls the tool. Gradio's MCP server calls it over loopback, so the caller's address is the
    one the HTTP guard signed for the MCP request; without a valid signature, the request's own."""
    forwarded = request.headers.get(CALLER_HEADER.decode()) if request is not None else None
    return SIGNATURE.address(forwarded) or client_address(request, trusted_proxy_hops)


def make_ask(
    reply: Callable[[str, Visitor], str],
    owner_name: str,
    knows: str,
    trusted_proxy_hops: int,
    ids: ConversationIds,
) -> AskFunction:
    """The tool's function: ``reply(message, visitor)`` answers, each caller a visitor by its
    conversation and its :func:`caller_address`. Its name and docstring are what MCP clients see."""

    def ask(question: str, conversation_id: str = "", request: gr.Request = None) -> str:
        given = conversation_id.strip()
        session = given if ids.issued(given) else ids.new()
        visitor = Visitor(session, caller_address(request, trusted_proxy_hops), via="MCP")
        answer = reply(question, visitor)
        return f"{answer}\n\nconversation_id: {visitor.session_id} (pass it back to continue this conversation)"

    ask.__name__ = tool_name(owner_name)
    ask.__doc__ = (
        f"Ask {owner_name}'s AI replica a question; it answers as {owner_name}, from {owner_name}'s own "
        f"files ({knows}). It passes on what it cannot answer, and to get in touch, include the email "
        f"address to reply to in the question: {owner_name} is told at once.\n\n"
        "Args:\n"
        f"    question: The question for {owner_name}, in plain words.\n"
        "    conversation_id: To ask a follow-up, the conversation_id a previous answer ended with; "
        "leave empty to start a new conversation.\n"
    )
    return ask
